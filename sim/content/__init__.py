"""Load, validate and compile the game content (sim/data/*.toml) into core.tables.Tables.

Card ids are global: the beings of each deck in deck order, then the legends, then the
flares. Errors are ContentError with one line naming the file and the card.

The pipeline's files:
- ``__init__`` (this module): ``load_content``: the deck, legend, flare and board files into
  Tables, with every pattern compiled and every value checked.
- ``schema``: the type and range checks of every value of the card, flare, task and board
  files, before anything is compiled.
- ``ops``: a card's or flare's TOML op list into rows of the ops table (and back to text).
- ``tasks``: the High Form task list (sim/data/tasks.toml) into core's arrays.
- ``copies``: a designer's own copy of the card files (``--content DIR``).
- ``diff``: what a content holds card by card, and what differs between two.
- ``shipped``: the loaded card files packed as data that travels with every chunk to a
  worker on any node (never read from a path on the worker's disk).
"""

import functools
import hashlib
import pathlib
from dataclasses import dataclass, field

import numpy as np

from core import constants as K
from core.board.geometry import build_geometry
from core.checks.dispatch_proof import DispatchProofError, prove_dispatch_once
from core.checks.tables_proof import TablesProofError, prove_tables
from core.ops import (
    D_DISTANCE_2,
    I_DEST,
    I_OP,
    I_REGION,
    I_REGION2,
    I_WIDTH,
    OP_SHOOT,
    R_BEING_RELATIVE,
)
from core.summon.orientations import (
    ARROW_BASE,
    MARK,
    MARK2,
    MAX_CELLS,
    MAX_MARKS,
    compile_orientations,
)
from core.tables import Tables
from sim.content.ops import OpError, check_card_programs, compile_ops
from sim.content.schema import (
    ContentError,
    need_bool,
    need_display,
    need_int,
    need_keys,
    need_slug,
    need_squares,
    need_tables,
    read_toml,
    show,
)
from sim.content.tasks import load_tasks

DATA_DIR = pathlib.Path(__file__).parent.parent / "data"
BASE_DECKS = ("imperial", "highland", "sylvan")
LEGEND_DECK = "legends"
DECK_SIZE = 18
RANKS = {"common": K.COMMON, "heroic": K.HEROIC, "legendary": K.LEGENDARY}
ARROWS = {name.upper(): d for d, name in enumerate(K.DIR_NAMES)}
N_LEGENDS = 12  # the legend deck (at most core.layout.SHARED_CAP: the engine's pile)
N_FLARES = 12
MAX_PATTERN = 9  # rows and cells per row of a pattern: the board's size
MAX_FLARE_THRESHOLD = 69  # upgraded / pieces of a flare: at most the board's squares
DECK_KEYS = frozenset({"deck", "title", "gateway", "variant_of", "card"})
CARD_KEYS = frozenset(
    {"id", "name", "rank", "pattern", "description", "effect", "frozen", "warp", "no-copy"}
    | {"summon-on"}
)
FLARE_KEYS = frozenset(
    {"id", "label", "upgraded", "pieces", "upper", "lower", "upper_text", "lower_text"}
)
BOARD_KEYS = frozenset({"rows", "central", "duel_start", "melee_start", "sides", "corners"})
SIDES = ("top", "bottom", "left", "right")
CORNERS = ("nw", "se", "ne", "sw")
RESERVED_DECKS = (LEGEND_DECK, "flares", "board", "tasks")


@dataclass
class Card:
    id: str  # "deck/slug"
    name: str
    deck: str
    kind: int  # CK_*
    rank: int
    description: str
    pattern: list = field(default_factory=list)  # rows of tokens (beings and legends)
    has_effect: bool = False
    effect: np.ndarray | None = None
    effect2: np.ndarray | None = None  # flares: lower half; beings: the frozen program
    has_frozen: bool = False
    has_warp: bool = False  # beings: effect2 is the warp program (Etherweave)
    no_copy: bool = False  # the warp cannot be copied; while pending it cannot be touched
    detached: bool = False  # summon-on = "empty-colourless": no target square in the pattern
    gateway_ref: bool = False  # an op of its programs names the Gateway (a player feature)
    flare_x: int = 0
    flare_y: int = 0
    label: str = ""
    texts: tuple = ()


