"""Nethervoid in random games: the invariant checker (its Gateway check included) after every
applied option, against every deck in every mode (sample-sized), and proof that random play
reaches the deck's mechanics with no escape hatch."""

import numpy as np
import pytest

from core import constants as K
from core.invariants import INV_NAMES
from core.kernel import R_END_REASON, R_ERROR, R_LOG_LOST, play_batch
from sim.content import BASE_DECKS, load_content
from sim.single_game import GameConfig, play_logged

CONTENT = load_content()
T = CONTENT.tables
SEED = 20260301
EV_ROWS = 20_000
NV = "nethervoid"
OTHERS = (*BASE_DECKS, "everfrost")

CONFIGS = []
for b in OTHERS:
    for mode in (K.MODE_HIGH_FORM, K.MODE_DEATHMATCH):
        CONFIGS += [(mode, (NV, b)), (mode, (b, NV))]
    rest = [d for d in OTHERS if d != b]
    CONFIGS += [
        (K.MODE_MELEE, (b, NV, rest[0])),
        (K.MODE_MELEE, (NV, b, NV, rest[1])),
        (K.MODE_TEAM_HIGH_FORM, (NV, b, NV, b)),
        (K.MODE_TEAM_DEATHMATCH, (b, NV, rest[0], NV)),
    ]
CONFIGS += [(K.MODE_HIGH_FORM, (NV, NV)), (K.MODE_DEATHMATCH, (NV, NV))]
GAMES = {2: 80, 3: 40, 4: 30}


def _batch(mode, decks, n, check=1):
    d = np.array([CONTENT.deck_index(x) for x in decks], np.int32)
    pols = np.zeros(len(decks), np.int32)
    return play_batch(T, mode, len(decks), d, pols, 0, SEED, 0, n, 200, 0, check, EV_ROWS)


@pytest.mark.parametrize(
    "mode,decks", CONFIGS, ids=[f"{K.MODE_NAMES[m]}-{'-'.join(d)}" for m, d in CONFIGS]
)
def test_nethervoid_random_games_keep_every_invariant(mode, decks):
    n = GAMES[len(decks)]
    rows = _batch(mode, decks, n)
    bad = [(g, int(rows[g, R_ERROR])) for g in range(n) if rows[g, R_ERROR]]
    assert not bad, "; ".join(
        f"{K.MODE_NAMES[mode]} {decks}, seed {SEED}, game {g}: invariant {c} broken "
        f"({INV_NAMES[c] if 0 <= c < len(INV_NAMES) else c})"
        for g, c in bad[:10]
    )
    assert (rows[:, R_END_REASON] != K.END_NONE).all()
    assert (rows[:, R_LOG_LOST] == 0).all()


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
