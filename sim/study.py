"""Study specs: which games a study plays, parsed from TOML (``kalarite study``) or built from
``kalarite simulate`` flags, validated against the content, and expanded into matchups and
chunks of games.

A matchup is (mode, seat decks, seat policies). Its 64-bit seed is a SHA-256 of the study
seed and the matchup key, and game ``i`` of a matchup is played with (matchup seed, game index
``i``) alone (the first seat is ``i % 2``), so the games do not depend on how the work is split
into chunks or workers. ``kalarite play --decks A,B --mode M --seed SEED --game I`` replays
any game of a study from its ``seed`` and ``game_index`` columns.

Spec keys (TOML, top level)::

    name = "example"                 # optional, free text
    decks = "all"                    # "all", a list of deck names, or a list of [seat0, seat1]
    modes = ["high-form", "deathmatch"]   # "all", one mode name, or a list (key "mode" too)
    policies = "random"              # one spec for both seats, [seat0, seat1], or a list of pairs
    games = 1000                     # games per matchup (and mode), > 0
    seed = 1                         # study seed, 0 <= seed < 2**64 (default 0)
    turn_cap = 200                   # default 200
    beings_without_effects = false   # play beings whose effect is not implemented yet
    chunk_size = 2000                # optional: games per chunk (does not change any result)

A policy is a player spec of ``sim.players`` (``random``, ``greedy``, ``mc:playouts=32``...);
in directory names ``:`` becomes ``.`` and ``=`` becomes ``_`` (``mc.playouts_32``).

``decks = "all"`` (or a list of names) means every pairing of those decks including mirror
matches: unordered pairs when both seats use the same policy (the first player alternates, so
A-vs-B and B-vs-A are the same experiment), ordered pairs when the seat policies differ.
"""

import hashlib
import itertools
import json
import pathlib
import re
import tomllib
from dataclasses import dataclass, field

from core import constants as K

DEFAULT_TURN_CAP = 200
DEFAULT_CHUNK_SIZE = 2000
N_SEATS = 2
MAX_SEED = 2**64
MAX_TURN_CAP = 100_000
# names end up in directory names (hive partitions): keep them plain
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.]+$")
_UNSAFE_CHARS = re.compile(r"[^A-Za-z0-9_.-]")

SPEC_KEYS = (
    "name",
    "decks",
    "modes",
    "mode",
    "policies",
    "policy",
    "games",
    "seed",
    "turn_cap",
    "beings_without_effects",
    "chunk_size",
)


class StudyError(ValueError):
    """A bad study spec or bad study flags: one line, exit status 2."""


@dataclass(frozen=True)
class Matchup:
    mode: str
    decks: tuple  # deck name per seat
    policies: tuple  # policy name per seat
    seed: int  # 64-bit matchup seed
    games: int

    @property
    def matchup(self) -> str:
        return "-vs-".join(self.decks)

    @property
    def policy_pair(self) -> str:
        return "-vs-".join(policy_label(p) for p in self.policies)

    @property
    def partition(self) -> str:
        """Hive-style relative directory of this matchup's files in each table."""
        return f"mode={self.mode}/matchup={self.matchup}/policies={self.policy_pair}"

    def to_dict(self) -> dict:
        return {
            "mode": self.mode,
            "matchup": self.matchup,
            "policies": self.policy_pair,
            "seat_decks": list(self.decks),
            "seat_policies": list(self.policies),
            "seed": self.seed,
            "games": self.games,
        }


@dataclass(frozen=True)
class Chunk:
    matchup: int  # index into the study's matchups
    index: int  # chunk number within the matchup
    first_game: int
    n_games: int


