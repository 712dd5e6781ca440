"""Scores, end triggers and the winner, for every mode.

Scores belong to colours (a seat, or a team in team play). Melee keeps one column per
opponent colour (SCORE_COLOR) and a seat's score is its lowest column.
"""

from core.constants import (
    COMMON,
    EV_SCORE,
    HEROIC,
    LEGENDARY,
    MODE_MELEE,
    MODE_NEW_PLAYER,
    SR_DESTRUCTION,
)
from core.jit import njit
from core.layout import (
    BOARD,
    COLOUR,
    CUR,
    DESTROYED,
    MAX_PLAYERS,
    MODE,
    N_PLAYERS,
    NSQ,
    SCORE,
    SCORE_COLOR,
    TASK_PTS,
    WINNER,
)
from core.rules.events import log_event
from core.rules.modes import has_tasks, n_colours

HIGH_FORM_TARGET = 9
NEW_PLAYER_TARGET = 6
DUEL_TARGET = 18  # also team Deathmatch (a team scores like one duel player)
MELEE_TARGET_3 = 12  # in any single colour column
MELEE_TARGET_4 = 10


@njit(cache=True, _nrt=False)
def pieces_on_board(s, T, colour, rank_min):
    """The colour's pieces of rank >= rank_min. A plain loop over all 81 squares (void ones
    are always empty) without branches, which the compiler vectorises."""
    n = 0
    for q in range(NSQ):
        code = s[BOARD + q]
        n += int((code != 0) & ((code >> 2) == colour) & ((code & 3) >= rank_min))
    return n


@njit(cache=True, _nrt=False)
def high_form_score(s, T, colour):
    """Claimed task points + 1 per legendary piece of the colour on the board right now."""
    return s[TASK_PTS + colour] + pieces_on_board(s, T, colour, LEGENDARY)


@njit(cache=True, _nrt=False)
def melee_low(s, seat):
    """A melee seat's score: its lowest opponent column."""
    low = 1 << 30
    for c in range(s[N_PLAYERS]):
        if c != seat and s[SCORE_COLOR + seat * MAX_PLAYERS + c] < low:
            low = s[SCORE_COLOR + seat * MAX_PLAYERS + c]
    return low


@njit(cache=True, _nrt=False)
def refresh_scores(s, T):
    if has_tasks(s[MODE]):
        for c in range(n_colours(s)):
            s[SCORE + c] = high_form_score(s, T, c)
    elif s[MODE] == MODE_MELEE:
        for p in range(s[N_PLAYERS]):
            s[SCORE + p] = melee_low(s, p)


@njit(cache=True, _nrt=False)
def add_points(s, ev, seat, pts, reason, column):
    """``pts`` for ``seat`` (in melee: in ``column``); logged as a score event."""
    if pts == 0:
        return
    if s[MODE] == MODE_MELEE:
        s[SCORE_COLOR + seat * MAX_PLAYERS + column] += pts
        s[SCORE + seat] = melee_low(s, seat)
        log_event(s, ev, EV_SCORE, seat, pts, reason, column)
    else:
        col = s[COLOUR + seat]
        s[SCORE + col] += pts
        log_event(s, ev, EV_SCORE, col, pts, reason, 0)


@njit(cache=True, _nrt=False)
def colour_points(s, colour):
    """Destruction points of this turn against one colour: 2 per legendary, 1 per heroic,
    1 per pair of commons."""
    base = DESTROYED + colour * 4
    return 2 * s[base + LEGENDARY] + s[base + HEROIC] + s[base + COMMON] // 2


@njit(cache=True, _nrt=False)
def score_destruction(s, ev):
    """Deathmatch end of turn. Melee scores each colour in its own column and returns the
    bitmask of colours with an unpaired common when two or more have one (their leftovers
    make one more pair, scored in a column the player chooses); else returns 0."""
    seat = s[CUR]
    me = s[COLOUR + seat]
    if s[MODE] != MODE_MELEE:
        pts = 0
        for colour in range(n_colours(s)):
            if colour != me:
                pts += colour_points(s, colour)
        add_points(s, ev, seat, pts, SR_DESTRUCTION, 0)
        return 0
    odd = 0
    n_odd = 0
    for colour in range(s[N_PLAYERS]):
        if colour == me:
            continue
        add_points(s, ev, seat, colour_points(s, colour), SR_DESTRUCTION, colour)
        if s[DESTROYED + colour * 4 + COMMON] % 2 == 1:
            odd |= 1 << colour
            n_odd += 1
    return odd if n_odd >= 2 else 0


@njit(cache=True, _nrt=False)
def target_score(mode, n_players):
    """Points that trigger the end (melee: in any one colour column)."""
    if mode == MODE_MELEE:
        return MELEE_TARGET_3 if n_players == 3 else MELEE_TARGET_4
    if mode == MODE_NEW_PLAYER:
        return NEW_PLAYER_TARGET
    if has_tasks(mode):
        return HIGH_FORM_TARGET
    return DUEL_TARGET


@njit(cache=True, _nrt=False)
def score_reacher(s):
    """Who has reached the target score: a melee seat (in some column) or a colour (a seat,
    or a team in team play); -1 if nobody."""
    target = target_score(s[MODE], s[N_PLAYERS])
    if s[MODE] == MODE_MELEE:
        for p in range(s[N_PLAYERS]):
            for c in range(s[N_PLAYERS]):
                if c != p and s[SCORE_COLOR + p * MAX_PLAYERS + c] >= target:
                    return p
        return -1
    for c in range(n_colours(s)):
        if s[SCORE + c] >= target:
            return c
    return -1


@njit(cache=True, _nrt=False)
def score_reached(s):
    return score_reacher(s) >= 0


@njit(cache=True, _nrt=False)
def decide_winner(s, T):
    """Most points (melee: the highest lowest column, then the next lowest...); ties: more
    upgraded pieces on the board, then more pieces; else shared. Team play names the
    winning team (0: seats 0 and 2, 1: seats 1 and 3)."""
    best = -1
    shared = False
    for p in range(n_colours(s)):
        if best < 0:
            best = p
            continue
        c = _compare(s, T, p, best)
        if c > 0:
            best = p
            shared = False
        elif c == 0:
            shared = True
    s[WINNER] = -1 if shared else best


@njit(cache=True, _nrt=False)
def _kth_lowest(s, seat, k):
    """The k-th lowest (0-based) of a melee seat's opponent columns: the column value that
    has at most k columns below it and more than k at or below it."""
    n = s[N_PLAYERS]
    for c in range(n):
        if c == seat:
            continue
        v = s[SCORE_COLOR + seat * MAX_PLAYERS + c]
        below = 0
        at_or_below = 0
        for d in range(n):
            if d == seat:
                continue
            w = s[SCORE_COLOR + seat * MAX_PLAYERS + d]
            if w < v:
                below += 1
            if w <= v:
                at_or_below += 1
        if below <= k < at_or_below:
            return v
    return 0


@njit(cache=True, _nrt=False)
def _compare(s, T, a, b):
    if s[MODE] == MODE_MELEE:
        for k in range(s[N_PLAYERS] - 1):
            d = _kth_lowest(s, a, k) - _kth_lowest(s, b, k)
            if d != 0:
                return d
    else:
        da = s[SCORE + a] - s[SCORE + b]
        if da != 0:
            return da
    du = pieces_on_board(s, T, a, HEROIC) - pieces_on_board(s, T, b, HEROIC)
    if du != 0:
        return du
    return pieces_on_board(s, T, a, COMMON) - pieces_on_board(s, T, b, COMMON)
