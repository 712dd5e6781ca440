"""The report's plots, drawn with matplotlib's object API on the Agg canvas (no display, no
pyplot state), from the numbers of ``results.analysis``. Each function writes one PNG (the
heatmap also returns its cell text size, which the page's legibility check reads); the numbers
it draws are all in ``summary.json``."""

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from results import shown

DPI = 110
BLUE = "#2b6cb0"
ORANGE = "#dd6b20"
GREY = "#718096"
RED = "#c53030"
GREEN = "#2f855a"


def _figure(w, h):
    fig = Figure(figsize=(w, h), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _save(fig, path):
    fig.savefig(path, dpi=DPI)


def _pct(x):
    return "–" if x is None else f"{100 * x:.1f}%"


def _ink(rate, span):
    """Text colour readable on the heatmap colour of ``rate``."""
    return "white" if abs(rate - 0.5) > 0.55 * span else "black"


def _rate(rec):
    return rec["win_rate"] if rec else None


HEATMAP_FONT = 8.5  # points: 13 px in the image at DPI, shown at least 0.85x (11 px)
HEATMAP_MAX_IN = 11.2  # the image is shown 1:1 up to about 1,240 px
PANELS = {
    "combined": "both seat orders",
    "first": "row deck moves first",
    "second": "row deck moves second",
}


def heatmap_layout(n):
    """Figure width, height (inches) and how much each cell says for ``n`` decks: the full
    text (rate, interval, n) while a cell is an inch wide, the rate alone down to 0.55 inch,
    none below (then the values are in the table beside it)."""
    margin_w, margin_h = 3.0, 2.2  # labels, colour bar, title
    cell = min(1.35, (HEATMAP_MAX_IN - margin_w) / max(n, 1))
    text = "full" if cell >= 1.0 else ("rate" if cell >= 0.55 else "none")
    return margin_w + cell * n, margin_h + cell * n, text


def matchup_matrix(path, title, decks, cells, key="combined", scale=2):
    """One heatmap of the row deck's win rate: ``key`` = combined (both seat orders), first
    (row deck moves first) or second. Written at ``scale`` times DPI; returns the cell text
    size in image pixels (``text_px``, 0 when the cells carry no text) and ``scale``."""
    by = {(c["deck"], c["opp_deck"]): c for c in cells}
    n = len(decks)
    rates = [
        c[k]["win_rate"]["rate"] for c in cells for k in ("combined", "first", "second") if c[k]
    ]
    rates = [r for r in rates if r is not None]
    span = max([0.1] + [abs(r - 0.5) for r in rates])
    norm = TwoSlopeNorm(vcenter=0.5, vmin=0.5 - span, vmax=0.5 + span)
    w, h, say = heatmap_layout(n)
    fig = _figure(w, h)
    ax = fig.subplots()
    grid = np.full((n, n), np.nan)
    for i, a in enumerate(decks):
        for j, b in enumerate(decks):
            c = by.get((a, b))
            wr = _rate(c[key]) if c else None
            if wr is None or wr["rate"] is None:
                if say != "none":
                    ax.text(
                        j,
                        i,
                        "no games",
                        ha="center",
                        va="center",
                        fontsize=HEATMAP_FONT,
                        color=GREY,
                    )
                continue
            grid[i, j] = wr["rate"]
            if say == "none":
                continue
            head = "1st mover\n" if c["mirror"] and key == "combined" else ""
            star = " *" if wr["excludes_half"] else ""
            small = " †" if wr["small"] else ""
            txt = f"{head}{_pct(wr['rate'])}{star}"
            if say == "full":
                txt += f"\n{shown.interval(wr['lo'], wr['hi'], 0.5)}\nn={wr['n']}{small}"
            ax.text(
                j,
                i,
                txt,
                ha="center",
                va="center",
                fontsize=HEATMAP_FONT,
                color=_ink(wr["rate"], span),
            )
    im = ax.imshow(grid, cmap="RdBu", norm=norm)
    ax.set_xticks(range(n), decks, rotation=30, ha="right", fontsize=HEATMAP_FONT + 0.5)
    ax.set_yticks(range(n), decks, fontsize=HEATMAP_FONT + 0.5)
    ax.set_xlabel("column deck (opponent)", fontsize=HEATMAP_FONT)
    ax.set_ylabel("row deck", fontsize=HEATMAP_FONT)
    cb = fig.colorbar(im, ax=ax, shrink=0.8)
    cb.set_label("row deck win rate (decisive games)", fontsize=HEATMAP_FONT)
    cb.ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    cb.ax.tick_params(labelsize=HEATMAP_FONT)
    ax.set_title(
        f"{title}\n{PANELS[key]}; * 95% Wilson interval excludes 50%, † n < 100",
        fontsize=HEATMAP_FONT + 0.5,
    )
    fig.savefig(path, dpi=DPI * scale)
    return {"text_px": 0.0 if say == "none" else HEATMAP_FONT / 72 * DPI * scale, "scale": scale}


def forest(path, title, rows, xlabel, ref=0.5, percent=True):
    """Estimates with intervals, one line each. ``rows``: (label, estimate, lo, hi, colour,
    marker text) with None estimates drawn as 'no data'."""
    h = 0.32 * len(rows) + 1.4
    fig = _figure(8, max(2.2, h))
    ax = fig.subplots()
    ys = np.arange(len(rows))[::-1]
    for y, (_label, est, lo, hi, colour, note) in zip(ys, rows, strict=True):
        if est is None:
            ax.text(ref, y, "no data", va="center", ha="center", fontsize=7, color=GREY)
            continue
        if lo is not None and hi is not None:
            ax.plot([lo, hi], [y, y], color=colour or BLUE, lw=2)
        ax.plot([est], [y], "o", color=colour or BLUE, ms=5)
        if note:
            ax.annotate(
                note,
                (hi if hi is not None else est, y),
                xytext=(4, 0),
                textcoords="offset points",
                va="center",
                fontsize=7,
            )
    if ref is not None:
        ax.axvline(ref, color=GREY, lw=1, ls="--")
    ax.set_yticks(ys, [r[0] for r in rows], fontsize=8)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    if percent:
        ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    _save(fig, path)


def histograms(path, title, hist):
    """Game length: turns and actions (value counts)."""
    fig = _figure(10, 3.4)
    axes = fig.subplots(1, 2)
    for ax, key in zip(axes, ("turns", "actions"), strict=True):
        vc = hist.get(key) or []
        if vc:
            v = np.array([x[0] for x in vc])
            c = np.array([x[1] for x in vc])
            lo, hi = int(v.min()), int(v.max())
            bins = np.arange(lo, hi + 2) if hi - lo <= 80 else 60
            ax.hist(v, bins=bins, weights=c, color=BLUE, alpha=0.85)
        ax.set_xlabel(key + " per game")
        ax.set_ylabel("games")
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(title, fontsize=10)
    _save(fig, path)


def end_reasons(path, title, reasons, labels, rows):
    """Stacked shares of end reasons, one bar per matchup (first bar: all)."""
    fig = _figure(8, 0.45 * len(rows) + 1.6)
    ax = fig.subplots()
    ys = np.arange(len(rows))[::-1]
    colours = [BLUE, ORANGE, RED, GREY, "#38a169", "#805ad5"]
    left = np.zeros(len(rows))
    for i, r in enumerate(reasons):
        vals = np.array([row[1][r]["rate"] or 0.0 for row in rows])
        ax.barh(ys, vals, left=left, color=colours[i % len(colours)], label=labels.get(r, r))
        for y, lft, v in zip(ys, left, vals, strict=True):
            if v >= 0.06:
                ax.text(
                    lft + v / 2, y, _pct(v), ha="center", va="center", fontsize=7, color="white"
                )
        left += vals
    ax.set_yticks(ys, [r[0] for r in rows], fontsize=8)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=len(reasons), fontsize=8)
    ax.set_title(title, fontsize=10)
    _save(fig, path)


