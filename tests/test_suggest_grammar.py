"""The card grammar of `kalarite suggest` on every deck: every single edit it generates,
written as its own copy of the card files, either loads (and changes that one card only) or
is refused with one line (the loader, the tables proof, or the same compiled tables as the
base or another edit); the deck file is rewritten only where the card is."""

import tomllib

import pytest

from sim.content import DATA_DIR, load_content
from sim.content.diff import card_record
from sim.suggest.grammar import BUFF, KINDS, NERF, card_edits, deck_edits, in_direction
from sim.suggest.variants import (
    card_block,
    deck_files,
    edited_deck_text,
    split_cards,
    write_candidates,
    write_race_content,
)

DECKS = ("imperial", "highland", "sylvan", "everfrost", "etherweave", "nethervoid")


def _deck(name):
    return tomllib.loads(deck_files(DATA_DIR)[name].read_text())


@pytest.mark.parametrize("deck", DECKS)
def test_every_edit_loads_or_is_refused_in_one_line(deck, tmp_path):
    edits = deck_edits(_deck(deck))
    assert len(edits) >= 250  # the design note measured 263..356 per deck
    assert {e.kind for e, _ in edits} >= set(KINDS) - {"swap", "count-step"}
    cands, refused = write_candidates(None, deck, edits, tmp_path / "c")
    assert len(cands) + len(refused) == len(edits)
    for e, why in refused:
        assert why and "\n" not in why, (e.line(), why)
    base = load_content()
    for c in cands[:: max(1, len(cands) // 25)]:  # every candidate loaded once already
        load_content.cache_clear()
        got = load_content(c.content_dir)
        load_content.cache_clear()
        changed = [
            x.id
            for i, x in enumerate(base.cards)
            if card_record(base, i) != card_record(got, got.card_index(x.id))
        ]
        assert changed in ([c.edit.card], []), (c.edit.line(), changed)
    assert len({c.tables_hash for c in cands}) == len(cands)
    # every candidate as a variant deck of one content: it loads as a whole
    rc = write_race_content(None, deck, cands[:20], tmp_path / "race")
    load_content.cache_clear()
    assert len(load_content(str(rc)).decks) == len(base.decks) + min(20, len(cands))
    load_content.cache_clear()


@pytest.mark.parametrize("deck", DECKS + ("legends",))
def test_a_card_block_reads_back_as_the_card(deck):
    path = deck_files(DATA_DIR)[deck]
    text = path.read_text()
    data = tomllib.loads(text)
    for i, card in enumerate(data["card"]):
        assert tomllib.loads(card_block(card))["card"] == [card]
        again = tomllib.loads(edited_deck_text(text, i, card))
        assert again == data
    # the other cards' text is untouched
    out = edited_deck_text(text, 0, data["card"][0] | {"name": "Changed"})
    head, blocks = split_cards(text)
    head2, blocks2 = split_cards(out)
    assert head2 == head and blocks2[1:] == blocks[1:] and blocks2[0] != blocks[0]


def test_renamed_variant_deck():
    path = deck_files(DATA_DIR)["everfrost"]
    text = path.read_text()
    card = tomllib.loads(text)["card"][3]
    out = tomllib.loads(edited_deck_text(text, 3, card, rename="everfrost-c001",
                                         variant_of="everfrost"))  # fmt: skip
    assert out["deck"] == "everfrost-c001" and out["variant_of"] == "everfrost"


def test_directions_of_known_edits():
    """A few edits whose direction the rules make plain."""
    fox = _deck("everfrost")["card"][0]  # two optional moves of the being
    e = {(x.kind, x.where, x.after): x for x, _ in card_edits(fox, "everfrost", 0)}
    assert e[("op-repeat", "effect[1]", next(k[2] for k in e if k[:2] == ("op-repeat",
             "effect[1]")))].direction == BUFF  # fmt: skip
    assert next(x for k, x in e.items() if k[:2] == ("op-remove", "effect[1]")).direction == NERF
    assert next(x for k, x in e.items() if k[0] == "optional").direction == NERF  # may -> must
    assert all(x.direction == BUFF for k, x in e.items() if k[0] == "pattern-cell")
    assert {x.after for k, x in e.items() if k[0] == "card-rank"} == {"heroic"}
    grower = next(c for c in _deck("everfrost")["card"] if c["id"] == "crystal-grower")
    g = card_edits(grower, "everfrost", 3)
    # its effect upgrades enemy pieces (it helps them): dropping that op is a buff
    drop = next(x for x, _ in g if x.kind == "op-remove" and x.where == "effect[1]")
    assert drop.direction == BUFF
    frozen = next(x for x, _ in g if x.kind == "op-repeat" and x.where == "frozen[1]")
    assert frozen.direction == BUFF
    assert in_direction(drop, BUFF, False) and not in_direction(drop, NERF, False)


def test_swap_keeps_the_card_id(tmp_path):
    data = _deck("everfrost")
    sword = next(c for c in _deck("imperial")["card"] if c["id"] == "swordmaster")
    edits = deck_edits(data, cards={"everfrost/snow-fox"}, kinds=("swap",),
                       swaps=[("everfrost/snow-fox", "imperial/swordmaster")],
                       others={"imperial/swordmaster": sword})  # fmt: skip
    assert [e.kind for e, _ in edits] == ["swap"]
    (c,), refused = write_candidates(None, "everfrost", edits, tmp_path / "c")
    assert not refused
    load_content.cache_clear()
    got = load_content(c.content_dir)
    load_content.cache_clear()
    card = got.cards[got.card_index("everfrost/snow-fox")]
    assert card.name == "Swordmaster"
