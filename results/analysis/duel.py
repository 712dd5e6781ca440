"""Report sections on who beats whom in two-seat games: the matchup matrix, each deck against
the field, and the first player's advantage."""

from results import stats
from results.analysis.dataset import Dataset
from results.analysis.groups import group_key, records_by

RESULT_COUNTS = (
    "count(*) FILTER (WHERE result = 'win') AS wins, "
    "count(*) FILTER (WHERE result = 'loss') AS losses, "
    "count(*) FILTER (WHERE result = 'draw') AS draws"
)


# --- sections --------------------------------------------------------------------------------


def matchup_table(d: Dataset, groups) -> list:
    """Deck vs deck matrices with first/second/combined cells."""
    recs = records_by(
        d.rows(
            f"SELECT mode, pairing, deck, opp_deck, first, {RESULT_COUNTS} "
            "FROM sg WHERE persp GROUP BY ALL"
        ),
        "mode",
        "pairing",
        "deck",
        "opp_deck",
        "first",
    )
    out = []
    for g in groups:
        cells = []
        for a in g["decks"]:
            for b in g["decks"]:
                first = recs.get((*group_key(g), a, b, True))
                second = recs.get((*group_key(g), a, b, False))
                if first is None and second is None:
                    continue
                mirror = g["symmetric"] and a == b
                cell = {
                    "deck": a,
                    "opp_deck": b,
                    "mirror": mirror,
                    "first": first,
                    "second": second,
                    # a same-policy mirror match has no side: its cell is the first mover's
                    "combined": first if mirror else stats.add_records(first, second),
                    "combined_is_first_mover": mirror,
                }
                cells.append(cell)
        # Holm over the cells that are separate experiments (each pair once)
        family, seen = [], set()
        for c in cells:
            pair = (
                frozenset((c["deck"], c["opp_deck"]))
                if g["symmetric"]
                else (c["deck"], c["opp_deck"])
            )
            if pair in seen:
                continue
            seen.add(pair)
            family.append(c["combined"]["win_rate"])
        stats.mark_holm(family)
        for c in cells:  # the mirrored cell of a symmetric pairing shares the decision
            wr = c["combined"]["win_rate"]
            if "p_holm" not in wr:
                twin = next(
                    x["combined"]["win_rate"]
                    for x in cells
                    if x["deck"] == c["opp_deck"] and x["opp_deck"] == c["deck"]
                )
                wr["p_holm"], wr["significant"] = twin.get("p_holm"), twin.get("significant")
        out.append(
            {
                "group": g["id"],
                "games": g["games"],
                "decks": g["decks"],
                "perspective": (
                    "row deck's results against the column deck"
                    if g["symmetric"]
                    else f"row deck played by {g['policies'][0]} against the column deck "
                    f"played by {g['policies'][1]}"
                ),
                "cells": cells,
            }
        )
    return out


def deck_vs_field_rates(d: Dataset, groups) -> list:
    """Each deck against the others, mirror matches left out. ``games`` counts games (each
    once); ``deck_games`` adds up the rows: in a group of one player each game is in two rows,
    once for each of its decks."""
    non_mirror = {
        (r["mode"], r["pairing"]): int(r["n"])
        for r in d.rows(
            "SELECT mode, pairing, count(*) AS n FROM g WHERE seat0_deck <> seat1_deck GROUP BY ALL"
        )
    }
    recs = records_by(
        d.rows(
            f"SELECT mode, pairing, deck, first, {RESULT_COUNTS} FROM sg "
            "WHERE persp AND deck <> opp_deck GROUP BY ALL"
        ),
        "mode",
        "pairing",
        "deck",
        "first",
    )
    out = []
    for g in groups:
        rows = []
        for deck in g["decks"]:
            first = recs.get((*group_key(g), deck, True))
            second = recs.get((*group_key(g), deck, False))
            if first is None and second is None:
                continue
            combined = stats.add_records(first, second)
            adv = None
            if first and second:
                adv = stats.difference(
                    first["wins"], first["decisive"], second["wins"], second["decisive"]
                )
            rows.append(
                {
                    "deck": deck,
                    "combined": combined,
                    "first": first,
                    "second": second,
                    "first_minus_second": adv,
                }
            )
        stats.mark_holm([r["combined"]["win_rate"] for r in rows])
        stats.mark_holm([r["first_minus_second"] for r in rows])
        out.append(
            {
                "group": g["id"],
                "games": non_mirror.get(group_key(g), 0),
                "deck_games": sum(r["combined"]["games"] for r in rows),
                "note": "each deck against every other deck, mirror matches left out"
                + ("" if g["symmetric"] else f"; decks played by {g['policies'][0]}"),
                "rows": rows,
            }
        )
    return out


def first_player_rates(d: Dataset, groups, field) -> list:
    rows = d.rows(
        "SELECT mode, pairing, count(*) FILTER (WHERE winner = first_seat) AS wins, "
        "count(*) FILTER (WHERE winner >= 0 AND winner <> first_seat) AS losses, "
        "count(*) FILTER (WHERE winner < 0) AS draws FROM g GROUP BY ALL"
    )
    overall = records_by(rows, "mode", "pairing")
    per_mu = records_by(
        d.rows(
            "SELECT mode, pairing, matchup, policies, "
            "count(*) FILTER (WHERE winner = first_seat) AS wins, "
            "count(*) FILTER (WHERE winner >= 0 AND winner <> first_seat) AS losses, "
            "count(*) FILTER (WHERE winner < 0) AS draws FROM g GROUP BY ALL ORDER BY ALL"
        ),
        "mode",
        "pairing",
        "matchup",
        "policies",
    )
    out = []
    field_by = {f["group"]: f for f in field}
    for g in groups:
        matchups = [
            {"matchup": k[2], "policies": k[3], "first_mover": rec}
            for k, rec in per_mu.items()
            if k[:2] == group_key(g)
        ]
        stats.mark_holm([m["first_mover"]["win_rate"] for m in matchups])
        per_deck = [
            {
                "deck": r["deck"],
                "first": r["first"],
                "second": r["second"],
                "first_minus_second": r["first_minus_second"],
            }
            for r in field_by[g["id"]]["rows"]
        ]
        out.append(
            {
                "group": g["id"],
                "games": g["games"],
                "games_non_mirror": field_by[g["id"]]["games"],
                "deck_games": field_by[g["id"]]["deck_games"],
                "first_mover": overall[group_key(g)],
                "matchups": matchups,
                "per_deck": per_deck,
            }
        )
    return out
