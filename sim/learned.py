"""A learned win-probability model as a profile holds it, and compiled into the parameter
row: one model per mode, an intercept and a coefficient per feature *name*
(core.players.features FEATURE_NAMES), so a model fitted on one feature layout reads any
later layout by name (a feature it does not name gets 0). ``kalarite learn``
(results/learn.py) fits them; the planner's leaf value reads the compiled block
(core.players.learned).

A model may also hold one hidden layer of rectified units (``hidden``): their biases, their
output weights, and per feature name the weights of that feature into each unit, on the raw
features (the fit folds its standardisation in)::

    [profile.NAME.model.high-form.hidden]
    bias = [0.1, -0.3]                       # one per unit (at most MAX_HIDDEN)
    out = [0.8, -0.2]
    [profile.NAME.model.high-form.hidden.weights]
    points_me = [0.05, 0.01]                 # a feature not named: weights 0
"""

import numpy as np

from core import constants as K
from core.players.feature_names import FEATURE_NAMES
from core.players.params import (
    MAX_HIDDEN,
    MB_B1,
    MB_COEF,
    MB_HIDDEN,
    MB_INTERCEPT,
    MB_W1,
    MB_W2,
    MODEL_STRIDE,
)
from sim.inputs import need_number

# a model value's range: fitted ones are within +-10 (standardised features, an L2 penalty),
# so a million is far past any fit while every weighted sum the planner forms stays finite
MAX_MODEL_VALUE = 1e6


def _finite(value, what) -> float:
    """A model value (sim.inputs' number rule): finite, within +-MAX_MODEL_VALUE."""
    return need_number(value, what, -MAX_MODEL_VALUE, MAX_MODEL_VALUE, ValueError)


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
        extra = set(m) - {"intercept", "coef", "hidden"}
        if extra:
            raise ValueError(
                f"{w}: unknown key {sorted(extra)[0]!r} (keys: intercept, coef, hidden)"
            )
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
        if "hidden" in m:
            out[mode]["hidden"] = _check_hidden(m["hidden"], w)
    return out


def _numbers(values, n, what) -> list:
    if not isinstance(values, list) or (n is not None and len(values) != n):
        size = "a list" if n is None else f"a list of {n} numbers"
        raise ValueError(f"{what} must be {size}")
    return [_finite(v, what) for v in values]


def _check_hidden(h, where: str) -> dict:
    """A hidden layer's table: ``bias`` and ``out`` (one number per unit, at most
    MAX_HIDDEN units) and ``weights``, per feature name a list of one number per unit."""
    w = f"{where}: hidden"
    if not isinstance(h, dict):
        raise ValueError(f"{w}: must be a table (bias, out, weights)")
    extra = set(h) - {"bias", "out", "weights"}
    if extra:
        raise ValueError(f"{w}: unknown key {sorted(extra)[0]!r} (keys: bias, out, weights)")
    bias = _numbers(h.get("bias"), None, f"{w}: bias")
    units = len(bias)
    if not 1 <= units <= MAX_HIDDEN:
        raise ValueError(f"{w}: bias must have 1 to {MAX_HIDDEN} units, got {units}")
    out = _numbers(h.get("out"), units, f"{w}: out")
    weights = h.get("weights", {})
    if not isinstance(weights, dict):
        raise ValueError(f"{w}: 'weights' must be a table of feature = [numbers]")
    unknown = [k for k in weights if k not in FEATURE_NAMES]
    if unknown:
        raise ValueError(f"{w}: unknown feature {unknown[0]!r}")
    return {
        "bias": bias,
        "out": out,
        "weights": {k: _numbers(v, units, f"{w}: weights {k}") for k, v in weights.items()},
    }


def model_block(model: dict) -> np.ndarray:
    """One mode's PP_MODEL block of the parameter row (core.players.params MB_*): [1,
    intercept, coefficient per feature in FEATURE_NAMES order, hidden units, their weights,
    biases and output weights]; a feature the model does not name gets 0."""
    block = np.zeros(MODEL_STRIDE)
    block[0] = 1.0
    block[MB_INTERCEPT] = model["intercept"]
    coef = model.get("coef", {})
    block[MB_COEF : MB_COEF + len(FEATURE_NAMES)] = [coef.get(n, 0.0) for n in FEATURE_NAMES]
    h = model.get("hidden")
    if h:
        units = len(h["bias"])
        nf = len(FEATURE_NAMES)
        block[MB_HIDDEN] = units
        w1 = np.zeros((units, nf))
        for k, name in enumerate(FEATURE_NAMES):
            if name in h["weights"]:
                w1[:, k] = h["weights"][name]
        block[MB_W1 : MB_W1 + units * nf] = w1.ravel()
        block[MB_B1 : MB_B1 + units] = h["bias"]
        block[MB_W2 : MB_W2 + units] = h["out"]
    return block


def model_logit(model: dict, x) -> np.ndarray:
    """The model's logit for feature vectors ``x`` (rows in FEATURE_NAMES order), in numpy:
    what core.players.learned computes in the engine."""
    x = np.atleast_2d(np.asarray(x, np.float64))
    coef = model.get("coef", {})
    v = model["intercept"] + x @ np.array([coef.get(n, 0.0) for n in FEATURE_NAMES])
    h = model.get("hidden")
    if h:
        w1 = np.array([h["weights"].get(n, [0.0] * len(h["bias"])) for n in FEATURE_NAMES])
        v = v + np.maximum(0.0, x @ w1 + np.array(h["bias"])) @ np.array(h["out"])
    return v
