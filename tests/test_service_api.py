"""The service's API through FastAPI's test client: submit, progress, finish, report,
downloads, compare, cancel and resume (one service with its own local Ray for the module);
bad specs (the CLI's own messages), oversize bodies, tokens and path-like ids (a second
service whose studies cannot reach Ray, so nothing there costs a game)."""

import io
import json
import re
import shutil
import socket
import tomllib

import pyarrow.parquet as pq
import pytest
from fastapi.testclient import TestClient

from results.store import read_manifest, read_table
from sim.app.cli import main as cli_main
from sim.app.service.app import DataLock, create_app
from sim.app.service.config import ConfigError, ServiceConfig
from sim.content import DATA_DIR
from sim.study import SPEC_KEYS
from tests.support.service import wait_for

TOKEN = "test-token-0123"
SPEC_A = """\
name = "service A"
decks = [["imperial", "highland"]]
modes = ["high-form"]
policies = "random"
games = 300
seed = 11
chunk_size = 20
"""
SPEC_B = {
    "name": "service B",
    "decks": [["imperial", "highland"]],
    "modes": ["high-form"],
    "policies": "random",
    "games": 40,
    "seed": 12,
    "chunk_size": 20,
    "positions": 3,  # B has the positions table, A not
}


def wait_state(client, sid, states, timeout):
    states = (states,) if isinstance(states, str) else tuple(states)

    def check():
        s = client.get(f"/api/v1/studies/{sid}").json()
        return s if s["state"] in states else None

    return wait_for(check, timeout, f"study {sid} to be {'/'.join(states)}", every=0.2)


@pytest.fixture(scope="module")
def svc(tmp_path_factory):
    data = tmp_path_factory.mktemp("service") / "data"
    config = ServiceConfig(data=data, workers=1, max_running=2, poll_s=0.1)
    # while this file exists a study's runner waits after each chunk it writes (the runner's
    # test hook, inherited by the studies' processes): ``pair`` holds study A with it
    hold = data.parent / "hold"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KALARITE_TEST_HOLD_FILE", str(hold))
        with TestClient(create_app(config), base_url="http://127.0.0.1") as client:
            client.hold = hold
            try:
                yield client
            finally:
                hold.unlink(missing_ok=True)
    assert not list((data / "ray").glob("address.json")), "the service's Ray was not stopped"


@pytest.fixture(scope="module")
def pair(svc):
    """Two finished studies: A (TOML) was cancelled in the middle and resumed, B (JSON) ran
    straight through. Meanwhile a queued study is cancelled, resumed and cancelled again.
    A is held after its first chunk (the hold file) until the cancel, so the cancel lands
    while it plays, by construction (B waits after its first chunk too, until the file goes)."""
    svc.hold.touch()
    a = svc.post("/api/v1/studies", content=SPEC_A, headers={"content-type": "application/toml"})
    b = svc.post("/api/v1/studies", json=SPEC_B)
    assert a.status_code == 201, a.text
    assert b.status_code == 201, b.text
    assert a.headers["location"] == f"/api/v1/studies/{a.json()['id']}"
    a, b = a.json()["id"], b.json()["id"]
    # two run at a time: a third waits; cancelled at once while queued, resumable
    d = svc.post("/api/v1/studies", json={**SPEC_B, "name": "waits", "games": 4}).json()["id"]
    assert svc.get(f"/api/v1/studies/{d}").json()["state"] == "queued"
    assert svc.post(f"/api/v1/studies/{d}/cancel").json()["state"] == "cancelled"
    assert svc.post(f"/api/v1/studies/{d}/cancel").status_code == 409
    assert svc.post(f"/api/v1/studies/{d}/resume").json()["state"] == "queued"
    assert svc.post(f"/api/v1/studies/{d}/cancel").json()["state"] == "cancelled"
    # A, running: cancelled after its first chunk, it finishes the chunks in flight and stops
    wait_for(lambda: svc.get(f"/api/v1/studies/{a}").json()["games_done"] > 0, 600, "a chunk")
    assert svc.post(f"/api/v1/studies/{a}/resume").status_code == 409  # running
    r = svc.post(f"/api/v1/studies/{a}/cancel")
    assert r.status_code == 202 and r.json()["cancel_requested"] is True
    cancelled = wait_state(svc, a, "cancelled", 600)
    svc.hold.unlink()
    first_run = read_manifest(svc.app.state.config.dataset_dir(a))["runs"][0]
    assert svc.post(f"/api/v1/studies/{a}/resume").status_code == 202
    for sid in (a, b):
        s = wait_state(svc, sid, ("finished", "failed"), 900)
        assert s["state"] == "finished", s
    return {"a": a, "b": b, "cancelled": cancelled, "first_run": first_run}


