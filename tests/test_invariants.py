"""The shared invariant checker can fail, and games are reproducible.

* hand-corrupted copies of valid mid-game states must be reported with the right INV_* code;
* games are reproducible from (seed, game index), whatever the batch, the checker or the log;
  the logged game, the Python loop and the batch kernel play the same game.

Random games of every deck and mode under the checker, and the board the log rebuilds:
tests/test_contract.py.
"""

import itertools

import numpy as np
import pytest

from core import constants as K
from core.checks import invariants as I
from core.checks.invariants import CHECKS, INV_NAMES, check_state
from core.layout import (
    BOARD,
    CUR,
    DECISIONS,
    EV_N,
    HAND,
    HAND_CAP,
    HAND_N,
    LSTOCK,
    MODE,
    NSQ,
    SCORE,
    SEAT_DECK,
    STATE_SIZE,
    STOCK,
    TASK_PTS,
    TAVAIL,
    TCLAIMED,
    TDECK,
    TDECK_HEAD,
    TNEXT,
    TURN_NO,
    WINNER,
)
from core.players.random_player import choose_random
from core.rows import (
    ERR_LOG,
    ERR_POLICY,
    R_ACTIONS,
    R_DECISIONS,
    R_END_REASON,
    R_ERROR,
    R_FIRST,
    R_SEAT,
    R_SEAT_WIDTH,
    R_TURNS,
    R_WINNER,
    S_LEGENDS_END,
    S_SCORE,
)
from core.rules.setup import init_game
from core.rules.turn import advance, apply_option
from sim.content import BASE_DECKS, load_content
from sim.single_game import GameConfig, play_logged, play_stepwise
from tests.support.harness import play_named

CONTENT = load_content()
T = CONTENT.tables
EV_ROWS = 20_000
TURN_CAP = 200
SEED = 20240607
MODES = (K.MODE_HIGH_FORM, K.MODE_DEATHMATCH)
PAIRS = list(itertools.product(BASE_DECKS, repeat=2))


def _decks(pair):
    return np.array([CONTENT.deck_index(d) for d in pair], np.int32)


def _batch(mode, pair, n, seed=SEED, first=0, check=1, ev_rows=EV_ROWS):
    """Result rows of ``n`` random games (the checker after every option with ``check``)."""
    checked = bool(check)
    name = K.MODE_NAMES[mode]
    return play_named(name, pair, ["random"] * 2, n, first=first, seed=seed, checked=checked,
                      ev_rows=ev_rows).rows  # fmt: skip


def _error_name(code):
    if 0 <= code < len(INV_NAMES):
        return INV_NAMES[code]
    return {ERR_POLICY: "unknown policy", ERR_LOG: "event log overflow"}.get(code, "unknown code")


def _score(rows, seat):
    return rows[..., R_SEAT + seat * R_SEAT_WIDTH + S_SCORE]


def _game_columns(rows):
    """The columns that describe the game itself (not what the log could record)."""
    seat_cols = [
        R_SEAT + p * R_SEAT_WIDTH + k for p in range(4) for k in range(S_SCORE, S_LEGENDS_END + 1)
    ]
    cols = [R_WINNER, R_FIRST, R_END_REASON, R_TURNS, R_ACTIONS, R_DECISIONS, *seat_cols]
    return rows[:, cols]


def test_score_check_sees_deathmatch_points():
    """The score-from-events check only means something if random games do score."""
    rows = np.concatenate([_batch(K.MODE_DEATHMATCH, p, 60) for p in PAIRS[:3]])
    assert (rows[:, R_ERROR] == 0).all(), [_error_name(int(c)) for c in rows[:, R_ERROR] if c]
    assert _score(rows, 0).sum() + _score(rows, 1).sum() > 0


# --- the checker can fail ----------------------------------------------------------------------


