"""The stability rule (results/analysis/stability.py) itself: its three outcomes on hand-made
moves, the games_needed arithmetic, the stratified and the paired standard errors on
hand-made win tables, and its error rates on simulated studies (1,000 pairs of identical
players at 600 and at 8,000 games a deck; a planted +8-point move at the size the rule says
it needs), through the project's own functions (benchmarks/stability_rule.py feeds them;
its full run writes benchmarks/results/stability_rule.json)."""

import math

import numpy as np
import pytest
from scipy.stats import kendalltau, norm

from benchmarks import stability_rule as sim
from results.analysis import deck_moves, ranking_change
from results.analysis import stability as st

REPS = 1000


# --- the decision on hand-made moves ---------------------------------------------------------


def test_stable_when_every_90_percent_interval_lies_inside_the_margin():
    z = norm.ppf(0.95)
    inside = st.decide([0.0, 1.0, -1.0], [2.99 / z, 1.99 / z, 1.99 / z], [600] * 3)
    assert inside["verdict"] == st.STABLE and inside["within"].all()
    assert inside["games_needed"] is None and inside["deck_needed"] == [None] * 3
    edge = st.decide([0.0, 1.0, -1.0], [3.01 / z, 1.99 / z, 1.99 / z], [600] * 3)
    assert edge["verdict"] == st.UNDETERMINED and list(edge["within"]) == [False, True, True]


def test_player_sensitive_when_a_move_is_confidently_beyond_the_margin_after_holm():
    r = st.decide([8.0, -2.0, -2.0], [1.0, 1.0, 1.0], [600] * 3)
    assert r["verdict"] == st.SENSITIVE and list(r["beyond"]) == [True, False, False]
    # p = P(|D| >= 8 | delta = 3): both tails of the normal
    assert r["p_beyond"][0] == pytest.approx(norm.sf(5) + norm.sf(11))
    assert r["p_beyond_holm"][0] == pytest.approx(3 * r["p_beyond"][0])
    # one-sided p 0.01 is significant alone, not after Holm over 6 decks
    se = 1.0
    d = 3 + norm.isf(0.01) * se
    alone = st.decide([d], [se], [600])
    six = st.decide([d, 0, 0, 0, 0, 0], [se] * 6, [600] * 6)
    assert alone["verdict"] == st.SENSITIVE and six["verdict"] == st.UNDETERMINED


def test_undetermined_and_the_games_needed_arithmetic():
    n, k, se = 600, 3, 2.0
    # heading beyond: deck 0 at +4 (a margin of 3): N = n ((z(1 - a/K) + z(0.9)) s / 1)^2
    r = st.decide([4.0, -2.0, -2.0], [se] * 3, [n] * 3)
    assert r["verdict"] == st.UNDETERMINED
    want = n * ((norm.ppf(1 - 0.05 / k) + norm.ppf(0.9)) * se / (4.0 - 3.0)) ** 2
    assert r["games_needed"] == math.ceil(want) == r["deck_needed"][0]
    # heading within: the most games of the decks not yet within
    r = st.decide([1.0, -0.5, -0.5], [se] * 3, [n] * 3)
    per_deck = [n * ((norm.ppf(0.95) + norm.ppf(0.9)) * se / (3 - abs(d))) ** 2 for d in (1, 0.5)]
    assert r["verdict"] == st.UNDETERMINED
    assert r["games_needed"] == math.ceil(max(per_deck)) == r["deck_needed"][0]
    assert r["deck_needed"][1] == math.ceil(per_deck[1])
    # if no deck truly moved: every deck within with joint power 0.9
    z_all = norm.ppf((1 + 0.9 ** (1 / k)) / 2)
    assert r["games_needed_no_move"] == math.ceil(n * ((norm.ppf(0.95) + z_all) * se / 3) ** 2)
    # a move of exactly the margin cannot be projected
    r = st.decide([3.0, -1.5, -1.5], [se] * 3, [n] * 3)
    assert r["deck_needed"][0] is None and r["games_needed"] is None
    # at the projected size (the SE shrinking as 1 / sqrt(games)) the deck is decided
    r = st.decide([4.0, -2.0, -2.0], [se] * 3, [n] * 3)
    n2 = r["games_needed"]
    assert st.decide([4.0, -2.0, -2.0], [se * math.sqrt(n / n2)] * 3, [n2] * 3)["beyond"][0]


