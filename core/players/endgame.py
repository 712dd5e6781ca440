"""The last turn of a game, valued exactly.

A lookahead copy stops at the end of its turn, before the refill and the end-of-game test
(core.players.lookahead), so a plan's end is valued by the evaluation even when nothing can
follow it: the trigger seat's last turn of the final round, with no extra turn to come, or
the turn cap. There the rules decide the game from public information alone (the scores,
the board for the tie-breakers, the pending beings' charge), so a player with the
``endgame`` setting on plays the copy to its end and values the result: a win, a loss or a
shared win (core.players.learned, core.players.evaluate value a finished game).
"""

from core.constants import END_TURN_CAP, MODE_NEW_PLAYER, PH_TURN_END
from core.jit import njit
from core.layout import (
    CUR,
    END_SEAT,
    EXTRA_TURN,
    FINAL_TURN,
    GAME_OVER,
    MODE,
    PHASE,
    TURN_CAP,
    TURN_NO,
)
from core.rules.turn import game_over


@njit(cache=True, _nrt=False)
def last_turn(c):
    """Does the game end when the turn of the lookahead copy ``c`` (at its turn end) ends?
    As core.rules.turn.finish_turn decides after the refill (the new-player rules, whose
    end follows the refill's draw at once, are left to the evaluation)."""
    if c[GAME_OVER] == 1 or c[PHASE] != PH_TURN_END or c[MODE] == MODE_NEW_PLAYER:
        return False
    if c[TURN_NO] >= c[TURN_CAP]:
        return True
    return c[EXTRA_TURN] == 0 and c[FINAL_TURN] == 1 and c[CUR] == c[END_SEAT]


@njit(cache=True, _nrt=False)
def may_end(c):
    """Could the turn being played in ``c`` be the game's last? (A cheap test before
    playing a finished option again to look.)"""
    return c[FINAL_TURN] == 1 or c[TURN_NO] >= c[TURN_CAP]


@njit(cache=True, _nrt=False)
def finish_game(c, T, ev0):
    """End the game in ``c`` if its turn was the last (``last_turn``): scores, the pending
    beings' charge, the winner. Returns True if it ended."""
    if not last_turn(c):
        return False
    game_over(c, T, ev0, END_TURN_CAP if c[TURN_NO] >= c[TURN_CAP] else 0)
    return True
