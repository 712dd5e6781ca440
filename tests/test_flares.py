"""The 12 flares: when each is offered, and one played scenario per flare with exact boards.

Seat 0 plays the flare against seat 1. Boards: ``c0`` your common piece, ``h1`` an enemy
heroic piece, ``..`` empty. Enemy pieces that only count for the conditions stand on the
bottom two rows (FILL_ENEMY), away from the action around the centre. Every scenario runs in
High Form and in Deathmatch, where the opponent gains 1 point for the flare (rules.md 45).
"""

import pytest

from core import constants as K
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    DESTROYED,
    FDISC,
    FDISC_N,
    HAND_N,
    N_FLARES,
    PHASE,
    SCORE,
    STOCK,
)
from core.rules.options import flare_halves
from tests.support.harness import CONTENT, Game, T, board_with, skip, sq, target, targets

MODES = ["high-form", "deathmatch"]
FLARES = [c.id for c in CONTENT.cards if c.kind == K.CK_FLARE]
ONBOARD = [int(q) for q in T.onboard]
# squares for pieces that only count towards the flare conditions
FILL_ENEMY = [(8, c) for c in range(2, 7)] + [(7, c) for c in range(1, 8)] + [(6, 0), (6, 8)]
FILL_OWN = [(0, c) for c in range(2, 7)] + [(1, c) for c in range(1, 8)]


def fill(enemy=(), own=()):
    """Filler pieces: ``enemy``/``own`` are token lists such as ["h1", "h1", "c1"]."""
    assert len(enemy) <= len(FILL_ENEMY) and len(own) <= len(FILL_OWN)
    return {**dict(zip(FILL_ENEMY, enemy, strict=False)), **dict(zip(FILL_OWN, own, strict=False))}


def setup(flare, pieces, mode="high-form", extra_hand=()):
    g = Game(board_with(pieces), mode=mode, hands=([f"flares/{flare}", *extra_hand], ()))
    g.refresh()
    return g


def flare_rows(g):
    return [o for o in g.options() if o[0] == K.OPT_FLARE]


def play(g, flare, halves):
    """Play the flare (slot 0) against seat 1; check the logged halves."""
    assert flare_rows(g) == [(K.OPT_FLARE, 0, 1, 0)]
    g.act(K.OPT_FLARE, 0, 1, 0)
    ev = [tuple(int(x) for x in e) for e in g.events() if e[0] == K.EV_FLARE]
    assert ev == [(K.EV_FLARE, 2, 0, CONTENT.card_index(f"flares/{flare}"), 1, halves)]


def finished(g, flare, mode, actions=2):
    """The flare is over: discarded, back to the action phase, the opponent's point."""
    card = CONTENT.card_index(f"flares/{flare}")
    assert g.s[PHASE] == K.PH_ACTION
    assert g.s[FDISC_N] == 1 and g.s[FDISC] == card
    assert g.s[N_FLARES] == 1
    assert g.s[ACTIONS_LEFT] == actions
    assert g.s[SCORE] == 0
    assert g.s[SCORE + 1] == (1 if mode == "deathmatch" else 0)


def empties(g):
    return {q for q in ONBOARD if g.s[BOARD + q] == 0}


def place_targets(g, owner=0):
    return {a for a, b in targets(g) if b == owner}


def neighbours(r, c):
    return {
        sq(r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc)
        and 0 <= r + dr < 9
        and 0 <= c + dc < 9
        and T.sq_color[sq(r + dr, c + dc)] >= 0
    }


# --- when a flare is offered: thresholds for every flare -----------------------------------------


def _cases(x, y):
    """(enemy heroics, enemy commons, own commons, expected halves) around the thresholds."""
    return [
        (x, max(0, y - x), max(0, x - y), 3),  # both exactly at the threshold
        (x - 1, max(0, y - x), max(0, x - y), 0),  # both one short
        (x, 0, max(0, x - y + 1), 1),  # upper exactly, lower one short
        (x - 1, max(0, y - x + 1), max(0, x - 1 - y), 2),  # lower exactly, upper one short
        (x - 1, max(0, y - x) + 1, max(0, x - y) + 1, 0),  # own pieces count against
    ]