@dataclass
class Content:
    tables: Tables
    cards: list  # Card by global id
    decks: list  # deck names, index = deck id
    task_names: list
    task_descriptions: list
    content_hash: str
    data_dir: str = ""  # where the card files were read (absolute)
    # a variant deck's original (deck file key `variant_of`): its games use the original's
    # seeds, so a study of the variant pairs game by game with one of the original
    variant_of: dict = field(default_factory=dict)

    def card_index(self, card_id: str) -> int:
        for i, c in enumerate(self.cards):
            if c.id == card_id:
                return i
        raise ContentError(f"unknown card {card_id!r}")

    def deck_index(self, name: str) -> int:
        if name not in self.decks:
            raise ContentError(f"unknown deck {name!r} (known decks: {', '.join(self.decks)})")
        return self.decks.index(name)

    def missing_effects(self, deck_names) -> list:
        """Ids of cards a game with these decks would deal whose effect is not implemented."""
        wanted = set(deck_names) | {LEGEND_DECK}
        return [
            c.id
            for c in self.cards
            if c.deck in wanted and c.kind != K.CK_FLARE and not c.has_effect
        ]

    def require_playable(self, deck_names, allow_missing_effects: bool):
        for d in deck_names:
            self.deck_index(d)
        missing = self.missing_effects(deck_names)
        if missing and not allow_missing_effects:
            raise ContentError(
                f"{len(missing)} card(s) in these decks have no implemented effect yet "
                f"(e.g. {missing[0]}); refusing to deal them. Pass --beings-without-effects "
                "to play them as beings with no effect (results are marked as such)."
            )


def _err(path, card, msg):
    return ContentError(f"{path.name}: card {card!r}: {msg}")


DETACHED = "empty-colourless"  # card key summon-on: the being enters any empty colourless square


def parse_pattern(rows, path, cid, detached=False):
    """Rows of tokens -> (cells relative to the target, target requirement, marks).

    A detached pattern (card key ``summon-on``, Time Traveler) has no target square: its
    cells are returned relative to the first cell."""
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise _err(path, cid, "pattern must be a non-empty list of rows (strings)")
    grid = [r.split() for r in rows]
    width = len(grid[0])
    if any(len(r) != width for r in grid):
        raise _err(path, cid, "pattern rows have different numbers of cells")
    if not width or len(grid) > MAX_PATTERN or width > MAX_PATTERN:
        raise _err(
            path, cid, f"pattern must be 1 to {MAX_PATTERN} rows of 1 to {MAX_PATTERN} cells each"
        )
    cells, marks, target, req = [], [], None, 0
    for r, row in enumerate(grid):
        for c, tok in enumerate(row):
            if tok in ARROWS:
                marks.append((r, c, ARROW_BASE + ARROWS[tok]))
                continue
            rest = tok
            if tok != "." and not set(tok) <= set("ch@*+"):
                raise _err(path, cid, f"unknown pattern token {tok!r}")
            if "*" in rest:
                marks.append((r, c, MARK))
            if "+" in rest:
                marks.append((r, c, MARK2))
            rank = K.HEROIC if "h" in rest else K.COMMON if "c" in rest else 0
            if "@" in rest:
                if target is not None:
                    raise _err(path, cid, "pattern has more than one target square '@'")
                target, req = (r, c), rank
            elif rank:
                cells.append((r, c, rank))
    if detached:
        if target is not None:
            raise _err(path, cid, "a pattern with summon-on has no target square '@'")
        if not cells:
            raise _err(path, cid, "pattern needs at least one of your pieces")
        if marks:
            raise _err(path, cid, "a pattern with summon-on has no marks or arrows")
        target = cells[0][:2]
    if target is None:
        raise _err(path, cid, "pattern has no target square '@'")
    tr, tc = target
    cells = [(r - tr, c - tc, k) for r, c, k in cells]
    marks = [(r - tr, c - tc, k) for r, c, k in marks]
    if not cells and not req:
        raise _err(path, cid, "pattern needs at least one of your pieces")
    if len(cells) > MAX_CELLS or len(marks) > MAX_MARKS:
        raise _err(path, cid, "pattern too large")
    return cells, req, marks


def _effect(d, key, path, cid, card_ids=()):
    try:
        return compile_ops(d[key], card_ids)
    except OpError as e:
        raise _err(path, cid, f"{key}: {e}") from None


def _card_name(d, i):
    """How errors name a card: its id, or its place in the file when the id is no string."""
    cid = d.get("id")
    return cid if isinstance(cid, str) and cid else f"#{i + 1}"


