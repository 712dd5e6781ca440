"""A learned win-probability model as a profile holds it, and compiled into the parameter
row: one model per mode, an intercept and a coefficient per feature *name*
(core.players.features FEATURE_NAMES), so a model fitted on one feature layout reads any
later layout by name (a feature it does not name gets 0). ``kalarite learn``
(results/learn.py) fits them; the planner's leaf value reads the compiled block
(core.players.learned)."""

import math

import numpy as np

from core import constants as K
from core.players.feature_names import FEATURE_NAMES
from core.players.params import MODEL_STRIDE

MODEL_PLAYERS = ("planner",)  # the players whose search reads a learned value


def _finite(value, what) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number, got {value!r}")
    return float(value)


def check_models(models, where: str) -> dict:
    """A profile's ``model`` tables, validated: known modes, an intercept and coefficients by
    known feature name, every value a finite number. Returns them with float values."""
    if not isinstance(models, dict):
        raise ValueError(f"{where}: 'model' must be a table of modes")
    out = {}
    for mode, m in models.items():
        if mode not in K.MODE_NAMES:
            raise ValueError(
                f"{where}: model for unknown mode {mode!r} (modes: {', '.join(K.MODE_NAMES)})"
            )
        w = f"{where}: model {mode}"
        if not isinstance(m, dict):
            raise ValueError(f"{w}: must be a table (intercept, coef)")
        extra = set(m) - {"intercept", "coef"}
        if extra:
            raise ValueError(f"{w}: unknown key {sorted(extra)[0]!r} (keys: intercept, coef)")
        if "intercept" not in m:
            raise ValueError(f"{w}: missing 'intercept'")
        coef = m.get("coef", {})
        if not isinstance(coef, dict):
            raise ValueError(f"{w}: 'coef' must be a table of feature = number")
        unknown = [k for k in coef if k not in FEATURE_NAMES]
        if unknown:
            raise ValueError(
                f"{w}: unknown feature {unknown[0]!r} (features: core.players.features "
                "FEATURE_NAMES, e.g. points_me, deck_opp)"
            )
        out[mode] = {
            "intercept": _finite(m["intercept"], f"{w}: intercept"),
            "coef": {k: _finite(v, f"{w}: coef {k}") for k, v in coef.items()},
        }
    return out


def model_block(model: dict) -> np.ndarray:
    """One mode's PP_MODEL block of the parameter row: [1, intercept, coefficient per
    feature in FEATURE_NAMES order]; a feature the model does not name gets 0."""
    block = np.zeros(MODEL_STRIDE)
    block[0] = 1.0
    block[1] = model["intercept"]
    coef = model.get("coef", {})
    block[2:] = [coef.get(n, 0.0) for n in FEATURE_NAMES]
    return block
