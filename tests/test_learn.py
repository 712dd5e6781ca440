"""`kalarite learn` (issue 25, item 3) and what it reads and writes: the features against a
plain Python reading of the state row, the fit itself on data with a known answer, the
profile's model tables through their file into the parameter row, the pipeline end to end
(a small greedy study with positions -> learn -> a planner profile that plays), and bad
input."""

import json

import numpy as np
import pytest

from core import constants as K
from core.layout import (
    BOARD,
    COLOUR,
    DECK_CNT,
    DESTROYED,
    END_SEAT,
    FROZEN,
    GATEWAY,
    HAND_N,
    LSTOCK,
    NSQ,
    PENDING,
    SCORE,
    STOCK,
    TASK_PTS,
    TURN_NO,
)
from core.players.feature_names import FEATURE_NAMES, FL_GATEWAY_BLIND, N_FEATURES
from core.players.features import features
from core.players.params import MODEL_STRIDE, PP_MODEL
from core.rows import R_ERROR
from core.rules.scoring import DUEL_TARGET, HIGH_FORM_TARGET
from results.learn import Sample, fit_logistic, fit_mode, held_out, log_loss, reliability
from sim.app.cli import main
from sim.content import load_content
from sim.players import Profile, load_profiles, parse_policy, save_profile
from sim.single_game import GameConfig, play_logged

CONTENT = load_content()
F = {n: k for k, n in enumerate(FEATURE_NAMES)}


# --- the features against plain Python -------------------------------------------------------


def python_features(s, seat, mode) -> dict:
    """A handful of features read straight from the state row (core.layout offsets), written
    without the engine's helpers: two seats, one colour each."""
    me = int(s[COLOUR + seat])
    opp_seat = 1 - seat
    opp = int(s[COLOUR + opp_seat])
    mine = {1: 0, 2: 0, 3: 0}
    theirs = {1: 0, 2: 0, 3: 0}
    for q in range(NSQ):
        code = int(s[BOARD + q])
        if code:
            (mine if code >> 2 == me else theirs)[code & 3] += 1
    tasks = mode == "high-form"  # points: tasks plus legendary pieces on the board
    pts_me = int(s[TASK_PTS + me]) + mine[3] if tasks else int(s[SCORE + me])
    pts_opp = int(s[TASK_PTS + opp]) + theirs[3] if tasks else int(s[SCORE + opp])
    target = HIGH_FORM_TARGET if tasks else DUEL_TARGET
    d = DESTROYED + opp * 4
    g = int(s[GATEWAY + seat])
    return {
        "points_me": pts_me,
        "points_opp": pts_opp,
        "to_target_me": max(0, target - pts_me),
        "to_target_opp": max(0, target - pts_opp),
        "common_me": mine[1],
        "heroic_me": mine[2],
        "legendary_me": mine[3],
        "common_opp": theirs[1],
        "heroic_opp": theirs[2],
        "legendary_opp": theirs[3],
        "destroyed": int(s[d + 1]) + 2 * int(s[d + 2]) + 4 * int(s[d + 3]),
        "stock_me": int(s[STOCK + me]),
        "stock_opp": int(s[STOCK + opp]),
        "legend_stock_me": int(s[LSTOCK + me]),
        "deck_me": int(s[DECK_CNT + seat]),
        "deck_opp": int(s[DECK_CNT + opp_seat]),
        "hand_me": int(s[HAND_N + seat]),
        "hand_opp": int(s[HAND_N + opp_seat]),
        "turn": int(s[TURN_NO]),
        "end_triggered": int(s[END_SEAT] >= 0),
        "frozen_me": int(s[FROZEN + seat] >= 0),
        "frozen_opp": int(s[FROZEN + opp_seat] >= 0),
        "pending_me": int(s[PENDING + seat] >= 0),
        "pending_opp": int(s[PENDING + opp_seat] >= 0),
        "gateway_me": int(g >= 0),
        "gateway_rank_me": (int(s[BOARD + g]) & 3) if g >= 0 else 0,
        "gateway_opp": int(s[GATEWAY + opp_seat] >= 0),
    }


# games cut short by a turn cap: their final states are positions from the middle of a game
# (greedy players rarely leave a being pending; random ones do)
DECKS = (("everfrost", "nethervoid"), ("etherweave", "everfrost"), ("nethervoid", "etherweave"))
GAMES = [
    (mode, decks, policy, cap, gi)
    for mode in ("high-form", "deathmatch")
    for decks, policy in [(d, "greedy") for d in DECKS] + [(("etherweave",) * 2, "random")]
    for cap, gi in ((7, 0), (12, 1), (18, 2))
]


