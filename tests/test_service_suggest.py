"""A suggestion run by the service like a study (``POST /api/v1/suggestions``): queued, run
by its child (`kalarite suggest`, in the child's process: ``--workers 0``), finished with its
page as the study's report, its summary (suggest.json), its datasets' manifests and its
tables; its progress the games it played (its budget only the most it may), not the budget.
A bad goal gets the CLI's one-line message and writes nothing."""

import io
import json

import pyarrow.parquet as pq
import pytest
from fastapi.testclient import TestClient

from sim.app.service.app import create_app
from sim.app.service.config import ServiceConfig
from tests.support.service import GOAL, wait_for


@pytest.fixture(scope="module")
def svc(tmp_path_factory):
    data = tmp_path_factory.mktemp("service") / "data"
    config = ServiceConfig(data=data, workers=0, max_running=1, poll_s=0.1)
    with TestClient(create_app(config), base_url="http://127.0.0.1") as client:
        yield client


@pytest.fixture(scope="module")
def finished(svc):
    """A suggestion submitted and run to its end; (its id, its views while it ran, the last)."""
    r = svc.post("/api/v1/suggestions", json=GOAL)
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    assert r.json()["summary"]["kind"] == "suggest" and r.json()["games_total"] == 2000
    assert r.json()["games_budget"] == 2000
    seen = []

    def done():
        s = svc.get(f"/api/v1/studies/{sid}").json()
        seen.append(s)
        return s if s["state"] in ("finished", "failed") else None

    s = wait_for(done, 900, "the suggestion to finish", every=0.3)
    assert s["state"] == "finished", (s, svc.get(f"/api/v1/studies/{sid}/log").text[-2000:])
    return sid, seen, s


def test_a_suggestion_runs_like_a_study(svc, finished):
    sid, _, s = finished
    page = svc.get(f"/api/v1/studies/{sid}/report")
    assert page.status_code == 200 and "kalarite suggest" in page.text
    out = svc.app.state.config.report_dir(sid)
    result = json.loads((out / "suggest.json").read_text())
    assert result["goal"]["deck"] == "everfrost" and result["suggestions"]
    assert "[goal]" in svc.app.state.config.study_dir(sid).joinpath("goal.toml").read_text()


def test_its_progress_counts_the_games_played(svc, finished):
    """Finished: the games its datasets hold, which suggest.json counts too; its budget apart.
    While it ran: never more than it has played by the end, never falling."""
    sid, seen, s = finished
    played = svc.get(f"/api/v1/studies/{sid}/summary").json()["games"]
    assert 0 < played < 2000
    assert (s["games_done"], s["games_total"], s["games_budget"]) == (played, played, 2000)
    done = [v["games_done"] for v in seen]
    assert done == sorted(done) and done[-1] == played
    assert all(v["games_total"] == 2000 for v in seen[:-1])
    assert all(v["eta_s"] is None for v in seen)  # a budget is no target to count down to


def test_its_summary_manifest_and_tables(svc, finished):
    sid, _, s = finished
    root = str(svc.app.state.config.data)
    r = svc.get(s["links"]["summary"])
    assert r.status_code == 200 and root not in r.text
    result = r.json()
    assert result["kalarite_suggest"] == 1 and result["goal"]["deck"] == "everfrost"
    r = svc.get(s["links"]["manifest"])
    assert r.status_code == 200 and root not in r.text
    m = r.json()
    assert m["kind"] == "suggest" and m["goal"]["deck"] == "everfrost"
    names = {d["dataset"] for d in m["datasets"]}
    assert sum(d["games"] for d in m["datasets"]) == result["games"]
    assert all(d["manifest"]["status"] == "complete" and d["what"] for d in m["datasets"])
    assert "content" not in m["datasets"][0]["manifest"]  # every card's data: not here
    for table, href in s["links"]["tables"].items():
        r = svc.get(href)
        assert r.status_code == 200, (table, r.text)
        got = pq.read_table(io.BytesIO(r.content))
        assert set(got.column("dataset").to_pylist()) <= names, table
        if table == "games":
            assert got.num_rows == result["games"]
            assert set(got.column("dataset").to_pylist()) == names
    r = svc.get(f"/api/v1/compare/{sid}/{sid}")  # no one dataset to compare: said so
    assert r.status_code == 409 and "is a suggestion" in r.json()["error"], r.text


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
