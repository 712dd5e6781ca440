"""High Form task display: 3 available tasks plus 1 face-up next task.

Display rules (reference rules.md section 2, following BGA): the first three are not advanced
and not all of one type; a next task may not be the third of a type among the four shown; a
card that does not fit goes to the bottom of the task deck and another is drawn.
"""

from core.jit import njit
from core.layout import (
    N_AVAIL,
    N_TASKS,
    TASK_CAP,
    TASKS_SHOWN,
    TAVAIL,
    TDECK,
    TDECK_CNT,
    TDECK_HEAD,
    TNEXT,
)
from core.rules.piles import q_pop_top, q_push_bottom, q_shuffle


@njit(cache=True, _nrt=False)
def _same_type_shown(s, T, task):
    n = 0
    for k in range(N_AVAIL):
        a = s[TAVAIL + k]
        if a >= 0 and T.task_type[a] == T.task_type[task]:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _draw_fitting(s, T):
    """Next task that is not the third of its type on display; -1 if none in the deck.

    Every deck card is tried at most once; ones that do not fit go to the bottom.
    """
    for _ in range(s[TDECK_CNT]):
        t = q_pop_top(s, TDECK, TASK_CAP, TDECK_HEAD, TDECK_CNT)
        if _same_type_shown(s, T, t) < 2:
            s[TASKS_SHOWN] |= 1 << t  # it goes face up (as the next task or available)
            return t
        q_push_bottom(s, TDECK, TASK_CAP, TDECK_HEAD, TDECK_CNT, t)
    return -1


@njit(cache=True, _nrt=False)
def setup_tasks(s, T, basic_only):
    """Shuffle the task deck and lay out the display; ``basic_only`` (new-player rules)
    leaves the advanced tasks out of the game."""
    s[TDECK_HEAD] = 0
    n = 0
    for t in range(N_TASKS):
        if not (basic_only and T.task_advanced[t] == 1):
            s[TDECK + n] = t
            n += 1
    s[TDECK_CNT] = n
    q_shuffle(s, TDECK, TASK_CAP, TDECK_HEAD, TDECK_CNT)
    for k in range(N_AVAIL):
        s[TAVAIL + k] = -1
    s[TNEXT] = -1
    filled = 0
    for _ in range(N_TASKS):
        if filled == N_AVAIL:
            break
        t = q_pop_top(s, TDECK, TASK_CAP, TDECK_HEAD, TDECK_CNT)
        third_alike = filled == 2 and _same_type_shown(s, T, t) == 2
        if T.task_advanced[t] == 1 or third_alike:
            q_push_bottom(s, TDECK, TASK_CAP, TDECK_HEAD, TDECK_CNT, t)  # set aside
            continue
        s[TAVAIL + filled] = t
        s[TASKS_SHOWN] |= 1 << t
        filled += 1
    q_shuffle(s, TDECK, TASK_CAP, TDECK_HEAD, TDECK_CNT)  # the set-aside tasks go back in
    s[TNEXT] = _draw_fitting(s, T)


@njit(cache=True, _nrt=False)
def remove_claimed(s, T, task):
    """A claimed task leaves the display; the next one moves up and a new next is drawn."""
    for k in range(N_AVAIL):
        if s[TAVAIL + k] == task:
            s[TAVAIL + k] = -1
            nxt = s[TNEXT]
            s[TNEXT] = -1
            s[TAVAIL + k] = nxt if nxt >= 0 else _draw_fitting(s, T)
            s[TNEXT] = _draw_fitting(s, T)
            return
