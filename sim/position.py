"""Position files (TOML) -> a state row, and the `moves` query over it.

Format (documented in docs/cli.md): `mode`, `to_move`, one `[[seat]]` table per player with
`deck` and `hand` (card ids) (melee: optional `improvised`, the colours already improvised
with), `board` as 9 lines of 9 tokens (the digit is the piece colour: the seat, or the team
in team play), and an optional `[turn]` table with what already happened this turn (for the
turn-based High Form tasks).
"""

import numpy as np

from core import constants as K
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    COLOUR,
    CONTROL,
    CUR,
    DESTROYED,
    FIRST,
    FROZEN,
    GATEWAY,
    HAND,
    HAND_CAP,
    HAND_N,
    IMPRO_LEFT,
    LEG_TOTAL,
    LEGENDS_SUMMONED,
    LSTOCK,
    MODE,
    N_PLAYERS,
    PENDING,
    PHASE,
    POOL_TOTAL,
    SEAT_DECK,
    STASIS,
    STASIS_CARD,
    STATE_SIZE,
    STOCK,
    SUMMON_COLOUR,
    SUMMONED_GREEN,
    SUMMONED_N,
    SUMMONED_RED,
    TURN_CAP,
    TURN_NO,
    VOID_CELLS,
    WARP_OPEN,
)
from core.ops import I_OP, OP_CAPTURE
from core.rules.modes import has_tasks, n_colours
from core.rules.options import action_options, flare_halves
from core.rules.setup import blank_state, legendary_pool, pool_size
from core.rules.tasks import task_holds
from core.summon.patterns import pattern_squares
from sim import inputs
from sim.content import ContentError
from sim.render import board_from_lines, piece_token

MODES = {name: i for i, name in enumerate(K.MODE_NAMES)}
POSITION_TURN_CAP = 1_000  # a position may be played on; its own decks start empty
POSITION_KEYS = ("mode", "to_move", "board", "seat", "turn")
SEAT_KEYS = ("deck", "hand", "improvised", "frozen", "pending", "stasis", "gateway")
TURN_KEYS = ("possessed", "void-cells", "first-round", "destroyed", "summoned")
MAX_COUNT = 99  # a [turn] count of destroyed pieces (the state holds int32)


class PositionError(inputs.InputError):
    """A malformed position file."""


def _need(d, key, where):
    if key not in d:
        raise PositionError(f"{where}: missing {key!r}")
    return d[key]


def _known_keys(d, known, where):
    inputs.need_keys(d, (), known, where, PositionError, order=known)


def _content(lookup, key, where):
    """A deck or card look-up whose error names the place in the file."""
    if not isinstance(key, str):
        raise PositionError(f"{where}: a deck or card id must be a string, got {key!r}")
    try:
        return lookup(key)
    except ContentError as e:
        raise PositionError(f"{where}: {e}") from None


def seat_colours(mode: str, n_players: int) -> list[int]:
    """Piece colour of each seat: teammates share one in team play."""
    team = mode in K.TEAM_MODE_NAMES
    return [p % 2 if team else p for p in range(n_players)]


def mode_code(name: str) -> int:
    if not isinstance(name, str) or name not in MODES:
        raise PositionError(f"unknown mode {inputs.show(name)} (known: {', '.join(MODES)})")
    return MODES[name]


def load_position(path, content):
    """Parse a position file into a state row; raises PositionError / ContentError."""
    data = inputs.read_document(path, str(path), "TOML", PositionError)
    return position_from_dict(data, content, path)


