"""The decisiveness section: how the games were decided, per mode. A mixin of the report builder
(results.report): it writes through ``self.w`` and reads ``self.s``, the summary."""

from results.analysis.decisiveness import SHARE_LABELS, SHARES, WEAK_SHARE, share_pct, weakness
from results.analysis.labels import MODE_LABELS
from results.report.html import esc, rests_on, table


class DecisivenessSection:
    def decisiveness(self):
        self.h2("decisiveness")
        self.w(decisiveness_html(self.s))
        self.end()


def decisiveness_html(summary: dict) -> str:
    """The report section's body: one table per mode, a row per seat-policy list."""
    dec = summary.get("decisiveness") or {}
    if not dec:
        return "<p>No games.</p>"
    parts = [
        "<p class='note'>How the games were decided. A balance study needs games that reach "
        "their goal: when most games end because a deck ran out, or are tied on points and "
        "decided by tie-breakers, a deck's win rate says more about the players than about "
        "the deck. Shares with their 95% Wilson interval; the mean winning score with its "
        "95% interval, beside the score the mode needs to end a game.</p>"
    ]
    for mode, e in dec.items():
        rows = []
        for label, x in [("all games", e), *e["by_policies"].items()]:
            cells = [label, f"{x['games']:,}"]
            for k in SHARES:
                lo, hi = x[f"{k}_interval"]
                weak = weakness(x) == "weak" and (x[k] or 0) > WEAK_SHARE
                flag = " ⚠" if k in ("by_deck", "tie_on_points") and weak else ""
                cells.append(f"{share_pct(x[k])} [{share_pct(lo)}, {share_pct(hi)}]{flag}")
            m = x["mean_winning_score"]
            lo, hi = x["mean_winning_score_interval"]
            cells.append(
                "–" if m is None else f"{m:.2f}" + ("" if lo is None else f" [{lo:.2f}, {hi:.2f}]")
            )
            cells.append("–" if x["score_target"] is None else str(x["score_target"]))
            rows.append(cells)
        parts.append(
            table(
                [
                    "players",
                    "games",
                    *[SHARE_LABELS[k] for k in SHARES],
                    "mean winning score",
                    "score target",
                ],
                rows,
                f"{esc(MODE_LABELS.get(mode, mode))}: how the games were decided. "
                + rests_on(e["games"]),
                left=1,
            )
        )
    return "\n".join(parts)
