"""Text for people: the board as a 9x9 grid of tokens, and one line per logged event.

The board format is the same one position files use: `..` empty, `##` void, otherwise rank
letter (c, h, l) + seat digit.
"""

import string

from core import constants as K
from core.layout import BOARD, NSQ
from core.rules.scoring import target_score


def square_name(sq: int) -> str:
    return f"[{sq // 9},{sq % 9}]"


def piece_token(code: int) -> str:
    return f"{K.RANK_LETTERS[code & 3]}{code >> 2}"


def board_lines(s, tables) -> list[str]:
    """The board of state row ``s``."""
    return code_lines(s[BOARD : BOARD + NSQ], tables)


def code_lines(codes, tables) -> list[str]:
    """9 lines of 9 tokens from the 81 piece codes of a board."""
    lines = []
    for r in range(9):
        toks = []
        for c in range(9):
            sq = r * 9 + c
            code = int(codes[sq])
            toks.append("##" if tables.sq_color[sq] < 0 else piece_token(code) if code else "..")
        lines.append(" ".join(toks))
    return lines


def board_from_lines(lines, tables, n_players) -> list[int]:
    """Parse 9 lines of 9 tokens into piece codes; raises ValueError with the bad token."""
    if len(lines) != 9:
        raise ValueError(f"board must have 9 lines, found {len(lines)}")
    codes = [0] * NSQ
    for r, line in enumerate(lines):
        toks = line.split()
        if len(toks) != 9:
            raise ValueError(f"board line {r} must have 9 tokens, found {len(toks)}")
        for c, tok in enumerate(toks):
            sq = r * 9 + c
            void = tables.sq_color[sq] < 0
            if tok == "##":
                if not void:
                    raise ValueError(f"board [{r},{c}]: '##' on a playable square")
                continue
            if void:
                raise ValueError(f"board [{r},{c}]: this corner square is void, write '##'")
            if tok == "..":
                continue
            if len(tok) != 2 or tok[0] not in "chl" or tok[1] not in "0123456789":
                raise ValueError(f"board [{r},{c}]: unknown token {tok!r}")
            seat = int(tok[1])
            if seat >= n_players:
                raise ValueError(f"board [{r},{c}]: seat {seat} is not playing")
            codes[sq] = seat * 4 + K.RANK_LETTERS.index(tok[0])
    return codes


SCORE_REASONS = (
    "task",
    "destruction",
    "legend summoned",
    "flare played against",
    "causality penalty: a pending being at the end",
)  # EV_SCORE's b (core.constants SR_*)
HALVES = {1: "upper half", 2: "lower half", 3: "both halves"}  # EV_FLARE's c


def event_text(row, content, mode: str = "high-form", decks=None) -> str:
    """One readable line for a logged event: its template in the event table
    (core.constants EVENTS) with the fields below filled from the row (kind, turn, seat, a,
    b, c). ``decks``: the seats' deck names, for the turn line.

    Pieces are named by colour (c0, h1...): in team play teammates share colour 0 or 1."""
    kind = int(row[0])
    template = K.EVENTS[kind].text
    fields = _FIELDS_USED.get(kind)
    if fields is None:
        fields = _FIELDS_USED[kind] = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    ctx = _Row(row, content, mode, decks)
    return template.format(**{f: _FIELDS[f](ctx) for f in fields})


class _Row:
    """What a field of an event text is computed from."""

    def __init__(self, row, content, mode, decks):
        self.kind, self.turn, self.seat, self.a, self.b, self.c = (int(x) for x in row)
        self.content = content
        self.mode = mode
        self.team = mode in K.TEAM_MODE_NAMES
        self.decks = decks


def _card(i):
    return lambda r: r.content.cards[getattr(r, i)].name


def _side(i):
    """A seat, or its team in team play."""
    return lambda r: f"{'team' if r.team else 'seat'} {getattr(r, i)}"


def _winner(r) -> str:
    if r.b < 0:
        return "shared"
    return f"{'team' if r.team else 'seat'} {r.b} wins"


# The fields an event text may use. a, b and c are the row's values; _a / _b / _c name the
# value a field is made from.
_FIELDS = {
    "turn": lambda r: r.turn,
    "a": lambda r: r.a,
    "b": lambda r: r.b,
    "c": lambda r: r.c,
    "who": lambda r: f"seat {r.seat}",
    "side": _side("seat"),  # the scorer: "team N" in team play
    "side_b": _side("b"),
    "deck": lambda r: f" ({r.decks[r.seat]})" if r.decks else "",
    "extra_turn": lambda r: " (extra turn)" if r.b else "",
    "sq_a": lambda r: square_name(r.a),
    "sq_b": lambda r: square_name(r.b),
    "piece_a": lambda r: piece_token(r.a),
    "piece_b": lambda r: piece_token(r.b),
    "piece_c": lambda r: piece_token(r.c),
    "card_a": _card("a"),
    "card_b": _card("b"),
    "card_a_id": lambda r: r.content.cards[r.a].id,
    "task_a": lambda r: r.content.task_names[r.a],
    "halves_c": lambda r: HALVES[r.c],
    "score_reason_b": lambda r: SCORE_REASONS[r.b],
    "column_c": lambda r: f" in colour {r.c}'s column" if r.mode == "melee" else "",
    "others": lambda r: "team" if r.team else "player",
    "end_reason_a": lambda r: K.END_NAMES[r.a],
    "winner_b": _winner,
    "end_trigger": lambda r: _end_trigger_text(r.mode, r.seat, r.a, r.b, r.c),
    "discarding_b": lambda r: f", discarding {r.content.cards[r.b].name}" if r.b >= 0 else "",
    "gateway_where_a": lambda r: ", held in stasis," if r.a < 0 else f" on {square_name(r.a)}",
    "gateway_stock_a": lambda r: " (its piece went back to stock)" if r.a < 0 else "",
}
_FIELDS_USED = {}  # event code -> the fields its template uses


def _end_trigger_text(mode: str, seat: int, reason: int, reacher: int, n_seats: int) -> str:
    """Why the end was triggered and who still plays (every seat one more turn, the
    triggering seat last; none under the new-player rules)."""
    team = mode in K.TEAM_MODE_NAMES
    if reason == K.END_SCORE:
        target = target_score(K.MODE_NAMES.index(mode), n_seats)
        if mode == "melee":
            why = f"seat {reacher} reached {target} points in a colour column"
        else:
            why = f"{'team' if team else 'seat'} {reacher} reached {target} points"
    elif team:
        why = "it drew the last card of its deck that is not turned sideways"
    else:
        why = "it drew the last card of its deck"
    if mode == "new-player":
        return why + "; no final round, the game ends now"
    order = [f"seat {(seat + k) % n_seats}" for k in range(1, n_seats + 1)]
    seats = ", ".join(order[:-1]) + f" and {order[-1]}"
    return f"{why}; final round: {seats} play one more turn each"
