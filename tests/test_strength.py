"""The strongest player is read from the ladders' ratings in one place (sim.strength): the
competence default, suggest's confirmation players, the service page's player and the order of
`kalarite players --json` agree with it."""

from sim.app.players_view import player_rows
from sim.strength import LADDER_PLAYERS, load_ladder, strongest_players, top_player


def _ladder(**ratings) -> dict:
    return {"players": [{"name": k.replace("_", "-"), "rating": v} for k, v in ratings.items()]}


def test_the_strongest_are_ranked_by_base_rating_then_all_deck_rating():
    base = _ladder(greedy=0.0, planner=300.0, sage=300.0)
    every = _ladder(greedy=0.0, planner=320.0, sage=350.0, seer=900.0)
    # seer is rated on the all-deck ladder only: after every player rated on the base decks
    assert strongest_players(4, (base, every)) == ["sage", "planner", "greedy", "seer"]
    assert top_player((base, every)) == "sage"
    assert top_player((None, every)) == "seer"


def test_names_that_are_no_player_or_profile_are_left_out():
    base = _ladder(oracle=999.0, greedy_tuned=10.0, greedy=0.0)
    assert strongest_players(2, (base, None)) == ["greedy-tuned", "greedy"]


def test_without_a_ladder_the_ladder_players_order_holds():
    assert strongest_players(2, (None, None)) == [LADDER_PLAYERS[-1], LADDER_PLAYERS[-2]]
    assert strongest_players(2, (_ladder(oracle=1.0), None)) == list(reversed(LADDER_PLAYERS))[:2]


def test_the_checked_in_top_player_heads_kalarite_players():
    rows = player_rows(load_ladder(), ladder_all=load_ladder(deck_set="all"))
    rated = [r["name"] for r in rows if r["rating"] is not None]
    assert strongest_players(2) == rated[:2]
    assert top_player() == rated[0]
