"""What one submission may cost: games per matchup and per study, studies queued or running
per user, and a quota on the data directory. Each is a ``kalarite serve`` option (0 turns it
off); each refusal is a 4xx with one line, given before anything of the study is written.

The studies-per-user limit is for the submit role: admins (and everyone on an open loopback
service, which is the admin ``local``) queue as many as they like, as before tokens.
The disk quota stops new submissions once the data directory holds that much (allocated
blocks, Ray's logs under it included); a study already accepted may still take it past the
quota by its own size. The directory is measured at most every few seconds (a cached walk).
"""

import os
import threading
import time

CACHE_S = 2.0


class LimitError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def check_games(config, study):
    """400 when the study asks for more games than the service plays."""
    per = config.max_games_matchup
    if per and study.games > per:
        raise LimitError(
            400,
            f"request body: games = {study.games:,} per matchup is over this service's limit "
            f"of {per:,} (kalarite serve --max-games-per-matchup)",
        )
    total, most = study.total_games, config.max_games_study
    if most and total > most:
        raise LimitError(
            400,
            f"request body: {total:,} games in all ({len(study.matchups())} matchups x "
            f"{study.games:,}) is over this service's limit of {most:,} per study "
            "(kalarite serve --max-games-per-study)",
        )


def check_budget(config, games: int):
    """400 when a suggestion's games budget is over the service's per-study limit."""
    most = config.max_games_study
    if most and games > most:
        raise LimitError(
            400,
            f"a suggestion's budget of {games:,} games is over this service's limit of "
            f"{most:,} games per study",
        )


def check_active(config, registry, owner: str):
    """429 when ``owner`` already has as many studies queued or running as it may."""
    most = config.max_active_per_user
    if not most:
        return
    n = registry.active_of(owner)
    if n >= most:
        raise LimitError(
            429,
            f"{owner!r} already has {n} studies queued or running, this service's limit "
            "(kalarite serve --max-active-per-user): wait for one to end, or cancel one",
        )


def size_text(n: int) -> str:
    """``n`` bytes in the largest binary unit that keeps it at 1 or more (``1.5 GiB``)."""
    for unit, scale in (("TiB", 1024**4), ("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def check_disk(config, used: int):
    """403 when the data directory holds its quota or more."""
    quota = config.disk_quota
    if quota and used >= quota:
        raise LimitError(
            403,
            f"the service's data directory holds {size_text(used)}, its quota is "
            f"{size_text(quota)} (kalarite serve --max-disk): delete studies to make room",
        )


def tree_bytes(root) -> int:
    """Bytes allocated to the files under ``root`` (files that vanish meanwhile count 0)."""
    total = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            try:
                st = os.lstat(os.path.join(dirpath, name))
            except OSError:
                continue
            total += getattr(st, "st_blocks", 0) * 512 or st.st_size
    return total


class DiskUsage:
    """``tree_bytes(data)`` measured at most every ``CACHE_S`` seconds; ``forget`` after a
    delete so the room it made counts at once."""

    def __init__(self, root):
        self.root = root
        self._lock = threading.Lock()
        self._at = None
        self._value = 0

    def get(self) -> int:
        with self._lock:
            if self._at is not None and time.monotonic() - self._at < CACHE_S:
                return self._value
        value = tree_bytes(self.root)
        with self._lock:
            self._value, self._at = value, time.monotonic()
        return value

    def forget(self):
        with self._lock:
            self._at = None
