"""Play until decided: the pre-planned looks of ``kalarite study --until`` (spec key
``until``) and the error spent over them.

**The looks.** A study with ``games = G`` (the cap, games per matchup) is looked at after
the games of index below g_1 < g_2 < ... < g_L = G of every matchup, each look doubling the
one before (g_k = ceil(G / 2^(L - k))), at most ``MAX_LOOKS`` of them and the first at least
``MIN_FIRST_LOOK`` games a matchup. A look reads exactly the games below its index
(results.analysis.dataset ``max_games``), which are contiguous from game 0 in every matchup,
so what a look sees, and so where the study stops, does not depend on workers, chunk sizes or
the order chunks finish in, and a study interrupted anywhere resumes to the same stop (the
looks already passed are read again from the same games).

**The rules.** ``decided``: every mode the stability rule judges (results/analysis/stability.py)
is stable or player-sensitive. ``width=W``: every deck's win rate against the field, in every
duel mode and for every player in self-play, has an interval narrower than W points. A look's
decision from its report is results/analysis/look_decision.py (this module reads no report,
so the dataset store can import it).

**The error spent over the looks** (``spent``): look k runs every test of the rule at
alpha_k, with alpha_1 + ... + alpha_L = ALPHA (0.05), the alpha_k following the
O'Brien-Fleming-shaped spending function of Lan and DeMets, alpha*(t) = 2 - 2 Phi(z(1 -
ALPHA / 2) / sqrt(t)) at the information fraction t = g_k / G. That the error is at most
ALPHA whatever the rule and however the looks correlate is the Bonferroni (union) bound: the
study errs only if some look's tests err, each with probability at most alpha_k. So an
interval of a look (each deck's move, each win rate: level 1 - alpha_k) covers its true value
with probability at least 1 - ALPHA at whichever look the study stops (tests/test_looks.py
simulates it). Why this and not the exact O'Brien-Fleming boundary: the decision combines
equivalence tests (every deck within the margin) with Holm over the decks (one beyond), and
the union bound holds for that combination without a model of how the looks' statistics
correlate; and why the O'Brien-Fleming shape and not equal shares (ALPHA / L each): the early
looks have a small fraction of the games and rarely decide, so they get almost nothing
(alpha_1 ~ 3e-8, alpha_2 ~ 9e-5 of four looks), and the last look keeps alpha_L ~ 0.044,
whose equivalence test needs about 3% more games than a study without looks (equal shares:
about 40% more), so a study that must reach its cap to call "stable" loses almost nothing.
"""

import math

from scipy.stats import norm

from results import stats

ALPHA = stats.ALPHA
MAX_LOOKS = 4
MIN_FIRST_LOOK = 8  # games a matchup at the first look
SPENDING = (
    "O'Brien-Fleming-shaped alpha spending (Lan-DeMets) over doubling looks, each look's "
    "tests at its share (Bonferroni: the shares sum to 0.05)"
)
DECIDED = "decided"


def plan(cap: int) -> list:
    """The looks of a study of ``cap`` games a matchup: games a matchup at each, doubling,
    the last the cap."""
    cap = int(cap)
    n = 1
    while n < MAX_LOOKS and math.ceil(cap / 2**n) >= MIN_FIRST_LOOK:
        n += 1
    return [math.ceil(cap / 2 ** (n - 1 - k)) for k in range(n)]


def chunk_size_for_looks(size: int, cap: int) -> int:
    """The chunk size of a study of ``cap`` games a matchup played look by look, at most
    ``size`` (the automatic one): a chunk that straddles a look is played whole and its games
    past the look wait for the next one, wasted where that look stops the study (10% of the
    top credibility study's games at 110 a chunk and looks of 200 and 400). So the largest size
    that ends a chunk on every look but the cap, if one is at least half of ``size`` (a chunk
    costs its start-up); else ``size``, within the first look."""
    sizes = plan(cap)
    size = max(1, min(int(size), sizes[0]))
    step = 0
    for games in sizes[:-1]:
        step = math.gcd(step, games)
    if step == 0:  # one look, at the cap
        return size
    for s in range(size, max(1, size // 2) - 1, -1):
        if step % s == 0:
            return s
    return size


def spending(t: float, alpha: float = ALPHA) -> float:
    """The error spent by the information fraction ``t`` (0 < t <= 1)."""
    if t <= 0:
        return 0.0
    return float(2 - 2 * norm.cdf(norm.ppf(1 - alpha / 2) / math.sqrt(t)))


def spent(looks, alpha: float = ALPHA) -> list:
    """Each look's share of ``alpha`` (they sum to ``alpha``)."""
    cap = looks[-1]
    cum = [spending(g / cap, alpha) for g in looks]
    cum[-1] = alpha  # exactly, whatever the rounding
    return [c - p for c, p in zip(cum, [0.0, *cum[:-1]], strict=True)]


def width_of(until: str | None) -> float | None:
    """W of ``width=W`` (None for ``decided``)."""
    if not until or not until.startswith("width="):
        return None
    return float(until.partition("=")[2])


def describe(until: str) -> str:
    w = width_of(until)
    if w is None:
        return "every mode's stability verdict decided (stable or player-sensitive)"
    return f"every deck's interval narrower than {w:g} points"


def block(until: str, cap: int) -> dict:
    """The manifest's ``until`` record before any look: the rule and the plan."""
    looks = plan(cap)
    return {
        "rule": until,
        "means": describe(until),
        "looks": looks,
        "alpha_spent": [round(a, 12) for a in spent(looks)],
        "alpha": ALPHA,
        "spending": SPENDING,
        "results": [],
        "stopped": None,
    }


def stop_record(rec: dict, cap: int, last: bool) -> dict | None:
    """The ``stopped`` record after a look (None: play on)."""
    if rec["decided"]:
        why = f"decided at look {rec['look']} ({rec['games']:,} games a matchup): {rec['why']}"
    elif last:
        why = f"reached the cap of {cap:,} games a matchup undecided: {rec['why']}"
    else:
        return None
    return {
        "look": rec["look"],
        "games": rec["games"],
        "alpha": rec["alpha"],
        "decided": rec["decided"],
        "why": why,
    }


def study_looks(manifest: dict, max_games: int | None) -> dict | None:
    """The summary's ``looks`` block of a study played ``--until`` (None for another): the
    rule, the plan and each look's share of the error, every look's record, where it
    stopped and why, and ``alpha`` (the error each test of the report's stability rule is
    run at: the share of the look the report reads, else of the last look)."""
    until = manifest.get("until") if isinstance(manifest, dict) else None
    if not isinstance(until, dict) or not isinstance(until.get("looks"), list):
        return None
    looks = [int(g) for g in until["looks"]]
    alphas = [float(a) for a in until.get("alpha_spent") or spent(looks)]
    at = looks.index(max_games) if max_games in looks else len(looks) - 1
    return {
        "rule": until.get("rule"),
        "means": until.get("means"),
        "looks": looks,
        "alpha_spent": alphas,
        "spending": until.get("spending"),
        "results": until.get("results") or [],
        "stopped": until.get("stopped"),
        "look": at + 1,
        "games": looks[at],
        "alpha": alphas[at],
        "interval": round(1 - alphas[at], 6),
    }
