"""The engine indexes arrays without numba's negative-index wraparound (core.jit.indexing):
a negative or too large index would read outside the array silently. The index-checked build
(KALARITE_INDEX_CHECK=1, its own kernel cache) compiles the same kernels with numba's bounds
checks on the raw index, so such an index raises IndexError there: these tests check that it
does, and play games of every player, mode and deck family in that build (the seer, the sage
and the planner included), where any such index would fail the run. Everything else numba
compiles keeps Python's indexing. Run in subprocesses, since the flag is read at import."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

READ_SCRIPT = r"""
import json
import numba
import numpy as np
from core.jit import njit

@njit(cache=False, _nrt=False)
def engine_read(a, i):
    return a[i]

@numba.njit(cache=False)
def plain_read(a, i):
    return a[i]

a = np.arange(5, dtype=np.int32)
out = {"engine_in_range": int(engine_read(a, 4)), "plain_negative": int(plain_read(a, -1))}
for name, i in (("negative", -1), ("past_end", 5)):
    try:
        engine_read(a, i)
        out[name] = "read"
    except IndexError:
        out[name] = "IndexError"
print(json.dumps(out))
"""

# (mode, seat decks, player spec, games, logged): every mode, every deck, every player kind
# and the two learned profiles (the lookahead players on the expansion decks mostly); logged:
# with the event log kept (card events, task claims). The invariant checker's kernel is not
# played here: a second cold compile of the whole engine (about 45 s) for the checker's code.
GAMES = [
    ("high-form", ("imperial", "highland"), "random", 150, False),
    ("deathmatch", ("sylvan", "everfrost"), "random", 150, False),
    ("high-form", ("etherweave", "nethervoid"), "random", 150, False),
    ("deathmatch", ("nethervoid", "etherweave"), "random", 150, False),
    ("melee", ("everfrost", "sylvan", "nethervoid"), "random", 60, False),
    ("team-high-form", ("imperial", "etherweave", "highland", "everfrost"), "random", 40, False),
    ("team-deathmatch", ("nethervoid", "sylvan", "etherweave", "imperial"), "random", 40, False),
    ("new-player", ("imperial", "imperial"), "random", 60, False),
    ("high-form", ("everfrost", "etherweave"), "greedy", 6, False),
    ("deathmatch", ("nethervoid", "highland"), "greedy", 6, False),
    ("high-form", ("nethervoid", "sylvan"), "mc", 1, False),
    ("high-form", ("etherweave", "nethervoid"), "planner", 2, False),
    ("deathmatch", ("nethervoid", "everfrost"), "sage", 2, False),
    ("high-form", ("etherweave", "nethervoid"), "seer", 2, False),
    ("high-form", ("everfrost", "imperial"), "seer", 1, False),
    ("high-form", ("sylvan", "etherweave"), "random", 40, True),
    ("melee", ("imperial", "nethervoid", "everfrost", "highland"), "random", 20, True),
    ("team-deathmatch", ("everfrost", "nethervoid", "sylvan", "etherweave"), "random", 20, True),
]

GAMES_SCRIPT = r"""
import json, sys
from core.kernel import R_ERROR, play
from sim.content import load_content
from sim.games import batch

content = load_content()
played = 0
errors = 0
for mode, decks, spec, n, logged in json.loads(sys.argv[1]):
    b = batch(content, mode, decks, [spec] * len(decks), 4646)
    out = play(b, 0, n, ev_rows=20_000 if logged else 0)
    played += len(out.rows)
    errors += int((out.rows[:, R_ERROR] != 0).sum())
print(json.dumps({"games": played, "errors": errors}))
"""


def _run(script: str, *args: str) -> dict:
    env = dict(os.environ, KALARITE_INDEX_CHECK="1")
    out = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_index_checked_build_catches_indices_outside_an_array():
    res = _run(READ_SCRIPT)
    assert res == {
        "engine_in_range": 4,
        "plain_negative": 4,  # numba's own functions keep Python's wraparound
        "negative": "IndexError",  # the engine's does not wrap: the check sees -1
        "past_end": "IndexError",
    }


def test_games_of_every_player_mode_and_deck_index_inside_their_arrays():
    res = _run(GAMES_SCRIPT, json.dumps(GAMES))
    assert res == {"games": sum(g[3] for g in GAMES), "errors": 0}
