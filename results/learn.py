"""Fit a win-probability model per mode on a study's positions table (``kalarite learn``).

Each sampled position (results/README.md, table ``positions``) is labelled from the game it
belongs to: 1 when the seat that just moved went on to win (alone, or with its team), 0 when
it lost. Games whose win was shared (a tie on every tie-breaker) are left out, and so are
games that ended in an engine error: a shared result is neither a win nor a loss of the seat,
and counting it as one half would teach the model a tie rate of a few per cent as if it were
a position's value.

The model per mode is an L2-regularised logistic regression on the features: minimised with
L-BFGS (scipy) on features standardised by the training set's mean and spread, the penalty
``l2 / 2 * |w|^2`` on the standardised coefficients (not the intercept), then folded back so
that the coefficients apply to the raw features the kernel computes (sim.learned). A
feature constant over the training set gets coefficient 0.

Held out are whole games, never single rows: a game goes to the test set when a hash of
(seed, mode, matchup, policies, game_index) falls below ``holdout``, so positions of one game
never sit on both sides, and the split depends on nothing but those keys and the seed.

Deck terms. Which decks sit at the table decides much of a game (some decks win more), and
a mechanic's feature is only ever non-zero for its own deck, so a fit on features alone
reads "this deck tends to lose" as "storing a frozen effect / holding a pending being is
bad". Each fit therefore also takes the seat's deck (one-hot) and its opponents' decks
(their share), and keeps those coefficients out of the profile: they are constant within a
game, so they shift every position a turn's search compares by the same amount and cannot
change a choice. The figures below are those of the whole fit, deck terms included.

The figures per mode, on the test set: log-loss and Brier score, beside the base rate's (a
model that says the training win rate for every position), and a reliability table: the test
positions in ten equal-count bins of predicted probability (deciles), each bin's mean
prediction against its observed win rate. Calibration holds when every bin is within
``CALIBRATION_POINTS`` (5 points).
"""

import datetime
import hashlib
import pathlib
from dataclasses import dataclass, field

import numpy as np

# nothing heavier than numpy at import: the CLI's parser reads the defaults below
CALIBRATION_POINTS = 0.05  # every decile's mean prediction within 5 points of what happened
N_BINS = 10
DEFAULT_L2 = 1.0
MAX_L2 = 1e6  # a penalty past this leaves every coefficient at 0: a typo, not a choice
DEFAULT_HOLDOUT = 0.2
_EPS = 1e-12
METHOD = (
    "L2-regularised logistic regression (L-BFGS on standardised features), deck terms fitted "
    "and left out of the profile"
)
METHOD_NET = (
    "logistic model with one hidden layer of {hidden} rectified units beside the linear part "
    "(L-BFGS on standardised features, started from the logistic fit), deck terms fitted in the "
    "linear part and left out of the profile"
)
LABELS = "1: the seat that moved won (alone or with its team), 0: it lost; shared wins dropped"


class LearnError(ValueError):
    """A study that cannot be learned from, or bad options: one line, exit status 2."""


@dataclass
class Sample:
    """The labelled positions of one mode: features (float64), label (0/1) and game key."""

    mode: str
    features: tuple  # feature names, the columns of ``x``
    x: np.ndarray
    y: np.ndarray
    game: np.ndarray  # an integer id per game (index into ``keys``)
    keys: list  # (mode, matchup, policies, game_index) per game id
    decks: np.ndarray | None = None  # deck terms (see the module docstring), one row each
    deck_terms: tuple = ()  # their names: "deck=<name>", "opponent=<name>"
    seating: tuple | None = None  # (seat, seats, decks of seats 0-3): makes the deck terms


@dataclass
class ModeFit:
    mode: str
    intercept: float
    coef: dict  # feature name -> coefficient on the raw feature
    train_positions: int
    train_games: int
    test_positions: int
    test_games: int
    train_win_rate: float
    figures: dict = field(default_factory=dict)  # test log-loss, Brier, base rate's, bins
    deck_terms: dict = field(default_factory=dict)  # fitted, left out of the profile
    hidden: dict | None = None  # the hidden layer (results.learn_net), None: linear

    def model(self) -> dict:
        """The profile's ``model.<mode>`` table (sim.learned)."""
        out = {"intercept": self.intercept, "coef": dict(self.coef)}
        if self.hidden:
            out["hidden"] = self.hidden
        return out

    def to_dict(self) -> dict:
        return {
            "mode": self.mode,
            "train_positions": self.train_positions,
            "train_games": self.train_games,
            "test_positions": self.test_positions,
            "test_games": self.test_games,
            "train_win_rate": round(self.train_win_rate, 4),
            **self.figures,
            "deck_terms": self.deck_terms,
        }


