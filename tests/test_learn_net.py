"""The nonlinear leaf value (`kalarite learn --hidden H`): the fit finds what a linear model
cannot, a fitted network round-trips through the profile file and gives the same values in
numpy and in the compiled engine (on made-up features and on real positions' features), and
bad hidden-layer tables are one clear error."""

import numpy as np
import pytest

from core import constants as K
from core.layout import CUR, MODE
from core.players.feature_names import FEATURE_NAMES, N_FEATURES
from core.players.features import features
from core.players.learned import LEARN_SIZE, learned_value, model_logit
from core.players.params import MAX_HIDDEN, MODEL_STRIDE, PP_MODEL
from results.learn import Sample, fit_logistic, fit_mode, log_loss
from results.learn_net import fit_network, hidden_table, network_logit
from sim.learned import model_logit as numpy_logit
from sim.players import Profile, load_profiles, parse_policy, save_profile
from tests.support.players import T, positions


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _bumpy(n, seed):
    """Labels a line cannot separate: the win probability rises with |x0|, not with x0."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 1.0, (n, 3))
    y = (rng.random(n) < _sigmoid(3.0 * np.abs(x[:, 0]) - 2.0)).astype(float)
    return x, y


def test_a_hidden_layer_finds_what_a_line_cannot():
    x, y = _bumpy(6000, 1)
    xt, yt = _bumpy(4000, 2)
    b, w = fit_logistic(x, y, 1.0)
    net = fit_network(x, y, 3, 8, 1.0, 0, (b, w))
    line = log_loss(_sigmoid(b + xt @ w), yt)
    curve = log_loss(_sigmoid(network_logit(net, xt)), yt)
    assert curve < line - 0.05, (curve, line)
    # the same data and seed: the same fit
    again = fit_network(x, y, 3, 8, 1.0, 0, (b, w))
    assert np.array_equal(again["w1"], net["w1"]) and again["intercept"] == net["intercept"]


def test_a_fit_on_positions_reports_what_the_layer_adds():
    x, y = _bumpy(3000, 3)
    keys = [("deathmatch", "m", "p", g) for g in range(300)]
    sample = Sample("deathmatch", ("a", "b", "c"), x, y, np.arange(3000) // 10, keys)
    fit = fit_mode(sample, 0, 0.3, 1.0, hidden=6)
    g = fit.figures
    assert g["hidden_units"] == 6 and g["test_log_loss"] < g["linear_test_log_loss"]
    h = fit.model()["hidden"]
    assert len(h["bias"]) == len(h["out"]) == 6 and set(h["weights"]) == {"a", "b", "c"}


def _network_on_features(seed, units=5):
    """A network fitted on made-up data with the engine's feature columns."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 2.0, (800, N_FEATURES)) + rng.integers(0, 5, N_FEATURES)
    y = (rng.random(800) < _sigmoid(np.abs(x[:, 0] - x[:, 1]) - 2.0)).astype(float)
    b, w = fit_logistic(x, y, 1.0)
    net = fit_network(x, y, N_FEATURES, units, 1.0, seed, (b, w), maxiter=60)
    model = {
        "intercept": net["intercept"],
        "coef": {n: float(v) for n, v in zip(FEATURE_NAMES, net["coef"], strict=True)},
        "hidden": hidden_table(net, FEATURE_NAMES),
    }
    return net, model


def test_a_network_round_trips_through_its_file_and_the_engine_agrees(tmp_path):
    net, model = _network_on_features(5)
    path = tmp_path / "p.toml"
    prov = {"method": "test", "hidden": 5}
    save_profile(Profile("net", "planner", models={"high-form": model}, provenance=prov), path)
    back = load_profiles(path)["net"]
    assert back.models["high-form"] == model  # every float exactly as written
    code, row = parse_policy("net", {"net": back})
    assert code == K.POL_PLANNER
    b = PP_MODEL + K.MODE_HIGH_FORM * MODEL_STRIDE
    rng = np.random.default_rng(6)
    x = rng.normal(0.0, 3.0, (50, N_FEATURES))
    fitted = network_logit(net, x)
    from_file = numpy_logit(back.models["high-form"], x)
    engine = np.array([model_logit(row, b, x[i]) for i in range(len(x))])
    assert np.allclose(from_file, fitted, rtol=1e-12, atol=1e-10)
    assert np.allclose(engine, from_file, rtol=1e-12, atol=1e-10)
    assert len({round(v, 6) for v in engine}) > 10  # not a constant


@pytest.mark.parametrize(
    "mode,decks", [("high-form", ("nethervoid", "etherweave")), ("deathmatch", ("everfrost",) * 2)]
)
def test_the_engine_values_real_positions_as_numpy_does(mode, decks):
    """The leaf value of the compiled engine on real positions: the features it computes,
    through the network in numpy, give its own value."""
    _, model = _network_on_features(7)
    profiles = {"net": Profile("net", "planner", models={mode: model})}
    _, row = parse_policy("net", profiles)
    fbuf = np.zeros(N_FEATURES)
    mark = np.zeros(LEARN_SIZE, np.int32)
    states = positions(mode, decks, games=2, every=7, cap=20)
    assert len(states) >= 5
    for s in states:
        seat = int(s[CUR])
        assert s[MODE] == K.MODE_NAMES.index(mode)
        v = learned_value(s, T, seat, row, fbuf, mark)
        x = np.zeros(N_FEATURES)
        features(s, T, seat, 0, x, mark)
        assert np.isclose(v, numpy_logit(model, x)[0], rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize(
    "hidden, needle",
    [
        ("bias = [1.0]\nout = [1.0, 2.0]\n", "out must be a list of 1 numbers"),
        ("bias = []\nout = []\n", f"bias must have 1 to {MAX_HIDDEN} units"),
        ('bias = [1.0]\nout = [0.5]\n[profile.b.model.deathmatch.hidden.weights]\nnope = [1.0]\n',
         "unknown feature 'nope'"),
        ("bias = [1.0]\nout = [0.5]\n[profile.b.model.deathmatch.hidden.weights]\nturn = [1, 2]\n",
         "weights turn must be a list of 1 numbers"),
        ("bias = [1.0]\nout = [inf]\n", "must be a finite number"),
        ("bias = [1.0]\nout = [1.0]\nlayers = 2\n", "unknown key 'layers'"),
    ],
)  # fmt: skip
def test_bad_hidden_layers_are_one_clear_error(tmp_path, hidden, needle):
    path = tmp_path / "p.toml"
    path.write_text(
        '[profile.b]\nplayer = "planner"\n[profile.b.model.deathmatch]\nintercept = 0.0\n'
        "[profile.b.model.deathmatch.hidden]\n" + hidden
    )
    with pytest.raises(ValueError, match=needle):
        load_profiles(path)
