"""Play one game from Python with its full event log, and turn the log into readable text.

The text log rebuilds the board from the events alone (every board change is an event), so
printing a game is also a check that the log is complete; tests compare the rebuilt board
with the engine's final board.
"""

from dataclasses import dataclass

import numpy as np

from core import constants as K
from core.kernel import play_games, play_games_checked, workspace
from core.layout import CONTROL, EV_LOST, EV_N, MAX_PLAYERS, SCORE, SCORE_COLOR, STATE_SIZE
from core.players.choose import choose
from core.rows import R_ERROR
from core.rules.setup import init_game
from core.rules.turn import advance, apply_option
from sim.content import Content
from sim.players import policy_codes, policy_params
from sim.render import code_lines, event_text

LOG_ROWS = 50_000
DEFAULT_TURN_CAP = 200


@dataclass
class GameConfig:
    decks: list  # deck names, one per seat in turn order
    mode: str = "high-form"
    seed: int = 0
    game_index: int = 0
    policies: tuple = ("random", "random")
    turn_cap: int = DEFAULT_TURN_CAP
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
        policy_params(self.policies)  # raises ValueError on an unknown or malformed policy
        content.require_playable(self.decks, self.beings_without_effects)


def split_seed(seed: int) -> tuple[int, int]:
    return (seed >> 32) & 0xFFFFFFFF, seed & 0xFFFFFFFF


def _kernel_args(content: Content, cfg: GameConfig) -> tuple:
    decks = np.array([content.deck_index(d) for d in cfg.decks], np.int32)
    hi, lo = split_seed(cfg.seed)
    mode = K.MODE_NAMES.index(cfg.mode)
    pols, params = policy_codes(cfg.policies), policy_params(cfg.policies)
    return content.tables, mode, len(cfg.decks), decks, pols, params, hi, lo


def play_logged(content: Content, cfg: GameConfig):
    """Play one game; returns (final state row, event rows). Runs in ``play_games``, the
    kernel every command shares (core.kernel)."""
    cfg.validate(content)
    args = _kernel_args(content, cfg)
    flag = int(cfg.beings_without_effects)
    out = play_games(*args, cfg.game_index, 1, cfg.turn_cap, flag, LOG_ROWS, 0)
    s, ev = out[3], out[4]
    if s[EV_LOST]:
        raise RuntimeError("event log overflow")
    return s, ev[: s[EV_N]].copy()


def play_checked(content: Content, cfg: GameConfig):
    """The same game with the invariant checker after every applied option (the kernel of
    `kalarite check`); returns (state, event rows, code): code 0 when every invariant held,
    else the first one broken (core.checks.invariants INV_*; the game stops there, so the
    state and log are those of the moment it broke) or an engine error (core.rows ERR_*)."""
    cfg.validate(content)
    args = _kernel_args(content, cfg)
    flag = int(cfg.beings_without_effects)
    out = play_games_checked(*args, cfg.game_index, 1, cfg.turn_cap, flag, LOG_ROWS)
    s, ev = out[3], out[4]
    return s, ev[: min(int(s[EV_N]), LOG_ROWS)].copy(), int(out[0][0, R_ERROR])