def load_deck_file(path):
    data = read_toml(path)
    deck = data.get("deck")
    if not isinstance(deck, str) or not deck:
        raise ContentError(f"{path.name}: missing 'deck' name")
    need_slug(deck, "deck", path.name)
    need_keys(data, (), DECK_KEYS, path.name)
    need_bool(data.get("gateway", False), "'gateway'", path.name)
    if "title" in data:
        need_display(data["title"], "title", path.name, nonempty=False)
    rows = need_tables(data.get("card", []), "card", path.name)
    cards = []
    seen = set()
    card_ids = [d.get("id", "?") for d in rows]
    for i, d in enumerate(rows):
        cid = _card_name(d, i)
        where = f"{path.name}: card {cid!r}"
        need_keys(d, ("id", "name", "rank", "pattern", "description"), CARD_KEYS, where)
        need_slug(d["id"], "id", where)
        d["name"] = need_display(d["name"], "name", where)
        d["description"] = need_display(d["description"], "description", where, nonempty=False)
        if cid in seen:
            raise _err(path, cid, "duplicate id")
        seen.add(cid)
        if not isinstance(d["rank"], str) or d["rank"] not in RANKS:
            raise _err(path, cid, f"bad rank {show(d['rank'])} (common, heroic or legendary)")
        rank = RANKS[d["rank"]]
        if (deck == LEGEND_DECK) != (rank == K.LEGENDARY):
            raise _err(path, cid, "legends are exactly the legendary cards")
        detached = _summon_on(d, path, cid)
        parse_pattern(d["pattern"], path, cid, detached)
        card = Card(
            id=f"{deck}/{cid}",
            name=d["name"],
            deck=deck,
            kind=K.CK_LEGEND if deck == LEGEND_DECK else K.CK_BEING,
            rank=rank,
            description=d["description"],
            pattern=list(d["pattern"]),
            detached=detached,
        )
        if "effect" in d:
            card.effect = _effect(d, "effect", path, cid, card_ids)
            card.has_effect = True
        if "frozen" in d:
            if card.kind != K.CK_BEING:
                raise _err(path, cid, "only a deck's beings can have a frozen program")
            card.effect2 = _effect(d, "frozen", path, cid)
            _check_frozen(card.effect2, path, cid, "frozen")
            card.has_frozen = True
        if "warp" in d:
            if card.kind != K.CK_BEING or card.has_frozen:
                raise _err(path, cid, "only a deck's beings without a frozen program can warp")
            card.effect2 = _effect(d, "warp", path, cid)
            _check_frozen(card.effect2, path, cid, "warp")
            card.has_warp = True
        if "no-copy" in d:
            if d["no-copy"] is not True or not card.has_warp:
                raise _err(path, cid, "no-copy = true needs a warp program")
            card.no_copy = True
        _check_programs(card, d, path, cid)
        card.gateway_ref = any(_names_gateway(d.get(k)) for k in ("effect", "frozen", "warp"))
        cards.append(card)
    if deck != LEGEND_DECK and len(cards) != DECK_SIZE:
        raise ContentError(f"{path.name}: a deck has {DECK_SIZE} cards, found {len(cards)}")
    if deck == LEGEND_DECK and len(cards) != N_LEGENDS:
        raise ContentError(f"{path.name}: expected {N_LEGENDS} legends, found {len(cards)}")
    return deck, cards


def _names_gateway(ops) -> bool:
    """Does any string value in an op list (nested choices included) name the Gateway? The
    players' features count such cards in hand (core.players.features)."""
    if isinstance(ops, str):
        return "gateway" in ops
    if isinstance(ops, dict):
        return any(_names_gateway(v) for v in ops.values())
    if isinstance(ops, list):
        return any(_names_gateway(v) for v in ops)
    return False


def _summon_on(d, path, cid):
    """The card key ``summon-on``: only "empty-colourless" (a detached pattern) exists."""
    if "summon-on" not in d:
        return False
    if d["summon-on"] != DETACHED:
        raise _err(path, cid, f"summon-on must be {DETACHED!r}")
    return True


def _check_programs(card, d, path, cid):
    """The ops tied to their card (copy-warp, capture, release) stand where they may."""
    key2 = "warp" if card.has_warp else "frozen"
    try:
        check_card_programs({"effect": card.effect, key2: card.effect2}, card.no_copy)
    except OpError as e:
        raise _err(path, cid, str(e)) from None


