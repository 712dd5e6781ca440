"""Decisiveness and policy sensitivity in the report: the numbers recomputed from the Parquet
files by plain pyarrow, the weak-play warning on the first screen, the flips flagged."""

import numpy as np
import pyarrow.dataset as pads
import pytest

from results import analysis
from results.report import make_report
from tests.support.datasets import game_row, write_dataset

DECKS = ("imperial", "highland", "sylvan")


def _weak_and_strong(root):
    """High Form: 60 random self-play games, mostly deck-outs tied on points; 60 planner
    self-play games, mostly ended by the score. Deathmatch: 40 planner games. Scores known."""
    rng = np.random.default_rng(3)
    games = []
    i = 0
    for pol, n in (("random", 60), ("planner", 60)):
        for k in range(n):
            decks = (DECKS[k % 3], DECKS[(k + 1) % 3])
            if pol == "random":
                end = "deck" if k % 10 else "turn-cap"
                s0, s1 = (0, 0) if k % 4 else (1, 0)
            else:
                end = "score" if k % 5 else "deck"
                s0, s1 = (9, int(rng.integers(0, 8))) if k % 2 else (int(rng.integers(0, 8)), 10)
            w = 0 if s0 > s1 else (1 if s1 > s0 else int(k % 3 == 0) - (k % 3 == 1))
            games.append(
                game_row(
                    "high-form",
                    decks,
                    (pol, pol),
                    i,
                    w,
                    end_reason=end,
                    seat0_score=s0,
                    seat1_score=s1,
                )
            )
            i += 1
    for k in range(40):
        s0, s1 = (18, k % 17) if k % 3 else (k % 17, 19)
        games.append(
            game_row(
                "deathmatch",
                ("imperial", "sylvan"),
                ("planner", "planner"),
                k,
                0 if s0 > s1 else 1,
                end_reason="score",
                seat0_score=s0,
                seat1_score=s1,
            )
        )
    return write_dataset(root, games)


def _recompute(root):
    """The decisiveness shares and mean winning score per mode, by plain pyarrow."""
    t = pads.dataset(root / "games", format="parquet", partitioning="hive").to_table()
    d = t.to_pydict()
    out = {}
    for mode in set(d["mode"]):
        idx = [i for i, m in enumerate(d["mode"]) if m == mode and d["error"][i] == 0]
        n = len(idx)
        ends = [d["end_reason"][i] for i in idx]
        tops, ties = [], 0
        for i in idx:
            scores = [
                d[f"seat{s}_score"][i] for s in range(4) if d[f"seat{s}_score"][i] is not None
            ]
            top = max(scores)
            tops.append(top)
            ties += scores.count(top) >= 2
        out[mode] = {
            "games": n,
            "by_score": ends.count("score") / n,
            "by_deck": ends.count("deck") / n,
            "by_turn_cap": ends.count("turn-cap") / n,
            "tie_on_points": ties / n,
            "mean_winning_score": sum(tops) / n,
        }
    return out


def test_decisiveness_is_recomputed_from_the_parquet_files(tmp_path):
    root = _weak_and_strong(tmp_path / "run")
    s = analysis.analyze(root)
    want = _recompute(root)
    assert set(s["decisiveness"]) == set(want) == {"high-form", "deathmatch"}
    for mode, w in want.items():
        got = s["decisiveness"][mode]
        for k, v in w.items():
            assert got[k] == pytest.approx(v), (mode, k)
        lo, hi = got["by_deck_interval"]
        assert lo <= got["by_deck"] <= hi
    hf = s["decisiveness"]["high-form"]
    assert hf["score_target"] == 9 and s["decisiveness"]["deathmatch"]["score_target"] == 18
    rnd = hf["by_policies"]["random-vs-random"]
    assert rnd["by_deck"] == pytest.approx(54 / 60) and rnd["tie_on_points"] == pytest.approx(
        45 / 60
    )


