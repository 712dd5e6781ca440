"""Player specifications: a player or profile name plus optional parameters, compiled to the
kernel's arrays.

Syntax (CLI `--policy`, study `policies`): `random`, `greedy`, `planner`, `mc`, or the name
of a profile (sim/profiles/players.toml), optionally followed by `:key=value` pairs, e.g.
`greedy:points=12:material=1`, `planner:width=8`, `planner:samples=2` (the reply-aware
step) or `mc:playouts=32:horizon=4`.
Keys: the evaluation weights (core.players.weights WEIGHT_NAMES) for every player but random, and
the settings of the player, declared with their ranges and defaults in the player registry
(sim.player_kinds: integers, or one of a few names, e.g. `planner:restrict=frozen`, the
restricted twin that never thaws). A profile is a player with its weights and settings
stored as data, with the provenance of how they were found (`kalarite tune` writes them).
A planner profile may also hold a learned win-probability model per mode (`kalarite learn`
writes them), which the planner's leaf value reads (core.players.learned)::

    [profile.NAME.model.high-form]
    intercept = -0.3
    [profile.NAME.model.high-form.coef]    # by feature name (core.players.features)
    points_me = 0.21                       # a feature not named: coefficient 0
"""

import copy
import hashlib
import math
import pathlib
from dataclasses import dataclass, field

import numpy as np

from core import constants as K
from core.players.params import MODEL_STRIDE, PP_MODEL, PP_WIDTH
from core.players.weights import N_WEIGHTS, WEIGHT_NAMES
from sim.inputs import (
    MAX_BYTES,
    need_display,
    need_number,
    need_slug,
    need_table,
    number_text,
    read_document,
)
from sim.learned import check_models, model_block
from sim.player_kinds import (
    BY_NAME,
    DEFAULT_WEIGHTS,
    MAX_WEIGHT,
    MODEL_PLAYERS,
    setting_columns,
)

PROFILES_PATH = pathlib.Path(__file__).parent / "profiles" / "players.toml"


@dataclass
class Profile:
    """A named player: base player, weights and settings, a learned model per mode
    (``{mode: {"intercept": x, "coef": {feature: x}}}``), and where they came from."""

    name: str
    player: str
    about: str = ""
    weights: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)
    provenance: dict = field(default_factory=dict)
    models: dict = field(default_factory=dict)
    # a profile written as another one (sim/profiles/players.toml ``base``): that profile's
    # name and this one's own table as written, so saving the file keeps it a variant
    base: str = ""
    own: dict = field(default_factory=dict)


# Each file's validated profiles with a digest of its bytes: a learned network makes the file
# long enough that parsing it on every batch cost ~27 ms a chunk (measured on the i39 branch,
# sim.games.batch 2.7 -> 30 ms); reading and hashing the bytes costs well under a millisecond,
# and unlike a modification time it cannot miss a rewrite. Callers get a deep copy, so none
# can change what another reads.
_PROFILES_CACHE: dict = {}


def load_profiles(path=None) -> dict:
    """Profiles by name; {} when the file does not exist. Raises ValueError on bad data."""
    path = pathlib.Path(path or PROFILES_PATH)
    try:
        with open(path, "rb") as f:  # bounded as read_document is: more is refused there
            digest = hashlib.blake2b(f.read(MAX_BYTES + 1), digest_size=16).digest()
    except FileNotFoundError:
        return {}
    except OSError:  # a folder, no permission: read_document says so in one line
        return _read_profiles(path)
    where = str(path.resolve())
    cached = _PROFILES_CACHE.get(where)
    if cached is None or cached[0] != digest:  # each file's current version only
        cached = _PROFILES_CACHE[where] = (digest, _read_profiles(path))
    return copy.deepcopy(cached[1])


