"""The Gateway follows its piece through every primitive that changes a square, and the
possessed summon search agrees with its plain reference scan (and a numpy oracle).

Both seats play Nethervoid here, each with a Gateway: seat 0's on (4,4), seat 1's on (2,2).
Moves, charges, destroys, conversions, swaps, pick-ups, upgrades and oversummons are driven
through the engine's own primitives (core.board.pieces, core.effects.etherweave_pending.swap,
core.effects.apply.apply_instruction); after each the invariant "a Gateway square holds a
non-legendary piece of its seat's colour" must hold. (The Paradox Worm's swap in a game is in
test_warp.py, the Merchant of Time's stasis in test_etherweave_copy_stasis.py.)
"""

import numpy as np
import pytest

from core import constants as K
from core.board.pieces import convert, destroy, downgrade, pick_up, upgrade
from core.checks.invariants import CHECKS, INV_GATEWAY, INV_OK
from core.effects.apply import apply_instruction
from core.effects.etherweave_pending import swap
from core.layout import (
    BOARD,
    CUR,
    DESTROYED,
    EFF_BEING_SQ,
    GATEWAY,
    IMPRO_LEFT,
    LSTOCK,
    STOCK,
    SUMMON_COLOUR,
)
from core.ops import I_MOVE_TYPE, I_OP, MT_CHARGE, OP_MOVE
from core.summon.possessed import possessed_summons
from sim.position import PositionError, legal_moves, position_from_dict
from tests.support.harness import CONTENT, Game, T, board_with, sq, summon, summon_key, target
from tests.support.oracles import reference_possessed
from tests.support.summons import (
    ONBOARD,
    ORACLE_PATTERNS,
    PATTERN_CARDS,
    cid,
    oracle_summons,
    random_board,
    three_colour_board,
)

NV = "nethervoid"
BOARD0 = {(4, 4): "h0", (2, 2): "c1", (4, 6): "c1", (6, 4): "c0", (4, 8): "c1"}


def two_gateways(pieces=BOARD0, mode="deathmatch"):
    g = Game(board=board_with(pieces), hands=([], []), decks=(NV, NV), mode=mode)
    g.s[GATEWAY] = sq(4, 4)
    g.s[GATEWAY + 1] = sq(2, 2)
    g.refresh()
    return g


def gateways(g):
    assert CHECKS["gateways"](g.s, T, g.events()) == INV_OK
    return [None if g.s[GATEWAY + p] < 0 else int(g.s[GATEWAY + p]) for p in range(2)]


def _row(op, move_type):
    for i in range(T.ops.shape[0]):
        if T.ops[i, I_OP] == op and T.ops[i, I_MOVE_TYPE] == move_type:
            return i
    raise AssertionError("no such instruction in the content")


def test_a_move_carries_the_mark():
    g = two_gateways()
    i = _row(OP_MOVE, 0)  # a one-step move instruction of some card
    g.s[EFF_BEING_SQ] = -1
    apply_instruction(g.s, T, g.ev, i, sq(4, 4), sq(3, 4))
    assert gateways(g) == [sq(3, 4), sq(2, 2)]
    apply_instruction(g.s, T, g.ev, i, sq(3, 4), sq(2, 3))  # next to seat 1's Gateway
    apply_instruction(g.s, T, g.ev, i, sq(2, 3), sq(2, 2))  # onto it: destroyed
    assert gateways(g) == [sq(2, 2), None]
    assert g.board()[2].split()[2] == "h0"


def test_a_charge_carries_the_mark_and_drops_the_ones_passed():
    g = two_gateways({**BOARD0, (4, 5): "c1"})
    g.s[GATEWAY + 1] = sq(4, 5)  # seat 1's Gateway stands in the charge's way
    i = _row(OP_MOVE, MT_CHARGE)
    apply_instruction(g.s, T, g.ev, i, sq(4, 4), sq(4, 7))
    assert gateways(g) == [sq(4, 7), None]
    assert g.board()[4].split()[4:8] == ["..", "..", "..", "h0"]