def detached_orientations(cells):
    """Distinct orientations of a detached pattern, each moved so that its first cell (the
    search's anchor) is at (0, 0): images that differ only by a shift are one orientation."""
    seen, out = set(), []
    for sym, oc, _ in compile_orientations(cells, 0, []):
        r0, c0 = oc[0][0], oc[0][1]
        oc = [(r - r0, c - c0, k) for r, c, k in oc]
        key = tuple(sorted(oc))
        if key not in seen:
            seen.add(key)
            out.append((sym, oc, []))
    return out


def _check_frozen(rows, path, cid, key):
    """A frozen or warp program runs with no being and no pattern: refuse what is measured
    from them (regions near the being, marks, arrows, shots, the distance-2 destination)."""
    for row in rows:
        if (
            row[I_OP] == OP_SHOOT
            or (row[I_REGION] | row[I_REGION2]) & R_BEING_RELATIVE
            or row[I_DEST] & D_DISTANCE_2
        ):
            raise _err(path, cid, f"{key}: a {key} program has no being to measure from")


def load_flares(path):
    cards = []
    data = read_toml(path)
    need_keys(data, (), {"flare"}, path.name)
    seen = set()
    for i, d in enumerate(need_tables(data.get("flare", []), "flare", path.name)):
        cid = _card_name(d, i)
        where = f"{path.name}: card {cid!r}"
        need_keys(d, ("id", "label", "upgraded", "pieces", "upper", "lower"), FLARE_KEYS, where)
        need_slug(d["id"], "id", where)
        if cid in seen:
            raise _err(path, cid, "duplicate id")
        seen.add(cid)
        d["label"] = need_display(d["label"], "label", where)
        for key in ("upper_text", "lower_text"):
            d[key] = need_display(d.get(key, ""), key, where, nonempty=False)
        for key in ("upgraded", "pieces"):
            need_int(d[key], key, 0, MAX_FLARE_THRESHOLD, where)
        cards.append(
            Card(
                id=f"flares/{cid}",
                name=f"Flare {d['label']}",
                deck="flares",
                kind=K.CK_FLARE,
                rank=0,
                description=f"upper: {d.get('upper_text', '')} lower: {d.get('lower_text', '')}",
                has_effect=True,
                effect=_effect(d, "upper", path, cid),
                effect2=_effect(d, "lower", path, cid),
                flare_x=d["upgraded"],
                flare_y=d["pieces"],
                label=d["label"],
                texts=(d.get("upper_text", ""), d.get("lower_text", "")),
            )
        )
    for c in cards:
        try:
            check_card_programs({"upper": c.effect, "lower": c.effect2})
        except OpError as e:
            raise _err(path, c.id.split("/")[-1], str(e)) from None
    if len(cards) != N_FLARES:
        raise ContentError(f"{path.name}: expected {N_FLARES} flares, found {len(cards)}")
    return cards


def load_board(path) -> tuple:
    """board.toml -> (geometry arrays, its table): every value checked, squares in range
    and on the board where pieces start."""
    board = read_toml(path)
    where = path.name
    need_keys(board, BOARD_KEYS, BOARD_KEYS, where)
    rows = board["rows"]
    if not (
        isinstance(rows, list)
        and len(rows) == 9
        and all(isinstance(r, str) and len(r) == 9 for r in rows)
    ):
        raise ContentError(f"{where}: rows must be 9 strings of 9 characters")
    bad = sorted({ch for r in rows for ch in r} - set("#.RG"))
    if bad:
        raise ContentError(f"{where}: rows: unknown square symbol {bad[0]!r} (# . R G)")

    def on(r, c):
        return rows[r][c] != "#"

    need_squares(board["central"], "central", where, on)
    need_squares(board["duel_start"], "duel_start", where, on, n=2)
    melee = board["melee_start"]
    if not isinstance(melee, list) or len(melee) != 3:
        raise ContentError(f"{where}: melee_start must be 3 pairs of squares, got {show(melee)}")
    starts = [sq for pair in melee for sq in need_squares(pair, "melee_start", where, on, n=2)]
    if len(set(starts)) != len(starts):
        raise ContentError(f"{where}: melee_start names a square twice")
    for key, names in (("sides", SIDES), ("corners", CORNERS)):
        table = board[key]
        if not isinstance(table, dict):
            raise ContentError(f"{where}: [{key}] must be a table of {', '.join(names)}")
        need_keys(table, names, names, f"{where}: [{key}]")
        for name in names:
            need_squares(table[name], f"{key}.{name}", where, on)
    try:
        geo = build_geometry(rows, board["central"], board["sides"], board["corners"])
    except ValueError as e:
        raise ContentError(f"{where}: {e}") from None
    return geo, board


