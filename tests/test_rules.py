"""Turn, hand, stock, scoring and end-of-game rules (reference rules.md sections 2-4, 8, 9).

Positions come from the test harness (seat 0 to move, two actions left, turn 2) and are then
made "live" (decks filled, no end triggered yet, empty task display) so that turns can be
played to their end; end-of-game situations set fields of the state row directly.
"""

import numpy as np
import pytest

from core import constants as K
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    CUR,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    DESTROYED,
    DISC,
    DISC_N,
    DISCARD_USED,
    END_REASON,
    END_SEAT,
    FDECK,
    FDECK_CNT,
    FDECK_HEAD,
    FDISC,
    FDISC_N,
    FINAL_TURN,
    FIRST,
    GAME_OVER,
    HAND,
    HAND_CAP,
    HAND_N,
    LDECK,
    LDECK_CNT,
    LDECK_HEAD,
    LDISC,
    LDISC_N,
    LEGENDS_SUMMONED,
    LSTOCK,
    N_AVAIL,
    N_DISCARDS,
    N_TASKS,
    PEND_CARD,
    PHASE,
    POOL_TOTAL,
    SCORE,
    SHARED_CAP,
    STATE_SIZE,
    STOCK,
    TASK_CAP,
    TASK_PTS,
    TAVAIL,
    TCLAIMED,
    TDECK,
    TDECK_CNT,
    TDECK_HEAD,
    TNEXT,
    TURN_CAP,
    TURN_NO,
    WINNER,
)
from core.players.random_player import choose_random
from core.rules.piles import deck_base
from core.rules.scoring import decide_winner, high_form_score, refresh_scores
from core.rules.setup import init_game
from core.rules.task_display import remove_claimed
from core.rules.turn import advance, apply_option
from sim import game
from sim.render import event_text
from tests.support.harness import CONTENT, EMPTY_BOARD, Game, T, sq

IMPERIAL = [c.id for c in CONTENT.cards if c.deck == "imperial"]
HIGHLAND = [c.id for c in CONTENT.cards if c.deck == "highland"]
LEGENDS = [c.id for c in CONTENT.cards if c.kind == K.CK_LEGEND]
FLARES = [c.id for c in CONTENT.cards if c.kind == K.CK_FLARE]
TASK = {name: i for i, name in enumerate(CONTENT.task_names)}


def idx(card_id):
    return CONTENT.card_index(card_id)


def board(pieces=None):
    rows = [line.split() for line in EMPTY_BOARD]
    for (r, c), tok in (pieces or {}).items():
        rows[r][c] = tok
    return [" ".join(r) for r in rows]


def hand(g, seat):
    return [CONTENT.cards[g.s[HAND + seat * HAND_CAP + i]].id for i in range(g.s[HAND_N + seat])]


def deck(g, seat):
    base, head = deck_base(seat), g.s[DECK_HEAD + seat]
    return [
        CONTENT.cards[g.s[base + (head + k) % DECK_CAP]].id for k in range(g.s[DECK_CNT + seat])
    ]


def shared(g, base, head_f, cnt_f):
    return [CONTENT.cards[g.s[base + (g.s[head_f] + k) % SHARED_CAP]].id for k in range(g.s[cnt_f])]


def set_deck(g, seat, cards):
    base = deck_base(seat)
    for k, c in enumerate(cards):
        g.s[base + k] = idx(c)
    g.s[DECK_HEAD + seat] = 0
    g.s[DECK_CNT + seat] = len(cards)


def set_shared(g, base, head_f, cnt_f, cards):
    for k, c in enumerate(cards):
        g.s[base + k] = idx(c)
    g.s[head_f] = 0
    g.s[cnt_f] = len(cards)


def set_tasks(g, avail, nxt, rest):
    for k in range(N_AVAIL):
        g.s[TAVAIL + k] = TASK[avail[k]] if k < len(avail) else -1
    g.s[TNEXT] = TASK[nxt] if nxt else -1
    for k, name in enumerate(rest):
        g.s[TDECK + k] = TASK[name]
    g.s[TDECK_HEAD] = 0
    g.s[TDECK_CNT] = len(rest)


