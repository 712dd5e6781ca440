"""Void Summoner (Etherweave): the next summon this turn may count up to two empty squares as
your commons (core.summon.void_cells), and its warp (a compulsory standard step).

Scenarios set up a board, act, and check the exact board, counters and events; the search is
held to the plain reference scan when no void cell is allowed and to an independent oracle
(plain Python over the printed patterns) with void cells, borrowed pieces and improvisation.
Red squares: (1,3) (4,4) (5,7) (7,2); green: (2,2) (2,6) (3,8) (4,0) (7,5).
"""

import numpy as np
import pytest

from core import constants as K
from core.layout import (
    BOARD,
    BORROW_ENEMY,
    CUR,
    IMPRO_LEFT,
    LSTOCK,
    PENDING,
    PHASE,
    STOCK,
    SUMMON_COLOUR,
    VOID_CELLS,
)
from core.players.summon_reach import hand_bits, slot_summonable
from core.summon.void_cells import void_summons
from sim.position import PositionError, legal_moves, position_from_dict
from tests.support.harness import (
    CONTENT,
    Game,
    T,
    at,
    board_with,
    is_board,
    skip,
    sq,
    summon,
    summon_key,
    target,
    targets,
)
from tests.support.oracles import reference_summons
from tests.support.summons import ONBOARD, ORACLE_PATTERNS, PATTERN_CARDS, cid, three_colour_board

EW = "etherweave"
VOID = "etherweave/void-summoner"
SING = "etherweave/singularity"
SPHERE = "etherweave/dark-sphere"
# the Void Summoner entering (3,4): ". @ c / . c . / c . c"
VOID_PAT = {(3, 5): "c0", (4, 4): "c0", (5, 3): "c0", (5, 5): "c0"}


def game(pieces, hand, decks=(EW, "imperial"), mode="high-form", turn=None, hands=None):
    hands = hands or [list(hand)] + [[] for _ in decks[1:]]
    g = Game(board=board_with(pieces), hands=hands, decks=decks, mode=mode, turn=turn)
    g.refresh()
    return g


def events(g, kind):
    return [tuple(int(x) for x in r[2:]) for r in g.events() if r[0] == kind]


def summon_rows(g, cid_):
    slot = g.hand_slot(0, cid_)
    return sorted((a, b, c) for k, a, b, c in g.options() if k == K.OPT_SUMMON and a & 15 == slot)


def summon_targets(g, cid_):
    return sorted({c for _, _, c in summon_rows(g, cid_)})


# --- scenarios ------------------------------------------------------------------------------------


def test_void_summoner_lets_the_next_summon_count_two_empty_squares():
    # Singularity "c . c / . @ . / c . c" on (6,6): (5,5) and (7,7) are ours, (5,7) and
    # (7,5) are empty
    g = game({**VOID_PAT, (7, 7): "c0"}, [VOID, SING])
    assert summon_targets(g, SING) == []
    stock = int(g.s[STOCK])
    summon(g, VOID, sq(3, 4), pattern=at((3, 5), (4, 4), (5, 3), (5, 5)))
    assert g.s[PHASE] == K.PH_ACTION and g.s[VOID_CELLS] == 2
    assert events(g, K.EV_VOID_SUMMON) == [(0, 2, 0, 0)]
    assert sq(6, 6) in summon_targets(g, SING)
    summon(g, SING, sq(6, 6))
    assert g.s[VOID_CELLS] == 0  # used up
    target(g, sq(1, 1))  # Singularity's square: nothing next to it
    assert g.s[PHASE] == K.PH_ACTION
    # the empty squares stay empty: the pattern was just satisfied
    is_board(g, {**VOID_PAT, (3, 4): "h0", (7, 7): "c0", (6, 6): "h0"})
    assert g.s[STOCK] == stock - 2


