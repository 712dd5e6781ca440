"""A batch of games from names: the one place that turns (content, mode, seat decks, seat
players, seed) into the kernel's ``core.kernel.Batch``, and the one place players are
resolved into the parameter rows the engine plays.

A player spec (``planner``, ``sage``, ``mc:playouts=32``) names a parameter row only
through things outside the engine: the profile file ``sim/profiles/players.toml`` (which
`kalarite tune` and `kalarite learn` rewrite) and the defaults of the player registry
(``sim.player_kinds``). So a study resolves its players once, in the driver
(``resolve_players``), and from then on the rows travel as data: their digests go into the
dataset's identity (``players_digests``, ``players_hash``: results.store.dataset_info), the
rows themselves go with every chunk to its worker (``Player.to_json`` / ``from_json``), and
the worker plays exactly those rows, checking their digests as it checks the engine hash.
Nothing after the driver reads the profile file again.
"""

import hashlib
import json
from dataclasses import dataclass

import numpy as np

from core import constants as K
from core.players.params import MODEL_STRIDE, PP_MODEL, PP_TAIL, PP_WIDTH
from core.players.weights import WEIGHT_NAMES
from sim.player_kinds import BY_CODE, setting_columns


@dataclass(frozen=True)
class Player:
    """One resolved player: its spec, the engine's player code and its parameter row."""

    spec: str
    code: int  # POL_*
    params: tuple  # PP_WIDTH floats (a tuple: hashable, JSON-ready, no shared buffer)

    @property
    def digest(self) -> str:
        """16 hex digits of SHA-256 over the code and the row (floats written exactly). The
        row's tail (core.players.params PP_TAIL: settings added later, 0 at their defaults)
        is left out while it is all 0, so the players that use none of them keep the
        identities their datasets recorded."""
        row = [float(x) for x in self.params]
        if not any(row[PP_TAIL:]):
            row = row[:PP_TAIL]
        text = json.dumps([self.code, row], separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_json(self) -> dict:
        return {"code": self.code, "params": [float(x) for x in self.params]}

    @classmethod
    def from_json(cls, spec: str, data: dict) -> "Player":
        params = tuple(float(x) for x in data["params"])
        if len(params) != PP_WIDTH:
            raise ValueError(
                f"player {spec!r}: a parameter row of {len(params)} values, the engine's has "
                f"{PP_WIDTH}"
            )
        return cls(spec, int(data["code"]), params)


def resolve_players(specs, profiles=None) -> dict:
    """{spec: Player} for the distinct specs in ``specs`` (in order of first use), read from
    the profile file now (``profiles``: already loaded ones). Raises ValueError on an unknown
    or malformed spec."""
    from sim.players import load_profiles, parse_policy

    profiles = load_profiles() if profiles is None else profiles
    out = {}
    for spec in specs:
        if spec not in out:
            code, row = parse_policy(spec, profiles)
            out[spec] = Player(spec, int(code), tuple(float(x) for x in row))
    return out


def players_digests(players: dict) -> dict:
    """{spec: digest}: what a dataset records of each of its players."""
    return {spec: p.digest for spec, p in players.items()}


def players_hash(digests: dict) -> str:
    """One hash of every player of a dataset (``players_digests``), independent of order."""
    text = json.dumps(sorted(digests.items()), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def changed_parts(old: dict, new: dict) -> list:
    """What differs between two resolved rows (``Player.to_json``), in words: the player,
    the weights and settings by name (the registry's, sim.player_kinds), a learned model by
    mode."""
    if old["code"] != new["code"]:
        return [f"the player ({_player_name(old)} -> {_player_name(new)})"]
    # a row recorded before the tail (PP_TAIL) holds its settings at their defaults, 0
    a, b = (list(r) + [0.0] * (PP_WIDTH - PP_TAIL) if len(r) == PP_TAIL else r for r in
            (old["params"], new["params"]))  # fmt: skip
    if len(a) != len(b):
        return ["the parameter row's layout"]
    weights = [w for i, w in enumerate(WEIGHT_NAMES) if a[i] != b[i]]
    out = [f"weights {', '.join(weights)}"] if weights else []
    out += [s.key for col, s in setting_columns().items() if a[col] != b[col]]
    for k, mode in enumerate(K.MODE_NAMES):
        lo = PP_MODEL + k * MODEL_STRIDE
        if a[lo : lo + MODEL_STRIDE] != b[lo : lo + MODEL_STRIDE]:
            out.append(f"the learned model for {mode}")
    return out


def _player_name(row: dict) -> str:
    code = row["code"]
    return BY_CODE[code].name if code in BY_CODE else str(code)


def batch(content, mode, decks, policies, seed: int, players: dict | None = None):
    """The kernel's batch (``core.kernel.Batch``) of (``mode`` name, seat ``decks`` names,
    seat ``policies`` specs, 64-bit ``seed``). ``players``: the resolved players ({spec:
    Player}) to play; without it the specs are resolved here, from the profile file as it
    is now."""
    from core.kernel import Batch  # the engine's drivers: only where games are played

    if players is None:
        players = resolve_players(policies)
    missing = [p for p in policies if p not in players]
    if missing:
        raise ValueError(f"player {missing[0]!r} was not resolved for this batch")
    seats = [players[p] for p in policies]
    return Batch(
        T=content.tables,
        mode=K.MODE_NAMES.index(mode),
        decks=np.array([content.deck_index(d) for d in decks], np.int32),
        policies=np.array([p.code for p in seats], np.int32),
        params=np.array([p.params for p in seats], np.float64).reshape(len(seats), PP_WIDTH),
        seed=int(seed),
    )
