"""Play one game from Python with its full event log, and turn the log into readable text.

The text log rebuilds the board from the events alone (every board change is an event), so
printing a game is also a check that the log is complete; tests compare the rebuilt board
with the engine's final board.
"""

from dataclasses import dataclass

import numpy as np

from core import constants as K
from core.kernel import play
from core.layout import EV_LOST, EV_N, MAX_PLAYERS, SCORE, SCORE_COLOR
from core.rows import R_ERROR
from sim.content import Content
from sim.game import LOG_ROWS, Game
from sim.games import batch, resolve_players
from sim.position import seat_colours
from sim.render import code_lines, event_text


@dataclass
class GameConfig:
    decks: list  # deck names, one per seat in turn order
    mode: str = "high-form"
    seed: int = 0
    game_index: int = 0
    policies: tuple = ("random", "random")
    turn_cap: int = K.DEFAULT_TURN_CAP
    beings_without_effects: bool = False

    def validate(self, content: Content):
        """By the spec's rules (sim.spec), named as `kalarite play`'s flags."""
        from sim.spec import FLAGS, SPEC, seat_problem
        from sim.study import StudyError

        for key, value in (("modes", self.mode), ("seed", self.seed), ("turn_cap", self.turn_cap)):
            SPEC[key].check(value, "play", StudyError, FLAGS)
        problem = seat_problem(self.mode, self.decks, self.policies, FLAGS)
        if problem:
            raise StudyError(problem)
        if len(self.policies) != len(self.decks):
            raise StudyError(
                f"need one policy per seat ({len(self.decks)}), got {len(self.policies)}"
            )
        resolve_players(self.policies)  # raises ValueError on an unknown or malformed policy
        content.require_playable(self.decks, self.beings_without_effects)


def _play_one(content: Content, cfg: GameConfig, checked: bool):
    """The game of ``cfg`` through ``core.kernel.play``, the seam every command shares, with
    the full log."""
    cfg.validate(content)
    b = batch(content, cfg.mode, cfg.decks, cfg.policies, cfg.seed)
    allow = cfg.beings_without_effects
    return play(b, cfg.game_index, 1, turn_cap=cfg.turn_cap, allow_no_effect=allow,
                ev_rows=LOG_ROWS, checked=checked)  # fmt: skip


def play_logged(content: Content, cfg: GameConfig):
    """Play one game; returns (final state row, event rows)."""
    out = _play_one(content, cfg, checked=False)
    s = out.state
    if s[EV_LOST]:
        raise RuntimeError("event log overflow")
    return s, out.log[: s[EV_N]].copy()


def play_checked(content: Content, cfg: GameConfig):
    """The same game with the invariant checker after every applied option (the kernel of
    `kalarite check`); returns (state, event rows, code): code 0 when every invariant held,
    else the first one broken (core.checks.invariants INV_*; the game stops there, so the
    state and log are those of the moment it broke) or an engine error (core.rows ERR_*)."""
    out = _play_one(content, cfg, checked=True)
    s = out.state
    return s, out.log[: min(int(s[EV_N]), LOG_ROWS)].copy(), int(out.rows[0, R_ERROR])


@dataclass(frozen=True)
class Decision:
    """One decision of a game played step by step: what the engine offered and what the
    seat's player took."""

    index: int  # decisions before this one
    seat: int  # the seat deciding (the teammate after a team pass)
    state: np.ndarray  # the engine's state row at the decision (a copy)
    options: np.ndarray  # the option rows the engine listed (a copy)
    chosen: int  # the row the player took
    logged: int  # event rows logged before the decision


def play_stepwise(content: Content, cfg: GameConfig, on_decision=None):
    """The same game driven from Python one decision at a time (sim.game ``Game``: deal,
    decide, apply); ``on_decision(Decision)`` sees every decision before its option is
    applied. Returns (final state row, event rows). The tests check it against
    ``play_logged``, the golden playthroughs print its decisions (tests/support/playthrough.py)."""
    cfg.validate(content)
    b = batch(content, cfg.mode, cfg.decks, cfg.policies, cfg.seed)
    g = Game.deal(
        content, cfg.mode, cfg.decks, seed=cfg.seed, game_index=cfg.game_index,
        turn_cap=cfg.turn_cap, beings_without_effects=cfg.beings_without_effects,
        log_rows=LOG_ROWS,
    )  # fmt: skip
    decisions = 0
    while not g.over:
        seat = g.deciding  # the teammate after a team pass
        before = g.state.copy() if on_decision is not None else None  # deciding draws
        pick = g.decide(b.policies[seat], b.params[seat])
        if on_decision is not None:
            listed = g.option_rows[: g.n_options].copy()
            logged = int(g.state[EV_N])
            on_decision(Decision(decisions, seat, before, listed, pick, logged))
        g.apply(pick)
        decisions += 1
    return g.state, g.events().copy()


def replay_board(events, tables, upto=None, colours=None) -> list[int]:
    """Rebuild the board from the events alone (``colours``: see ``seat_colours``; each seat
    its own colour by default)."""
    board = [0] * 81
    colours = colours or list(range(MAX_PLAYERS))
    for row in events[:upto]:
        _apply_event(board, row, tables, colours)
    return board