def position_from_dict(data, content, path="position"):
    """Same as load_position for an already parsed table (tests build positions in code)."""
    T = content.tables
    if not isinstance(data, dict):
        raise PositionError(f"{path}: a position is a TOML table of keys")
    _known_keys(data, POSITION_KEYS, path)
    try:
        mode = mode_code(_need(data, "mode", path))
    except PositionError as e:
        msg = str(e)
        raise PositionError(msg if msg.startswith(f"{path}:") else f"{path}: {msg}") from None
    seats = _need(data, "seat", path)
    allowed = K.MODE_SEATS[mode]
    if not isinstance(seats, list) or len(seats) not in allowed:
        need = " or ".join(str(x) for x in allowed)
        raise PositionError(f"{path}: {K.MODE_NAMES[mode]} needs {need} [[seat]] tables")
    n = len(seats)
    to_move = _need(data, "to_move", path)
    inputs.need_int(
        to_move, f"{path}: to_move", 0, n - 1, PositionError, f"a seat index 0..{n - 1}"
    )
    for p, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise PositionError(f"{path}: seat {p} must be a [[seat]] table")
        _known_keys(seat, SEAT_KEYS, f"{path}: seat {p}")
    board = _need(data, "board", path)
    if not isinstance(board, list) or not all(isinstance(line, str) for line in board):
        raise PositionError(f"{path}: board must be a list of 9 strings of 9 tokens")
    s = np.zeros(STATE_SIZE, np.int32)
    blank_state(s)
    s[MODE], s[N_PLAYERS], s[CUR], s[FIRST] = mode, n, to_move, 0
    s[CONTROL] = to_move
    s[TURN_NO], s[ACTIONS_LEFT], s[PHASE] = 2, 2, K.PH_ACTION
    s[TURN_CAP] = POSITION_TURN_CAP
    s[COLOUR : COLOUR + n] = seat_colours(K.MODE_NAMES[mode], n)
    ncol = int(n_colours(s))
    try:
        codes = board_from_lines(board, T, ncol)
    except ValueError as e:
        raise PositionError(f"{path}: {e}") from None
    s[BOARD : BOARD + 81] = codes
    pool = pool_size(mode, n)
    leg_pool = legendary_pool(mode)
    for colour in range(ncol):
        where = f"{path}: colour {colour}"
        pieces = [x for x in codes if x and x >> 2 == colour]
        legends = sum(1 for x in pieces if x & 3 == K.LEGENDARY)
        if legends > leg_pool or len(pieces) - legends > pool:
            raise PositionError(f"{where}: more pieces on the board than the stock holds")
        s[POOL_TOTAL + colour] = pool
        s[STOCK + colour] = pool - (len(pieces) - legends)
        s[LSTOCK + colour] = leg_pool - legends
        s[LEG_TOTAL + colour] = leg_pool
    for p, seat in enumerate(seats):
        where = f"{path}: seat {p}"
        deck = _content(content.deck_index, _need(seat, "deck", where), where)
        s[SEAT_DECK + p] = deck
        hand = _need(seat, "hand", where)
        if not isinstance(hand, list) or len(hand) > HAND_CAP:
            raise PositionError(f"{where}: hand must be a list of at most {HAND_CAP} card ids")
        for i, cid in enumerate(hand):
            card = _content(content.card_index, cid, where)
            c = content.cards[card]
            if c.kind == K.CK_BEING and T.card_deck[card] != deck:
                raise PositionError(f"{where}: {cid} is not a card of the {seat['deck']} deck")
            s[HAND + p * HAND_CAP + i] = card
        s[HAND_N + p] = len(hand)
        if "frozen" in seat:  # the card stored as this seat's frozen effect
            fid = seat["frozen"]
            card = _content(content.card_index, fid, where)
            if T.card_deck[card] != deck or T.card_has_frozen[card] == 0:
                raise PositionError(f"{where}: frozen {fid} is not a frozen card of its deck")
            s[FROZEN + p] = card
        if "pending" in seat:  # Etherweave: this seat's pending being (a warp card in hand)
            pid = seat["pending"]
            card = _content(content.card_index, pid, where)
            if T.card_has_warp[card] == 0 or pid not in hand:
                raise PositionError(f"{where}: pending {pid} is not a warp card in this hand")
            s[PENDING + p] = card
        if "stasis" in seat:  # Etherweave: the piece held on this seat's pending card
            _stasis(s, content, seat, p, ncol, where)
        if "gateway" in seat:  # the square of this seat's Nethervoid Gateway
            s[GATEWAY + p] = _gateway_square(s, T, seat["gateway"], p, deck, where)
        if K.MODE_NAMES[mode] == "melee":
            used = seat.get("improvised", [])
            if not isinstance(used, list) or not all(
                inputs.is_int(c) and 0 <= c < n and c != p for c in used
            ):
                raise PositionError(f"{where}: improvised must list opponent colours 0..{n - 1}")
            s[IMPRO_LEFT + p] = ((1 << n) - 1) & ~(1 << p) & ~sum(1 << c for c in set(used))
        elif "improvised" in seat:
            raise PositionError(f"{where}: improvised is a melee rule")
    _turn_counters(s, T, data.get("turn", {}), int(s[COLOUR + to_move]), path)
    return s


