"""Mechanic telemetry (games table, per seat): thaws, warps, a pending being at the end and
the turn ends at which a Gateway is held. Scenarios set up a position, act, and read the
counters and the result row the kernel records; whole checked games then show the counters
agree with the log (the invariant checker) and that nothing else in a game changes.

Rules sources: a thaw resolves the stored frozen effect at no action cost (Everfrost rules
insert; BGA playFrozenEffect), a warp is played from the hand and leaves the card pending
(Etherweave rules insert; BGA playWarp), the Gateway is a piece of the seat's colour that
carries the mark (Nethervoid rules insert).
"""

import numpy as np

from core import constants as K
from core.checks.invariants import CHECKS, INV_MECHANICS, INV_OK
from core.kernel import R_ERROR, R_SEAT, R_SEAT_WIDTH, R_WIDTH, record_game
from core.layout import (
    CUR,
    FROZEN,
    GATEWAY,
    N_GATEWAY_TURNS,
    N_THAWS,
    N_WARPS,
    PENDING,
)
from core.rows import S_GATEWAY_TURNS, S_PENDING_END, S_THAWS, S_WARPS, SEAT_COLUMNS
from core.rules.turn import game_over
from tests.support.harness import CONTENT, Game, T, board_with, play_named, sq, target

PRINCESS = "everfrost/ice-princess"
TRANS = "etherweave/translocationist"


def card(cid):
    return CONTENT.card_index(cid)


def seat_row(s, n_players=2):
    out = np.zeros((1, R_WIDTH), np.int32)
    record_game(out, 0, s, T, n_players, 0)
    return [
        {c: int(out[0, R_SEAT + p * R_SEAT_WIDTH + k]) for k, c in enumerate(SEAT_COLUMNS)}
        for p in range(n_players)
    ]


def mech(row):
    return [row[c] for c in ("thaws", "warps", "pending_at_end", "gateway_turns")]


def test_a_thaw_counts_once_for_the_seat_that_thaws():
    g = Game(
        board=board_with({(5, 4): "c0", (2, 2): "c1"}),
        hands=([], []),
        decks=("everfrost", "imperial"),
    )
    g.s[FROZEN] = card(PRINCESS)
    g.refresh()
    assert [int(g.s[N_THAWS + p]) for p in range(2)] == [0, 0]
    g.act(K.OPT_THAW, 0, 0, 0)
    target(g, sq(5, 4), sq(6, 4))  # the Princess's frozen standard step
    assert [int(g.s[N_THAWS + p]) for p in range(2)] == [1, 0]
    assert CHECKS["mechanic_counters"](g.s, T, g.events()) == INV_OK
    rows = seat_row(g.s)
    assert mech(rows[0]) == [1, 0, 0, 0] and mech(rows[1]) == [0, 0, 0, 0]


def test_a_warp_counts_and_a_pending_being_at_the_end_is_recorded():
    g = Game(board=board_with({}), hands=([TRANS], []), decks=("etherweave", "imperial"))
    g.refresh()
    g.act(K.OPT_WARP, g.hand_slot(0, TRANS), 0, 0)  # its warp: gain an action
    assert int(g.s[N_WARPS]) == 1 and int(g.s[PENDING]) == card(TRANS)
    assert CHECKS["mechanic_counters"](g.s, T, g.events()) == INV_OK
    game_over(g.s, T, g.ev, 0)  # the pending being stays: -2 points, pending at the end
    rows = seat_row(g.s)
    assert mech(rows[0]) == [0, 1, 1, 0] and mech(rows[1]) == [0, 0, 0, 0]
    g.s[PENDING] = -1
    assert seat_row(g.s)[0]["pending_at_end"] == 0


