"""A dataset's files: where each chunk's Parquet file of each table lives, how many chunks a
matchup has and how many games each holds, how a part file's name is read back, and how a
chunk's files are finished (the chunk's own metadata, compression). The store writes and
checks chunks through it, the runner plans them, the worker encodes them and the service's
progress counts them, so the layout is written once.

Layout of a dataset (``--out``)::

    study.json                                        the manifest (results.store)
    <table>/mode=M/matchup=A-vs-B/policies=P-vs-Q/part-00000.parquet

``<table>``: games, card_events, task_claims (and positions when the study samples them).
Chunk ``c`` of a matchup holds its games ``c * chunk_size ..`` (sim.chunking: the chunk
arithmetic), or, for a study of listed games (sim.study.with_game_lists), those places of its
list. Each file's schema metadata holds the dataset's identity (results.schema
``file_metadata``) and, under ``CHUNK_KEY``, which chunk it is and where it was played.
"""

import itertools
import json
import pathlib
from dataclasses import dataclass

from sim.chunking import chunks_in, games_in_chunk

MANIFEST = "study.json"  # a dataset's manifest, in its root (results.store writes it)


def missing_dataset(root) -> str | None:
    """Why ``root`` holds no dataset (one line), or None: read before any of the report's
    libraries are imported, so a mistyped path is refused at once."""
    root = pathlib.Path(root)
    if not root.exists():
        return f"no dataset at {str(root)!r}"
    if not root.is_dir():
        return f"{str(root)!r} is not a dataset directory"
    if not (root / MANIFEST).is_file():
        return (
            f"{str(root)!r} holds no kalarite study ({MANIFEST} is missing); "
            "run `kalarite study` or `kalarite simulate` with --out there first"
        )
    return None


CHUNK_KEY = b"kalarite.chunk"  # a file's own metadata: matchup, chunk, node, host, pid
COMPRESSION = "zstd"
_PART = ("part-", ".parquet")


@dataclass(frozen=True)
class Chunk:
    matchup: int  # index into the study's matchups
    index: int  # chunk number within the matchup
    first_game: int
    n_games: int
    games: tuple = ()  # its game indices, when the matchup plays listed games


def partition(mode: str, matchup: str, policies: str) -> str:
    """Hive-style relative directory of one matchup's files in each table."""
    return f"mode={mode}/matchup={matchup}/policies={policies}"


def part_name(chunk: int) -> str:
    return f"{_PART[0]}{chunk:05d}{_PART[1]}"


def parse_part(name: str) -> int | None:
    """The chunk index of a part file's name; None for any other name (a temporary file)."""
    if not (name.startswith(_PART[0]) and name.endswith(_PART[1])):
        return None
    digits = name[len(_PART[0]) : -len(_PART[1])]
    return int(digits) if digits.isdigit() else None


