"""A study the service accepts can start: what the runner would refuse at its start (a study
too finely chunked, output that does not fit on the disk, a content variant missing a card
file) is refused before the 201, with what a service user can change, not the command
line's advice (``--chunk-size``, ``--out``, ``--force``); nothing of it is written. The
service here reaches no Ray (``127.0.0.1:9``): an accepted study fails at once, costing no
game."""

import shutil

import pytest
from fastapi.testclient import TestClient

import sim.study_size
from sim.app.service.app import create_app
from sim.app.service.config import ServiceConfig
from sim.content import DATA_DIR

SPEC = {"decks": [["imperial", "highland"]], "modes": ["high-form"], "policies": "random",
        "games": 40, "seed": 3}  # fmt: skip
CLI_ADVICE = ("--chunk-size", "--out", "--force", "--max-")
GOAL = {
    "goal": {"deck": "everfrost", "band": [0.45, 0.55], "opponents": ["imperial"],
             "modes": ["high-form"]},
    "players": {"screen": "greedy", "confirm": ["greedy", "random"]},
    "budget": {"games": 2000, "first_round": 6, "rounds": 2, "confirm_games": 8,
               "check_games": 2},
}  # fmt: skip


@pytest.fixture(scope="module")
def svc(tmp_path_factory):
    data = tmp_path_factory.mktemp("preflight") / "data"
    config = ServiceConfig(data=data, address="127.0.0.1:9", poll_s=0.1, max_games_matchup=0)
    with TestClient(create_app(config), base_url="http://127.0.0.1") as client:
        yield client


def refused(svc, path, body, status, *needles):
    """``body`` refused at ``path`` (and by /specs/check) with ``status`` and a message
    holding every needle and no command-line advice; nothing stored."""
    before = set(svc.app.state.registry.ids())
    paths = (path, "/api/v1/specs/check") if path == "/api/v1/studies" else (path,)
    for p in paths:
        r = svc.post(p, json=body)
        assert r.status_code == status, (p, r.text)
        error = r.json()["error"]
        assert all(n in error for n in needles), error
        assert not any(a in error for a in CLI_ADVICE), error
    assert set(svc.app.state.registry.ids()) == before
    return error


def test_a_study_of_too_many_chunks_is_refused(svc):
    body = {**SPEC, "games": 150_000, "chunk_size": 1}
    error = refused(svc, "/api/v1/studies", body, 400, "request body", "set a larger chunk_size")
    assert "150,000 chunks of 1 games (at most 100,000)" in error
    ok = svc.post("/api/v1/specs/check", json={**body, "chunk_size": 100})
    assert ok.status_code == 200, ok.text


def test_output_that_does_not_fit_on_the_disk_is_refused(svc, monkeypatch):
    monkeypatch.setattr(sim.study_size, "free_bytes", lambda path: 5_000)
    error = refused(svc, "/api/v1/studies", SPEC, 403, "free", "play fewer games")
    assert "11 kB of Parquet" in error and "5 kB free" in error, error
    assert str(svc.app.state.config.data) not in error
    refused(svc, "/api/v1/suggestions", GOAL, 403, "free", "play fewer games")
    monkeypatch.setattr(sim.study_size, "free_bytes", lambda path: 10**12)
    r = svc.post("/api/v1/studies", json=SPEC)
    assert r.status_code == 201, r.text


def test_a_content_variant_missing_a_card_file_is_refused(svc):
    variant = svc.app.state.config.content_root / "no-flares"
    shutil.copytree(DATA_DIR, variant)
    (variant / "flares.toml").unlink()
    error = refused(svc, "/api/v1/studies", {**SPEC, "content": "no-flares"}, 400, "flares.toml")
    assert error.startswith("request body: content 'no-flares'"), error
    assert str(svc.app.state.config.data) not in error
    body = {**GOAL, "run": {"content": "no-flares"}}
    assert "flares.toml" in refused(svc, "/api/v1/suggestions", body, 400, "request body")