@dataclass
class Study:
    """A validated, expanded study: what is played. ``chunk_size`` is how the work is split
    (it never changes a result) and is not part of ``to_dict``."""

    decks: list  # [(seat0 deck, seat1 deck), ...]
    modes: list
    policies: list  # [(seat0 policy, seat1 policy), ...]
    games: int
    seed: int = 0
    turn_cap: int = DEFAULT_TURN_CAP
    beings_without_effects: bool = False
    name: str = ""
    chunk_size: int | None = field(default=None, compare=False)

    def to_dict(self) -> dict:
        """The normalized spec: stored in the dataset metadata and compared on resume."""
        return {
            "name": self.name,
            "decks": [list(p) for p in self.decks],
            "modes": list(self.modes),
            "policies": [list(p) for p in self.policies],
            "games": self.games,
            "seed": self.seed,
            "turn_cap": self.turn_cap,
            "beings_without_effects": self.beings_without_effects,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def matchups(self) -> list:
        out = []
        for mode in self.modes:
            for pols in self.policies:
                for decks in self.decks:
                    out.append(
                        Matchup(
                            mode=mode,
                            decks=tuple(decks),
                            policies=tuple(pols),
                            seed=matchup_seed(self.seed, mode, decks, pols),
                            games=self.games,
                        )
                    )
        return out

    @property
    def total_games(self) -> int:
        return self.games * len(self.modes) * len(self.policies) * len(self.decks)


def policy_label(spec: str) -> str:
    """A policy spec as a directory-safe name: ``mc:playouts=32`` -> ``mc.playouts_32``."""
    return _UNSAFE_CHARS.sub("_", spec.replace(":", ".").replace("=", "_"))


def matchup_seed(study_seed: int, mode: str, decks, policies) -> int:
    """The matchup's 64-bit seed: stable across runs, machines and Python versions."""
    key = json.dumps(
        ["kalarite-matchup", int(study_seed), mode, list(decks), list(policies)],
        separators=(",", ":"),
    )
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def plan_chunks(matchups, chunk_size: int) -> list:
    """Every chunk of every matchup, round-robin over the matchups (so a partial study covers
    all matchups evenly)."""
    if chunk_size <= 0:
        raise StudyError("the chunk size must be a positive integer")
    per = []
    for m, mu in enumerate(matchups):
        per.append(
            [
                Chunk(m, c, first, min(chunk_size, mu.games - first))
                for c, first in enumerate(range(0, mu.games, chunk_size))
            ]
        )
    out = []
    for row in itertools.zip_longest(*per):
        out.extend(ch for ch in row if ch is not None)
    return out


# --- parsing ---------------------------------------------------------------------------------


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _pairings(names, policies):
    """All deck pairings of ``names`` for one policy pair (see the module docstring)."""
    if policies[0] == policies[1]:
        return list(itertools.combinations_with_replacement(names, 2))
    return list(itertools.product(names, repeat=2))


def _dedupe(items):
    return list(dict.fromkeys(items))


def _str_list(value, key, where):
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return list(value)
    raise StudyError(f"{where}: {key!r} must be a name or a non-empty list of names")


def _policy_pairs(value, where):
    key = "policies"
    if isinstance(value, str):
        return [(value, value)]
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if len(value) == 1:
            return [(value[0], value[0])]
        if len(value) == N_SEATS:
            return [tuple(value)]
    elif isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        pairs = []
        for v in value:
            if len(v) == 1 and isinstance(v[0], str):
                v = [v[0], v[0]]
            if len(v) != N_SEATS or not all(isinstance(x, str) for x in v):
                break
            pairs.append(tuple(v))
        else:
            return _dedupe(pairs)
    raise StudyError(
        f"{where}: {key!r} must be a policy name, [seat0, seat1], or a list of such pairs"
    )


def _deck_pairs(value, policy_pairs, all_decks, where):
    """List of (decks pair) per policy pair -> flattened, in a stable order."""
    if value == "all":
        names = list(all_decks)
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        names = _dedupe(value)
    elif isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        pairs = []
        for v in value:
            if len(v) != N_SEATS or not all(isinstance(x, str) for x in v):
                raise StudyError(
                    f"{where}: each entry of 'decks' must be [seat0 deck, seat1 deck], got {v!r}"
                )
            pairs.append(tuple(v))
        return _dedupe(pairs)
    else:
        raise StudyError(
            f"{where}: 'decks' must be \"all\", a list of deck names, "
            "or a list of [seat0, seat1] pairs"
        )
    out = []
    for pols in policy_pairs:
        out.extend(_pairings(names, pols))
    return _dedupe(out)


def study_from_dict(data: dict, content, where: str = "study") -> Study:
    """Parse and validate a spec dict (a TOML document) into a Study."""
    if not isinstance(data, dict):
        raise StudyError(f"{where}: a study spec is a TOML table of keys")
    unknown = [k for k in data if k not in SPEC_KEYS]
    if unknown:
        raise StudyError(
            f"{where}: unknown key {unknown[0]!r} (known keys: "
            f"{', '.join(k for k in SPEC_KEYS if k not in ('mode', 'policy'))})"
        )
    for a, b in (("modes", "mode"), ("policies", "policy")):
        if a in data and b in data:
            raise StudyError(f"{where}: give {a!r} or {b!r}, not both")
    for key in ("decks", "games"):
        if key not in data:
            raise StudyError(f"{where}: missing key {key!r}")

    name = data.get("name", "")
    if not isinstance(name, str):
        raise StudyError(f"{where}: 'name' must be a string")

    modes_v = data.get("modes", data.get("mode", "high-form"))
    modes = list(K.MODE_NAMES) if modes_v == "all" else _str_list(modes_v, "modes", where)

    pols_v = data.get("policies", data.get("policy", "random"))
    policy_pairs = _policy_pairs(pols_v, where)

    games = data["games"]
    if not _is_int(games) or games <= 0:
        raise StudyError(f"{where}: 'games' must be a positive integer, got {games!r}")
    seed = data.get("seed", 0)
    if not _is_int(seed) or not 0 <= seed < MAX_SEED:
        raise StudyError(f"{where}: 'seed' must be an integer in [0, 2**64), got {seed!r}")
    turn_cap = data.get("turn_cap", DEFAULT_TURN_CAP)
    if not _is_int(turn_cap) or not 0 < turn_cap <= MAX_TURN_CAP:
        raise StudyError(
            f"{where}: 'turn_cap' must be an integer in 1..{MAX_TURN_CAP}, got {turn_cap!r}"
        )
    bwe = data.get("beings_without_effects", False)
    if not isinstance(bwe, bool):
        raise StudyError(f"{where}: 'beings_without_effects' must be true or false")
    chunk_size = data.get("chunk_size")
    if chunk_size is not None and (not _is_int(chunk_size) or chunk_size <= 0):
        raise StudyError(f"{where}: 'chunk_size' must be a positive integer, got {chunk_size!r}")

    study = Study(
        decks=_deck_pairs(data["decks"], policy_pairs, content.decks, where),
        modes=_dedupe(modes),
        policies=policy_pairs,
        games=games,
        seed=seed,
        turn_cap=turn_cap,
        beings_without_effects=bwe,
        name=name,
        chunk_size=chunk_size,
    )
    validate(study, content, where)
    return study


def validate(study: Study, content, where: str = "study"):
    """Every name known and playable; raises StudyError / ContentError (one line)."""
    from sim.content import ContentError
    from sim.players import parse_policy

    for mode in study.modes:
        if mode not in K.MODE_NAMES:
            raise StudyError(
                f"{where}: unknown mode {mode!r} (known modes: {', '.join(K.MODE_NAMES)})"
            )
    for pair in study.policies:
        for p in pair:
            try:
                parse_policy(p)
            except ValueError as e:
                raise StudyError(f"{where}: {e}") from None
    labels = {}
    for pair in study.policies:
        label = "-vs-".join(policy_label(p) for p in pair)
        if labels.setdefault(label, pair) != pair:
            raise StudyError(
                f"{where}: policies {list(pair)} and {list(labels[label])} have the same "
                f"directory name {label!r}"
            )
    for pair in study.decks:
        for d in pair:
            try:
                content.deck_index(d)
            except ContentError as e:
                raise StudyError(f"{where}: {e}") from None
            if not _SAFE_NAME.match(d):
                raise StudyError(f"{where}: deck name {d!r} cannot be a partition value")
    for pair in study.decks:
        try:
            content.require_playable(list(pair), study.beings_without_effects)
        except ContentError as e:
            raise StudyError(
                f"{where}: {e} (in a spec: beings_without_effects = true)"
                if where != "simulate"
                else f"{e}"
            ) from None


def load_study(path, content, beings_without_effects: bool = False) -> Study:
    """Read and validate a study spec file; ``beings_without_effects`` (the command-line flag)
    forces that key on."""
    p = pathlib.Path(path)
    try:
        with open(p, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise StudyError(f"study spec {str(p)!r} not found") from None
    except IsADirectoryError:
        raise StudyError(f"study spec {str(p)!r} is a directory") from None
    except tomllib.TOMLDecodeError as e:
        raise StudyError(f"{p.name}: not valid TOML: {e}") from None
    except UnicodeDecodeError:
        raise StudyError(f"{p.name}: not valid TOML (not UTF-8 text)") from None
    except OSError as e:
        raise StudyError(f"cannot read study spec {str(p)!r}: {e.strerror}") from None
    if beings_without_effects:
        data["beings_without_effects"] = True
    return study_from_dict(data, content, where=p.name)


def simulate_study(
    content,
    decks: list,
    mode: str,
    policies: tuple,
    games: int,
    seed: int,
    turn_cap: int,
    beings_without_effects: bool,
) -> Study:
    """The one-matchup study of ``kalarite simulate``."""
    where = "simulate"
    if len(decks) != N_SEATS:
        raise StudyError(f"--decks needs {N_SEATS} deck names (one per seat), got {len(decks)}")
    if len(policies) != N_SEATS:
        raise StudyError(f"--policy needs 1 or {N_SEATS} names")
    if games <= 0:
        raise StudyError(f"--games must be a positive integer, got {games}")
    if not 0 <= seed < MAX_SEED:
        raise StudyError("--seed must be an integer in [0, 2**64)")
    if not 0 < turn_cap <= MAX_TURN_CAP:
        raise StudyError(f"--turn-cap must be an integer in 1..{MAX_TURN_CAP}")
    study = Study(
        decks=[tuple(decks)],
        modes=[mode],
        policies=[tuple(policies)],
        games=games,
        seed=seed,
        turn_cap=turn_cap,
        beings_without_effects=beings_without_effects,
        name="simulate",
    )
    validate(study, content, where)
    return study