def _stasis(s, content, seat, p, ncol, where):
    """A piece token (c1, h0, l2...) held in stasis on the seat's pending card, which must be
    a card whose warp captures; the piece comes out of its owner's stock."""
    tok = seat["stasis"]
    card = int(s[PENDING + p])
    if card < 0 or not _captures(content.cards[card].effect2):
        raise PositionError(f"{where}: stasis needs a pending card whose warp captures a piece")
    if not (isinstance(tok, str) and len(tok) == 2 and tok[0] in "chl" and tok[1] in "0123"):
        raise PositionError(f"{where}: stasis must be a piece token such as 'h1'")
    rank, owner = K.RANK_LETTERS.index(tok[0]), int(tok[1])
    stock = (LSTOCK if rank == K.LEGENDARY else STOCK) + owner
    if owner >= ncol or s[stock] <= 0:
        raise PositionError(f"{where}: stasis {tok}: no such piece left in its owner's stock")
    s[stock] -= 1
    s[STASIS + p] = owner * 4 + rank
    s[STASIS_CARD + p] = card


def _captures(rows):
    return rows is not None and any(int(r[I_OP]) == OP_CAPTURE for r in rows)


def _gateway_square(s, T, value, seat, deck, where):
    """[row, col] of a non-legendary piece of the seat's colour, for a Gateway deck."""
    if T.deck_gateway[deck] == 0:
        raise PositionError(f"{where}: gateway: this seat's deck has no Gateway")
    if not (
        isinstance(value, list) and len(value) == 2 and all(inputs.is_int(x) for x in value)
    ) or not (0 <= value[0] < 9 and 0 <= value[1] < 9):
        raise PositionError(f"{where}: gateway must be [row, col]")
    sq = value[0] * 9 + value[1]
    code = int(s[BOARD + sq])
    if code == 0 or code >> 2 != s[COLOUR + seat] or code & 3 == K.LEGENDARY:
        raise PositionError(
            f"{where}: gateway {value} must hold a non-legendary piece of the seat's colour"
        )
    return sq


def _turn_counters(s, T, turn, mover, path):
    if not isinstance(turn, dict):
        raise PositionError(f"{path}: [turn] must be a table")
    _known_keys(turn, TURN_KEYS, f"{path}: [turn]")
    possessed = turn.get("possessed", -1)  # Possessed Summoner: the next summon's colour
    if not inputs.is_int(possessed) or not (
        possessed == -1 or (0 <= possessed < int(n_colours(s)) and possessed != mover)
    ):
        raise PositionError(f"{path}: [turn] possessed must be an enemy colour")
    s[SUMMON_COLOUR] = possessed
    # Void Summoner: empty squares the next summon may use
    voids = inputs.need_int(
        turn.get("void-cells", 0), f"{path}: [turn] void-cells", 0, 3, PositionError
    )
    s[VOID_CELLS] = voids
    first_round = turn.get("first-round", False)  # Etherweave: no warp in the first round
    inputs.need_bool(first_round, f"{path}: [turn] first-round", PositionError)
    s[WARP_OPEN] = 0 if first_round else 1
    destroyed = turn.get("destroyed", {})
    if not isinstance(destroyed, dict):
        raise PositionError(f"{path}: [turn] destroyed must be a table of counts")
    for name, count in destroyed.items():
        if (
            name not in ("common", "heroic", "legendary")
            or not inputs.is_int(count)
            or not 0 <= count <= MAX_COUNT
        ):
            raise PositionError(
                f"{path}: [turn] destroyed: expected common/heroic/legendary counts "
                f"in 0..{MAX_COUNT}"
            )
        enemy = (mover + 1) % int(n_colours(s))  # the next colour (the only one in duels)
        s[DESTROYED + enemy * 4 + K.RANK_NAMES.index(name)] = count
    summoned = turn.get("summoned", [])
    if not isinstance(summoned, list):
        raise PositionError(f"{path}: [turn] summoned must be a list of tables")
    for i, b in enumerate(summoned):
        if not isinstance(b, dict) or "rank" not in b or "square" not in b:
            raise PositionError(f"{path}: [turn] summoned #{i}: needs rank and square")
        sq = b["square"]
        if not (
            isinstance(sq, list)
            and len(sq) == 2
            and all(inputs.is_int(x) for x in sq)
            and 0 <= sq[0] < 9
            and 0 <= sq[1] < 9
            and T.sq_color[sq[0] * 9 + sq[1]] >= 0
        ):
            raise PositionError(
                f"{path}: [turn] summoned #{i}: square must be [row, col] of a playable square"
            )
        if not isinstance(b["rank"], str) or b["rank"] not in ("common", "heroic", "legendary"):
            raise PositionError(f"{path}: [turn] summoned #{i}: unknown rank {b['rank']!r}")
        s[SUMMONED_N] += 1
        colour = T.sq_color[sq[0] * 9 + sq[1]]
        if colour == K.SQ_RED:
            s[SUMMONED_RED] += 1
        elif colour == K.SQ_GREEN:
            s[SUMMONED_GREEN] += 1
        if b["rank"] == "legendary":
            s[LEGENDS_SUMMONED] += 1


