"""The phase timers of core.jit.profile (benchmarks/profile.py reads them): a profiled build
counts every phase's calls and charges its cycles to the innermost open phase; a plain
build's timers do nothing. Run in subprocesses, since the flag is read at import."""

import json
import os
import subprocess
import sys

from benchmarks.profile import compare_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r"""
import json
from core.jit import njit
from core.jit import profile as P

@njit(cache=False, _nrt=False)
def inner(n):
    P.enter(P.P_KEYS)
    x = 0
    for i in range(n):
        x += i * i
    P.leave()
    return x

@njit(cache=False, _nrt=False)
def outer(n):
    P.start_timers()
    total = 0
    for _ in range(3):
        P.enter(P.P_PLAYER)
        total += inner(n)
        P.leave()
    return total

outer(10)  # compile
P.reset()
outer(200000)
print(json.dumps({"profile": P.PROFILE, "phases": P.read()}))
"""


def _run(profiled: bool) -> dict:
    env = dict(os.environ)
    env.pop("KALARITE_PROFILE", None)
    if profiled:
        env["KALARITE_PROFILE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_profiled_timers_count_calls_and_charge_the_innermost_phase():
    res = _run(True)
    assert res["profile"] is True
    ph = res["phases"]
    assert ph["player"]["calls"] == 3 and ph["keys"]["calls"] == 3
    assert ph["keys"]["self"] > 0 and ph["player"]["self"] > 0
    # the inner phase's cycles are its own, and count in its caller's inclusive time
    assert ph["keys"]["self"] == ph["keys"]["inclusive"]
    assert ph["player"]["inclusive"] >= ph["player"]["self"] + ph["keys"]["inclusive"]
    assert ph["keys"]["callers"] == {"player": ph["keys"]["inclusive"]}
    assert ph["player"]["callers"] == {"kernel": ph["player"]["inclusive"]}
    assert all(v["calls"] == 0 for k, v in ph.items() if k not in ("player", "keys"))


def test_plain_build_timers_do_nothing():
    res = _run(False)
    assert res["profile"] is False
    assert all(v["calls"] == 0 and v["self"] == 0 for v in res["phases"].values())


def test_compare_table_lists_each_phase_before_and_after():
    def run(ms, share):
        phases = {"keys": {"self_s": ms / 1000 * 10, "self_share": share}}
        return {
            "workloads": {
                "w": {
                    "policy": "planner", "mode": "high-form", "decks": ["a", "b"],
                    "games": 10, "plain_cpu_per_game_ms": ms, "phases": phases,
                }
            }
        }  # fmt: skip

    table = compare_table(run(2.0, 0.5), run(1.0, 0.25))
    assert "plain 2.0 -> 1.0 ms a game" in table
    assert "| keys | 2.000 | 50.0% | 1.000 | 25.0% |" in table
