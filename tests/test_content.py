"""Content loader: bad card files fail with one clear message naming the file and the card."""

import re

import pytest

from sim.content import ContentError, load_content
from tests.support.content_edits import edit, refusal


def _fails(data_dir, *words):
    msg = refusal(data_dir)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg
    return msg


def test_shipped_content_loads_and_every_base_card_has_an_effect():
    c = load_content()
    assert c.decks[:3] == ["imperial", "highland", "sylvan"]
    assert c.missing_effects(["imperial", "highland", "sylvan"]) == []
    assert len([x for x in c.cards if x.deck == "legends"]) == 12
    assert len([x for x in c.cards if x.deck == "flares"]) == 12


def test_pattern_without_target(data_copy):
    edit(data_copy / "imperial.toml", '". @ .",', '". . .",')
    _fails(data_copy, "imperial.toml", "swordmaster", "no target")


def test_pattern_with_two_targets(data_copy):
    edit(data_copy / "imperial.toml", '". @ .",', '"@ @ .",')
    _fails(data_copy, "imperial.toml", "swordmaster", "more than one target")


def test_uneven_pattern_rows(data_copy):
    edit(data_copy / "imperial.toml", '". @ .",', '". @ . .",')
    _fails(data_copy, "imperial.toml", "swordmaster", "different numbers of cells")


def test_unknown_pattern_token(data_copy):
    edit(data_copy / "highland.toml", '"c . c",', '"c . x",')
    _fails(data_copy, "highland.toml", "unknown pattern token")


def test_bad_rank(data_copy):
    edit(data_copy / "sylvan.toml", 'rank = "common"', 'rank = "epic"')
    _fails(data_copy, "sylvan.toml", "sapling", "bad rank")


def test_unknown_op(data_copy):
    text = (data_copy / "imperial.toml").read_text()
    first_op = re.search(r'op = "([a-z-]+)"', text).group(1)
    edit(data_copy / "imperial.toml", f'op = "{first_op}"', 'op = "teleport"')
    _fails(data_copy, "imperial.toml", "swordmaster", "unknown op", "teleport")


def test_unknown_op_key(data_copy):
    edit(
        data_copy / "flares.toml",
        '{ op = "place", rank = "common" }',
        '{ op = "place", rank = "common", colour = "red" }',
    )
    _fails(data_copy, "flares.toml", "f36", "does not take colour")


def test_unknown_region(data_copy):
    edit(data_copy / "imperial.toml", 'region = "diagonal"', 'region = "sideways"')
    _fails(data_copy, "imperial.toml", "unknown region", "sideways")


def test_unknown_condition(data_copy):
    edit(data_copy / "flares.toml", 'if = "done"', 'if = "maybe"')
    _fails(data_copy, "flares.toml", "f35", "unknown condition")


def test_deck_with_wrong_card_count(data_copy):
    text = (data_copy / "sylvan.toml").read_text()
    cut = text.rindex("[[card]]")
    (data_copy / "sylvan.toml").write_text(text[:cut])
    _fails(data_copy, "sylvan.toml", "18 cards", "found 17")


def test_not_toml(data_copy):
    (data_copy / "legends.toml").write_text("this is = = not toml")
    _fails(data_copy, "legends.toml", "not valid TOML")


def test_card_without_effect_is_refused_unless_allowed(data_copy):
    text = (data_copy / "highland.toml").read_text()
    start = text.index("effect = [", text.index('id = "wild-eagle"'))
    end = text.index("\n[[card]]", start)
    (data_copy / "highland.toml").write_text(text[:start] + text[end:])
    content = load_content(str(data_copy))
    assert content.missing_effects(["highland"]) == ["highland/wild-eagle"]
    with pytest.raises(ContentError, match="wild-eagle"):
        content.require_playable(["highland", "imperial"], allow_missing_effects=False)
    content.require_playable(["highland", "imperial"], allow_missing_effects=True)
    content.require_playable(["imperial", "sylvan"], allow_missing_effects=False)