def tasks(path, title, rows, display=False):
    """Claim rate per game with intervals, and the claim turn (median, 10-90% range); with the
    display recorded, also the share of games in which the task was shown and the claim rate
    given shown."""
    if not display:
        return _tasks_claims(path, title, rows)
    fig = _figure(12, 0.3 * len(rows) + 1.8)
    ax0, ax1, ax2 = fig.subplots(1, 3, sharey=True, width_ratios=[2, 3, 2])
    ys = np.arange(len(rows))[::-1]
    for y, r in zip(ys, rows, strict=True):
        sh, cg, cr = r["shown"], r["claimed_given_shown"], r["claim_rate"]
        if sh["rate"] is not None:
            ax0.barh(y, sh["rate"], color=GREY, alpha=0.7)
            ax0.plot([sh["lo"], sh["hi"]], [y, y], color="black", lw=1)
        bad = r["never_shown"] or r["shown_never_claimed"]
        colour = RED if bad else (ORANGE if r["hard"] else (GREEN if r["easy"] else BLUE))
        if cg["rate"] is not None:
            ax1.barh(y, cg["rate"], color=colour, alpha=0.8)
            ax1.plot([cg["lo"], cg["hi"]], [y, y], color="black", lw=1)
        if cr["rate"] is not None:
            ax1.plot([cr["rate"]], [y], "D", color="black", ms=3)
        if r["turn"]:
            t = r["turn"]
            ax2.plot([t["p10"], t["p90"]], [y, y], color=GREY, lw=2)
            ax2.plot([t["median"]], [y], "o", color=BLUE, ms=4)
    labels = [
        r["task"]
        + (
            " (never shown)"
            if r["never_shown"]
            else (" (never claimed)" if r["shown_never_claimed"] else "")
        )
        for r in rows
    ]
    ax0.set_yticks(ys, labels, fontsize=8)
    for tick, r in zip(ax0.get_yticklabels(), rows, strict=True):
        if r["never_shown"] or r["shown_never_claimed"]:
            tick.set_color(RED)
    ax0.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax0.set_xlabel("games in which it was shown")
    ax1.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax1.set_xlabel("claim rate given shown (bar, 95% Wilson)\n◆ claim rate per game")
    ax2.set_xlabel("claim turn: median, 10%–90%")
    for ax in (ax0, ax1, ax2):
        ax.grid(axis="x", alpha=0.3)
    ax0.set_ylim(-0.7, len(rows) - 0.3)
    fig.suptitle(
        title + "\nred: never shown or never claimed, orange: hard, green: easy", fontsize=10
    )
    _save(fig, path)