def mid_game(mode, pair=("imperial", "highland"), seed=5, game=0, decisions=40):
    """A valid state after ``decisions`` applied options (with its event log)."""
    s = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((EV_ROWS, K.EV_WIDTH), np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    init_game(s, T, ev, mode, 2, _decks(pair), game % 2, 0, seed, game, TURN_CAP, 0)
    n = advance(s, T, ev, opts)
    for _ in range(decisions):
        assert n > 0, "game ended before the wanted mid-game point"
        k = choose_random(s, opts, n)
        apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
        n = advance(s, T, ev, opts)
    assert check_state(s, T, ev) == 0
    return s, ev


MID_POINTS = [(m, d) for m in MODES for d in (10, 30, 60)]


@pytest.fixture(params=MID_POINTS, ids=[f"{K.MODE_NAMES[m]}-{d}" for m, d in MID_POINTS])
def state(request):
    mode, decisions = request.param
    return mid_game(mode, decisions=decisions)


def _empty_squares(s):
    return [q for q in range(NSQ) if T.sq_color[q] >= 0 and s[BOARD + q] == 0]


def _expect(s, ev, code):
    """check_state reports ``code``, and so does the first broken check of the public
    registry (CHECKS: check_state's checks, in its order)."""
    got = int(check_state(s, T, ev))
    assert got == code, f"expected {INV_NAMES[code]!r}, got {got} ({_error_name(got)})"
    first = next((c for c in (int(check(s, T, ev)) for check in CHECKS.values()) if c), 0)
    assert first == got, f"CHECKS says {first}, check_state {got}"


def test_piece_on_void_square(state):
    s, ev = state
    void = [q for q in range(NSQ) if T.sq_color[q] < 0]
    s[BOARD + void[0]] = 0 * 4 + K.COMMON
    _expect(s, ev, I.INV_VOID)


def test_piece_of_absent_seat(state):
    s, ev = state
    s[BOARD + _empty_squares(s)[0]] = 2 * 4 + K.COMMON
    _expect(s, ev, I.INV_BAD_OWNER)


def test_piece_code_without_rank(state):
    s, ev = state
    s[BOARD + _empty_squares(s)[0]] = 1 * 4 + 0
    _expect(s, ev, I.INV_BAD_OWNER)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("delta", [1, -1])
def test_stock_off_by_one(state, seat, delta):
    s, ev = state
    s[STOCK + seat] += delta
    _expect(s, ev, I.INV_POOL)


def test_piece_appears_without_leaving_stock(state):
    s, ev = state
    s[BOARD + _empty_squares(s)[0]] = 1 * 4 + K.HEROIC
    _expect(s, ev, I.INV_POOL)


def test_legend_stock_off_by_one(state):
    s, ev = state
    s[LSTOCK + 1] -= 1
    _expect(s, ev, I.INV_LEGEND_POOL)


def test_fourth_legendary_piece(state):
    s, ev = state
    empty = iter(_empty_squares(s))
    legends = sum(1 for q in range(NSQ) if s[BOARD + q] == 0 * 4 + K.LEGENDARY)
    while legends < 4:
        s[BOARD + next(empty)] = 0 * 4 + K.LEGENDARY
        legends += 1
    s[LSTOCK + 0] = 0
    _expect(s, ev, I.INV_LEGEND_CAP)


def test_duplicated_card_in_hand(state):
    s, ev = state
    n = s[HAND_N + 0]
    s[HAND + n] = s[HAND + 0]
    s[HAND_N + 0] = n + 1
    _expect(s, ev, I.INV_CARDS)


def test_card_lost_from_hand(state):
    s, ev = state
    n = s[HAND_N + 1]
    s[HAND + HAND_CAP + n - 1] = -1
    s[HAND_N + 1] = n - 1
    _expect(s, ev, I.INV_CARDS)


def test_hand_overflow(state):
    s, ev = state
    s[HAND_N + 0] = HAND_CAP + 1
    _expect(s, ev, I.INV_HAND)


def test_being_in_the_wrong_seats_hand():
    """Swap a being of seat 0's hand with one of seat 1's (other deck): every card is still
    there exactly once, but each sits with the wrong seat."""
    s, ev = mid_game(K.MODE_HIGH_FORM, decisions=30)
    assert s[SEAT_DECK] != s[SEAT_DECK + 1]

    def being_slot(seat):
        return next(
            i
            for i in range(s[HAND_N + seat])
            if T.card_kind[s[HAND + seat * HAND_CAP + i]] == K.CK_BEING
        )

    a, b = HAND + being_slot(0), HAND + HAND_CAP + being_slot(1)
    s[a], s[b] = s[b], s[a]
    _expect(s, ev, I.INV_CARDS)


def _high_form_state():
    s, ev = mid_game(K.MODE_HIGH_FORM, decisions=50)
    assert s[MODE] == K.MODE_HIGH_FORM
    return s, ev


def test_task_claimed_while_on_display():
    s, ev = _high_form_state()
    shown = int(s[TAVAIL])
    assert shown >= 0
    s[TCLAIMED + shown] = 0
    _expect(s, ev, I.INV_TASKS)


def test_task_shown_twice():
    s, ev = _high_form_state()
    s[TNEXT] = s[TAVAIL + 1]
    _expect(s, ev, I.INV_TASKS)


def test_task_claimed_twice():
    """A claimed task that is also still in the task deck."""
    s, ev = _high_form_state()
    t = int(s[TDECK + s[TDECK_HEAD]])
    s[TCLAIMED + t] = 1
    s[TASK_PTS + 1] += T.task_points[t]
    _expect(s, ev, I.INV_TASKS)


def _claim_properly(s, ev, seat):
    """Take the first displayed task for ``seat`` as the engine would (points and events);
    returns the task."""
    t = int(s[TAVAIL])
    s[TAVAIL] = -1
    s[TCLAIMED + t] = seat
    s[TASK_PTS + seat] += T.task_points[t]
    n = s[EV_N]
    ev[n] = (K.EV_CLAIM, s[TURN_NO], seat, t, T.task_points[t], 0)
    ev[n + 1] = (K.EV_SCORE, s[TURN_NO], seat, T.task_points[t], K.SR_TASK, 0)
    s[EV_N] = n + 2
    return t


def test_claimed_task_is_consistent_before_corruption():
    s, ev = _high_form_state()
    _claim_properly(s, ev, 0)
    _expect(s, ev, I.INV_OK)


@pytest.mark.parametrize("delta", [1, -1])
def test_wrong_task_points(delta):
    s, ev = _high_form_state()
    _claim_properly(s, ev, 1)
    s[TASK_PTS + 1] += delta
    _expect(s, ev, I.INV_TASK_POINTS)


def test_task_claimed_by_the_wrong_seat():
    s, ev = _high_form_state()
    t = _claim_properly(s, ev, 0)
    s[TCLAIMED + t] = 1
    _expect(s, ev, I.INV_TASK_POINTS)


def test_high_form_score_event_without_task():
    s, ev = _high_form_state()
    n = s[EV_N]
    ev[n] = (K.EV_SCORE, s[TURN_NO], 0, 2, K.SR_TASK, 0)
    s[EV_N] = n + 1
    _expect(s, ev, I.INV_SCORE_EVENTS)


def _deathmatch_state():
    s, ev = mid_game(K.MODE_DEATHMATCH, decisions=60)
    assert s[MODE] == K.MODE_DEATHMATCH
    return s, ev


@pytest.mark.parametrize("seat", [0, 1])
def test_deathmatch_score_disagrees_with_events(seat):
    s, ev = _deathmatch_state()
    s[SCORE + seat] += 1
    _expect(s, ev, I.INV_SCORE_EVENTS)


def test_deathmatch_score_event_without_destruction():
    """Score and score events agree, but no destroyed pieces back the points up."""
    s, ev = _deathmatch_state()
    seat = int(s[CUR])
    n = s[EV_N]
    ev[n] = (K.EV_SCORE, s[TURN_NO], seat, 1, K.SR_DESTRUCTION, 0)
    s[EV_N] = n + 1
    s[SCORE + seat] += 1
    _expect(s, ev, I.INV_SCORE_EVENTS)


def test_deathmatch_legend_point_is_consistent():
    """A legend-summoned score event with its point is accepted (the rebuild counts it)."""
    s, ev = _deathmatch_state()
    seat = int(s[CUR])
    n = s[EV_N]
    ev[n] = (K.EV_SCORE, s[TURN_NO], seat, 1, K.SR_LEGEND, 0)
    s[EV_N] = n + 1
    s[SCORE + seat] += 1
    _expect(s, ev, I.INV_OK)


# --- determinism -------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES, ids=[K.MODE_NAMES[m] for m in MODES])
def test_same_seed_same_games(mode):
    pair = ("highland", "sylvan")
    a = _batch(mode, pair, 40, check=0, ev_rows=0)
    b = _batch(mode, pair, 40, check=0, ev_rows=0)
    assert np.array_equal(a, b)
    # the checked run (with a log) plays the very same games
    c = _batch(mode, pair, 40, check=1)
    assert np.array_equal(_game_columns(a), _game_columns(c))
    # a game depends on (seed, index) only, not on how the batch is split
    tail = _batch(mode, pair, 15, first=25, check=0, ev_rows=0)
    assert np.array_equal(a[25:], tail)


@pytest.mark.parametrize("mode", MODES, ids=[K.MODE_NAMES[m] for m in MODES])
def test_different_games_differ(mode):
    pair = ("imperial", "imperial")
    a = _batch(mode, pair, 40, check=0, ev_rows=0)
    distinct = {tuple(r) for r in a.tolist()}
    assert len(distinct) > 30, f"only {len(distinct)} distinct result rows out of 40"
    assert list(a[:, R_FIRST]) == [g % 2 for g in range(40)]  # first seat alternates
    other = _batch(mode, pair, 40, seed=SEED + 1, check=0, ev_rows=0)
    assert not np.array_equal(a, other)


def test_logged_game_is_reproducible_and_game_index_matters():
    def log(game):
        cfg = GameConfig(
            decks=["imperial", "sylvan"],
            mode="deathmatch",
            seed=99,
            game_index=game,
            beings_without_effects=True,
        )
        return play_logged(CONTENT, cfg)

    s0, ev0 = log(0)
    s0b, ev0b = log(0)
    s1, ev1 = log(1)
    assert np.array_equal(s0, s0b) and np.array_equal(ev0, ev0b)
    assert ev0.shape != ev1.shape or not np.array_equal(ev0, ev1)


def test_logged_game_matches_the_batch_kernel_and_the_python_loop():
    """play_logged (the kernel with a log), play_stepwise (a Python loop over advance /
    choose / apply_option) and a batch without a log play the same game."""
    cases = [(mode, ("random", "random")) for mode in MODES]
    cases.append((K.MODE_HIGH_FORM, ("greedy", "random")))
    for mode, policies in cases:
        cfg = GameConfig(
            decks=["sylvan", "highland"],
            mode=K.MODE_NAMES[mode],
            seed=SEED,
            game_index=3,
            policies=policies,
            beings_without_effects=True,
        )
        s, ev = play_logged(CONTENT, cfg)
        s2, ev2 = play_stepwise(CONTENT, cfg)
        assert np.array_equal(s, s2) and np.array_equal(ev, ev2), (mode, policies)
        if policies[0] != "random":
            continue  # _batch plays random seats only
        row = _batch(mode, ("sylvan", "highland"), 1, first=3, check=0, ev_rows=0)[0]
        assert row[R_WINNER] == s[WINNER]
        assert row[R_TURNS] == s[TURN_NO]
        assert row[R_DECISIONS] == s[DECISIONS]
        assert [_score(row, 0), _score(row, 1)] == list(s[SCORE : SCORE + 2])
