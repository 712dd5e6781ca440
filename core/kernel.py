"""Compiled drivers that play whole games: one game with a log, or a batch of games.

Each game is seeded from (study seed, game index) alone, so a batch gives the same games
however it is split. Buffers are allocated once per call, never per action. Besides one
result row per game, a batch extracts card events and task claims from each game's log
(the Parquet tables ``card_events`` and ``task_claims``).

One seam: ``play(batch, first, n, ...)`` is the only Python entry every command plays
through (``kalarite play`` with one game and a full log, ``simulate``/``study`` in each Ray
worker, ``check``, the ladder, ``tune``, the benchmarks). A ``Batch`` holds what fixes the
games besides their indices (tables, mode, seat decks, seat players and their parameter
rows, the 64-bit seed); ``sim.games.batch`` builds it from names. ``play`` calls one of two
compiled kernels: ``play_games``, or with ``checked=True`` ``play_games_checked`` (the same
loop with the invariant checker, which only `kalarite check`, ``play --check`` and the tests
compile). Each is called with one type signature, so it compiles once and has one cache
entry; compile time (core.jit): the kernels they call are compiled link-only, so the engine
is optimised and turned into machine code once, here.
"""

from typing import NamedTuple

import numpy as np

from core.checks.invariants import check_state
from core.constants import (
    DEFAULT_TURN_CAP,
    EV_CLAIM,
    EV_DISCARD,
    EV_DRAW,
    EV_FLARE,
    EV_RETURN,
    EV_SCORE,
    EV_SUMMON,
    EV_THAW,
    EV_WARP,
    HEROIC,
    LEGENDARY,
    MAX_OPTIONS,
    OPT_WIDTH,
    SR_DESTRUCTION,
    SR_FLARE,
    SR_LEGEND,
    SR_PENALTY,
    SR_TASK,
)
from core.jit import njit
from core.jit.profile import start_timers
from core.layout import (
    ACTIONS_DONE,
    COLOUR,
    CONTROL,
    CUR,
    DECISIONS,
    END_REASON,
    EV_LOST,
    EV_N,
    FIRST,
    GAME_OVER,
    MAX_PLAYERS,
    MODE,
    N_DISCARDS,
    N_FLARES,
    N_GATEWAY_TURNS,
    N_PLACES,
    N_PLAYERS,
    N_SUMMONS,
    N_TASKS_CLAIMED,
    N_THAWS,
    N_WARPS,
    PENDING,
    SCORE,
    SCORE_COLOR,
    STATE_SIZE,
    TASKS_SHOWN,
    TURN_NO,
    WINNER,
)
from core.players.choose import choose
from core.players.feature_names import N_FEATURES
from core.players.features import features
from core.players.lookahead import advance_turn, begin
from core.players.planner import FWORK_ROWS, WOPTS_ROWS, WORK_ROWS, reset_plan
from core.players.random_action import advance_deciding, random_seats
from core.rows import (  # noqa: F401  (re-exported: callers import the layout from here too)
    CARD_EVENT_NAMES,
    CE_DISCARDED,
    CE_DRAWN,
    CE_FLARE_PLAYED,
    CE_RETURNED,
    CE_SUMMONED,
    CE_THAWED,
    CE_WARPED,
    ERR_LOG,
    ERR_POLICY,
    P_FEATURES,
    P_GAME,
    P_SEAT,
    P_TURN,
    POSITIONS_PER_GAME,
    R_ACTIONS,
    R_DECISIONS,
    R_END_REASON,
    R_ERROR,
    R_FIRST,
    R_LOG_LOST,
    R_SEAT,
    R_SEAT_WIDTH,
    R_TASKS_SHOWN,
    R_TURNS,
    R_WIDTH,
    R_WINNER,
    S_COLUMN,
    S_DISCARDS,
    S_FLARES,
    S_GATEWAY_TURNS,
    S_LEGENDS_END,
    S_PENDING_END,
    S_PIECES_END,
    S_PLACES,
    S_PTS_DESTRUCTION,
    S_PTS_FLARE,
    S_PTS_LEGEND,
    S_PTS_TASK,
    S_SCORE,
    S_SUMMONS,
    S_TASKS,
    S_THAWS,
    S_UPGRADED_END,
    S_WARPS,
    SEAT_COLUMNS,
)
from core.rules.modes import is_team
from core.rules.rng import _mix32
from core.rules.scoring import pieces_on_board
from core.rules.setup import init_game
from core.rules.turn import apply_option


