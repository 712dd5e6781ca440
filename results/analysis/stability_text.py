"""The stability verdict in words (results/analysis/stability.py decides it): one line per
mode for the first screen, ``kalarite compare`` and the sensitivity section, and a label
per deck. Every line starts with the verdict, one of the rule's three words: stable,
player-sensitive or undetermined."""

from results import shown
from results.analysis.stability import ALPHA, SENSITIVE, STABLE, UNDETERMINED

ORDER = {STABLE: 0, UNDETERMINED: 1, SENSITIVE: 2}  # a deck's worst verdict names it


def who(c) -> str:
    """The two sides of a comparison in a few words."""
    a, b = c["players"]
    if c["kind"] == "top_two":
        return f"{a} vs {b}"
    if c["kind"] == "budget":
        return f"{a} vs double budget {b}"
    if c["kind"] == "replicate":
        return f"{a} in A vs in B"
    return f"{a} (A) vs {b} (B)"


def _p(p) -> str:
    return "–" if p is None else ("< 0.001" if p < 0.001 else f"{p:.2g}")


def level(share: float) -> str:
    """A confidence level in percent, with the decimals that tell it from its neighbours:
    "95%" at alpha 0.05, "95.6%" at a look's share 0.0444, "99.99%" at 8.9e-5."""
    x = 100 * float(share)
    if abs(x - round(x)) < 1e-9:
        return f"{round(x)}%"
    for digits in range(1, 7):
        text = f"{x:.{digits}f}"
        if float(text) != round(x) or digits == 6:
            return text.rstrip("0").rstrip(".") + "%"
    return f"{x}%"  # not reached


def interval_levels(alpha=None) -> tuple:
    """(the shown interval's level, the equivalence interval's): 1 - alpha and 1 - 2 alpha
    of the rule's tests (95% and 90% at alpha 0.05; 95.6% and 91.1% at the last of four
    looks of ``--until``: results/looks.py)."""
    a = ALPHA if alpha is None else float(alpha)
    return level(1 - a), level(1 - 2 * a)


def move(x, alpha=None) -> str:
    """A deck's move with its interval (level 1 - alpha of the comparison's tests), in
    points, the bounds rounded outward as ``compare``'s tables print theirs (results.shown:
    the same interval prints alike); with ``alpha`` the level is said after it."""
    text = f"{x['delta']:+.1f} {points(x['delta_lo'], x['delta_hi'])}"
    return text if alpha is None else f"{text} ({interval_levels(alpha)[0]})"


def points(lo, hi) -> str:
    """An interval in points, rounded outward (results.shown)."""
    return shown.interval(lo / 100, hi / 100, unit="", signed=True)


def about(n: int) -> str:
    """A projected number of games, to two significant figures."""
    if n >= 10**8:
        return "more than 100,000,000"
    digits = max(len(str(int(n))) - 2, 0)
    return f"{round(n, -digits):,}"


def _alpha(c) -> float:
    return c.get("alpha", ALPHA)


def _largest(c):
    d, x = max(c["decks"].items(), key=lambda kv: abs(kv[1]["delta"]))
    return f"{d} {move(x, _alpha(c))}"


def _differ(c) -> str:
    t = c.get("differ")
    if not t:
        return ""
    who_ = "the samples" if c["kind"] == "replicate" else "the players"
    if t["differ"]:
        return f"; {who_} differ (chi² {t['chi2']:.1f}, {t['df']} df, p {_p(t['p_value'])})"
    return f"; no difference between {who_} shown (p {_p(t['p_value'])})"


def description(c) -> str:
    """The descriptive figures: tau with its interval, confident reversals, flips."""
    if c["tau"] is None:
        parts = ["tau –"]
    elif c["tau_lo"] is None:
        parts = [f"tau {c['tau']:.2f}"]
    else:
        parts = [f"tau {c['tau']:.2f} [{c['tau_lo']:.2f}, {c['tau_hi']:.2f}]"]
    revs = [f"{r['decks'][0]}/{r['decks'][1]}" for r in c["reversals"]]
    parts.append("confident reversals: " + (", ".join(revs) if revs else "none"))
    if c["flipped"]:
        flips = [f"{d} ({' → '.join(c['decks'][d]['verdicts'])})" for d in c["flipped"]]
        parts.append("favoured ↔ disfavoured: " + ", ".join(flips))
    return ", ".join(parts)


