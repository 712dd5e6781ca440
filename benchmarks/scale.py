"""Scale figures: a big random study's peak memory and bytes per game, and Ray across nodes.

    python -m benchmarks.scale study --games 10000000 --out benchmarks/results/scale_10m.json
    python -m benchmarks.scale nodes --games 300000 --out benchmarks/results/ray_nodes.json

``study`` runs the real command, ``kalarite study SPEC --out DIR --workers W``, on a spec of
random players over every pairing of the installed decks in High Form and Deathmatch, and
samples every second the memory of that process and everything it starts (the Ray head, its
raylet and workers): the peak of the summed resident sets (RSS, which counts a shared page in
each process that maps it) and of the summed proportional sets (PSS, which splits it; the
honest "all processes together" figure), and the CPU seconds of the workers and of the
command itself. It then sums the dataset's bytes on disk, and plays the same matchups with
the kernel alone (``kernel_alone``): ``vs_kernel_alone`` is the study's games per worker
CPU-second over the kernel's (issue 38: at least 0.85); ``benchmarks/chunk_cost.py`` splits
a chunk's cost.

``nodes`` starts a local Ray cluster with ``ray start`` twice in a row: one node with 2 CPUs,
then two nodes on this machine with 1 CPU each (a head and a worker node, each its own raylet
and object store), runs the same study on each through ``--address``, and reports games per
CPU-second of the Ray worker processes (their user + system time, read from /proc while they
run), so the figure says what a second node costs in coordination, not how busy the machine
was; it counts every Ray process on the machine, so no other Ray may run there. ``study``
counts only the processes the command started. Nothing here is asserted in tests.
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import psutil

REPO = pathlib.Path(__file__).resolve().parent.parent
RAY = str(pathlib.Path(sys.executable).with_name("ray"))


def _spec(games_total: int, decks: list[str], seed: int, policy: str = "random") -> tuple[str, int]:
    """A spec of about ``games_total`` games of ``policy`` (random by default) over every
    pairing of ``decks``, both duel modes; returns its text and the exact number of games."""
    pairings = len(decks) * (len(decks) + 1) // 2
    per = max(1, round(games_total / (2 * pairings)))
    text = (
        'name = "scale"\n'
        f"decks = {json.dumps(decks)}\n"
        'modes = ["high-form", "deathmatch"]\n'
        f"policies = {json.dumps(policy)}\n"
        f"games = {per}\nseed = {seed}\nturn_cap = 200\n"
    )
    return text, per * 2 * pairings


class _Sampler:
    """Every second: the summed RSS and PSS of a process tree plus any Ray process, and the
    CPU seconds of each Ray worker (kept per pid, so a worker that ended still counts)."""

    def __init__(self, root_pid: int | None, anywhere: bool = False):
        self.root_pid = root_pid
        # also every Ray process on the machine (a cluster started by `ray start` is not the
        # command's child): only on a machine with no other Ray running
        self.anywhere = anywhere
        self.peak_rss = self.peak_pss = 0
        self.samples = 0
        self.worker_cpu: dict[int, float] = {}
        self.worker_title: dict[int, str] = {}  # its last process title (ray::IDLE, ...)
        self.driver_cpu = 0.0  # the command's own process (it writes every chunk)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _procs(self):
        seen = {}
        if self.root_pid is not None:
            try:
                root = psutil.Process(self.root_pid)
                seen[root.pid] = root
                for c in root.children(recursive=True):
                    seen[c.pid] = c
            except psutil.NoSuchProcess:
                pass
        if not self.anywhere:  # a local Ray: the command's own children, nobody else's Ray
            return seen.values()
        for p in psutil.process_iter(["cmdline"]):
            cmd = " ".join(p.info["cmdline"] or [])
            if any(k in cmd for k in ("ray::", "default_worker.py", "raylet", "gcs_server")):
                seen.setdefault(p.pid, p)
        return seen.values()

    def _loop(self):
        while not self._stop.is_set():
            rss = pss = 0
            for p in self._procs():
                try:
                    if p.pid == self.root_pid:
                        t = p.cpu_times()
                        self.driver_cpu = t.user + t.system
                    rss += p.memory_info().rss
                    pss += p.memory_full_info().pss
                    cmd = " ".join(p.cmdline())
                    if "ray::" in cmd or "default_worker.py" in cmd:
                        t = p.cpu_times()
                        self.worker_cpu[p.pid] = t.user + t.system
                        self.worker_title[p.pid] = cmd.split()[0][:60]
                except (psutil.NoSuchProcess, psutil.AccessDenied):
                    continue
            self.peak_rss = max(self.peak_rss, rss)
            self.peak_pss = max(self.peak_pss, pss)
            self.samples += 1
            self._stop.wait(1.0)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def _run_study(spec_text: str, out: str, args: list[str], env=None, anywhere=False) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(spec_text)
    cmd = [sys.executable, "-m", "sim.app.cli", "study", f.name, "--out", out, *args]
    w0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    with _Sampler(proc.pid, anywhere) as s:
        stdout, _ = proc.communicate()
    wall = time.perf_counter() - w0
    os.unlink(f.name)
    if proc.returncode != 0:
        raise SystemExit(f"study failed with status {proc.returncode}")
    size = sum(p.stat().st_size for p in pathlib.Path(out).rglob("*") if p.is_file())
    return {
        "command": " ".join(["kalarite", "study", "SPEC", "--out", "DIR", *args]),
        "wall_s": round(wall, 1),
        "peak_rss_sum_mib": round(s.peak_rss / 2**20),
        "peak_pss_sum_mib": round(s.peak_pss / 2**20),
        "memory_samples": s.samples,
        "dataset_bytes": size,
        "worker_cpu_s": round(sum(s.worker_cpu.values()), 1),
        # each Ray worker process: its last title and CPU seconds (idle workers included)
        "worker_processes": sorted(
            ([s.worker_title.get(pid, ""), round(cpu, 1)] for pid, cpu in s.worker_cpu.items()),
            key=lambda x: -x[1],
        ),
        "driver_cpu_s": round(s.driver_cpu, 1),
        "stdout_tail": stdout.strip().splitlines()[-3:],
    }


def _decks() -> list[str]:
    from sim.content import load_content

    return list(load_content().decks)


def kernel_alone(spec_text: str, games_per_matchup: int = 2000) -> dict:
    """The kernel alone on the study's own matchups, in this process: ``core.kernel.play``
    as a worker calls it (with the study's event log), ``games_per_matchup`` games of each
    (the first of each matchup's games), timed in CPU seconds after the kernel is loaded."""
    import tomllib

    from cluster.worker import EV_ROWS
    from core.kernel import play
    from sim.content import load_content
    from sim.games import batch
    from sim.study import study_from_dict

    content = load_content()
    study = study_from_dict(tomllib.loads(spec_text), content)
    batches = [batch(content, m.mode, m.decks, m.policies, m.seed) for m in study.matchups()]
    play(batches[0], 0, 1, ev_rows=EV_ROWS)  # load the kernel first, as a worker does
    n = min(games_per_matchup, study.matchups()[0].games)
    c0 = time.process_time()
    for b in batches:
        play(b, 0, n, turn_cap=study.turn_cap, ev_rows=EV_ROWS)
    cpu = time.process_time() - c0
    games = n * len(batches)
    return {"games": games, "cpu_s": round(cpu, 2), "games_per_cpu_s": round(games / cpu, 1)}


def study(games: int, workers: int, seed: int) -> dict:
    """The real command on a big random study; then the kernel alone on the same matchups:
    issue 38's end-to-end figure is ``vs_kernel_alone``, the study's games per worker
    CPU-second over the kernel's games per CPU-second (target: at least 0.85)."""
    text, n = _spec(games, _decks(), seed)
    with tempfile.TemporaryDirectory(prefix="kalarite-scale-", dir=os.environ.get("TMPDIR")) as d:
        out = os.path.join(d, "run")
        res = _run_study(text, out, ["--workers", str(workers)])
    res.update(games=n, spec=text, bytes_per_game=round(res["dataset_bytes"] / n, 1))
    res["games_per_s_wall"] = round(n / res["wall_s"])
    res["games_per_worker_cpu_s"] = round(n / res["worker_cpu_s"], 1)
    res["games_per_cpu_s_workers_and_driver"] = round(
        n / (res["worker_cpu_s"] + res["driver_cpu_s"]), 1
    )
    alone = res["kernel_alone"] = kernel_alone(text)
    res["vs_kernel_alone"] = round(res["games_per_worker_cpu_s"] / alone["games_per_cpu_s"], 3)
    res["vs_kernel_alone_with_driver"] = round(
        res["games_per_cpu_s_workers_and_driver"] / alone["games_per_cpu_s"], 3
    )
    return res


def _ray(*args: str, env=None):
    subprocess.run([RAY, *args], check=True, stdout=subprocess.DEVNULL, env=env)


def rows_digest(out: str) -> str:
    """A digest of a dataset's game rows in a fixed order: two runs of the same study give
    the same digest exactly when they wrote the same rows (whatever nodes played them)."""
    import hashlib

    import duckdb

    rows = duckdb.sql(
        f"SELECT * FROM read_parquet('{out}/games/**/*.parquet', hive_partitioning = true) "
        "ORDER BY ALL"
    ).fetchall()
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def nodes(games: int, seed: int, policy: str = "random") -> dict:
    """The same study on one node and on two (see the module's docstring), and in this
    process (``--workers 0``) for the rows: ``rows_identical`` is true when all three wrote
    the same game rows."""
    text, n = _spec(games, _decks(), seed, policy)
    port = 6391
    address = f"127.0.0.1:{port}"
    res = {"games": n, "spec": text}
    layouts = {"one_node_2_cpus": [2], "two_nodes_1_cpu_each": [1, 1]}
    # Ray's token authentication: the nodes and the study's driver share this setting (and
    # the token Ray keeps for this user), as in tests/test_service_cluster.py
    env = dict(os.environ, RAY_AUTH_MODE="token")
    for name, cpus in layouts.items():
        tmp = tempfile.mkdtemp(prefix="kalarite-ray-")
        try:
            head = ["start", "--head", f"--port={port}", f"--num-cpus={cpus[0]}"]
            _ray(*head, "--include-dashboard=false", f"--temp-dir={tmp}", env=env)
            for c in cpus[1:]:
                _ray("start", f"--address={address}", f"--num-cpus={c}", env=env)
            out = os.path.join(tmp, "run")
            r = _run_study(text, out, ["--address", address], env=env, anywhere=True)
            r["rows_digest"] = rows_digest(out)
        finally:
            subprocess.run([RAY, "stop", "--force"], stdout=subprocess.DEVNULL, env=env)
            shutil.rmtree(tmp, ignore_errors=True)
        r["nodes"] = len(cpus)
        r["games_per_worker_cpu_s"] = round(n / r["worker_cpu_s"], 1)
        res[name] = r
    one = res["one_node_2_cpus"]["games_per_worker_cpu_s"]
    two = res["two_nodes_1_cpu_each"]["games_per_worker_cpu_s"]
    res["two_nodes_vs_one"] = round(two / one, 3)
    with tempfile.TemporaryDirectory(prefix="kalarite-scale-") as d:
        out = os.path.join(d, "run")
        _run_study(text, out, ["--workers", "0"])
        res["in_process_rows_digest"] = rows_digest(out)
    res["rows_identical"] = (
        res["one_node_2_cpus"]["rows_digest"]
        == res["two_nodes_1_cpu_each"]["rows_digest"]
        == res["in_process_rows_digest"]
    )
    return res


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("study", "nodes"))
    p.add_argument("--games", type=int, default=10_000_000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--policy", default="random", help="nodes: the player of every seat")
    p.add_argument("--out", help="also write the JSON here")
    a = p.parse_args(argv)
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    meta = {"commit": head, "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "cpus": os.cpu_count()}
    meta["load_avg_at_start"] = os.getloadavg()
    if a.what == "study":
        res = study(a.games, a.workers, a.seed)
    else:
        res = nodes(a.games, a.seed, a.policy)
    res = {**meta, **res, "load_avg_at_end": os.getloadavg()}
    text = json.dumps(res, indent=1)
    print(text)
    if a.out:
        pathlib.Path(a.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
