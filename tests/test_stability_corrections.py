"""The stability rule after the 2026-12-06 outside audit (/work/shared/credibility-audit-2.md,
issue 48 item 5): interval levels said as they are at a look (F1), per-deck "stable" labels
Holm-corrected like the "player-sensitive" ones (F2), a test that holds its alpha at small
counts (F4), and the design the project runs: two modes, shared deals, ``--until`` (F5). The
simulations feed synthetic tables to the project's own ``deck_moves.moves`` and
``stability.decide`` (through benchmarks/stability_rule.py), seeded."""

import itertools

import numpy as np
import pytest

from benchmarks import credibility
from benchmarks import stability_rule as sim
from results import looks, stats
from results.analysis import deck_moves
from results.analysis import stability as st
from results.analysis.stability_text import body, interval_levels, level

# --- F1: the levels said ---------------------------------------------------------------------


def test_levels_are_said_as_they_are_at_the_look():
    assert level(0.95) == "95%" and interval_levels(0.05) == ("95%", "90%")
    assert interval_levels(0.044425) == ("95.6%", "91.1%")  # the last of four looks
    assert interval_levels(looks.spent(looks.plan(40))[0]) == ("99.99%", "99.98%")


def test_the_comparison_text_and_the_readme_table_say_the_look_level():
    c = {
        "verdict": st.STABLE,
        "margin": 3.0,
        "alpha": 0.044425,
        "kind": "top_two",
        "players": ["b", "a"],
        "decks": {"x": {"delta": 1.0, "delta_lo": -0.4, "delta_hi": 2.4}},
        "differ": None,
        "tau": None,
        "reversals": [],
        "flipped": [],
    }
    text = body(c)
    assert "(91.1% intervals)" in text and "[-0.4, +2.4] (95.6%)" in text and "90%" not in text
    rec = {
        "players": ["planner", "sage"],
        "commit": "abc",
        "games": 10,
        "worker_seconds": 36.0,
        "margin": 3.0,
        "rule": {"alpha": 0.044425},
        "modes": {},
    }
    block = credibility.readme_block(rec)
    assert "move sage − planner [95.6%]" in block and "91.1%" in block
    # a share's own interval (the first mover's) is a plain 95% one, not a look's test
    plain = "the first mover's share under the sage [95%]"
    assert plain in block and "[95%]" not in block.replace(plain, "")


# --- F2: per-deck "stable" labels, corrected ------------------------------------------------


def _four_decks_at_the_margin(reps: int, seed: int, games_a_deck: int = 8000):
    """Four decks whose moves are exactly +3 / -3 / +3 / -3 points (the margin)."""
    p_a = sim.win_matrix([0.3, 0.1, -0.1, -0.3])
    m = np.array([3.0, -3.0, 3.0, -3.0])
    p_b = p_a + 0.75 * (m[:, None] - m[None, :]) / 100  # field rate moves by m (K = 4)
    assert 100 * (sim.field_rates(p_b) - sim.field_rates(p_a)) == pytest.approx(m)
    rng = np.random.default_rng(seed)
    g = games_a_deck // 3
    return sim.simulate(p_a, g, reps, rng), sim.simulate(p_b, g, reps, rng)


def test_some_deck_at_the_margin_is_called_stable_at_most_alpha_of_the_time():
    """Every deck truly at the margin: any "stable" label is wrong. Uncorrected (each deck's
    own equivalence test) some deck is labelled within far more often than alpha; the rule's
    labels (Holm over the decks, or every deck within) are not shown above alpha."""
    reps = 3000
    a, b = _four_decks_at_the_margin(reps, seed=21)
    m = deck_moves.moves(*a, *b)
    delta, se, games, cc = st.rule_inputs(m)
    labelled, uncorrected = 0, 0
    for r in range(reps):
        rule = st.decide(delta[r], se[r], games[r], st.MARGIN_POINTS, st.ALPHA, cc[r])
        labelled += st.STABLE in rule["deck_verdicts"]
        uncorrected += bool(rule["within"].any())
    corrected = stats.proportion(labelled, reps)
    before = stats.proportion(uncorrected, reps)
    assert corrected["lo"] <= st.ALPHA and corrected["rate"] <= 1.2 * st.ALPHA
    assert before["lo"] > 2 * st.ALPHA  # the test bites: uncorrected labels break alpha


def test_a_deck_that_did_not_move_keeps_stable_beside_a_sensitive_one():
    rule = st.decide([8.0, 0.0, -4.0, -4.0], [0.7, 0.7, 0.7, 0.7], [8000] * 4)
    assert rule["verdict"] == st.SENSITIVE
    assert rule["deck_verdicts"] == [st.SENSITIVE, st.STABLE, st.UNDETERMINED, st.UNDETERMINED]


def test_a_stable_comparison_calls_every_deck_stable():
    """Every deck within (the intersection-union claim), one of them only just: all are
    stable, though Holm alone would not name the last."""
    near = 3 - 1.01 * 1.6449  # its own 90% interval ends just inside +-3
    rule = st.decide([0.0, near, -near], [0.5, 1.0, 1.0], [8000] * 3)
    assert rule["verdict"] == st.STABLE and rule["p_within_holm"][2] > st.ALPHA
    assert rule["deck_verdicts"] == [st.STABLE] * 3


# --- F4: small counts ------------------------------------------------------------------------


def test_identical_players_at_30_games_a_deck_hold_alpha():
    """1,500 A/A pairs at 30 games a deck (6 a pairing): the rule's false "player-sensitive"
    is not shown above alpha; the plug-in rule before it, on the same tables, runs over."""
    r = sim.small_counts(sim.STRENGTHS["deathmatch"], 30, 1500, seed=31)
    score, plug_in = r["score"]["sensitive_ci"], r["plug-in"]["sensitive_ci"]
    assert score[2] <= st.ALPHA  # the upper end of its 95% interval
    assert plug_in[1] > st.ALPHA


