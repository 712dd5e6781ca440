"""Stability under stronger play through the report (results/analysis/stability.py, the
rule's own tests are tests/test_stability_rule.py) on synthetic studies with known deck win
rates: the three verdicts (stable with many games, player-sensitive for a large move,
undetermined for a small sample, with the games it needs), ranking and verdict changes as
description only, the top two players by head-to-head or by the study's order, the
double-budget variant, games dealt alike compared game by game; summary.json, the first
screen, the sensitivity section and `kalarite compare` all saying the same."""

import json

import numpy as np
import pytest
from scipy.stats import kendalltau

from results import analysis
from results.analysis import stability as st
from results.analysis.player_families import family
from results.compare.caveats import stability_of
from results.report import make_report
from tests.support.player_studies import BASE, IMPERIAL_UP_12, N, study, with_rates

DECKS = ("imperial", "highland", "sylvan", "everfrost")


def _field(rates, n=N) -> dict:
    """Each deck's win rate against the field from the pairing rates (a plain computation)."""
    wins = dict.fromkeys(DECKS, 0)
    for (a, b), p in rates.items():
        wins[a] += round(p * n)
        wins[b] += n - round(p * n)
    return {d: wins[d] / (3 * n) for d in DECKS}


IMPERIAL_UP_4 = with_rates(imperial__highland=0.79, imperial__sylvan=0.79, imperial__everfrost=0.79)


def _only(s):
    (c,) = s["stability"]["modes"]["high-form"]["comparisons"]
    return c


def test_the_same_rates_with_many_games_are_stable(tmp_path):
    s = analysis.analyze(study(tmp_path / "run", {"greedy": BASE, "planner": BASE}, n=2000))
    sens = s["stability"]
    assert sens["judged"] and sens["verdict"] == st.STABLE and sens["stable"] is True
    assert sens["players"] == ["planner", "greedy"] and sens["tau"] == pytest.approx(1.0)
    assert set(sens["decks"]) == set(DECKS)
    for x in sens["decks"].values():
        assert x["delta"] == 0.0 and x["verdict"] == st.STABLE and "games_needed" not in x
        assert -3 < x["delta_lo"] < 0 < x["delta_hi"] < 3
    c = _only(s)
    assert c["kind"] == "top_two" and c["verdict"] == st.STABLE and c["games"] == 6000
    assert c["differ"]["differ"] is False and c["reversals"] == [] and c["flipped"] == []
    m = sens["modes"]["high-form"]
    assert m["ranked_by"].startswith("the study's order") and m["variant"] is None
    glance = s["at_a_glance"]["modes"][0]["stability"]
    assert glance["verdict"] == st.STABLE
    assert glance["text"].startswith("stable (planner vs greedy): every deck's move lies within")
    assert {x["level"] for x in glance["by_deck"].values()} == {st.STABLE}


def test_a_large_move_is_player_sensitive(tmp_path):
    before, after = _field(BASE), _field(IMPERIAL_UP_12)
    assert 100 * (after["imperial"] - before["imperial"]) == pytest.approx(12.0)
    s = analysis.analyze(study(tmp_path / "run", {"greedy": BASE, "planner": IMPERIAL_UP_12}))
    sens = s["stability"]
    assert sens["verdict"] == st.SENSITIVE and sens["stable"] is False
    imp = sens["decks"]["imperial"]
    assert imp["delta"] == 12.0 and imp["verdict"] == st.SENSITIVE and imp["delta_lo"] > 3
    for d in ("highland", "sylvan", "everfrost"):  # each loses a third of it
        assert sens["decks"][d]["delta"] == pytest.approx(-4.0, abs=0.01)
        assert sens["decks"][d]["verdict"] == st.UNDETERMINED
    c = _only(s)
    assert c["beyond"] == ["imperial"] and c["differ"]["differ"] and c["tau"] == 1.0
    text = s["at_a_glance"]["modes"][0]["stability"]["text"]
    assert text.startswith("player-sensitive (planner vs greedy): imperial +12.0 [")
    assert "points, beyond ±3 (Holm p" in text and "the players differ" in text
    by_deck = s["at_a_glance"]["modes"][0]["stability"]["by_deck"]
    assert by_deck["imperial"]["level"] == st.SENSITIVE
    assert by_deck["imperial"]["label"].startswith("player-sensitive: moves +12.0 [")
    assert by_deck["sylvan"]["level"] == st.UNDETERMINED