def body(c) -> str:
    """What decided a comparison, with the global test and the description."""
    m = c["margin"]
    eq = interval_levels(_alpha(c))[1]
    if c["verdict"] == STABLE:
        main = (
            f"every deck's move lies within ±{m:g} points ({eq} intervals), largest {_largest(c)}"
        )
    elif c["verdict"] == SENSITIVE:
        main = ", ".join(
            f"{d} {move(x, _alpha(c))} points, beyond ±{m:g} (Holm p {_p(x['p_beyond_holm'])})"
            for d, x in c["decks"].items()
            if x["verdict"] == SENSITIVE
        )
    else:
        main = (
            f"no deck's move is shown beyond ±{m:g} points, nor every deck's within; "
            f"largest {_largest(c)}"
        )
        main += f"; {c['games']:,} games a deck now"
        if c["games_needed"]:
            main += f", about {about(c['games_needed'])} would decide it at the moves seen"
        if c.get("games_needed_no_move"):
            main += (
                f", about {about(c['games_needed_no_move'])} would show every deck within "
                f"±{m:g} if none truly moves"
            )
    return f"{main}{_differ(c)}; {description(c)}"


def comparison_text(c: dict) -> str:
    """One comparison: its verdict, who, and why."""
    return f"{c['verdict']} ({who(c)}): {body(c)}"


def mode_text(m: dict | None) -> str:
    """A mode's verdict in one line (the first screen, ``kalarite compare``, the sensitivity
    section): its verdict word first, then each comparison, or why it cannot be judged."""
    if not m or m.get("verdict") is None:
        return f"stability cannot be judged: {(m or {}).get('why', 'one player')}"
    comps = m["comparisons"]
    if len(comps) == 1:
        return comparison_text(comps[0])
    return f"{m['verdict']}: " + "; ".join(comparison_text(c) for c in comps)


def mode_short(m: dict | None) -> str:
    """A mode's verdict in a few words (the first screen's picture): the verdict, and each
    comparison's largest move (or its own verdict where the mode has two)."""
    if not m or m.get("verdict") is None:
        return mode_text(m)
    comps = m["comparisons"]
    if len(comps) > 1:
        return f"{m['verdict']}: " + "; ".join(f"{who(c)} {c['verdict']}" for c in comps)
    c = comps[0]
    text = f"{c['verdict']} ({who(c)}): largest move {_largest(c)} points"
    if c["verdict"] == UNDETERMINED and c["games_needed"]:
        text += f"; about {about(c['games_needed'])} games a deck would decide it"
    return text


def sensitive_decks(m: dict) -> list:
    """The decks whose move is confidently beyond the margin in any of the mode's
    comparisons, in the study's deck order."""
    out = []
    for c in m.get("comparisons", []):
        out += [d for d, x in c["decks"].items() if x["verdict"] == SENSITIVE]
    return list(dict.fromkeys(out))


def deck_label(deck, comparisons) -> tuple | None:
    """(label, level) of one deck: its own verdict (the worst over the comparisons; level
    is the verdict word) with its move and interval, and a favoured <-> disfavoured flip."""
    rows = [(c, c["decks"][deck]) for c in comparisons if deck in c["decks"]]
    if not rows:
        return None
    c, x = max(rows, key=lambda r: (ORDER[r[1]["verdict"]], abs(r[1]["delta"])))
    a, b = c["from_to"]
    word = x["verdict"]
    m = c["margin"]
    mv = move(x, _alpha(c))
    if word == STABLE:
        label = f"stable: moves {mv} points, within ±{m:g} ({a} → {b})"
    elif word == SENSITIVE:
        label = f"player-sensitive: moves {mv} points, beyond ±{m:g} ({a} → {b})"
    else:
        label = f"undetermined: moves {mv} points ({a} → {b})"
    flips = [(cc, xx) for cc, xx in rows if xx["flipped"]]
    if flips:
        cc, xx = flips[0]
        label += f"; {xx['verdicts'][0]} → {xx['verdicts'][1]} ({' → '.join(cc['from_to'])})"
    return label, word
