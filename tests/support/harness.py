"""Helpers for scenario tests: build a position, list options, act, read the board back."""

import numpy as np

from core import constants as K
from core.kernel import play
from core.layout import CUR, DESTROYED, DISC, DISC_CAP, DISC_N, HAND, HAND_CAP, HAND_N, PHASE
from sim import game
from sim.content import load_content
from sim.games import batch, resolve_players
from sim.position import position_from_dict

CONTENT = load_content()
T = CONTENT.tables
EMPTY_BOARD = [
    "## ## .. .. .. .. .. ## ##",
    "## .. .. .. .. .. .. .. ##",
    ".. .. .. .. .. .. .. .. ..",
    ".. .. .. .. .. .. .. .. ..",
    ".. .. .. .. .. .. .. .. ..",
    ".. .. .. .. .. .. .. .. ..",
    ".. .. .. .. .. .. .. .. ..",
    "## .. .. .. .. .. .. .. ##",
    "## ## .. .. .. .. .. ## ##",
]


def player_rows(specs):
    """(player codes, parameter rows) of seat specs, resolved the one way (sim.games), for
    tests that call the engine's players directly."""
    players = resolve_players(specs)
    codes = np.array([players[s].code for s in specs], np.int32)
    return codes, np.array([players[s].params for s in specs], np.float64)


def play_named(mode, decks, specs, games, *, first=0, seed=11, checked=False, params=None, **kw):
    """``core.kernel.play`` of a batch of named seats (``params``: parameter rows replacing
    the resolved ones; ``kw``: play's keywords); checked games keep a 4000-row log."""
    b = batch(CONTENT, mode, decks, specs, seed)
    if params is not None:
        b = b._replace(params=np.ascontiguousarray(params, np.float64))
    kw.setdefault("ev_rows", 4000 if checked else 0)
    return play(b, first, games, checked=checked, **kw)


def planner_decision(s, row):
    """What the planner with parameter row ``row`` decides at ``s`` (a copy is advanced to
    its decision): (options, the row picked, that option, the game's random words after),
    for tests that change hidden cards and expect the same decision."""
    from core.layout import RNG

    g = game.Game(CONTENT, s.copy(), log_rows=0)
    g.advance()
    k = g.decide(K.POL_PLANNER, row)
    return g.n_options, k, tuple(g.option_rows[k]), tuple(g.state[RNG : RNG + 4])


def board_with(pieces):
    """EMPTY_BOARD with ``pieces`` ({(row, col): token}) put on empty squares."""
    rows = [line.split() for line in EMPTY_BOARD]
    for (r, c), tok in pieces.items():
        assert rows[r][c] == "..", (r, c)
        rows[r][c] = tok
    return [" ".join(r) for r in rows]


class Game(game.Game):
    """A position under test (sim.game ``Game``) built from test defaults: an empty board,
    High Form, Imperial against Highland, empty hands. ``s``, ``ev``, ``opts`` and ``n`` are
    the state row, the log, the option rows and their count, as the scenario tests name them;
    an option not listed fails as an assertion."""

    def __init__(
        self,
        board=None,
        mode="high-form",
        to_move=0,
        hands=((), ()),
        decks=("imperial", "highland"),
        turn=None,
    ):
        data = {
            "mode": mode,
            "to_move": to_move,
            "board": list(board or EMPTY_BOARD),
            "seat": [{"deck": d, "hand": list(h)} for d, h in zip(decks, hands, strict=True)],
        }
        if turn:
            data["turn"] = turn
        super().__init__(CONTENT, position_from_dict(data, CONTENT), log_rows=10_000)

    s = property(lambda g: g.state, lambda g, v: setattr(g, "state", v))
    ev = property(lambda g: g.log, lambda g, v: setattr(g, "log", v))
    opts = property(lambda g: g.option_rows, lambda g, v: setattr(g, "option_rows", v))
    n = property(lambda g: g.n_options, lambda g, v: setattr(g, "n_options", v))

    def refresh(self):
        """Run automatic steps; returns the pending options as tuples."""
        return self.advance()

    def act(self, kind, a=0, b=0, c=0):
        """Apply one option (it must be among the pending ones) and advance."""
        row = (kind, a, b, c)
        assert row in self.options(), f"{row} not among options {self.options()[:20]}..."
        return super().act(kind, a, b, c)

    def hand_slot(self, seat, card_id):
        assert card_id in self.hand(seat), f"{card_id} not in seat {seat}'s hand"
        return super().hand_slot(seat, card_id)


def sq(row, col):
    return row * 9 + col


def summon(g, card_id, target, pattern=None):
    """Summon ``card_id`` from the mover's hand onto ``target`` (a square number).

    ``pattern``: the set of squares of your pieces the pattern must use, when several
    orientations fit; otherwise exactly one orientation must fit.
    """
    from core.summon.patterns import pattern_squares

    seat = int(g.s[CUR])
    slot = g.hand_slot(seat, card_id)
    found = []
    for kind, a, b, c in g.options():
        if kind == K.OPT_SUMMON and a == slot and c == target:
            buf = np.zeros(16, np.int64)
            m = pattern_squares(T, b, c, buf)
            squares = {int(x) for x in buf[:m]}
            if pattern is None or squares == set(pattern):
                found.append(b)
    assert found, f"{card_id} cannot be summoned on {target}"
    assert len(found) == 1, f"{card_id} on {target}: several orientations fit, pass pattern="
    return g.act(K.OPT_SUMMON, slot, found[0], target)


def target(g, a, b=-1):
    """Choose the pending effect target (a, b); the alternative index is looked up."""
    for kind, x, y, alt in g.options():
        if kind == K.OPT_TARGET and x == a and y == b:
            return g.act(K.OPT_TARGET, x, y, alt)
    raise AssertionError(f"target {(a, b)} not among {g.options()[:30]}")


def skip(g):
    return g.act(K.OPT_SKIP, -1, -1, -1)


def targets(g):
    """The pending effect targets as (a, b) pairs (skip excluded)."""
    return sorted((x, y) for kind, x, y, _ in g.options() if kind == K.OPT_TARGET)


def destroyed(g, colour, rank):
    return int(g.s[DESTROYED + colour * 4 + rank])


def can_skip(g):
    return any(o[0] == K.OPT_SKIP for o in g.options())


def effect_over(g):
    return g.s[PHASE] == K.PH_ACTION


def discard_pile(g, seat=0):
    return [int(g.s[DISC + seat * DISC_CAP + k]) for k in range(g.s[DISC_N + seat])]


def events(g, kind):
    return [tuple(int(x) for x in r[2:]) for r in g.events() if r[0] == kind]


def at(*squares):
    """Square indices of (row, col) pairs."""
    return [sq(r, c) for r, c in squares]


def is_board(g, pieces):
    assert g.board() == board_with(pieces)


def hand(g, seat=0):
    """Card ids in the seat's hand, in slot order."""
    return [
        CONTENT.cards[int(g.s[HAND + seat * HAND_CAP + k])].id for k in range(g.s[HAND_N + seat])
    ]


def discards(g, seat=0):
    """Card ids in the seat's discard pile, bottom first."""
    return [CONTENT.cards[k].id for k in discard_pile(g, seat)]


def summon_key(o, t):
    """A summon as (target, its cells with their ranks): the same for every orientation
    index that puts the same cells on the board, so searches can be compared as sets."""
    cells = set()
    for k in range(T.or_ncells[o]):
        dr, dc, r = (int(x) for x in T.or_cells[o, k])
        cells.add(((t // 9 + dr) * 9 + t % 9 + dc, r))
    return t, frozenset(cells)
