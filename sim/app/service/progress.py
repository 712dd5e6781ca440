"""How far a study is, read from its dataset on disk: the manifest (``study.json``) says the
chunk size and the matchups (results.layout reads them: where each chunk's file is and how
many games it holds), and a chunk is done when its ``games`` file exists (the runner writes
it last, atomically). No runner hook and no shared memory: it works the same for a
study the service started and one it resumed after a restart.

games/s counts the games of chunks written since the service started the current run, over
the time since then (connecting to Ray and starting workers included: what the user waits
for).
"""

import json
import os
import threading
import time

from results.layout import Layout, parse_part
from results.store import MANIFEST

_CACHE_S = 0.5  # status reads within this window share one directory scan


def scan(dataset_dir, since: float | None = None) -> dict:
    """{"games_done", "games_this_run", "run_started", "complete"} of a dataset (zeros when it
    does not exist yet); ``games_this_run`` counts chunks written at or after ``since``."""
    try:
        with open(os.path.join(dataset_dir, MANIFEST)) as f:
            manifest = json.load(f)
        layout = Layout.of_manifest(manifest)
    except (OSError, ValueError, KeyError, TypeError):
        return {"games_done": 0, "games_this_run": 0, "run_started": since, "complete": False}
    done = this_run = 0
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
            if since is not None and mtime >= since:
                this_run += n
    return {
        "games_done": done,
        "games_this_run": this_run,
        "run_started": since,
        "complete": manifest.get("status") == "complete",
    }


def rates(p: dict, games_total: int, now: float | None = None) -> dict:
    """games/s and ETA (seconds) of a running study from a ``scan``."""
    now = time.time() if now is None else now
    started = p.get("run_started")
    if started is None or not p.get("games_this_run"):
        return {"games_per_s": None, "eta_s": None}
    elapsed = max(now - started, 1e-3)
    rate = p["games_this_run"] / elapsed
    left = max(0, games_total - p["games_done"])
    return {"games_per_s": round(rate, 2), "eta_s": round(left / rate, 1) if rate > 0 else None}


class ProgressCache:
    """``scan`` results kept for half a second, so many clients polling one study cost one
    directory scan."""

    def __init__(self):
        self._lock = threading.Lock()
        self._items = {}

    def get(self, key, dataset_dir, since: float | None = None) -> dict:
        key = (key, since)
        now = time.monotonic()
        with self._lock:
            hit = self._items.get(key)
            if hit and now - hit[0] < _CACHE_S:
                return hit[1]
        value = scan(dataset_dir, since)
        with self._lock:
            self._items[key] = (now, value)
            if len(self._items) > 1000:
                self._items.clear()
        return value