def test_a_turn_end_holding_a_gateway_counts_one_gateway_turn():
    g = Game(
        board=board_with({(4, 4): "h0", (2, 2): "c1"}),
        hands=([], []),
        decks=("nethervoid", "imperial"),
        mode="deathmatch",
    )
    g.s[GATEWAY] = sq(4, 4)
    g.refresh()
    for _ in range(2):  # two placements away from the Gateway use both actions
        g.act(*[o for o in g.options() if o[0] == K.OPT_PLACE and o[1] not in (sq(4, 4),)][0])
    if int(g.s[CUR]) == 0:
        g.act(K.OPT_END_TURN)
    assert int(g.s[CUR]) == 1 and int(g.s[GATEWAY]) == sq(4, 4)  # the turn ended
    assert [int(g.s[N_GATEWAY_TURNS + p]) for p in range(2)] == [1, 0]
    assert seat_row(g.s)[0]["gateway_turns"] == 1
    assert CHECKS["mechanic_counters"](g.s, T, g.events()) == INV_OK


def test_the_checker_sees_a_counter_that_disagrees_with_the_log():
    g = Game(board=board_with({}), hands=([TRANS], []), decks=("etherweave", "imperial"))
    g.refresh()
    g.act(K.OPT_WARP, g.hand_slot(0, TRANS), 0, 0)
    g.s[N_WARPS] = 2
    assert CHECKS["mechanic_counters"](g.s, T, g.events()) == INV_MECHANICS
    g.s[N_WARPS] = 1
    g.s[N_THAWS + 1] = 1
    assert CHECKS["mechanic_counters"](g.s, T, g.events()) == INV_MECHANICS


def _games(mode, decks, specs, n, seed=5):
    return play_named(mode, decks, specs, n, seed=seed, checked=True).rows


def _col(rows, seat, k):
    return rows[:, R_SEAT + seat * R_SEAT_WIDTH + k]


def test_whole_games_use_each_mechanic_and_the_checker_agrees():
    """Random players in checked games (the counters are compared with the log after every
    option): each expansion deck's mechanic is used, and the other decks never use it."""
    for mode in ("high-form", "deathmatch"):
        ef = _games(mode, ("everfrost", "imperial"), ["random", "random"], 6)
        ew = _games(mode, ("sylvan", "etherweave"), ["random", "random"], 6)
        nv = _games(mode, ("nethervoid", "highland"), ["random", "random"], 6)
        for rows in (ef, ew, nv):
            assert (rows[:, R_ERROR] == 0).all(), rows[:, R_ERROR]
        assert _col(ef, 0, S_THAWS).sum() > 0 and _col(ef, 1, S_THAWS).sum() == 0
        assert _col(ew, 1, S_WARPS).sum() > 0 and _col(ew, 0, S_WARPS).sum() == 0
        assert set(_col(ew, 1, S_PENDING_END)) <= {0, 1}
        assert _col(ew, 0, S_PENDING_END).sum() == 0
        assert _col(nv, 0, S_GATEWAY_TURNS).sum() > 0 and _col(nv, 1, S_GATEWAY_TURNS).sum() == 0
        turns = nv[:, 3]  # R_TURNS: every turn of both seats
        assert (_col(nv, 0, S_GATEWAY_TURNS) <= turns).all()


def test_card_events_name_the_card_thawed_or_warped():
    """The card_events rows ``thawed`` and ``warped`` (one per thaw or warp, naming the card
    whose frozen or warp program ran) agree with the seat counters in every game, and name
    only cards with such a program: how `kalarite suggest` sees that an edited frozen or warp
    program ran."""
    from core.rows import CE_THAWED, CE_WARPED

    for decks, what, flag, col in (
        (("everfrost", "imperial"), CE_THAWED, T.card_has_frozen, S_THAWS),
        (("sylvan", "etherweave"), CE_WARPED, T.card_has_warp, S_WARPS),
    ):
        out = play_named("high-form", decks, ["random", "random"], 12, seed=9, ev_rows=4000)
        rows, cev = out.rows, out.card_events
        ev = cev[cev[:, 3] == what]
        assert len(ev) > 0 and len(ev) == sum(_col(rows, s, col).sum() for s in (0, 1))
        for g in range(len(rows)):
            for s in (0, 1):
                mine = ev[(ev[:, 0] == g) & (ev[:, 1] == s)]
                assert len(mine) == _col(rows, s, col)[g]
        assert all(flag[c] for c in ev[:, 2])
