"""One game driven from Python a decision at a time: the public step API over the engine's
state row (core.layout), so that tests, the golden playthroughs (sim.single_game
``play_stepwise``) and the oracles do not assemble the engine's buffers and calls
(``init_game``, ``advance``, ``apply_option``, ``choose``) by hand.

    g = Game.deal(content, "high-form", ["imperial", "highland"], seed=7)
    while not g.over:
        g.apply(g.decide(code, params))   # or g.act(kind, a, b, c): an option by value
    g.scores(), g.board(), g.events()

``Game.from_position`` starts from a position table (sim.position) and leaves the first
``advance()`` to the caller, so a test may edit ``g.state`` first. The views (``board``,
``scores``, ``hand`` of the seat to move, ``legal_moves``) read the state as the seats see it;
``check()`` runs the invariant checks (core.checks.invariants ``CHECKS``).
"""

import numpy as np

from core import constants as K
from core.checks.invariants import CHECKS, check_state
from core.layout import CONTROL, CUR, EV_N, HAND, HAND_CAP, HAND_N, SCORE, STATE_SIZE

LOG_ROWS = 50_000  # event rows a game keeps (the longest capped game logs far fewer)


class Game:
    """A game's state row with its event log and option buffer."""

    def __init__(self, content, state, log_rows: int = LOG_ROWS):
        """The game at ``state`` (used as is, not copied), with an empty log and no options
        listed yet (``advance`` lists them)."""
        self.content = content
        self.tables = content.tables
        self.state = state
        self.log = np.zeros((log_rows, K.EV_WIDTH), np.int32)
        self.option_rows = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
        self.n_options = 0
        self._workspace = None  # the lookahead players' buffers, made at the first decide()

    @classmethod
    def deal(
        cls,
        content,
        mode: str,
        decks,
        *,
        seed: int = 0,
        game_index: int = 0,
        turn_cap: int = K.DEFAULT_TURN_CAP,
        beings_without_effects: bool = False,
        log_rows: int = LOG_ROWS,
    ):
        """Game ``game_index`` of ``seed`` (the kernel's deal: seat ``game_index % n`` moves
        first), advanced to its first decision."""
        from core.kernel import seed_words
        from core.rules.setup import init_game

        g = cls(content, np.zeros(STATE_SIZE, np.int32), log_rows)
        codes = np.array([content.deck_index(d) for d in decks], np.int32)
        hi, lo = seed_words(int(seed))
        n, flag = len(codes), int(beings_without_effects)
        mode_code = K.MODE_NAMES.index(mode)
        init_game(
            g.state, g.tables, g.log, mode_code, n, codes, game_index % n, hi, lo,
            game_index, turn_cap, flag,
        )  # fmt: skip
        g.advance()
        return g

    @classmethod
    def from_position(cls, content, data, log_rows: int = LOG_ROWS):
        """The position of a position table (sim.position ``position_from_dict``; raises
        PositionError); call ``advance()`` to list its options."""
        from sim.position import position_from_dict

        return cls(content, position_from_dict(data, content), log_rows)

    # --- acting ---------------------------------------------------------------------------

    def advance(self) -> list:
        """Run the automatic steps up to the next decision; its options (``options()``)."""
        from core.rules.turn import advance

        self.n_options = int(advance(self.state, self.tables, self.log, self.option_rows))
        return self.options()

    def options(self) -> list:
        """The listed options as (kind, a, b, c) tuples (core.constants OPT_*)."""
        return [tuple(int(x) for x in row) for row in self.option_rows[: self.n_options]]

    @property
    def over(self) -> bool:
        """No decision is left (after ``advance``): the game has ended."""
        return self.n_options == 0

    def apply(self, k: int) -> list:
        """Take listed option ``k`` and advance; the next options."""
        from core.rules.turn import apply_option

        if not 0 <= k < self.n_options:
            raise IndexError(f"option {k} of {self.n_options}")
        kind, a, b, c = self.option_rows[k]
        apply_option(self.state, self.tables, self.log, kind, a, b, c)
        return self.advance()

    def act(self, kind: int, a: int = 0, b: int = 0, c: int = 0) -> list:
        """Take the option (kind, a, b, c), which must be listed, and advance."""
        row = (kind, a, b, c)
        listed = self.options()
        if row not in listed:
            raise ValueError(f"{row} not among the options {listed[:20]}...")
        return self.apply(listed.index(row))

    def decide(self, code: int, params) -> int:
        """The listed option that player ``code`` with parameter row ``params`` (sim.games
        ``resolve_players``) takes here; it draws from the game's random words."""
        from core.kernel import workspace
        from core.players.choose import choose

        if self._workspace is None:
            self._workspace = workspace()  # one per game: no plan carries over
        work, wopts, ev0, fwork = self._workspace
        s, T, opts, n = self.state, self.tables, self.option_rows, self.n_options
        return int(choose(s, T, opts, n, code, params, work, wopts, ev0, fwork))

    # --- views ----------------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return int(self.state[CUR])

    @property
    def deciding(self) -> int:
        """The seat deciding now (the teammate after a team pass)."""
        return int(self.state[CONTROL])

    def board(self) -> list:
        """The board as 9 lines of piece tokens (sim.render)."""
        from sim.render import board_lines

        return board_lines(self.state, self.tables)

    def scores(self) -> list:
        """Each seat's score (each team's in team play: one per piece colour)."""
        from core.rules.modes import n_colours

        return [int(self.state[SCORE + p]) for p in range(n_colours(self.state))]

    def hand(self, seat: int | None = None) -> list:
        """Card ids in a seat's hand, in slot order (default: the seat to move's, the hand
        its player sees)."""
        seat = self.to_move if seat is None else seat
        s, cards = self.state, self.content.cards
        return [cards[int(s[HAND + seat * HAND_CAP + k])].id for k in range(s[HAND_N + seat])]

    def hand_slot(self, seat: int, card_id: str) -> int:
        """The slot of ``card_id`` in the seat's hand (summon options name slots)."""
        hand = self.hand(seat)
        if card_id not in hand:
            raise ValueError(f"{card_id} not in seat {seat}'s hand")
        return hand.index(card_id)

    def legal_moves(self) -> dict:
        """The seat to move's actions as plain data (sim.position ``legal_moves``)."""
        from sim.position import legal_moves

        return legal_moves(self.state, self.content)

    def events(self):
        """The event rows logged so far (core.constants EV_*)."""
        return self.log[: self.state[EV_N]]

    def check(self, *names: str) -> int:
        """The first broken invariant (INV_* code; 0 when all hold): of every check, or of
        the named ones of ``CHECKS`` in the order given."""
        if not names:
            return int(check_state(self.state, self.tables, self.log))
        codes = (int(CHECKS[name](self.state, self.tables, self.log)) for name in names)
        return next((c for c in codes if c), 0)
