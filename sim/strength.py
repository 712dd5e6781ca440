"""Which player is strongest, read from the ratings of the checked-in ladders, so the project
names its top player in one place: the competence command's default, suggest's confirmation
players, the service page's default player and the order of `kalarite players` all ask here.

The ladders are made by `kalarite ladder` (sim/app/ladder.py, fitted by results/ratings.py)
and kept in the repository (``LADDER_FILES``): the base decks' and every deck's. A player is
ranked by its base-deck rating, then its all-deck one (``strength_key``); players on neither
ladder are unrated. Without any ladder (an installed package, which has no benchmarks/results/)
the order assumed is ``LADDER_PLAYERS``'s, listed weakest first.
"""

import pathlib

from sim.inputs import read_document

REPO = pathlib.Path(__file__).resolve().parents[1]
# the players `kalarite ladder` rates by default, weakest first as measured
LADDER_PLAYERS = ("random", "greedy", "mc", "greedy-tuned", "planner", "sage", "seer")
# the checked-in ladder of each deck set (relative to the repository)
LADDER_FILES = {
    "base": "benchmarks/results/ladder.json",
    "all": "benchmarks/results/ladder_all_decks.json",
}


def load_ladder(path=None, deck_set: str = "base") -> dict | None:
    """The ladder file at ``path`` (default: the checked-in one of ``deck_set``), or None when
    there is none."""
    path = pathlib.Path(path or REPO / LADDER_FILES[deck_set])
    if not path.exists():
        return None
    try:  # bounded, a key given twice refused, one line
        return read_document(path, path.name, "JSON", ValueError)
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read the ladder {str(path)!r}: {e}") from None


def strength_key(rating, rating_all_decks) -> tuple:
    """Sort key, strongest first: by the base-deck rating, then the all-deck one; a player
    unrated on the base decks after every rated one (None: not on that ladder)."""
    return (
        rating is None,
        -(rating if rating is not None else 0.0),
        rating_all_decks is None,
        -(rating_all_decks if rating_all_decks is not None else 0.0),
    )


def strongest_players(n: int = 2, ladders: tuple | None = None) -> list:
    """The ``n`` strongest players or profiles that exist, best first, by ``strength_key`` over
    the ratings of ``ladders`` ((base, all decks) ladder dicts; default: the checked-in ones);
    ``LADDER_PLAYERS`` strongest first when no ladder rates any of them."""
    # imported here, not at the top: the CLI's parser imports this module on every command,
    # and sim.players costs ~0.17 s (numpy, the engine's constants)
    from sim.player_kinds import BY_NAME
    from sim.players import load_profiles

    base, every = ladders if ladders is not None else (load_ladder(), load_ladder(None, "all"))
    known = set(BY_NAME) | set(load_profiles())
    ratings = {}
    for column, ladder in enumerate((base, every)):
        for p in (ladder or {}).get("players", []):
            if p["name"] in known and p.get("rating") is not None:
                ratings.setdefault(p["name"], [None, None])[column] = p["rating"]
    if not ratings:
        return list(reversed(LADDER_PLAYERS))[:n]
    return sorted(ratings, key=lambda name: strength_key(*ratings[name]))[:n]


def top_player(ladders: tuple | None = None) -> str:
    """The strongest player (``strongest_players``' first)."""
    return strongest_players(1, ladders)[0]
