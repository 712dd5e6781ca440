"""Golden replays: the full text log of a few fixed games must not change by accident.

Each configuration's log (``format_game(play_logged(...))``) is compared with the checked-in
``tests/golden/<name>.txt``. Set ``KALARITE_REGEN_GOLDEN=1`` to rewrite the files after a
deliberate behaviour change (see tests/golden/README.md).
"""

import difflib
import os
import pathlib

import pytest

from sim.content import load_content
from sim.single_game import GameConfig, format_game, play_logged

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
REGEN = os.environ.get("KALARITE_REGEN_GOLDEN") == "1"

CONFIGS = {
    "high-form_imperial-highland_seed7": dict(
        decks=["imperial", "highland"], mode="high-form", seed=7
    ),
    "deathmatch_sylvan-imperial_seed3": dict(
        decks=["sylvan", "imperial"], mode="deathmatch", seed=3
    ),
    "high-form_highland-highland_seed11": dict(
        decks=["highland", "highland"], mode="high-form", seed=11
    ),
    # game index 1: seat 1 takes the first turn
    "high-form_sylvan-highland_seed5_game1": dict(
        decks=["sylvan", "highland"], mode="high-form", seed=5, game_index=1
    ),
    "deathmatch_highland-imperial_seed2_game1": dict(
        decks=["highland", "imperial"], mode="deathmatch", seed=2, game_index=1
    ),
    "melee_imperial-highland-sylvan_seed4": dict(
        decks=["imperial", "highland", "sylvan"], mode="melee", seed=4, policies=("random",) * 3
    ),
    "melee_sylvan-imperial-highland-highland_seed6_game2": dict(
        decks=["sylvan", "imperial", "highland", "highland"],
        mode="melee",
        seed=6,
        game_index=2,
        policies=("random",) * 4,
    ),
    "team-high-form_imperial-highland-sylvan-sylvan_seed8": dict(
        decks=["imperial", "highland", "sylvan", "sylvan"],
        mode="team-high-form",
        seed=8,
        policies=("random",) * 4,
    ),
    "team-deathmatch_highland-sylvan-imperial-highland_seed9_game1": dict(
        decks=["highland", "sylvan", "imperial", "highland"],
        mode="team-deathmatch",
        seed=9,
        game_index=1,
        policies=("random",) * 4,
    ),
    "new-player_imperial-imperial_seed10": dict(
        decks=["imperial", "imperial"], mode="new-player", seed=10
    ),
    # Everfrost: frozen effects stored, replaced and thawed; pieces removed from the game
    "deathmatch_everfrost-imperial_seed2": dict(
        decks=["everfrost", "imperial"], mode="deathmatch", seed=2
    ),
    "high-form_sylvan-everfrost_seed15": dict(
        decks=["sylvan", "everfrost"], mode="high-form", seed=15
    ),
    "melee_everfrost-highland-sylvan_seed2": dict(
        decks=["everfrost", "highland", "sylvan"], mode="melee", seed=2, policies=("random",) * 3
    ),
    "team-deathmatch_everfrost-imperial-highland-everfrost_seed2": dict(
        decks=["everfrost", "imperial", "highland", "everfrost"],
        mode="team-deathmatch",
        seed=2,
        policies=("random",) * 4,
    ),
    # Nethervoid: Gateways marked, followed and lost; possessed summons; the Hound's card
    # under the deck; a legend made by an effect
    "deathmatch_nethervoid-imperial_seed18": dict(
        decks=["nethervoid", "imperial"], mode="deathmatch", seed=18
    ),
    "high-form_everfrost-nethervoid_seed29": dict(
        decks=["everfrost", "nethervoid"], mode="high-form", seed=29
    ),
    "melee_nethervoid-sylvan-highland_seed3": dict(
        decks=["nethervoid", "sylvan", "highland"], mode="melee", seed=3, policies=("random",) * 3
    ),
    "team-high-form_imperial-nethervoid-highland-nethervoid_seed2": dict(
        decks=["imperial", "nethervoid", "highland", "nethervoid"],
        mode="team-high-form",
        seed=2,
        policies=("random",) * 4,
    ),
    # Etherweave: warps and the pending being's penalty, swaps, copied warps, a piece taken
    # into stasis and brought back, void cells, Time Traveler's card put back on the deck
    "high-form_etherweave-sylvan_seed14": dict(
        decks=["etherweave", "sylvan"], mode="high-form", seed=14
    ),
    "deathmatch_imperial-etherweave_seed13": dict(
        decks=["imperial", "etherweave"], mode="deathmatch", seed=13
    ),
    "melee_etherweave-nethervoid-highland_seed19": dict(
        decks=["etherweave", "nethervoid", "highland"],
        mode="melee",
        seed=19,
        policies=("random",) * 3,
    ),
    "team-deathmatch_etherweave-everfrost-etherweave-everfrost_seed30": dict(
        decks=["etherweave", "everfrost", "etherweave", "everfrost"],
        mode="team-deathmatch",
        seed=30,
        policies=("random",) * 4,
    ),
}


def game_log(name: str) -> str:
    content = load_content()
    cfg = GameConfig(**CONFIGS[name])
    s, events = play_logged(content, cfg)
    return format_game(content, cfg, s, events) + "\n"


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_golden_log(name):
    path = GOLDEN_DIR / f"{name}.txt"
    text = game_log(name)
    if REGEN:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text)
        pytest.skip(f"KALARITE_REGEN_GOLDEN=1: rewrote {path.relative_to(GOLDEN_DIR.parent)}")
    assert path.exists(), (
        f"{path} is missing; run KALARITE_REGEN_GOLDEN=1 pytest tests/test_golden.py to create it"
    )
    want = path.read_text()
    if text != want:
        diff = "".join(
            list(
                difflib.unified_diff(
                    want.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    f"golden/{name}.txt",
                    "this run",
                )
            )[:60]
        )
        pytest.fail(
            f"game log differs from tests/golden/{name}.txt (first lines of the diff below). "
            "If the behaviour change is deliberate, regenerate with KALARITE_REGEN_GOLDEN=1.\n"
            + diff
        )


def test_golden_configs_are_distinct_and_cover_several_first_seats():
    logs = [game_log(name) for name in CONFIGS]
    assert len(set(logs)) == len(logs)
    starters = set()
    for log in logs:
        assert log.splitlines()[-1].startswith("final score: ")
        turn1 = next(line for line in log.splitlines() if line.startswith("Turn 1: "))
        starters.add(turn1.split()[3])
    assert {"0", "1", "2"} <= starters
