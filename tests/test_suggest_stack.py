"""`kalarite suggest --stack N`: the best confirmed edit that moves the goal by at least the
smallest effect is accepted and becomes the base of the next step, until the goal is met or
no edit clears the smallest effect (the steps' searches replaced by their results here; the
end-to-end test runs real steps)."""

import pytest

from sim.app.suggest import run as run_mod
from sim.suggest.goal import Goal


def _suggestion(cid, effect, projected, confirmed=True):
    modes = {"high-form": projected}
    return {
        "cid": cid,
        "edit": f"everfrost/x {cid}",
        "content": f"/c/{cid}",
        "status": "confirmed" if confirmed else "not confirmed",
        "effect": {"high-form": effect},
        "projected": modes,
        "confirmation": {
            "objective_by_player": {"a": {"effect": effect}, "b": {"effect": effect}},
            "cells": [],
        },
    }


@pytest.fixture
def steps(monkeypatch, tmp_path):
    calls = []
    script = {}

    def fake_step(ctx, step, content_dir):
        calls.append((step, content_dir))
        return {"step": step, "status": "searched", **script[step]}

    monkeypatch.setattr(run_mod, "run_step", fake_step)
    monkeypatch.setattr("sim.app.suggest.page.write_outputs", lambda result, out, **_: None)
    return calls, script


def _goal(stack):
    return Goal("everfrost", band=(0.45, 0.55), modes=("high-form",), stack=stack,
                min_effect=0.01)  # fmt: skip


def test_accept_rebase_and_reach(steps, tmp_path):
    calls, script = steps
    script[1] = {"suggestions": [_suggestion("c001", 0.04, 0.40), _suggestion("c002", 0.03, 0.39)]}
    script[2] = {"suggestions": [_suggestion("c005", 0.06, 0.46)]}
    res = run_mod.run_suggest(_goal(3), tmp_path / "o", workers=0, quiet=True)
    assert calls == [(1, None), (2, "/c/c001")]
    assert res["status"] == "reached" and [s["cid"] for s in res["stack"]] == ["c001", "c005"]


def test_stops_when_no_edit_clears_the_smallest_effect(steps, tmp_path):
    calls, script = steps
    script[1] = {
        "suggestions": [
            _suggestion("c001", 0.004, 0.36),
            _suggestion("c002", 0.09, 0.5, confirmed=False),
        ]
    }
    res = run_mod.run_suggest(_goal(3), tmp_path / "o", workers=0, quiet=True)
    assert calls == [(1, None)] and res["stack"] == []
    assert res["status"] == "no edit clears the smallest effect"


def test_stack_limit_and_a_single_step(steps, tmp_path):
    calls, script = steps
    script[1] = {"suggestions": [_suggestion("c001", 0.04, 0.40)]}
    script[2] = {"suggestions": [_suggestion("c003", 0.02, 0.42)]}
    res = run_mod.run_suggest(_goal(2), tmp_path / "o", workers=0, quiet=True)
    assert res["status"] == "stack limit" and [s["cid"] for s in res["stack"]] == ["c001"]
    res = run_mod.run_suggest(_goal(1), tmp_path / "p", workers=0, quiet=True)
    assert res["status"] == "stack limit" and res["stack"] == []  # one edit, goal not reached


def test_met_at_once(steps, tmp_path):
    calls, script = steps
    script[1] = {"status": "met", "suggestions": []}
    res = run_mod.run_suggest(_goal(3), tmp_path / "o", workers=0, quiet=True)
    assert res["status"] == "met" and calls == [(1, None)]
