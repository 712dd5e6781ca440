"""`kalarite serve` as a real process on 127.0.0.1 (one for the module, with its own local
Ray): the web page driven in headless Chromium, a bounded load test, and a kill -9 in the
middle of a study followed by a restart that resumes it.

The tests run in file order on the same service and data directory: the restart test first
(it kills the service and starts it again), then the page (which compares its study with the
restart test's), then the load test."""

import asyncio
import json
import signal
import statistics
import time

import pytest

from results.store import read_manifest, read_table
from tests.support.service import (
    Browser,
    LiveService,
    browser_or_skip,
    child_env,
    our_processes,
    wait_for,
    wait_state,
)

LOAD_READS = 200  # concurrent status reads
LOAD_SUBMITS = 20  # concurrent submissions, at the same time as the reads
LOAD_TIMEOUT_S = 180.0  # each request; the whole burst gets twice that


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    data = tmp_path_factory.mktemp("live") / "data"
    # while this file exists a study's runner waits after each chunk it writes (the runner's
    # test hook): the restart test holds its study part-way with it, the others never see it
    hold = data.parent / "hold"
    env = child_env(KALARITE_TEST_HOLD_FILE=str(hold))
    svc = LiveService(data, "--workers", "1", env=env).start()
    svc.hold = hold
    try:
        yield svc
    finally:
        hold.unlink(missing_ok=True)
        rc = svc.stop()
        # uvicorn shuts down in order on SIGTERM, then lets the signal end the process
        assert rc in (0, -signal.SIGTERM), svc.log.read_text()[-3000:]
        assert "Traceback" not in svc.log.read_text()
        assert not (data / "ray" / "host.pid").exists()  # the service's Ray was shut down
        wait_for(lambda: not our_processes(str(data)) or None, 120, "the children to exit")


def _page_ready(b: Browser):
    return b.eval("document.querySelectorAll('#decks input').length") >= 3


def test_restart_after_kill_9_resumes_the_study(live):
    """First in the module: it also leaves a finished study the page test compares with
    (same decks, mode and players as the page's builder writes by default)."""
    games = 600  # 3 pairings of imperial and highland (mirrors included) x 200
    live.hold.touch()  # the runner stops after its first chunk until the file goes
    with live.client() as c:
        spec = {"name": "survives", "decks": ["imperial", "highland"], "games": 200}
        spec["policies"] = "random"  # fast (the default player is the planner)
        sid = c.post("/studies", json={**spec, "seed": 9, "chunk_size": 20}).json()["id"]
        s = wait_for(
            lambda: (x := c.get(f"/studies/{sid}").json())["games_done"] > 0 and x,
            600,
            "a first chunk",
        )
    # held after exactly one chunk, however fast the games are
    assert s["state"] == "running" and s["games_done"] == 20, s
    live.kill9()
    # the children die with the service (parent-death signal): nothing plays on unwatched
    wait_for(lambda: not our_processes(str(live.data)) or None, 120, "the children to die")
    data = live.data / "studies" / sid / "dataset"
    before = len(read_table(data, "games", columns=["game_index"]))
    assert before == 20
    live.hold.unlink()  # the resumed run plays on without stopping
    live.start(timeout=180)
    with live.client() as c:
        s = wait_state(c, sid, ("finished", "failed"), 900)
    assert s["state"] == "finished" and s["runs"] == 2, s
    t = read_table(data, "games", columns=["matchup", "game_index"]).to_pydict()
    played = sorted(zip(t["matchup"], t["game_index"], strict=True))
    matchups = sorted(set(t["matchup"]))
    assert len(matchups) == 3
    assert played == [(m, i) for m in matchups for i in range(200)]  # exactly N, once each
    runs = read_manifest(data)["runs"]
    assert len(runs) == 2 and runs[-1]["status"] == "complete"
    assert runs[-1]["games_played"] == games - before
    live.restart_study = sid


