"""A suggestion run by the service like a study (``POST /api/v1/suggestions``): queued, run
by its child (`kalarite suggest`, in the child's process: ``--workers 0``), finished with its
page as the study's report; a bad goal gets the CLI's one-line message and writes nothing."""

import json

import pytest
from fastapi.testclient import TestClient

from sim.app.service.app import create_app
from sim.app.service.config import ServiceConfig
from tests.service_support import wait_for

GOAL = {
    "goal": {"deck": "everfrost", "band": [0.45, 0.55], "opponents": ["imperial"],
             "modes": ["high-form"]},
    "players": {"screen": "greedy", "confirm": ["greedy", "random"]},
    "edits": {"cards": ["everfrost/war-sled", "everfrost/snow-fox"], "max_candidates": 4},
    "budget": {"games": 2000, "first_round": 6, "rounds": 2, "confirm_games": 8,
               "check_games": 2},
}  # fmt: skip


@pytest.fixture(scope="module")
def svc(tmp_path_factory):
    data = tmp_path_factory.mktemp("service") / "data"
    config = ServiceConfig(data=data, workers=0, max_running=1, poll_s=0.1)
    with TestClient(create_app(config), base_url="http://127.0.0.1") as client:
        yield client


def test_a_suggestion_runs_like_a_study(svc):
    r = svc.post("/api/v1/suggestions", json=GOAL)
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    assert r.json()["summary"]["kind"] == "suggest" and r.json()["games_total"] == 2000

    def done():
        s = svc.get(f"/api/v1/studies/{sid}").json()
        return s if s["state"] in ("finished", "failed") else None

    s = wait_for(done, 900, "the suggestion to finish", every=0.3)
    assert s["state"] == "finished", (s, svc.get(f"/api/v1/studies/{sid}/log").text[-2000:])
    page = svc.get(f"/api/v1/studies/{sid}/report")
    assert page.status_code == 200 and "kalarite suggest" in page.text
    out = svc.app.state.config.report_dir(sid)
    result = json.loads((out / "suggest.json").read_text())
    assert result["goal"]["deck"] == "everfrost" and result["suggestions"]
    assert "[goal]" in svc.app.state.config.study_dir(sid).joinpath("goal.toml").read_text()


@pytest.mark.parametrize(
    "change, needle",
    [
        ({"goal": {"deck": "atlantis", "band": [0.4, 0.5]}}, "unknown deck 'atlantis'"),
        ({"budget": {"games": 0}}, "budget.games"),
        ({"run": {"competence": "/tmp"}}, "not for the service"),
        ({"run": {"content": "../x"}}, "'content'"),
    ],
)
def test_a_bad_goal_gets_the_cli_message(svc, change, needle):
    before = set(svc.app.state.registry.ids())
    body = {**GOAL, **change}
    r = svc.post("/api/v1/suggestions", json=body)
    assert r.status_code == 400 and needle in r.json()["error"], r.text
    assert r.json()["error"].startswith("request body")
    assert set(svc.app.state.registry.ids()) == before