def test_a_small_sample_is_undetermined_and_says_how_many_games_would_decide(tmp_path):
    s = analysis.analyze(study(tmp_path / "run", {"greedy": BASE, "planner": IMPERIAL_UP_4}))
    sens = s["stability"]
    assert sens["verdict"] == st.UNDETERMINED and sens["stable"] is False
    c = _only(s)
    names = list(c["decks"])
    again = st.decide(
        [c["decks"][d]["delta"] for d in names],
        [c["decks"][d]["se"] for d in names],
        [c["decks"][d]["games"] for d in names],
    )
    assert again["verdict"] == st.UNDETERMINED
    # (the summary rounds the SE to 0.001 points)
    assert c["games_needed"] == pytest.approx(again["games_needed"], rel=2e-3)
    assert c["games_needed"] == sens["games_needed"] > 900
    assert sens["decks"]["imperial"]["games_needed"] == c["games_needed"]  # +4: heading out
    assert sens["games_needed_no_move"] == c["games_needed_no_move"]
    text = s["at_a_glance"]["modes"][0]["stability"]["text"]
    assert text.startswith("undetermined (planner vs greedy): no deck's move is shown beyond")
    assert "900 games a deck now, about" in text and "would decide it at the moves seen" in text


def test_a_move_of_exactly_the_margin_is_never_stable(tmp_path):
    strong = with_rates(imperial__highland=0.78, imperial__sylvan=0.78, imperial__everfrost=0.78)
    s = analysis.analyze(study(tmp_path / "run", {"greedy": BASE, "planner": strong}, n=2000))
    assert s["stability"]["decks"]["imperial"]["delta"] == pytest.approx(3.0)
    assert s["stability"]["verdict"] == st.UNDETERMINED
    imp = s["stability"]["decks"]["imperial"]  # a projection at d = M is endless
    assert imp["verdict"] == st.UNDETERMINED and imp.get("games_needed", 10**9) > 10**6


def test_verdict_changes_and_reordered_rankings_are_description_only(tmp_path):
    """highland 53.0% (even) under greedy, 55.0% (favoured) under planner: a verdict change
    but not a flip; sylvan and everfrost swap places (tau 0.67): description, not a
    decision (900 games a deck decide nothing here)."""
    weak = with_rates(highland__sylvan=0.67, highland__everfrost=0.67, sylvan__everfrost=0.53)
    strong = with_rates(highland__sylvan=0.70, highland__everfrost=0.70, sylvan__everfrost=0.47)
    s = analysis.analyze(study(tmp_path / "run", {"greedy": weak, "planner": strong}))
    c = _only(s)
    assert c["decks"]["highland"]["verdicts"] == ["even", "favoured"]
    assert not c["decks"]["highland"]["flipped"] and c["flipped"] == []
    a, b = _field(weak), _field(strong)
    want = kendalltau([a[d] for d in DECKS], [b[d] for d in DECKS]).statistic
    assert c["tau"] == pytest.approx(want, abs=1e-3) and c["tau_lo"] <= c["tau"] <= c["tau_hi"]
    assert c["reversals"] == []  # sylvan vs everfrost: 2 points apart, not significant
    assert c["verdict"] == st.UNDETERMINED
    text = s["at_a_glance"]["modes"][0]["stability"]["text"]
    assert "tau 0.67 [" in text and "confident reversals: none" in text