@pytest.mark.parametrize("flare", FLARES)
def test_flare_offered_exactly_at_its_thresholds(flare):
    card = CONTENT.card_index(flare)
    x, y = int(T.flare_x[card]), int(T.flare_y[card])
    for eh, ec, oc, halves in _cases(x, y):
        enemy = ["l1"] + ["h1"] * (eh - 1) if eh else []  # a legendary piece is upgraded too
        pieces = fill(enemy + ["c1"] * ec, ["c0"] * oc)
        # the flare's own card id without the "flares/" prefix
        g = setup(flare.split("/")[1], pieces)
        upg = eh
        allp = eh + ec - oc
        assert ((upg >= x) | ((allp >= y) << 1)) == halves  # the case table itself
        assert flare_halves(g.s, T, card, 0, 1) == halves, (eh, ec, oc)
        assert flare_rows(g) == ([(K.OPT_FLARE, 0, 1, 0)] if halves else [])


def test_own_upgraded_pieces_count_against_the_upper_half():
    pieces = fill(["h1"] * 3, ["h0"])  # upgraded: 3 - 1 = 2 < 3; pieces 3 - 1 = 2 < 6
    assert flare_rows(setup("f36", pieces)) == []
    pieces = fill(["h1"] * 4, ["h0"])
    g = setup("f36", pieces)
    assert flare_halves(g.s, T, CONTENT.card_index("flares/f36"), 0, 1) == 1


def test_flare_offered_with_no_action_left_and_not_to_the_other_seat():
    g = Game(board_with(fill(["c1"] * 4)), hands=(["flares/f44"], ["flares/f44"]))
    g.s[ACTIONS_LEFT] = 0
    assert g.refresh() == [(K.OPT_FLARE, 0, 1, 0), (K.OPT_END_TURN, 0, 0, 0)]


# --- one played scenario per flare ---------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_f36_both_halves_conditions_judged_once(mode):
    pieces = fill(["h1"] * 3 + ["c1"] * 3)  # upgraded +3, pieces +6: both halves
    g = setup("f36", pieces, mode)
    play(g, "f36", 3)
    assert place_targets(g) == empties(g)  # upper: a common piece anywhere empty
    target(g, sq(4, 4), 0)
    # the lower half still runs although the pieces lead dropped to 5 < 6
    assert flare_halves(g.s, T, CONTENT.card_index("flares/f36"), 0, 1) == 1
    assert place_targets(g) == empties(g)
    target(g, sq(4, 5), 0)
    assert g.board() == board_with({**pieces, (4, 4): "c0", (4, 5): "h0"})
    finished(g, "f36", mode)
    stock = 17 if mode == "high-form" else 16
    assert g.s[STOCK] == stock - 2


@pytest.mark.parametrize("mode", MODES)
def test_f44_lower_half_only(mode):
    pieces = fill(["c1"] * 4)
    g = setup("f44", pieces, mode)
    play(g, "f44", 2)
    target(g, sq(2, 2), 0)
    assert g.board() == board_with({**pieces, (2, 2): "c0"})
    finished(g, "f44", mode)


@pytest.mark.parametrize("mode", MODES)
def test_f35_moves_stop_early_then_gain_action(mode):
    pieces = {(4, 4): "c0", (4, 3): "c1", **fill(["h1"] * 3 + ["c1"] * 3)}  # +3 up, +6 all
    g = setup("f35", pieces, mode)
    play(g, "f35", 3)
    # standard moves of a common piece: empty squares only (not the enemy common)
    assert set(targets(g)) == {(sq(4, 4), d) for d in neighbours(4, 4) - {sq(4, 3)}}
    assert (K.OPT_SKIP, -1, -1, -1) in g.options()
    target(g, sq(4, 4), sq(3, 4))
    target(g, sq(3, 4), sq(2, 4))
    assert set(targets(g)) == {(sq(2, 4), d) for d in neighbours(2, 4)}
    skip(g)  # the third move is declined; the lower half follows
    assert g.board() == board_with({**fill(["h1"] * 3 + ["c1"] * 3), (2, 4): "c0", (4, 3): "c1"})
    finished(g, "f35", mode, actions=3)
    assert [int(e[0]) for e in g.events()].count(K.EV_SKIP) == 1


