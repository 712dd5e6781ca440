"""Stability under stronger play (results/analysis/stability.py) on synthetic studies with
known deck win rates: stable, one deck moving 4 points, a verdict changing with a small move,
the deck ranking reordered (Kendall tau under 0.86); the top two players by head-to-head or
by the study's order, the double-budget variant; summary.json, the first screen and
`kalarite compare` all saying the same."""

import json

import pytest
from scipy.stats import kendalltau

from results import analysis
from results.analysis import stability as st
from results.compare.caveats import stability_of
from results.report import make_report
from tests.test_report import _game, write_dataset

DECKS = ("imperial", "highland", "sylvan", "everfrost")
N = 300  # games per deck pairing and player: 900 per deck against the field
# seat-0 deck's chance to win each pairing (the other deck wins the rest). Against the field:
# imperial 75.0% (favoured), highland 48.3% (even), sylvan 38.3%, everfrost 38.3% (disfavoured)
BASE = {
    ("imperial", "highland"): 0.75,
    ("imperial", "sylvan"): 0.75,
    ("imperial", "everfrost"): 0.75,
    ("highland", "sylvan"): 0.60,
    ("highland", "everfrost"): 0.60,
    ("sylvan", "everfrost"): 0.50,
}


def _games(player, rates, start, opponent=None):
    """N games of every deck pairing, seat 0's deck winning the first rate * N of them."""
    games, i = [], start
    for (a, b), p in rates.items():
        for k in range(N):
            w = 0 if k < round(p * N) else 1
            games.append(
                _game(
                    "high-form",
                    (a, b),
                    (player, opponent or player),
                    i,
                    w,
                    end_reason="score",
                    seat0_score=9 if w == 0 else 4,
                    seat1_score=9 if w else 4,
                )
            )
            i += 1
    return games


def study(root, per_player: dict, cross=None):
    """A self-play study of each player (in the order given: weakest first) with its deck
    pairing rates; ``cross``: (player, opponent, rate of the player) head-to-head games."""
    games = []
    for player, rates in per_player.items():
        games += _games(player, rates, len(games))
    if cross:
        p, q, rate = cross
        games += _games(p, dict.fromkeys(BASE, rate), len(games), opponent=q)
    return write_dataset(root, games)


def _with(**changes):
    """BASE with some pairings changed (keys 'a__b')."""
    out = dict(BASE)
    for k, v in changes.items():
        out[tuple(k.split("__"))] = v
    return out


def _field(rates) -> dict:
    """Each deck's win rate against the field from the pairing rates (a plain computation)."""
    wins = dict.fromkeys(DECKS, 0)
    for (a, b), p in rates.items():
        wins[a] += round(p * N)
        wins[b] += N - round(p * N)
    return {d: wins[d] / (3 * N) for d in DECKS}


def test_the_rule_and_its_thresholds():
    assert st.is_stable([0.0, 3.0, -3.0], [False] * 3, 0.86)
    assert not st.is_stable([0.0, 3.01], [False, False], 0.9)
    assert not st.is_stable([0.0, 1.0], [False, True], 1.0)
    assert not st.is_stable([0.0, 1.0], [False, False], 0.85)
    assert st.is_stable([1.0], [False], None)  # tau undefined: not counted against
    assert (st.MAX_MOVE_POINTS, st.MIN_TAU) == (3.0, 0.86)


def test_same_rates_under_both_players_is_stable(tmp_path):
    s = analysis.analyze(study(tmp_path / "run", {"greedy": BASE, "planner": BASE}))
    sens = s["sensitivity"]
    assert sens["judged"] and sens["stable"] is True and sens["verdict"] == "stable"
    assert sens["players"] == ["planner", "greedy"] and sens["tau"] == pytest.approx(1.0)
    assert set(sens["decks"]) == set(DECKS)
    assert all(x == {"delta": 0.0, "flipped": False} for x in sens["decks"].values())
    m = sens["modes"]["high-form"]
    assert m["ranked_by"].startswith("the study's order") and m["variant"] is None
    (c,) = m["comparisons"]
    assert c["kind"] == "top_two" and c["stable"] and not c["moved"] and not c["flipped"]
    glance = s["at_a_glance"]["modes"][0]["stability"]
    assert glance["stable"] is True and glance["text"].startswith("stable (planner vs greedy)")
    assert {x["level"] for x in glance["by_deck"].values()} == {"stable"}