def _read_profiles(path) -> dict:
    data = read_document(path, str(path), "TOML", ValueError)  # bounded, one line
    tables = need_table(data.get("profile", {}), f"{path.name}: profile", ValueError)
    out = {}
    for name, d in tables.items():
        where = f"{path.name}: profile {name!r}"
        check_profile_name(name, f"{path.name}: profile name")
        own = need_table(d, where, ValueError)
        d = _with_base(tables, name, own, where)
        player = d.get("player")
        if player not in BY_NAME or not BY_NAME[player].weights:
            tunable = ", ".join(k.name for k in BY_NAME.values() if k.weights)
            raise ValueError(f"{where}: 'player' must be one of {tunable}")
        weights = dict(need_table(d.get("weights", {}), f"{where}: weights", ValueError))
        unknown = set(weights) - set(WEIGHT_NAMES)
        if unknown:
            raise ValueError(f"{where}: unknown weights {sorted(unknown)}")
        weights = {k: check_weight(v, f"{where}: weight {k}") for k, v in weights.items()}
        settings = dict(need_table(d.get("settings", {}), f"{where}: settings", ValueError))
        for k, v in settings.items():
            settings[k] = _check_setting(player, k, v, where)
        models = check_models(d.get("model", {}), where)
        if models and player not in MODEL_PLAYERS:
            raise ValueError(
                f"{where}: only {', '.join(MODEL_PLAYERS)} profiles may hold a model "
                f"({player} reads no learned value)"
            )
        out[name] = Profile(
            name,
            player,
            need_display(d.get("about", ""), f"{where}: about", ValueError, nonempty=False),
            weights,
            settings,
            dict(d.get("provenance", {})),
            models,
            own.get("base", ""),
            dict(own) if "base" in own else {},
        )
    return out


def _with_base(tables: dict, name: str, d: dict, where: str) -> dict:
    """A profile written as another one (``base``) with its own keys over it: its player,
    weights, settings and models are the base's unless it names them (a variant such as
    seer-lean does not copy the seer's network). A base may have a base; no cycles."""
    seen = [name]
    while "base" in d:
        base = d["base"]
        if not isinstance(base, str) or base not in tables:
            raise ValueError(f"{where}: 'base' must name another profile of the file")
        if base in seen:
            raise ValueError(f"{where}: 'base' goes round in a circle ({' -> '.join(seen)})")
        seen.append(base)
        parent = need_table(tables[base], f"{where}: base {base!r}", ValueError)
        merged = {k: v for k, v in parent.items() if k not in ("about", "provenance")}
        for k, v in d.items():
            if k == "base":
                continue
            if k in ("weights", "settings") and isinstance(v, dict):
                merged[k] = {**dict(parent.get(k, {})), **v}
            else:
                merged[k] = v
        if "base" in parent:
            merged["base"] = parent["base"]
        d = merged
    return d


def check_profile_name(name, what: str, error=ValueError) -> str:
    """A profile's name: an identifier (sim.inputs' slug) that is not a player's name."""
    need_slug(name, what, error)
    if name in BY_NAME:
        raise error(f"{what} {name!r}: a profile may not take a player's name")
    return name


def check_weight(value, what: str) -> float:
    """An evaluation weight: a finite number within +-MAX_WEIGHT (sim.inputs' number rule)."""
    return need_number(value, what, -MAX_WEIGHT, MAX_WEIGHT, ValueError)


def _check_setting(player, key, value, where):
    """A setting of a profile (TOML: a name or an integer) as used, or one line."""
    setting = BY_NAME[player].setting(key)
    if setting is None:
        known = ", ".join(BY_NAME[player].keys()) or "none"
        raise ValueError(f"{where}: {player} has no setting {key!r} (settings: {known})")
    return setting.check(value, f"{where}: {key}")


def _drop_defaults(kind, settings: dict) -> dict:
    """A named setting at its default is left out, so equal players get equal names."""
    return {
        k: v
        for k, v in settings.items()
        if not (kind.setting(k).named and v == kind.setting(k).default)
    }


_BARE_KEY = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _toml_key(k) -> str:
    k = str(k)
    return k if k and set(k) <= _BARE_KEY else _toml_value(k)


def _toml_value(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_key(a)} = {_toml_value(b)}" for a, b in v.items()) + "}"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"cannot store {v} in a profile")
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise ValueError(f"cannot store {v!r} in a profile")


def _table(name: str, values: dict) -> list:
    """``[name]`` with its plain keys, then a sub-table for each key holding a table."""
    plain = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in values.items() if not _is_table(v)]
    lines = [f"[{name}]", *plain] if plain else []
    for k, v in values.items():
        if _is_table(v):
            lines += _table(f"{name}.{_toml_key(k)}", v)
    return lines


def _is_table(v) -> bool:
    return isinstance(v, dict) and bool(v)