def test_at_most_two_void_cells():
    # Dark Sphere "c @c / c c": four squares, the target one needing your common
    g = game({(4, 4): "c0", (4, 5): "c0"}, [SPHERE], turn={"void-cells": 2})
    assert sq(3, 4) in summon_targets(g, SPHERE)  # two own commons and two empty squares
    g = game({(4, 4): "c0"}, [SPHERE], turn={"void-cells": 2})
    assert summon_rows(g, SPHERE) == []  # one own piece and two voids fill only three
    g = game({(4, 4): "c0", (4, 5): "c0"}, [SPHERE], turn={"void-cells": 1})
    assert summon_rows(g, SPHERE) == []


def test_a_void_on_the_target_of_a_card_that_needs_your_common_there():
    pieces = {(3, 4): "c0", (4, 4): "c0", (4, 5): "c0"}  # Dark Sphere's three cells
    g = game(pieces, [SPHERE])
    assert summon_targets(g, SPHERE) == []  # (3,5) is empty: no own common there
    g = game(pieces, [SPHERE], turn={"void-cells": 1})
    assert sq(3, 5) in summon_targets(g, SPHERE)
    summon(g, SPHERE, sq(3, 5), pattern=at((3, 4), (4, 4), (4, 5)))
    assert g.s[VOID_CELLS] == 0
    skip(g)  # Dark Sphere's first step is optional
    is_board(g, {**pieces, (3, 5): "h0"})
    assert not any(r[0] == K.EV_DESTROY for r in g.events())  # nothing was oversummoned


def test_any_next_summon_uses_the_void_cells_up_even_without_an_empty_square():
    g = game({**VOID_PAT, (7, 7): "c0", (7, 5): "c0", (5, 7): "c0"}, [SING], turn={"void-cells": 2})
    summon(g, SING, sq(6, 6))
    assert g.s[VOID_CELLS] == 0


def test_a_heroic_cell_is_never_a_void():
    # Hell Bull needs heroic pieces: void cells do not make it summonable from nothing
    bull = CONTENT.card_index("legends/hell-bull")
    pat = CONTENT.cards[bull].pattern
    assert any("h" in tok for row in pat for tok in row.split())
    g = game({}, ["legends/hell-bull"], turn={"void-cells": 2})
    assert summon_rows(g, "legends/hell-bull") == []


def test_void_cells_are_lost_when_the_turn_ends():
    g = game(VOID_PAT, [VOID])
    summon(g, VOID, sq(3, 4), pattern=at((3, 5), (4, 4), (5, 3), (5, 5)))
    assert g.s[VOID_CELLS] == 2
    g.act(K.OPT_PLACE, sq(0, 4), 0, 0)  # the last action: the turn ends by itself
    assert g.s[CUR] == 1 and g.s[PHASE] == K.PH_ACTION
    assert g.s[VOID_CELLS] == 0


def test_a_warp_before_the_summon_keeps_the_void_cells():
    worm = "etherweave/paradox-worm"
    g = game({**VOID_PAT, (7, 7): "c0", (2, 2): "c1"}, [worm, SING], turn={"void-cells": 2})
    g.act(K.OPT_WARP, g.hand_slot(0, worm), 0, 0)
    while g.s[PHASE] == K.PH_EFFECT:
        if any(o[0] == K.OPT_SKIP for o in g.options()):
            skip(g)
        else:
            g.act(*g.options()[0])
    assert g.s[VOID_CELLS] == 2 and sq(6, 6) in summon_targets(g, SING)


def test_melee_improvisation_combines_with_void_cells():
    # 3-player melee, seat 0 to move: Singularity with one own common, two voids and one
    # colour-1 piece stands only with colour 1's improvisation
    pieces = {(5, 5): "c0", (7, 7): "c1"}
    g = game(pieces, [SING], decks=(EW, "imperial", "sylvan"), mode="melee", turn={"void-cells": 2})
    slot = g.hand_slot(0, SING)
    rows = [r for r in summon_rows(g, SING) if r[2] == sq(6, 6)]
    assert rows == [(slot + 16 * 2, rows[0][1], sq(6, 6))]  # improvised colour 1
    g.act(K.OPT_SUMMON, *rows[0])
    assert events(g, K.EV_IMPROVISE) == [(0, 1, 0, 0)]
    assert g.s[VOID_CELLS] == 0 and g.s[IMPRO_LEFT] & 0b10 == 0


