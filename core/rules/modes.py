"""Which rule family a mode follows. Six modes share one engine; most rules only ask
"are there tasks?", "is destruction scored?", "do teammates share a colour?"."""

from core.constants import (
    MODE_DEATHMATCH,
    MODE_HIGH_FORM,
    MODE_MELEE,
    MODE_NEW_PLAYER,
    MODE_TEAM_DEATHMATCH,
    MODE_TEAM_HIGH_FORM,
)
from core.jit import njit
from core.layout import COLOUR, CUR, MODE, N_PLAYERS


@njit(cache=True, _nrt=False)
def has_tasks(mode):
    """High Form scoring: claimed tasks plus legendary pieces."""
    return mode == MODE_HIGH_FORM or mode == MODE_TEAM_HIGH_FORM or mode == MODE_NEW_PLAYER


@njit(cache=True, _nrt=False)
def scores_destruction(mode):
    """Deathmatch scoring: destroyed enemy pieces, legends summoned, flares suffered."""
    return mode == MODE_DEATHMATCH or mode == MODE_MELEE or mode == MODE_TEAM_DEATHMATCH


@njit(cache=True, _nrt=False)
def is_team(mode):
    return mode == MODE_TEAM_HIGH_FORM or mode == MODE_TEAM_DEATHMATCH


@njit(cache=True, _nrt=False)
def n_colours(s):
    """Piece colours in play: one per seat, two in team play."""
    return 2 if is_team(s[MODE]) else s[N_PLAYERS]


@njit(cache=True, _nrt=False)
def colour_of(s, seat):
    return s[COLOUR + seat]


@njit(cache=True, _nrt=False)
def my_colour(s):
    """Colour of the seat whose turn it is: the owner of every piece its effects create."""
    return s[COLOUR + s[CUR]]