def _tasks_claims(path, title, rows):
    """Without the display: claim rate per game and the claim turn."""
    fig = _figure(10, 0.3 * len(rows) + 1.6)
    ax1, ax2 = fig.subplots(1, 2, sharey=True, width_ratios=[3, 2])
    ys = np.arange(len(rows))[::-1]
    for y, r in zip(ys, rows, strict=True):
        cr = r["claim_rate"]
        colour = RED if r["never_claimed"] else (ORANGE if r["rarely_claimed"] else BLUE)
        if cr["rate"] is not None:
            ax1.barh(y, cr["rate"], color=colour, alpha=0.8)
            ax1.plot([cr["lo"], cr["hi"]], [y, y], color="black", lw=1)
        if r["turn"]:
            t = r["turn"]
            ax2.plot([t["p10"], t["p90"]], [y, y], color=GREY, lw=2)
            ax2.plot([t["median"]], [y], "o", color=BLUE, ms=4)
    labels = [r["task"] + (" (never claimed)" if r["never_claimed"] else "") for r in rows]
    ax1.set_yticks(ys, labels, fontsize=8)
    for tick, r in zip(ax1.get_yticklabels(), rows, strict=True):
        if r["never_claimed"]:
            tick.set_color(RED)
    ax1.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.1f}%")
    ax1.set_xlabel("games in which the task was claimed (95% Wilson)")
    ax1.grid(axis="x", alpha=0.3)
    ax2.set_xlabel("claim turn: median, 10%–90%")
    ax1.set_ylim(-0.7, len(rows) - 0.3)
    ax2.grid(axis="x", alpha=0.3)
    fig.suptitle(title + "\nred: never claimed, orange: claimed in < 1% of games", fontsize=10)
    _save(fig, path)


CARDS_SHOWN = 16


