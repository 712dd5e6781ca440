"""Report section on cards: how often each is drawn, summoned, discarded or played, and the
win rate of the seats that summoned it."""

from results import stats
from results.analysis.card_contrast import MIN_PLAYS, add_deck_contrasts
from results.analysis.dataset import Dataset
from results.analysis.duel import RESULT_COUNTS
from results.analysis.groups import group_key
from results.analysis.labels import CARD_EVENTS

CARD_NOTE = (
    "Win rate of the games in which the card was played (summoned, or played as a flare) vs "
    "those in which it was not, among the seat-games that could hold it. This is an "
    "association, not a causal effect: a card is played more often in games that go well (or "
    "last longer) for other reasons; flares, which may be played only when the opponent has "
    "more pieces on the board, are played in games that are going badly."
)
VS_DECK_NOTE = (
    "Each card against its own deck's other cards: the win rate of the seat-games in which "
    "the card was played minus the mean of the same rate over the deck's other cards "
    "(legends and flares: over the other legends, the other flares), with a 95% interval "
    f"clustered by game, Holm-corrected over the cards of the table; cards played in fewer "
    f"than {MIN_PLAYS} decisive seat-games are not compared. Summoning any being goes with "
    "winning, and that common part cancels here: a flagged card's summons go with winning "
    "clearly more (or less) than its deck-mates' do. It is still an association: a card that "
    "can only come down late, or when ahead, stands out without being strong. Read a flag as "
    "a card to look at, not as a verdict."
)


def card_stats(d: Dataset, groups, content) -> dict:
    d.execute(
        "CREATE TEMP TABLE ce AS SELECT mode, matchup, policies, game_index, seat, card, "
        + ", ".join(f"count(*) FILTER (WHERE event = '{e}') AS \"{e}\"" for e in CARD_EVENTS)
        + " FROM card_events_raw GROUP BY ALL"
    )
    side = "CASE WHEN s.sym THEN NULL ELSE s.policy END"
    played = '(c.summoned > 0 OR c."flare-played" > 0)'
    agg = d.rows(
        f"SELECT s.mode, s.pairing, {side} AS side, c.card, "
        + ", ".join(f'count(*) FILTER (WHERE c."{e}" > 0) AS "g_{e}"' for e in CARD_EVENTS)
        + ", "
        + ", ".join(f'sum(c."{e}") AS "n_{e}"' for e in CARD_EVENTS)
        + f", count(*) FILTER (WHERE {played} AND s.result = 'win') AS p_wins, "
        f"count(*) FILTER (WHERE {played} AND s.result = 'loss') AS p_losses, "
        f"count(*) FILTER (WHERE {played} AND s.result = 'draw') AS p_draws "
        "FROM ce c JOIN sg s USING (mode, matchup, policies, game_index, seat) "
        "WHERE NOT s.log_lost GROUP BY ALL"
    )
    base = d.rows(
        f"SELECT s.mode, s.pairing, {side} AS side, s.deck, "
        + RESULT_COUNTS.replace("result", "s.result")
        + " FROM sg s WHERE NOT s.log_lost GROUP BY ALL"
    )
    out = []
    for g in groups:
        k = group_key(g)
        sides = [None] if g["symmetric"] else list(g["policies"])
        for sd in sides:
            deck_res = {
                r["deck"]: r for r in base if (r["mode"], r["pairing"], r["side"]) == (*k, sd)
            }
            all_res = {x: sum(r[x] for r in deck_res.values()) for x in ("wins", "losses", "draws")}
            mine = {r["card"]: r for r in agg if (r["mode"], r["pairing"], r["side"]) == (*k, sd)}
            names = list(mine)
            if content is not None:
                prefixes = {c.split("/")[0] for c in mine} | set(g["decks"])
                names += [c.id for c in content.cards if c.deck in prefixes and c.id not in mine]
            rows = []
            for card in names:
                prefix = card.split("/")[0]
                if prefix in g["decks"]:
                    elig = deck_res.get(prefix, {"wins": 0, "losses": 0, "draws": 0})
                else:  # legends, flares: any seat may hold them
                    elig = all_res
                n_elig = elig["wins"] + elig["losses"] + elig["draws"]
                r = mine.get(card) or {}
                played_rec = stats.win_record(
                    r.get("p_wins", 0), r.get("p_losses", 0), r.get("p_draws", 0)
                )
                not_rec = stats.win_record(
                    elig["wins"] - played_rec["wins"],
                    elig["losses"] - played_rec["losses"],
                    elig["draws"] - played_rec["draws"],
                )
                diff = stats.difference(
                    played_rec["wins"],
                    played_rec["decisive"],
                    not_rec["wins"],
                    not_rec["decisive"],
                )
                name = card
                if content is not None:
                    name = next((c.name for c in content.cards if c.id == card), card)
                rows.append(
                    {
                        "card": card,
                        "name": name,
                        "deck": prefix,
                        "seat_games": int(n_elig),
                        "games_with": {
                            e: stats.proportion(r.get(f"g_{e}", 0) or 0, n_elig)
                            for e in CARD_EVENTS
                        },
                        "events": {e: int(r.get(f"n_{e}", 0) or 0) for e in CARD_EVENTS},
                        "played": stats.proportion(played_rec["games"], n_elig),
                        "when_played": played_rec,
                        "when_not_played": not_rec,
                        "played_minus_not": diff,
                    }
                )
            stats.mark_holm([r["played_minus_not"] for r in rows])
            rows.sort(key=lambda x: (x["deck"], x["card"]))
            out.append(
                {
                    "group": g["id"],
                    "side": sd,
                    "label": g["label"] + (f" · cards of {sd}" if sd else ""),
                    "seat_games": int(sum(all_res.values())),
                    "games": g["games"],
                    "cards": rows,
                }
            )
    add_deck_contrasts(d, groups, out)
    return {
        "note": CARD_NOTE,
        "vs_deck_note": VS_DECK_NOTE,
        "min_plays": MIN_PLAYS,
        "all_cards_listed": content is not None,
        "groups": out,
    }
