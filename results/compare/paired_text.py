"""The paired analysis as text (``kalarite compare``): one table per kind of row with the
paired interval, the unpaired one and the ratio of their widths."""

from results import shown


def columns(rows) -> str:
    """Rows of cells as aligned text: the first column left, the others right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


def diff_interval(d, share: bool) -> str:
    """A paired difference's interval, its bounds printed so that they agree with the
    significance beside them (results.shown); the text table and the compare page share it.
    Without an interval (the same change in every pair) it says so; a share difference's
    interval held at +-100 points says so too."""
    if d["lo"] is None or d["hi"] is None:
        return f"({shown.no_interval(d['diff'])})"
    clipped = " (clipped to +-100)" if d.get("clipped") else ""
    return (
        shown.interval(
            d["lo"],
            d["hi"],
            0.0,
            digits=1 if share else 2,
            scale=100.0 if share else 1.0,
            unit="",
            signed=True,
        )
        + clipped
    )


def _paired_cells(r) -> list:
    d = r["diff"]
    share = d["share"] if d else True

    def v(x, signed=True):
        if x is None:
            return "–"
        return (f"{100 * x:+.1f}" if signed else f"{100 * x:.1f}%") if share else f"{x:+.2f}"

    if not d:
        return [r["label"], f"{r['pairs']:,}", "–", "–", "–", "–", "–", "no"]
    ratio = d["width_ratio"]
    if r.get("identical"):
        return [r["label"], f"{r['pairs']:,}", "identical in every pair", "", "", "", "", "no"]
    return [
        r["label"],
        f"{r['pairs']:,}",
        f"{v(d['diff'])} {diff_interval(d, share)}",
        f"[{v(d['unpaired_lo'])}, {v(d['unpaired_hi'])}]",
        "–" if ratio is None else f"{ratio:.2f}",
        f"{d['p_value']:.3g}",
        f"{d['p_holm']:.3g}" if d.get("p_holm") is not None else "–",
        "YES" if r["significant"] else "no",
    ]


PAIRED_TITLES = {
    "matchups": "Paired, per matchup: score share of the first-named deck (win 1, draw 1/2), "
    "B - A in percentage points",
    "first_player": "Paired, per group: first mover's score share, B - A in percentage points",
    "turns": "Paired, per group: turns per game, B - A",
}


def pairs_by_matchup(p: dict, most: int = 12) -> list:
    """Which games pair: per matchup both studies hold (as seated), its pairs (a shared
    deal: the same seed and deal index) of A's and B's games; the matchups of one study
    only, counted."""
    rows = [o for o in p.get("matchups") or [] if o["games_a"] and o["games_b"]]
    only = [o for o in p.get("matchups") or [] if not (o["games_a"] and o["games_b"])]
    if not rows and not only:
        return []
    from results.analysis import MODE_LABELS

    out = ["  which games pair (the same seed and deal index), per matchup both hold:"]
    for o in rows[:most]:
        out.append(
            f"    {MODE_LABELS.get(o['mode'], o['mode'])} {o['decks'][0]} vs {o['decks'][1]}: "
            f"{o['pairs']:,} pairs of A's {o['games_a']:,} and B's {o['games_b']:,} games"
        )
    if len(rows) > most:
        out.append(f"    ... and {len(rows) - most} more matchups (compare --json lists them)")
    if not rows:
        out.append("    none")
    if only:
        a = sum(1 for o in only if o["games_a"])
        out.append(
            f"    not in both, so not compared game by game: {a} matchup(s) only in A, "
            f"{len(only) - a} only in B"
        )
    return out


def format_paired(p: dict, show_all: bool = False) -> list:
    lines = ["", "Paired analysis (games dealt from the same seed in A and B)"]
    if not p["paired"]:
        lines.append(f"  not paired: {p['why_not']}")
        return lines + pairs_by_matchup(p)
    lines.append(
        f"  {p['pairs']:,} pairs of games ({p['games_b']:,} two-seat games in B). Test: "
        + p["method"]
        + "; width ratio = paired interval width / unpaired width"
        + (
            f" (median {p['median_width_ratio']:.2f}: as precise as unpaired studies "
            f"{1 / p['median_width_ratio'] ** 2:.1f}x as large)"
            if p.get("median_width_ratio")
            else ""
        )
    )
    lines += pairs_by_matchup(p)
    if p.get("identical_rows"):
        lines.append(
            f"  {p['identical_rows']} row(s) identical in every pair: the change never came into "
            "play in those games"
        )
    head = ["", "pairs", "B - A [95% paired CI]", "unpaired CI", "width ratio", "p", "Holm p"]
    head.append("significant")
    for name, rows in p["tables"].items():
        n_sig = sum(r["significant"] for r in rows)
        lines.append("")
        lines.append(f"{PAIRED_TITLES[name]}: {n_sig} of {len(rows)} significant")
        shown = (
            rows
            if (show_all or name != "matchups" or len(rows) <= 12)
            else [r for r in rows if r["significant"]]
        )
        if shown:
            lines.append(columns([head] + [_paired_cells(r) for r in shown]))
        if len(shown) < len(rows):
            lines.append(f"  ({len(rows) - len(shown)} rows not significant; --all lists them)")
    return lines
