"""Nethervoid in random games: proof that random play reaches the deck's mechanics with no
escape hatch (every deck and mode under the invariant checker, its Gateway check included:
tests/test_contract.py)."""

from core import constants as K
from sim.content import load_content
from sim.single_game import GameConfig, play_logged

CONTENT = load_content()
NV = "nethervoid"


def test_random_play_reaches_the_nethervoid_mechanics():
    """Logged random games (every effect implemented: no escape hatch) mark and lose
    Gateways, send Hell Hound under the deck, possess summons, lose own actions and count
    effect-made legends."""
    seen = set()
    for g in range(150):  # a Gate Master's legend is rare: games 121 and 147 make one
        cfg = GameConfig(decks=[NV, "highland"], mode="deathmatch", seed=5, game_index=g)
        _, ev = play_logged(CONTENT, cfg)
        seen |= set(ev[:, 0].tolist())
    for kind in (
        K.EV_GATEWAY,
        K.EV_GATEWAY_LOST,
        K.EV_CARD_TO_BOTTOM,
        K.EV_POSSESS,
        K.EV_LOSE_OWN_ACTION,
        K.EV_LEGEND_SUMMONED,
    ):
        assert kind in seen, K.EV_NAMES[kind]