def test_page_in_headless_chromium(live, tmp_path):
    browser_or_skip()
    # the study to compare with at the end: the restart test's, else a small one
    other = getattr(live, "restart_study", None)
    with live.client() as c:
        if other is None:
            spec = {"name": "other", "decks": ["imperial", "highland"], "games": 10}
            spec["policies"] = "random"
            other = c.post("/studies", json={**spec, "seed": 2}).json()["id"]
            assert wait_state(c, other, ("finished", "failed"), 900)["state"] == "finished"
        player = c.get(f"/studies/{other}").json()["spec"]["policies"][0][0]
    b = Browser()
    try:
        b.goto(live.url + "/")
        wait_for(lambda: _page_ready(b), 120, "the decks, modes and players to be listed")
        assert "local Ray" in b.eval("document.getElementById('info').textContent")
        # the form writes the spec: two decks, High Form, the other study's players, 10 games
        for field, value in (("games", "10"), ("name", "from the page"), ("player", player)):
            b.eval(
                f"(f => {{ f.value = {value!r}; f.dispatchEvent(new Event('change', "
                f"{{bubbles: true}})); }})(document.getElementById({field!r}))"
            )
        spec = b.eval("document.getElementById('spec').value")
        assert 'decks = ["imperial", "highland"]' in spec and "games = 10" in spec, spec
        assert f'policies = "{player}"' in spec, spec
        b.eval("document.getElementById('submit').click()")
        message = wait_for(
            lambda: (
                (b.eval("document.getElementById('submit-message').textContent") or "").startswith(
                    "submitted "
                )
                and b.eval("document.getElementById('submit-message').textContent")
            ),
            120,
            "the submission to be acknowledged",
        )
        sid = message.split()[1]
        assert message == f"submitted {sid} (30 games)"  # 3 pairings (mirrors included) x 10
        row = f"document.getElementById('study-{sid}')"
        wait_for(lambda: b.eval(f"{row} !== null"), 120, "the study in the list")
        state = wait_for(
            lambda: (
                b.eval(f"{row}.dataset.state") in ("finished", "failed")
                and b.eval(f"{row}.dataset.state")
            ),
            900,
            "the page to show the study finished",
        )
        assert state == "finished", b.eval(f"{row}.textContent")
        assert "30 / 30" in b.eval(f"{row}.querySelector('td.games').textContent")
        b.screenshot(tmp_path / "studies.png", full=True)
        # a bad spec shows the CLI's message under the editor
        b.eval("document.getElementById('spec').value = 'games = 10\\n'")
        b.eval("document.getElementById('submit').click()")
        err = wait_for(
            lambda: (
                b.eval("document.getElementById('submit-message').className") == "error"
                and b.eval("document.getElementById('submit-message').textContent")
            ),
            120,
            "the error message",
        )
        assert err == "request body: missing key 'decks'"
        # the report opens from the study's link
        href = b.eval(f"{row}.querySelector('a.report').href")
        assert href == f"{live.url}/api/v1/studies/{sid}/report"
        b.goto(href)
        assert b.eval("document.title") == "kalarite balance report — from the page"
        assert b.eval("document.querySelectorAll('img').length") > 0
        assert b.eval("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
        # compare with the other study: tick both in the list and press Compare
        b.goto(live.url + "/")
        wait_for(lambda: b.eval(f"document.getElementById('study-{other}') !== null"), 120, "list")
        for s in (sid, other):
            b.eval(f"document.querySelector('#study-{s} input.pick').click()")
        assert b.eval("document.getElementById('compare').disabled") is False
        b.eval("document.getElementById('compare').click()")
        # compare.html runs the comparison, then opens the compare page itself (an API file)
        page = f"/api/v1/compare/{sid}/{other}/page"
        wait_for(
            lambda: (
                b.eval("location.pathname") == page
                and b.eval("document.title").startswith("kalarite comparison")
            ),
            600,
            "the compare page",
        )
        assert b.eval("document.querySelector('h1').textContent").startswith("Comparison: ")
        names = b.eval("document.querySelector('h1 + p').textContent")
        assert names == f"B = {other} against A (the baseline) = {sid}.", names
        assert b.eval("document.getElementById('studies') !== null")
        b.screenshot(tmp_path / "compare.png")
    finally:
        b.close()


async def _burst(url: str, read_ids: list) -> list:
    """LOAD_READS status reads and LOAD_SUBMITS submissions at once; (kind, status, seconds,
    id or None) for each. (httpx2, the tests' one HTTP client, with a connection for each
    request: a pool smaller than the burst would queue requests in the client, not in the
    service.)"""
    import httpx2

    n = LOAD_READS + LOAD_SUBMITS
    limits = httpx2.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx2.AsyncClient(base_url=url, timeout=LOAD_TIMEOUT_S, limits=limits) as c:

        async def read(i):
            t = time.perf_counter()
            r = await c.get(f"/api/v1/studies/{read_ids[i % len(read_ids)]}")
            return ("read", r.status_code, time.perf_counter() - t, r.json().get("id"))

        async def submit(i):
            spec = {"name": f"load-{i:02d}", "decks": [["imperial", "highland"]], "games": 10}
            spec["policies"] = "random"
            t = time.perf_counter()
            r = await c.post("/api/v1/studies", json={**spec, "seed": 100 + i})
            return ("submit", r.status_code, time.perf_counter() - t, r.json().get("id"))

        jobs = [read(i) for i in range(LOAD_READS)] + [submit(i) for i in range(LOAD_SUBMITS)]
        return await asyncio.wait_for(asyncio.gather(*jobs), 2 * LOAD_TIMEOUT_S)


def test_load_on_loopback(live, tmp_path):
    """200 concurrent status reads and 20 submissions against 127.0.0.1: every request is
    answered, every submission is registered once, and every submitted study reaches an end
    state after a cancel (none lost)."""
    with live.client() as c:
        read_ids = [s["id"] for s in c.get("/studies").json()["studies"]]
        if not read_ids:  # run on its own: one study of its own to read
            spec = {"name": "to-read", "decks": [["imperial", "highland"]], "games": 10}
            r = c.post("/studies", json={**spec, "policies": "random", "seed": 99})
            assert r.status_code == 201, r.text
            read_ids = [r.json()["id"]]
    t0 = time.perf_counter()
    results = asyncio.run(_burst(live.url, read_ids))
    wall = time.perf_counter() - t0
    reads = [r for r in results if r[0] == "read"]
    submits = [r for r in results if r[0] == "submit"]
    assert len(reads) == LOAD_READS and len(submits) == LOAD_SUBMITS
    assert all(r[1] == 200 for r in reads), {r[1] for r in reads}
    assert {r[3] for r in reads} == set(read_ids[:LOAD_READS])  # each read got its study
    assert all(r[1] == 201 for r in submits), {r[1] for r in submits}
    ids = [r[3] for r in submits]
    assert len(set(ids)) == LOAD_SUBMITS
    latency = sorted(r[2] for r in results)
    figures = {
        "requests": len(results),
        "wall_s": round(wall, 3),
        "requests_per_s": round(len(results) / wall, 1),
        "latency_p50_ms": round(1000 * statistics.median(latency), 1),
        "latency_p95_ms": round(1000 * latency[int(0.95 * len(latency)) - 1], 1),
        "latency_max_ms": round(1000 * latency[-1], 1),
        "submit_max_ms": round(1000 * max(r[2] for r in submits), 1),
    }
    print("load test:", json.dumps(figures))
    (tmp_path / "load.json").write_text(json.dumps(figures))
    with live.client() as c:
        listed = {s["id"]: s for s in c.get("/studies", params={"limit": 1000}).json()["studies"]}
        assert set(ids) <= set(listed)
        assert sorted(listed[i]["name"] for i in ids) == [f"load-{i:02d}" for i in range(20)]
        for sid in ids:
            assert c.post(f"/studies/{sid}/cancel").status_code in (202, 409)  # 409: ended
        for sid in ids:
            s = wait_state(c, sid, ("cancelled", "finished"), 600)
            assert s["error"] is None
