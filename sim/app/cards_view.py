"""Text views of the content for `kalarite cards`."""

import difflib

from core import constants as K
from sim.content import Content, ContentError
from sim.content.ops import describe_row

# What each pattern symbol means (sim/data/README.md), in the order they are explained.
PATTERN_SYMBOLS = (
    (".", "no requirement"),
    ("c", "your piece of at least common rank"),
    ("h", "your piece of at least heroic rank"),
    (
        "@",
        "the target square: the being is summoned here (empty, or a piece of rank <= the "
        "being's, which is destroyed)",
    ),
    ("@c/@h", "a target square that must already hold your piece of at least that rank"),
    ("*", "a marked square that the effect refers to (*c, *h: it also needs that piece)"),
    ("+", "a second kind of marked square"),
    ("N NE E SE S SW W NW", "an arrow: a direction the effect refers to"),
)
_ARROWS = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}


def pattern_legend(rows) -> list:
    """The meaning of each symbol used in a pattern."""
    tokens = {t for r in rows for t in r.split()}
    used = set()
    for t in tokens:
        if t in _ARROWS:
            used.add("N NE E SE S SW W NW")
            continue
        if t == ".":
            used.add(".")
        if "@" in t:
            used.add("@c/@h" if ("c" in t or "h" in t) else "@")
        if "*" in t:
            used.add("*")
        if "+" in t:
            used.add("+")
        if "@" not in t:
            used.update(ch for ch in t if ch in "ch")
    return [f"  {sym:9s} {text}" for sym, text in PATTERN_SYMBOLS if sym in used]


def suggest(content: Content, card_id: str) -> str:
    """Closest card ids to a mistyped one: by the part after the deck, then by name."""
    want = card_id.strip().lower()
    deck, _, tail = want.rpartition("/")
    hits = []
    for key in ("slug", "name"):
        table = {}
        for c in content.cards:
            k = c.id.partition("/")[2] if key == "slug" else c.name.lower()
            table.setdefault(k, []).append(c.id)
        for m in difflib.get_close_matches(tail, list(table), n=5, cutoff=0.6):
            hits += [i for i in table[m] if i not in hits]
    if deck:  # the named deck's cards first
        hits.sort(key=lambda i: not i.startswith(deck + "/"))
    return ", ".join(hits[:5])


def find_card(content: Content, card_id: str) -> int:
    """The card's index; an unknown id is one error line that names the closest ids."""
    try:
        return content.card_index(card_id)
    except ContentError:
        close = suggest(content, card_id)
        hint = f"; did you mean {close}?" if close else " (kalarite cards lists them)"
        raise ContentError(f"unknown card {card_id!r}{hint}") from None


def list_cards(content: Content) -> str:
    lines = []
    groups = list(content.decks) + ["legends", "flares"]
    for deck in groups:
        cards = [c for c in content.cards if c.deck == deck]
        lines.append(f"{deck} ({len(cards)} cards)")
        for c in cards:
            if c.kind == K.CK_FLARE:
                lines.append(f"  {c.id:32s} {c.label}")
                continue
            state = "" if c.has_effect else "   [effect not implemented yet]"
            lines.append(f"  {c.id:32s} {K.RANK_NAMES[c.rank]:9s} {c.name}{state}")
    return "\n".join(lines)


def show_card(content: Content, card_id: str) -> str:
    i = find_card(content, card_id)
    c = content.cards[i]
    T = content.tables
    lines = [f"{c.name} ({c.id})"]
    if c.kind == K.CK_FLARE:
        lines.append(
            f"flare {c.label}: upper half needs an opponent with {c.flare_x} more "
            f"upgraded pieces, lower half one with {c.flare_y} more pieces"
        )
        lines.append(f"upper: {c.texts[0]}")
        lines += ["  " + describe_row(r) for r in T.ops[T.card_eff_start[i] : T.card_eff_end[i]]]
        lines.append(f"lower: {c.texts[1]}")
        lines += ["  " + describe_row(r) for r in T.ops[T.card_eff2_start[i] : T.card_eff2_end[i]]]
        return "\n".join(lines)
    n_or = int(T.card_or_n[i]) + int(T.card_det_n[i])  # a detached pattern has its own rows
    lines.append(f"rank: {K.RANK_NAMES[c.rank]}; {n_or} distinct orientation(s)")
    lines.append("pattern (row 0 = north; any rotation or mirror image may be used):")
    lines += ["  " + row for row in c.pattern]
    lines.append("pattern symbols:")
    lines += pattern_legend(c.pattern)
    lines.append(f"effect: {c.description}")
    if c.has_effect:
        lines.append("ops:")
        lines += ["  " + describe_row(r) for r in T.ops[T.card_eff_start[i] : T.card_eff_end[i]]]
    else:
        lines.append("ops: not implemented yet (the engine refuses to deal this card)")
    if c.has_frozen:
        lines.append("frozen (stored after the effect; thawed later at no action cost):")
        lines += ["  " + describe_row(r) for r in T.ops[T.card_eff2_start[i] : T.card_eff2_end[i]]]
    if c.has_warp:
        lines.append("warp (played from the hand at no action cost; the card stays pending):")
        lines += ["  " + describe_row(r) for r in T.ops[T.card_eff2_start[i] : T.card_eff2_end[i]]]
    if c.detached:
        lines.append("summoned on any empty colourless square (the pattern may stand anywhere)")
    return "\n".join(lines)
