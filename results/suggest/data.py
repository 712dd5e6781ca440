"""What `kalarite suggest` reads from its datasets: per game, the goal deck's win share (it
always sits in seat 0; the first player alternates with the game index), how the game was
decided, and which cards seat 0 drew, summoned, thawed or warped.

Games are keyed (mode, seat-0 deck, opponent, game index); a candidate's variant deck
(``everfrost-c007``) is its own seat-0 deck. Games with an engine error are left out; games
whose log overflowed (``log_lost``) have no card list (their card events are incomplete), so
no rule that needs one applies to them.
"""

import pyarrow.compute as pc

from results.stats import win_share
from results.store import read_table

GAME_COLUMNS = (
    "mode",
    "seat0_deck",
    "seat1_deck",
    "game_index",
    "seed",
    "winner",
    "error",
    "log_lost",
    "end_reason",
    "seat0_score",
    "seat1_score",
)


def games(out) -> dict:
    """{(mode, seat-0 deck, opponent): {game index: row}} of a dataset's two-seat games,
    each row {share, seed, tie_break, end_reason}: ``tie_break`` is True when the scores
    were equal and the tie-breakers named the winner."""
    t = read_table(out, "games", columns=list(GAME_COLUMNS))
    t = t.filter(pc.equal(t.column("error"), 0))
    d = {c: t.column(c).to_pylist() for c in GAME_COLUMNS}
    res = {}
    for i in range(t.num_rows):
        key = (d["mode"][i], d["seat0_deck"][i], d["seat1_deck"][i])
        w = d["winner"][i]
        res.setdefault(key, {})[d["game_index"][i]] = {
            "share": win_share(w, 0),
            "seed": d["seed"][i],
            "tie_break": d["seat0_score"][i] == d["seat1_score"][i] and w >= 0,
            "end_reason": d["end_reason"][i],
            "log_lost": d["log_lost"][i] > 0,
        }
    return res


def seat0_cards(out, events=("drawn",)) -> dict:
    """{(mode, seat-0 deck, opponent): {game index: {card slug: set of events}}}: the cards
    seat 0 had these ``events`` for (drawn, summoned, thawed, warped...), by the slug after
    the deck name (``snow-fox``)."""
    t = read_table(out, "card_events", columns=["mode", "matchup", "game_index", "seat", "card",
                                                "event"])  # fmt: skip
    t = t.filter(pc.equal(t.column("seat"), 0))
    if events is not None:
        t = t.filter(pc.is_in(pc.cast(t.column("event"), "string"), value_set=_arr(events)))
    mode = t.column("mode").to_pylist()
    matchup = t.column("matchup").to_pylist()
    gi = t.column("game_index").to_pylist()
    card = pc.cast(t.column("card"), "string").to_pylist()
    ev = pc.cast(t.column("event"), "string").to_pylist()
    res = {}
    for m, mu, g, c, e in zip(mode, matchup, gi, card, ev, strict=True):
        d0, _, d1 = mu.partition("-vs-")
        slug = c.partition("/")[2]
        res.setdefault((m, d0, d1), {}).setdefault(g, {}).setdefault(slug, set()).add(e)
    return res


def _arr(values):
    import pyarrow as pa

    return pa.array(list(values), pa.string())


def card_use(out, deck: str) -> dict:
    """{card slug: {"games", "drawn", "summoned", "thawed", "warped"}}: the share of the
    dataset's games of ``deck`` (seat 0) in which seat 0 had each event with the card."""
    g = games(out)
    cards = seat0_cards(out, events=None)
    n = 0
    counts = {}
    for (mode, d0, d1), rows in g.items():
        if d0 != deck:
            continue
        for gi in rows:
            n += 1
            for slug, evs in cards.get((mode, d0, d1), {}).get(gi, {}).items():
                c = counts.setdefault(slug, {})
                for e in evs:
                    c[e] = c.get(e, 0) + 1
    return (
        {
            slug: {"games": n}
            | {e: c.get(e, 0) / n for e in ("drawn", "summoned", "thawed", "warped")}
            for slug, c in counts.items()
        }
        if n
        else {}
    )
