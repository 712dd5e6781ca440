"""The designer's first screen (results/analysis/first_screen.py, results/report/first_screen.py)
on synthetic studies with known moves: each deck's line carries its own verdict (a mode made
player-sensitive by two decks shows the two that did not move as the same under both
players), no statistics' name on the first screen (they are in "how this was decided"), the
power line with the rule's own figure, and a study of one player (the demo) naming the
credibility record's per-deck verdicts."""

import html
import json
import re

import numpy as np
import pytest

from results import analysis
from results.analysis import stability as st
from results.analysis.first_screen import JARGON
from results.report import make_report
from tests.support.player_studies import BASE, study, with_rates

# imperial beats highland 95% instead of 75% under the planner: imperial +6.7 points against
# the field, highland -6.7, sylvan and everfrost unmoved (2,000 games a pairing and player)
IMPERIAL_OVER_HIGHLAND = with_rates(imperial__highland=0.95)
N = 2000


def _jargon(text: str) -> list:
    return [w for w in JARGON if re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", text.lower())]


def _plain(fs) -> list:
    """Every line of the first screen proper (not the part below)."""
    out = []
    for m in fs["modes"]:
        out += [m["rests_on"], m["power"], m["seat_edge"]]
        out += [d["line"] for d in m["decks"]] + [t["text"] for t in m["tasks"]]
    return [x for x in out if x]


@pytest.fixture(scope="module")
def two_players(tmp_path_factory):
    root = tmp_path_factory.mktemp("fs")
    run = study(root / "run", {"greedy": BASE, "planner": IMPERIAL_OVER_HIGHLAND}, n=N)
    return run, make_report(run, root / "report")


def test_a_decks_line_carries_its_own_verdict_not_its_modes(two_players):
    _, r = two_players
    s = r["summary"]
    assert s["stability"]["modes"]["high-form"]["verdict"] == st.SENSITIVE
    (m,) = s["at_a_glance"]["first_screen"]["modes"]
    lines = {d["deck"]: d for d in m["decks"]}
    assert {d: x["verdict"] for d, x in lines.items()} == {
        "imperial": st.SENSITIVE,
        "highland": st.SENSITIVE,
        "sylvan": st.STABLE,
        "everfrost": st.STABLE,
    }
    assert lines["imperial"]["line"].startswith("Imperial is strong under the planner: ")
    assert "moves with the player: +6.7 [" in lines["imperial"]["line"]
    assert "points from the greedy to the planner" in lines["imperial"]["line"]
    for deck in ("sylvan", "everfrost"):
        line = lines[deck]["line"]
        assert "the same under the greedy and the planner (it moves +0.0 [" in line
        assert "moves with the player:" not in line and "player-sensitive" not in line
    assert lines["everfrost"]["line"].startswith("Everfrost is weak under the planner: 38% [")
    assert [d["deck"] for d in m["decks"]] == ["imperial", "highland", "sylvan", "everfrost"]
    assert m["rests_on"].startswith("Rests on the greedy and the planner, each in both seats")
    assert f"{3 * N:,} games a deck each (this study)" in m["rests_on"]


def test_no_statistics_name_on_the_first_screen_and_they_are_below(two_players):
    _, r = two_players
    fs = r["summary"]["at_a_glance"]["first_screen"]
    lines = _plain(fs)
    assert len(lines) >= 7 and all(not _jargon(x) for x in lines), [
        (x, _jargon(x)) for x in lines if _jargon(x)
    ]
    page = html.unescape(r["index"].read_text(encoding="utf-8"))
    first = page[page.index('id="first-screen"') : page.index('id="how-this-was-decided"')]
    assert not _jargon(re.sub(r"<[^>]+>", " ", first)), _jargon(re.sub(r"<[^>]+>", " ", first))
    assert "Sylvan is" in first and "the same under the greedy and the planner" in first
    below = page[page.index('id="how-this-was-decided"') : page.index('id="key-findings"')]
    assert "TOST" in below and "Holm" in below and "Wilson" in below
    # the picture first, then the plain lines; the glance's rule words are folded
    assert page.index('id="at-a-glance"') < page.index('id="first-screen"')
    glance = page[page.index('id="at-a-glance"') : page.index('id="first-screen"')]
    assert glance.index("<details class='glance-rule'>") < glance.index("Holm")


def test_the_power_line_says_the_rules_own_figure(two_players):
    _, r = two_players
    s = r["summary"]
    (m,) = s["at_a_glance"]["first_screen"]["modes"]
    (c,) = s["stability"]["modes"]["high-form"]["comparisons"]
    se = max(x["se"] for x in c["decks"].values())
    cc = max(x["continuity"] for x in c["decks"].values())
    want = st.detectable_move(se, 3.0, 0.05, 4, cc)
    assert m["power"] == (
        f"What this study could not have seen: at {3 * N:,} games a deck and player, a deck "
        f"whose win rate moves {want:.1f} points or more between the greedy and the planner "
        "is found 80% of the time; a smaller move (above 3 points) may have gone unseen"
    )
    assert 3.5 < want < 8


def test_the_power_figure_is_found_80_percent_of_the_time():
    """One deck of six truly moved by ``detectable_move``, the others not: the rule calls
    the comparison player-sensitive about 80% of the time (2,000 simulated comparisons)."""
    rng = np.random.default_rng(48)
    se, alpha, k = 0.67, 0.0444, 6
    target = st.detectable_move(se, 3.0, alpha, k)
    truth = np.array([target, 0, 0, 0, 0, 0])
    hits = 0
    reps = 2000
    for _ in range(reps):
        d = truth + rng.normal(0, se, k)
        hits += st.decide(d, np.full(k, se), np.full(k, 8000), 3.0, alpha)["verdict"] == (
            st.SENSITIVE
        )
    assert abs(hits / reps - 0.80) < 0.035, hits / reps
    # the audit's figure: a 4-point move at 8,000 games a deck is found well under 1 time in 4
    assert 4 < target < 6


def test_one_player_names_the_credibility_records_verdicts(tmp_path, monkeypatch):
    record = {
        "kind": "kalarite-credibility",
        "players": ["greedy", "planner"],
        "deals": "shared",
        "margin": 3.0,
        "content_hash": None,
        "modes": {
            "high-form": {
                "verdict": st.SENSITIVE,
                "players": ["greedy", "planner"],
                "games_per_deck": 2000,
                "detectable": 10.4,
                "seat_edge": {
                    "verdict": st.STABLE,
                    "players": ["greedy", "planner"],
                    "delta": 0.5,
                    "delta_lo": -1.0,
                    "delta_hi": 2.0,
                    "games": 6000,
                    "margin": 3.0,
                    "detectable": 6.8,
                },
                "decks": {
                    d: {"verdict": v, "delta": x, "delta_lo": x - 2, "delta_hi": x + 2}
                    | ({"games_needed": 5000} if v == st.UNDETERMINED else {})
                    for d, v, x in (
                        ("imperial", st.SENSITIVE, 9.0),
                        ("highland", st.STABLE, 0.2),
                        ("sylvan", st.UNDETERMINED, -2.5),
                        ("everfrost", st.UNDETERMINED, 1.0),
                    )
                },
            }
        },
    }
    path = tmp_path / "credibility.json"
    path.write_text(json.dumps(record))
    monkeypatch.setenv("KALARITE_CREDIBILITY_RECORD", str(path))
    s = analysis.analyze(study(tmp_path / "one", {"planner": BASE}, n=100))
    (m,) = s["at_a_glance"]["first_screen"]["modes"]
    lines = {d["deck"]: d["line"] for d in m["decks"]}
    assert lines["highland"].endswith(
        "the same under the greedy and the planner (it moves +0.2 [-1.8, +2.2] points, less "
        "than 3) (the credibility study)"
    )
    assert "moves with the player: +9.0 [+7.0, +11.0] points" in lines["imperial"]
    assert "about 3,000 more games a deck would tell" in lines["sylvan"]
    assert m["rests_on"].startswith("Rests on the credibility study (the greedy and the planner")
    assert "the win rates are this study's, under the planner" in m["rests_on"]
    assert "10.4 points or more" in m["power"] and "the credibility study" in m["power"]
    assert "the same under the greedy and the planner (the edge moves +0.5" in m["seat_edge"]
    assert all(not _jargon(x) for x in _plain(s["at_a_glance"]["first_screen"]))
    # a player the credibility study did not play: not measured, said so
    s = analysis.analyze(study(tmp_path / "other", {"greedy:points=40": BASE}, n=20))
    (m,) = s["at_a_glance"]["first_screen"]["modes"]
    assert all(d["verdict"] is None for d in m["decks"])
    assert all(
        d["line"].endswith("whether it moves with the player is not measured") for d in m["decks"]
    )
    assert "has not played the greedy:points=40" in m["rests_on"]
