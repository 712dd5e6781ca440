"""The skill trace's pictures (results/analysis/skill_trace.py): the deck trace (each deck's
win rate against the field against log2 of the budget, one line per deck with its 95% band)
and the strength trace (the larger budget's win rate against the smaller, per adjacent pair
of levels, with its 95% interval). Drawn as the report's other plots (results.report.plots)."""

import numpy as np

from results.report.plots import GREY, _figure, _save

COLOURS = ("#2b6cb0", "#dd6b20", "#2f855a", "#c53030", "#6b46c1", "#b7791f", "#319795", "#718096")


def deck_trace(path, title, trace_mode: dict, levels: list, setting: str, small=False):
    """One line per deck: its win rate against the field at each level (x: log2 of the
    budget), with its 95% Wilson band; the legend names each deck's slope per doubling."""
    fig = _figure(6.2 if small else 9.0, 3.0 if small else 4.2)
    ax = fig.subplots()
    xs_all = np.log2(np.asarray(levels, float))
    for n, (deck, d) in enumerate(trace_mode["decks"].items()):
        series = [r for r in d["rates"] if r["rate"] is not None]
        if not series:
            continue
        x = np.log2([r["budget"] for r in series])
        y = np.array([r["rate"] for r in series])
        lo = np.array([r["lo"] for r in series])
        hi = np.array([r["hi"] for r in series])
        colour = COLOURS[n % len(COLOURS)]
        slope = (
            f" {d['slope']:+.1f} [{d['slope_lo']:+.1f}, {d['slope_hi']:+.1f}]"
            if d["slope"] is not None
            else ""
        )
        ax.fill_between(x, lo, hi, color=colour, alpha=0.12, lw=0)
        ax.plot(x, y, "o-", color=colour, ms=3.5, lw=1.5, label=f"{deck}{slope}")
    ax.axhline(0.5, color=GREY, lw=1, ls="--")
    ax.set_xticks(xs_all, [str(b) for b in levels], fontsize=8)
    ax.set_xlabel(f"{setting} (log2 scale)", fontsize=8)
    ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_ylabel("win rate against the field", fontsize=8)
    ax.tick_params(labelsize=8)
    ax.set_title(title, fontsize=9 if small else 10)
    ax.grid(alpha=0.3)
    ax.legend(
        fontsize=6.5 if small else 7.5,
        loc="center left",
        bbox_to_anchor=(1.01, 0.5),
        title="slope, points\nper doubling [95%]",
        title_fontsize=6.5 if small else 7.5,
    )
    _save(fig, path)


def strength_trace(path, title, strength: list, setting: str):
    """Per adjacent pair of levels: 2N's win rate against N with its 95% interval."""
    fig = _figure(6.5, 3.2)
    ax = fig.subplots()
    for n, r in enumerate(strength):
        if r["rate"] is None:
            ax.text(n, 0.5, "no data", ha="center", fontsize=7, color=GREY)
            continue
        ax.plot([n, n], [r["lo"], r["hi"]], color=COLOURS[0], lw=2)
        ax.plot([n], [r["rate"]], "o", color=COLOURS[0], ms=5)
    ax.axhline(0.5, color=GREY, lw=1, ls="--")
    ax.set_xticks(range(len(strength)), [f"{r['to']} vs {r['from']}" for r in strength], fontsize=8)
    ax.set_xlim(-0.5, len(strength) - 0.5)
    ax.set_xlabel(f"{setting}: the larger budget against the smaller", fontsize=8)
    ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_ylabel("larger budget's win rate", fontsize=8)
    ax.tick_params(labelsize=8)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    _save(fig, path)
