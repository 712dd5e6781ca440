"""Soak test of ``kalarite serve`` on 127.0.0.1: many submissions, reads, cancels and deletes
from several users' tokens at once, with the service killed with SIGKILL and started again in
the middle; then every study must be finished or resumable, every finished dataset must hold
exactly its games, and every request must have had an answer.

    python -m benchmarks.soak_service [--studies 40] [--keep 8] [--restarts 3]
        [--out benchmarks/results/soak_service.json]

tests/test_service_soak.py runs a small one (a few tiny studies, one restart). Studies are
tiny (a few random-player games, several chunks each) and the service runs with
``--workers 0`` (each study in its own process, no Ray), so the time goes to the service and
its processes, not to games. What a request may meet while the service is down: a refused
connection (retried, counted as ``refused``), or, for one in flight at the kill, a cut
connection (a read is retried; a submission is not, since it may have been registered:
``cut``, and the checks then accept it registered once or not at all).
"""

import argparse
import asyncio
import contextlib
import io
import json
import os
import pathlib
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx2

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "results" / "soak_service.json"
USERS = {"alice": "submit", "bob": "submit", "root": "admin", "reader": "read"}
ENDED = ("finished", "failed", "cancelled")
REQUEST_TIMEOUT_S = 60.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    """``kalarite serve --workers 0`` as a process of its own session (killable with -9)."""

    def __init__(self, data: pathlib.Path, max_running: int):
        self.data = data
        self.port = _free_port()
        self.max_running = max_running
        self.proc = None
        self.log = data.parent / "serve.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 300.0):
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        for k in ("RAY_ADDRESS", "KALARITE_TOKEN"):
            env.pop(k, None)
        argv = [sys.executable, "-m", "sim.app.cli", "serve", "--data", str(self.data)]
        argv += ["--port", str(self.port), "--workers", "0"]
        argv += ["--max-running", str(self.max_running)]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                argv,
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"kalarite serve exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx2.get(self.url + "/healthz", timeout=5).status_code == 200:
                    return
            except httpx2.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"kalarite serve did not answer within {timeout:.0f} s")

    def kill9(self):
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(60)

    def stop(self) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(180)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            return self.proc.wait(30)


def add_tokens(data: pathlib.Path) -> dict:
    from sim.app.cli import main as cli_main

    tokens = {}
    for name, role in USERS.items():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = cli_main(["serve", "tokens", "add", name, "--role", role, "--data", str(data)])
        if rc != 0:
            raise RuntimeError(f"kalarite serve tokens add {name} failed")
        tokens[name] = out.getvalue().strip()
    return tokens


