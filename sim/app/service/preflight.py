"""What would stop a submitted study once started, checked before the service answers 201:
a study the service accepts can start. The checks are the runner's own (cluster.runner
makes them as it starts, before it writes anything), so they cannot drift from it; only the
advice differs, naming what a service user can change (the spec's keys, or asking the
service's admin) instead of the command line's flags and directories:

- the study splits into chunks within the runner's bounds (sim.chunking);
- its estimated Parquet output fits in the free space of the data directory (sim.study_size,
  the estimate `kalarite study` refuses by); a suggestion's, at its games budget.

The spec itself (every key, deck, mode, player and the content's card files) was checked
by the spec's own rules as it was read (sim.app.service.specs), and the output directory is
always a new one (each study's id is new), so nothing else in the runner can refuse it.
"""

from sim.app.service.limits import LimitError
from sim.app.service.specs import WHERE

ROOM = "play fewer games, or ask the service's admin to free space on its disk"


def check_chunks(study):
    """400 when the study cannot be split into chunks (sim.chunking's bounds)."""
    from sim.chunking import ChunkingError, choose_chunk_size

    try:
        choose_chunk_size(study.matchups(), study.chunk_size, option="chunk_size")
    except ChunkingError as e:
        raise LimitError(400, f"{WHERE}: {e}") from None


def check_room(config, games_by_matchup):
    """403 (as for the disk quota) when the estimated output does not fit in the data
    directory's free space."""
    from sim.study_size import disk_shortfall, size_text

    short = disk_shortfall(games_by_matchup, config.data)
    if short is not None:
        need, free = short
        raise LimitError(
            403,
            f"this study would write about {size_text(need)} of Parquet, and the service's "
            f"disk has {size_text(free)} free (estimated from stored bytes per game): {ROOM}",
        )


def check_study(config, study):
    """Everything a checked spec could still fail on when its study starts."""
    check_chunks(study)
    check_room(config, [(m, m.games) for m in study.matchups()])


class _Cell:
    """A suggestion's games as the size estimate reads a matchup: a mode and its seats."""

    def __init__(self, mode, player):
        self.mode, self.policies = mode, (player,)


def check_suggestion(config, goal):
    """A suggestion's budget of games must fit in the data directory's free space (at its
    costliest mode and player: a suggestion may spend its budget on any of them)."""
    from sim.study_size import bytes_per_game

    players = [goal.screen_player, *(goal.confirm_players or ())]
    cells = [_Cell(m, p) for m in goal.modes for p in players]
    costliest = max(cells, key=lambda c: bytes_per_game(c.mode, c.policies))
    check_room(config, [(costliest, goal.games)])