def test_unknown_deck():
    with pytest.raises(ContentError, match="unknown deck 'elves'"):
        load_content().require_playable(["elves", "imperial"], False)


def test_new_deck_file_is_loaded(data_copy):
    text = (data_copy / "imperial.toml").read_text().replace('deck = "imperial"', 'deck = "test"')
    (data_copy / "test.toml").write_text(text)
    content = load_content(str(data_copy))
    assert "test" in content.decks
    assert content.card_index("test/swordmaster") >= 0


def test_everfrost_is_a_complete_deck_with_seven_frozen_programs():
    c = load_content()
    assert "everfrost" in c.decks
    assert c.missing_effects(["everfrost"]) == []
    c.require_playable(["everfrost", "imperial"], allow_missing_effects=False)
    assert sum(1 for x in c.cards if x.has_frozen) == 7


def test_half_built_everfrost_deck_is_refused(data_copy):
    """A card without its effect program cannot be dealt (clear error, no silent no-op)."""
    chest_effect = 'effect = [\n  { op = "card-to-frozen", optional = true },\n]\n'
    edit(data_copy / "everfrost.toml", chest_effect, "")
    content = load_content(str(data_copy))
    assert content.missing_effects(["everfrost"]) == ["everfrost/frozen-chest"]
    with pytest.raises(ContentError, match="refusing to deal them"):
        content.require_playable(["everfrost", "imperial"], allow_missing_effects=False)


def test_frozen_program_cannot_measure_from_a_being(data_copy):
    edit(
        data_copy / "everfrost.toml",
        'op = "place", region = "next-to-own-heroic"',
        'op = "place", region = "adjacent"',
    )
    _fails(data_copy, "everfrost.toml", "ice-wyvern", "no being to measure from")


def test_frozen_program_only_on_deck_beings(data_copy):
    edit(data_copy / "legends.toml", "effect = [", "frozen = []\neffect = [")
    _fails(data_copy, "legends.toml", "frozen program")


def test_support_key_is_checked(data_copy):
    edit(data_copy / "everfrost.toml", "support = [0, 1, 3]", "support = [0, 1]")
    _fails(data_copy, "everfrost.toml", "deathbringer", "support must be a list of 3")


def test_nethervoid_is_a_complete_gateway_deck():
    c = load_content()
    assert c.decks.index("nethervoid") >= 0 and c.missing_effects(["nethervoid"]) == []
    c.require_playable(["nethervoid", "imperial"], allow_missing_effects=False)
    assert [c.tables.deck_gateway[c.deck_index(d)] for d in c.decks] == [
        int(d == "nethervoid") for d in c.decks
    ]


def test_half_built_nethervoid_deck_is_refused(data_copy):
    """A being without its effect program cannot be dealt (clear error, no silent no-op)."""
    sloth = (
        'effect = [\n  { op = "destroy-all", who = "own", region = "gateway", '
        'if = "last-action" },\n'
        '  { op = "lose-action", if = "not-last-action" },\n]\n'
    )
    edit(data_copy / "nethervoid.toml", sloth, "")
    content = load_content(str(data_copy))
    assert content.missing_effects(["nethervoid"]) == ["nethervoid/demon-of-sloth"]
    with pytest.raises(ContentError, match="refusing to deal them"):
        content.require_playable(["nethervoid", "imperial"], allow_missing_effects=False)


def test_next_to_same_colour_is_for_place_alone(data_copy):
    edit(
        data_copy / "nethervoid.toml",
        'region = "next-to-same-colour"',
        'region = ["next-to-same-colour", "adjacent"]',
    )
    _fails(data_copy, "nethervoid.toml", "possessed-summoner", "next-to-same-colour")


def test_gateway_deck_key_is_checked(data_copy):
    edit(data_copy / "nethervoid.toml", "\ngateway = true\n", '\ngateway = "yes"\n')
    _fails(data_copy, "nethervoid.toml", "gateway")
