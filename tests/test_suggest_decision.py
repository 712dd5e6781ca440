"""The one decision module of `kalarite suggest` (results/suggest/decision.py): the direction,
the race's stops, the finalists, the acceptance; the simulation benchmark runs this very
module; suggest rests on the top two players by default; and the suggestion's one session is
lent to every study it plays."""

import ast
import pathlib

import numpy as np
import pytest

from benchmarks import suggest_sim
from results.suggest import decision
from results.suggest.decision import Arm, Rules
from sim.strength import strongest_players
from sim.suggest.goal import Goal, goal_from_dict
from sim.suggest.grammar import BUFF, NERF

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULES = Rules("vs-field", (0.45, 0.52), 0.01, 0.05, 4, 3)
CELLS = [{"mode": "high-form", "opponent": o, "mean": 0.3} for o in ("imperial", "sylvan")]


def _rates(mean, lo, hi):
    return {"pooled": {"mean": mean, "lo": lo, "hi": hi}}


def test_direction_buff_nerf_met_and_unclear():
    d = decision.direction(RULES, _rates(0.3, 0.25, 0.35), CELLS)
    assert d["direction"] == BUFF and not d["met"]
    assert set(d["weights"].values()) == {BUFF} and len(d["weights"]) == 2
    assert decision.direction(RULES, _rates(0.7, 0.6, 0.8), CELLS)["direction"] == NERF
    assert decision.direction(RULES, _rates(0.48, 0.46, 0.5), CELLS)["met"]
    unclear = decision.direction(RULES, _rates(0.44, 0.40, 0.48), CELLS)
    assert unclear["direction"] == BUFF and "not clearly outside" in unclear["why"]


def test_direction_of_a_floor_goal_weighs_each_matchup():
    rules = Rules("matchup-floor", (0.4, 0.6))
    cells = [{"mode": "deathmatch", "opponent": "a", "mean": 0.3},
             {"mode": "deathmatch", "opponent": "b", "mean": 0.5},
             {"mode": "deathmatch", "opponent": "c", "mean": 0.7}]  # fmt: skip
    d = decision.direction(rules, {}, cells)
    assert d["weights"] == {("deathmatch", "a"): BUFF, ("deathmatch", "b"): 0,
                            ("deathmatch", "c"): NERF}  # fmt: skip
    assert d["direction"] == 0 and not d["met"]


def _modes(lo, hi):
    return {"high-form": {"projected": (lo + hi) / 2, "projected_lo": lo, "projected_hi": hi}}


def test_after_round_stops_with_the_finalists_or_inside_the_band():
    rng = np.random.default_rng(1)
    arms = [Arm(f"c{i}", i) for i in range(8)]
    u = (rng.uniform(size=(8, 50)) < 0.2).astype(float)
    res = decision.after_round(u, arms, 0, RULES, k0=8)
    assert res["stop"] is None and sum(a.alive for a in arms) == 4
    alive = [a for a in arms if a.alive]
    inside = {a.cid: _modes(0.46, 0.50) for a in alive}
    res = decision.after_round(u[: len(alive)], arms, 1, RULES, k0=8, modes=inside,
                               halving=False)  # fmt: skip
    assert res["stop"] == "inside the band"
    assert all(a.history[-1]["modes"] == inside[a.cid] for a in alive)
    res = decision.after_round(u[: len(alive)], arms, 2, RULES, k0=8)
    assert res["stop"] == "finalists" and sum(a.alive for a in arms) == 3


def test_finalists_are_the_best_survivors_and_edits_projected_inside_the_band():
    rows = [
        {"cid": "a", "alive": True, "history": [{"modes": _modes(0.3, 0.4)}]},
        {"cid": "b", "alive": True, "history": [{"modes": _modes(0.3, 0.4)}]},
        {"cid": "c", "alive": True, "history": [{"modes": _modes(0.3, 0.4)}]},
        {"cid": "d", "alive": True, "history": [{"modes": _modes(0.3, 0.4)}]},
        {"cid": "e", "alive": False, "history": [{"modes": _modes(0.46, 0.51)}]},
        {"cid": "f", "alive": False, "history": []},
    ]
    assert decision.finalists(RULES, rows, room=10) == ["a", "b", "c", "e"]
    assert decision.finalists(RULES, rows, room=2) == ["a", "b"]
    floor = Rules("matchup-floor", (0.45, 0.52), keep=3)
    assert decision.finalists(floor, rows, room=10) == ["a", "b", "c"]


def _replayed(confirmed, effect):
    by_player = {"p": {"effect": effect}, "q": {"effect": effect + 0.002}}
    return {"confirmed": confirmed, "objective_by_player": by_player}


