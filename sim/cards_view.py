"""Text views of the content for `kalarite cards`."""

from core import constants as K
from sim.content import Content
from sim.ops_compile import describe_row


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
    i = content.card_index(card_id)
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
    lines.append(f"rank: {K.RANK_NAMES[c.rank]}; {int(T.card_or_n[i])} distinct orientation(s)")
    lines.append("pattern (row 0 = north; any rotation or mirror image may be used):")
    lines += ["  " + row for row in c.pattern]
    lines.append(f"effect: {c.description}")
    if c.has_effect:
        lines.append("ops:")
        lines += ["  " + describe_row(r) for r in T.ops[T.card_eff_start[i] : T.card_eff_end[i]]]
    else:
        lines.append("ops: not implemented yet (the engine refuses to deal this card)")
    if c.has_frozen:
        lines.append("frozen (stored after the effect; thawed later at no action cost):")
        lines += ["  " + describe_row(r) for r in T.ops[T.card_eff2_start[i] : T.card_eff2_end[i]]]
    return "\n".join(lines)