def test_destroy_convert_and_pick_up_drop_the_mark():
    g = two_gateways()
    destroy(g.s, g.ev, sq(2, 2), 0, 1)
    assert gateways(g) == [sq(4, 4), None]
    g.s[CUR] = 1
    convert(g.s, g.ev, sq(4, 4), 1, K.HEROIC)  # seat 1 converts seat 0's Gateway
    assert gateways(g) == [None, None] and g.board()[4].split()[4] == "h1"
    g = two_gateways()
    pick_up(g.s, g.ev, sq(4, 4), 0)
    assert gateways(g) == [None, sq(2, 2)]
    lost = [tuple(int(x) for x in r[2:4]) for r in g.events() if r[0] == K.EV_GATEWAY_LOST]
    assert lost == [(0, sq(4, 4))]


def test_a_swap_carries_both_marks():
    g = two_gateways()
    swap(g.s, g.ev, sq(4, 4), sq(2, 2))  # the two Gateways exchange squares
    assert gateways(g) == [sq(2, 2), sq(4, 4)]
    assert g.board()[2].split()[2] == "h0" and g.board()[4].split()[4] == "c1"
    swap(g.s, g.ev, sq(2, 2), sq(6, 4))  # with a piece that is no Gateway
    assert gateways(g) == [sq(6, 4), sq(4, 4)]
    assert g.s[DESTROYED : DESTROYED + 16].sum() == 0  # nothing was destroyed


def test_upgrades_keep_the_mark_until_legendary():
    g = two_gateways()
    upgrade(g.s, g.ev, sq(2, 2), 1)  # common -> heroic: still the Gateway
    assert gateways(g) == [sq(4, 4), sq(2, 2)]
    downgrade(g.s, g.ev, sq(2, 2), 1)  # and back
    assert gateways(g) == [sq(4, 4), sq(2, 2)]
    upgrade(g.s, g.ev, sq(4, 4), 0)  # heroic -> legendary: never a Gateway
    assert gateways(g) == [None, sq(2, 2)] and g.board()[4].split()[4] == "l0"


def test_an_enemy_summon_on_the_gateway_drops_it():
    # seat 1 oversummons seat 0's common Gateway with a Nethervoid common
    pieces = {(4, 4): "c0", (3, 3): "c1", (4, 5): "c1", (7, 4): "c1"}
    g = Game(
        board=board_with(pieces), hands=([], ["nethervoid/shadow-imp"]), decks=(NV, NV),
        to_move=1, mode="deathmatch",
    )  # fmt: skip
    g.s[GATEWAY] = sq(4, 4)
    g.s[GATEWAY + 1] = sq(7, 4)
    g.refresh()
    summon(g, "nethervoid/shadow-imp", sq(4, 4), pattern=[sq(3, 3), sq(4, 5)])
    # seat 1 already has a common Gateway: its common Imp does not take the mark
    assert gateways(g) == [None, sq(7, 4)]
    target(g, sq(4, 4), sq(3, 4))
    target(g, sq(7, 4), sq(6, 4))  # and its Gateway follows, same direction
    assert gateways(g) == [None, sq(6, 4)]


def test_checker_sees_a_stale_gateway():
    g = two_gateways()
    for bad in (sq(0, 4), sq(4, 6), sq(0, 0)):  # empty, an enemy piece, a void square
        g.s[GATEWAY] = bad
        assert CHECKS["gateways"](g.s, T, g.events()) == INV_GATEWAY
    g.s[GATEWAY] = sq(4, 4)
    g.s[BOARD + sq(4, 4)] = 0 * 4 + K.LEGENDARY
    assert CHECKS["gateways"](g.s, T, g.events()) == INV_GATEWAY


# --- possessed summoning --------------------------------------------------------------------------


def _rows(fn, s, seat, colour, card):
    """The summon rows as sorted (improvised colour or -1, orientation, target)."""
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    n = fn(s, T, seat, colour, card, 5, opts, 0)
    rows = [tuple(int(x) for x in r) for r in opts[:n]]
    assert all(r[0] == K.OPT_SUMMON and r[1] & 15 == 5 for r in rows)
    return sorted(((r[1] >> 4) - 1, r[2], r[3]) for r in rows)


