"""How far a study is, read from its dataset on disk: the manifest (``study.json``) says the
chunk size and the matchups (results.layout reads them: where each chunk's file is and how
many games it holds), and a chunk is done when its ``games`` file exists (the runner writes
it last, atomically). No runner hook and no shared memory: it works the same for a
study the service started and one it resumed after a restart.

games/s is over playing time, as the study's own log counts it, not the wall time since the
service started the run (compiling the engine and connecting to Ray took a minute of it, and
the page showed 3.9 games/s where the log said 77). This run's chunks are those written
since the run began to play (the manifest's ``runs[-1].started``, written after compiling
and connecting); their times are their files' modification times. Once more chunks have
landed than the run has workers (its first wave, which also waited for the workers to
start), the rate is the games landed after that wave over the time they took; before, the
games landed over the time since the start of play. A suggestion is many datasets played in
turn under its directory (``scan_tree``): its games are theirs added up, its rate the one
playing now.
"""

import datetime
import json
import os
import threading
import time

from results.layout import Layout, parse_part
from results.store import MANIFEST

_CACHE_S = 0.5  # status reads within this window share one directory scan
_NOTHING = {"games_done": 0, "games_this_run": 0, "play_started": None, "last_chunk_at": None,
            "landed": [], "workers": 1, "complete": False}  # fmt: skip


def play_started(manifest: dict, manifest_path, since: float | None = None) -> float | None:
    """When the run now playing began to play (epoch seconds); None when no run is playing,
    or when the one the manifest names began before ``since`` (a run of a service that died:
    the new one has not begun yet). The manifest keeps whole seconds; its file's time, when
    it falls within that second, is the finer figure (the runner writes the manifest as the
    run begins)."""
    runs = manifest.get("runs") or []
    if manifest.get("status") != "running" or not runs or runs[-1].get("status") != "running":
        return None
    try:
        started = datetime.datetime.fromisoformat(runs[-1]["started"]).timestamp()
    except (KeyError, TypeError, ValueError):
        return None
    try:
        mtime = os.stat(manifest_path).st_mtime
    except OSError:
        mtime = None
    if mtime is not None and started <= mtime < started + 1:
        started = mtime
    if since is not None and started < since - 1:  # whole seconds: within one is this run
        return None
    return started


def scan(dataset_dir, since: float | None = None) -> dict:
    """{"games_done", "games_this_run", "play_started", "last_chunk_at", "landed",
    "workers", "complete"} of a dataset (zeros when it does not exist yet):
    ``games_this_run`` counts the chunks written since the run now playing began
    (``play_started``), ``landed`` is [(time, games)] of each of them in time order,
    ``last_chunk_at`` the last time, ``workers`` the run's; ``since``: when the service
    started this run."""
    path = os.path.join(dataset_dir, MANIFEST)
    try:
        with open(path) as f:
            manifest = json.load(f)
        layout = Layout.of_manifest(manifest)
    except (OSError, ValueError, KeyError, TypeError):
        return dict(_NOTHING)
    started = play_started(manifest, path, since)
    done = 0
    landed = []
    for m in range(len(layout)):
        try:
            entries = list(os.scandir(layout.directory(dataset_dir, "games", m)))
        except OSError:
            continue
        for e in entries:
            c = parse_part(e.name)
            if c is None:
                continue
            try:
                mtime = e.stat().st_mtime
            except OSError:
                continue
            n = layout.games_in(m, c)
            done += n
            if started is not None and mtime >= started:
                landed.append((mtime, n))
    landed.sort()
    workers = (manifest.get("runs") or [{}])[-1].get("workers")
    return {
        "games_done": done,
        "games_this_run": sum(n for _, n in landed),
        "play_started": started,
        "last_chunk_at": landed[-1][0] if landed else None,
        "landed": landed,
        "workers": workers if isinstance(workers, int) and workers > 0 else 1,
        "complete": manifest.get("status") == "complete",
    }


def datasets(root):
    """Every dataset (a directory holding a manifest) under ``root``, in a stable order."""
    found = []
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        if MANIFEST in files:
            found.append(dirpath)
            dirs[:] = []  # a dataset's own tables hold no dataset
    return found


def scan_tree(root, since: float | None = None) -> dict:
    """``scan`` of every dataset under ``root`` (a suggestion's directory): games added up,
    the run and its times those of the dataset playing now (one at a time)."""
    total = dict(_NOTHING)
    for d in datasets(root):
        p = scan(d, since)
        total["games_done"] += p["games_done"]
        if p["play_started"] is not None:
            now = ("games_this_run", "play_started", "last_chunk_at", "landed", "workers")
            total |= {k: p[k] for k in now}
    return total


def play_rate(p: dict) -> float | None:
    """Games a second of the run in ``p`` (a ``scan``): after its first wave (more chunks
    landed than it has workers), the games landed after the wave over the time since the
    wave; before, the games landed over the time since the start of play."""
    landed, started = p.get("landed") or [], p.get("play_started")
    if started is None or not landed:
        return None
    wave = p.get("workers") or 1
    if len(landed) > wave:
        after = landed[wave:]
        span = after[-1][0] - landed[wave - 1][0]
        if span > 0:
            return sum(n for _, n in after) / span
    span = landed[-1][0] - started
    return sum(n for _, n in landed) / span if span > 0 else None


def rates(p: dict, games_total: int | None, now: float | None = None) -> dict:
    """games/s and ETA (seconds) of a running study from a ``scan``: ``play_rate``; the time
    left is the games left at that rate, less the time since the last chunk (it counts down
    between chunks). ``games_total`` None: no ETA (a suggestion's budget is a most, not a
    target)."""
    rate = play_rate(p)
    if not rate:
        return {"games_per_s": None, "eta_s": None}
    now = time.time() if now is None else now
    eta = None
    if games_total is not None:
        left = max(0, games_total - p["games_done"])
        eta = round(max(0.0, left / rate - max(0.0, now - p["last_chunk_at"])), 1)
    return {"games_per_s": round(rate, 2), "eta_s": eta}


class ProgressCache:
    """``scan`` (``tree``: ``scan_tree``) results kept for half a second, so many clients
    polling one study cost one directory scan."""

    def __init__(self):
        self._lock = threading.Lock()
        self._items = {}

    def get(self, key, path, since: float | None = None, tree: bool = False) -> dict:
        key = (key, since, tree)
        now = time.monotonic()
        with self._lock:
            hit = self._items.get(key)
            if hit and now - hit[0] < _CACHE_S:
                return hit[1]
        value = (scan_tree if tree else scan)(path, since)
        with self._lock:
            self._items[key] = (now, value)
            if len(self._items) > 1000:
                self._items.clear()
        return value
