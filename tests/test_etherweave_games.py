"""Etherweave in random games, while the deck is being built.

The deck is refused without the escape hatch until every being is built (checked below).
Meanwhile the built part (warp play, the pending being, its penalty, swaps, the extra count,
the built beings) runs in random games against every deck in every mode under the invariant
checker, with the beings not built yet played as beings with no effect (ALLOW_NO_EFFECT,
the `--beings-without-effects` games). Once the deck is complete, these games must run with
allow_no_effect = 0 (and test_etherweave_is_refused_while_cards_are_missing must go).
"""

import numpy as np
import pytest

from core import constants as K
from core.invariants import INV_NAMES
from core.kernel import R_END_REASON, R_ERROR, R_LOG_LOST, play_batch
from sim.content import BASE_DECKS, load_content
from sim.single_game import GameConfig, play_logged

CONTENT = load_content()
T = CONTENT.tables
SEED = 20261130
EV_ROWS = 20_000
EW = "etherweave"
OTHERS = (*BASE_DECKS, "everfrost", "nethervoid")
ALLOW_NO_EFFECT = 1  # only while beings are missing: see the module docstring

CONFIGS = []
for b in OTHERS:
    for mode in (K.MODE_HIGH_FORM, K.MODE_DEATHMATCH):
        CONFIGS += [(mode, (EW, b)), (mode, (b, EW))]
    rest = [d for d in OTHERS if d != b]
    CONFIGS += [
        (K.MODE_MELEE, (b, EW, rest[0])),
        (K.MODE_MELEE, (EW, b, EW, rest[1])),
        (K.MODE_TEAM_HIGH_FORM, (EW, b, EW, b)),
        (K.MODE_TEAM_DEATHMATCH, (b, EW, rest[0], EW)),
    ]
CONFIGS += [(K.MODE_HIGH_FORM, (EW, EW)), (K.MODE_DEATHMATCH, (EW, EW))]
GAMES = {2: 60, 3: 30, 4: 20}


def _batch(mode, decks, n, check=1):
    d = np.array([CONTENT.deck_index(x) for x in decks], np.int32)
    pols = np.zeros(len(decks), np.int32)
    return play_batch(
        T, mode, len(decks), d, pols, 0, SEED, 0, n, 200, ALLOW_NO_EFFECT, check, EV_ROWS
    )


@pytest.mark.parametrize(
    "mode,decks", CONFIGS, ids=[f"{K.MODE_NAMES[m]}-{'-'.join(d)}" for m, d in CONFIGS]
)
def test_etherweave_random_games_keep_every_invariant(mode, decks):
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


def test_random_play_reaches_the_etherweave_mechanics():
    """Random play warps, swaps, discards the pending being, plays the extra count, pays the
    causality penalty, chooses a Singularity square (a Warpmaster returning a pending being
    is too rare here: tests/test_warp.py covers it)."""
    seen = set()
    penalties = 0
    for g in range(60):
        cfg = GameConfig(
            decks=[EW, "highland"], mode="deathmatch", seed=7, game_index=g,
            beings_without_effects=True,
        )  # fmt: skip
        _, ev = play_logged(CONTENT, cfg)
        seen |= set(ev[:, 0].tolist())
        penalties += int(((ev[:, 0] == K.EV_SCORE) & (ev[:, 4] == K.SR_PENALTY)).sum())
    for kind in (
        K.EV_WARP,
        K.EV_SWAP,
        K.EV_DISCARD_PENDING,
        K.EV_EXTRA_COUNT,
        K.EV_SELECT_SQUARE,
        K.EV_EFFECT_DISCARD,
        K.EV_VOID_SUMMON,
        K.EV_TOP_CARD_TO_DECK,
    ):
        assert kind in seen, K.EV_NAMES[kind]
    assert penalties > 0


def test_etherweave_is_not_dealt_without_the_escape_hatch():
    assert len(CONTENT.missing_effects([EW])) == 4
    with pytest.raises(ValueError, match="no implemented effect"):
        CONTENT.require_playable([EW, "imperial"], allow_missing_effects=False)


def test_all_decks_in_a_study_are_the_dealable_ones():
    from sim.study import dealable_decks

    assert EW not in dealable_decks(CONTENT, False)
    assert dealable_decks(CONTENT, False) == [d for d in CONTENT.decks if d != EW]
    assert dealable_decks(CONTENT, True) == list(CONTENT.decks)