def test_the_readme_first_study_a_a_is_not_player_sensitive():
    """The planner on seeds 41 and 42, four decks, 10 games a pairing: highland's Deathmatch
    move -33.3 [-56.7, -10.0] was called player-sensitive. Every win table of highland that
    gives exactly those figures (its three pairings, no shared wins; the other decks even),
    under the plug-in rule and under the rule now."""
    counts = np.array(list(itertools.product(range(11), repeat=3)))  # wins in 3 pairings
    var = (counts * (10 - counts) / 10).sum(axis=1) / 900  # the plug-in variance a player
    se = 100 * np.sqrt(var[:, None] + var[None, :])
    move = 100 * (counts.sum(axis=1)[None, :] - counts.sum(axis=1)[:, None]) / 30  # B - A
    z = 1.959964
    match = (
        (np.round(move, 1) == -33.3)
        & (np.round(move - z * se, 1) == -56.7)
        & (np.round(move + z * se, 1) == -10.0)
    )
    found = np.argwhere(match)
    assert len(found) > 50
    for ia, ib in found:
        wa, wb, none = np.zeros((4, 4)), np.zeros((4, 4)), np.zeros((4, 4))
        for w, c in ((wa, counts[ia]), (wb, counts[ib])):
            w[0, 1:], w[1:, 0] = c, 10 - c
            w[1:, 1:] = 5 * (1 - np.eye(3))
        m = deck_moves.moves(wa, none, wb, none)
        plug_in = st.decide(100 * m["delta"], 100 * np.sqrt(np.diag(m["cov"])), m["games"])
        assert plug_in["verdict"] == st.SENSITIVE
        delta, s, games, cc = st.rule_inputs(m)
        now = st.decide(delta, s, games, st.MARGIN_POINTS, st.ALPHA, cc)
        assert now["verdict"] == st.UNDETERMINED and now["p_beyond_holm"][0] > st.ALPHA


def test_large_counts_keep_their_verdicts():
    """At 8,000 games a deck the score-type SE is the plug-in one within 1% and the
    continuity correction is hundredths of a point: the same verdicts, A/A and a +8 move."""
    rng = np.random.default_rng(41)
    p = sim.win_matrix(sim.STRENGTHS["high-form"])
    for planted in (None, (0, 8)):
        q = sim.win_matrix(sim.STRENGTHS["high-form"], planted)
        a, b = sim.simulate(p, 1600, 200, rng), sim.simulate(q, 1600, 200, rng)
        m = deck_moves.moves(*a, *b)
        delta, se, games, cc = st.rule_inputs(m)
        plug = 100 * np.sqrt(np.diagonal(m["cov"], axis1=-2, axis2=-1))
        assert np.all(se >= plug) and np.all(se <= 1.01 * plug) and np.all(cc < 0.02)
        same = sum(
            st.decide(delta[r], se[r], games[r], continuity=cc[r])["verdict"]
            == st.decide(delta[r], plug[r], games[r])["verdict"]
            for r in range(200)
        )
        assert same >= 196


# --- F5: the design run ----------------------------------------------------------------------


def test_the_run_design_identical_players_never_sensitive_and_play_to_the_cap():
    """Two modes, shared deals (within-pairing correlation 0.07), ``--until decided`` with a
    cap of 1,600 games a pairing: identical players are never called player-sensitive, and
    the study plays to its last look (it cannot show stable before it)."""
    same = {m: (sim.win_matrix(s), sim.win_matrix(s)) for m, s in sim.STRENGTHS.items()}
    r = sim.design_study(same, 1600, 40, seed=51)
    assert r["study"][st.SENSITIVE][0] == 0.0
    assert r["stopped_at_look"]["4"] == 1.0 and r["paired_pairings"] == 15
    assert r["study"][st.STABLE][0] <= min(x[st.STABLE][0] for x in r["modes"].values())


def test_the_run_design_finds_a_planted_move():
    """One Deathmatch deck +8 points (High Form identical), cap 480 games a pairing (2,400
    a deck): the study is called player-sensitive most of the time."""
    moved = {m: (sim.win_matrix(s), sim.win_matrix(s)) for m, s in sim.STRENGTHS.items()}
    moved["deathmatch"] = (
        moved["deathmatch"][0],
        sim.win_matrix(sim.STRENGTHS["deathmatch"], (0, 8)),
    )
    r = sim.design_study(moved, 480, 40, seed=52)
    assert r["study"][st.SENSITIVE][0] >= 0.6 and r["study"][st.STABLE][0] == 0.0


def test_shared_deal_probabilities_keep_each_player_s_own():
    def corr(j, q_a, q_b):  # of "the first deck wins" under A and under B
        cov = j[0, 0] - q_a[0] * q_b[0]
        return cov / np.sqrt(q_a[0] * (1 - q_a[0]) * q_b[0] * (1 - q_b[0]))

    q_a, q_b = np.array([0.6, 0.39, 0.01]), np.array([0.5, 0.49, 0.01])
    j = sim.joint_probabilities(q_a, q_b, 0.07)
    assert j.sum(axis=1) == pytest.approx(q_a) and j.sum(axis=0) == pytest.approx(q_b)
    assert corr(sim.joint_probabilities(q_a, q_a, 0.07), q_a, q_a) == pytest.approx(0.07)
    assert 0.05 < corr(j, q_a, q_b) < 0.07  # a moved deck: a little less than rho