def test_a_flip_and_a_confident_reversal_are_named(tmp_path):
    """imperial from 75% (favoured) to 25% (disfavoured): it flips (and sylvan and everfrost
    the other way), and it changes places with every other deck, confidently."""
    down = {k: (1 - v if "imperial" in k else v) for k, v in BASE.items()}
    s = analysis.analyze(study(tmp_path / "run", {"greedy": BASE, "planner": down}))
    c = _only(s)
    assert c["flipped"] == ["imperial", "sylvan", "everfrost"] and c["verdict"] == st.SENSITIVE
    assert {tuple(r["decks"]) for r in c["reversals"]} >= {("imperial", "highland")}
    text = s["at_a_glance"]["modes"][0]["stability"]["text"]
    assert "favoured ↔ disfavoured: imperial (favoured → disfavoured)" in text
    assert "confident reversals: imperial/highland" in text


def test_head_to_head_ranks_the_players_and_the_budget_variant_is_compared(tmp_path):
    """Listed planner first (the study's order would make greedy the top player), but the
    planner beats greedy head to head; planner:width=12 is the planner with double its
    width: its comparison moves imperial by 12 points."""
    run = study(
        tmp_path / "run",
        {"planner": BASE, "greedy": BASE, "planner:width=12": IMPERIAL_UP_12},
        cross=("planner", "greedy", 0.8),
    )
    s = analysis.analyze(run)
    m = s["stability"]["modes"]["high-form"]
    assert m["ranked_by"] == "head-to-head" and m["ranking"] == ["planner", "greedy"]
    assert m["variant"] == "planner:width=12" and m["verdict"] == st.SENSITIVE
    top, budget = m["comparisons"]
    assert top["kind"] == "top_two" and top["players"] == ["planner", "greedy"]
    assert top["verdict"] == st.UNDETERMINED  # 900 games a deck: no equivalence yet
    assert budget["kind"] == "budget" and budget["players"] == ["planner", "planner:width=12"]
    assert budget["beyond"] == ["imperial"] and budget["verdict"] == st.SENSITIVE
    sens = s["stability"]
    assert sens["players"] == ["planner", "greedy"] and sens["variant"] == "planner:width=12"
    assert sens["verdict"] == st.SENSITIVE and sens["decks"]["imperial"]["delta"] == 12.0
    text = s["at_a_glance"]["modes"][0]["stability"]["text"]
    assert text.startswith("player-sensitive: undetermined (planner vs greedy)")
    assert "player-sensitive (planner vs double budget planner:width=12)" in text


def test_families_and_budgets():
    assert family("planner")[0] == family("planner:width=12")[0]
    assert family("planner:width=12")[1] == 12 and family("planner")[1] == 6
    assert family("mc:playouts=16")[0] == family("mc")[0]
    assert family("mc:horizon=3")[0] != family("mc")[0]  # not only a larger budget
    assert family("greedy")[1] is None
    assert family("greedy-tuned")[0] != family("greedy")[0]  # other weights
    assert family("no-such-player") == (("no-such-player",), None)


def test_games_dealt_alike_are_compared_game_by_game(tmp_path):
    """The same seeds for both players (mode, matchup, game index): every pairing pairs up,
    and games that end alike leave no spread; the same games on other seeds do not pair."""
    shared = analysis.analyze(
        study(tmp_path / "a", {"greedy": BASE, "planner": IMPERIAL_UP_4}, shared=True)
    )
    apart = analysis.analyze(study(tmp_path / "b", {"greedy": BASE, "planner": IMPERIAL_UP_4}))
    cs, ca = _only(shared), _only(apart)
    assert cs["paired_pairings"] == 6 and ca["paired_pairings"] == 0
    assert len(shared["player_sensitivity"]["high-form"]["shared_deals"]) > 0
    assert apart["player_sensitivity"]["high-form"]["shared_deals"] == []
    for d in DECKS:
        assert cs["decks"][d]["delta"] == ca["decks"][d]["delta"]
        assert cs["decks"][d]["se"] < 0.5 * ca["decks"][d]["se"]
    # only imperial's games differ (12 of each of its pairings' 300): paired, far fewer
    # games decide its +4 points
    assert cs["verdict"] == ca["verdict"] == st.UNDETERMINED
    assert cs["games_needed"] < 0.25 * ca["games_needed"]