class Layout:
    """The files of one dataset: its matchups (each with ``mode``, ``matchup`` (decks),
    ``policies`` (the directory name of its players) and ``games``) and its chunk size."""

    def __init__(self, matchups, chunk_size: int, game_lists=None):
        if chunk_size <= 0:
            raise ValueError("the chunk size must be a positive integer")
        self.chunk_size = int(chunk_size)
        self._parts = [partition(m["mode"], m["matchup"], m["policies"]) for m in matchups]
        self._games = [int(m["games"]) for m in matchups]
        # a matchup of listed games (sim.study.with_game_lists): chunk c holds its games
        # c * chunk_size .. of the list; () or None: games 0 .. games - 1
        self._lists = [tuple(x or ()) for x in (game_lists or [()] * len(self._games))]

    @classmethod
    def of_matchups(cls, matchups, chunk_size: int) -> "Layout":
        """From a study's matchups (sim.study.Matchup), with their game lists."""
        lists = [getattr(m, "game_list", ()) for m in matchups]
        return cls([m.to_dict() for m in matchups], chunk_size, lists)

    @classmethod
    def of_manifest(cls, manifest: dict) -> "Layout":
        """From a dataset's manifest (its ``matchups`` and ``chunk_size``)."""
        return cls(manifest["matchups"], int(manifest["chunk_size"]))

    def __len__(self) -> int:
        return len(self._games)

    def partition(self, m: int) -> str:
        return self._parts[m]

    def games(self, m: int) -> int:
        return self._games[m]

    def chunks_of(self, m: int) -> int:
        return chunks_in(self._games[m], self.chunk_size)

    def listed(self, m: int, chunk: int) -> tuple:
        """The game indices of chunk ``chunk`` of a matchup of listed games, else ()."""
        start = chunk * self.chunk_size
        return self._lists[m][start : start + self.chunk_size]

    def first_game(self, m: int, chunk: int) -> int:
        listed = self.listed(m, chunk)
        return listed[0] if listed else chunk * self.chunk_size

    def last_game(self, m: int, chunk: int) -> int:
        listed = self.listed(m, chunk)
        return listed[-1] if listed else self.first_game(m, chunk) + self.games_in(m, chunk) - 1

    def games_in(self, m: int, chunk: int) -> int:
        """Games of chunk ``chunk`` of matchup ``m`` (0 for a chunk the matchup has not)."""
        return games_in_chunk(self._games[m], self.chunk_size, chunk)

    def chunk(self, m: int, c: int) -> Chunk:
        return Chunk(m, c, self.first_game(m, c), self.games_in(m, c), self.listed(m, c))

    def chunks(self) -> list:
        """Every chunk of every matchup, round-robin over the matchups (so a partial study
        covers all matchups evenly)."""
        per = [[self.chunk(m, c) for c in range(self.chunks_of(m))] for m in range(len(self))]
        return [ch for row in itertools.zip_longest(*per) for ch in row if ch is not None]

    def total_chunks(self) -> int:
        return sum(self.chunks_of(m) for m in range(len(self)))

    def directory(self, root, table: str, m: int) -> pathlib.Path:
        return pathlib.Path(root) / table / self._parts[m]

    def path(self, root, table: str, m: int, chunk: int) -> pathlib.Path:
        return self.directory(root, table, m) / part_name(chunk)


def encode(tables: dict, chunk: dict) -> dict:
    """Finish one chunk's files: each table (pyarrow, its schema metadata already holding
    the dataset's identity) gets the chunk's own metadata under ``CHUNK_KEY`` and is written
    as zstd Parquet (``parquet_options``); returns {table: bytes}."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    md = json.dumps(chunk).encode()
    out = {}
    for name, t in tables.items():
        t = t.replace_schema_metadata({**(t.schema.metadata or {}), CHUNK_KEY: md})
        sink = pa.BufferOutputStream()
        pq.write_table(t, sink, **parquet_options(t.schema))
        out[name] = sink.getvalue().to_pybytes()
    return out


DELTA_COLUMNS = ("game_index", "turn")  # ascending or slowly changing integers


def parquet_options(schema) -> dict:
    """How a chunk's table is written. The values are the same whatever the options; these
    spend less CPU (a random study's chunk is a tenth Parquet): ``game_index`` and ``turn``
    delta-encoded (smaller and faster than a dictionary of their values), the other columns
    dictionary-encoded; min/max statistics only for the numbers (``game_index``'s are what
    results.chunk_check reads), not for the dictionary strings and booleans, where they cost
    the most and help no query."""
    import pyarrow as pa

    names = [f.name for f in schema]
    delta = [n for n in names if n in DELTA_COLUMNS]
    plain = [f.name for f in schema if pa.types.is_integer(f.type) or pa.types.is_floating(f.type)]
    return {
        "compression": COMPRESSION,
        "use_dictionary": [n for n in names if n not in delta],
        "column_encoding": dict.fromkeys(delta, "DELTA_BINARY_PACKED"),
        "write_statistics": plain,
    }