def test_health_info_options_and_docs(svc):
    assert svc.get("/healthz").json() == {"status": "ok"}
    info = svc.get("/api/v1/info").json()
    assert info["api"] == "v1" and info["ray"]["mode"] == "local"
    assert info["auth_required"] is False
    opts = svc.get("/api/v1/options").json()
    assert opts["decks"][:3] == ["imperial", "highland", "sylvan"]
    assert {"name": "melee", "seats": [3, 4]} in opts["modes"]
    players = {p["name"]: p for p in opts["players"]}
    assert {"random", "greedy", "mc", "planner", "greedy-tuned", "sage", "seer"} <= set(players)
    assert "playouts" in players["mc"]["parameters"]
    assert "width" in players["planner"]["parameters"]
    tuned = players["greedy-tuned"]
    assert {"name": "greedy-tuned", "profile_of": "greedy"}.items() <= tuned.items()
    rated = [p["rating"] for p in opts["players"] if p["rating"] is not None]
    assert rated == sorted(rated, reverse=True)  # rated players first, the strongest first
    paths = svc.get("/openapi.json").json()["paths"]
    for p in ("/api/v1/studies", "/api/v1/studies/{sid}", "/api/v1/studies/{sid}/summary"):
        assert p in paths
    page = svc.get("/")
    assert page.status_code == 200 and 'id="spec-form"' in page.text
    assert svc.get("/static/app.js").status_code == 200


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_need_no_internet(idle, page):
    """The API docs name no other host: their scripts, styles and icon come from the
    service, from files of an installed package."""
    r = idle.get(page)
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "http://" not in r.text and "https://" not in r.text and "//cdn" not in r.text
    assets = re.findall(r'(?:src|href)="([^"]+)"', r.text)
    assert len(assets) >= 2 and any(a.endswith(".js") for a in assets), assets
    for url in assets + [idle.app.openapi_url]:
        assert url.startswith("/"), url
        got = idle.get(url)
        assert got.status_code == 200 and len(got.content) > 1000, url
    if page == "/docs":
        assert '"validatorUrl": null' in r.text  # no spec sent to an online validator


def test_check_a_spec_without_submitting(idle):
    """POST /specs/check: what the page shows before Submit, from the service's own reading;
    nothing is stored."""
    ids = lambda: {x["id"] for x in idle.get("/api/v1/studies").json()["studies"]}  # noqa: E731
    before = ids()
    body = 'decks = ["highland", "sylvan"]\nmodes = ["high-form", "deathmatch"]\n'
    body += 'policies = ["greedy", "random"]\ngames = 30\nseed = 4\n'
    r = idle.post("/api/v1/specs/check", content=body, headers={"content-type": "text/toml"})
    assert r.status_code == 200, r.text
    s = r.json()["summary"]
    # seats differ: ordered pairs, 4 seat lists a mode
    assert s["modes"] == [
        {"mode": "high-form", "matchups": 4},
        {"mode": "deathmatch", "matchups": 4},
    ]
    assert (s["matchups"], s["games_per_matchup"], s["total_games"]) == (8, 30, 240)
    assert s["players"] == ["greedy vs random"] and s["weak_players"] == ["random"]
    assert s["decks"] == ["highland", "sylvan"] and s["seed"] == 4
    assert r.json()["spec"]["games"] == 30
    assert ids() == before
    bad = idle.post("/api/v1/specs/check", json={"games": 3})
    assert bad.status_code == 400 and bad.json() == {"error": "request body: missing key 'decks'"}


def test_the_page_default_is_the_strongest_player(idle):
    """The page starts from the example spec: the best-rated player of the checked-in
    ladder in every seat; random is listed, as the weak one."""
    opts = idle.get("/api/v1/options").json()
    rated = [p for p in opts["players"] if p["rating"] is not None]
    best = max(rated, key=lambda p: p["rating"])["name"]
    assert opts["page_player"] == best == "seer"
    assert tomllib.loads(opts["example"])["policies"] == best
    assert "random" in [p["name"] for p in opts["players"]] and opts["weak_players"] == ["random"]
    assert all(p["description"] for p in opts["players"])
    r = idle.post(
        "/api/v1/specs/check", content=opts["example"], headers={"content-type": "text/toml"}
    )
    assert r.json()["summary"]["players"] == [f"{best} in every seat"]


