"""Everfrost in random games: the invariant checker after every applied option, against every
base deck in every mode (sample-sized), proof that random play reaches the new mechanics, and
proof that the checker sees a broken frozen slot or a miscounted removal.

The checker's card conservation counts each seat's frozen slot (and the card waiting for the
keep-or-replace choice); its piece check uses the per-colour totals that shrink when a piece
leaves the game, and demands they fall short of the mode's by exactly the removal events.
"""

import numpy as np
import pytest

from core import constants as K
from core.game import advance, apply_option
from core.invariants import INV_CARDS, INV_NAMES, INV_REMOVED, check_state
from core.kernel import R_END_REASON, R_ERROR, R_LOG_LOST, play_batch
from core.layout import BOARD, EV_N, FROZEN, HAND, POOL_TOTAL, STATE_SIZE
from core.policy import choose_random
from core.setup import init_game
from sim.content import BASE_DECKS, load_content
from sim.single_game import GameConfig, play_logged

CONTENT = load_content()
T = CONTENT.tables
SEED = 20250214
EV_ROWS = 20_000
EF = "everfrost"

CONFIGS = []
for b in BASE_DECKS:
    for mode in (K.MODE_HIGH_FORM, K.MODE_DEATHMATCH):
        CONFIGS += [(mode, (EF, b)), (mode, (b, EF))]
    others = [d for d in BASE_DECKS if d != b]
    CONFIGS += [
        (K.MODE_MELEE, (b, EF, others[0])),
        (K.MODE_MELEE, (EF, b, EF, others[1])),
        (K.MODE_TEAM_HIGH_FORM, (EF, b, EF, b)),
        (K.MODE_TEAM_DEATHMATCH, (b, EF, others[0], EF)),
    ]
CONFIGS += [(K.MODE_HIGH_FORM, (EF, EF)), (K.MODE_DEATHMATCH, (EF, EF))]
GAMES = {2: 80, 3: 40, 4: 30}


def _batch(mode, decks, n, check=1):
    d = np.array([CONTENT.deck_index(x) for x in decks], np.int32)
    pols = np.zeros(len(decks), np.int32)
    return play_batch(T, mode, len(decks), d, pols, 0, SEED, 0, n, 200, 0, check, EV_ROWS)


@pytest.mark.parametrize(
    "mode,decks", CONFIGS, ids=[f"{K.MODE_NAMES[m]}-{'-'.join(d)}" for m, d in CONFIGS]
)
def test_everfrost_random_games_keep_every_invariant(mode, decks):
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


def test_random_play_reaches_the_everfrost_mechanics():
    """Logged random games (every effect implemented: no escape hatch) store, replace and
    thaw frozen effects, remove pieces from the game and take actions away."""
    seen = set()
    for g in range(40):
        cfg = GameConfig(decks=[EF, "highland"], mode="deathmatch", seed=11, game_index=g)
        _, ev = play_logged(CONTENT, cfg)
        seen |= set(ev[:, 0].tolist())
    for kind in (K.EV_FROZEN, K.EV_KEEP_FROZEN, K.EV_THAW, K.EV_REMOVED, K.EV_LOSE_ACTION):
        assert kind in seen, K.EV_NAMES[kind]


def _mid_game_with_frozen(seed=3):
    """A valid Everfrost mid-game state where seat 0 holds a frozen card."""
    s = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((EV_ROWS, K.EV_WIDTH), np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    decks = np.array([CONTENT.deck_index(EF)] * 2, np.int32)
    for game in range(50):
        init_game(s, T, ev, K.MODE_DEATHMATCH, 2, decks, 0, 0, seed, game, 200, 0)
        n = advance(s, T, ev, opts)
        while n > 0:
            if s[FROZEN] >= 0 and check_state(s, T, ev) == 0:
                return s, ev
            k = choose_random(s, opts, n)
            apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            n = advance(s, T, ev, opts)
    raise AssertionError("no frozen card stored in 50 random games")


def test_checker_counts_the_frozen_slot():
    s, ev = _mid_game_with_frozen()
    bad = s.copy()
    bad[FROZEN] = -1  # the stored card vanished
    assert check_state(bad, T, ev) == INV_CARDS
    bad = s.copy()
    bad[FROZEN] = bad[HAND]  # a card both in hand and stored (or not a frozen card at all)
    assert check_state(bad, T, ev) == INV_CARDS


def test_checker_sees_a_miscounted_removal():
    s, ev = _mid_game_with_frozen()
    bad, log = s.copy(), ev.copy()
    n = bad[EV_N]
    log[n] = (K.EV_REMOVED, 1, 0, 40, 4 + K.COMMON, 0)  # logged, but the totals are intact
    bad[EV_N] = n + 1
    assert check_state(bad, T, log) == INV_REMOVED
    bad = s.copy()
    sq = next(q for q in range(81) if bad[BOARD + q] in (4 * 0 + 1, 4 * 0 + 2))
    bad[BOARD + sq] = 0  # a piece of colour 0 left the game with no removal event
    bad[POOL_TOTAL] -= 1
    assert check_state(bad, T, ev) == INV_REMOVED