def test_the_margin_is_the_spec_key_or_the_option():
    assert st.study_margin({"run": {"study": {}}}) == 3.0
    assert st.study_margin({"run": {"study": {"stability_margin": 2}}}) == 2.0
    assert st.study_margin({"run": {"study": {"stability_margin": 2}}}, 5) == 5.0
    for bad in (0, -1, float("nan"), 51, "3", True):
        with pytest.raises(ValueError, match="margin"):
            st.check_margin(bad)


def test_players_differ_is_a_wald_test_on_the_contrasts():
    cov = np.diag([1e-4] * 4)
    same = st.players_differ([0.0, 0.0, 0.0, 0.0], cov)
    assert same["df"] == 3 and same["p_value"] == pytest.approx(1.0)
    # contrasts of (0.02, -0.02, 0, 0) with independent unit variances: chi2 = sum of the
    # squared deviations from the mean over the variance
    r = st.players_differ([0.02, -0.02, 0.0, 0.0], cov)
    assert r["chi2"] == pytest.approx((0.02**2 + 0.02**2) / 1e-4)
    # a common shift of every deck is not a difference between the players
    shifted = st.players_differ([0.03, -0.01, 0.01, 0.01], cov)
    assert shifted["chi2"] == pytest.approx(r["chi2"])


# --- the standard errors on hand-made win tables --------------------------------------------


def _table(rates: dict, decks, g=100, draws=0):
    """(wins, draws) with g games a pairing, the first deck winning ``rates[(a, b)] * g``."""
    k = len(decks)
    w, t = np.zeros((k, k)), np.zeros((k, k))
    for (a, b), p in rates.items():
        i, j = decks.index(a), decks.index(b)
        w[i, j] = round(p * (g - draws))
        w[j, i] = g - draws - w[i, j]
        t[i, j] = t[j, i] = draws
    return w, t


DECKS = ["a", "b", "c"]
RATES = {("a", "b"): 0.6, ("a", "c"): 0.7, ("b", "c"): 0.5}


def test_stratified_covariance_by_hand():
    """Deck a: 60/100 against b and 70/100 against c; each pairing a stratum, every game
    counting for both of its decks."""
    w, t = _table(RATES, DECKS)
    cov = deck_moves.player_covariance(w, t)
    assert cov[0, 0] == pytest.approx((100 * 0.6 * 0.4 + 100 * 0.7 * 0.3) / 200**2)
    assert cov[0, 1] == pytest.approx(-100 * 0.6 * 0.4 / (200 * 200))
    assert cov[1, 2] == pytest.approx(-100 * 0.5 * 0.5 / (200 * 200))
    # pooling the strata would be the binomial of 130/200 (a larger variance)
    assert cov[0, 0] < 0.65 * 0.35 / 200


def test_shared_wins_enter_the_covariance():
    """With shared wins the decisive games are random: the delta method's variance,
    checked against a simulation of the same table."""
    w, t = _table(RATES, DECKS, g=200, draws=20)
    cov = deck_moves.player_covariance(w, t)
    rng = np.random.default_rng(3)
    reps = 40000
    ws = np.zeros((reps, 3, 3))
    for i, j in ((0, 1), (0, 2), (1, 2)):
        o = rng.multinomial(200, np.array([w[i, j], w[j, i], t[i, j]]) / 200, size=reps)
        ws[:, i, j], ws[:, j, i] = o[:, 0], o[:, 1]
    rates = ws.sum(axis=2) / (ws.sum(axis=2) + ws.sum(axis=1))
    assert np.cov(rates.T) == pytest.approx(cov, rel=0.05, abs=2e-6)