def test_submit_runs_to_finished(svc, pair):
    a, b = pair["a"], pair["b"]
    s = svc.get(f"/api/v1/studies/{b}").json()
    assert s["state"] == "finished" and s["phase"] is None and s["error"] is None
    assert s["games_done"] == s["games_total"] == 40 and s["matchups"] == 1 and s["runs"] == 1
    assert s["name"] == "service B" and s["spec"]["seed"] == 12
    assert s["games_per_s"] is None and s["eta_s"] is None  # only while playing
    listed = {x["id"]: x for x in svc.get("/api/v1/studies").json()["studies"]}
    assert {a, b} <= set(listed)
    finished = svc.get("/api/v1/studies", params={"state": "finished"}).json()["studies"]
    assert {a, b} <= {x["id"] for x in finished}
    assert "kalarite: 40 games" in svc.get(f"/api/v1/studies/{b}/log").text


def test_spec_is_kept_as_submitted(svc, pair):
    a, b = pair["a"], pair["b"]
    assert svc.get(f"/api/v1/studies/{a}/spec").text == SPEC_A
    assert tomllib.loads(svc.get(f"/api/v1/studies/{b}/spec").text) == SPEC_B


def test_report_summary_and_manifest(svc, pair):
    a = pair["a"]
    summary = svc.get(f"/api/v1/studies/{a}/summary").json()
    assert summary["kalarite_report"] == 2
    assert summary["data"]["games_analyzed"] == 300
    report = svc.get(f"/api/v1/studies/{a}/report")
    assert report.headers["content-type"].startswith("text/html")
    assert "<title>kalarite balance report — service A</title>" in report.text
    manifest = svc.get(f"/api/v1/studies/{a}/manifest").json()
    assert manifest["status"] == "complete" and manifest["games"] == 300


def test_table_downloads(svc, pair):
    a = pair["a"]
    data = svc.app.state.config.dataset_dir(a)
    for table in ("games", "card_events", "task_claims"):
        r = svc.get(f"/api/v1/studies/{a}/tables/{table}")
        assert r.status_code == 200, r.text
        assert f'filename="{a}-{table}.parquet"' in r.headers["content-disposition"]
        got = pq.read_table(io.BytesIO(r.content))
        assert got.num_rows == read_table(data, table).num_rows
        md = got.schema.metadata
        assert md[b"kalarite.table"] == table.encode() and b"kalarite.chunk" not in md
    games = pq.read_table(io.BytesIO(svc.get(f"/api/v1/studies/{a}/tables/games").content))
    assert sorted(games.column("game_index").to_pylist()) == list(range(300))
    assert set(games.column("matchup").to_pylist()) == {"imperial-vs-highland"}
    # each chunk file records the Ray node and process that played it
    for f in (data / "games").rglob("part-*.parquet"):
        where = json.loads(pq.read_schema(f).metadata[b"kalarite.chunk"])
        assert len(where["node_id"]) == 56 and where["pid"] > 0


def test_positions_download_where_the_study_has_them(svc, pair):
    a, b = pair["a"], pair["b"]
    assert "positions" not in svc.get(f"/api/v1/studies/{a}").json()["links"]["tables"]
    link = svc.get(f"/api/v1/studies/{b}").json()["links"]["tables"]["positions"]
    assert link == f"/api/v1/studies/{b}/tables/positions"
    r = svc.get(f"/api/v1/studies/{a}/tables/positions")
    assert r.status_code == 404 and "has no positions table" in r.text
    r = svc.get(link)
    assert r.status_code == 200, r.text
    got = pq.read_table(io.BytesIO(r.content))
    data = svc.app.state.config.dataset_dir(b)
    assert got.num_rows == read_table(data, "positions").num_rows > 0
    assert got.schema.metadata[b"kalarite.table"] == b"positions"