def test_features_agree_with_plain_python():
    out = np.zeros(N_FEATURES)
    mark = np.zeros(NSQ, np.int32)
    seen = dict.fromkeys(("frozen_me", "pending_me", "gateway_me", "destroyed", "legendary_me"), 0)
    for mode, decks, policy, cap, gi in GAMES:
        cfg = GameConfig(
            decks=list(decks), mode=mode, seed=5, game_index=gi, policies=(policy, policy),
            turn_cap=cap,
        )  # fmt: skip
        s, _ = play_logged(CONTENT, cfg)
        for seat in (0, 1):
            features(s, CONTENT.tables, seat, 0, out, mark)
            want = python_features(s, seat, mode)
            got = {n: out[F[n]] for n in want}
            assert got == pytest.approx(want), (mode, decks, cap, seat)
            for n in seen:
                seen[n] += want[n] > 0
            # the restricted twin's view: no Gateway anywhere
            features(s, CONTENT.tables, seat, FL_GATEWAY_BLIND, out, mark)
            assert out[F["gateway_me"]] == out[F["gateway_opp"]] == 0
    assert all(seen.values()), seen  # every family was there to compare at least once


# --- the fit -----------------------------------------------------------------------------


def test_fit_recovers_a_known_model_on_raw_features():
    """Features with offsets and scales far from 0 and 1, and a constant one: the folded-back
    coefficients apply to the raw features."""
    rng = np.random.default_rng(3)
    n = 40_000
    x = np.column_stack(
        [rng.normal(50, 10, n), rng.integers(0, 4, n), np.full(n, 7.0), rng.normal(0, 0.01, n)]
    )
    true_b, true_w = -3.0, np.array([0.08, -0.5, 0.0, 40.0])
    p = 1 / (1 + np.exp(-(true_b + x @ true_w)))
    y = (rng.random(n) < p).astype(float)
    b, w = fit_logistic(x, y, l2=1e-3)
    assert w[2] == 0.0  # constant: no coefficient
    assert w[[0, 1, 3]] == pytest.approx(true_w[[0, 1, 3]], rel=0.1)
    assert b == pytest.approx(true_b, abs=0.3)
    q = 1 / (1 + np.exp(-(b + x @ w)))
    assert log_loss(q, y) == pytest.approx(log_loss(p, y), abs=0.005)
    bins = reliability(q, y)
    assert len(bins) == 10 and sum(b["n"] for b in bins) == n
    assert all(b["within"] for b in bins)  # a true model on 40,000 rows is calibrated


def test_deck_terms_keep_a_decks_strength_out_of_its_mechanic():
    """Deck b loses more and only deck b's positions have the mechanic feature on, which by
    itself decides nothing: with the deck terms the feature's coefficient is near 0 (a fit on
    features alone would call it strongly negative), and the deck terms stay out of the
    profile's model."""
    rng = np.random.default_rng(4)
    n = 30_000
    deck_b = rng.random(n) < 0.5
    mechanic = np.where(deck_b, rng.integers(0, 2, n), 0).astype(float)
    points = rng.normal(0, 2, n)
    logit = 0.8 * points - 1.2 * deck_b + 0.6 * ~deck_b
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(float)
    x = np.column_stack([points, mechanic])
    decks = np.column_stack([~deck_b, deck_b, deck_b, ~deck_b]).astype(float)  # mine, theirs
    terms = ("deck=a", "deck=b", "opponent=a", "opponent=b")
    keys = [("deathmatch", "a-vs-b", "p-vs-p", i) for i in range(n)]
    game = np.arange(n)
    with_decks = fit_mode(
        Sample("deathmatch", ("p", "m"), x, y, game, keys, decks, terms), 0, 0.2, 1.0
    )
    alone = fit_mode(Sample("deathmatch", ("p", "m"), x, y, game, keys), 0, 0.2, 1.0)
    assert abs(with_decks.coef["m"]) < 0.15 < -alone.coef["m"]
    assert with_decks.coef["p"] == pytest.approx(0.8, rel=0.1)
    assert set(with_decks.model()["coef"]) == {"p", "m"}
    assert with_decks.deck_terms["deck=b"] < with_decks.deck_terms["deck=a"]


def test_holdout_is_by_game_and_seeded():
    keys = [("high-form", "a-vs-b", "p-vs-p", i) for i in range(2000)]
    a = held_out(keys, 0, 0.2)
    assert 0.15 < a.mean() < 0.25
    assert (held_out(keys, 0, 0.2) == a).all()
    assert (held_out(keys, 1, 0.2) != a).any()
    assert not held_out(keys, 0, 0.0).any()


