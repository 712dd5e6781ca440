"""Ops of Void Summoner and Time Traveler: void cells for the next summon, and the top card
of the discard pile back on top of the deck."""

from core.constants import EV_TOP_CARD_TO_DECK, EV_VOID_SUMMON
from core.jit import njit
from core.layout import CUR, DECK_CAP, DECK_CNT, DECK_HEAD, DISC_N, VOID_CELLS
from core.ops import I_PARAM
from core.rules.events import log_event
from core.rules.piles import deck_base, discard_take, q_push_top


@njit(cache=True, _nrt=False)
def void_summon(s, T, ev, i):
    """Your next summon this turn may count I_PARAM empty squares as your commons. Not
    cumulative (BGA voidSummoning sets the allowance); the next summon or the turn's end
    clears it (core.rules.turn)."""
    s[VOID_CELLS] = T.ops[i, I_PARAM]
    log_event(s, ev, EV_VOID_SUMMON, s[CUR], s[VOID_CELLS], 0, 0)


@njit(cache=True, _nrt=False)
def top_card_to_deck(s, ev):
    """The top card of the mover's own discard pile (this turn's discards are on top) goes
    on top of the mover's own deck; an empty pile moves nothing (the op still counts as
    done). Team play: the seat's own pile and deck; the card lies upright, above the
    sideways bottom six."""
    seat = s[CUR]
    n = s[DISC_N + seat]
    if n == 0:
        return
    card = discard_take(s, seat, n - 1)
    q_push_top(s, deck_base(seat), DECK_CAP, DECK_HEAD + seat, DECK_CNT + seat, card)
    log_event(s, ev, EV_TOP_CARD_TO_DECK, seat, card, 0, 0)