@njit(cache=True, _nrt=True)
def workspace():
    """Scratch buffers of the lookahead players, allocated once per kernel call (their rows
    are assigned in core.players.greedy and core.players.planner)."""
    work = np.zeros((WORK_ROWS, STATE_SIZE), np.int32)
    wopts = np.zeros((WOPTS_ROWS, MAX_OPTIONS, OPT_WIDTH), np.int32)
    ev0 = np.zeros((0, 6), np.int32)  # lookahead copies keep no log
    fwork = np.zeros((FWORK_ROWS, MAX_OPTIONS))
    return work, wopts, ev0, fwork


@njit(cache=True, _nrt=True)
def play_to_end(s, T, ev, opts, policies, params, check, work, wopts, ev0, fwork):
    """Play the game in ``s`` to its end; with ``check`` run the invariant checker after
    every applied option. ``work``, ``wopts``, ``ev0``, ``fwork``: the lookahead players'
    buffers (``workspace``). Returns 0, or the first error code."""
    reset_plan(work)  # a plan from the previous game must not carry over
    randoms = random_seats(policies)
    n = advance_deciding(s, T, ev, opts, randoms)
    while n > 0:
        seat = s[CONTROL]  # the seat deciding: the teammate after a team pass
        k = choose(s, T, opts, n, policies[seat], params[seat], work, wopts, ev0, fwork)
        if k < 0:
            return ERR_POLICY
        apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
        if check:
            err = check_state(s, T, ev)
            if err != 0:
                return err
        n = advance_deciding(s, T, ev, opts, randoms)
        if check:
            err = check_state(s, T, ev)
            if err != 0:
                return err
    return 0


@njit(cache=True, _nrt=True)
def record_game(out, g, s, T, n_players, err):
    """Write game ``g``'s result row (core.rows R_*, one block per seat) from its final state."""
    out[g, R_WINNER] = s[WINNER]
    out[g, R_FIRST] = s[FIRST]
    out[g, R_END_REASON] = s[END_REASON]
    out[g, R_TURNS] = s[TURN_NO]
    out[g, R_ACTIONS] = s[ACTIONS_DONE]
    out[g, R_DECISIONS] = s[DECISIONS]
    out[g, R_ERROR] = err
    out[g, R_LOG_LOST] = s[EV_LOST]
    out[g, R_TASKS_SHOWN] = s[TASKS_SHOWN]
    for p in range(n_players):
        b = R_SEAT + p * R_SEAT_WIDTH
        col = s[COLOUR + p]  # pieces and scores belong to colours (a team in team play)
        out[g, b + S_SCORE] = s[SCORE + col]
        out[g, b + S_SUMMONS] = s[N_SUMMONS + p]
        out[g, b + S_PLACES] = s[N_PLACES + p]
        out[g, b + S_DISCARDS] = s[N_DISCARDS + p]
        out[g, b + S_FLARES] = s[N_FLARES + p]
        out[g, b + S_TASKS] = s[N_TASKS_CLAIMED + p]
        out[g, b + S_UPGRADED_END] = pieces_on_board(s, T, col, HEROIC)
        out[g, b + S_PIECES_END] = pieces_on_board(s, T, col, 1)
        out[g, b + S_LEGENDS_END] = pieces_on_board(s, T, col, LEGENDARY)
        for c in range(MAX_PLAYERS):
            out[g, b + S_COLUMN + c] = s[SCORE_COLOR + p * MAX_PLAYERS + c]
        out[g, b + S_THAWS] = s[N_THAWS + p]
        out[g, b + S_WARPS] = s[N_WARPS + p]
        out[g, b + S_PENDING_END] = 1 if s[PENDING + p] >= 0 else 0
        out[g, b + S_GATEWAY_TURNS] = s[N_GATEWAY_TURNS + p]