def test_weak_play_is_flagged_on_the_first_screen(tmp_path):
    root = _weak_and_strong(tmp_path / "run")
    r = make_report(root, tmp_path / "report")
    weak = [w for w in r["summary"]["warnings"] if w["kind"] == "weak_play"]
    assert [w["mode"] for w in weak] == ["high-form"]  # more than half deck-outs overall
    assert "--policy planner" in weak[0]["text"] and "random-vs-random" in weak[0]["text"]
    page = (tmp_path / "report" / "index.html").read_text()
    first_screen = page[: page.index("<nav>")]
    assert "tied on points" in first_screen and "--policy planner" in first_screen
    assert 'id="decisiveness"' in page


def test_deck_outs_decided_on_points_get_a_plain_note(tmp_path):
    """Most games run out of cards, but the winners are near the target and rarely tied:
    no first-screen warning, a plain note instead."""
    games = [
        game_row(
            "high-form",
            ("imperial", "sylvan"),
            ("planner", "planner"),
            k,
            k % 2,
            end_reason="deck" if k % 3 else "score",
            seat0_score=8 if k % 2 == 0 else 5,
            seat1_score=8 if k % 2 else 5,
        )
        for k in range(30)
    ]
    s = analysis.analyze(write_dataset(tmp_path / "run", games))
    kinds = {w["kind"]: w for w in s["warnings"]}
    assert "weak_play" not in kinds and not kinds["deck_exhaustion"]["severe"]
    assert "the points decided them" in kinds["deck_exhaustion"]["text"]


def test_strong_play_has_no_weak_play_warning(tmp_path):
    games = [
        game_row(
            "deathmatch",
            ("imperial", "sylvan"),
            ("planner", "planner"),
            k,
            k % 2,
            end_reason="score",
            seat0_score=18 if k % 2 == 0 else 3,
            seat1_score=18 if k % 2 else 3,
        )
        for k in range(30)
    ]
    s = analysis.analyze(write_dataset(tmp_path / "run", games))
    assert not [w for w in s["warnings"] if w["kind"] == "weak_play"]
    assert s["decisiveness"]["deathmatch"]["by_score"] == 1.0


def _sensitivity_dataset(root):
    """Self-play with two players on three decks: under random, imperial wins 80% of its
    games against the other decks; under planner it wins 20% (its conclusion flips)."""
    games = []
    i = 0
    rates = {"random": {"imperial": 0.8}, "planner": {"imperial": 0.2}}
    for pol in ("random", "planner"):
        for a, b in (("imperial", "highland"), ("imperial", "sylvan"), ("highland", "sylvan")):
            p = rates[pol].get(a, 0.5)
            for k in range(100):
                w = 0 if k < p * 100 else 1
                games.append(
                    game_row(
                        "high-form",
                        (a, b),
                        (pol, pol),
                        i,
                        w,
                        end_reason="score",
                        seat0_score=9 if w == 0 else 4,
                        seat1_score=9 if w else 4,
                    )
                )
                i += 1
    return write_dataset(root, games)


def test_policy_sensitivity_flags_a_flipping_deck(tmp_path):
    root = _sensitivity_dataset(tmp_path / "run")
    r = make_report(root, tmp_path / "report")
    sens = r["summary"]["player_sensitivity"]["high-form"]
    assert sens["players"] == ["random", "planner"]
    rows = {x["deck"]: x for x in sens["decks"]}
    imp = rows["imperial"]
    assert imp["by_player"]["random"]["verdict"] == "favoured"
    assert imp["by_player"]["planner"]["verdict"] == "disfavoured"
    assert imp["flips"] and imp["change"]["diff"] == pytest.approx(0.2 - 0.8)
    assert imp["change"]["hi"] < 0 and imp["change"]["significant"]
    assert (
        sens["ranking"]["random"][0] == "imperial" and sens["ranking"]["planner"][-1] == "imperial"
    )
    assert sens["ranking_changes"]
    page = (tmp_path / "report" / "index.html").read_text()
    assert 'id="sensitivity"' in page and "imperial ⚠" in page