@pytest.mark.parametrize("mode", MODES)
def test_f45_lower_half_converts_an_enemy_common(mode):
    enemy = {(2, 6): "c1", (5, 5): "h1"}
    pieces = {**enemy, **fill(["c1"] * 4)}  # upgraded +1, pieces +6: lower only
    g = setup("f45", pieces, mode)
    play(g, "f45", 2)
    opts = g.options()
    commons1 = {q for q in ONBOARD if g.s[BOARD + q] == 5}
    assert {(a, alt) for k, a, b, alt in opts if k == K.OPT_TARGET and b == 0} == {
        (q, 0) for q in empties(g)
    }
    assert {a for k, a, b, alt in opts if k == K.OPT_TARGET and alt == 1} == commons1
    assert sq(5, 5) not in commons1  # an enemy heroic piece cannot be converted
    assert K.OPT_SKIP not in {o[0] for o in opts}
    stock0, stock1 = int(g.s[STOCK]), int(g.s[STOCK + 1])
    g.act(K.OPT_TARGET, sq(2, 6), -1, 1)
    assert g.board() == board_with({**pieces, (2, 6): "c0"})
    assert g.s[DESTROYED + 1 * 4 + K.COMMON] == 1  # a conversion counts as destroyed
    assert (g.s[STOCK], g.s[STOCK + 1]) == (stock0 - 1, stock1 + 1)
    finished(g, "f45", mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("choice", ["upgrade", "move"])
def test_f36b_upper_half_choose(mode, choice):
    pieces = {(4, 4): "c0", (2, 2): "c0", **fill(["h1"] * 3)}  # upgraded +3, pieces +1
    g = setup("f36b", pieces, mode)
    play(g, "f36b", 1)
    opts = [o for o in g.options() if o[0] == K.OPT_TARGET]
    moves = {(a, b) for _, a, b, alt in opts if alt == 0}
    ups = {a for _, a, b, alt in opts if alt == 1}
    assert moves == {(sq(4, 4), d) for d in neighbours(4, 4)} | {
        (sq(2, 2), d) for d in neighbours(2, 2)
    }
    assert ups == {sq(4, 4), sq(2, 2)}
    assert len(opts) == len(g.options())  # compulsory: no skip
    if choice == "upgrade":
        g.act(K.OPT_TARGET, sq(4, 4), -1, 1)
        assert g.board() == board_with({**pieces, (4, 4): "h0"})
    else:
        g.act(K.OPT_TARGET, sq(4, 4), sq(5, 5), 0)
        del pieces[(4, 4)]
        assert g.board() == board_with({**pieces, (5, 5): "c0"})
    finished(g, "f36b", mode)


@pytest.mark.parametrize("mode", MODES)
def test_f36b_lower_half_puts_two_commons(mode):
    pieces = fill(["h1"] * 2 + ["c1"] * 4)  # upgraded +2, pieces +6: lower only
    g = setup("f36b", pieces, mode)
    play(g, "f36b", 2)
    target(g, sq(3, 3), 0)
    target(g, sq(5, 5), 0)
    assert g.board() == board_with({**pieces, (3, 3): "c0", (5, 5): "c0"})
    finished(g, "f36b", mode)


@pytest.mark.parametrize("mode", MODES)
def test_f44b_place_then_combat_leap_onto_an_enemy_common(mode):
    pieces = {(4, 4): "c0", (4, 6): "c1", **fill(["h1"] * 4)}  # upgraded +4, pieces +4
    g = setup("f44b", pieces, mode)
    play(g, "f44b", 3)
    opts = [o for o in g.options() if o[0] == K.OPT_TARGET]
    assert {a for _, a, b, alt in opts if alt == 0 and b == 0} == empties(g)
    assert {a for _, a, b, alt in opts if alt == 1} == {sq(4, 4)}
    g.act(K.OPT_TARGET, sq(0, 4), 0, 0)  # place
    # lower: optional combat leap of a common piece onto any square without a higher piece
    leaps = set(targets(g))
    heroic1 = {q for q in ONBOARD if g.s[BOARD + q] == 6}
    for src in (sq(4, 4), sq(0, 4)):
        dests = {d for a, d in leaps if a == src}
        assert dests == set(ONBOARD) - heroic1 - {src}
    assert (K.OPT_SKIP, -1, -1, -1) in g.options()
    target(g, sq(4, 4), sq(4, 6))
    del pieces[(4, 4)]
    assert g.board() == board_with({**pieces, (0, 4): "c0", (4, 6): "c0"})
    assert g.s[DESTROYED + 1 * 4 + K.COMMON] == 1
    finished(g, "f44b", mode)


@pytest.mark.parametrize("mode", MODES)
def test_f46_lower_half_forced_upgrade_and_action(mode):
    pieces = {(4, 4): "c0", **fill(["c1"] * 7)}  # pieces +6: lower only
    g = setup("f46", pieces, mode)
    play(g, "f46", 2)  # the only target is taken without asking
    assert g.board() == board_with({**pieces, (4, 4): "h0"})
    finished(g, "f46", mode, actions=3)


def test_f46_action_gained_even_without_a_common_to_upgrade():
    pieces = {(4, 4): "h0", **fill(["c1"] * 7)}
    g = setup("f46", pieces)
    play(g, "f46", 2)
    assert g.board() == board_with(pieces)
    finished(g, "f46", "high-form", actions=3)


@pytest.mark.parametrize("mode", MODES)
def test_f45b_both_halves(mode):
    pieces = fill(["h1"] * 4 + ["c1"])  # upgraded +4, pieces +5
    g = setup("f45b", pieces, mode)
    play(g, "f45b", 3)
    assert g.s[ACTIONS_LEFT] == 3  # upper done before the lower placement is chosen
    target(g, sq(6, 4), 0)
    assert g.board() == board_with({**pieces, (6, 4): "c0"})
    finished(g, "f45b", mode, actions=3)


F54 = {(4, 4): "c0", (4, 5): "c1", (3, 6): "c1", **fill(["c1"] * 3)}  # pieces +4: lower only


@pytest.mark.parametrize("mode", MODES)
def test_f54_second_move_standard_after_equal_capture(mode):
    g = setup("f54", F54, mode)
    play(g, "f54", 2)
    first = set(targets(g))
    assert first == {(sq(4, 4), d) for d in neighbours(4, 4)}  # combat: onto [4,5] allowed
    assert (K.OPT_SKIP, -1, -1, -1) in g.options()
    target(g, sq(4, 4), sq(4, 5))  # takes a common: equal rank
    # second move: standard, so not onto the enemy common on [3,6]; compulsory
    assert set(targets(g)) == {(sq(4, 5), d) for d in neighbours(4, 5) - {sq(3, 6)}}
    assert K.OPT_SKIP not in {o[0] for o in g.options()}
    target(g, sq(4, 5), sq(3, 5))
    pieces = {k: v for k, v in F54.items() if k not in ((4, 4), (4, 5))}
    assert g.board() == board_with({**pieces, (3, 5): "c0"})
    assert g.s[DESTROYED + 1 * 4 + K.COMMON] == 1
    finished(g, "f54", mode)


def test_f54_second_move_may_capture_after_a_quiet_first_move():
    g = setup("f54", F54)
    play(g, "f54", 2)
    target(g, sq(4, 4), sq(3, 4))  # to an empty square
    assert (sq(3, 4), sq(4, 5)) in targets(g)  # still a combat move
    target(g, sq(3, 4), sq(4, 5))
    pieces = {k: v for k, v in F54.items() if k not in ((4, 4),)}
    assert g.board() == board_with({**pieces, (4, 5): "c0"})
    assert g.s[DESTROYED + 1 * 4 + K.COMMON] == 1
    finished(g, "f54", "high-form")


def test_f54_skipping_the_first_move_ends_the_flare():
    g = setup("f54", F54)
    play(g, "f54", 2)
    skip(g)
    assert g.board() == board_with(F54)
    finished(g, "f54", "high-form")


@pytest.mark.parametrize("mode", MODES)
def test_f54_upper_half_puts_a_heroic_piece(mode):
    pieces = fill(["h1"] * 5, ["c0", "c0"])  # upgraded +5, pieces +3: upper only
    g = setup("f54", pieces, mode)
    play(g, "f54", 1)
    target(g, sq(4, 4), 0)
    assert g.board() == board_with({**pieces, (4, 4): "h0"})
    finished(g, "f54", mode)


@pytest.mark.parametrize("mode", MODES)
def test_f55_both_halves_three_commons(mode):
    pieces = fill(["h1"] * 5)
    g = setup("f55", pieces, mode)
    play(g, "f55", 3)
    for r, c in ((3, 3), (3, 4), (3, 5)):
        target(g, sq(r, c), 0)
    assert g.board() == board_with({**pieces, (3, 3): "c0", (3, 4): "c0", (3, 5): "c0"})
    finished(g, "f55", mode)


# heroic piece of yours next to an enemy heroic and an enemy common; a legendary piece of yours
F34 = {(4, 4): "h0", (4, 5): "h1", (3, 3): "c1", (0, 4): "l0", **fill(["c1"] * 4)}


@pytest.mark.parametrize("mode", MODES)
def test_f34_no_second_move_after_equal_capture(mode):
    g = setup("f34", F34, mode)  # upgraded 1 - 2 < 3; pieces 6 - 2 = 4: lower only
    play(g, "f34", 2)
    first = set(targets(g))
    assert {a for a, _ in first} == {sq(4, 4)}  # non-legendary movers only
    assert first == {(sq(4, 4), d) for d in neighbours(4, 4)}  # combat: [4,5] and [3,3]
    target(g, sq(4, 4), sq(4, 5))
    pieces = {k: v for k, v in F34.items() if k != (4, 4)}
    assert g.board() == board_with({**pieces, (4, 5): "h0"})
    assert g.s[DESTROYED + 1 * 4 + K.HEROIC] == 1
    finished(g, "f34", mode)  # no second move offered


def test_f34_second_standard_move_after_lower_capture():
    g = setup("f34", F34)
    play(g, "f34", 2)
    target(g, sq(4, 4), sq(3, 3))  # takes a common with a heroic: not equal rank
    # second: standard moves of your non-legendary pieces; optional
    assert set(targets(g)) == {(sq(3, 3), d) for d in neighbours(3, 3)}
    assert (K.OPT_SKIP, -1, -1, -1) in g.options()
    target(g, sq(3, 3), sq(2, 3))
    pieces = {k: v for k, v in F34.items() if k not in ((4, 4), (3, 3))}
    assert g.board() == board_with({**pieces, (2, 3): "h0"})
    assert g.s[DESTROYED + 1 * 4 + K.COMMON] == 1
    finished(g, "f34", "high-form")


def test_f34_second_move_cannot_take_an_equal_piece():
    g = setup("f34", F34)
    play(g, "f34", 2)
    target(g, sq(4, 4), sq(5, 4))  # quiet first move
    second = set(targets(g))
    assert (sq(5, 4), sq(4, 5)) not in second  # standard: not onto the enemy heroic
    assert second == {(sq(5, 4), d) for d in neighbours(5, 4) - {sq(4, 5)}}


@pytest.mark.parametrize("mode", MODES)
def test_f25_optional_leap_skipped(mode):
    pieces = {(4, 4): "c0", (2, 2): "c1", **fill(["h1"] * 2)}  # upgraded +2, pieces +2
    g = setup("f25", pieces, mode)
    play(g, "f25", 1)
    # a standard leap of a common piece: any empty square
    assert set(targets(g)) == {(sq(4, 4), d) for d in empties(g)}
    assert (K.OPT_SKIP, -1, -1, -1) in g.options()
    skip(g)
    assert g.board() == board_with(pieces)
    assert int(g.s[HAND_N]) == 0
    finished(g, "f25", mode)


def test_f25_leap_then_gain_action_with_both_halves():
    pieces = {(4, 4): "c0", **fill(["h1"] * 2 + ["c1"] * 4)}  # upgraded +2, pieces +5
    g = setup("f25", pieces)
    play(g, "f25", 3)
    target(g, sq(4, 4), sq(0, 2))
    del pieces[(4, 4)]
    assert g.board() == board_with({**pieces, (0, 2): "c0"})
    finished(g, "f25", "high-form", actions=3)


def test_flare_place_without_stock_does_nothing():
    """A flare's place needs a piece in stock: no picking up (rules.md 34)."""
    pieces = fill(["c1"] * 4)
    g = setup("f44", pieces, extra_hand=["imperial/knight", "imperial/bomb"])  # 2 discards
    g.s[STOCK] = 0
    g.refresh()
    play(g, "f44", 2)
    assert g.board() == board_with(pieces)
    finished(g, "f44", "high-form")