# a score event's reason is its points-by-source column (``_extract``); the penalty has none
assert (S_PTS_TASK, S_PTS_DESTRUCTION, S_PTS_LEGEND, S_PTS_FLARE) == tuple(
    S_PTS_TASK + r for r in (SR_TASK, SR_DESTRUCTION, SR_LEGEND, SR_FLARE)
)


@njit(cache=True, _nrt=True)
def _extract(s, ev, g, out, cev, nce, tcl, ntc):
    """Card events and task claims of game ``g`` from its log."""
    for i in range(s[EV_N]):
        kind = ev[i, 0]
        what = -1
        if kind == EV_DRAW:
            what = CE_DRAWN
        elif kind == EV_SUMMON:
            what = CE_SUMMONED
        elif kind == EV_DISCARD:
            what = CE_DISCARDED
        elif kind == EV_RETURN:
            what = CE_RETURNED
        elif kind == EV_FLARE:
            what = CE_FLARE_PLAYED
        elif kind == EV_THAW:
            what = CE_THAWED
        elif kind == EV_WARP:
            what = CE_WARPED
        elif kind == EV_CLAIM and ntc < tcl.shape[0]:
            tcl[ntc, 0] = g
            tcl[ntc, 1] = ev[i, 2]
            tcl[ntc, 2] = ev[i, 3]
            tcl[ntc, 3] = ev[i, 1]
            tcl[ntc, 4] = ev[i, 4]
            ntc += 1
        elif kind == EV_SCORE and ev[i, 4] != SR_PENALTY:
            # points by source: column S_PTS_TASK + reason. The causality penalty is no
            # source of points scored (its reason would land on col0): ``pending_at_end``
            # records it. Team play logs the team (colour); both of its seats get the points.
            for p in range(ev[i, 2], s[N_PLAYERS], 2 if is_team(s[MODE]) else s[N_PLAYERS]):
                out[g, R_SEAT + p * R_SEAT_WIDTH + S_PTS_TASK + ev[i, 4]] += ev[i, 3]
        if what >= 0 and nce < cev.shape[0]:
            cev[nce, 0] = g
            cev[nce, 1] = ev[i, 2]
            cev[nce, 2] = ev[i, 3]
            cev[nce, 3] = what
            cev[nce, 4] = ev[i, 1]
            nce += 1
    return nce, ntc


class Batch(NamedTuple):
    """What fixes a batch's games besides their indices: built in one place from names
    (``sim.games.batch``), played by ``play``."""

    T: object  # the compiled content (core.tables)
    mode: int  # MODE_*
    decks: np.ndarray  # int32, one deck index per seat, in turn order
    policies: np.ndarray  # int32, one player code (POL_*) per seat
    params: np.ndarray  # float64 (seats, PP_WIDTH): each seat's player parameter row
    seed: int  # the 64-bit seed (a study's matchup seed); game i is (seed, i) alone


class Played(NamedTuple):
    """What ``play`` returns. ``state`` and ``log``: the last game's final state row and its
    event rows (the whole buffer: ``state[EV_N]`` rows are filled)."""

    rows: np.ndarray  # one result row per game (core.rows R_*)
    card_events: np.ndarray  # empty unless ``ev_rows`` > 0
    task_claims: np.ndarray  # empty unless ``ev_rows`` > 0
    positions: np.ndarray  # empty unless ``positions_every`` > 0
    state: np.ndarray
    log: np.ndarray