def live(g, deck_size=10):
    """Make a harness position playable past the end of the turn: no end triggered yet, a
    turn cap far away, an empty task display, and decks holding cards not in any hand."""
    s = g.s
    s[END_SEAT] = -1
    s[WINNER] = -1
    s[TURN_CAP] = 1000
    s[PEND_CARD] = -1
    for k in range(N_TASKS):
        s[TCLAIMED + k] = -1
    set_tasks(g, [], None, [])
    in_hands = set(hand(g, 0) + hand(g, 1))
    for seat, cards in enumerate((IMPERIAL, HIGHLAND)):
        set_deck(g, seat, [c for c in cards if c not in in_hands][:deck_size])
    set_shared(g, LDECK, LDECK_HEAD, LDECK_CNT, [c for c in LEGENDS if c not in in_hands])
    set_shared(g, FDECK, FDECK_HEAD, FDECK_CNT, [c for c in FLARES if c not in in_hands])
    return g


def make(pieces=None, hands=((), ()), mode="high-form", to_move=0, turn=None):
    """A live position; the decks are Imperial (seat 0) and Highland (seat 1)."""
    g = Game(board(pieces), mode=mode, to_move=to_move, hands=hands, turn=turn)
    return live(g)


def pass_turn(g):
    """End the current turn at once (remaining actions dropped), never claiming a task."""
    turn = int(g.s[TURN_NO])
    g.s[ACTIONS_LEFT] = 0
    g.refresh()
    while not g.s[GAME_OVER] and g.s[TURN_NO] == turn:
        if g.s[PHASE] == K.PH_CLAIM:
            g.act(K.OPT_NO_CLAIM)
        else:
            g.act(K.OPT_END_TURN)


def trigger_lines(g, mode):
    """The log lines of the end trigger events."""
    rows = [e for e in g.events() if e[0] == K.EV_END_TRIGGER]
    return [event_text(e, CONTENT, mode) for e in rows]


def turn_events(g):
    """(turn number, seat, actions, extra) of every turn started so far."""
    return [(int(e[1]), int(e[2]), int(e[3]), int(e[4])) for e in g.events() if e[0] == K.EV_TURN]


class Fresh(Game):
    """A game dealt by core.rules.setup.init_game (Imperial vs Highland)."""

    def __init__(self, mode, seed, first=0, turn_cap=200):
        game.Game.__init__(self, CONTENT, np.zeros(STATE_SIZE, np.int32), log_rows=10_000)
        decks = np.array([CONTENT.deck_index("imperial"), CONTENT.deck_index("highland")], np.int32)
        init_game(
            self.s, T, self.ev, K.MODE_NAMES.index(mode), 2, decks, first, 0, seed, seed,
            turn_cap, 1,
        )  # fmt: skip


# --- setup and the first turns -----------------------------------------------------------------


@pytest.mark.parametrize("mode", ["high-form", "deathmatch"])
@pytest.mark.parametrize("first", [0, 1])
def test_opening_hands_and_stocks(mode, first):
    g = Fresh(mode, seed=11, first=first)
    pool = 17 if mode == "high-form" else 16
    for seat in range(2):
        kinds = sorted(CONTENT.cards[g.s[HAND + seat * HAND_CAP + i]].kind for i in range(6))
        assert g.s[HAND_N + seat] == 6
        assert kinds == [K.CK_BEING] * 3 + [K.CK_LEGEND] * 2 + [K.CK_FLARE]
        assert g.s[DECK_CNT + seat] == 15
        assert (g.s[STOCK + seat], g.s[LSTOCK + seat], g.s[POOL_TOTAL + seat]) == (pool, 3, pool)
        assert all(c.startswith(("imperial/", "highland/")[seat]) for c in deck(g, seat))
    assert g.s[LDECK_CNT] == 8 and g.s[FDECK_CNT] == 10


@pytest.mark.parametrize("first", [0, 1])
def test_first_turn_has_one_action_later_turns_two(first):
    g = Fresh("high-form", seed=3, first=first)
    g.refresh()
    assert (g.s[CUR], g.s[TURN_NO], g.s[ACTIONS_LEFT]) == (first, 1, 1)
    g.act(K.OPT_PLACE, sq(0, 2))  # the only action; the turn then ends by itself
    if g.s[PHASE] == K.PH_CLAIM:
        g.act(K.OPT_NO_CLAIM)
    assert (g.s[CUR], g.s[TURN_NO], g.s[ACTIONS_LEFT]) == (1 - first, 2, 2)
    g.act(K.OPT_PLACE, sq(8, 2))
    assert g.s[ACTIONS_LEFT] == 1 and g.s[CUR] == 1 - first
    g.act(K.OPT_PLACE, sq(8, 3))
    if g.s[PHASE] == K.PH_CLAIM:
        g.act(K.OPT_NO_CLAIM)
    assert (g.s[CUR], g.s[TURN_NO], g.s[ACTIONS_LEFT]) == (first, 3, 2)
    assert turn_events(g) == [(1, first, 1, 0), (2, 1 - first, 2, 0), (3, first, 2, 0)]


