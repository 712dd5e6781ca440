"""Checks for the base-game card files in sim/data (imperial, highland, sylvan, legends)."""

import json
import re
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "sim" / "data"
REFERENCE = Path(__file__).resolve().parents[2] / "shared/reference/cards.json"

DECKS = {"imperial": 18, "highland": 18, "sylvan": 18, "legends": 12}
TITLES = {"imperial": "Imperial", "highland": "Highland", "sylvan": "Sylvan", "legends": "Legends"}

ARROWS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
TARGETS = {"@", "@c", "@h", "*@"}
LEGEND = {".", "c", "h", "*", "+", "*c", "*h", "+h", *TARGETS, *ARROWS}

# Reference cell token list (sorted) -> our pattern token.
TOKEN_MAP = {
    (): ".",
    ("c",): "c",
    ("h",): "h",
    ("t",): "@",
    ("c", "t"): "@c",
    ("h", "t"): "@h",
    ("m",): "*",
    ("m2",): "+",
    ("c", "m"): "*c",
    ("h", "m"): "*h",
    ("m", "t"): "*@",
    ("h", "m2"): "+h",
    **{(a.lower(),): a for a in ARROWS},
}

RANKS = {"common", "heroic", "legendary"}
SHARED_RUN = 8


def load(deck: str) -> dict:
    with open(DATA / f"{deck}.toml", "rb") as fh:
        return tomllib.load(fh)


def all_cards():
    for deck in DECKS:
        for card in load(deck)["card"]:
            yield deck, card


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:['-][a-z0-9]+)*", text.lower())


def shared_run(a: str, b: str, n: int = SHARED_RUN) -> str | None:
    wa, wb = words(a), words(b)
    grams = {tuple(wb[i : i + n]) for i in range(len(wb) - n + 1)}
    for i in range(len(wa) - n + 1):
        if tuple(wa[i : i + n]) in grams:
            return " ".join(wa[i : i + n])
    return None


@pytest.fixture(scope="module")
def reference() -> dict:
    if not REFERENCE.exists():
        pytest.skip("reference data not present")
    cards = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return {c["id"]: c for c in cards}


@pytest.mark.parametrize("deck", DECKS)
def test_deck_header_count_and_unique_ids(deck):
    data = load(deck)
    assert data["deck"] == deck
    assert data["title"] == TITLES[deck]
    cards = data["card"]
    assert len(cards) == DECKS[deck]
    ids = [c["id"] for c in cards]
    assert len(set(ids)) == len(ids)
    for card in cards:
        assert set(card) - {"effect"} == {"id", "name", "rank", "pattern", "description"}
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", card["id"])
        assert card["rank"] in RANKS
        if deck == "legends":
            assert card["rank"] == "legendary"
        else:
            assert card["rank"] != "legendary"
        assert card["description"].strip()


@pytest.mark.parametrize("deck", DECKS)
def test_patterns_well_formed(deck):
    for card in load(deck)["card"]:
        rows = [row.split() for row in card["pattern"]]
        assert rows, card["id"]
        widths = {len(r) for r in rows}
        assert len(widths) == 1 and widths.pop() > 0, card["id"]
        tokens = [t for r in rows for t in r]
        bad = set(tokens) - LEGEND
        assert not bad, f"{card['id']}: unknown tokens {bad}"
        assert sum(t in TARGETS for t in tokens) == 1, card["id"]


def test_patterns_match_reference(reference):
    for deck, card in all_cards():
        ref = reference.get(f"{deck}/{card['id']}")
        assert ref is not None, f"{deck}/{card['id']} not in reference"
        assert ref["deck"] == deck
        assert card["name"] == ref["name"]
        assert card["rank"] == ref["rank"]
        expected = [[TOKEN_MAP[tuple(sorted(cell))] for cell in row] for row in ref["grid"]]
        got = [row.split() for row in card["pattern"]]
        assert got == expected, card["id"]


def test_deck_order_matches_reference(reference):
    for deck in DECKS:
        ours = [f"{deck}/{c['id']}" for c in load(deck)["card"]]
        theirs = [cid for cid, c in reference.items() if c["deck"] == deck]
        assert ours == theirs, deck


def test_descriptions_in_own_words(reference):
    for deck, card in all_cards():
        ref = reference[f"{deck}/{card['id']}"]
        texts = [ref["effect"]]
        texts += [v for k, v in ref.items() if k.endswith("_effect") and isinstance(v, str)]
        for variant in ref.get("text_variants", {}).values():
            texts += [v for v in variant.values() if isinstance(v, str)]
        ours = card["description"]
        for text in texts:
            assert ours.strip().lower() != text.strip().lower(), card["id"]
            run = shared_run(ours, text)
            assert run is None, f"{card['id']}: shares '{run}' with the reference text"


def test_shared_run_detector():
    assert shared_run(
        "one two three four five six seven eight", "x one two three four five six seven eight y"
    )
    assert (
        shared_run("one two three four five six seven", "one two three four five six seven") is None
    )