# --- reading -----------------------------------------------------------------------------


def read_samples(root) -> tuple:
    """(manifest, {mode: Sample}, counts) of the study in ``root``. ``counts``: positions
    read, and those dropped with their games (shared wins, engine errors). Raises
    DatasetError / LearnError (one line)."""
    from results.analysis.dataset import Dataset
    from results.schema import FEATURE_DOCS, POSITIONS
    from results.store import open_table

    d = Dataset(root)
    tables = d.manifest.get("tables") or []
    if POSITIONS not in tables or not (d.root / POSITIONS).is_dir():
        raise LearnError(
            f"the study in {str(d.root)!r} has no positions table: play it with --positions N "
            "(or the spec key positions = N) to sample about one turn end in N"
        )
    pos = open_table(d.root, POSITIONS)
    names = [c[2:] for c in pos.schema.names if c.startswith("f_") and c[2:] in FEATURE_DOCS]
    if not names:
        raise LearnError(f"the positions table of {str(d.root)!r} has no known feature column")
    d.con.register("positions_raw", pos)
    won = " ".join(f"WHEN {s} THEN g.seat{s}_won" for s in range(4))
    cols = ", ".join(f'p."f_{n}"' for n in names)
    sql = f"""
        SELECT p.mode, p.matchup, p.policies, p.game_index,
               CASE p.seat {won} END AS won,
               coalesce(g.winner, g.winning_team) = -1 AS shared,
               p.seat AS seat, g.n_players AS n_players,
               g.seat0_deck AS d0, g.seat1_deck AS d1, g.seat2_deck AS d2, g.seat3_deck AS d3,
               g.error <> 0 AS failed,
               {cols}
        FROM positions_raw p
        JOIN games_raw g USING (mode, matchup, policies, game_index)
        ORDER BY p.mode, p.matchup, p.policies, p.game_index, p.turn, p.seat
    """
    try:
        rel = d.con.sql(sql)
        t = rel.to_arrow_table() if hasattr(rel, "to_arrow_table") else rel.arrow()
    except Exception as e:  # noqa: BLE001 - duckdb's errors: one line
        raise LearnError(f"cannot read the positions of {str(d.root)!r}: {e}") from None
    n = t.num_rows
    if n == 0:
        raise LearnError(f"the positions table of {str(d.root)!r} is empty")
    shared = t.column("shared").to_numpy(zero_copy_only=False).astype(bool)
    failed = t.column("failed").to_numpy(zero_copy_only=False).astype(bool)
    keep = ~(shared | failed)
    counts = {
        "positions_read": n,
        "positions_shared_dropped": int(shared.sum()),
        "positions_error_dropped": int((failed & ~shared).sum()),
    }
    mode = np.asarray(t.column("mode").to_pylist(), dtype=object)[keep]
    matchup = np.asarray(t.column("matchup").to_pylist(), dtype=object)[keep]
    policies = np.asarray(t.column("policies").to_pylist(), dtype=object)[keep]
    gi = t.column("game_index").to_numpy()[keep]
    y = t.column("won").to_numpy(zero_copy_only=False).astype(np.float64)[keep]
    x = np.column_stack([t.column(f"f_{k}").to_numpy().astype(np.float64) for k in names])[keep]
    seat = t.column("seat").to_numpy(zero_copy_only=False).astype(int)[keep]
    seats = t.column("n_players").to_numpy(zero_copy_only=False).astype(int)[keep]
    table_decks = [np.asarray(t.column(f"d{k}").to_pylist(), dtype=object)[keep] for k in range(4)]
    out = {}
    for m in sorted(set(mode)):
        sel = mode == m
        keys = list(zip(mode[sel], matchup[sel], policies[sel], gi[sel].tolist(), strict=True))
        ids = {}
        game = np.array([ids.setdefault(k, len(ids)) for k in keys], np.int64)
        seating = (seat[sel], seats[sel], [c[sel] for c in table_decks])
        out[m] = Sample(m, tuple(names), x[sel], y[sel], game, list(ids), seating=seating)
        out[m].deck_terms, out[m].decks = _deck_terms(*seating)
    return d.manifest, out, counts