# the compiled functions the moves query calls from Python: numba compiles and caches each on
# its own the first time it is called (`kalarite moves` says so while it happens)
QUERY_KERNELS = (action_options, pattern_squares, flare_halves, task_holds)


def legal_moves(s, content) -> dict:
    """Every legal action of the seat to move, as plain data for JSON."""
    T = content.tables
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    n = action_options(s, T, opts)
    seat = int(s[CUR])
    me = int(s[COLOUR + seat])
    out = {"to_move": seat, "place": [], "summons": [], "discard": [], "flares": []}
    if s[GATEWAY + seat] >= 0:  # Nethervoid: the seat's Gateway square
        out["gateway"] = [int(s[GATEWAY + seat]) // 9, int(s[GATEWAY + seat]) % 9]
    if s[PENDING + seat] >= 0:  # Etherweave: the seat's pending being
        out["pending"] = content.cards[int(s[PENDING + seat])].id
    if s[STASIS + seat] != 0:  # the piece held in stasis on it
        out["stasis"] = piece_token(int(s[STASIS + seat]))
    if s[SUMMON_COLOUR] >= 0:  # Possessed Summoner: summons use this colour's pieces
        out["possessed_colour"] = int(s[SUMMON_COLOUR])
    if s[VOID_CELLS] > 0:  # Void Summoner: empty squares the next summon may count as yours
        out["void_cells"] = int(s[VOID_CELLS])
    scratch = np.zeros(16, np.int64)
    for kind, a, b, c in opts[:n].tolist():
        if kind == K.OPT_PLACE:
            out["place"].append([a // 9, a % 9] if a >= 0 else "pick-up-first")
        elif kind == K.OPT_SUMMON:
            card = int(s[HAND + seat * HAND_CAP + (a & 15)])
            m = pattern_squares(T, b, c, scratch)
            sym = int(T.or_sym[b])
            extra = {"improvised_colour": (a >> 4) - 1} if a >> 4 else {}
            if T.card_det_n[card] > 0:  # a detached pattern: it stands somewhere; no cells
                extra["detached"] = True
                m = 0
            out["summons"].append(
                {
                    **extra,
                    "card": content.cards[card].id,
                    "target": [c // 9, c % 9],
                    "pattern": sorted([int(q) // 9, int(q) % 9] for q in scratch[:m]),
                    "orientation": {
                        "symmetry": sym,
                        "rotation": 90 * (sym % 4),
                        "mirrored": sym >= 4,
                    },
                }
            )
        elif kind == K.OPT_DISCARD:
            out["discard"].append(content.cards[int(s[HAND + seat * HAND_CAP + a])].id)
        elif kind == K.OPT_FLARE:
            card = int(s[HAND + seat * HAND_CAP + a])
            halves = int(flare_halves(s, T, card, seat, b))
            out["flares"].append(
                {
                    "card": content.cards[card].id,
                    "opponent": b,
                    "upper": bool(halves & 1),
                    "lower": bool(halves & 2),
                }
            )
        elif kind == K.OPT_PASS:
            out["pass_to_teammate"] = True
        elif kind == K.OPT_THAW:
            out["thaw"] = content.cards[int(s[FROZEN + seat])].id
        elif kind == K.OPT_WARP:
            card = int(s[HAND + seat * HAND_CAP + a])
            out.setdefault("warps", []).append(content.cards[card].id)
    if has_tasks(int(s[MODE])):
        out["claimable_tasks"] = [
            content.task_names[t] for t in range(len(content.task_names)) if task_holds(s, T, t, me)
        ]
    return out