def play(
    batch: Batch,
    first: int,
    n: int,
    *,
    turn_cap: int = DEFAULT_TURN_CAP,
    allow_no_effect: bool = False,
    ev_rows: int = 0,
    positions_every: int = 0,
    checked: bool = False,
) -> Played:
    """Play games ``first .. first + n - 1`` of ``batch``. ``ev_rows``: rows of each game's
    event log (0: none kept, no card events or task claims); ``positions_every`` k > 0
    samples about one turn end in k (core.rows P_*, at most POSITIONS_PER_GAME a game)
    without changing any game; ``checked``: the invariant checker after every option, a
    broken invariant or an overflowing log ending the game with its code in R_ERROR.

    Every scalar goes to the kernel as a Python int, so each kernel keeps its one compiled
    signature."""
    head = (batch.T, int(batch.mode), len(batch.decks), batch.decks, batch.policies)
    head += (batch.params, *seed_words(batch.seed))
    tail = (int(first), int(n), int(turn_cap), int(bool(allow_no_effect)), int(ev_rows))
    if checked:
        if positions_every:
            raise ValueError("positions are sampled by the unchecked kernel only")
        out = play_games_checked(*head, *tail)
        return Played(out[0], out[1], out[2], _NO_POSITIONS, out[3], out[4])
    out = play_games(*head, *tail, int(positions_every))
    return Played(out[0], out[1], out[2], out[5], out[3], out[4])


_NO_POSITIONS = np.zeros((0, P_FEATURES + N_FEATURES))


def seed_words(seed: int) -> tuple[int, int]:
    """The two 32-bit words of a 64-bit seed, as ``init_game`` takes them: the one place a
    seed is split."""
    seed = int(seed)
    return (seed >> 32) & 0xFFFFFFFF, seed & 0xFFFFFFFF


@njit(cache=True, _nrt=False)
def _sampled(seed_lo, gi, turn, every):
    """Is this turn end sampled? A hash of (seed, game, turn): the game's own random
    numbers are never drawn for it, so sampling changes no game."""
    h = _mix32(np.int64(seed_lo) ^ (np.int64(gi) * 40503 + np.int64(turn) * 2654435))
    return h % every == 0


