"""Player specifications: a player or profile name plus optional parameters, compiled to the
kernel's arrays.

Syntax (CLI `--policy`, study `policies`): `random`, `greedy`, `planner`, `mc`, or the name
of a profile (sim/profiles/players.toml), optionally followed by `:key=value` pairs, e.g.
`greedy:points=12:material=1`, `planner:width=8`, `planner:samples=2` (the reply-aware
step) or `mc:playouts=32:horizon=4`.
Keys: the evaluation weights (core.players.weights WEIGHT_NAMES) for every player but random, and
the settings of the player (SETTINGS: integers; CHOICES: one of a few names, e.g.
`planner:restrict=frozen`, the restricted twin that never thaws). A profile is a player with
its weights and settings stored as data, with the provenance of how they were found
(`kalarite tune` writes them). A planner profile may also hold a learned win-probability
model per mode (`kalarite learn` writes them), which the planner's leaf value reads
(core.players.learned)::

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
from core.players.params import (
    MODEL_STRIDE,
    PP_ENDGAME,
    PP_MC_CANDIDATES,
    PP_MC_HORIZON,
    PP_MC_PLAYOUTS,
    PP_MODEL,
    PP_PEEK,
    PP_PLAN_WIDTH,
    PP_REPLY_PLANS,
    PP_REPLY_SAMPLES,
    PP_REPLY_WIDTH,
    PP_RESTRICT,
    PP_WIDTH,
    RESTRICT_NAMES,
)
from core.players.weights import N_WEIGHTS, WEIGHT_NAMES
from sim.inputs import (
    MAX_BYTES,
    int_text,
    need_display,
    need_int,
    need_number,
    need_slug,
    need_table,
    number_text,
    read_document,
)
from sim.learned import MODEL_PLAYERS, check_models, model_block

POLICIES = {name: i for i, name in enumerate(K.POLICY_NAMES)}
PROFILES_PATH = pathlib.Path(__file__).parent / "profiles" / "players.toml"

# Default evaluation weights (documented in docs/players.md): a point is worth 10, a task
# you could claim right now 6 per point, and so on down to a piece on the board. The last
# three features are off by default (tuned profiles use them).
DEFAULT_WEIGHTS = {
    "points": 10.0,
    "claimable": 6.0,
    "destroyed": 1.0,
    "upgraded": 1.5,
    "legendary": 3.0,
    "material": 0.5,
    "summonable": 0.7,
    "legends_ready": 1.5,
    "win": 100.0,
    "opp_claimable": 0.0,
    "centre": 0.0,
    "exposed": 0.0,
    "pending": 2.0,  # Etherweave: points a pending being is charged (times `points`)
}
assert tuple(DEFAULT_WEIGHTS) == WEIGHT_NAMES
# an evaluation weight's range: the defaults are at most 100 and tuned ones near them, so a
# million is far past any useful value while every sum of weighted features stays finite
MAX_WEIGHT = 1e6
# integer settings per player, with their defaults and limits
SETTINGS = {
    "random": {},
    "greedy": {},
    # width: the beam; plans, samples, reply_width: the reply-aware step (core.players.reply):
    # the plans checked against the opponent's best reply, the sampled worlds each is
    # checked in (0: off), the beam of the reply's search
    "planner": {
        "width": (6, 1, 32),
        "plans": (3, 1, 8),
        "samples": (0, 0, 16),
        "reply_width": (2, 1, 32),
    },
    "mc": {"playouts": (8, 1, 10_000), "horizon": (2, 1, 1000), "candidates": (4, 1, 10_000)},
}
# each player's search budget: the one setting a skill trace doubles (kalarite trace) and the
# stability rule's budget comparison reads (results/analysis/player_families.py). A player
# with a budget names its integer setting here; one without is left out.
BUDGET = {"planner": "width", "mc": "playouts"}
assert all(v in SETTINGS[k] for k, v in BUDGET.items())
# named settings of the lookahead players: the allowed values, the first is the default.
# restrict: the mechanic a restricted twin gives up (core.players.restrict): frozen = never
# thaws, warp = never plays a warp, gateway = the Nethervoid Gateway counts for nothing
RESTRICT_HELP = (
    "none, frozen (never thaws), warp (never warps), gateway (skips optional Gateway effect parts)"
)
CHOICES = {
    "random": {},
    "greedy": {"restrict": RESTRICT_NAMES},
    # peek=on: the learned leaf value reads the opponents' real hands. A cheating measurement
    # of what hidden information costs (docs/players.md), never a player for balance figures
    # endgame=exact: a plan ending the game's last turn is valued by the game's result
    "planner": {"restrict": RESTRICT_NAMES, "peek": ("off", "on"), "endgame": ("off", "exact")},
    "mc": {"restrict": RESTRICT_NAMES},
}
DESCRIPTIONS = {
    "random": "uniform over the kinds of option, then over the options of that kind",
    "greedy": "one-ply lookahead: each option played to the next decision of the turn, scored",
    "planner": "searches whole turns (all actions, effect choices, the claim), beam-pruned",
    "mc": "flat Monte Carlo: random playouts of the best options, hidden cards sampled",
}
assert set(SETTINGS) == set(POLICIES) == set(DESCRIPTIONS) == set(CHOICES)


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
    out = {}
    for name, d in need_table(data.get("profile", {}), f"{path.name}: profile", ValueError).items():
        where = f"{path.name}: profile {name!r}"
        check_profile_name(name, f"{path.name}: profile name")
        need_table(d, where, ValueError)
        player = d.get("player")
        if player not in POLICIES or player == "random":
            raise ValueError(f"{where}: 'player' must be one of greedy, planner, mc")
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
        )
    return out


def check_profile_name(name, what: str, error=ValueError) -> str:
    """A profile's name: an identifier (sim.inputs' slug) that is not a player's name."""
    need_slug(name, what, error)
    if name in POLICIES:
        raise error(f"{what} {name!r}: a profile may not take a player's name")
    return name