def union(parts: list) -> "Sample":
    """One mode's samples of several studies as one: their games keyed apart (the k-th
    study's policies read ``<policies>#k``), the deck terms over every deck seen."""
    if len(parts) == 1:
        return parts[0]
    keys, games, offset = [], [], 0
    for k, p in enumerate(parts):
        tag = "" if k == 0 else f"#{k}"
        keys += [(m, mu, pol + tag, gi) for m, mu, pol, gi in p.keys]
        games.append(p.game + offset)
        offset += len(p.keys)
    if len({p.features for p in parts}) != 1:
        raise LearnError("the studies' positions tables have different feature columns")
    seating = (
        np.concatenate([p.seating[0] for p in parts]),
        np.concatenate([p.seating[1] for p in parts]),
        [np.concatenate([p.seating[2][i] for p in parts]) for i in range(4)],
    )
    out = Sample(
        parts[0].mode, parts[0].features, np.concatenate([p.x for p in parts]),
        np.concatenate([p.y for p in parts]), np.concatenate(games), keys, seating=seating,
    )  # fmt: skip
    out.deck_terms, out.decks = _deck_terms(*seating)
    return out


def _deck_terms(seat, seats, table_decks) -> tuple:
    """(names, matrix): the seat's own deck one-hot, and each deck's share among the seats
    it plays against (teammates count as opponents here: few team positions, and a
    constant all the same)."""
    decks = sorted({d for col in table_decks for d in col if d is not None})
    col = {d: i for i, d in enumerate(decks)}
    m = np.zeros((len(seat), 2 * len(decks)))
    for i in range(len(seat)):
        n = int(seats[i])
        m[i, col[table_decks[int(seat[i])][i]]] = 1.0
        for k in range(n):
            if k != seat[i]:
                m[i, len(decks) + col[table_decks[k][i]]] += 1.0 / (n - 1)
    names = tuple(f"deck={d}" for d in decks) + tuple(f"opponent={d}" for d in decks)
    return names, m


# --- the split and the fit -----------------------------------------------------------------


def held_out(keys, seed: int, holdout: float) -> np.ndarray:
    """Per game key (mode, matchup, policies, game_index): does it go to the test set?"""
    out = np.zeros(len(keys), bool)
    for i, (mode, matchup, policies, gi) in enumerate(keys):
        text = f"kalarite-learn|{seed}|{mode}|{matchup}|{policies}|{int(gi)}".encode()
        u = int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") / 2.0**64
        out[i] = u < holdout
    return out


def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # never overflows


def fit_logistic(x, y, l2: float) -> tuple:
    """(intercept, coefficients) on the raw features of the L2-regularised logistic
    regression (the penalty on the standardised coefficients; see the module docstring)."""
    from scipy.optimize import minimize

    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    live = sd > 1e-9
    xs = (x[:, live] - mu[live]) / sd[live]
    k = xs.shape[1]

    def loss(theta):
        b, w = theta[0], theta[1:]
        z = b + xs @ w
        # log(1 + e^z) - y z, stably
        value = np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * l2 * (w @ w)
        r = _sigmoid(z) - y
        grad = np.concatenate(([r.sum()], xs.T @ r + l2 * w))
        return value, grad

    rate = min(max(y.mean(), 1e-6), 1 - 1e-6)
    theta0 = np.zeros(k + 1)
    theta0[0] = np.log(rate / (1 - rate))
    res = minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    b, w = res.x[0], res.x[1:]
    coef = np.zeros(x.shape[1])
    coef[live] = w / sd[live]
    intercept = b - float(np.sum(w * mu[live] / sd[live]))
    return float(intercept), coef


def log_loss(p, y) -> float:
    p = np.clip(p, _EPS, 1 - _EPS)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def reliability(p, y, bins: int = N_BINS) -> list:
    """Equal-count bins of predicted probability (deciles): range, count, mean prediction,
    observed win rate and whether they agree within CALIBRATION_POINTS."""
    order = np.argsort(p, kind="stable")
    out = []
    for idx in np.array_split(order, bins):
        if len(idx) == 0:
            continue
        pred = float(p[idx].mean())
        obs = float(y[idx].mean())
        out.append(
            {
                "lo": round(float(p[idx].min()), 4),
                "hi": round(float(p[idx].max()), 4),
                "n": int(len(idx)),
                "predicted": round(pred, 4),
                "observed": round(obs, 4),
                "within": bool(abs(pred - obs) <= CALIBRATION_POINTS),
            }
        )
    return out