def play_stepwise(content: Content, cfg: GameConfig):
    """The same game driven from Python one decision at a time (init_game, advance,
    choose, apply_option): the tests check it against ``play_logged``."""
    cfg.validate(content)
    T, mode, n, decks, pols, params, hi, lo = _kernel_args(content, cfg)
    s = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((LOG_ROWS, K.EV_WIDTH), np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    work, wopts, ev0, fwork = workspace()  # a fresh one per game: no plan carries over
    flag = int(cfg.beings_without_effects)
    first = cfg.game_index % n
    init_game(s, T, ev, mode, n, decks, first, hi, lo, cfg.game_index, cfg.turn_cap, flag)
    k = advance(s, T, ev, opts)
    while k > 0:
        seat = s[CONTROL]  # the teammate after a team pass
        pick = choose(s, T, opts, k, pols[seat], params[seat], work, wopts, ev0, fwork)
        apply_option(s, T, ev, opts[pick, 0], opts[pick, 1], opts[pick, 2], opts[pick, 3])
        k = advance(s, T, ev, opts)
    return s, ev[: s[EV_N]].copy()


def seat_colours(mode: str, n_players: int) -> list[int]:
    """Piece colour of each seat: teammates share one in team play."""
    team = mode in K.TEAM_MODE_NAMES
    return [p % 2 if team else p for p in range(n_players)]


def replay_board(events, tables, upto=None, colours=None) -> list[int]:
    """Rebuild the board from the events alone (``colours``: see ``seat_colours``; each seat
    its own colour by default)."""
    board = [0] * 81
    colours = colours or list(range(MAX_PLAYERS))
    for row in events[:upto]:
        _apply_event(board, row, tables, colours)
    return board


def _apply_event(board, row, tables, colours):
    kind, _, seat, a, b, c = (int(x) for x in row)
    if kind == K.EV_PLACE:
        board[a] = colours[seat] * 4 + K.COMMON
    elif kind == K.EV_SUMMON:
        board[b] = colours[seat] * 4 + int(tables.card_rank[a])
    elif kind in (K.EV_DESTROY, K.EV_PICKUP):
        board[a] = 0
    elif kind in (K.EV_UPGRADE, K.EV_DOWNGRADE, K.EV_SETUP_PIECE, K.EV_EFFECT_PLACE):
        board[a] = b
    elif kind == K.EV_CONVERT:
        board[a] = c
    elif kind == K.EV_MOVE:
        board[a] = 0
        board[b] = c


def _board_text(board, tables):
    return ["    " + line for line in code_lines(board, tables)]


def format_game(content: Content, cfg: GameConfig, s, events) -> str:
    """The turn-by-turn log: events of each turn, then the board and the scores."""
    T = content.tables
    n = len(cfg.decks)
    colours = seat_colours(cfg.mode, n)
    seats = ", ".join(f"seat {p} = {d}" for p, d in enumerate(cfg.decks))
    lines = [f"kalarite game: {cfg.mode}, {seats}, seed {cfg.seed}, game {cfg.game_index}"]
    if cfg.mode in K.TEAM_MODE_NAMES:
        lines.append("teams: 0 = seats 0 and 2, 1 = seats 1 and 3 (pieces: colour 0 / 1)")
    if cfg.beings_without_effects:
        lines.append("NOTE: beings without an implemented effect were played with no effect")
    board = [0] * 81
    score = [[0] * MAX_PLAYERS for _ in range(MAX_PLAYERS)]  # [scorer][column]
    in_turn = False
    gateways = {}  # Nethervoid: seat -> square of its Gateway, followed through the log
    for row in events:
        kind, turn, seat, a, b, c = (int(x) for x in row)
        if kind in (K.EV_TURN, K.EV_END) and in_turn:
            lines.extend(_board_text(board, T))
            if gateways:
                lines.append("    " + _gateway_text(gateways))
            lines.append("    score: " + _score_text(cfg, board, score))
        _apply_event(board, row, T, colours)
        _follow_gateways(gateways, kind, seat, a, b)
        if kind == K.EV_SCORE:
            score[seat][c] += a
        if kind == K.EV_TURN:
            in_turn = True
            extra = " (extra turn)" if b else ""
            lines.append(f"Turn {turn}: seat {seat} ({cfg.decks[seat]}), {a} action(s){extra}")
        elif kind == K.EV_END:
            lines.append(event_text(row, content, cfg.mode))
            lines.append("final score: " + _final_text(cfg, s))
        elif kind != K.EV_DRAW:
            text = event_text(row, content, cfg.mode)
            if text:
                lines.append("  " + text)
    return "\n".join(lines)


def _follow_gateways(gateways, kind, seat, a, b):
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


def _gateway_text(gateways) -> str:
    return "gateway: " + ", ".join(
        f"seat {p} on [{q // 9},{q % 9}]" if q >= 0 else f"seat {p} held in stasis"
        for p, q in sorted(gateways.items())
    )


def _final_text(cfg, s) -> str:
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
