"""The report's plots, drawn with matplotlib's object API on the Agg canvas (no display, no
pyplot state), from the numbers of ``results.analysis``. Each function writes one PNG and
returns nothing; the numbers it draws are all in ``summary.json``."""

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

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


def matchup_matrix(path, title, decks, cells, perspective):
    """Three heatmaps: combined, row deck moving first, row deck moving second."""
    by = {(c["deck"], c["opp_deck"]): c for c in cells}
    n = len(decks)
    rates = [
        c[k]["win_rate"]["rate"] for c in cells for k in ("combined", "first", "second") if c[k]
    ]
    rates = [r for r in rates if r is not None]
    span = max([0.1] + [abs(r - 0.5) for r in rates])
    norm = TwoSlopeNorm(vcenter=0.5, vmin=0.5 - span, vmax=0.5 + span)
    side = 1.25 * n + 1.3
    fig = _figure(3 * side, side + 0.6)
    panels = (
        ("combined", "both seat orders"),
        ("first", "row deck moves first"),
        ("second", "row deck moves second"),
    )
    axes = fig.subplots(1, 3)
    im = None
    for ax, (key, sub) in zip(axes, panels, strict=True):
        grid = np.full((n, n), np.nan)
        for i, a in enumerate(decks):
            for j, b in enumerate(decks):
                c = by.get((a, b))
                wr = _rate(c[key]) if c else None
                if wr is None or wr["rate"] is None:
                    ax.text(j, i, "no games", ha="center", va="center", fontsize=8, color=GREY)
                    continue
                grid[i, j] = wr["rate"]
                mirror = c["mirror"]
                head = "1st mover " if mirror and key == "combined" else ""
                star = " *" if wr["excludes_half"] else ""
                small = " †" if wr["small"] else ""
                txt = (
                    f"{head}{_pct(wr['rate'])}{star}\n[{_pct(wr['lo'])}, {_pct(wr['hi'])}]"
                    f"\nn={wr['n']}{small}"
                )
                ax.text(
                    j, i, txt, ha="center", va="center", fontsize=8, color=_ink(wr["rate"], span)
                )
        im = ax.imshow(grid, cmap="RdBu", norm=norm)
        ax.set_xticks(range(n), decks, rotation=30, ha="right")
        ax.set_yticks(range(n), decks)
        ax.set_xlabel("column deck (opponent)")
        if key == "combined":
            ax.set_ylabel("row deck")
        ax.set_title(sub, fontsize=10)
    cb = fig.colorbar(im, ax=axes, shrink=0.8, label="row deck win rate (decisive games)")
    cb.ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    fig.suptitle(f"{title}\n{perspective}; * 95% Wilson interval excludes 50%, † n < 100")
    _save(fig, path)


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


def cards(path, title, rows):
    """Per card: share of seat-games it was played in, and the win-rate difference played vs
    not played with its interval."""
    fig = _figure(11, 0.26 * len(rows) + 1.8)
    ax1, ax2 = fig.subplots(1, 2, sharey=True, width_ratios=[2, 3])
    ys = np.arange(len(rows))[::-1]
    for y, r in zip(ys, rows, strict=True):
        p = r["played"]["rate"]
        if p is not None:
            ax1.barh(y, p, color=BLUE, alpha=0.8)
        d = r["played_minus_not"]
        if d:
            colour = RED if d.get("significant") else GREY
            if d["lo"] is not None:
                ax2.plot([d["lo"], d["hi"]], [y, y], color=colour, lw=1.6)
            ax2.plot([d["diff"]], [y], "o", color=colour, ms=3.5)
    ax1.set_yticks(ys, [r["card"] for r in rows], fontsize=7)
    ax1.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax1.set_xlabel("seat-games in which it was played")
    ax1.grid(axis="x", alpha=0.3)
    ax2.axvline(0, color=GREY, ls="--", lw=1)
    ax2.xaxis.set_major_formatter(lambda v, _: f"{100 * v:+.0f}")
    ax2.set_xlabel("win rate played − not played (points, 95% Newcombe)")
    ax1.set_ylim(-0.7, len(rows) - 0.3)
    ax2.grid(axis="x", alpha=0.3)
    fig.suptitle(
        title + "\nassociation, not causation; red: significant after Holm's correction",
        fontsize=10,
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
                f"{head}{_pct(wr['rate'])}{star}\n[{_pct(wr['lo'])}, "
                f"{_pct(wr['hi'])}]\nn={wr['n']}",
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
