"""The strong players' speed-ups change no value, bit for bit (issue 46): the opponents'
summon memo gives the features from scratch at every step of checked games, the sparse
network gives the reference logit, and an option that ends the turn, valued on the copy
the scoring played it on, is worth what the planner's old replay on a fresh copy gave.
(Same games end to end: tests/test_golden.py and ``benchmarks.same_games``.)"""

import numpy as np
import pytest

from core.constants import COMMON, OPT_PLACE
from core.kernel import workspace
from core.layout import BOARD, COLOUR, CUR, STATE_SIZE
from core.players.feature_names import N_FEATURES
from core.players.features import (
    MB_VALID,
    MEMO_BLOCK,
    MEMO_SIZE,
    features,
    features_memo,
    features_ref,
)
from core.players.greedy import KEYS_ALL, ST_OVER, placement_shortcut, score_options
from core.players.leaf import leaf
from core.players.learned import LEARN_SIZE, has_model, model_logit, model_logit_sparse
from core.players.lookahead import advance_turn, begin, state_key
from core.players.params import MB_HIDDEN, MODEL_STRIDE, PP_ENDGAME, PP_MODEL
from core.players.planner import (
    HEAP_MIN,
    MAX_PLANS,
    MAX_WIDTH,
    W_FINAL,
    best_final,
    heap_offer,
    search,
)
from core.players.reply import STEP
from core.players.restrict import NO_BAN
from core.players.summon_ref import REF_SIZE, prepare_ref
from core.players.weights import N_WEIGHTS
from core.rules.turn import apply_option
from tests.support.harness import player_rows
from tests.support.players import T, decision_options, positions

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
    rows = list(params)
    for hidden in (13, 3):  # the units past the last eight, one by one
        cut = params[0].copy()
        for mode in (0, 1, 2, 3):
            b = PP_MODEL + mode * MODEL_STRIDE
            if cut[b] != 0 and cut[b + MB_HIDDEN] > hidden:
                cut[b + MB_HIDDEN] = hidden
        assert not np.array_equal(cut, params[0])  # the seer has more units than that
        rows.append(cut)
    for row in rows:
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
        n = decision_options(s, wopts[2])
        w = row[:N_WEIGHTS]
        vals, stat, keys = fwork[1], fwork[2], fwork[3]
        score_options(
            s, T, wopts[2], n, w, s[CUR], vals, stat, keys, KEYS_ALL, work, wopts, ev0, fwork,
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


assert LEARN_SIZE > MEMO_SIZE


def _old_heap_offer(hv, hi, size, width, v, parent, k, key):
    """The beam's heap before its lowest entry was cached (the reference)."""
    for j in range(size):
        if hi[3 * j + 2] == key:
            if v > hv[j]:
                hv[j], hi[3 * j], hi[3 * j + 1] = v, parent, k
            return size
    if size < width:
        j = size
        size += 1
    else:
        j = 0
        for i in range(1, size):
            if hv[i] < hv[j]:
                j = i
        if v <= hv[j]:
            return size
    hv[j], hi[3 * j], hi[3 * j + 1], hi[3 * j + 2] = v, parent, k, key
    return size


@pytest.mark.parametrize("width", [1, 2, 5, 20])
def test_the_cached_lowest_entry_keeps_the_beam_as_it_was(width):
    rng = np.random.default_rng(width)
    for _ in range(30):
        hv, hi = np.zeros(MAX_WIDTH), np.zeros(STATE_SIZE, np.int32)
        ref_v, ref_i = np.zeros(MAX_WIDTH), np.zeros(STATE_SIZE, np.int32)
        hi[HEAP_MIN] = -1
        size = ref = 0
        for step in range(200):  # few values and keys: ties and merges are frequent
            v, key = float(rng.integers(0, 12)), int(rng.integers(0, 3 * width + 2))
            size = heap_offer(hv, hi, size, width, v, step % 7, step, key)
            ref = _old_heap_offer(ref_v, ref_i, ref, width, v, step % 7, step, key)
            assert size == ref
            assert np.array_equal(hv[:size], ref_v[:ref])
            assert np.array_equal(hi[: 3 * size], ref_i[: 3 * ref])


@pytest.mark.parametrize("mode,decks", DUELS[:2])
def test_the_plan_is_the_same_without_the_finished_options_keys(mode, decks):
    """With one plan kept the search skips the finished options' end keys (KEYS_PENDING);
    keeping several computes them all (KEYS_ALL): the best plan must be the same."""
    _, params = player_rows(["seer", "seer"])
    states = positions(mode, decks, games=1, every=3, cap=40)
    work, wopts, ev0, fwork = workspace()
    for s in states:
        row = params[int(s[CUR])]
        n = decision_options(s, wopts[2])
        opts = wopts[2].copy()
        plans = []
        for keep in (1, MAX_PLANS):
            count = search(s, T, opts, n, row, work, wopts, ev0, fwork, 20, NO_BAN, 0, keep)
            pick = best_final(work, fwork, 0, count) if count else -1
            path = work[W_FINAL + pick] if pick >= 0 else np.zeros(1, np.int32)
            plans.append(path[: 1 + path[0] * STEP].copy())
        assert np.array_equal(plans[0], plans[1])


@pytest.mark.parametrize("mode,decks", DUELS[::2])
def test_a_placements_key_is_the_key_of_the_placed_position(mode, decks):
    """Placement keys come from the representative's hash and hand mixed once
    (lookahead.key_with_hand): each must be the state_key of that position with the piece."""
    _, params = player_rows(["seer", "seer"])
    states = positions(mode, decks, games=1, every=2, cap=60)
    work, wopts, ev0, fwork = workspace()
    placed = 0
    for s in states:
        row = params[int(s[CUR])]
        n = decision_options(s, wopts[2])
        vals, stat, keys = fwork[1], fwork[2], fwork[3]
        score_options(
            s, T, wopts[2], n, row[:N_WEIGHTS], s[CUR], vals, stat, keys, KEYS_ALL, work, wopts,
            ev0, fwork, row, True, False,
        )  # fmt: skip
        code = COMMON + 4 * int(s[COLOUR + s[CUR]])
        for k in range(n):
            if stat[k] == ST_OVER or wopts[2, k, 0] != OPT_PLACE or wopts[2, k, 1] < 0:
                continue
            if placement_shortcut(s, T, wopts[2], n) < 0:
                break
            placed += 1
            r = work[2].copy()
            r[BOARD + wopts[2, k, 1]] = code
            assert keys[k] == state_key(r)
    assert placed >= 100


REF_DUELS = DUELS + [
    ("deathmatch", ("nethervoid", "everfrost")),
    ("high-form", ("sylvan", "imperial")),
]


@pytest.mark.parametrize("mode,decks", REF_DUELS)
def test_the_reference_gives_the_features_from_scratch_at_every_leaf(mode, decks):
    """Every finished option of decisions of seer and sage games, its features with the
    summon checks derived from the decision (core.players.summon_ref) and from an unrelated
    earlier decision, against the features from scratch, bit for bit."""
    states = positions(mode, decks, specs=("seer", "sage"), games=2, every=1, cap=160)
    work, wopts, ev0, _ = workspace()
    ref = np.zeros(REF_SIZE, np.int32)
    other = np.zeros(REF_SIZE, np.int32)
    memo = np.zeros(MEMO_SIZE, np.int32)
    mark = np.zeros(81, np.int32)
    leaves = 0
    moved = 0
    for i, s in enumerate(states):
        seat = int(s[CUR])
        n = decision_options(s, wopts[2])
        prepare_ref(s, T, seat, ref)
        prepare_ref(states[max(0, i - 7)], T, seat, other)
        for k in range(n):
            c = work[0]
            begin(c, s)
            o = wopts[2, k]
            apply_option(c, T, ev0, o[0], o[1], o[2], o[3])
            if advance_turn(c, T, ev0, wopts[0], False) != 0:
                continue
            leaves += 1
            moved += not np.array_equal(c[BOARD : BOARD + 81], s[BOARD : BOARD + 81])
            plain = np.full(N_FEATURES, 7.0)
            features(c, T, seat, 0, plain, mark)
            for r in (ref, other):
                fast = np.full(N_FEATURES, -7.0)
                features_ref(c, T, seat, 0, fast, mark, memo, r)
                assert plain.tobytes() == fast.tobytes()
    print("leaves", leaves, "with a changed board", moved)
    assert leaves >= 100 and moved >= leaves // 4
