"""A service a team shares: users' tokens and roles (``kalarite serve tokens``), the limits
on what a submission may cost, ``DELETE /studies/{id}`` and progress as server-sent events.

One service for the module, run in-process on uvicorn (a real socket, so event streams are
read as they come) with its executor stopped: no study ever starts by itself, and the tests
move a study's state through the registry where they need a running or finished one. So
nothing here plays a game, and each test sees exactly the states it set."""

import contextlib
import hashlib
import io
import json
import sqlite3
import threading

import httpx2
import pytest
import uvicorn
from fastapi.testclient import TestClient

from sim.app.cli import main as cli_main
from sim.app.service.app import create_app
from sim.app.service.config import ConfigError, ServiceConfig, parse_size
from sim.app.service.registry import Registry
from sim.app.service.removal import sweep
from tests.support.service import wait_for

SPEC = {
    "name": "tiny",
    "decks": [["imperial", "highland"]],
    "modes": ["high-form"],
    "policies": "random",
    "games": 4,
    "seed": 3,
}
JSON = {"content-type": "application/json"}
ROLES = {"alice": "submit", "bob": "submit", "reader": "read", "root": "admin"}


def cli(*argv) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cli_main(list(argv))
    return rc, out.getvalue()


def add_token(data, name, role) -> str:
    rc, out = cli("serve", "tokens", "add", name, "--role", role, "--data", str(data))
    assert rc == 0
    return out.strip()


class InProcess:
    """The app on uvicorn in a thread of this process, its executor stopped."""

    def __init__(self, config: ServiceConfig):
        self.app = create_app(config)
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        wait_for(lambda: self.server.started, 120, "uvicorn to start", every=0.05)
        self.app.state.executor.stop()  # nothing starts by itself: the tests move states
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/api/v1"
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(60)

    def client(self, token: str | None) -> httpx2.Client:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return httpx2.Client(base_url=self.url, headers=headers, timeout=60)


@pytest.fixture(scope="module")
def svc(tmp_path_factory):
    data = tmp_path_factory.mktemp("users") / "data"
    tokens = {name: add_token(data, name, role) for name, role in ROLES.items()}
    config = ServiceConfig(
        data=data,
        address="127.0.0.1:9",
        poll_s=0.1,
        max_games_study=800,
        max_games_matchup=300,
        max_active_per_user=3,
        disk_quota=0,
    )
    with InProcess(config) as s:
        s.config, s.tokens, s.registry = config, tokens, s.app.state.registry
        s.as_ = {name: s.client(t) for name, t in tokens.items()}
        try:
            yield s
        finally:
            for c in s.as_.values():
                c.close()


@pytest.fixture(autouse=True)
def settle(request):
    """After each test, every study the service has is ended (per-user counts start at 0)."""
    yield
    if "svc" not in request.fixturenames:
        return
    registry = request.getfixturevalue("svc").registry
    for row in registry.list(limit=1000):
        if row.state == "queued":
            registry.cancel(row.id)
        elif row.state == "running":
            registry.finish(row.id, "cancelled")


def submit(s, who: str, **spec) -> str:
    r = s.as_[who].post("/studies", json={**SPEC, **spec})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def end(s, sid: str, state: str = "finished"):
    """Move a queued study to ``state`` as the executor would (queued -> running -> state)."""
    assert s.registry.start(sid)
    assert s.registry.finish(sid, state)


def written(s) -> tuple:
    """What the data directory holds of studies: their directories and registry rows."""
    return sorted(p.name for p in (s.config.data / "studies").iterdir()), sorted(s.registry.ids())


# --- tokens ----------------------------------------------------------------------------------


def test_tokens_are_random_and_stored_only_hashed(svc):
    raw = (svc.config.registry_path).read_bytes()
    wal = svc.config.registry_path.with_name("registry.sqlite-wal")
    raw += wal.read_bytes() if wal.exists() else b""
    db = sqlite3.connect(svc.config.registry_path)
    rows = {n: (r, h) for n, r, h in db.execute("SELECT name, role, hash FROM tokens")}
    db.close()
    assert len(set(svc.tokens.values())) == len(ROLES)
    for name, token in svc.tokens.items():
        assert token.startswith("klr_") and len(token) >= 40
        assert token.encode() not in raw  # never in clear
        assert rows[name] == (ROLES[name], hashlib.sha256(token.encode()).hexdigest())
    rc, out = cli("serve", "tokens", "list", "--data", str(svc.config.data))
    assert rc == 0 and all(f"{n}" in out and ROLES[n] in out for n in ROLES)
    assert not any(t in out for t in svc.tokens.values())


