"""Golden playthroughs: fixed games, printed with the engine's own state and options
(tests/support/playthrough.py), must not change by accident.

Each configuration's playthrough is compared with the checked-in
``tests/golden/<name>.txt``; the configurations cover every deck and every mode. Regenerating
is a deliberate command (tests/golden/README.md), never a side effect of running the tests.
"""

import difflib

import numpy as np
import pytest

from core import constants as K
from sim.content import load_content
from sim.single_game import play_logged, play_stepwise
from tests.support.playthrough import CONFIGS, GOLDEN_DIR, config, golden_text

CONTENT = load_content()


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_golden_playthrough(name):
    path = GOLDEN_DIR / f"{name}.txt"
    assert path.exists(), (
        f"{path} is missing; write it with "
        f"`.venv/bin/python -m tests.support.playthrough --write {name}`"
    )
    text, want = golden_text(name), path.read_text()
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
            f"the playthrough differs from tests/golden/{name}.txt (first lines of the diff "
            "below). If the change is deliberate, rewrite it with `.venv/bin/python -m "
            f"tests.support.playthrough --write {name}` and read the whole diff.\n" + diff
        )


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_playthrough_is_the_kernels_game(name):
    """The game printed step by step is the one the kernel plays (the studies' game)."""
    cfg = config(name)
    s, events = play_logged(CONTENT, cfg)
    s2, events2 = play_stepwise(CONTENT, cfg)
    assert np.array_equal(s, s2) and np.array_equal(events, events2)


def test_the_goldens_cover_every_deck_and_every_mode():
    decks = {d for c in CONFIGS.values() for d in c["decks"]}
    modes = {c["mode"] for c in CONFIGS.values()}
    assert set(CONTENT.decks) <= decks, f"no golden plays {set(CONTENT.decks) - decks}"
    assert set(K.MODE_NAMES) <= modes, f"no golden plays {set(K.MODE_NAMES) - modes}"


def test_the_goldens_are_every_file_and_nothing_else():
    assert {p.stem for p in GOLDEN_DIR.glob("*.txt")} == set(CONFIGS)


def test_golden_configs_are_distinct_and_cover_several_first_seats():
    logs = [(GOLDEN_DIR / f"{name}.txt").read_text() for name in CONFIGS]
    assert len(set(logs)) == len(logs)
    starters = set()
    for log in logs:
        assert log.splitlines()[-1].startswith("final score: ")
        turn1 = next(line for line in log.splitlines() if line.startswith("Turn 1: "))
        starters.add(turn1.split()[3])
    assert {"0", "1", "2"} <= starters