@njit(cache=True, _nrt=False)
def _turn_end_position(s, T, opts, k, c, copts, ev0, row, mark):
    """If option ``k`` ends the current seat's turn (and not the game), write the features
    of the position it ends in, before the refill (as the turn planner sees its plans end),
    into ``row[P_FEATURES:]`` and return True."""
    begin(c, s)
    apply_option(c, T, ev0, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
    if advance_turn(c, T, ev0, copts, False) != 0 or c[GAME_OVER] != 0:
        return False
    features(c, T, s[CUR], 0, row[P_FEATURES:], mark)
    return True


@njit(cache=True, _nrt=True, wide_inlining=True)
def play_games(
    T,
    mode,
    n_players,
    decks,
    policies,
    params,
    seed_hi,
    seed_lo,
    first_index,
    n_games,
    turn_cap,
    allow_no_effect,
    ev_rows,
    positions_every,
):
    """Play games ``first_index .. first_index + n_games - 1`` (the first seat is the game
    index modulo the seats). ``params[seat]`` holds that seat's policy parameters
    (core.players.params PP_*). Returns (result rows, card event rows, task claim rows, the last
    game's final state, its event log, position rows); the card events and task claims are
    empty when ``ev_rows`` is 0 (no log kept), the position rows when ``positions_every`` is
    0 (see ``play``). Without the invariant checker (``play_games_checked``), so that the
    commands that only play never compile it."""
    out, cev, tcl, s, opts, ev, work, wopts, ev0, fwork = _buffers(n_games, ev_rows)
    sampling = positions_every > 0
    pos = np.zeros((n_games * POSITIONS_PER_GAME if sampling else 0, P_FEATURES + N_FEATURES))
    pcopy = np.zeros(STATE_SIZE if sampling else 0, np.int32)
    popts = np.zeros((MAX_OPTIONS if sampling else 0, OPT_WIDTH), np.int32)
    mark = np.zeros(81, np.int32)
    nce = 0
    ntc = 0
    npos = 0
    randoms = random_seats(policies)
    start_timers()
    for g in range(n_games):
        gi = first_index + g
        init_game(
            s,
            T,
            ev,
            mode,
            n_players,
            decks,
            gi % n_players,
            seed_hi,
            seed_lo,
            gi,
            turn_cap,
            allow_no_effect,
        )
        err = 0
        reset_plan(work)  # a plan from the previous game must not carry over
        game_pos = 0
        n = advance_deciding(s, T, ev, opts, randoms)
        while n > 0:  # play_to_end without the checker
            seat = s[CONTROL]
            k = choose(s, T, opts, n, policies[seat], params[seat], work, wopts, ev0, fwork)
            if k < 0:
                err = ERR_POLICY
                break
            if (
                sampling
                and game_pos < POSITIONS_PER_GAME
                and _sampled(seed_lo, gi, s[TURN_NO], positions_every)
                and _turn_end_position(s, T, opts, k, pcopy, popts, ev0, pos[npos], mark)
            ):
                pos[npos, P_GAME] = g
                pos[npos, P_TURN] = s[TURN_NO]
                pos[npos, P_SEAT] = s[CUR]
                npos += 1
                game_pos += 1
            apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            n = advance_deciding(s, T, ev, opts, randoms)
        record_game(out, g, s, T, n_players, err)
        if ev_rows > 0:
            nce, ntc = _extract(s, ev, g, out, cev, nce, tcl, ntc)
    return out, cev[:nce], tcl[:ntc], s, ev, pos[:npos]


@njit(cache=True, _nrt=True)
def play_games_checked(
    T,
    mode,
    n_players,
    decks,
    policies,
    params,
    seed_hi,
    seed_lo,
    first_index,
    n_games,
    turn_cap,
    allow_no_effect,
    ev_rows,
):
    """``play_games`` running the invariant checker after every option (``play(...,
    checked=True)``: `kalarite check`, ``play --check``, the tests): a broken invariant
    ends the game with its code in the R_ERROR column, and so does a game whose log
    overflowed (ERR_LOG)."""
    out, cev, tcl, s, opts, ev, work, wopts, ev0, fwork = _buffers(n_games, ev_rows)
    nce = 0
    ntc = 0
    start_timers()
    for g in range(n_games):
        gi = first_index + g
        init_game(
            s,
            T,
            ev,
            mode,
            n_players,
            decks,
            gi % n_players,
            seed_hi,
            seed_lo,
            gi,
            turn_cap,
            allow_no_effect,
        )
        err = play_to_end(s, T, ev, opts, policies, params, 1, work, wopts, ev0, fwork)
        if ev_rows > 0 and s[EV_LOST] > 0 and err == 0:
            err = ERR_LOG
        record_game(out, g, s, T, n_players, err)
        if ev_rows > 0:
            nce, ntc = _extract(s, ev, g, out, cev, nce, tcl, ntc)
    return out, cev[:nce], tcl[:ntc], s, ev


@njit(cache=True, _nrt=True)
def _buffers(n_games, ev_rows):
    """Everything a batch writes, allocated once per call."""
    out = np.zeros((n_games, R_WIDTH), np.int64)
    per_game = 0 if ev_rows == 0 else 400
    cev = np.zeros((n_games * per_game, 5), np.int32)
    tcl = np.zeros((n_games * (24 if ev_rows > 0 else 0), 5), np.int32)
    s = np.zeros(STATE_SIZE, np.int32)
    opts = np.zeros((MAX_OPTIONS, OPT_WIDTH), np.int32)
    ev = np.zeros((ev_rows, 6), np.int32)
    work, wopts, ev0, fwork = workspace()
    return out, cev, tcl, s, opts, ev, work, wopts, ev0, fwork