def test_one_deck_moving_4_points_is_player_sensitive(tmp_path):
    strong = _with(imperial__highland=0.79, imperial__sylvan=0.79, imperial__everfrost=0.79)
    before, after = _field(BASE), _field(strong)
    assert 100 * (after["imperial"] - before["imperial"]) == pytest.approx(4.0)
    s = analysis.analyze(study(tmp_path / "run", {"greedy": BASE, "planner": strong}))
    sens = s["sensitivity"]
    assert sens["stable"] is False and sens["verdict"] == "player-sensitive"
    assert sens["decks"]["imperial"] == {"delta": 4.0, "flipped": False}
    for d in ("highland", "sylvan", "everfrost"):  # each loses a third of it
        assert sens["decks"][d]["delta"] == pytest.approx(-4 / 3, abs=0.01)
    (c,) = sens["modes"]["high-form"]["comparisons"]
    assert c["moved"] == ["imperial"] and c["flipped"] == [] and c["tau"] == pytest.approx(1.0)
    text = s["at_a_glance"]["modes"][0]["stability"]["text"]
    assert text.startswith("player-sensitive (planner vs greedy): moved: imperial +4.0 pts; tau")
    by_deck = s["at_a_glance"]["modes"][0]["stability"]["by_deck"]
    assert by_deck["imperial"]["level"] == "moved" and "+4.0 points" in by_deck["imperial"]["label"]
    assert by_deck["sylvan"]["level"] == "stable"


def test_a_move_of_exactly_3_points_is_still_stable(tmp_path):
    strong = _with(imperial__highland=0.78, imperial__sylvan=0.78, imperial__everfrost=0.78)
    s = analysis.analyze(study(tmp_path / "run", {"greedy": BASE, "planner": strong}))
    assert s["sensitivity"]["decks"]["imperial"]["delta"] == pytest.approx(3.0)
    assert s["sensitivity"]["stable"] is True


def test_a_verdict_change_with_a_small_move_is_player_sensitive(tmp_path):
    """highland: 53.0% (interval includes 50%: even) under greedy, 55.0% (favoured) under
    planner: 2 points, but its verdict changes."""
    weak = _with(highland__sylvan=0.67, highland__everfrost=0.67)
    strong = _with(highland__sylvan=0.70, highland__everfrost=0.70)
    assert _field(weak)["highland"] == pytest.approx(0.53)
    assert _field(strong)["highland"] == pytest.approx(0.55)
    s = analysis.analyze(study(tmp_path / "run", {"greedy": weak, "planner": strong}))
    sens = s["sensitivity"]
    assert sens["stable"] is False
    assert sens["decks"]["highland"] == {"delta": 2.0, "flipped": True}
    assert max(abs(x["delta"]) for x in sens["decks"].values()) == pytest.approx(2.0)
    (c,) = sens["modes"]["high-form"]["comparisons"]
    assert c["decks"]["highland"]["verdicts"] == ["even", "favoured"]
    assert c["flipped"] == ["highland"] and c["moved"] == []
    stab = s["at_a_glance"]["modes"][0]["stability"]
    assert "verdict changed: highland (even → favoured); tau 1.00" in stab["text"]
    assert stab["by_deck"]["highland"]["level"] == "flips"
    assert "even → favoured" in stab["by_deck"]["highland"]["label"]


def test_a_reordered_ranking_is_player_sensitive(tmp_path):
    """sylvan and everfrost swap places (2 points each, both stay disfavoured): one of six
    deck pairs discordant, Kendall tau 0.67."""
    weak = _with(sylvan__everfrost=0.53)
    strong = _with(sylvan__everfrost=0.47)
    s = analysis.analyze(study(tmp_path / "run", {"greedy": weak, "planner": strong}))
    sens = s["sensitivity"]
    a, b = _field(weak), _field(strong)
    want = kendalltau([a[d] for d in DECKS], [b[d] for d in DECKS]).statistic
    assert sens["tau"] == pytest.approx(want) and sens["tau"] == pytest.approx(2 / 3)
    assert not any(x["flipped"] for x in sens["decks"].values())
    assert max(abs(x["delta"]) for x in sens["decks"].values()) == pytest.approx(2.0)
    assert sens["stable"] is False
    text = s["at_a_glance"]["modes"][0]["stability"]["text"]
    assert "no deck moved or changed its verdict" in text and "tau 0.67 < 0.86" in text


