"""The strong players' speed-ups change no value, bit for bit (issue 46): the opponents'
summon memo gives the features from scratch at every step of checked games, the sparse
network gives the reference logit, and an option that ends the turn, valued on the copy
the scoring played it on, is worth what the planner's old replay on a fresh copy gave.
(Same games end to end: tests/test_golden.py and ``benchmarks.same_games``.)"""

import numpy as np
import pytest

from core.kernel import workspace
from core.layout import CUR
from core.players.feature_names import N_FEATURES
from core.players.features import MB_VALID, MEMO_BLOCK, MEMO_SIZE, features, features_memo
from core.players.greedy import ST_OVER, score_options
from core.players.leaf import leaf
from core.players.learned import LEARN_SIZE, has_model, model_logit, model_logit_sparse
from core.players.lookahead import advance_turn, begin, state_key
from core.players.params import MODEL_STRIDE, PP_ENDGAME, PP_MODEL
from core.players.weights import N_WEIGHTS
from core.rules.turn import apply_option
from tests.support.harness import player_rows
from tests.support.players import T, positions

DUELS = [
    ("high-form", ("etherweave", "nethervoid")),
    ("deathmatch", ("everfrost", "sylvan")),
    ("high-form", ("imperial", "highland")),
]


@pytest.mark.parametrize("mode,decks", DUELS)
def test_the_memo_gives_the_features_from_scratch_at_every_step(mode, decks):
    states = positions(mode, decks, specs=("sage", "sage"), games=2, every=1, cap=600)
    assert len(states) >= 50
    memo = np.zeros(MEMO_SIZE, np.int32)
    mark = np.zeros(81, np.int32)
    hits = 0
    for s in states:
        for seat in range(2):
            plain = np.full(N_FEATURES, 7.0)
            features(s, T, seat, 0, plain, mark)
            fast = np.full(N_FEATURES, -7.0)
            before = memo.copy()
            features_memo(s, T, seat, 0, fast, mark, memo)
            assert plain.tobytes() == fast.tobytes()
            blocks = [before[p * MEMO_BLOCK + MB_VALID] == 1 for p in range(2)]
            hits += any(blocks) and np.array_equal(before, memo)
    print("memo hits", hits, "of", 2 * len(states))
    assert hits > len(states) // 2  # the memo is what answers most of the time


def test_the_sparse_network_gives_the_reference_logit_bit_for_bit():
    codes, params = player_rows(["seer", "sage"])
    rng = np.random.default_rng(46)
    idx = np.zeros(N_FEATURES, np.int32)
    states = positions("deathmatch", ("nethervoid", "everfrost"), games=1, every=2, cap=60)
    mark = np.zeros(81, np.int32)
    for row in params:
        for mode in (0, 1, 2, 3):
            b = PP_MODEL + mode * MODEL_STRIDE
            if row[b] == 0:
                continue
            xs = [rng.normal(0.0, 2.0, N_FEATURES) * (rng.random(N_FEATURES) < 0.5)]
            xs.append(-0.0 * np.ones(N_FEATURES))
            for s in states:
                x = np.zeros(N_FEATURES)
                features(s, T, int(s[CUR]), 0, x, mark)
                xs.append(x)
            for x in xs:
                ref = model_logit(row, b, x)
                fast = model_logit_sparse(row, b, x, idx)
                assert ref == fast and np.signbit(ref) == np.signbit(fast) or ref == fast == 0.0


@pytest.mark.parametrize("mode,decks", DUELS[:2])
def test_a_finished_option_is_valued_as_a_fresh_replay_values_it(mode, decks):
    _, params = player_rows(["seer", "seer"])
    states = positions(mode, decks, games=1, every=2, cap=80)
    work, wopts, ev0, fwork = workspace()
    work2, wopts2, _, fwork2 = workspace()
    finished = 0
    for s in states:
        row = params[int(s[CUR])]
        assert has_model(s, row)
        exact = row[PP_ENDGAME] != 0
        n = _list(s, wopts)
        w = row[:N_WEIGHTS]
        vals, stat, keys = fwork[1], fwork[2], fwork[3]
        score_options(
            s, T, wopts[2], n, w, s[CUR], vals, stat, keys, True, work, wopts, ev0, fwork,
            row, True, exact,
        )  # fmt: skip
        for k in range(n):
            if stat[k] != ST_OVER:
                continue
            finished += 1
            c = work2[0]
            begin(c, s)
            o = wopts[2, k]
            apply_option(c, T, ev0, o[0], o[1], o[2], o[3])
            assert advance_turn(c, T, ev0, wopts2[0], False) == 0
            assert keys[k] == state_key(c)
            v = leaf(c, T, s[CUR], row, exact, work2, wopts2, ev0, fwork2)
            assert v == vals[k]
    assert finished >= 20


def _list(s, wopts):
    """The options of ``s`` (a decision of the game) into ``wopts[2]``."""
    from core import constants as K
    from core.rules.turn import advance

    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    c = s.copy()
    n = advance(c, T, ev, wopts[2])
    assert np.array_equal(c, s) and n >= 2
    return n


assert LEARN_SIZE > MEMO_SIZE
