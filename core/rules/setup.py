"""A new game: stocks, shuffled decks, opening hands, the task display or starting pieces."""

from core.constants import (
    MODE_DEATHMATCH,
    MODE_MELEE,
    MODE_NEW_PLAYER,
    MODE_TEAM_DEATHMATCH,
    MODE_TEAM_HIGH_FORM,
    PH_SETUP,
)
from core.jit import njit
from core.layout import (
    ALLOW_NO_EFFECT,
    COLOUR,
    CONTROL,
    CUR,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    EFF_BEING_SQ,
    EFF_CARD,
    EFF_CHOICE,
    EFF_DIR,
    EFF_NEXT_START,
    EFF_ORIENT,
    EFF_SEL_SQ,
    EFF_TARGET,
    END_SEAT,
    FDECK,
    FDECK_CNT,
    FDECK_HEAD,
    FIRST,
    FROZEN,
    GATEWAY,
    HAND,
    HAND_CAP,
    IMPRO_LEFT,
    LDECK,
    LDECK_CNT,
    LDECK_HEAD,
    LEG_TOTAL,
    LSTOCK,
    MAX_PLAYERS,
    MODE,
    N_PLAYERS,
    N_TASKS,
    PEND_CARD,
    PENDING,
    PHASE,
    POOL_TOTAL,
    SEAT_DECK,
    SHARED_CAP,
    STASIS_CARD,
    STATE_SIZE,
    STOCK,
    SUMMON_COLOUR,
    TAVAIL,
    TCLAIMED,
    TNEXT,
    TURN_CAP,
    WINNER,
)
from core.rules.modes import has_tasks, is_team, n_colours
from core.rules.piles import deck_base, draw_being, draw_flare, draw_legend, q_shuffle
from core.rules.rng import seed_game
from core.rules.task_display import setup_tasks
from core.rules.turn import start_turn

HIGH_FORM_POOL = 17
LEGENDARY_POOL = 3


@njit(cache=True, _nrt=False)
def pool_size(mode, n_players):
    """Double-sided pieces per colour: 17 with High Form rules (also teams and new players),
    18 minus the players in Deathmatch (BGA; the reference notes this smaller stock is
    BGA-only). Team Deathmatch is not in BGA: two colours face each other as in the duel,
    so it gets the duel's 16 (our reading)."""
    if has_tasks(mode):
        return HIGH_FORM_POOL
    if mode == MODE_TEAM_DEATHMATCH:
        return 16
    return 18 - n_players


@njit(cache=True, _nrt=False)
def legendary_pool(mode):
    """Legendary pieces per colour: none under the new-player rules."""
    return 0 if mode == MODE_NEW_PLAYER else LEGENDARY_POOL


@njit(cache=True, _nrt=False)
def draws_legends(mode, first, n_players, seat):
    """Opening legend cards: none for new players; in team play only the first member of
    each team to play holds the team's two (they are handed to the teammate after each
    turn, so the team holds two between its members: our reading of the team rules)."""
    if mode == MODE_NEW_PLAYER:
        return False
    if mode == MODE_TEAM_HIGH_FORM or mode == MODE_TEAM_DEATHMATCH:
        return (seat - first) % n_players < 2
    return True


@njit(cache=True, _nrt=False)
def blank_state(s):
    """Zero the row, then mark every "none" field with -1 (empty hands, no task, no card)."""
    for i in range(STATE_SIZE):
        s[i] = 0
    s[END_SEAT] = -1
    s[WINNER] = -1
    s[EFF_CARD] = -1
    s[EFF_NEXT_START] = -1
    s[EFF_BEING_SQ] = -1
    s[EFF_SEL_SQ] = -1
    s[EFF_DIR] = -1
    s[EFF_ORIENT] = -1
    s[EFF_TARGET] = -1
    s[EFF_CHOICE] = -1
    s[PEND_CARD] = -1
    s[SUMMON_COLOUR] = -1
    s[TNEXT] = -1
    for k in range(3):
        s[TAVAIL + k] = -1
    for k in range(N_TASKS):
        s[TCLAIMED + k] = -1
    for p in range(MAX_PLAYERS):
        s[SEAT_DECK + p] = -1
        s[FROZEN + p] = -1
        s[GATEWAY + p] = -1
        s[PENDING + p] = -1
        s[STASIS_CARD + p] = -1
        for k in range(HAND_CAP):
            s[HAND + p * HAND_CAP + k] = -1


@njit(cache=True, _nrt=False)
def init_game(
    s, T, ev, mode, n_players, decks, first, seed_hi, seed_lo, game_index, turn_cap, allow_no_effect
):
    """Fill ``s`` with a fresh game; the caller then calls ``advance``."""
    blank_state(s)
    seed_game(s, seed_hi, seed_lo, game_index)
    s[MODE] = mode
    s[N_PLAYERS] = n_players
    s[FIRST] = first
    s[CUR] = first
    s[TURN_CAP] = turn_cap
    s[ALLOW_NO_EFFECT] = allow_no_effect
    pool = pool_size(mode, n_players)
    for p in range(n_players):
        s[COLOUR + p] = p % 2 if is_team(mode) else p
        if mode == MODE_MELEE:  # one improvisation per opponent colour
            s[IMPRO_LEFT + p] = ((1 << n_players) - 1) & ~(1 << p)
    for c in range(n_colours(s)):
        s[STOCK + c] = pool
        s[POOL_TOTAL + c] = pool
        s[LSTOCK + c] = legendary_pool(mode)
        s[LEG_TOTAL + c] = legendary_pool(mode)
    for p in range(n_players):
        d = decks[p]
        s[SEAT_DECK + p] = d
        base = deck_base(p)
        for k in range(T.deck_size[d]):
            s[base + k] = T.deck_cards[d, k]
        s[DECK_HEAD + p] = 0
        s[DECK_CNT + p] = T.deck_size[d]
        q_shuffle(s, base, DECK_CAP, DECK_HEAD + p, DECK_CNT + p)
    for k in range(T.legend_cards.shape[0]):
        s[LDECK + k] = T.legend_cards[k]
    s[LDECK_CNT] = T.legend_cards.shape[0]
    q_shuffle(s, LDECK, SHARED_CAP, LDECK_HEAD, LDECK_CNT)
    for k in range(T.flare_cards.shape[0]):
        s[FDECK + k] = T.flare_cards[k]
    s[FDECK_CNT] = T.flare_cards.shape[0]
    q_shuffle(s, FDECK, SHARED_CAP, FDECK_HEAD, FDECK_CNT)
    for i in range(n_players):
        p = (first + i) % n_players
        for _ in range(3):
            draw_being(s, ev, p)
        if draws_legends(mode, first, n_players, p):
            for _ in range(2):
                draw_legend(s, ev, p)
        draw_flare(s, ev, p)
    if has_tasks(mode):
        setup_tasks(s, T, mode == MODE_NEW_PLAYER)
    if mode == MODE_DEATHMATCH:
        s[CUR] = (first + 1) % n_players  # the second seat puts the starting pieces
        s[CONTROL] = s[CUR]
        s[PHASE] = PH_SETUP
    elif mode == MODE_TEAM_DEATHMATCH:
        s[CUR] = (first + 3) % n_players  # the fourth seat puts them (rules summary, fact 66)
        s[CONTROL] = s[CUR]
        s[PHASE] = PH_SETUP
    elif mode == MODE_MELEE:
        s[CUR] = (first + n_players - 1) % n_players  # the last seat puts them
        s[CONTROL] = s[CUR]
        s[PHASE] = PH_SETUP
    else:
        start_turn(s, T, ev, first, 0)