def test_void_summoner_warp_is_a_compulsory_standard_step():
    g = game({(4, 4): "h0", (3, 4): "c1", (6, 6): "l0"}, [VOID])
    g.act(K.OPT_WARP, g.hand_slot(0, VOID), 0, 0)
    t = targets(g)
    assert not any(o[0] == K.OPT_SKIP for o in g.options())
    assert (sq(4, 4), sq(3, 4)) in t  # a standard step onto a lower rank
    assert all(a != sq(6, 6) for a, _ in t)  # not the legendary piece
    target(g, sq(4, 4), sq(3, 4))
    is_board(g, {(3, 4): "h0", (6, 6): "l0"})
    assert g.s[PENDING] == CONTENT.card_index(VOID) and g.s[PHASE] == K.PH_ACTION


def test_position_files_set_void_cells_and_the_moves_query_reports_them():
    data = {
        "mode": "high-form",
        "to_move": 0,
        "board": board_with({(4, 4): "c0"}),
        "seat": [{"deck": EW, "hand": [SPHERE]}, {"deck": "imperial", "hand": []}],
        "turn": {"void-cells": 2},
    }
    s = position_from_dict(data, CONTENT)
    assert s[VOID_CELLS] == 2
    assert legal_moves(s, CONTENT)["void_cells"] == 2
    data["turn"] = {"void-cells": 5}
    with pytest.raises(PositionError, match="void-cells"):
        position_from_dict(data, CONTENT)


# --- the search against the reference scan and an oracle ----------------------------------------


def _rows(s, card, fn):
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    n = fn(s, T, 0, card, 3, opts, 0)
    assert n < K.MAX_OPTIONS - K.SCRATCH_ROWS
    return sorted((int(r[1]), int(r[2]), int(r[3])) for r in opts[:n])


def oracle_void(s, seat, card, voids, borrow, impro):
    """Summons with up to ``voids`` empty squares counting as your commons (common cells and
    a target that needs your common), ``borrow`` free enemy pieces and one more with an
    improvisation in ``impro``; written from the card's printed pattern. Keys: (improvised
    colour or -1, target, frozenset of the (square, min rank) cells)."""
    board = [int(x) for x in s[BOARD : BOARD + 81]]
    being = int(T.card_rank[card])
    legendary = being == K.LEGENDARY
    req, images = ORACLE_PATTERNS[card]

    def kind_ok(code):
        return code and code >> 2 == seat and ((code & 3) == K.LEGENDARY) == legendary

    own_kind = sum(1 for q in ONBOARD if kind_ok(board[q]))
    in_stock = (s[LSTOCK + seat] if legendary else s[STOCK + seat]) > 0
    keys = set()
    for cells in images:
        for t in ONBOARD:
            code = board[t]
            enemies, empties = [], 0
            if req:
                if not code:
                    if req != K.COMMON:
                        continue
                    empties += 1
                elif code & 3 < req or code & 3 > being:
                    continue
                elif code >> 2 != seat:
                    enemies.append(code >> 2)
            elif code and code & 3 > being:
                continue
            squares, ok = [], True
            for dr, dc, r in cells:
                row, col = t // 9 + dr, t % 9 + dc
                q = row * 9 + col
                if not (0 <= row < 9 and 0 <= col < 9) or T.sq_color[q] < 0:
                    ok = False
                    break
                if not board[q]:
                    if r != K.COMMON:
                        ok = False
                        break
                    empties += 1
                elif board[q] & 3 < r:
                    ok = False
                    break
                elif board[q] >> 2 != seat:
                    enemies.append(board[q] >> 2)
                squares.append((q, r))
            if not ok or empties > voids:
                continue
            used = sum(1 for q, _ in squares if kind_ok(board[q]))
            if not (in_stock or kind_ok(code) or own_kind - used > 0):
                continue
            key = frozenset(squares)
            if len(enemies) <= borrow:
                keys.add((-1, t, key))
            elif len(enemies) == borrow + 1:
                for c in set(enemies):
                    if (impro >> c) & 1:
                        keys.add((c, t, key))
    return keys