def oracle_possessed(s, seat, colour, card):
    """{(improvised colour or -1, summon key)} from the card's printed pattern: every cell,
    and a target that must hold your piece, holds a piece of ``colour`` of enough rank, but
    for at most one piece of a colour the seat may still improvise with (neither its own nor
    ``colour``), used only where needed; the summoned piece comes from the seat's stock, an
    own piece of its kind on the target, or one outside the pattern to pick up."""
    board = [int(x) for x in s[BOARD : BOARD + 81]]
    impro = int(s[IMPRO_LEFT + seat]) & ~(1 << colour) & ~(1 << seat)
    being = int(T.card_rank[card])
    legendary = being == K.LEGENDARY

    def own_kind(code):
        return code != 0 and code >> 2 == seat and ((code & 3) == K.LEGENDARY) == legendary

    in_stock = (s[LSTOCK + seat] if legendary else s[STOCK + seat]) > 0
    kinds = sum(own_kind(board[q]) for q in ONBOARD)
    req, images = ORACLE_PATTERNS[card]
    out = set()
    for cells in images:
        for t in ONBOARD:
            tcode = board[t]
            others = []
            if req:
                if tcode == 0 or not req <= tcode & 3 <= being:
                    continue
                if tcode >> 2 != colour:
                    others.append(tcode >> 2)
            elif tcode != 0 and tcode & 3 > being:
                continue
            key, used, ok = set(), 0, True
            for dr, dc, r in cells:
                row, col = t // 9 + dr, t % 9 + dc
                q = row * 9 + col
                if not (0 <= row < 9 and 0 <= col < 9) or T.sq_color[q] < 0:
                    ok = False
                    break
                code = board[q]
                if code == 0 or code & 3 < r:
                    ok = False
                    break
                if code >> 2 != colour:
                    others.append(code >> 2)
                used += own_kind(code)
                key.add((q, r))
            if not ok or len(others) > 1 or (others and not (impro >> others[0]) & 1):
                continue
            if in_stock or own_kind(tcode) or kinds - used > 0:
                out.add((others[0] if others else -1, (t, frozenset(key))))
    return out


def test_possessed_search_matches_the_plain_scan_and_the_oracle():
    rng = np.random.default_rng(20260115)
    total = 0
    for b in range(80):
        s = random_board(rng)
        for seat, colour in ((0, 1), (1, 0)):
            for card in PATTERN_CARDS:
                fast = _rows(possessed_summons, s, seat, colour, card)
                ref = _rows(reference_possessed, s, seat, colour, card)
                assert fast == ref, (b, seat, cid(card))
                total += len(fast)
                if b % 4 == 0:
                    # with full stocks a possessed summon is the colour's own summon
                    s2 = s.copy()
                    s2[STOCK + colour] = s2[LSTOCK + colour] = 3
                    s2[STOCK + seat] = s2[LSTOCK + seat] = 3
                    fast2 = _rows(possessed_summons, s2, seat, colour, card)
                    assert all(c == -1 for c, _, _ in fast2)  # a duel: no improvisation
                    keys = {summon_key(o, t) for _, o, t in fast2}
                    assert keys == oracle_summons(s2, colour, card), (b, seat, cid(card))
                # never one of the seat's own pieces in the pattern
                for _, o, t in fast:
                    for q, _ in summon_key(o, t)[1]:
                        assert s[BOARD + q] >> 2 == colour and s[BOARD + q] != 0
    assert total > 2000


def test_possessed_search_with_a_melee_improvisation_matches_the_scan_and_the_oracle():
    """Melee (BGA foundPattern; the card text is silent): with an improvisation against a
    third colour still unused, one piece of that colour may stand in for the possessed
    colour, on any cell or a target that must hold your piece; offered only where needed."""
    rng = np.random.default_rng(20261201)
    total = improvised = 0
    for b in range(120):
        s = three_colour_board(rng)
        s[STOCK + 1] = s[STOCK + 2] = 5
        s[IMPRO_LEFT] = [0b110, 0b100, 0b010, 0][b % 4]  # seat 0's unused improvisations
        for colour in (1, 2):
            for card in PATTERN_CARDS:
                fast = _rows(possessed_summons, s, 0, colour, card)
                ref = _rows(reference_possessed, s, 0, colour, card)
                assert fast == ref, (b, colour, cid(card))
                keys = {(c, summon_key(o, t)) for c, o, t in fast}  # orientations by cells
                assert keys == oracle_possessed(s, 0, colour, card), (b, colour, cid(card))
                total += len(fast)
                improvised += sum(c >= 0 for c, _, _ in fast)
                # an improvisation is never of the possessed colour nor the seat's own
                assert all(c in (-1, 3 - colour) for c, _, _ in fast)
    assert total > 1000 and improvised > 200


