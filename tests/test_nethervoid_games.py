"""Nethervoid in random games: the invariant checker (its Gateway check included) after every
applied option, against every deck in every mode (sample-sized), and proof that random play
reaches the deck's mechanics with no escape hatch."""

import pytest
from expansion_games import assert_invariants_kept, config_ids, expansion_configs

from core import constants as K
from sim.content import BASE_DECKS, load_content
from sim.single_game import GameConfig, play_logged

CONTENT = load_content()
T = CONTENT.tables
SEED = 20260301
NV = "nethervoid"
OTHERS = (*BASE_DECKS, "everfrost")

CONFIGS = expansion_configs(NV, OTHERS)


@pytest.mark.parametrize("mode,decks", CONFIGS, ids=config_ids(CONFIGS))
def test_nethervoid_random_games_keep_every_invariant(mode, decks):
    assert_invariants_kept(CONTENT, mode, decks, SEED)


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


def test_nethervoid_plays_with_no_escape_hatch():
    assert CONTENT.missing_effects([NV]) == []
    CONTENT.require_playable([NV, "imperial"], allow_missing_effects=False)