def test_compare(svc, pair):
    a, b = pair["a"], pair["b"]
    r = svc.get(f"/api/v1/compare/{a}/{b}")
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["kalarite_compare"] == 1
    assert result["a"]["games"] == 300 and result["b"]["games"] == 40
    assert result["a"]["seed"] == 11 and result["b"]["seed"] == 12
    text = svc.get(f"/api/v1/compare/{a}/{b}/text").text
    assert text.startswith("A (baseline): ") and "B - A in percentage points" in text
    assert "how the games ended:" in text and "not measured: one player (" in text
    # the same player on two seeds: the stability rule's verdict between them (an A/A check)
    assert result["stability"]["kind"] == "replicate"
    assert result["stability"]["verdict"] in ("stable", "undetermined")
    assert "stability between A and B (the same players on another seed" in text
    assert svc.get(f"/api/v1/compare/{a}/0123456789ab").status_code == 404
    # the service's compare view is the compare page of `kalarite compare`, not a text dump
    page = svc.get(f"/api/v1/compare/{a}/{b}/page")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for needle in (
        "<title>kalarite comparison",
        "How the games ended · player stability",
        "Stable, player-sensitive or undetermined between A and B",
        'id="significant"',
        "not measured: one player (",
    ):
        assert needle in page.text, needle
    assert '<pre id="text">' not in svc.get("/static/compare.html").text
    js = svc.get("/static/compare.js").text
    assert '"/page"' in js and "location.replace" in js


def test_compare_a_study_with_itself(svc, pair):
    """A/A is an answer, not a failure: 200 with nothing to compare (JSON, text and page)."""
    a = pair["a"]
    r = svc.get(f"/api/v1/compare/{a}/{a}")
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["nothing_to_compare"] is True
    assert result["reason"] == "A and B are the same dataset"
    assert "tables" not in result
    text = svc.get(f"/api/v1/compare/{a}/{a}/text").text
    assert "nothing to compare: A and B are the same dataset" in text
    page = svc.get(f"/api/v1/compare/{a}/{a}/page")
    assert (
        page.status_code == 200 and "Nothing to compare: A and B are the same dataset" in page.text
    )


def test_cancel_and_resume(svc, pair):
    a, cancelled = pair["a"], pair["cancelled"]
    assert cancelled["error"] is None and cancelled["cancel_requested"] is False
    # held after its first chunk: stopped while playing, with the chunks in flight written
    assert 20 <= cancelled["games_done"] < 300
    assert pair["first_run"]["status"] == "interrupted"
    assert pair["first_run"]["games_played"] == cancelled["games_done"]
    s = svc.get(f"/api/v1/studies/{a}").json()
    assert s["state"] == "finished" and s["runs"] == 2 and s["games_done"] == 300
    data = svc.app.state.config.dataset_dir(a)
    games = read_table(data, "games", columns=["game_index"]).column(0).to_pylist()
    assert sorted(games) == list(range(300))  # every game once
    assert svc.post(f"/api/v1/studies/{a}/cancel").status_code == 409
    assert svc.post(f"/api/v1/studies/{a}/resume").status_code == 409


# --- a service whose studies cannot reach Ray: checks that play no game ------------------------


@pytest.fixture(scope="module")
def idle(tmp_path_factory):
    data = tmp_path_factory.mktemp("idle") / "data"
    config = ServiceConfig(data=data, token=TOKEN, address="127.0.0.1:9", poll_s=0.1)
    with TestClient(create_app(config), headers={"authorization": f"Bearer {TOKEN}"}) as c:
        yield c


def test_other_sites_are_refused(svc):
    # no token: only loopback host names (a rebound DNS name pointing at 127.0.0.1 is refused)
    r = svc.get("/api/v1/info", headers={"host": "evil.example"})
    assert r.status_code == 400 and "loopback only" in r.json()["error"]
    assert svc.get("/api/v1/info", headers={"host": "localhost:8000"}).status_code == 200
    assert svc.get("/healthz", headers={"host": "[::1]:8000"}).status_code == 200
    # a browser's cross-site POST is refused before anything happens
    for origin in ("http://evil.example", "null", "http://127.0.0.1:9999"):
        r = svc.post("/api/v1/studies", json=SPEC_B, headers={"origin": origin})
        assert r.status_code == 403 and "cross-site" in r.json()["error"]
    r = svc.post("/api/v1/studies/0123456789ab/cancel", headers={"origin": "http://127.0.0.1"})
    assert r.status_code == 404  # same origin: reaches the API


