"""The nonlinear leaf value's fit: one hidden layer of rectified units beside the linear model
(``kalarite learn --hidden H``).

logit = intercept + coef . x + out . max(0, bias + W x), fitted by minimising the log-loss
summed over the positions plus ``l2 / 2`` times the squared linear coefficients (as the
logistic fit) and ``l2_hidden / 2`` times the squared hidden and output weights (not the
intercept nor the biases) with L-BFGS (scipy) on the features standardised by the training
set's mean and spread. The hidden layer needs the stronger penalty: a game's positions are
alike, so the data hold far fewer independent outcomes than positions (a few thousand games
a mode), and a weakly held layer learns the training games by heart. The linear part starts
from the logistic fit (results.learn.fit_logistic), the hidden weights from small random
numbers of a seeded generator, so a fit depends only on its data and seed. The deck terms
(results.learn) enter the linear part only and stay out of the profile, as in the linear
fit. The standardisation is then folded into the weights, so the profile holds weights on
the raw features the kernel computes (sim.learned).
"""

import numpy as np

DEFAULT_HIDDEN = 0  # the linear model
DEFAULT_L2_HIDDEN = 100.0
DEFAULT_MAXITER = 200


def _relu(a):
    return np.maximum(a, 0.0)


def fit_network(
    x, y, nf, hidden, l2, seed, start, maxiter=DEFAULT_MAXITER, l2_hidden=DEFAULT_L2_HIDDEN
) -> dict:
    """Fit on ``x`` (the first ``nf`` columns are features, the rest deck terms) and labels
    ``y``; ``start``: (intercept, raw coefficients) of the logistic fit. Returns
    ``{"intercept", "coef" (raw, every column), "w1" (hidden x nf, raw), "b1", "out",
    "iterations"}``."""
    from scipy.optimize import minimize

    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    live = sd > 1e-9
    sd_safe = np.where(live, sd, 1.0)
    xs = np.where(live, (x - mu) / sd_safe, 0.0)
    xf = xs[:, :nf]
    k = x.shape[1]
    h = int(hidden)
    rng = np.random.default_rng(seed)
    # the logistic fit's coefficients, on the standardised scale
    w0 = np.where(live, start[1] * sd_safe, 0.0)
    b0 = start[0] + float(np.sum(start[1] * mu))
    theta0 = np.concatenate(
        (
            [b0],
            w0,
            rng.normal(0.0, 1.0 / np.sqrt(max(1, nf)), h * nf),  # hidden weights
            np.zeros(h),  # hidden biases
            rng.normal(0.0, 0.1, h),  # output weights
        )
    )
    ny = len(y)

    def unpack(t):
        b = t[0]
        w = t[1 : 1 + k]
        w1 = t[1 + k : 1 + k + h * nf].reshape(h, nf)
        b1 = t[1 + k + h * nf : 1 + k + h * nf + h]
        out = t[1 + k + h * nf + h :]
        return b, w, w1, b1, out

    def loss(t):
        b, w, w1, b1, out = unpack(t)
        a = xf @ w1.T + b1
        r = _relu(a)
        z = b + xs @ w + r @ out
        value = np.sum(np.logaddexp(0.0, z) - y * z)
        value += 0.5 * l2 * (w @ w) + 0.5 * l2_hidden * (np.sum(w1 * w1) + out @ out)
        g = 0.5 * (1.0 + np.tanh(0.5 * z)) - y  # d loss / d z
        ga = (g[:, None] * out[None, :]) * (a > 0)
        grad = np.concatenate(
            (
                [g.sum()],
                xs.T @ g + l2 * w,
                (ga.T @ xf + l2_hidden * w1).ravel(),
                ga.sum(axis=0),
                r.T @ g + l2_hidden * out,
            )
        )
        return value / ny, grad / ny

    res = minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": maxiter})
    b, w, w1, b1, out = unpack(res.x)
    coef = np.where(live, w / sd_safe, 0.0)
    intercept = b - float(np.sum(np.where(live, w * mu / sd_safe, 0.0)))
    w1_raw = np.where(live[:nf], w1 / sd_safe[:nf], 0.0)
    b1_raw = b1 - w1_raw @ np.where(live[:nf], mu[:nf], 0.0)
    return {
        "intercept": float(intercept),
        "coef": coef,
        "w1": w1_raw,
        "b1": b1_raw,
        "out": out,
        "iterations": int(res.nit),
    }


def network_logit(fit: dict, x) -> np.ndarray:
    """The fitted logit of rows ``x`` (features, then deck terms), on the raw scale."""
    nf = fit["w1"].shape[1]
    z = fit["intercept"] + x @ fit["coef"]
    return z + _relu(x[:, :nf] @ fit["w1"].T + fit["b1"]) @ fit["out"]


def hidden_table(fit: dict, names) -> dict:
    """The profile's ``hidden`` table (sim.learned) of a fit, by feature name."""
    return {
        "bias": [float(v) for v in fit["b1"]],
        "out": [float(v) for v in fit["out"]],
        "weights": {n: [float(v) for v in fit["w1"][:, i]] for i, n in enumerate(names)},
    }
