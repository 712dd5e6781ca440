"""Policy sensitivity: do the balance conclusions survive stronger play?

For a study that plays the same decks with two or more players (each pairing of a player
with itself, e.g. ``random``, ``greedy`` and ``planner`` self-play), each deck's win rate
against the field (``deck_vs_field``: mirror matches left out) is set side by side per
player, with its interval and its verdict: *favoured* (the interval lies above 50%),
*disfavoured* (below) or *even*. A deck's conclusion flips when its verdict differs between
players; the difference of its win rates between the weakest and the strongest player (in
the order the study lists them) comes with its Newcombe interval. The deck ranking (by win
rate) per player shows whether the order of the decks changes.
"""

from results import stats

VERDICTS = ("favoured", "even", "disfavoured")


def verdict(wr) -> str:
    """A deck's verdict against the field from its win rate and interval."""
    if wr.get("lo") is not None and wr["lo"] > 0.5:
        return "favoured"
    if wr.get("hi") is not None and wr["hi"] < 0.5:
        return "disfavoured"
    return "even"


def sensitivity(summary: dict, shared_deals=()) -> dict:
    """``summary["policy_sensitivity"]``: mode -> players, decks (each with its record per
    player, verdicts, the change between the first and last player, flags), the rankings and
    ``shared_deals``: the games two players were dealt alike (rows of
    ``results.analysis.deck_moves.shared_deals_sql``: d0, d1, pa, pb, oa, ob, n), which the
    stability rule compares game by game. Only modes with two or more self-play players
    sharing two or more decks appear."""
    field = {f["group"]: f for f in summary.get("deck_vs_field", [])}
    out = {}
    for mode in dict.fromkeys(g["mode"] for g in summary.get("groups", [])):
        groups = [g for g in summary["groups"] if g["mode"] == mode and g["symmetric"]]
        per_player = {}
        for g in groups:
            rows = field.get(g["id"], {}).get("rows", [])
            recs = {r["deck"]: r["combined"] for r in rows if r["combined"]["decisive"] > 0}
            if recs:
                per_player[g["policies"][0]] = recs
        players = list(per_player)
        decks = [d for d in dict.fromkeys(d for p in players for d in per_player[p])]
        decks = [d for d in decks if sum(d in per_player[p] for p in players) >= 2]
        if len(players) < 2 or len(decks) < 2:
            continue
        ranking = {
            p: sorted(
                (d for d in decks if d in per_player[p]),
                key=lambda d, p=p: -per_player[p][d]["win_rate"]["rate"],
            )
            for p in players
        }
        rows = []
        for d in decks:
            have = [p for p in players if d in per_player[p]]
            by_player = {}
            for p in have:
                wr = per_player[p][d]["win_rate"]
                by_player[p] = {
                    "win_rate": wr,
                    "verdict": verdict(wr),
                    "rank": ranking[p].index(d) + 1,
                }
            a, b = per_player[have[0]][d], per_player[have[-1]][d]
            change = stats.difference(b["wins"], b["decisive"], a["wins"], a["decisive"])
            verdicts = {x["verdict"] for x in by_player.values()}
            rows.append(
                {
                    "deck": d,
                    "by_player": by_player,
                    "change": change,
                    "change_between": [have[0], have[-1]],
                    "verdict_changes": len(verdicts) > 1,
                    "flips": {"favoured", "disfavoured"} <= verdicts,
                    "rank_changes": len({x["rank"] for x in by_player.values()}) > 1,
                }
            )
        stats.mark_holm([r["change"] for r in rows])
        out[mode] = {
            "games": sum(
                f["games"]
                for g in groups
                if g["policies"][0] in players
                for f in [field.get(g["id"], {"games": 0})]
            ),
            "players": players,
            "decks": rows,
            "ranking": ranking,
            "ranking_changes": len({tuple(r) for r in ranking.values()}) > 1,
            "shared_deals": [
                {k: v for k, v in r.items() if k != "mode"}
                for r in shared_deals
                if r["mode"] == mode and r["pa"] in players and r["pb"] in players
            ],
        }
    return out


def html(summary: dict, table, esc, mode_labels: dict, Cell, rests_on) -> str:
    """The report section's body."""
    sens = summary.get("policy_sensitivity") or {}
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
    from results.analysis import stability as st
    from results.analysis.stability_text import interval_levels, mode_text, move

    sens_all = summary.get("sensitivity") or st.study_stability(summary)
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