def test_head_to_head_ranks_the_players_and_the_budget_variant_is_compared(tmp_path):
    """Listed planner first (the study's order would make greedy the top player), but the
    planner beats greedy head to head; planner:width=12 is the planner with double its
    width: its comparison moves imperial by 4 points."""
    strong = _with(imperial__highland=0.79, imperial__sylvan=0.79, imperial__everfrost=0.79)
    run = study(
        tmp_path / "run",
        {"planner": BASE, "greedy": BASE, "planner:width=12": strong},
        cross=("planner", "greedy", 0.8),
    )
    s = analysis.analyze(run)
    m = s["sensitivity"]["modes"]["high-form"]
    assert m["ranked_by"] == "head-to-head" and m["ranking"] == ["planner", "greedy"]
    assert m["variant"] == "planner:width=12"
    top, budget = m["comparisons"]
    assert top["kind"] == "top_two" and top["players"] == ["planner", "greedy"] and top["stable"]
    assert budget["kind"] == "budget" and budget["players"] == ["planner", "planner:width=12"]
    assert budget["moved"] == ["imperial"] and not budget["stable"]
    sens = s["sensitivity"]
    assert sens["players"] == ["planner", "greedy"] and sens["variant"] == "planner:width=12"
    assert sens["stable"] is False and sens["decks"]["imperial"]["delta"] == 4.0
    assert (
        "planner vs double budget planner:width=12"
        in s["at_a_glance"]["modes"][0]["stability"]["text"]
    )


def test_families_and_budgets():
    assert st.family("planner")[0] == st.family("planner:width=12")[0]
    assert st.family("planner:width=12")[1] == 12 and st.family("planner")[1] == 6
    assert st.family("mc:playouts=16")[0] == st.family("mc")[0]
    assert st.family("mc:horizon=3")[0] != st.family("mc")[0]  # not only a larger budget
    assert st.family("greedy")[1] is None
    assert st.family("greedy-tuned")[0] != st.family("greedy")[0]  # other weights
    assert st.family("no-such-player") == (("no-such-player",), None)


def test_summary_json_first_screen_and_compare_say_the_same(tmp_path):
    strong = _with(imperial__highland=0.79, imperial__sylvan=0.79, imperial__everfrost=0.79)
    run = study(tmp_path / "run", {"greedy": BASE, "planner": strong})
    r = make_report(run, tmp_path / "report")
    written = json.loads((tmp_path / "report" / "summary.json").read_text())["sensitivity"]
    assert {"stable", "tau", "players", "decks"} <= set(written)
    assert written["stable"] is False and written["players"] == ["planner", "greedy"]
    assert written["decks"]["imperial"] == {"delta": 4.0, "flipped": False}
    assert written["thresholds"] == {"max_move_points": 3.0, "min_tau": 0.86}
    page = r["index"].read_text()
    first = page[page.index('id="at-a-glance"') : page.index('id="key-findings"')]
    assert (
        "<b class='weak'>Player-sensitive</b> (planner vs greedy): moved: imperial +4.0 pts"
        in first
    )
    sens_section = page[page.index('<section id="sensitivity"') :]
    assert "Δ greedy → planner" in sens_section and "+4.0 ⚠" in sens_section
    (sa,) = stability_of(analysis.analyze(run), ["high-form"])  # kalarite compare's caveat
    assert sa["verdict"] == "player-sensitive" and sa["decks"] == ["imperial"]
    assert (
        sa["text"] == "High Form: " + r["summary"]["at_a_glance"]["modes"][0]["stability"]["text"]
    )


def test_one_player_cannot_be_judged(tmp_path):
    s = analysis.analyze(study(tmp_path / "run", {"planner": BASE}))
    sens = s["sensitivity"]
    assert sens["judged"] is False and sens["stable"] is None and sens["decks"] == {}
    assert sens["modes"]["high-form"] == {"stable": None, "why": "one player (planner)"}
    stab = s["at_a_glance"]["modes"][0]["stability"]
    assert stab["text"] == "stability cannot be judged: one player (planner)"
    assert not stab["measured"] and {x["level"] for x in stab["by_deck"].values()} == {"unmeasured"}
