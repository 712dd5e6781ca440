"""How an interval is printed beside its verdict, for the report, its key findings and
``compare``: the printed bounds never contradict the verdict at the shown precision.

A bound is rounded *outward* (the lower one down, the upper one up), so the printed interval
always holds the computed one: an interval that contains the fair value (50%, a fair share,
a difference of 0) is never printed without it. Where an interval that excludes the fair
value would then print a bound equal to it (48.0% [46.1%, 49.96%], not [46.1%, 50.0%] beside
"the interval excludes 50%"), that bound gets more digits until it differs.

The verdict itself is never decided from the printed digits: it is the test's, at its stated
error rate, whatever the display precision.
"""

import math

MORE_DIGITS = 4  # at most this many digits beyond the shown precision to tell a bound apart


def _outward(value: float, digits: int, up: bool) -> float:
    scale = 10.0**digits
    scaled = value * scale
    # a bound that is a round number up to float noise stays that number
    step = math.ceil(scaled - 1e-9) if up else math.floor(scaled + 1e-9)
    return step / scale


def bound(value: float, up: bool, fair=None, excludes=False, digits=1, scale=100.0, small=True):
    """One bound as printed (``value`` times ``scale``, no unit): rounded outward at
    ``digits`` decimals, with more where it would print as ``fair`` (in the same unit as
    ``value``) although the interval ``excludes`` it. ``small``: a share below 1% gets two
    decimals, below 0.1% three, as the report prints small shares."""
    shown = value * scale
    if abs(shown) < 5e-7:
        return "0"
    if small and scale == 100.0 and abs(shown) < 1:
        digits = max(digits, 2 if abs(shown) >= 0.1 else 3)
    target = None if fair is None else fair * scale
    out = _outward(shown, digits, up)
    more = 0
    while excludes and target is not None and out == target and more < MORE_DIGITS:
        more += 1
        out = _outward(shown, digits + more, up)
    return f"{out:.{digits + more}f}"


def interval(lo, hi, fair=None, digits=1, scale=100.0, unit="%", signed=False) -> str:
    """``[lo, hi]`` as printed (see the module docstring); ``fair``: the value the verdict
    beside it is about (0.5 for a win rate, 0 for a difference), None when there is none.
    ``signed``: a difference, printed with its sign ("+1.2")."""
    if lo is None or hi is None:
        return ""
    excludes = fair is not None and (lo > fair or hi < fair)
    parts = []
    for value, up in ((lo, False), (hi, True)):
        text = bound(value, up, fair, excludes, digits, scale, small=not signed)
        if signed and not text.startswith("-"):
            text = ("+" if text != "0" else "") + text
        parts.append(text + unit)
    return f"[{parts[0]}, {parts[1]}]"


def rate_fair(r: dict):
    """The fair value a rate of the report is judged against: 50% for a win rate (its record
    holds ``excludes_half``), its fair share in a game of more sides, else none."""
    if "share" in r:
        return r["share"]
    return 0.5 if "excludes_half" in r else None


def no_interval(mean) -> str:
    """What stands where a difference has no interval (results.stats.paired_difference:
    fewer than two pairs, or the same difference in every pair), instead of a zero-width
    interval that would claim certainty."""
    if mean is None:
        return "no pairs"
    if mean == 0:
        return "no interval: no game changed"
    return "no interval: too few pairs, or the same change in every pair"


def difference_text(mean, lo, hi, digits=1) -> str:
    """A difference of shares in points with its interval ("+1.2 [-0.4, +2.9]"), or what
    stands in for a missing interval (``no_interval``)."""
    if mean is None:
        return no_interval(None)
    head = f"{100 * mean:+.{digits}f}"
    if lo is None or hi is None:
        return f"{head} ({no_interval(mean)})"
    return f"{head} {interval(lo, hi, 0.0, digits=digits, unit='', signed=True)}"