def test_token_cli_refusals(svc, capsys):
    data = str(svc.config.data)
    for argv, needle in (
        (["add", "alice", "--role", "read"], "a token named 'alice' exists already"),
        (["add", "two words", "--role", "read"], "a token name is"),
        (["add", "shared-token", "--role", "read"], "a name the service uses itself"),
        (["add", "x", "--role", "owner"], "invalid choice: 'owner'"),
        (["revoke", "nobody"], "no token named 'nobody'"),
    ):
        assert cli("serve", "tokens", *argv, "--data", data)[0] == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("kalarite: error: ") and needle in err[0]
    rc, out = cli("serve", "tokens", "list", "--data", str(svc.config.data.parent / "none"))
    assert rc == 0 and "no tokens" in out
    assert not (svc.config.data.parent / "none").exists()


def test_who_is_who(svc):
    for name, role in ROLES.items():
        assert svc.as_[name].get("/info").json()["you"] == {"name": name, "role": role}
    with svc.client(None) as c:
        r = c.get("/studies")
        assert r.status_code == 401 and "missing token" in r.json()["error"]
    with svc.client("klr_" + "x" * 43) as c:
        assert c.get("/studies").json()["error"] == "wrong token"
    # the page's cookie opens reads only
    with httpx2.Client(base_url=svc.url, cookies={"kalarite_token": svc.tokens["alice"]}) as c:
        assert c.get("/studies").status_code == 200
        assert c.post("/studies", json=SPEC).status_code == 401


def test_read_role_only_reads(svc):
    sid = submit(svc, "alice")
    reader = svc.as_["reader"]
    assert reader.get(f"/studies/{sid}").status_code == 200
    assert reader.post("/specs/check", json=SPEC).status_code == 200
    for method, path in (
        ("POST", "/studies"),
        ("POST", f"/studies/{sid}/cancel"),
        ("POST", f"/studies/{sid}/resume"),
        ("DELETE", f"/studies/{sid}"),
    ):
        r = reader.request(method, path, content=json.dumps(SPEC), headers=JSON)
        assert r.status_code == 403, (method, path, r.text)
        assert r.json()["error"] == "token 'reader' has the read role; this needs submit"


def test_every_study_names_its_submitter_and_only_they_or_an_admin_change_it(svc):
    sid = submit(svc, "alice")
    view = svc.as_["bob"].get(f"/studies/{sid}").json()
    assert view["owner"] == "alice" and view["links"]["events"].endswith(f"/{sid}/events")
    assert any(s["owner"] == "alice" for s in svc.as_["bob"].get("/studies").json()["studies"])
    r = svc.as_["bob"].post(f"/studies/{sid}/cancel")
    assert r.status_code == 403
    assert (
        r.json()["error"]
        == f"study {sid} belongs to 'alice': only its owner or an admin may cancel it"
    )
    assert svc.registry.get(sid).state == "queued"  # refused: nothing changed
    assert svc.as_["alice"].post(f"/studies/{sid}/cancel").json()["state"] == "cancelled"
    assert svc.as_["bob"].post(f"/studies/{sid}/resume").status_code == 403
    assert svc.as_["root"].post(f"/studies/{sid}/resume").json()["state"] == "queued"
    assert svc.as_["root"].post(f"/studies/{sid}/cancel").json()["state"] == "cancelled"


def test_a_revoked_token_is_refused_at_once(svc):
    token = add_token(svc.config.data, "temp", "submit")
    with svc.client(token) as c:
        assert c.get("/info").json()["you"] == {"name": "temp", "role": "submit"}
        assert cli("serve", "tokens", "revoke", "temp", "--data", str(svc.config.data))[0] == 0
        r = c.get("/info")  # same running service, no restart
        assert r.status_code == 401 and r.json()["error"] == "wrong token"


def test_shared_token_is_an_admin_and_an_open_service_closes_with_its_first_token(tmp_path):
    shared = "shared-secret-0123"
    data = tmp_path / "shared"
    user = add_token(data, "carol", "submit")
    config = ServiceConfig(data=data, token=shared, address="127.0.0.1:9")
    with TestClient(create_app(config), base_url="http://127.0.0.1") as c:
        you = c.get("/api/v1/info", headers={"authorization": f"Bearer {shared}"}).json()["you"]
        assert you == {"name": "shared-token", "role": "admin"}
        you = c.get("/api/v1/info", headers={"authorization": f"Bearer {user}"}).json()["you"]
        assert you == {"name": "carol", "role": "submit"}
    # no token of any kind, on loopback: open as before, everyone is the admin "local"
    config = ServiceConfig(data=tmp_path / "open", address="127.0.0.1:9")
    with TestClient(create_app(config), base_url="http://127.0.0.1") as c:
        info = c.get("/api/v1/info").json()
        assert info["auth_required"] is False and info["you"] == {"name": "local", "role": "admin"}
        token = add_token(config.data, "dave", "read")
        assert c.get("/api/v1/info").status_code == 401  # the first token closes it
        r = c.get("/api/v1/info", headers={"authorization": f"Bearer {token}"})
        assert r.json()["auth_required"] is True
        # closed: a non-loopback Host name is no longer refused for rebinding reasons
        r = c.get("/api/v1/info", headers={"authorization": f"Bearer {token}", "host": "team"})
        assert r.status_code == 200


