"""Player specifications: a name plus optional parameters, compiled to the kernel's arrays.

Syntax (CLI `--policy`, study `policies`): `random`, `greedy`, `mc`, optionally followed by
`:key=value` pairs, e.g. `greedy:points=12:material=1` or `mc:playouts=32:horizon=4`.
Keys: the evaluation weights (core.evaluate WEIGHT_NAMES) for greedy and mc, and for mc also
`playouts`, `horizon` (turns) and `candidates`.
"""

import numpy as np

from core import constants as K
from core.evaluate import N_WEIGHTS, WEIGHT_NAMES
from core.policy import PP_MC_CANDIDATES, PP_MC_HORIZON, PP_MC_PLAYOUTS, PP_WIDTH

POLICIES = {name: i for i, name in enumerate(K.POLICY_NAMES)}

# Default evaluation weights (documented in README "Players"): a point is worth 10, a task
# you could claim right now 6 per point, and so on down to a piece on the board.
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
}
MC_DEFAULTS = {"playouts": 8, "horizon": 2, "candidates": 4}
assert tuple(DEFAULT_WEIGHTS) == WEIGHT_NAMES


def parse_policy(spec: str) -> tuple[int, np.ndarray]:
    """'mc:playouts=8' -> (policy code, parameter row). Raises ValueError on bad input."""
    name, *pairs = spec.strip().split(":")
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")
    weights = dict(DEFAULT_WEIGHTS)
    mc = dict(MC_DEFAULTS)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"policy {spec!r}: expected key=value, got {pair!r}")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"policy {spec!r}: {key} needs a number, got {value!r}") from None
        if name == "random":
            raise ValueError(f"policy {spec!r}: random takes no parameters")
        if key in weights:
            weights[key] = number
        elif name == "mc" and key in mc:
            if number < 1 or number != int(number):
                raise ValueError(f"policy {spec!r}: {key} must be a positive integer")
            mc[key] = int(number)
        else:
            known = list(weights) + (list(mc) if name == "mc" else [])
            raise ValueError(
                f"policy {spec!r}: unknown parameter {key!r} (known: {', '.join(known)})"
            )
    row = np.zeros(PP_WIDTH)
    row[:N_WEIGHTS] = [weights[k] for k in WEIGHT_NAMES]
    row[PP_MC_PLAYOUTS] = mc["playouts"]
    row[PP_MC_HORIZON] = mc["horizon"]
    row[PP_MC_CANDIDATES] = mc["candidates"]
    return POLICIES[name], row


def policy_params(specs) -> np.ndarray:
    """Parameter matrix (one row per seat) for a list of policy specs."""
    return np.array([parse_policy(p)[1] for p in specs])


def policy_codes(specs) -> np.ndarray:
    return np.array([parse_policy(p)[0] for p in specs], np.int32)