def test_accept_takes_the_largest_confirmed_effect_at_least_the_smallest():
    results = {"a": _replayed(True, 0.02), "b": _replayed(True, 0.05), "c": _replayed(False, 0.09)}
    assert decision.replay_order(results) == ["b", "a", "c"]
    assert decision.accept(RULES, results) == "b"
    assert decision.accept(RULES, {"a": _replayed(True, 0.004)}) is None
    assert decision.accept(RULES, {"c": _replayed(False, 0.09)}) is None
    assert decision.accept(RULES, {}) is None


def test_reached_reads_the_projection_or_every_matchup():
    assert decision.reached(RULES, {"high-form": 0.47, "deathmatch": 0.5}, [])
    assert not decision.reached(RULES, {"high-form": 0.47, "deathmatch": 0.44}, [])
    floor = Rules("matchup-floor", (0.4, 0.6))
    assert decision.reached(floor, {}, [{"projected": 0.45}, {"projected": None}])
    assert not decision.reached(floor, {}, [{"projected": 0.45}, {"projected": 0.62}])


def test_the_simulation_imports_the_one_decision_module(monkeypatch):
    """benchmarks/suggest_sim.py decides with results.suggest.decision, not a copy: it
    imports the module, defines none of its decisions, and a step calls each of them."""
    tree = ast.parse((ROOT / "benchmarks" / "suggest_sim.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "results.suggest.decision" in imported or "results.suggest" in imported
    defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    decisions = {"direction", "after_round", "decide_round", "finalists", "confirm", "accept",
                 "bounds", "levels", "replay_order"}  # fmt: skip
    assert not defined & decisions
    assert suggest_sim.decision is decision
    called = []
    for name in ("direction", "after_round", "finalists", "confirm", "accept"):
        real = getattr(decision, name)
        monkeypatch.setattr(decision, name, lambda *a, _r=real, _n=name, **k: called.append(_n)
                            or _r(*a, **k))  # fmt: skip
    rng = np.random.default_rng(3)
    eff, q = suggest_sim.calibrated(rng, k=12)
    suggest_sim.step(rng, eff, q, first=40, confirm_pairs=200)
    assert {"direction", "after_round", "finalists", "confirm", "accept"} <= set(called)


def test_default_players_are_the_top_two(tmp_path):
    from sim.content import load_content

    top = strongest_players(2)
    goal = Goal("everfrost")
    assert goal.screen_player == top[0] and goal.confirm_players == tuple(top)
    spec = goal_from_dict({"goal": {"deck": "everfrost", "band": [0.45, 0.52]}}, load_content())
    assert spec.screen_player == top[0] and spec.confirm_players == tuple(top)
    chosen = Goal("everfrost", screen_player="greedy", confirm_players=("greedy", "random"))
    assert chosen.screen_player == "greedy" and chosen.confirm_players == ("greedy", "random")
    from sim.app.suggest.run import players_text

    assert "(the default)" in players_text(goal) and top[0] in players_text(goal)
    assert f"the top two are {top[0]} and {top[1]}" in players_text(chosen)


class _Session:
    workers = 1
    closed = 0

    def close(self):
        self.closed += 1


def test_the_suggestion_lends_its_one_session_to_every_run(monkeypatch, tmp_path):
    from cluster import session as sessions
    from sim.app.suggest import run as run_mod

    opened = _Session()
    monkeypatch.setattr(sessions, "open_session", lambda *a, **k: opened)
    seen, played = [], []

    def fake_step(ctx, step, content_dir):
        seen.append(ctx.session)
        ctx.play(object(), None, tmp_path / "d", "a study")
        return {"step": step, "status": "met", "suggestions": []}

    def fake_run_study(study, content, out, **kw):
        played.append(kw["session"])
        raise KeyboardInterrupt  # stop here: the study itself is not the point

    monkeypatch.setattr(run_mod, "run_step", fake_step)
    monkeypatch.setattr("cluster.runner.run_study", fake_run_study)
    goal = Goal("everfrost", band=(0.45, 0.55), screen_player="greedy",
                confirm_players=("greedy", "random"))  # fmt: skip
    with pytest.raises(KeyboardInterrupt):
        run_mod.run_suggest(goal, tmp_path / "o", workers=2, quiet=True)
    assert seen == [opened] and played == [opened] and opened.closed == 1


def test_a_lent_session_is_left_open():
    from cluster.session import open_session

    real = _Session()
    lent = open_session(4, None, None, lent=real)
    lent.close()
    assert real.closed == 0 and lent.workers == 1