def fit_mode(
    sample: Sample, seed: int, holdout: float, l2: float, hidden: int = 0, l2_hidden=None
) -> ModeFit:
    """Split ``sample`` by game, fit on the training games, measure on the test games. With
    ``hidden`` units, the network of results.learn_net, started from the logistic fit."""
    test_game = held_out(sample.keys, seed, holdout)
    test = test_game[sample.game]
    train = ~test
    if train.sum() == 0:
        raise LearnError(f"{sample.mode}: every game was held out: lower --holdout")
    ytr = sample.y[train]
    if ytr.min() == ytr.max():
        raise LearnError(
            f"{sample.mode}: every training position has the same outcome: nothing to fit "
            "(play more games)"
        )
    nf = sample.x.shape[1]
    x = sample.x if sample.decks is None else np.hstack([sample.x, sample.decks])
    intercept, coef_all = fit_logistic(x[train], ytr, l2)
    linear = (intercept, coef_all)

    def logit(rows):
        return intercept + rows @ coef_all

    net = None
    if hidden > 0:
        from results.learn_net import DEFAULT_L2_HIDDEN, fit_network, network_logit

        l2h = DEFAULT_L2_HIDDEN if l2_hidden is None else l2_hidden
        net = fit_network(x[train], ytr, nf, hidden, l2, seed, linear, l2_hidden=l2h)
        intercept, coef_all = net["intercept"], net["coef"]

        def logit(rows):
            return network_logit(net, rows)

    coef = coef_all[:nf]  # the deck terms stay out of the profile (module docstring)
    rate = float(ytr.mean())
    fit = ModeFit(
        mode=sample.mode,
        intercept=intercept,
        coef={n: float(c) for n, c in zip(sample.features, coef, strict=True)},
        train_positions=int(train.sum()),
        train_games=int(len(set(sample.game[train].tolist()))),
        test_positions=int(test.sum()),
        test_games=int(len(set(sample.game[test].tolist()))),
        train_win_rate=rate,
    )
    fit.deck_terms = {
        n: round(float(c), 4) for n, c in zip(sample.deck_terms, coef_all[nf:], strict=True)
    }
    if net is not None:
        from results.learn_net import hidden_table

        fit.hidden = hidden_table(net, sample.features)
    p_train = _sigmoid(logit(x[train]))
    fig = {"train_log_loss": round(log_loss(p_train, ytr), 4)}
    if net is not None:
        fig["hidden_units"] = int(hidden)
        fig["iterations"] = net["iterations"]
    if test.any():
        yte = sample.y[test]
        p = _sigmoid(logit(x[test]))  # the raw features, as the kernel
        if net is not None:  # what the hidden layer adds over the linear model
            p_lin = _sigmoid(linear[0] + x[test] @ linear[1])
            fig["linear_test_log_loss"] = round(log_loss(p_lin, yte), 4)
        base = np.full(len(yte), rate)
        bins = reliability(p, yte)
        fig |= {
            "test_log_loss": round(log_loss(p, yte), 4),
            "base_log_loss": round(log_loss(base, yte), 4),
            "brier": round(float(np.mean((p - yte) ** 2)), 4),
            "base_brier": round(float(np.mean((base - yte) ** 2)), 4),
            "test_win_rate": round(float(yte.mean()), 4),
            "calibrated": all(b["within"] for b in bins),
            "reliability": bins,
        }
    fit.figures = fig
    return fit


# --- the whole command ---------------------------------------------------------------------


@dataclass
class LearnResult:
    study: str
    fits: list  # ModeFit per mode
    counts: dict
    provenance: dict

    def to_dict(self) -> dict:
        return {
            "study": self.study,
            **self.counts,
            "modes": [f.to_dict() for f in self.fits],
            "models": {f.mode: f.model() for f in self.fits},
            "provenance": self.provenance,
        }


