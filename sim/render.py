"""Text for people: the board as a 9x9 grid of tokens, and one line per logged event.

The board format is the same one position files use: `..` empty, `##` void, otherwise rank
letter (c, h, l) + seat digit.
"""

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


def event_text(row, content, mode: str = "high-form") -> str | None:
    """One readable line for a logged event, or None for bookkeeping-only events.

    Pieces are named by colour (c0, h1...): in team play teammates share colour 0 or 1."""
    kind, turn, seat, a, b, c = (int(x) for x in row)
    cards = content.cards
    team = mode in K.TEAM_MODE_NAMES
    who = f"seat {seat}"
    if kind == K.EV_PLACE:
        return f"{who} places a common piece on {square_name(a)}"
    if kind == K.EV_SUMMON:
        return f"{who} summons {cards[a].name} ({cards[a].id}) on {square_name(b)}"
    if kind == K.EV_DISCARD:
        return f"{who} discards {cards[a].name}"
    if kind == K.EV_RETURN:
        return f"{who} returns {cards[a].name} to the bottom of its deck"
    if kind == K.EV_FLARE:
        halves = {1: "upper half", 2: "lower half", 3: "both halves"}[c]
        against = f"team {b}" if team else f"seat {b}"
        return f"{who} plays {cards[a].name} against {against} ({halves})"
    if kind == K.EV_CLAIM:
        return f"{who} claims task {content.task_names[a]} (+{b})"
    if kind == K.EV_DESTROY:
        return f"{who} destroys {piece_token(b)} on {square_name(a)}"
    if kind == K.EV_UPGRADE:
        return f"{who} upgrades {square_name(a)} to {piece_token(b)}"
    if kind == K.EV_DOWNGRADE:
        return f"{who} downgrades {square_name(a)} to {piece_token(b)}"
    if kind == K.EV_CONVERT:
        return f"{who} converts {piece_token(b)} on {square_name(a)} into {piece_token(c)}"
    if kind == K.EV_MOVE:
        return f"{who} moves {piece_token(c)} {square_name(a)} -> {square_name(b)}"
    if kind == K.EV_PICKUP:
        return f"{who} picks up {piece_token(b)} from {square_name(a)} (out of stock)"
    if kind == K.EV_SCORE:
        reason = (
            "task", "destruction", "legend summoned", "flare played against",
            "causality penalty: a pending being at the end",
        )[b]  # fmt: skip
        if team:
            return f"team {seat} scores {a} ({reason})"
        if mode == "melee":
            return f"{who} scores {a} in colour {c}'s column ({reason})"
        return f"{who} scores {a} ({reason})"
    if kind == K.EV_IMPROVISE:
        return f"{who} improvises with a piece of colour {a} (its one improvisation with it)"
    if kind == K.EV_PASS:
        return f"{who} passes control to teammate seat {a}"
    if kind == K.EV_HAND_OVER:
        return f"{who} hands {cards[a].name} to teammate seat {b}"
    if kind == K.EV_GAIN_ACTION:
        return f"{who} gains {a} action(s)"
    if kind == K.EV_SKIP:
        return f"{who} skips an optional part of {cards[a].name}"
    if kind in (K.EV_SETUP_PIECE, K.EV_EFFECT_PLACE):
        return f"{who} puts {piece_token(b)} on {square_name(a)}"
    if kind == K.EV_FROZEN:
        return f"{who} stores {cards[a].name} as its frozen effect"
    if kind == K.EV_KEEP_FROZEN:
        return f"{who} keeps {cards[a].name} frozen and discards {cards[b].name}"
    if kind == K.EV_THAW:
        return f"{who} thaws the frozen effect of {cards[a].name}"
    if kind == K.EV_REMOVED:
        return f"{piece_token(b)} from {square_name(a)} is removed from the game"
    if kind == K.EV_LOSE_ACTION:
        other = "team" if team else "player"
        return f"every other {other} starts its next turn with one action less"
    if kind == K.EV_DISCARD_FLARE:
        return f"{who} discards {cards[a].name} (effect)"
    if kind == K.EV_GATEWAY:
        return f"{who}'s Gateway is now {piece_token(b)} on {square_name(a)}"
    if kind == K.EV_GATEWAY_LOST:
        if a < 0:
            return f"{who}'s Gateway, held in stasis, is gone (its piece went back to stock)"
        return f"{who}'s Gateway on {square_name(a)} is gone"
    if kind == K.EV_LOSE_OWN_ACTION:
        return f"{who} spends an action doing nothing ({a} left)"
    if kind == K.EV_CARD_TO_BOTTOM:
        return f"{who} puts {cards[a].name} under its deck"
    if kind == K.EV_POSSESS:
        return f"{who}'s next summon this turn uses colour {a}'s pieces"
    if kind == K.EV_WARP:
        return f"{who} plays the warp effect of {cards[a].name} (now its pending being)"
    if kind == K.EV_SWAP:
        return f"{who} swaps the pieces on {square_name(a)} and {square_name(b)}"
    if kind == K.EV_DISCARD_PENDING:
        return f"{who} discards its pending being {cards[a].name}"
    if kind == K.EV_RETURN_PENDING:
        return f"{who}'s {cards[a].name} is no longer pending (back in hand)"
    if kind == K.EV_EFFECT_DISCARD:
        return f"{who} discards {cards[a].name} from its hand (effect)"
    if kind == K.EV_VOID_SUMMON:
        return f"{who}'s next summon this turn may count {a} empty square(s) as its commons"
    if kind == K.EV_TOP_CARD_TO_DECK:
        return f"{who} puts {cards[a].name} from its discard pile on top of its deck"
    if kind == K.EV_EXTRA_COUNT:
        return f"{who}: each piece destroyed this turn counts {a} more"
    if kind == K.EV_COPY_WARP:
        return f"{who}'s {cards[b].name} copies the warp effect of {cards[a].name}"
    if kind == K.EV_CAPTURE:
        return f"{who} takes {piece_token(b)} from {square_name(a)} into stasis"
    if kind == K.EV_RELEASE:
        return f"{piece_token(b)} comes back from stasis onto {square_name(a)}"
    if kind == K.EV_STASIS_BACK:
        return f"{piece_token(a)} held in stasis cannot come back: it returns to its stock"
    if kind == K.EV_DISCARD_LEGEND:
        return f"{who} discards {cards[a].name} (effect)"
    if kind == K.EV_SELECT_SQUARE:
        return f"{who} chooses the empty square {square_name(a)}"
    if kind == K.EV_LEGEND_SUMMONED:
        return f"{who} counts as summoning a legend on {square_name(a)}"
    if kind == K.EV_CARD_TO_FROZEN:
        old = f", discarding {cards[b].name}" if b >= 0 else ""
        return f"{who} takes {cards[a].name} from its discard pile as its frozen effect{old}"
    if kind == K.EV_END_TRIGGER:
        return f"end triggered by {who}: " + _end_trigger_text(mode, seat, a, b, c)
    if kind == K.EV_END:
        winner = "shared" if b < 0 else f"team {b} wins" if team else f"seat {b} wins"
        return f"game over ({K.END_NAMES[a]}): {winner}"
    return None


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