class Soak:
    def __init__(self, service: Service, tokens: dict, args):
        self.svc = service
        self.tokens = tokens
        self.args = args
        self.rng = random.Random(args.seed)
        self.latency = []  # seconds, one per answered request
        self.statuses = {}
        self.refused = 0
        self.cut = 0
        self.unanswered = []
        self.submitted = {}  # id -> (owner, name)
        self.fates = {"keep": 0, "cancel": 0, "delete": 0}  # of the answered submissions
        self.cut_submissions = []  # names of submissions whose answer was cut by the kill
        self.deleted = set()
        self.restarts = 0
        self.killed_running = 0  # kills that came while a study was running
        self.events = 0
        self.stop_reading = asyncio.Event()
        self.down = asyncio.Event()  # set while the service is being restarted

    async def call(self, client, method, path, who, retry_cut: bool, **kw):
        """The request's answer; retried while the connection is refused (the restart), and
        after a cut connection when ``retry_cut``. None when it never got one."""
        deadline = time.monotonic() + self.args.request_deadline_s
        headers = {"authorization": f"Bearer {self.tokens[who]}"}
        while time.monotonic() < deadline:
            t = time.perf_counter()
            try:
                r = await client.request(method, path, headers=headers, **kw)
            except httpx2.ConnectError:
                self.refused += 1
                await asyncio.sleep(0.1)
                continue
            except (httpx2.ReadError, httpx2.RemoteProtocolError, httpx2.WriteError):
                self.cut += 1
                if retry_cut:
                    continue
                return "cut"
            self.latency.append(time.perf_counter() - t)
            self.statuses[r.status_code] = self.statuses.get(r.status_code, 0) + 1
            return r
        self.unanswered.append(f"{method} {path}")
        return None

    # --- the users ---------------------------------------------------------------------------

    def spec(self, i: int) -> dict:
        return {
            "name": f"soak-{i:03d}",
            "decks": [["imperial", "highland"]],
            "modes": ["high-form"],
            "policies": "random",
            "games": self.args.games,
            "chunk_size": max(1, self.args.games // 3),
            "seed": 1000 + i,
        }

    async def users(self, client):
        """Submit the studies; each one is kept, cancelled or deleted (by its owner, an
        admin, or first by someone it does not belong to, who must be refused)."""
        n, keep = self.args.studies, self.args.keep
        fates = ["keep"] * keep + ["cancel", "delete"] * ((n - keep + 1) // 2)
        fates = fates[:n]
        self.rng.shuffle(fates)
        if self.args.kept_first:  # the kept ones start first: fewer studies start in vain
            fates.sort(key=lambda f: f != "keep")
        later = []
        for i, fate in enumerate(fates):
            owner = ("alice", "bob")[i % 2]
            r = await self.call(client, "POST", "/studies", owner, False, json=self.spec(i))
            if r == "cut":
                self.cut_submissions.append(self.spec(i)["name"])
                continue
            if r is None or r.status_code != 201:
                self.unanswered.append(f"submit {i}: {r and r.text}")
                continue
            sid = r.json()["id"]
            self.submitted[sid] = (owner, self.spec(i)["name"])
            self.fates[fate] += 1
            if fate == "keep":
                continue
            other = "bob" if owner == "alice" else "alice"
            r = await self.call(client, "POST", f"/studies/{sid}/cancel", other, True)
            if r is not None and r.status_code != 403:
                self.unanswered.append(f"{other} cancelled {owner}'s study: {r.status_code}")
            await self.call(client, "POST", f"/studies/{sid}/cancel", owner, True)
            if fate == "delete":
                later.append((sid, self.rng.choice((owner, "root"))))
            await asyncio.sleep(self.rng.uniform(0, 0.05))
        # deletes: a study still stopping (its cancel lets the chunks in flight finish) is
        # refused with 409; ask again until it has stopped
        for sid, who in later:
            while not self.stop_reading.is_set():
                r = await self.call(client, "DELETE", f"/studies/{sid}", who, True)
                if r is not None and r.status_code == 200:
                    self.deleted.add(sid)
                    break
                if r is not None and r.status_code == 404:  # a retry after a cut delete
                    self.deleted.add(sid)
                    break
                await asyncio.sleep(0.3)

    async def reader(self, client):
        while not self.stop_reading.is_set():
            ids = list(self.submitted)
            which = self.rng.random()
            if which < 0.4 or not ids:
                await self.call(client, "GET", "/studies", "reader", True)
            elif which < 0.9:
                await self.call(client, "GET", f"/studies/{self.rng.choice(ids)}", "reader", True)
            else:
                await self.call(client, "GET", "/info", "reader", True)
            await asyncio.sleep(self.args.read_pause_s)

    async def follower(self, client):
        """One client on the list's event stream the whole time (reconnecting after the
        restarts, as a browser's EventSource does)."""
        headers = {"authorization": f"Bearer {self.tokens['reader']}"}
        while not self.stop_reading.is_set():
            try:
                async with client.stream("GET", "/events", headers=headers) as r:
                    async for line in r.aiter_lines():
                        if line.startswith("event: studies"):
                            self.events += 1
                        if self.stop_reading.is_set():
                            return
            except httpx2.HTTPError:
                await asyncio.sleep(0.2)

    async def killer(self, client):
        """Kill the service with SIGKILL while a study plays, ``restarts`` times."""
        for _ in range(self.args.restarts):
            deadline = time.monotonic() + self.args.kill_wait_s
            while time.monotonic() < deadline:
                r = await self.call(client, "GET", "/studies", "root", True)
                if r is not None and any(s["state"] == "running" for s in r.json()["studies"]):
                    self.killed_running += 1
                    break
                await asyncio.sleep(0.2)
            self.svc.kill9()
            await asyncio.to_thread(self.svc.start)
            self.restarts += 1
            await asyncio.sleep(self.args.between_kills_s)

    async def settle(self, client):
        """Wait until no study is queued or running."""
        deadline = time.monotonic() + self.args.settle_s
        while time.monotonic() < deadline:
            r = await self.call(client, "GET", "/studies?limit=1000", "root", True)
            if r is not None and not [s for s in r.json()["studies"] if s["state"] not in ENDED]:
                return r.json()["studies"]
            await asyncio.sleep(0.5)
        raise RuntimeError(f"studies still active after {self.args.settle_s:.0f} s")

    async def run(self) -> list:
        limits = httpx2.Limits(max_connections=64)
        async with httpx2.AsyncClient(
            base_url=self.svc.url + "/api/v1", timeout=REQUEST_TIMEOUT_S, limits=limits
        ) as client:
            readers = [asyncio.create_task(self.reader(client)) for _ in range(self.args.readers)]
            follower = asyncio.create_task(self.follower(client))
            await asyncio.gather(self.users(client), self.killer(client))
            final = await self.settle(client)
            if self.args.resume_cancelled:
                for s in final:
                    if s["state"] == "cancelled":
                        await self.call(client, "POST", f"/studies/{s['id']}/resume", "root", True)
                final = await self.settle(client)
            self.stop_reading.set()
            await asyncio.gather(*readers)
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
            return final


def check(soak: Soak, final: list) -> tuple[list, dict]:
    """Problems (empty when the soak passed) and the counts of the studies' ends."""
    from results.store import read_table

    problems = list(soak.unanswered)
    listed = {s["id"]: s for s in final}
    names = [s["name"] for s in final]
    for name in set(names):
        if names.count(name) > 1:
            problems.append(f"{name} registered {names.count(name)} times")
    for sid in soak.submitted:
        if sid not in listed and sid not in soak.deleted:
            problems.append(f"study {sid} vanished")
    for sid in soak.deleted:
        if sid in listed or (soak.svc.data / "studies" / sid).exists():
            problems.append(f"deleted study {sid} is still there")
    ends = {"finished": 0, "cancelled": 0, "failed": 0}
    for s in final:
        ends[s["state"]] = ends.get(s["state"], 0) + 1
        if s["state"] == "failed":
            problems.append(f"study {s['id']} failed: {s['error']}")
        if s["state"] != "finished":
            continue  # cancelled: resumable (its dataset holds whole chunks only)
        data = soak.svc.data / "studies" / s["id"] / "dataset"
        t = read_table(data, "games", columns=["matchup", "game_index"]).to_pydict()
        got = sorted(zip(t["matchup"], t["game_index"], strict=True))
        want = [(m, i) for m in sorted(set(t["matchup"])) for i in range(s["spec"]["games"])]
        if got != want or len(set(t["matchup"])) != s["matchups"]:
            problems.append(f"study {s['id']}: {len(got)} games, want {s['games_total']} once each")
        if s["games_done"] != s["games_total"]:
            problems.append(f"study {s['id']}: games_done {s['games_done']}")
    return problems, ends


def soak(data: pathlib.Path, args) -> dict:
    data.mkdir(parents=True, exist_ok=True)
    tokens = add_tokens(data)
    svc = Service(data, args.max_running)
    t0 = time.perf_counter()
    svc.start()
    try:
        s = Soak(svc, tokens, args)
        final = asyncio.run(s.run())
    finally:
        rc = svc.stop()
    wall = time.perf_counter() - t0
    problems, ends = check(s, final)
    log = svc.log.read_text(errors="replace")
    if "Traceback" in log:
        problems.append("the service's log has a traceback")
    if rc not in (0, -signal.SIGTERM):
        problems.append(f"kalarite serve stopped with status {rc}")
    lat = sorted(s.latency)
    return {
        "command": " ".join(["python -m benchmarks.soak_service", *args.argv]),
        "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end",
        "requests": len(lat) + len(s.unanswered),
        "answered": len(lat),
        "unanswered": len(s.unanswered),
        "refused_while_restarting": s.refused,
        "cut_by_a_kill": s.cut,
        "submissions_cut": len(s.cut_submissions),
        # of those, registered all the same (then left to finish: nobody knew its id)
        "submissions_cut_registered": sum(1 for x in final if x["name"] in s.cut_submissions),
        "statuses": {str(k): v for k, v in sorted(s.statuses.items())},
        "latency_p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
        "latency_p95_ms": round(1000 * lat[max(0, int(0.95 * len(lat)) - 1)], 1) if lat else None,
        "latency_max_ms": round(1000 * lat[-1], 1) if lat else None,
        "restarts_survived": s.restarts,
        "kills_while_a_study_ran": s.killed_running,
        "studies_resumed_after_a_kill": sum(
            1 for x in final if x["state"] == "finished" and x["runs"] >= 2
        ),
        "studies_submitted": len(s.submitted),
        "fates_of_the_answered_submissions": s.fates,
        "studies_finished": ends["finished"],
        "studies_cancelled": ends["cancelled"],
        "studies_failed": ends["failed"],
        "studies_deleted": len(s.deleted),
        "list_events_received": s.events,
        "wall_s": round(wall, 1),
        "problems": problems,
    }


def parse(argv: list) -> argparse.Namespace:
    args = parser().parse_args(argv)
    args.argv = list(argv)
    return args


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--studies", type=int, default=40, help="studies submitted")
    p.add_argument("--keep", type=int, default=8, help="of them, left to finish")
    p.add_argument("--games", type=int, default=6, help="games per study (one matchup)")
    p.add_argument("--restarts", type=int, default=3, help="kill -9 and restart, this often")
    p.add_argument("--readers", type=int, default=8, help="clients reading all the time")
    p.add_argument("--read-pause-s", type=float, default=0.02)
    p.add_argument("--max-running", type=int, default=2)
    p.add_argument("--kill-wait-s", type=float, default=60.0)
    p.add_argument("--between-kills-s", type=float, default=5.0)
    p.add_argument("--settle-s", type=float, default=1800.0)
    p.add_argument("--request-deadline-s", type=float, default=600.0)
    p.add_argument(
        "--no-resume",
        dest="resume_cancelled",
        action="store_false",
        help="leave the cancelled studies cancelled (default: resume them all at the end)",
    )
    p.add_argument("--kept-first", action="store_true", help="submit the kept studies first")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data", default=None, help="data directory (default: a temporary one)")
    p.add_argument("--out", default=str(OUT))
    return p


def main(argv=None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory(prefix="kalarite-soak-") as tmp:
        data = pathlib.Path(args.data) if args.data else pathlib.Path(tmp) / "data"
        figures = soak(data, args)
    print(json.dumps(figures, indent=2))
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(figures, indent=2) + "\n")
    return 1 if figures["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
