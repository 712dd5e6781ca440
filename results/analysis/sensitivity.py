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
    """``summary["player_sensitivity"]``: mode -> players, decks (each with its record per
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
