"""The report's first picture: per two-seat mode, each deck's win rate against the field with its
95% interval (one colour per pairing of players), the deck's stability tag on the right, and
above each panel who played, how the games ended and the stability verdict. Drawn from
``summary["at_a_glance"]`` (results.analysis.glance) on the Agg canvas."""

import math
import textwrap

import numpy as np

from results.analysis.stability import SENSITIVE, STABLE, UNDETERMINED
from results.report.plots import BLUE, DPI, GREEN, GREY, ORANGE, RED, _figure

WIDTH_IN = 11.2  # about 1,230 px at DPI: shown 1:1 in the page at 1280 px
SERIES = (BLUE, ORANGE, GREEN, "#805ad5", GREY)
TAGS = {STABLE: (STABLE, GREEN), UNDETERMINED: (UNDETERMINED, ORANGE), SENSITIVE: (SENSITIVE, RED)}
FONT = 8.5


def _short_ended(d) -> str:
    def p(k):
        x = d.get(k)
        return "–" if x is None else f"{100 * x:.0f}%"

    return (
        f"ended: {p('by_score')} score target · {p('by_deck')} deck ran out · "
        f"{p('by_turn_cap')} turn cap · {p('tie_on_points')} tied on points"
    )


def _panel(ax, m):
    decks = m["decks"]
    ys = np.arange(len(decks))[::-1]
    k = len(m["series"])
    offsets = np.linspace(0.18, -0.18, k) if k > 1 else [0.0]
    lows, highs = [0.5], [0.5]
    for s, off, colour in zip(m["series"], offsets, SERIES * 3, strict=False):
        first = True
        for y, d in zip(ys, decks, strict=True):
            r = s["decks"].get(d)
            if not r or r["rate"] is None:
                continue
            lows.append(r["lo"])
            highs.append(r["hi"])
            ax.plot([r["lo"], r["hi"]], [y + off, y + off], color=colour, lw=2.2)
            ax.plot(
                [r["rate"]],
                [y + off],
                "o",
                color=colour,
                ms=6,
                mfc=colour if r["excludes_half"] else "white",
                label=s["players"] if first else None,
            )
            first = False
    ax.axvline(0.5, color=GREY, lw=1, ls="--")
    pad = 0.03
    ax.set_xlim(min(lows) - pad, max(highs) + pad)
    ax.set_ylim(-0.6, len(decks) - 0.4)
    ax.set_yticks(ys, decks, fontsize=9.5)
    ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.tick_params(axis="x", labelsize=FONT)
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel("win rate against the other decks (decisive games, 95% Wilson)", fontsize=FONT)
    stab = m["stability"]
    if stab["measured"]:
        right = ax.twinx()
        right.set_ylim(ax.get_ylim())
        tags = [TAGS.get(stab["by_deck"][d]["level"], ("not measured", GREY)) for d in decks]
        right.set_yticks(ys, [t[0] for t in tags], fontsize=FONT)
        for tick, (_, colour) in zip(right.get_yticklabels(), tags, strict=True):
            tick.set_color(colour)
    if k > 1:
        ax.legend(loc="lower right", fontsize=7.5, framealpha=0.85)
    head = f"{m['label']}: each deck against the field"
    if m["weak_play"]:
        head = f"⚠ weak play · {head}"
    players = "players: " + ("; ".join(m["players"]) if k == 1 else f"{k} pairings (legend)")
    lines = [head, players, _short_ended(m["decisiveness"]), stab.get("short", stab["text"])]
    ax.set_title(
        "\n".join(x for line in lines for x in textwrap.wrap(line, 72)),
        fontsize=FONT,
        loc="left",
        color=RED if m["weak_play"] else "black",
    )


def deck_vs_field_overview(path, glance: dict, scale: int = 2):
    """One panel per mode (two per row); written at ``scale`` times DPI (shown at DPI)."""
    modes = glance["modes"]
    cols = 2 if len(modes) > 1 else 1
    rows = math.ceil(len(modes) / cols)
    tallest = max(len(m["decks"]) for m in modes)
    fig = _figure(WIDTH_IN, rows * (0.36 * tallest + 1.75))
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False).ravel())
    for ax, m in zip(axes, modes, strict=False):
        _panel(ax, m)
    for ax in axes[len(modes) :]:
        ax.set_axis_off()
    fig.savefig(path, dpi=DPI * scale)
    return {"text_px": FONT / 72 * DPI * scale, "scale": scale}