def test_the_margin_comes_from_the_spec_or_the_option(tmp_path):
    run = study(tmp_path / "run", {"greedy": BASE, "planner": IMPERIAL_UP_12})
    s = analysis.analyze(run, margin=20)
    sens = s["stability"]
    assert sens["margin"] == 20.0 and sens["rule"]["margin_points"] == 20.0
    assert sens["verdict"] == st.STABLE  # +12 [+7, +17]: within ±20
    assert "within ±20 points" in s["at_a_glance"]["modes"][0]["stability"]["text"]
    manifest = json.loads((run / "study.json").read_text())
    manifest["study"]["stability_margin"] = 20
    (run / "study.json").write_text(json.dumps(manifest))
    assert analysis.analyze(run)["stability"]["margin"] == 20.0


def test_summary_json_first_screen_and_compare_say_the_same(tmp_path):
    run = study(tmp_path / "run", {"greedy": BASE, "planner": IMPERIAL_UP_12})
    r = make_report(run, tmp_path / "report")
    written = json.loads((tmp_path / "report" / "summary.json").read_text())["stability"]
    assert written["verdict"] == "player-sensitive" and written["players"] == ["planner", "greedy"]
    imp = written["decks"]["imperial"]
    assert imp["delta"] == 12.0 and imp["delta_lo"] < 12 < imp["delta_hi"]
    assert written["rule"]["margin_points"] == 3.0 and written["rule"]["alpha"] == 0.05
    page = r["index"].read_text()
    first = page[page.index('id="at-a-glance"') : page.index('id="key-findings"')]
    assert "<b class='weak'>Player-sensitive</b> (planner vs greedy): imperial +12.0 [" in first
    sens_section = page[page.index('<section id="sensitivity"') :]
    assert "Δ greedy → planner [95%]" in sens_section and "+12.0 [" in sens_section
    (sa,) = stability_of(analysis.analyze(run), ["high-form"])  # kalarite compare's caveat
    assert sa["verdict"] == "player-sensitive" and sa["decks"] == ["imperial"]
    assert (
        sa["text"] == "High Form: " + r["summary"]["at_a_glance"]["modes"][0]["stability"]["text"]
    )


def test_an_undetermined_first_screen_says_so_in_amber(tmp_path):
    run = study(tmp_path / "run", {"greedy": BASE, "planner": IMPERIAL_UP_4})
    page = make_report(run, tmp_path / "report")["index"].read_text()
    first = page[page.index('id="at-a-glance"') : page.index('id="key-findings"')]
    assert "<b class='open'>Undetermined</b> (planner vs greedy)" in first
    assert "player-sensitive" not in first.split("<p class='note'>")[0].lower()


def test_one_player_cannot_be_judged(tmp_path):
    s = analysis.analyze(study(tmp_path / "run", {"planner": BASE}))
    sens = s["stability"]
    assert sens["judged"] is False and sens["verdict"] is None and sens["decks"] == {}
    assert sens["modes"]["high-form"]["why"] == "one player (planner)"
    stab = s["at_a_glance"]["modes"][0]["stability"]
    assert stab["text"].startswith(
        "undetermined by this study (stability cannot be judged: one player (planner)); the "
        "credibility study"
    )
    assert not stab["measured"] and {x["level"] for x in stab["by_deck"].values()} == {"unmeasured"}


def test_player_tables_are_the_reports_counts(tmp_path):
    s = analysis.analyze(study(tmp_path / "run", {"greedy": BASE, "planner": BASE}))
    wins, draws = st.player_table(s, "high-form", "greedy", list(DECKS))
    assert wins[0, 1] == round(0.75 * N) and wins[1, 0] == N - round(0.75 * N)
    assert not draws.any() and np.trace(wins) == 0