def test_token(idle):
    bare = {"authorization": ""}
    assert idle.get("/healthz", headers=bare).status_code == 200
    assert idle.get("/", headers=bare).status_code == 200  # the page itself holds no data
    r = idle.get("/api/v1/info", headers=bare)
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    assert "missing token" in r.json()["error"]
    r = idle.get("/api/v1/info", headers={"authorization": "Bearer wrong-token-0123"})
    assert r.status_code == 401 and r.json()["error"] == "wrong token"
    assert idle.get("/api/v1/info", headers={"authorization": "Basic abc"}).status_code == 401
    assert idle.get("/api/v1/info").json()["auth_required"] is True
    # a browser's cookie opens reads (report links, downloads) but changes nothing
    idle.cookies.set("kalarite_token", TOKEN)
    try:
        assert idle.get("/api/v1/studies", headers=bare).status_code == 200
        r = idle.post("/api/v1/studies", json=SPEC_B, headers=bare)
        assert r.status_code == 401
    finally:
        idle.cookies.clear()
    idle.cookies.set("kalarite_token", "wrong-token-0123")
    try:
        assert idle.get("/api/v1/studies", headers=bare).status_code == 401
    finally:
        idle.cookies.clear()


@pytest.fixture(scope="module")
def failed(idle):
    r = idle.post("/api/v1/studies", json={**SPEC_B, "games": 4})
    assert r.status_code == 201
    return wait_state(idle, r.json()["id"], "failed", 300)


def test_a_study_that_cannot_reach_ray_fails_with_the_reason(idle, failed):
    assert failed["error"].startswith("cannot reach Ray at 127.0.0.1:9"), failed["error"]
    assert failed["runs"] == 1 and failed["games_done"] == 0


def test_unfinished_study_has_no_report_yet(idle, failed):
    sid = failed["id"]
    for path in ("summary", "report", "tables/games", "tables/task_claims"):
        r = idle.get(f"/api/v1/studies/{sid}/{path}")
        assert r.status_code == 409, path
        assert r.json()["error"] == f"study {sid} is failed; its report is there once finished"
    assert idle.get(f"/api/v1/studies/{sid}/manifest").status_code == 409  # no dataset
    assert idle.get(f"/api/v1/compare/{sid}/{sid}").status_code == 409


BAD_TOML = [
    'decks = ["imperial", "highland"]\ngames = 10\nfoo = 1\n',
    'decks = ["imperial", "atlantis"]\ngames = 10\n',
    'decks = ["imperial", "highland"]\ngames = 0\n',
    "decks = [\n",
    "games = 10\n",
    'decks = ["imperial", "highland"]\ngames = 10\npolicies = "wizard"\n',
    'decks = ["imperial", "highland"]\ngames = 10\nmodes = "chess"\n',
    'decks = ["imperial", "highland"]\ngames = 10\nseed = -1\n',
]