# --- the profile's model through its file ------------------------------------------------------


def _block(row, mode):
    b = PP_MODEL + K.MODE_NAMES.index(mode) * MODEL_STRIDE
    return row[b : b + MODEL_STRIDE]


def test_a_model_round_trips_through_the_profile_file(tmp_path):
    rng = np.random.default_rng(1)
    full = {n: float(v) for n, v in zip(FEATURE_NAMES, rng.normal(0, 1, N_FEATURES), strict=True)}
    models = {
        "deathmatch": {"intercept": -0.1234567890123, "coef": full},
        "high-form": {"intercept": 2.5, "coef": {"points_me": 0.3, "deck_opp": -1e-7}},
    }
    prov = {"study": "x", "fit": {"deathmatch": {"brier": 0.2, "reliability": [{"n": 3}]}}}
    path = tmp_path / "p.toml"
    save_profile(
        Profile("m1", "planner", settings={"width": 4}, models=models, provenance=prov), path
    )
    save_profile(Profile("other", "greedy", weights={"points": 9.0}), path)
    back = load_profiles(path)
    assert back["m1"].models == models
    assert back["m1"].provenance == prov
    assert back["other"].weights == {"points": 9.0}
    _, row = parse_policy("m1", back)
    dm = _block(row, "deathmatch")
    assert list(dm[: 2 + N_FEATURES]) == [1.0, models["deathmatch"]["intercept"]] + [
        full[n] for n in FEATURE_NAMES
    ]
    assert not dm[2 + N_FEATURES :].any()  # no hidden layer: a linear model
    hf = _block(row, "high-form")
    assert hf[0] == 1.0 and hf[1] == 2.5
    assert hf[2 + F["points_me"]] == 0.3 and hf[2 + F["deck_opp"]] == -1e-7
    assert np.count_nonzero(hf[2:]) == 2  # features the model does not name: 0
    assert not _block(row, "melee").any()  # no model for the mode: the hand-set evaluation
    _, plain = parse_policy("planner", back)
    assert not plain[PP_MODEL:].any()
    _, with_key = parse_policy("m1:width=8", back)  # a key on top keeps the models
    assert (with_key[PP_MODEL:] == row[PP_MODEL:]).all()


@pytest.mark.parametrize(
    "table, needle",
    [
        ('[profile.b.model.high-form]\nintercept = 1.0\n[profile.b.model.high-form.coef]\n'
         "no_such = 1.0\n", "unknown feature 'no_such'"),
        ("[profile.b.model.chess]\nintercept = 1.0\n", "unknown mode 'chess'"),
        ("[profile.b.model.deathmatch]\nintercept = nan\n", "must be a finite number"),
        ('[profile.b.model.deathmatch]\nintercept = 1.0\n[profile.b.model.deathmatch.coef]\n'
         'turn = "3"\n', "coef turn must be a finite number"),
        ('[profile.b.model.deathmatch]\nintercept = 1.0\ncoeff = 2\n', "unknown key 'coeff'"),
        ("[profile.b.model.deathmatch]\n[profile.b.model.deathmatch.coef]\nturn = 1.0\n",
         "missing 'intercept'"),
    ],
)  # fmt: skip
def test_bad_model_tables_are_one_clear_error(tmp_path, table, needle):
    path = tmp_path / "p.toml"
    path.write_text('[profile.b]\nplayer = "planner"\n' + table)
    with pytest.raises(ValueError, match=needle):
        load_profiles(path)
    path.write_text('[profile.b]\nplayer = "greedy"\n[profile.b.model.deathmatch]\nintercept = 1\n')
    with pytest.raises(ValueError, match="only planner profiles may hold a model"):
        load_profiles(path)


# --- the pipeline end to end ---------------------------------------------------------------

SPEC = """
name = "learn-test"
decks = [["everfrost", "nethervoid"], ["imperial", "etherweave"]]
modes = ["high-form", "deathmatch"]
policies = "greedy"
games = 12
seed = 4
"""


def _cli(capsys, *argv):
    rc = main([str(a) for a in argv])
    o, e = capsys.readouterr()
    return rc, o, e


@pytest.fixture(scope="module")
def study_dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("learn")
    spec = root / "spec.toml"
    spec.write_text(SPEC)
    on, off = root / "on", root / "off"
    assert main(["study", str(spec), "--out", str(on), "--workers", "0", "--positions", "2"]) == 0
    assert main(["study", str(spec), "--out", str(off), "--workers", "0"]) == 0
    return on, off