def check_weight(value, what: str) -> float:
    """An evaluation weight: a finite number within +-MAX_WEIGHT (sim.inputs' number rule)."""
    return need_number(value, what, -MAX_WEIGHT, MAX_WEIGHT, ValueError)


def _check_setting(player, key, value, where):
    """A setting of a profile (TOML: a name or an integer) as used, or one line."""
    if key in CHOICES[player]:
        _check_choice(player, key, value, where)
        return value
    if key not in SETTINGS[player]:
        known = ", ".join([*SETTINGS[player], *CHOICES[player]]) or "none"
        raise ValueError(f"{where}: {player} has no setting {key!r} (settings: {known})")
    _, lo, hi = SETTINGS[player][key]
    return need_int(value, f"{where}: {key}", lo, hi, ValueError, f"an integer from {lo} to {hi}")


def _check_choice(player, key, value, where):
    allowed = CHOICES[player][key]
    if value not in allowed:
        raise ValueError(f"{where}: {key} must be one of {', '.join(allowed)}, got {value!r}")


def _drop_defaults(settings: dict) -> dict:
    """A named setting at its default is left out, so equal players get equal names."""
    return {
        k: v
        for k, v in settings.items()
        if not (isinstance(v, str) and any(v == c[k][0] for c in CHOICES.values() if k in c))
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
    if name in POLICIES:
        player = name
        settings = {k: v[0] for k, v in SETTINGS[player].items()}
    elif name in profiles:
        prof = profiles[name]
        player = prof.player
        settings = {k: v[0] for k, v in SETTINGS[player].items()} | prof.settings
        weights |= prof.weights
    else:
        known = list(POLICIES) + list(profiles)
        raise ValueError(f"unknown policy {name!r} (known: {', '.join(known)})")
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"policy {spec!r}: expected key=value, got {pair!r}")
        if player == "random":
            raise ValueError(f"policy {spec!r}: random takes no parameters")
        if key in CHOICES[player]:
            _check_choice(player, key, value, f"policy {spec!r}")
            settings[key] = value
            continue
        what = f"policy {spec!r}: {key}"
        if key in weights:
            weights[key] = number_text(value, what, -MAX_WEIGHT, MAX_WEIGHT, ValueError)
        elif key in SETTINGS[player]:
            _, lo, hi = SETTINGS[player][key]
            settings[key] = int_text(value, what, lo, hi, ValueError)
        else:
            known = list(weights) + list(SETTINGS[player]) + list(CHOICES[player])
            raise ValueError(
                f"policy {spec!r}: unknown parameter {key!r} (known: {', '.join(known)})"
            )
    return player, weights, _drop_defaults(settings)


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
    mc = {k: v[0] for k, v in SETTINGS["mc"].items()} | (settings if player == "mc" else {})
    row[PP_MC_PLAYOUTS] = mc["playouts"]
    row[PP_MC_HORIZON] = mc["horizon"]
    row[PP_MC_CANDIDATES] = mc["candidates"]
    planner = {k: v[0] for k, v in SETTINGS["planner"].items()}
    planner |= {k: v for k, v in settings.items() if k in planner}
    row[PP_PLAN_WIDTH] = planner["width"]
    row[PP_REPLY_PLANS] = planner["plans"]
    row[PP_REPLY_SAMPLES] = planner["samples"]
    row[PP_REPLY_WIDTH] = planner["reply_width"]
    row[PP_RESTRICT] = RESTRICT_NAMES.index(settings.get("restrict", RESTRICT_NAMES[0]))
    row[PP_PEEK] = 1 if settings.get("peek") == "on" else 0
    row[PP_ENDGAME] = 1 if settings.get("endgame") == "exact" else 0
    for mode, model in models_of(spec, profiles).items():
        b = PP_MODEL + K.MODE_NAMES.index(mode) * MODEL_STRIDE
        row[b : b + MODEL_STRIDE] = model_block(model)
    return POLICIES[player], row