@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("own_index", [0, 1])
def test_duel_starting_pieces_chosen_by_the_second_seat(first, own_index):
    g = Fresh("deathmatch", seed=5, first=first)
    setter = 1 - first
    assert g.refresh() == [(K.OPT_SETUP, 0, 0, 0), (K.OPT_SETUP, 1, 0, 0)]
    assert g.s[CUR] == setter and g.s[PHASE] == K.PH_SETUP
    assert [(int(r), int(c)) for r, c in ((q // 9, q % 9) for q in T.duel_start)] == [
        (4, 2),
        (4, 6),
    ]
    g.act(K.OPT_SETUP, own_index)
    squares = [(4, 2), (4, 6)]
    mine, theirs = squares[own_index], squares[1 - own_index]
    assert g.board() == board({mine: f"c{setter}", theirs: f"c{first}"})
    assert (g.s[CUR], g.s[TURN_NO], g.s[ACTIONS_LEFT]) == (first, 1, 1)
    assert g.s[STOCK] == g.s[STOCK + 1] == 15


# --- actions ------------------------------------------------------------------------------------


def test_discard_once_per_turn_and_return_cards_to_deck_bottoms():
    cards = ["imperial/knight", "imperial/bomb", "imperial/herald"]
    cards += ["legends/titan", "legends/hell-bull", "flares/f36"]
    g = make(hands=(cards, ()))
    set_deck(g, 0, ["imperial/swordmaster", "imperial/messenger"])
    set_shared(g, LDECK, LDECK_HEAD, LDECK_CNT, ["legends/fire-dragon"])
    set_shared(g, FDECK, FDECK_HEAD, FDECK_CNT, ["flares/f44"])
    opts = g.refresh()
    assert [o for o in opts if o[0] == K.OPT_DISCARD] == [
        (K.OPT_DISCARD, i, 0, 0) for i in range(3)
    ]
    opts = g.act(K.OPT_DISCARD, 1)  # the bomb
    assert g.s[PHASE] == K.PH_RETURN
    assert opts == [(K.OPT_RETURN, i, 0, 0) for i in range(5)] + [(K.OPT_RETURN_DONE, 0, 0, 0)]
    g.act(K.OPT_RETURN, 2)  # titan: hand is knight, herald, titan, hell-bull, f36
    g.act(K.OPT_RETURN, 3)  # f36
    opts = g.act(K.OPT_RETURN, 0)  # knight
    assert opts == [(K.OPT_RETURN, i, 0, 0) for i in range(2)] + [(K.OPT_RETURN_DONE, 0, 0, 0)]
    opts = g.act(K.OPT_RETURN_DONE)
    assert hand(g, 0) == ["imperial/herald", "legends/hell-bull"]
    assert g.s[DISC_N] == 1 and g.s[DISC] == idx("imperial/bomb")
    assert deck(g, 0) == ["imperial/swordmaster", "imperial/messenger", "imperial/knight"]
    assert shared(g, LDECK, LDECK_HEAD, LDECK_CNT) == ["legends/fire-dragon", "legends/titan"]
    assert shared(g, FDECK, FDECK_HEAD, FDECK_CNT) == ["flares/f44", "flares/f36"]
    assert g.s[ACTIONS_LEFT] == 1 and g.s[DISCARD_USED] == 1 and g.s[N_DISCARDS] == 1
    assert g.s[PHASE] == K.PH_ACTION
    assert not [o for o in opts if o[0] == K.OPT_DISCARD]  # once per turn
    kinds = [int(e[0]) for e in g.events()]
    assert kinds == [K.EV_DISCARD, K.EV_RETURN, K.EV_RETURN, K.EV_RETURN]
    pass_turn(g)  # a new turn (seat 1) may discard again
    assert g.s[CUR] == 1 and g.s[DISCARD_USED] == 0


def test_hand_refill_at_end_of_turn():
    g = make(hands=(["imperial/herald", "legends/titan"], ()))
    set_deck(g, 0, ["imperial/knight", "imperial/bomb", "imperial/assassin"])
    set_shared(g, LDECK, LDECK_HEAD, LDECK_CNT, ["legends/leviathan", "legends/hell-bull"])
    set_shared(g, FDECK, FDECK_HEAD, FDECK_CNT, ["flares/f25", "flares/f34"])
    pass_turn(g)
    assert hand(g, 0) == [
        "imperial/herald",
        "legends/titan",
        "flares/f25",  # flare back to 1, legends to 2, beings to 3
        "legends/leviathan",
        "imperial/knight",
        "imperial/bomb",
    ]
    assert deck(g, 0) == ["imperial/assassin"]
    assert g.s[END_SEAT] == -1 and g.s[CUR] == 1


def test_refill_reshuffles_the_legend_deck_but_never_the_own_deck():
    g = make(hands=(["imperial/herald"], ()))
    set_deck(g, 0, ["imperial/knight"])
    set_shared(g, LDECK, LDECK_HEAD, LDECK_CNT, ["legends/leviathan"])
    for k, c in enumerate(["legends/titan", "legends/hell-bull", "legends/fire-dragon"]):
        g.s[LDISC + k] = idx(c)
    g.s[LDISC_N] = 3
    g.s[DISC] = idx("imperial/bomb")  # the own discard pile is not reshuffled
    g.s[DISC_N] = 1
    pass_turn(g)
    h = hand(g, 0)
    assert h[:3] == ["imperial/herald", FLARES[0], "legends/leviathan"]
    assert h[3] in ("legends/titan", "legends/hell-bull", "legends/fire-dragon")
    assert h[4:] == ["imperial/knight"]  # only two beings: the deck ran out
    assert g.s[LDECK_CNT] == 2 and g.s[LDISC_N] == 0
    assert g.s[DECK_CNT] == 0 and g.s[DISC_N] == 1
    assert (g.s[END_SEAT], g.s[END_REASON]) == (0, K.END_DECK)  # own deck empty: the end


def test_shared_decks_take_in_their_discard_piles_as_soon_as_a_draw_empties_them():
    # BGA (reference fact 73, issue 10): when a draw empties the legend or the flare deck,
    # its discard pile is shuffled in at once, not at the next draw.
    g = make(hands=(["imperial/herald", "imperial/bomb", "imperial/knight", "legends/titan"], ()))
    set_shared(g, LDECK, LDECK_HEAD, LDECK_CNT, ["legends/leviathan"])
    set_shared(g, FDECK, FDECK_HEAD, FDECK_CNT, ["flares/f34"])
    for k, c in enumerate(["legends/hell-bull", "legends/fire-dragon"]):
        g.s[LDISC + k] = idx(c)
    g.s[LDISC_N] = 2
    for k, c in enumerate(["flares/f36", "flares/f44", "flares/f25"]):
        g.s[FDISC + k] = idx(c)
    g.s[FDISC_N] = 3
    pass_turn(g)
    assert hand(g, 0)[3:] == ["legends/titan", "flares/f34", "legends/leviathan"]
    assert g.s[LDECK_CNT] == 2 and g.s[LDISC_N] == 0
    assert sorted(shared(g, LDECK, LDECK_HEAD, LDECK_CNT)) == [
        "legends/fire-dragon",
        "legends/hell-bull",
    ]
    assert g.s[FDECK_CNT] == 3 and g.s[FDISC_N] == 0
    assert sorted(shared(g, FDECK, FDECK_HEAD, FDECK_CNT)) == [
        "flares/f25",
        "flares/f36",
        "flares/f44",
    ]


def test_out_of_stock_place_picks_up_first():
    pieces = {(4, 4): "c0", (2, 2): "h0", (6, 6): "l0", (3, 3): "c1"}
    g = make(pieces, hands=(["imperial/knight", "imperial/bomb"], ()))
    g.s[STOCK] = 0
    g.s[POOL_TOTAL] = 2
    opts = g.refresh()
    assert [o for o in opts if o[0] == K.OPT_PLACE] == [(K.OPT_PLACE, -1, 0, 0)]
    opts = g.act(K.OPT_PLACE, -1)
    assert g.s[PHASE] == K.PH_PLACE_PICKUP and g.s[ACTIONS_LEFT] == 1
    assert opts == [(K.OPT_PICKUP, sq(2, 2), 0, 0), (K.OPT_PICKUP, sq(4, 4), 0, 0)]
    opts = g.act(K.OPT_PICKUP, sq(2, 2))  # the heroic piece comes back as a common one
    empty = [q for q in (int(x) for x in T.onboard) if g.s[BOARD + q] == 0]
    assert sq(2, 2) in empty
    assert opts == [(K.OPT_PLACE, q, 0, 0) for q in empty]
    g.act(K.OPT_PLACE, sq(0, 4))
    assert g.board() == board({(4, 4): "c0", (0, 4): "c0", (6, 6): "l0", (3, 3): "c1"})
    assert g.s[STOCK] == 0 and g.s[ACTIONS_LEFT] == 1 and g.s[PHASE] == K.PH_ACTION
    assert [int(e[0]) for e in g.events()] == [K.EV_PICKUP, K.EV_PLACE]


def test_out_of_stock_place_may_put_the_piece_back_where_it_was():
    # Kept on purpose (reference fact 72, issue 10): the printed rules' order - pick up one of
    # your common or heroic pieces first, then place a common piece anywhere, the square just
    # emptied included (BGA asks for the target square first).
    g = make({(2, 2): "h0", (3, 3): "c1"}, hands=(["imperial/knight"], ()))
    g.s[STOCK] = 0
    g.s[POOL_TOTAL] = 1
    g.refresh()
    g.act(K.OPT_PLACE, -1)  # the only own piece: the pick-up happens by itself
    assert g.s[PHASE] == K.PH_PLACE_SQUARE and g.s[BOARD + sq(2, 2)] == 0
    g.act(K.OPT_PLACE, sq(2, 2))
    assert g.board() == board({(2, 2): "c0", (3, 3): "c1"})
    assert g.s[STOCK] == 0 and g.s[ACTIONS_LEFT] == 1


def test_out_of_stock_no_place_with_only_legendary_pieces():
    g = make({(6, 6): "l0"}, hands=(["imperial/knight", "imperial/bomb"], ()))
    g.s[STOCK] = 0
    g.s[POOL_TOTAL] = 0
    opts = g.refresh()
    assert not [o for o in opts if o[0] == K.OPT_PLACE]
    assert {o[0] for o in opts} == {K.OPT_DISCARD}


# --- High Form ----------------------------------------------------------------------------------


def test_high_form_score_is_tasks_plus_legendary_pieces():
    g = make({(0, 4): "l0", (8, 4): "l0", (4, 4): "l1", (4, 5): "h0"})
    g.s[TASK_PTS] = 3
    g.s[TASK_PTS + 1] = 2
    assert high_form_score(g.s, T, 0) == 5 and high_form_score(g.s, T, 1) == 3
    refresh_scores(g.s, T)
    assert (g.s[SCORE], g.s[SCORE + 1]) == (5, 3)
    g.s[BOARD + sq(8, 4)] = 0  # a legendary piece lost: its point goes
    refresh_scores(g.s, T)
    assert g.s[SCORE] == 4


CLAIM_TURN = {
    "destroyed": {"common": 3},
    "summoned": [{"rank": "common", "square": [1, 3]}, {"rank": "heroic", "square": [3, 3]}],
}


def test_claim_at_most_one_task_and_refill_the_display():
    g = make(turn=CLAIM_TURN)
    set_tasks(
        g,
        ["Destruction", "Red Summoning", "Devastation"],
        "Imprisonment",
        ["Heroic Destruction", "End of Legends", "Center Cross", "Side Chain"],
    )
    g.s[ACTIONS_LEFT] = 0
    opts = g.refresh()
    assert g.s[PHASE] == K.PH_CLAIM
    assert opts == [
        (K.OPT_CLAIM, TASK["Destruction"], 0, 0),
        (K.OPT_CLAIM, TASK["Red Summoning"], 0, 0),
        (K.OPT_NO_CLAIM, 0, 0, 0),
    ]
    g.act(K.OPT_CLAIM, TASK["Red Summoning"])
    assert g.s[CUR] == 1 and g.s[PHASE] == K.PH_ACTION  # the turn is over: one task only
    assert g.s[TASK_PTS] == 1 and g.s[SCORE] == 1
    assert g.s[TCLAIMED + TASK["Red Summoning"]] == 0
    assert g.s[TCLAIMED + TASK["Destruction"]] == -1
    # the next task moved up; two destruction tasks are shown, so the next two destruction
    # cards go to the bottom and Center Cross becomes the next task
    avail = [CONTENT.task_names[g.s[TAVAIL + k]] for k in range(3)]
    assert avail == ["Destruction", "Imprisonment", "Devastation"]
    assert CONTENT.task_names[g.s[TNEXT]] == "Center Cross"
    rest = [
        CONTENT.task_names[g.s[TDECK + (g.s[TDECK_HEAD] + k) % TASK_CAP]]
        for k in range(g.s[TDECK_CNT])
    ]
    assert rest == ["Side Chain", "Heroic Destruction", "End of Legends"]


def test_declining_a_claim_changes_nothing():
    g = make(turn=CLAIM_TURN)
    set_tasks(g, ["Destruction", "Red Summoning", "Devastation"], "Imprisonment", ["Side Chain"])
    g.s[ACTIONS_LEFT] = 0
    g.refresh()
    g.act(K.OPT_NO_CLAIM)
    assert g.s[CUR] == 1 and g.s[TASK_PTS] == 0
    assert [g.s[TAVAIL + k] for k in range(3)] == [TASK["Destruction"], TASK["Red Summoning"], 1]
    assert g.s[TNEXT] == TASK["Imprisonment"]


def _shown(s):
    return [int(s[TAVAIL + k]) for k in range(3)] + [int(s[TNEXT])]


def _check_display(s):
    shown = [t for t in _shown(s) if t >= 0]
    types = [int(T.task_type[t]) for t in shown]
    assert max((types.count(x) for x in set(types)), default=0) <= 2, shown
    assert len(set(shown)) == len(shown)


def test_task_display_over_many_seeds():
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    for seed in range(300):
        s = np.zeros(STATE_SIZE, np.int32)
        decks = np.array([0, 1], np.int32)
        init_game(s, T, ev, K.MODE_HIGH_FORM, 2, decks, seed % 2, 1, seed, seed, 200, 1)
        avail = [int(s[TAVAIL + k]) for k in range(3)]
        assert all(t >= 0 and T.task_advanced[t] == 0 for t in avail), avail
        assert len({int(T.task_type[t]) for t in avail}) >= 2
        assert s[TNEXT] >= 0 and s[TDECK_CNT] == N_TASKS - 4
        _check_display(s)
        # claim tasks at random until the deck runs dry: every task stays in one place
        rng = np.random.default_rng(seed)
        claimed = []
        for _ in range(N_TASKS):
            avail = [t for t in _shown(s)[:3] if t >= 0]
            if not avail:
                break
            t = avail[rng.integers(len(avail))]
            claimed.append(t)
            remove_claimed(s, T, t)
            _check_display(s)
            deck_tasks = [
                int(s[TDECK + (s[TDECK_HEAD] + k) % TASK_CAP]) for k in range(s[TDECK_CNT])
            ]
            everything = claimed + [x for x in _shown(s) if x >= 0] + deck_tasks
            assert sorted(everything) == list(range(N_TASKS))
        assert len(claimed) >= N_TASKS - 6  # the display only stalls on type clashes


# --- Deathmatch ---------------------------------------------------------------------------------


def test_destruction_points_at_end_of_turn():
    turn = {"destroyed": {"common": 3, "heroic": 1, "legendary": 1}}
    g = make(mode="deathmatch", turn=turn)
    g.s[DESTROYED + 0 * 4 + K.LEGENDARY] = 2  # own pieces destroyed score nothing
    g.s[SCORE] = 5
    pass_turn(g)
    assert g.s[SCORE] == 5 + 1 + 1 + 2  # one pair of commons (odd one lost), heroic, legend
    assert g.s[SCORE + 1] == 0
    scores = [tuple(int(x) for x in e[2:6]) for e in g.events() if e[0] == K.EV_SCORE]
    assert scores == [(0, 4, K.SR_DESTRUCTION, 0)]


def test_destruction_counters_restart_each_turn():
    g = make(mode="deathmatch", turn={"destroyed": {"common": 1}})
    pass_turn(g)  # a single common scores nothing, and is not carried over
    assert g.s[SCORE] == 0 and sum(g.s[DESTROYED : DESTROYED + 16]) == 0
    pass_turn(g)
    assert (g.s[SCORE], g.s[SCORE + 1]) == (0, 0)


def test_deathmatch_legend_summon_scores_one_at_once():
    # Hell Bull: c . c / h @c h / . c .  (the target must hold your piece)
    pieces = {(3, 3): "c0", (3, 5): "c0", (4, 3): "h0", (4, 5): "h0", (5, 4): "c0", (4, 4): "c0"}
    g = make(pieces, hands=(["legends/hell-bull", "legends/titan"], ()), mode="deathmatch")
    rows = [o for o in g.refresh() if o[0] == K.OPT_SUMMON and o[1] == 0]
    assert [o[3] for o in rows] == [sq(4, 4)]
    g.act(*rows[0])
    assert g.s[SCORE] == 1 and g.s[LEGENDS_SUMMONED] == 1
    assert g.board()[4] == ".. .. .. h0 l0 h0 .. .. .."


def test_deathmatch_18_points_trigger_the_final_round():
    g = make(mode="deathmatch", turn={"destroyed": {"heroic": 1}})
    g.s[SCORE] = 17
    pass_turn(g)
    assert g.s[SCORE] == 18
    assert (g.s[END_SEAT], g.s[END_REASON], g.s[GAME_OVER]) == (0, K.END_SCORE, 0)
    assert g.s[CUR] == 1
    pass_turn(g)
    assert g.s[CUR] == 0 and g.s[FINAL_TURN] == 1 and not g.s[GAME_OVER]
    pass_turn(g)
    assert g.s[GAME_OVER] == 1 and g.s[PHASE] == K.PH_OVER
    assert (g.s[END_REASON], g.s[WINNER]) == (K.END_SCORE, 0)
    assert [t[1] for t in turn_events(g)] == [1, 0]


def test_deathmatch_17_points_do_not_trigger():
    g = make(mode="deathmatch")
    g.s[SCORE] = 17
    pass_turn(g)
    assert g.s[END_SEAT] == -1


# --- end triggers and the final round -----------------------------------------------------------


def test_high_form_nine_points_trigger_and_final_round():
    g = make({(0, 4): "l0"})
    g.s[TASK_PTS] = 8
    pass_turn(g)
    assert (g.s[END_SEAT], g.s[END_REASON]) == (0, K.END_SCORE)
    g.s[BOARD + sq(0, 4)] = 0  # dropping below 9 does not cancel the end
    g.s[LSTOCK] = 3
    pass_turn(g)
    assert g.s[CUR] == 0 and not g.s[GAME_OVER]
    pass_turn(g)
    assert g.s[GAME_OVER] == 1
    assert [t[1] for t in turn_events(g)] == [1, 0]
    assert (g.s[SCORE], g.s[SCORE + 1]) == (8, 0) and g.s[WINNER] == 0
    end = [tuple(int(x) for x in e[2:5]) for e in g.events() if e[0] == K.EV_END]
    assert end == [(0, K.END_SCORE, 0)]
    # the log says who triggered the end, why, and who still plays (issue 10)
    assert trigger_lines(g, "high-form") == [
        "end triggered by seat 0: seat 0 reached 9 points; "
        "final round: seat 1 and seat 0 play one more turn each"
    ]


def test_eight_points_do_not_trigger():
    g = make({(0, 4): "h0"})
    g.s[TASK_PTS] = 8
    pass_turn(g)
    assert g.s[END_SEAT] == -1


def test_trigger_by_the_second_seat_gives_every_seat_one_more_turn():
    g = make(to_move=1)
    g.s[TASK_PTS + 1] = 9
    pass_turn(g)  # seat 1 triggers
    assert (g.s[END_SEAT], g.s[CUR]) == (1, 0)
    pass_turn(g)
    assert g.s[CUR] == 1 and not g.s[GAME_OVER]
    g.s[TASK_PTS] = 12  # the other seat overtakes during the final round
    pass_turn(g)
    assert g.s[GAME_OVER] == 1 and g.s[WINNER] == 0
    assert [t[1] for t in turn_events(g)] == [0, 1]
    assert trigger_lines(g, "high-form") == [
        "end triggered by seat 1: seat 1 reached 9 points; "
        "final round: seat 0 and seat 1 play one more turn each"
    ]


def test_own_deck_empty_triggers_the_end():
    g = make(hands=(["imperial/herald", "imperial/bomb", "imperial/knight"], ()))
    set_deck(g, 0, [])
    pass_turn(g)
    assert (g.s[END_SEAT], g.s[END_REASON]) == (0, K.END_DECK)
    pass_turn(g)
    pass_turn(g)
    assert g.s[GAME_OVER] == 1 and g.s[END_REASON] == K.END_DECK
    assert [t[1] for t in turn_events(g)] == [1, 0]
    trigger = [tuple(int(x) for x in e[2:6]) for e in g.events() if e[0] == K.EV_END_TRIGGER]
    assert trigger == [(0, K.END_DECK, -1, 2)]
    assert trigger_lines(g, "high-form") == [
        "end triggered by seat 0: it drew the last card of its deck; "
        "final round: seat 1 and seat 0 play one more turn each"
    ]


def test_other_seat_deck_empty_does_not_trigger():
    g = make(hands=(["imperial/herald", "imperial/bomb", "imperial/knight"], ()))
    set_deck(g, 1, [])  # seat 1's deck is only checked at the end of seat 1's turn
    pass_turn(g)
    assert g.s[END_SEAT] == -1
    pass_turn(g)
    assert (g.s[END_SEAT], g.s[END_REASON]) == (1, K.END_DECK)


# --- winner and tie-breakers ------------------------------------------------------------------


@pytest.mark.parametrize(
    "pieces, scores, winner",
    [
        ({}, (3, 2), 0),
        ({(4, 4): "h0", (4, 5): "h0"}, (2, 3), 1),  # points first
        ({(4, 4): "h1", (4, 5): "c0", (4, 6): "c0"}, (3, 3), 1),  # then upgraded pieces
        ({(4, 4): "l0", (4, 5): "h1", (4, 6): "c1"}, (3, 3), 1),  # legendary = upgraded
        ({(4, 4): "h0", (4, 5): "h1", (4, 6): "c1"}, (3, 3), 1),  # then pieces
        ({(4, 4): "h0", (4, 5): "h1", (4, 6): "c1", (4, 7): "c0"}, (3, 3), -1),  # shared
        ({}, (0, 0), -1),
    ],
)
def test_tie_breakers(pieces, scores, winner):
    g = make(pieces, mode="deathmatch")
    g.s[SCORE], g.s[SCORE + 1] = scores
    decide_winner(g.s, T)
    assert g.s[WINNER] == winner


def test_turn_cap_ends_the_game():
    g = make({(4, 4): "h0"})
    g.s[TURN_CAP] = 3
    pass_turn(g)  # turn 2 ends, turn 3 starts
    assert not g.s[GAME_OVER] and g.s[TURN_NO] == 3
    pass_turn(g)
    assert g.s[GAME_OVER] == 1 and g.s[TURN_NO] == 3
    assert (g.s[END_REASON], g.s[WINNER]) == (K.END_TURN_CAP, 0)  # tie broken by upgraded
    end = [tuple(int(x) for x in e[2:5]) for e in g.events() if e[0] == K.EV_END]
    assert end == [(1, K.END_TURN_CAP, 0)]


@pytest.mark.parametrize("mode", ["high-form", "deathmatch"])
def test_random_game_stops_at_the_turn_cap(mode):
    g = Fresh(mode, seed=99, first=1, turn_cap=6)
    n = advance(g.s, T, g.ev, g.opts)
    while n > 0:
        k = choose_random(g.s, g.opts, n)
        apply_option(g.s, T, g.ev, *g.opts[k])
        n = advance(g.s, T, g.ev, g.opts)
    assert g.s[GAME_OVER] == 1 and g.s[TURN_NO] == 6
    assert g.s[END_REASON] == K.END_TURN_CAP
    seats = [t[1] for t in turn_events(g)]
    assert seats == [1, 0, 1, 0, 1, 0]
    assert [t[2] for t in turn_events(g)][:2] == [1, 2]
    assert g.s[FIRST] == 1


def test_a_flare_is_never_forced_when_no_action_is_possible():
    """No place (stock empty, no piece to pick up), no summon, no discard: the seat may end
    the turn instead of playing its flare, which stays optional (rules.md 18)."""
    pieces = {(8, c): "c1" for c in range(2, 7)}
    g = make(pieces, hands=(["legends/titan", "flares/f44"], ()))
    g.s[STOCK] = 0
    g.s[POOL_TOTAL] = 0
    assert g.refresh() == [(K.OPT_FLARE, 1, 1, 0), (K.OPT_END_TURN, 0, 0, 0)]
    assert g.s[ACTIONS_LEFT] == 2 and g.s[PHASE] == K.PH_ACTION