def _content_hash(data_dir):
    return hash_files((p.name, p.read_bytes()) for p in sorted(data_dir.glob("*.toml")))


def hash_files(files) -> str:
    """The content hash of the card files ((name, bytes), ... sorted by name): every
    file's bytes, so a changed copy gets its own (also of files sent to a worker,
    sim/content/shipped.py)."""
    h = hashlib.sha256()
    for name, data in files:
        h.update(name.encode())
        h.update(data)
    return h.hexdigest()[:16]


def _deck_files(data_dir):
    names = [p.stem for p in data_dir.glob("*.toml")]
    extra = sorted(
        n
        for n in names
        if n not in BASE_DECKS and n not in (LEGEND_DECK, "board", "flares", "tasks")
    )
    return [n for n in BASE_DECKS if n in names] + extra


@functools.lru_cache(maxsize=4)
def load_content(data_dir: str | None = None) -> Content:
    data_dir = pathlib.Path(data_dir) if data_dir else DATA_DIR
    geo, board = load_board(data_dir / "board.toml")
    decks, cards, gateway = [], [], []
    for name in _deck_files(data_dir):
        deck, dc = load_deck_file(data_dir / f"{name}.toml")
        if deck in decks or deck in RESERVED_DECKS:
            raise ContentError(f"{name}.toml: deck name {deck!r} is taken (another deck file)")
        decks.append(deck)
        cards.extend(dc)
        gateway.append(read_toml(data_dir / f"{name}.toml").get("gateway", False))
    variant_of = _variants(data_dir, decks)
    deck, legends = load_deck_file(data_dir / f"{LEGEND_DECK}.toml")
    if deck != LEGEND_DECK:
        raise ContentError(f"{LEGEND_DECK}.toml: deck must be {LEGEND_DECK!r}, got {deck!r}")
    cards.extend(legends)
    cards.extend(load_flares(data_dir / "flares.toml"))
    tasks = load_tasks(data_dir / "tasks.toml")
    tables = _compile(cards, decks, geo, board, tasks, data_dir)
    tables = tables._replace(deck_gateway=np.array(gateway, np.int8).reshape(len(decks)))
    try:
        prove_tables(tables)
        prove_dispatch_once()  # every op has its branches in core.effects (raises once)
    except (TablesProofError, DispatchProofError) as e:
        raise ContentError(f"{data_dir.name}: {e}") from None
    return Content(
        tables,
        cards,
        decks,
        tasks["task_names"],
        tasks["task_descriptions"],
        _content_hash(data_dir),
        str(data_dir.resolve()),
        variant_of,
    )


def _variants(data_dir, decks) -> dict:
    """{variant deck: original deck} from the deck files' optional `variant_of` key."""
    out = {}
    for name in _deck_files(data_dir):
        path = data_dir / f"{name}.toml"
        data = read_toml(path)
        orig = data.get("variant_of")
        if orig is None:
            continue
        deck = data["deck"]
        if not isinstance(orig, str) or orig not in decks or orig == deck:
            raise ContentError(
                f"{path.name}: 'variant_of' must name another deck ({', '.join(decks)}), "
                f"got {orig!r}"
            )
        out[deck] = orig
    return out