def test_binding_beyond_loopback_needs_some_token(tmp_path):
    with pytest.raises(ConfigError, match="needs a token"):
        ServiceConfig(data=tmp_path / "d", host="0.0.0.0")
    assert not (tmp_path / "d").exists()
    add_token(tmp_path / "d", "erin", "admin")
    assert ServiceConfig(data=tmp_path / "d", host="0.0.0.0").token is None


# --- limits ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, status, message",
    [
        (
            {"games": 301},
            400,
            "request body: games = 301 per matchup is over this service's limit of 300 "
            "(kalarite serve --max-games-per-matchup)",
        ),
        (
            {"decks": ["imperial", "highland"], "games": 300},
            400,
            "request body: 900 games in all (3 matchups x 300) is over this service's limit of "
            "800 per study (kalarite serve --max-games-per-study)",
        ),
    ],
)
def test_games_limits(svc, spec, status, message):
    before = written(svc)
    for path in ("/specs/check", "/studies"):
        r = svc.as_["alice"].post(path, json={**SPEC, **spec})
        assert r.status_code == status and r.json() == {"error": message}, r.text
    assert written(svc) == before


def test_studies_queued_or_running_per_user(svc):
    first = submit(svc, "alice")
    assert svc.registry.start(first)  # running counts too
    submit(svc, "alice")
    submit(svc, "alice")
    before = written(svc)
    r = svc.as_["alice"].post("/studies", json=SPEC)
    assert r.status_code == 429
    assert r.json()["error"] == (
        "'alice' already has 3 studies queued or running, this service's limit (kalarite "
        "serve --max-active-per-user): wait for one to end, or cancel one"
    )
    assert written(svc) == before
    submit(svc, "bob")  # per user: bob has his own three
    for _ in range(4):
        submit(svc, "root")  # admins are not limited
    assert svc.registry.finish(first, "finished")
    submit(svc, "alice")  # one ended: room for one more


def test_disk_quota(svc):
    before = written(svc)
    svc.config.disk_quota = parse_size("1K")
    svc.app.state.disk.forget()
    try:
        r = svc.as_["root"].post("/studies", json=SPEC)
        assert r.status_code == 403
        message = r.json()["error"]
        assert message.startswith("the service's data directory holds ")
        assert message.endswith(
            "its quota is 1.0 KiB (kalarite serve --max-disk): delete studies to make room"
        )
        assert written(svc) == before
    finally:
        svc.config.disk_quota = 0


def test_limit_options(tmp_path):
    assert parse_size("20G") == 20 * 1024**3 and parse_size("0") == 0
    assert parse_size("1.5M") == 1536 * 1024 and parse_size("512k") == 512 * 1024
    with pytest.raises(ConfigError, match="--max-disk must be a size"):
        parse_size("lots")
    with pytest.raises(ConfigError, match="--max-games-per-matchup must be 0"):
        ServiceConfig(data=tmp_path, max_games_matchup=-1)


# --- DELETE ----------------------------------------------------------------------------------


def _fill(s, sid: str, other: str):
    """What a finished study leaves: a dataset, a report, downloads, a comparison."""
    d = s.config.study_dir(sid)
    for rel in ("dataset/study.json", "report/index.html", "downloads/games.parquet", "run.log"):
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text("x")
    c = s.config.compare_dir(sid, other)
    c.mkdir(parents=True)
    (c / "compare.json").write_text("{}")