def cards(path, title, rows):
    """The cards that stand out most from their deck-mates (largest ``|diff| / se`` of
    ``vs_deck``, at most CARDS_SHOWN): each card's win rate when played minus its deck's other
    cards', with the 95% interval; red when significant after Holm's correction."""
    tested = [r for r in rows if r.get("vs_deck")]
    tested.sort(key=lambda r: -abs(r["vs_deck"]["diff"]) / max(r["vs_deck"]["se"], 1e-12))
    shown = sorted(tested[:CARDS_SHOWN], key=lambda r: r["vs_deck"]["diff"])
    fig = _figure(9, 0.3 * max(len(shown), 1) + 1.5)
    ax = fig.subplots()
    ys = np.arange(len(shown))
    for y, r in zip(ys, shown, strict=True):
        d = r["vs_deck"]
        colour = RED if d.get("significant") else GREY
        ax.plot([d["lo"], d["hi"]], [y, y], color=colour, lw=1.8)
        ax.plot([d["diff"]], [y], "o", color=colour, ms=4.5)
    if not shown:
        ax.text(0, 0, "no card played often enough to compare", ha="center", color=GREY)
    ax.set_yticks(ys, [r["card"] for r in shown], fontsize=8)
    ax.axvline(0, color=GREY, ls="--", lw=1)
    ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:+.0f}")
    ax.set_xlabel(
        "win rate when played − mean of the deck's other cards (points, 95% interval)",
        fontsize=8.5,
    )
    ax.grid(axis="x", alpha=0.3)
    ax.set_ylim(-0.7, max(len(shown), 1) - 0.3)
    more = f" (the {len(shown)} that stand out most of {len(tested)})" if tested else ""
    ax.set_title(
        f"{title}: each card against its deck-mates{more}\n"
        "association, not causation; red: significant after Holm's correction",
        fontsize=9,
    )
    _save(fig, path)


def points_by_source(path, title, sources, labels, rows):
    """Deathmatch: mean points per seat-game by source, stacked, one bar per deck."""
    fig = _figure(8, 0.5 * len(rows) + 1.8)
    ax = fig.subplots()
    ys = np.arange(len(rows))[::-1]
    colours = [RED, "#805ad5", ORANGE, BLUE, GREY]
    left = np.zeros(len(rows))
    for i, s in enumerate(sources):
        vals = np.array([r[1]["sources"][s]["per_game"]["mean"] or 0.0 for r in rows])
        if not np.any(vals):
            continue
        ax.barh(ys, vals, left=left, color=colours[i % len(colours)], label=labels.get(s, s))
        left += vals
    for y, total in zip(ys, left, strict=True):
        ax.text(total, y, f" {total:.2f}", va="center", fontsize=8)
    ax.set_yticks(ys, [r[0] for r in rows], fontsize=8)
    ax.set_xlabel("mean points per game of a deck")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=4, fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    _save(fig, path)


def policy_matrix(path, title, names, cells):
    """Row policy's win rate against the column policy (diagonal: first mover in self-play).
    ``cells``: {(row, col): win_rate dict}."""
    n = len(names)
    side = 1.3 * n + 1.6
    fig = _figure(side + 1.5, side)
    ax = fig.subplots()
    grid = np.full((n, n), np.nan)
    rates = [w["rate"] for w in cells.values() if w and w["rate"] is not None]
    span = max([0.1] + [abs(r - 0.5) for r in rates])
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            wr = cells.get((a, b))
            if not wr or wr["rate"] is None:
                ax.text(j, i, "not played", ha="center", va="center", fontsize=8, color=GREY)
                continue
            grid[i, j] = wr["rate"]
            head = "1st mover " if a == b else ""
            star = " *" if wr["excludes_half"] else ""
            ax.text(
                j,
                i,
                f"{head}{_pct(wr['rate'])}{star}\n{shown.interval(wr['lo'], wr['hi'], 0.5)}"
                f"\nn={wr['n']}",
                ha="center",
                va="center",
                fontsize=8,
                color=_ink(wr["rate"], span),
            )
    im = ax.imshow(grid, cmap="RdBu", norm=TwoSlopeNorm(0.5, 0.5 - span, 0.5 + span))
    ax.set_xticks(range(n), names, rotation=30, ha="right")
    ax.set_yticks(range(n), names)
    ax.set_xlabel("column policy (opponent)")
    ax.set_ylabel("row policy")
    cb = fig.colorbar(im, ax=ax, shrink=0.8, label="row policy win rate (decisive games)")
    cb.ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_title(title + "\n* 95% Wilson interval excludes 50%", fontsize=10)
    _save(fig, path)