def test_possessed_summon_of_a_t_c_card_oversummons_the_enemy_piece():
    pieces = {(4, 4): "c1", (4, 5): "c1", (4, 6): "c1", (5, 4): "c1", (2, 2): "c0"}
    hand = ["nethervoid/hell-rider"]
    g = Game(board=board_with(pieces), hands=(hand, []), decks=(NV, "imperial"))
    g.s[SUMMON_COLOUR] = 1
    g.refresh()
    stock = int(g.s[STOCK])
    summon(g, "nethervoid/hell-rider", sq(4, 4), pattern=[sq(4, 5), sq(4, 6), sq(5, 4)])
    assert g.board()[4].split()[4] == "h0" and g.s[SUMMON_COLOUR] == -1
    assert g.s[DESTROYED + 1 * 4 + K.COMMON] == 1  # the enemy piece on the target
    assert g.s[GATEWAY] == sq(4, 4) and g.s[STOCK] == stock - 1  # ours


# --- position files and the moves query -----------------------------------------------------------


def _position(seat0=None, turn=None, pieces=None):
    pieces = pieces or {(4, 4): "h0", (3, 3): "c1", (4, 5): "c1", (2, 2): "c0", (3, 4): "c0"}
    data = {
        "mode": "high-form",
        "to_move": 0,
        "board": board_with(pieces),
        "seat": [
            {"deck": NV, "hand": ["nethervoid/shadow-imp"], **(seat0 or {})},
            {"deck": "imperial", "hand": []},
        ],
    }
    if turn:
        data["turn"] = turn
    return data


def test_position_files_set_the_gateway_and_moves_report_it():
    s = position_from_dict(_position({"gateway": [4, 4]}), CONTENT)
    assert s[GATEWAY] == sq(4, 4) and s[GATEWAY + 1] == -1
    moves = legal_moves(s, CONTENT)
    assert moves["gateway"] == [4, 4] and "possessed_colour" not in moves
    assert "gateway" not in legal_moves(position_from_dict(_position(), CONTENT), CONTENT)


def test_position_files_set_possession_and_moves_use_it():
    s = position_from_dict(_position(turn={"possessed": 1}), CONTENT)
    moves = legal_moves(s, CONTENT)
    assert moves["possessed_colour"] == 1
    # colour 1's (3,3) and (4,5) fit the Imp's two cells, as do our (2,2) and (3,4)
    assert moves["summons"]
    for m in moves["summons"]:
        assert all(s[BOARD + r * 9 + c] >> 2 == 1 for r, c in m["pattern"])
    plain = legal_moves(position_from_dict(_position(), CONTENT), CONTENT)
    assert plain["summons"]
    for m in plain["summons"]:
        assert all(s[BOARD + r * 9 + c] >> 2 == 0 for r, c in m["pattern"])


@pytest.mark.parametrize(
    "seat0,turn,words",
    [
        ({"gateway": [3, 3]}, None, "non-legendary piece of the seat's colour"),
        ({"gateway": [0, 0]}, None, "non-legendary piece of the seat's colour"),
        ({"gateway": "e5"}, None, "gateway must be [row, col]"),
        (None, {"possessed": 0}, "possessed must be an enemy colour"),
    ],
)
def test_bad_gateway_or_possession_in_a_position_file(seat0, turn, words):
    with pytest.raises(PositionError, match=words.replace("[", r"\[").replace("]", r"\]")):
        position_from_dict(_position(seat0, turn), CONTENT)


def test_gateway_only_for_a_gateway_deck():
    data = _position()
    data["seat"][1]["gateway"] = [3, 3]
    with pytest.raises(PositionError, match="has no Gateway"):
        position_from_dict(data, CONTENT)