def test_delete_removes_everything_owner_or_admin_only(svc):
    sid, other = submit(svc, "bob"), submit(svc, "alice")
    end(svc, sid)
    end(svc, other)
    _fill(svc, sid, other)
    for who in ("alice", "reader"):
        assert svc.as_[who].delete(f"/studies/{sid}").status_code == 403
    assert svc.config.study_dir(sid).is_dir()
    r = svc.as_["bob"].delete(f"/studies/{sid}")
    assert r.status_code == 200 and r.json() == {"deleted": sid, "state": "finished"}
    assert not svc.config.study_dir(sid).exists()
    assert not svc.config.compare_dir(sid, other).exists()
    assert not [p for p in (svc.config.data / "studies").iterdir() if sid in p.name]
    assert svc.registry.get(sid) is None
    assert svc.as_["bob"].get(f"/studies/{sid}").status_code == 404
    assert svc.as_["bob"].delete(f"/studies/{sid}").status_code == 404
    assert svc.as_["root"].delete(f"/studies/{other}").status_code == 200  # an admin: anyone's
    assert svc.config.study_dir(other).exists() is False


def test_delete_a_running_study_is_refused_a_queued_one_never_starts(svc):
    sid = submit(svc, "alice")
    assert svc.registry.start(sid)
    r = svc.as_["alice"].delete(f"/studies/{sid}")
    assert r.status_code == 409
    assert (
        r.json()["error"]
        == f"study {sid} is running: cancel it first, then delete it once it has stopped"
    )
    assert svc.config.study_dir(sid).is_dir() and svc.registry.get(sid).state == "running"
    assert svc.registry.finish(sid, "cancelled")
    assert svc.as_["alice"].delete(f"/studies/{sid}").status_code == 200
    queued = submit(svc, "alice")
    assert svc.as_["alice"].delete(f"/studies/{queued}").json()["state"] == "queued"
    assert not svc.registry.start(queued)  # the executor's next start finds nothing


def test_a_restart_sweeps_what_deletions_cut_short(tmp_path):
    config = ServiceConfig(data=tmp_path / "d")
    config.prepare()
    registry = Registry(config.registry_path)
    studies = config.data / "studies"
    (studies / ".deleted-0123456789ab-0000" / "dataset").mkdir(parents=True)
    (studies / "aaaaaaaaaaaa").mkdir()
    (studies / "aaaaaaaaaaaa" / "spec.toml").write_text("x")  # a submission cut short
    (studies / "bbbbbbbbbbbb" / "dataset").mkdir(parents=True)  # no row, but a dataset: kept
    assert sweep(config, registry) == 2
    assert sorted(p.name for p in studies.iterdir()) == ["bbbbbbbbbbbb"]
    registry.close()


# --- server-sent events ----------------------------------------------------------------------


def events(response):
    """(event, data) pairs of a text/event-stream, as they arrive."""
    event, data = None, []
    for line in response.iter_lines():
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line == "" and event:
            yield event, json.loads("\n".join(data))
            event, data = None, []


def test_study_events_follow_it_and_end_when_it_finishes(svc):
    sid = submit(svc, "alice")
    seen = []
    with svc.as_["reader"].stream("GET", f"/studies/{sid}/events") as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        for event, data in events(r):
            seen.append((event, data.get("state")))
            if event == "study" and data["state"] == "queued":
                assert data["id"] == sid and data["owner"] == "alice"
                svc.registry.start(sid)
            elif event == "study" and data["state"] == "running":
                svc.registry.finish(sid, "finished")
        # the loop ends because the server closed the stream
    assert seen == [
        ("study", "queued"),
        ("study", "running"),
        ("study", "finished"),
        ("end", "finished"),
    ]


def test_study_events_say_when_it_is_deleted(svc):
    sid = submit(svc, "alice")
    seen = []
    with svc.as_["alice"].stream("GET", f"/studies/{sid}/events") as r:
        for event, _ in events(r):
            seen.append(event)
            if event == "study":
                assert svc.as_["alice"].delete(f"/studies/{sid}").status_code == 200
    assert seen == ["study", "deleted"]
    assert svc.as_["alice"].get(f"/studies/{sid}/events").status_code == 404


def test_the_list_stream_tells_of_new_studies(svc):
    new = None
    with svc.as_["reader"].stream("GET", "/events") as r:
        for event, data in events(r):
            assert event == "studies"
            ids = [s["id"] for s in data["studies"]]
            if new is None:
                new = submit(svc, "bob")  # after the first list: the next event has it
                assert new not in ids
            elif new in ids:
                break
    assert new in ids


def test_a_revoked_token_ends_its_stream(svc):
    token = add_token(svc.config.data, "watcher", "read")
    sid = submit(svc, "alice")
    seen = []
    with svc.client(token) as c, c.stream("GET", f"/studies/{sid}/events") as r:
        for event, _ in events(r):
            seen.append(event)
            assert (
                cli("serve", "tokens", "revoke", "watcher", "--data", str(svc.config.data))[0] == 0
            )
    assert seen == ["study"]  # the stream closed without an end: the token is gone
