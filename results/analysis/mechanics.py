"""Mechanic use beside each expansion deck's win rate: how often the deck's own seat thawed a
frozen effect (Everfrost), played a warp and still held a pending being at the end
(Etherweave), or ended a turn holding a Gateway (Nethervoid), per game. The games are those of
the deck-vs-field table (the group's perspective player, mirror matches left out), so each
figure sits next to the win rate of the same games. A dataset made before the mechanic
telemetry has no such columns: the figures are left out (an empty dict)."""

from results.analysis.dataset import Dataset, has_column
from results.analysis.groups import group_key

MECHANIC_COLUMNS = ("thaws", "warps", "pending_at_end", "gateway_turns")
EXPANSION_DECKS = ("everfrost", "etherweave", "nethervoid")
# what each expansion deck's own mechanic is, in the report's words
DECK_MECHANICS = {
    "everfrost": (("thaws", "thaws"),),
    "etherweave": (("warps", "warps"), ("pending_at_end", "pending at end")),
    "nethervoid": (("gateway_turns", "Gateway turns"),),
}


def _means(r) -> dict:
    return {c: float(r[c]) for c in MECHANIC_COLUMNS} | {"seat_games": int(r["n"])}


def mechanic_use(d: Dataset, groups) -> dict:
    """deck -> mean thaws, warps, pending-at-end share, Gateway turns per game over all its
    deck-vs-field games, ``seat_games``, and ``by_group`` (group id -> the same figures)."""
    if not all(has_column(d, "games_raw", f"seat0_{c}") for c in MECHANIC_COLUMNS):
        return {}
    sel = ", ".join(f"avg({c}) AS {c}" for c in MECHANIC_COLUMNS)
    decks = ", ".join(f"'{x}'" for x in EXPANSION_DECKS)
    where = f"WHERE persp AND deck <> opp_deck AND deck IN ({decks})"
    per_group = d.rows(
        f"SELECT mode, pairing, deck, count(*) AS n, {sel} FROM sg {where} GROUP BY ALL"
    )
    overall = d.rows(f"SELECT deck, count(*) AS n, {sel} FROM sg {where} GROUP BY ALL")
    gid = {group_key(g): g["id"] for g in groups}
    out = {}
    for r in sorted(overall, key=lambda r: EXPANSION_DECKS.index(r["deck"])):
        out[r["deck"]] = _means(r) | {"by_group": {}}
    for r in per_group:
        key = (r["mode"], r["pairing"])
        if key in gid:
            out[r["deck"]]["by_group"][gid[key]] = _means(r)
    return out