def test_paired_games_that_end_alike_have_no_spread():
    """The same deals with the same outcomes under A and B: no move and no standard error
    paired; taken unpaired, the same games look as noisy as two independent samples."""
    w, t = _table(RATES, DECKS)
    joint = {}
    for i, j in ((0, 1), (0, 2), (1, 2)):
        joint[(i, j)] = np.diag([w[i, j], w[j, i], 0.0])
    paired = deck_moves.moves(w, t, w, t, joint)
    unpaired = deck_moves.moves(w, t, w, t)
    assert paired["paired"] == 3 and unpaired["paired"] == 0
    assert np.allclose(paired["delta"], 0) and np.allclose(paired["cov"], 0)
    assert np.allclose(unpaired["cov"], 2 * deck_moves.player_covariance(w, t))


def test_paired_games_with_independent_outcomes_have_the_unpaired_spread():
    """A joint table that is the product of its margins (outcomes independent within each
    pairing) gives exactly the unpaired covariance; a pairing only partly paired stays
    unpaired."""
    wa, ta = _table(RATES, DECKS)
    wb, tb = _table({("a", "b"): 0.5, ("a", "c"): 0.7, ("b", "c"): 0.5}, DECKS)
    joint = {}
    for i, j in ((0, 1), (0, 2), (1, 2)):
        ma = np.array([wa[i, j], wa[j, i], 0.0])
        mb = np.array([wb[i, j], wb[j, i], 0.0])
        joint[(i, j)] = np.outer(ma, mb) / 100
    paired = deck_moves.moves(wa, ta, wb, tb, joint)
    unpaired = deck_moves.moves(wa, ta, wb, tb)
    assert paired["paired"] == 3
    assert np.allclose(paired["cov"], unpaired["cov"])
    part = {(0, 1): joint[(0, 1)] * 0.5}
    assert deck_moves.moves(wa, ta, wb, tb, part)["paired"] == 0


def test_paired_standard_error_follows_the_correlation():
    """Half the deals decide both players' games alike: the paired SE of the moves is
    smaller than the unpaired one, and matches the spread of simulated studies."""
    rng = np.random.default_rng(5)
    g, reps, shared_share = 150, 3000, 0.5
    deltas, covs, unpaired = [], [], []
    for _ in range(reps):
        wa, wb, ta, tb = (np.zeros((3, 3)) for _ in range(4))
        joint = {}
        for (a, b), p in RATES.items():
            i, j = DECKS.index(a), DECKS.index(b)
            own_a = np.where(rng.random(g) < p, 0, 1)
            own_b = np.where(rng.random(g) < p, 0, 1)
            shared = rng.random(g) < shared_share
            oa, ob = own_a, np.where(shared, own_a, own_b)
            tab = np.zeros((3, 3))
            np.add.at(tab, (oa, ob), 1)
            joint[(i, j)] = tab
            for o, w in ((oa, wa), (ob, wb)):
                w[i, j], w[j, i] = (o == 0).sum(), (o == 1).sum()
        m = deck_moves.moves(wa, ta, wb, tb, joint)
        deltas.append(m["delta"])
        covs.append(m["cov"])
        unpaired.append(deck_moves.moves(wa, ta, wb, tb)["cov"])
    seen = np.cov(np.array(deltas).T)
    assert np.diag(np.mean(covs, axis=0)) == pytest.approx(np.diag(seen), rel=0.1)
    assert np.all(np.diag(np.mean(covs, axis=0)) < 0.65 * np.diag(np.mean(unpaired, axis=0)))