def _compile(cards, decks, geo, board, tasks, data_dir):
    C = len(cards)
    kind = np.array([c.kind for c in cards], np.int8)
    deck_of = np.array([decks.index(c.deck) if c.deck in decks else -1 for c in cards], np.int16)
    rank = np.array([c.rank for c in cards], np.int8)
    has_eff = np.array([int(c.has_effect) for c in cards], np.int8)
    has_frozen = np.array([int(c.has_frozen) for c in cards], np.int8)
    has_warp = np.array([int(c.has_warp) for c in cards], np.int8)
    gateway_ref = np.array([int(c.gateway_ref) for c in cards], np.int8)
    no_copy = np.array([int(c.no_copy) for c in cards], np.int8)
    deck_pos = np.full(C, -1, np.int8)
    or_start = np.zeros(C, np.int32)
    or_n = np.zeros(C, np.int32)
    det_start = np.zeros(C, np.int32)
    det_n = np.zeros(C, np.int32)
    orients = []
    path = data_dir / "cards"
    for i, c in enumerate(cards):
        if c.kind == K.CK_FLARE:
            continue
        cells, req, marks = parse_pattern(c.pattern, path, c.id, c.detached)
        if c.detached:  # rows of their own: the plain searches never see them
            ors = detached_orientations(cells)
            det_start[i] = len(orients)
            det_n[i] = len(ors)
        else:
            ors = compile_orientations(cells, req, marks)
            or_start[i] = len(orients)
            or_n[i] = len(ors)
        orients.extend((i, req, sym, oc, om) for sym, oc, om in ors)
    O_ = len(orients)
    or_card = np.zeros(O_, np.int32)
    or_ncells = np.zeros(O_, np.int8)
    or_cells = np.zeros((O_, MAX_CELLS, 3), np.int8)
    or_req = np.zeros(O_, np.int8)
    or_nmarks = np.zeros(O_, np.int8)
    or_marks = np.zeros((O_, MAX_MARKS, 3), np.int8)
    or_sym = np.zeros(O_, np.int8)
    for o, (ci, req, sym, oc, om) in enumerate(orients):
        or_card[o], or_req[o], or_sym[o] = ci, req, sym
        or_ncells[o] = len(oc)
        if oc:
            or_cells[o, : len(oc)] = oc
        or_nmarks[o] = len(om)
        if om:
            or_marks[o, : len(om)] = om
    progs = [np.zeros((0, I_WIDTH), np.int32)]
    eff_s = np.zeros(C, np.int32)
    eff_e = np.zeros(C, np.int32)
    eff2_s = np.zeros(C, np.int32)
    eff2_e = np.zeros(C, np.int32)
    pos = 0
    for i, c in enumerate(cards):
        for prog, s_arr, e_arr in ((c.effect, eff_s, eff_e), (c.effect2, eff2_s, eff2_e)):
            if prog is None:
                s_arr[i] = e_arr[i] = pos
                continue
            s_arr[i] = pos
            progs.append(prog)
            pos += len(prog)
            e_arr[i] = pos
    ops = np.concatenate(progs).astype(np.int32)
    if len(ops) == 0:
        ops = np.zeros((1, I_WIDTH), np.int32)
    deck_cards = np.full((len(decks), DECK_SIZE), -1, np.int32)
    for d, name in enumerate(decks):
        ids = [i for i, c in enumerate(cards) if c.deck == name]
        deck_cards[d, : len(ids)] = ids
        deck_pos[ids] = np.arange(len(ids))
    return Tables(
        sq_color=geo["sq_color"],
        sq_central=geo["sq_central"],
        nbr=geo["nbr"],
        dist=geo["dist"],
        onboard=geo["onboard"],
        side_id=geo["side_id"],
        corner_id=geo["corner_id"],
        board_masks=geo["board_masks"],
        king_masks=geo["king_masks"],
        board_centre=geo["board_centre"],
        duel_start=np.array([r * 9 + c for r, c in board["duel_start"]], np.int16),
        melee_start=np.array(
            [[r * 9 + c for r, c in pair] for pair in board["melee_start"]], np.int16
        ),
        card_kind=kind,
        card_deck=deck_of,
        card_rank=rank,
        card_has_effect=has_eff,
        card_or_start=or_start,
        card_or_n=or_n,
        card_eff_start=eff_s,
        card_eff_end=eff_e,
        card_eff2_start=eff2_s,
        card_eff2_end=eff2_e,
        card_has_frozen=has_frozen,
        flare_x=np.array([c.flare_x for c in cards], np.int8),
        flare_y=np.array([c.flare_y for c in cards], np.int8),
        or_card=or_card,
        or_ncells=or_ncells,
        or_cells=or_cells,
        or_target_req=or_req,
        or_nmarks=or_nmarks,
        or_marks=or_marks,
        or_sym=or_sym,
        ops=ops,
        deck_cards=deck_cards,
        deck_size=np.full(len(decks), DECK_SIZE, np.int32),
        legend_cards=np.array([i for i, c in enumerate(cards) if c.kind == K.CK_LEGEND], np.int32),
        flare_cards=np.array([i for i, c in enumerate(cards) if c.kind == K.CK_FLARE], np.int32),
        task_kind=tasks["task_kind"],
        task_points=tasks["task_points"],
        task_advanced=tasks["task_advanced"],
        task_type=tasks["task_type"],
        task_args=tasks["task_args"],
        deck_gateway=np.zeros(len(decks), np.int8),  # set by load_content from the deck files
        card_has_warp=has_warp,
        card_gateway_ref=gateway_ref,
        card_no_copy=no_copy,
        card_deck_pos=deck_pos,
        card_det_start=det_start,
        card_det_n=det_n,
    )
