"""How many games a chunk (the unit of work, of progress and of resuming) holds.

A chunk of 2000 random games takes about half a second; 2000 greedy games would take over a
minute, with the progress bar frozen at 0 meanwhile. So the default chunk size follows the
players' speed (each kind's cost in the player registry, sim.player_kinds): about
``TARGET_CHUNK_S`` seconds of play per chunk, never more than 2000 games. The chunk size
never changes a result (a game depends only on its seed and index).

Bounds: at most ``MAX_GAMES`` games per matchup and ``MAX_CHUNKS`` chunks per study (each
chunk is three files); the automatic size grows to stay within them, an explicit
``--chunk-size`` that does not is refused.
"""

import math

DEFAULT_CHUNK_SIZE = 2000
TARGET_CHUNK_S = 10.0
MAX_GAMES = 1_000_000_000  # per matchup
MAX_CHUNKS = 100_000  # per study
MAX_CHUNK_SIZE = 20_000  # games per chunk (the kernel's output buffers grow with it)

# games of more seats last longer (benchmarks/README.md: about 2x for melee and team play)
_MODE_FACTOR = {"melee": 2.5, "team-high-form": 2.0, "team-deathmatch": 2.0, "new-player": 2.5}


class ChunkingError(ValueError):
    """A study too large to split into chunks (one line, exit status 2)."""


def seconds_per_game(mode: str, policies, profiles=None) -> float:
    """A rough estimate of one game's time on one core: the mean of its seats' players
    (``profiles``: already loaded ones, for callers estimating many matchups)."""
    from sim.players import kind_of, load_profiles

    profiles = load_profiles() if profiles is None else profiles
    costs = []
    for spec in policies:  # each kind's cost in the player registry (sim.player_kinds)
        kind, settings = kind_of(spec, profiles)
        costs.append(kind.seconds_per_game(settings))
    return _MODE_FACTOR.get(mode, 1.0) * sum(costs) / len(costs)


def matchups_seconds(games_by_matchup, profiles=None) -> float:
    """One-core seconds of playing ``[(matchup, games), ...]`` (the profiles read once)."""
    from sim.players import load_profiles

    profiles = load_profiles() if profiles is None else profiles
    return sum(n * seconds_per_game(m.mode, m.policies, profiles) for m, n in games_by_matchup)


def auto_chunk_size(matchups) -> int:
    """About TARGET_CHUNK_S seconds of the slowest matchup's games, 1 to 2000 games."""
    from sim.players import load_profiles

    profiles = load_profiles()
    slowest = max(seconds_per_game(m.mode, m.policies, profiles) for m in matchups)
    return max(1, min(DEFAULT_CHUNK_SIZE, int(TARGET_CHUNK_S / slowest)))


def chunks_in(games: int, size: int) -> int:
    """How many chunks a matchup of ``games`` games has at chunk size ``size``: the one place
    this is computed (results.layout.Layout reads it)."""
    return -(-int(games) // int(size))


def games_in_chunk(games: int, size: int, chunk: int) -> int:
    """How many games chunk ``chunk`` of a matchup of ``games`` games holds (0 past its last
    chunk): every chunk holds ``size`` games but the last, which holds the rest."""
    return max(0, min(int(size), int(games) - int(chunk) * int(size)))


def count_chunks(matchups, size: int) -> int:
    return sum(chunks_in(m.games, size) for m in matchups)


def choose_chunk_size(matchups, explicit: int | None = None, option: str = "--chunk-size") -> int:
    """The chunk size of a study: ``explicit`` (--chunk-size or the spec's chunk_size) when
    given, else ``auto_chunk_size``; raises ChunkingError when the study cannot be split
    within the bounds. ``option``: what the messages call the chunk size (the service's
    users set the spec's ``chunk_size``, not a flag)."""
    larger = f"{'pass' if option.startswith('--') else 'set'} a larger {option}"
    for m in matchups:
        if m.games > MAX_GAMES:
            raise ChunkingError(
                f"{m.games:,} games per matchup is more than the {MAX_GAMES:,} a study may play"
            )
    if explicit is not None:
        if not 0 < explicit <= MAX_CHUNK_SIZE:
            raise ChunkingError(f"{option} must be 1..{MAX_CHUNK_SIZE:,} games, got {explicit:,}")
        n = count_chunks(matchups, explicit)
        if n > MAX_CHUNKS:
            raise ChunkingError(
                f"the study would have {n:,} chunks of {explicit:,} games (at most "
                f"{MAX_CHUNKS:,}): {larger}"
            )
        return explicit
    size = auto_chunk_size(matchups)
    total = sum(m.games for m in matchups)
    size = max(size, math.ceil(total / MAX_CHUNKS))
    while count_chunks(matchups, size) > MAX_CHUNKS and size < MAX_CHUNK_SIZE:
        size = min(MAX_CHUNK_SIZE, size * 2)
    n = count_chunks(matchups, size)
    if n > MAX_CHUNKS:
        raise ChunkingError(
            f"the study has {sum(m.games for m in matchups):,} games: {n:,} chunks even at the "
            f"largest chunk size ({MAX_CHUNK_SIZE:,}), at most {MAX_CHUNKS:,}; play fewer games"
        )
    return size