def test_joint_tables_read_shared_deal_rows_either_way_round():
    rows = [
        {"d0": "b", "d1": "a", "oa": 0, "ob": 1, "n": 3},  # b won under A, a under B
        {"d0": "a", "d1": "b", "oa": 2, "ob": 2, "n": 1},
    ]
    ((key, tab),) = deck_moves.joint_tables(rows, DECKS).items()
    assert key == (0, 1) and tab[1, 0] == 3 and tab[2, 2] == 1 and tab.sum() == 4


# --- the description: tau and reversals ------------------------------------------------------


def test_tau_b_is_scipys_kendall_tau():
    rng = np.random.default_rng(2)
    for _ in range(50):
        x, y = rng.integers(0, 4, 6), rng.integers(0, 4, 6)
        want = kendalltau(x, y).statistic
        got = ranking_change.tau_b(x, y)
        assert (np.isnan(want) and np.isnan(got)) or got == pytest.approx(want)


def test_a_confident_reversal_needs_both_gaps_significant():
    names = ["x", "y"]
    cov = np.array([[1e-4, -5e-5], [-5e-5, 1e-4]])
    clear = ranking_change.reversals(names, [0.6, 0.5], cov, [0.5, 0.6], cov)
    assert clear and clear[0]["decks"] == ["x", "y"] and clear[0]["gaps"] == [10.0, -10.0]
    assert not ranking_change.reversals(names, [0.6, 0.5], cov, [0.5, 0.51], cov)
    assert ranking_change.flips({"x": ["favoured", "disfavoured"], "y": ["even", "favoured"]}) == [
        "x"
    ]


def test_the_tau_interval_is_seeded_and_covers_the_tau():
    w, t = _table(RATES, DECKS)
    w2, t2 = _table({("a", "b"): 0.55, ("a", "c"): 0.6, ("b", "c"): 0.45}, DECKS)
    one = ranking_change.bootstrap_tau(w, t, w2, t2)
    assert one == ranking_change.bootstrap_tau(w, t, w2, t2)
    assert one[1] <= one[0] <= one[2]


# --- the rule on simulated studies (the targets) -------------------------------------


@pytest.mark.parametrize("mode", list(sim.STRENGTHS))
def test_identical_players_are_seldom_called_player_sensitive(mode):
    """1,000 pairs of identical players: player-sensitive at most 5% of the time at 600 and
    at 8,000 games a deck; stable at least 80% of the time at 8,000; the global test of a
    difference near its 5%."""
    small = sim.aa(sim.STRENGTHS[mode], 600, REPS, seed=11)
    big = sim.aa(sim.STRENGTHS[mode], 8000, REPS, seed=12)
    assert small["player-sensitive"] <= 0.05 and big["player-sensitive"] <= 0.05
    assert big["stable"] >= 0.80
    assert small["stable"] == 0.0  # 600 games a deck cannot show a 3-point equivalence
    assert 0.02 <= small["players_differ"] <= 0.08


def test_a_planted_move_is_found_at_the_size_the_rule_asks_for():
    """One deck +8 points: at 600 games a deck the rule says undetermined and how many
    games it needs; at that size it calls it player-sensitive with at least 80% power."""
    s = sim.STRENGTHS["deathmatch"]
    planted = (0, 8)
    need = sim.planned_size(s, planted, pilot_games_a_deck=600)
    assert 1000 < need < 6000
    at_need = sim.power(s, planted, need, REPS, seed=13)
    assert at_need["player-sensitive"] >= 0.80
    assert sim.power(s, planted, 600, REPS, seed=14)["player-sensitive"] < 0.5


def test_the_simulated_truth_is_the_planted_move():
    s = sim.STRENGTHS["high-form"]
    before = sim.field_rates(sim.win_matrix(s))
    after = sim.field_rates(sim.win_matrix(s, (2, 8)))
    assert 100 * (after - before) == pytest.approx([-1.6, -1.6, 8, -1.6, -1.6, -1.6])
