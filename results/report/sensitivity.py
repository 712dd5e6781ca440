"""The policy sensitivity section: whether a deck's verdict holds under other players.
A mixin of the report builder
(results.report): it writes through ``self.w`` and reads ``self.s``, the summary."""

from results import analysis
from results.analysis import stability as st
from results.analysis.stability_text import interval_levels, mode_text, move
from results.report.html import Cell, esc, rests_on, table


class SensitivitySection:
    def sensitivity(self):
        self.h2("sensitivity")
        self.w(sensitivity_html(self.s, table, esc, analysis.MODE_LABELS, Cell, rests_on))
        self.end()


def sensitivity_html(summary: dict, table, esc, mode_labels: dict, Cell, rests_on) -> str:
    """The section's body (kept in the report, not the analysis, so the analysis modules
    import no presentation)."""
    sens = summary.get("player_sensitivity") or {}
    if not sens:
        return (
            "<p>This study does not play the same decks with two or more players (each "
            "against itself), so there is nothing to compare. A study with <code>policies = "
            '[["random"], ["greedy"], ["planner"]]</code> shows whether the deck win rates '
            "hold up under stronger play (sim/studies/sensitivity.toml).</p>"
        )
    parts = [
        "<p class='note'>Each deck's win rate against the other decks (mirror matches left "
        "out) with each player in both seats, with its 95% interval and verdict: "
        "<b>favoured</b> (interval above 50%), <b>disfavoured</b> (below) or even; the rank "
        "among the decks in brackets. <span class='sig'>Red</span>: the verdict flips between "
        "favoured and disfavoured; <span class='flag'>yellow</span>: the verdict changes. The "
        "last column is the change of the win rate from the first to the last player listed "
        "(Newcombe interval, Holm-corrected across decks).</p>"
    ]
    sens_all = summary.get("stability") or st.study_stability(summary)
    verdicts = sens_all["modes"]
    margin = sens_all.get("margin", st.MARGIN_POINTS)
    shown, equivalence = interval_levels((sens_all.get("rule") or {}).get("alpha"))
    parts.append(
        "<p class='note'>Stability under stronger play: the top two players (ranked "
        "head-to-head where the study plays them against each other, else in the order the "
        "study lists them, weakest first) and, where the study has it, the top one with at "
        f"least {st.BUDGET_FACTOR}x its search budget (planner width, mc playouts). Each "
        f"deck's move (Δ: the stronger minus the weaker player, in points) with its {shown} "
        "interval, its standard error stratified by deck pairing (paired game by game where "
        f"the players were dealt the same games). <b>Stable</b>: every deck's {equivalence} "
        f"interval lies within ±{margin:g} points (an equivalence test per deck). "
        f"<b>Player-sensitive</b>: some deck's move is confidently beyond ±{margin:g} "
        "points (a one-sided test, Holm over the decks). Otherwise <b>undetermined</b>, "
        "with the games a deck would need to decide it. Beside it: whether the players "
        "differ at all (Wald chi-square over the decks' moves); Kendall tau of the deck "
        "rankings with its bootstrap interval, confident reversals and verdicts flipping "
        "between favoured and disfavoured are description, not part of the decision. Δ "
        "cells: red when beyond the margin, yellow when undetermined.</p>"
    )
    for mode, s in sens.items():
        m = verdicts.get(mode) or {}
        comps = m.get("comparisons") or []
        parts.append(f"<p><b>{esc(mode_labels.get(mode, mode))}</b>: {esc(mode_text(m))}.</p>")
        rows = []
        for r in s["decks"]:
            cells = [r["deck"]]
            for p in s["players"]:
                x = r["by_player"].get(p)
                if x is None:
                    cells.append(Cell("–", "small"))
                    continue
                wr = x["win_rate"]
                txt = f"{100 * wr['rate']:.1f}% [{100 * wr['lo']:.1f}, {100 * wr['hi']:.1f}]"
                cells.append(f"{txt} {x['verdict']} (#{x['rank']})")
            c = r["change"]
            if c is None:
                cells.append(Cell("–", "small"))
            else:
                txt = f"{100 * c['diff']:+.1f} pts [{100 * c['lo']:+.1f}, {100 * c['hi']:+.1f}]"
                cells.append(Cell(esc(txt), "sig" if c.get("significant") else ""))
            for comp in comps:
                x = comp["decks"].get(r["deck"])
                if x is None:
                    cells.append(Cell("–", "small"))
                    continue
                flag = {st.SENSITIVE: "sig", st.UNDETERMINED: "flag"}.get(x["verdict"], "")
                cells.append(Cell(esc(move(x)) + (" ⚠" if flag else ""), flag))
            cls = "sig" if r["flips"] else ("flag" if r["verdict_changes"] else "")
            cells[0] = Cell(esc(r["deck"]) + (" ⚠" if cls else ""), cls)
            rows.append(cells)
        first, last = s["players"][0], s["players"][-1]
        heads = [f"Δ {c['from_to'][0]} → {c['from_to'][1]} [{shown}]" for c in comps]
        parts.append(
            table(
                ["deck", *s["players"], f"change {first} → {last}", *heads],
                rows,
                f"{esc(mode_labels.get(mode, mode))}: deck win rates by player."
                + (" The deck ranking changes with the player." if s["ranking_changes"] else "")
                + " "
                + rests_on(s["games"]),
                left=1,
            )
        )
    return "\n".join(parts)