def _play(spec, profiles, mode, gi):
    from core.kernel import play
    from sim.games import batch, resolve_players

    pols = (spec, "greedy")
    players = resolve_players(pols, profiles)
    return play(batch(CONTENT, mode, ("everfrost", "nethervoid"), pols, 9, players), gi, 2).rows


def test_learn_end_to_end(capsys, study_dirs, tmp_path):
    on, _ = study_dirs
    path = tmp_path / "profiles.toml"
    rc, o, e = _cli(capsys, "learn", on, "--name", "sage-test", "--profiles", path, "--json")
    assert rc == 0, e
    r = json.loads(o)
    assert [m["mode"] for m in r["modes"]] == ["deathmatch", "high-form"]
    kept = r["positions_read"] - r["positions_shared_dropped"] - r["positions_error_dropped"]
    assert sum(m["train_positions"] + m["test_positions"] for m in r["modes"]) == kept
    assert sum(m["train_games"] + m["test_games"] for m in r["modes"]) <= 48
    for m in r["modes"]:
        assert m["test_games"] > 0 and m["train_games"] > m["test_games"]
        assert sum(b["n"] for b in m["reliability"]) == m["test_positions"]
        assert m["calibrated"] == all(b["within"] for b in m["reliability"])
        for k in ("test_log_loss", "base_log_loss", "brier", "base_brier"):
            assert 0 < m[k] < 5, k
    prof = load_profiles(path)["sage-test"]
    assert prof.player == "planner" and prof.settings["width"] == 6
    assert set(prof.models) == {"deathmatch", "high-form"}
    pv = prof.provenance
    assert pv["study"] == str(on) and pv["seed"] == 0 and pv["positions_every"] == 2
    assert pv["games"] == sum(m["train_games"] + m["test_games"] for m in r["modes"])
    from core import ENGINE_HASH

    assert pv["engine_hash"] == ENGINE_HASH and len(pv["content_hash"]) > 0
    assert pv["fit"]["high-form"]["test_log_loss"] == r["modes"][1]["test_log_loss"]
    # the same command again: the same model (only the date moves)
    rc, o2, e = _cli(capsys, "learn", on, "--name", "again", "--profiles", path, "--json")
    assert json.loads(o2)["models"] == r["models"]
    # the profile plays: legal games to their end, the same twice, and not the planner's
    profiles = load_profiles(path)
    for mode in ("high-form", "deathmatch"):
        a = _play("sage-test", profiles, mode, 0)
        assert not a[:, R_ERROR].any()
        assert (a == _play("sage-test", profiles, mode, 0)).all()
    plain = [_play("planner", profiles, "deathmatch", gi) for gi in (0, 2)]
    learned = [_play("sage-test", profiles, "deathmatch", gi) for gi in (0, 2)]
    assert any((p != q).any() for p, q in zip(plain, learned, strict=True))


def test_learn_text_report(capsys, study_dirs, tmp_path):
    on, _ = study_dirs
    path = tmp_path / "profiles.toml"
    rc, o, e = _cli(capsys, "learn", on, "--profiles", path, "--holdout", "0.3", "--l2", "5")
    assert rc == 0, e
    assert "high-form: train" in o and "deathmatch: train" in o
    assert o.count("calibration (every decile within 5 points):") == 2
    assert f"kalarite: profile 'learned' -> {path}" in o
    assert load_profiles(path)["learned"].provenance["l2"] == 5.0


@pytest.mark.parametrize(
    "extra, needle",
    [
        ([], "has no positions table: play it with --positions N"),
        (["--holdout", "1"], "--holdout must be at least 0 and below 1"),
        (["--base", "greedy"], "--base 'greedy' is a greedy: only planner reads a learned value"),
        (["--name", "planner"], "a profile may not take a player's name"),
        (["--name", "a b"], "letters, digits"),
        (["--name", "s\u0430ge"], "ASCII letters, digits"),  # a Cyrillic a
        (["--name", "sage\u200b"], "ASCII letters, digits"),  # a zero-width space
    ],
)
def test_learn_bad_input_is_one_error_line(capsys, study_dirs, tmp_path, extra, needle):
    on, off = study_dirs
    path = tmp_path / "profiles.toml"
    target = off if not extra else on
    rc, o, e = _cli(capsys, "learn", target, "--profiles", path, *extra)
    assert rc == 2 and o == ""
    assert e.startswith("kalarite: error:") and e.count("\n") == 1, e
    assert needle in e, e
    assert not path.exists()  # nothing written


def test_learn_of_no_study(capsys, tmp_path):
    rc, o, e = _cli(capsys, "learn", tmp_path / "nothing")
    assert rc == 2 and e.startswith("kalarite: error: no dataset at"), e