@pytest.mark.parametrize("text", BAD_TOML)
def test_bad_spec_gets_the_cli_message(idle, tmp_path, capsys, text):
    r = idle.post("/api/v1/studies", content=text, headers={"content-type": "application/toml"})
    assert r.status_code == 400
    spec = tmp_path / "spec.toml"
    spec.write_text(text)
    assert cli_main(["study", str(spec), "--out", str(tmp_path / "out")]) == 2
    cli_line = capsys.readouterr().err.strip()
    # the CLI's message, with the body named as what it is instead of a file name
    error = r.json()["error"]
    assert error.startswith("request body: ") and "spec.toml" not in error, error
    assert cli_line == "kalarite: error: spec.toml: " + error.removeprefix("request body: ")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "body, needle",
    [
        ("[1, 2]", "a study spec is a JSON object"),
        ("{", "not valid JSON"),
        ('{"decks": ["imperial", "highland"], "games": 10.5}', "'games' must be a positive"),
        ('{"decks": ["imperial", "highland"], "games": 5, "chunk_size": null}', "leave the key"),
    ],
)
def test_bad_json_spec(idle, body, needle):
    r = idle.post("/api/v1/studies", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and needle in r.json()["error"], r.text
    assert r.json()["error"].startswith("request body: ") and "spec.toml" not in r.text


def test_spec_media_types(idle):
    r = idle.post("/api/v1/studies", content="games = 1", headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/toml" in r.json()["error"]
    r = idle.post("/api/v1/studies", content=b"\xff\xfe", headers={"content-type": "text/toml"})
    assert r.status_code == 400 and "UTF-8" in r.json()["error"]


@pytest.mark.parametrize("name", ["../x", "/etc", "a/b", "..", ".hidden", "", 3, "x" * 80])
def test_content_variant_must_be_a_name_under_data(idle, name):
    r = idle.post("/api/v1/studies", json={**SPEC_B, "content": name})
    assert r.status_code == 400 and "'content'" in r.json()["error"], r.text


def test_content_variant_from_the_data_directory(idle):
    root = idle.app.state.config.content_root
    (root / "v1").parent.mkdir(exist_ok=True)
    shutil.copytree(DATA_DIR, root / "v1", dirs_exist_ok=True)
    r = idle.post("/api/v1/studies", json={**SPEC_B, "content": "nope"})
    assert r.status_code == 400 and "no content directory 'nope'" in r.json()["error"]
    r = idle.post("/api/v1/studies", json={**SPEC_B, "games": 2, "content": "v1"})
    if "content" in SPEC_KEYS:  # study specs know `content` (a directory of card files)
        assert r.status_code == 201, r.text
        spec = idle.get(f"/api/v1/studies/{r.json()['id']}/spec").text
        # the child reads the directory; the answer names the variant, not the server's path
        assert tomllib.loads(spec)["content"] == "v1"
        assert str(root) not in spec
    else:  # the name passed the service's check; the spec parser has the last word
        assert r.status_code == 400 and "unknown key 'content'" in r.json()["error"]


def test_body_size_limit(idle):
    limit = idle.app.state.config.max_body
    big = "# " + "x" * limit + "\n"
    r = idle.post("/api/v1/studies", content=big, headers={"content-type": "application/toml"})
    assert r.status_code == 413 and str(limit) in r.json()["error"]

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(limit // 1000 + 2):
            yield b"#" * 1000

    r = idle.post("/api/v1/studies", content=chunks(), headers={"content-type": "application/toml"})
    assert r.status_code == 413


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/studies/..%2F..%2Fregistry.sqlite",
        "/api/v1/studies/../../etc/passwd",
        "/api/v1/studies/%2e%2e/summary",
        "/api/v1/studies/ABCDEF012345",
        "/api/v1/studies/0123456789abc",
        "/api/v1/studies/0123456789ab",
        "/api/v1/studies/0123456789ab/report",
        "/api/v1/studies/0123456789ab/tables/games",
        "/api/v1/studies/.%2Fspec.toml/spec",
        "/api/v1/compare/..%2Fx/0123456789ab",
    ],
)
def test_path_like_ids_are_not_found(idle, path):
    r = idle.get(path)
    assert r.status_code == 404, (path, r.status_code, r.text)


def test_unknown_table_and_bad_list_queries(idle, failed):
    sid = failed["id"]
    assert idle.get(f"/api/v1/studies/{sid}/tables/..%2Fgames").status_code == 404
    assert idle.get(f"/api/v1/studies/{sid}/tables/players").status_code == 404
    assert idle.get("/api/v1/studies", params={"state": "lost"}).status_code == 400
    assert idle.get("/api/v1/studies", params={"limit": 0}).status_code == 400
    assert idle.get("/api/v1/studies", params={"limit": "many"}).status_code == 400


def test_config_rules(tmp_path):
    with pytest.raises(ConfigError, match="needs a token"):
        ServiceConfig(data=tmp_path, host="0.0.0.0")
    with pytest.raises(ConfigError, match="at least 8"):
        ServiceConfig(data=tmp_path, host="0.0.0.0", token="short")
    assert ServiceConfig(data=tmp_path, host="0.0.0.0", token=TOKEN).token == TOKEN
    assert ServiceConfig(data=tmp_path, host="::1").token is None
    config = ServiceConfig(data=tmp_path / "d")
    config.prepare()
    held = DataLock(config).acquire()
    try:
        with pytest.raises(ConfigError, match="another kalarite serve"):
            DataLock(config).acquire()
    finally:
        held.release()
    DataLock(config).acquire().release()


def test_serve_refuses_a_public_address_without_token(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("KALARITE_TOKEN", raising=False)
    assert cli_main(["serve", "--host", "0.0.0.0", "--data", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kalarite: error: binding to 0.0.0.0 needs")
    assert not (tmp_path / "d").exists()


def test_serve_refuses_a_port_in_use(tmp_path, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        rc = cli_main(["serve", "--port", str(port), "--data", str(tmp_path / "d")])
    assert rc == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"kalarite: error: cannot listen on 127.0.0.1:{port}: ")
    assert len(err.splitlines()) == 1 and not (tmp_path / "d").exists()