def _apply_event(board, row, tables, colours):
    """One event's change to the rebuilt board, as the event table says (core.constants
    EVENTS, BOARD_*)."""
    kind, _, seat, a, b, c = (int(x) for x in row)
    effect = K.EVENTS[kind].board
    if effect == K.BOARD_NONE:
        return
    if effect == K.BOARD_PLACE:
        board[a] = colours[seat] * 4 + b
    elif effect == K.BOARD_SUMMON:
        board[b] = colours[seat] * 4 + int(tables.card_rank[a])
    elif effect == K.BOARD_CLEAR:
        board[a] = 0
    elif effect == K.BOARD_SET:
        board[a] = b
    elif effect == K.BOARD_CONVERT:
        board[a] = c
    elif effect == K.BOARD_MOVE:
        board[a] = 0
        board[b] = c
    elif effect == K.BOARD_SWAP:
        board[a], board[b] = board[b], board[a]
    else:
        raise ValueError(f"event {K.EV_NAMES[kind]!r}: unknown board effect {effect!r}")


def _board_text(board, tables):
    return ["    " + line for line in code_lines(board, tables)]


def header_lines(cfg: GameConfig) -> list:
    """The first lines of a game's log: mode, seats, seed, game; teams; the escape hatch."""
    seats = ", ".join(f"seat {p} = {d}" for p, d in enumerate(cfg.decks))
    lines = [f"kalarite game: {cfg.mode}, {seats}, seed {cfg.seed}, game {cfg.game_index}"]
    if cfg.mode in K.TEAM_MODE_NAMES:
        lines.append("teams: 0 = seats 0 and 2, 1 = seats 1 and 3 (pieces: colour 0 / 1)")
    if cfg.beings_without_effects:
        lines.append("NOTE: beings without an implemented effect were played with no effect")
    return lines


def format_game(content: Content, cfg: GameConfig, s, events) -> str:
    """The turn-by-turn log: events of each turn, then the board and the scores."""
    T = content.tables
    colours = seat_colours(cfg.mode, len(cfg.decks))
    lines = header_lines(cfg)
    board = [0] * 81
    score = [[0] * MAX_PLAYERS for _ in range(MAX_PLAYERS)]  # [scorer][column]
    in_turn = False
    gateways = {}  # Nethervoid: seat -> square of its Gateway, followed through the log
    for row in events:
        kind, _, seat, a, b, c = (int(x) for x in row)
        if kind in (K.EV_TURN, K.EV_END) and in_turn:
            lines.extend(_board_text(board, T))
            if gateways:
                lines.append("    " + gateway_text(gateways))
            lines.append("    score: " + _score_text(cfg, board, score))
        _apply_event(board, row, T, colours)
        follow_gateways(gateways, kind, seat, a, b)
        if kind == K.EV_SCORE:
            score[seat][c] += a
        if kind == K.EV_TURN:
            in_turn = True
            lines.append(event_text(row, content, cfg.mode, cfg.decks))
        elif kind == K.EV_END:
            lines.append(event_text(row, content, cfg.mode))
            lines.append("final score: " + score_text(cfg, s))
        elif kind != K.EV_DRAW:  # draws: many, and hidden from the other seats
            lines.append("  " + event_text(row, content, cfg.mode))
    return "\n".join(lines)


def follow_gateways(gateways, kind, seat, a, b):
    if kind == K.EV_GATEWAY:
        gateways[seat] = a
    elif kind == K.EV_GATEWAY_LOST:
        gateways.pop(seat, None)
    elif kind == K.EV_MOVE:
        for p, q in gateways.items():
            if q == a:
                gateways[p] = b
    elif kind == K.EV_SWAP:
        for p, q in gateways.items():
            gateways[p] = b if q == a else a if q == b else q
    elif kind == K.EV_CAPTURE:  # the Gateway goes into stasis with its piece (-2 - holder)
        for p, q in gateways.items():
            if q == a:
                gateways[p] = -2 - seat
    elif kind == K.EV_RELEASE:
        for p, q in gateways.items():
            if q == -2 - seat:
                gateways[p] = a


def gateway_text(gateways) -> str:
    """Where each seat's Gateway is ({seat: square, or -2 - holder while in stasis})."""
    return "gateway: " + ", ".join(
        f"seat {p} on [{q // 9},{q % 9}]" if q >= 0 else f"seat {p} held in stasis"
        for p, q in sorted(gateways.items())
    )


def score_text(cfg, s) -> str:
    """The scores of state row ``s`` (melee: each seat's score and its columns)."""
    n = len(cfg.decks)
    if cfg.mode in K.TEAM_MODE_NAMES:
        return ", ".join(f"team {t} {int(s[SCORE + t])}" for t in range(2))
    if cfg.mode == "melee":
        return ", ".join(
            f"seat {p} {int(s[SCORE + p])} (columns "
            + " ".join(
                f"{c}:{int(s[SCORE_COLOR + p * MAX_PLAYERS + c])}" for c in range(n) if c != p
            )
            + ")"
            for p in range(n)
        )
    return ", ".join(f"seat {p} {int(s[SCORE + p])}" for p in range(n))


def _score_text(cfg, board, score) -> str:
    """Scores so far from the events (High Form rules add the legendary pieces on the
    board); melee shows each seat's lowest column and the columns."""
    n = len(cfg.decks)
    if cfg.mode == "melee":
        parts = []
        for p in range(n):
            cols = {c: score[p][c] for c in range(n) if c != p}
            text = " ".join(f"{c}:{v}" for c, v in cols.items())
            parts.append(f"seat {p} {min(cols.values())} ({text})")
        return ", ".join(parts)
    team = cfg.mode in K.TEAM_MODE_NAMES
    who = [(f"team {t}", t) for t in range(2)] if team else [(f"seat {p}", p) for p in range(n)]
    tasks_rules = cfg.mode in K.TASK_MODE_NAMES
    out = []
    for name, colour in who:
        pts = score[colour][0]
        if tasks_rules:
            pts += sum(1 for x in board if x and x >> 2 == colour and x & 3 == K.LEGENDARY)
        out.append(f"{name} {pts}")
    return ", ".join(out)
