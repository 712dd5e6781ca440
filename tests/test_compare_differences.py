"""`kalarite compare` of two studies that differ in more than their seed (issue 50, item 5):
every difference named (decks, modes, games per matchup, players, content, engine, seed),
only what both hold compared and what was left out said, which games pair (the same seed
and deal index) said per matchup, and the stability verdict never claiming more than the
matchup table's interval of the same games."""

import json

import pytest

from results.compare import compare, format_text
from results.report.compare_page import write_compare_page
from sim.app.cli import main
from tests.support.datasets import game_row, write_dataset

MY_STUDY = """name = "my-study"
decks = ["imperial", "highland", "sylvan"]
modes = ["high-form", "deathmatch"]
policies = "random"
games = 6
seed = 1
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    base, greedy = root / "base", root / "greedy"
    common = ["--decks", "highland,imperial", "--seed", "1", "--workers", "0"]
    assert (
        main(["simulate", *common, "--games", "12", "--policy", "random", "--out", str(base)]) == 0
    )
    assert (
        main(["simulate", *common, "--games", "6", "--policy", "greedy", "--out", str(greedy)]) == 0
    )
    spec = root / "my-study.toml"
    spec.write_text(MY_STUDY)
    assert main(["study", str(spec), "--workers", "0", "--out", str(root / "my-study")]) == 0
    return {"base": base, "greedy": greedy, "my": root / "my-study", "root": root}


def test_other_decks_and_modes_are_named_and_left_out(runs, capsys):
    capsys.readouterr()
    out = runs["root"] / "cmp.json"
    page = runs["root"] / "page"
    assert main(["compare", str(runs["base"]), str(runs["my"]), "--json-out", str(out),
                 "--html", str(page)]) == 0  # fmt: skip
    text = capsys.readouterr().out
    r = json.loads(out.read_text())
    assert r["differences"] == ["decks", "modes", "games per matchup"]
    assert "differs in: decks, modes, games per matchup; the same: players, content" in text
    for wrong in ("nothing but the seed", "common games are identical"):
        assert wrong not in text
    # what both hold is compared; what only one holds is named as left out
    assert "left out: those of sylvan (only in B)" in text
    assert "left out: only in B: Deathmatch" in text
    assert [row["key"][2:] for row in r["tables"]["matchups"]] == [["highland", "imperial"]]
    # nothing pairs, and it says why from the matchups: seated the other way round
    p = r["paired"]
    assert not p["paired"] and "seated the other way round" in p["why_not"]
    assert "highland vs imperial in A, imperial vs highland in B" in p["why_not"]
    assert "not in both, so not compared game by game" in text
    html = (page / "index.html").read_text()
    assert "Differs in: <b>decks, modes, games per matchup</b>" in html
    assert "seated the other way round" in html


def test_games_dealt_alike_are_said_to_pair_per_matchup(runs):
    r = compare(runs["base"], runs["greedy"])
    assert r["differences"] == ["games per matchup", "players"] and r["differs_in"] == ["policies"]
    p = r["paired"]
    assert p["paired"] and p["pairs"] == 6
    (m,) = p["matchups"]
    assert m == {"mode": "high-form", "decks": ["highland", "imperial"], "games_a": 12,
                 "games_b": 6, "pairs": 6}  # fmt: skip
    text = format_text(r)
    assert "High Form highland vs imperial: 6 pairs of A's 12 and B's 6 games" in text
    assert "the change compared: policies" in text


def _verdicts_agree_with_table(r):
    """Each deck's move in the stability block holds the matchup table's interval of the
    same games (two decks: the deck against the field is its one matchup), and a deck
    called player-sensitive has a table interval beyond the margin."""
    block = r["stability"]
    row = {tuple(x["key"][2:]): x for x in r["tables"]["matchups"]}
    checked = 0
    for m in block["modes"].values():
        for c in m.get("comparisons", []):
            if len(c["decks"]) != 2:
                continue
            for deck, x in c["decks"].items():
                other = next(d for d in c["decks"] if d != deck)
                t = row.get((deck, other))
                sign = 1
                if t is None:
                    t, sign = row[(other, deck)], -1
                lo, hi = sorted((sign * 100 * t["diff"]["lo"], sign * 100 * t["diff"]["hi"]))
                assert x["delta_lo"] <= lo + 0.01 and hi - 0.01 <= x["delta_hi"], (x, lo, hi)
                if x["verdict"] == "player-sensitive":
                    assert lo > c["margin"] or hi < -c["margin"]
                checked += 1
    return checked


def test_the_stability_verdict_never_claims_more_than_the_table(runs, tmp_path):
    assert _verdicts_agree_with_table(compare(runs["base"], runs["my"])) == 2

    # the case: a deck at every game of few (a delta-method standard error of 0)
    # was called player-sensitive (+40.0 [+18.5, +61.5]) beside a table giving
    # [-12.3, +61.4], not significant
    def games(wins_of_highland, n, seed):
        return [
            game_row(
                "high-form",
                ("highland", "imperial"),
                ("random", "random"),
                i,
                0 if i < wins_of_highland else 1,
                seed=seed + i,
            )  # fmt: skip
            for i in range(n)
        ]

    a = write_dataset(tmp_path / "a", games(12, 20, 1000))
    b = write_dataset(tmp_path / "b", games(4, 4, 5000))
    r = compare(a, b)
    (c,) = r["stability"]["modes"]["high-form"]["comparisons"]
    assert c["decks"]["highland"]["delta"] == pytest.approx(40.0)
    assert c["verdict"] != "player-sensitive"
    (t,) = r["tables"]["matchups"]
    assert not t["significant"] and t["diff"]["lo"] < 0
    assert _verdicts_agree_with_table(r) == 2
    text = format_text(r)
    assert "player-sensitive" not in text.split("stability between A and B")[1].split("\n")[1]
    write_compare_page(r, tmp_path / "page")


UNTIL = """name = "u"
decks = ["imperial", "highland", "sylvan"]
modes = ["high-form"]
policies = [["random"], ["greedy"]]
games = {games}
seed = {seed}
{until}
"""


def test_a_study_stopped_early_is_compared_up_to_its_stopping_look(tmp_path):
    """(issue 48, item 5) The games past the look an --until study stopped at (played by
    chunks in flight) are not the study: compare reads the games the report reads, pairs
    the shared deals one to one (the same seat players), and judges the stability rule at
    the error the stopping look spent."""
    runs = {}
    for name, games, seed, until in (
        ("u", 128, 1, 'until = "width=70"'),
        ("same", 32, 1, ""),
        ("more", 40, 1, ""),
        ("other_seed", 32, 2, ""),
    ):
        spec = tmp_path / f"{name}.toml"
        spec.write_text(UNTIL.format(games=games, seed=seed, until=until))
        runs[name] = tmp_path / name
        args = ["study", str(spec), "--workers", "0", "--out", str(runs[name])]
        assert main([*args, "--chunk-size", "7"]) == 0
    stop = json.loads((runs["u"] / "study.json").read_text())["until"]["stopped"]
    assert stop["games"] == 32  # and chunks of 7 left games 32..34 on disk
    at_look = 12 * 32
    r = compare(runs["u"], runs["same"])
    assert r["nothing_to_compare"] and f"the very same {at_look:,} games" in r["reason"]
    r = compare(runs["u"], runs["more"])
    assert r["part_of"] == "a_in_b" and r["paired"]["pairs"] == at_look
    assert all(o["pairs"] == o["games_a"] == 64 for o in r["paired"]["matchups"])
    r = compare(runs["u"], runs["other_seed"])
    block = r["stability"]
    assert block["judged"] and block["rule"]["alpha"] == pytest.approx(stop["alpha"], abs=1e-6)
