"""How big a study is before it starts: its Parquet output and its play time, so that a study
that would write more than ``BIG_BYTES`` says so (with its time) before the first game.

Both are estimates from stored figures, not a measurement of this machine:

- bytes: Parquet bytes per game of all three tables (games, card_events, task_claims), by
  player and mode, measured on studies of imperial vs highland (each kind's ``game_bytes``
  in the player registry, sim.player_kinds); a mixed pairing takes the mean of its seats, a
  player not measured greedy's figure;
- time: ``sim.chunking.matchups_seconds`` (the players' speed on one core of the development
  machine, benchmarks/README.md) divided by the workers.

A study whose bytes are more than the free space at its --out does not start
(``check_free_disk``) unless forced.
"""

import pathlib
import shutil

from sim.chunking import matchups_seconds

BIG_BYTES = 10e9  # a study that writes more says so before it starts

# games of more seats write more rows (not measured: the seat-count ratio, a rough guess)
_MODE_FACTOR = {"melee": 1.5, "team-high-form": 2.0, "team-deathmatch": 2.0}  # more seats


def bytes_per_game(mode: str, policies, profiles=None) -> float:
    """Estimated Parquet bytes of one game of ``mode`` between these seat players (each
    kind's figure in the player registry, sim.player_kinds; greedy's where not measured)."""
    from sim.player_kinds import BY_NAME
    from sim.players import kind_of, load_profiles

    profiles = load_profiles() if profiles is None else profiles
    column = 1 if "deathmatch" in mode else 0
    sizes = []
    for spec in policies:
        kind = kind_of(spec, profiles)[0]
        sizes.append((kind.game_bytes or BY_NAME["greedy"].game_bytes)[column])
    return _MODE_FACTOR.get(mode, 1.0) * sum(sizes) / len(sizes)


def _size(n_bytes: float) -> str:
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:,.0f} {unit}"
    return f"{n_bytes / 1e3:,.0f} kB"


def _duration(seconds: float) -> str:
    if seconds >= 86400:
        return f"{seconds / 86400:,.1f} days"
    if seconds >= 3600:
        return f"{seconds / 3600:,.1f} hours"
    return f"{max(1, round(seconds / 60))} minutes"


def estimate(games_by_matchup) -> tuple:
    """(bytes, one-core seconds) of playing ``[(matchup, games), ...]``."""
    from sim.players import load_profiles

    games_by_matchup = list(games_by_matchup)
    profiles = load_profiles()
    n_bytes = sum(n * bytes_per_game(m.mode, m.policies, profiles) for m, n in games_by_matchup)
    seconds = matchups_seconds(games_by_matchup, profiles)
    return n_bytes, seconds


def big_study_warning(games_by_matchup, workers: int) -> str | None:
    """The message of a study estimated to write more than BIG_BYTES; None for the others."""
    n_bytes, seconds = estimate(games_by_matchup)
    if n_bytes <= BIG_BYTES:
        return None
    games = sum(n for _, n in games_by_matchup)
    workers = max(1, workers)
    return (
        f"this study plays {games:,} games: about {_size(n_bytes)} of Parquet and about "
        f"{_duration(seconds / workers)} on {workers} worker{'s' * (workers != 1)} "
        "(estimated from stored bytes per game and the players' speed on one core of the "
        "development machine); Ctrl-C stops it, and the same command resumes it"
    )


class DiskSpaceError(ValueError):
    """The study's estimated output does not fit in the free space at --out (one line, exit
    status 2; --force starts it anyway)."""


def free_bytes(path) -> int:
    """Free bytes for this user on the file system of ``path`` (or of its nearest existing
    parent)."""
    p = pathlib.Path(path).absolute()
    while not p.exists() and p.parent != p:
        p = p.parent
    return shutil.disk_usage(p).free


def disk_shortfall(games_by_matchup, out) -> tuple | None:
    """(estimated bytes, free bytes) when the estimated Parquet output of playing
    ``games_by_matchup`` is more than the free space at ``out``; None when it fits."""
    n_bytes, _ = estimate(games_by_matchup)
    free = free_bytes(out)
    return None if n_bytes <= free else (n_bytes, free)


def size_text(n_bytes: float) -> str:
    """Bytes as the disk messages say them (``12 GB``)."""
    return _size(n_bytes)


def check_free_disk(games_by_matchup, out, force: bool = False) -> None:
    """Refuse a study whose estimated Parquet output (of the games still to play) is more than
    the free space at ``out``; ``force`` starts it anyway."""
    short = None if force else disk_shortfall(games_by_matchup, out)
    if short is None:
        return
    n_bytes, free = short
    raise DiskSpaceError(
        f"this study would write about {_size(n_bytes)} of Parquet to {str(out)!r}, where "
        f"only {_size(free)} is free (estimated from stored bytes per game); free some space, "
        "choose another --out, or pass --force to start anyway"
    )