def test_void_search_without_voids_is_the_reference_scan():
    rng = np.random.default_rng(20261130)
    total = 0
    for b in range(24):
        s = three_colour_board(rng)
        s[BORROW_ENEMY], s[IMPRO_LEFT] = [(0, 0), (1, 0), (0, 0b110), (1, 0b010)][b % 4]
        s[VOID_CELLS] = 0
        for card in PATTERN_CARDS:
            fast = _rows(s, card, void_summons)
            assert fast == _rows(s, card, reference_summons), (b, cid(card))
            total += len(fast)
    assert total > 500


def test_void_search_matches_the_oracle_on_random_boards():
    rng = np.random.default_rng(6502)
    total = with_voids = 0
    for b in range(24):
        s = three_colour_board(rng)
        # sparser boards: more empty squares to count
        for q in ONBOARD:
            if rng.random() < 0.3:
                s[BOARD + q] = 0
        voids = [2, 1, 2, 2][b % 4]
        borrow, impro = [(0, 0), (1, 0), (0, 0b110), (0, 0)][b % 4]
        s[VOID_CELLS], s[BORROW_ENEMY], s[IMPRO_LEFT] = voids, borrow, impro
        for card in PATTERN_CARDS:
            fast = _rows(s, card, void_summons)
            assert len(set(fast)) == len(fast)
            keys = {((a >> 4) - 1, *summon_key(o, t)) for a, o, t in fast}
            assert keys == oracle_void(s, 0, card, voids, borrow, impro), (b, cid(card))
            total += len(fast)
            s0 = s.copy()
            s0[VOID_CELLS] = 0
            plain = set(_rows(s0, card, void_summons))
            assert plain <= set(fast)  # void cells only add summons
            with_voids += len(fast) - len(plain)
    assert total > 1000 and with_voids > 300


def test_possession_wins_over_void_cells():
    """Both set at once (no card does it today): the possessed search decides; void cells are
    for your own pieces, which a possessed pattern never uses."""
    g = game({(4, 4): "c1", (3, 4): "c1", (4, 5): "c1", (3, 5): "c1"}, [SPHERE])
    g.s[VOID_CELLS] = 2
    g.s[SUMMON_COLOUR] = 1
    g.refresh()
    assert summon_targets(g, SPHERE) == [sq(3, 4), sq(3, 5), sq(4, 4), sq(4, 5)]


def test_the_players_evaluation_asks_the_void_search():
    """``slot_summonable`` (the players' evaluation) answers what the options would list."""
    rng = np.random.default_rng(777)
    yes = no = 0
    for b in range(8):
        s = three_colour_board(rng)
        for q in ONBOARD:
            if rng.random() < 0.4:
                s[BOARD + q] = 0
        s[VOID_CELLS], s[IMPRO_LEFT] = 1 + b % 2, [0, 0b100][b % 2]
        s[SUMMON_COLOUR] = -1  # a zero row would read as "possessed by colour 0"
        bits = hand_bits(s, T, 0)
        for card in PATTERN_CARDS:
            fast = slot_summonable(s, T, 0, card, bits)
            assert fast == bool(_rows(s, card, void_summons)), (b, cid(card))
            yes += fast
            no += not fast
    assert yes > 50 and no > 50


def test_team_play_void_cells_count_as_the_teams_commons():
    # team High Form: seat 0 (colour 0, with seat 2); (7,7) is the teammate's piece
    g = game(
        {**VOID_PAT, (7, 7): "c0"},
        [VOID, SING],
        decks=(EW, "imperial", "sylvan", "highland"),
        mode="team-high-form",
    )
    summon(g, VOID, sq(3, 4), pattern=at((3, 5), (4, 4), (5, 3), (5, 5)))
    assert g.s[VOID_CELLS] == 2 and sq(6, 6) in summon_targets(g, SING)
    summon(g, SING, sq(6, 6))
    assert g.s[VOID_CELLS] == 0
    target(g, sq(1, 1))
    is_board(g, {**VOID_PAT, (3, 4): "h0", (7, 7): "c0", (6, 6): "h0"})