def profiles_toml(profiles: dict) -> str:
    """The profile file's text (what ``load_profiles`` reads back)."""
    lines = [
        "# Named players: a base player with tuned evaluation weights and settings, or a",
        "# learned model per mode. Written by `kalarite tune` (sim/app/tune.py) and `kalarite",
        "# learn` (sim/app/learn.py); `kalarite players` lists them.",
    ]
    for p in profiles.values():
        if p.base:  # a variant: its own keys only, over its base's (_with_base)
            lines += ["", *_table(f"profile.{p.name}", p.own)]
            continue
        lines += ["", f"[profile.{p.name}]", f"player = {_toml_value(p.player)}"]
        if p.about:
            lines.append(f"about = {_toml_value(p.about)}")
        for table, values in (
            ("settings", p.settings),
            ("weights", p.weights),
            ("model", p.models),
            ("provenance", p.provenance),
        ):
            if values:
                lines += _table(f"profile.{p.name}.{table}", values)
    return "\n".join(lines) + "\n"


def save_profile(profile: Profile, path=None):
    """Add or replace one profile in the file, keeping the others."""
    path = pathlib.Path(path or PROFILES_PATH)
    profiles = load_profiles(path)
    profiles[profile.name] = profile
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(profiles_toml(profiles))
    tmp.replace(path)


def resolve(spec: str, profiles=None) -> tuple[str, dict, dict]:
    """'planner:width=4' -> (player, weights, settings) with every default filled in.
    Raises ValueError on bad input. (A profile's models: ``models_of``.)"""
    name, *pairs = spec.strip().split(":")
    profiles = load_profiles() if profiles is None else profiles
    weights = dict(DEFAULT_WEIGHTS)
    if name in BY_NAME:
        player, settings = name, {}
    elif name in profiles:
        prof = profiles[name]
        player, settings = prof.player, prof.settings
        weights |= prof.weights
    else:
        known = list(BY_NAME) + list(profiles)
        raise ValueError(f"unknown policy {name!r} (known: {', '.join(known)})")
    kind = BY_NAME[player]
    # the integer settings at their defaults, then the given ones (a named setting is kept
    # only where it is not its default: _drop_defaults)
    settings = {s.key: s.default for s in kind.settings if not s.named} | settings
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"policy {spec!r}: expected key=value, got {pair!r}")
        if not kind.weights and not kind.settings:
            raise ValueError(f"policy {spec!r}: {player} takes no parameters")
        what = f"policy {spec!r}: {key}"
        setting = kind.setting(key)
        if setting is not None:
            settings[key] = setting.parse(value, what)
        elif key in weights:
            weights[key] = number_text(value, what, -MAX_WEIGHT, MAX_WEIGHT, ValueError)
        else:
            known = list(weights) + kind.keys()
            raise ValueError(
                f"policy {spec!r}: unknown parameter {key!r} (known: {', '.join(known)})"
            )
    return player, weights, _drop_defaults(kind, settings)


def kind_of(spec: str, profiles=None) -> tuple:
    """(PlayerKind, settings) of a spec for the estimates (chunk size, study size): a
    profile's is the player it is. A spec that does not resolve gets its named kind at its
    defaults (greedy when it names none): it is refused elsewhere, with its own message."""
    try:
        player, _, settings = resolve(spec, profiles)
    except ValueError:
        player, settings = spec.split(":")[0].strip(), {}
    return BY_NAME.get(player, BY_NAME["greedy"]), settings


def models_of(spec: str, profiles=None) -> dict:
    """The learned models of the profile a spec names ({} for a plain player)."""
    name = spec.strip().split(":")[0]
    profiles = load_profiles() if profiles is None else profiles
    return profiles[name].models if name in profiles else {}


def parse_policy(spec: str, profiles=None) -> tuple[int, np.ndarray]:
    """'mc:playouts=8' -> (policy code, parameter row). Raises ValueError on bad input."""
    profiles = load_profiles() if profiles is None else profiles
    player, weights, settings = resolve(spec, profiles)
    row = np.zeros(PP_WIDTH)
    row[:N_WEIGHTS] = [weights[k] for k in WEIGHT_NAMES]
    # every setting column of the row (sim.player_kinds): the player's own value, else the
    # default of the kind that declares it (a greedy's row holds mc's and the planner's)
    for column, setting in setting_columns().items():
        row[column] = setting.encode(settings.get(setting.key, setting.default))
    for mode, model in models_of(spec, profiles).items():
        b = PP_MODEL + K.MODE_NAMES.index(mode) * MODEL_STRIDE
        row[b : b + MODEL_STRIDE] = model_block(model)
    return BY_NAME[player].code, row