def learn(
    root,
    seed: int = 0,
    holdout: float = DEFAULT_HOLDOUT,
    l2: float = DEFAULT_L2,
    hidden: int = 0,
    l2_hidden: float | None = None,
):
    """Fit one model per mode present in the study ``root`` (or the union of several study
    directories: the iteration of self-play and refit); returns a LearnResult. ``hidden``:
    units of the hidden layer (0: the linear model), ``l2_hidden`` its penalty (default
    results.learn_net DEFAULT_L2_HIDDEN)."""
    from core import ENGINE_HASH

    if not 0 <= holdout < 1:
        raise LearnError(f"--holdout must be at least 0 and below 1, got {holdout}")
    if not np.isfinite(l2) or not 0 <= l2 <= MAX_L2:
        raise LearnError(f"--l2 must be a finite number from 0 to {MAX_L2:,.0f}, got {l2}")
    from sim.learned import MAX_HIDDEN  # the engine's model block holds at most this many

    if not 0 <= hidden <= MAX_HIDDEN:
        raise LearnError(f"--hidden must be 0 (linear) to {MAX_HIDDEN} units, got {hidden}")
    from results.learn_net import DEFAULT_L2_HIDDEN

    l2_hidden = DEFAULT_L2_HIDDEN if l2_hidden is None else l2_hidden
    if not np.isfinite(l2_hidden) or not 0 <= l2_hidden <= MAX_L2:
        raise LearnError(
            f"--l2-hidden must be a finite number from 0 to {MAX_L2:,.0f}, got {l2_hidden}"
        )
    roots = [root] if isinstance(root, str | pathlib.Path) else list(root)
    read = [read_samples(r) for r in roots]
    manifest = read[0][0]
    counts = {k: sum(c[k] for _, _, c in read) for k in read[0][2]}
    modes = sorted({m for _, samples, _ in read for m in samples})
    samples = {m: union([s[m] for _, s, _ in read if m in s]) for m in modes}
    if not samples:
        raise LearnError(f"the study in {str(roots[0])!r} has no decided game with positions")
    fits = [fit_mode(samples[m], seed, holdout, l2, hidden, l2_hidden) for m in sorted(samples)]
    study = ", ".join(_where(r) for r in roots)
    spec = manifest.get("study") or {}
    provenance = {
        "method": METHOD if hidden == 0 else METHOD_NET.format(hidden=hidden),
        "labels": LABELS,
        "study": study,
        "study_name": spec.get("name", ""),
        "study_seed": spec.get("seed", 0),
        "games": sum(f.train_games + f.test_games for f in fits),
        "positions": sum(f.train_positions + f.test_positions for f in fits),
        "positions_every": spec.get("positions"),
        "seed": int(seed),
        "holdout": float(holdout),
        "l2": float(l2),
        "hidden": int(hidden),
        **({"l2_hidden": float(l2_hidden)} if hidden else {}),
        "engine_hash": ENGINE_HASH,
        "study_engine_hash": manifest.get("engine_hash", ""),
        "content_hash": manifest.get("content_hash", ""),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "fit": {f.mode: _fit_figures(f) for f in fits},
    }
    return LearnResult(study, fits, counts, provenance)


def _where(root) -> str:
    """The study's directory: relative to the working directory when it lies below it (a
    checked-in profile names no machine's paths), else absolute."""
    p = pathlib.Path(root).absolute()
    try:
        return str(p.relative_to(pathlib.Path.cwd()))
    except ValueError:
        return str(p)


def _fit_figures(f: ModeFit) -> dict:
    """A mode's figures as the profile's provenance keeps them."""
    d = f.to_dict()
    d.pop("mode")
    return d


def report_text(result: LearnResult) -> str:
    """The figures per mode as ``kalarite learn`` prints them."""
    lines = [
        f"study {result.study}: {result.counts['positions_read']:,} positions read "
        f"({result.counts['positions_shared_dropped']:,} of games with a shared win and "
        f"{result.counts['positions_error_dropped']:,} of failed games dropped)"
    ]
    for f in result.fits:
        g = f.figures
        lines += [
            "",
            f"{f.mode}: train {f.train_positions:,} positions of {f.train_games:,} games, "
            f"test {f.test_positions:,} positions of {f.test_games:,} games "
            f"(win rate of the mover {f.train_win_rate:.1%} in training)",
        ]
        if "test_log_loss" not in g:
            lines.append("  no test games (--holdout 0): no test figures")
            continue
        lines += [
            f"  log-loss {g['test_log_loss']:.4f} (base rate {g['base_log_loss']:.4f}; "
            f"training {g['train_log_loss']:.4f}); Brier {g['brier']:.4f} "
            f"(base rate {g['base_brier']:.4f})",
            "  reliability (test positions in deciles of the predicted win probability):",
            "    predicted range    n       predicted  observed  within 5 points",
        ]
        for b in g["reliability"]:
            lines.append(
                f"    {b['lo']:.3f}-{b['hi']:.3f}  {b['n']:>7,}   {b['predicted']:>7.1%}  "
                f"{b['observed']:>8.1%}  {'yes' if b['within'] else 'NO'}"
            )
        verdict = "holds" if g["calibrated"] else "does NOT hold"
        lines.append(f"  calibration (every decile within 5 points): {verdict}")
    return "\n".join(lines)
