"""An interval never contradicts its verdict at the shown precision, and a key finding names a
strongest or weakest deck only when its interval says so, each fact once (issue 38).

results.shown rounds a bound outward, and gives a bound more digits where an interval that
excludes the fair value would print it as that value; the verdict is the test's, never the
display's."""

import html
import random
import re

import pytest
from statsmodels.stats.proportion import proportion_confint

from results import shown
from results.analysis.findings import key_findings
from results.report import make_report
from tests.support.datasets import game_row, write_dataset

BOUNDS = re.compile(r"([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]")


def _printed(text):
    """(rate, lo, hi) of the first 'r% [lo%, hi%]' in ``text``, as printed."""
    return tuple(float(x) for x in BOUNDS.search(text).groups())


def test_the_issue_example_prints_a_bound_that_excludes_50():
    # 42 of 104: Wilson [31.46%, 49.994%], which rounds to 50.0% at one decimal
    lo, hi = proportion_confint(42, 104, method="wilson")
    assert lo < 0.5 and 0.4995 < hi < 0.5
    text = shown.interval(lo, hi, 0.5)
    assert text == "[31.4%, 49.995%]", text
    assert shown.interval(lo, hi, None) == "[31.4%, 50.0%]"  # no verdict beside it: outward


def test_printed_bounds_agree_with_the_verdict_on_many_intervals():
    """Wilson intervals of many samples, win rates and differences: a printed interval holds
    the fair value exactly when the computed one does (at its edge at most)."""
    rng = random.Random(38)
    for _ in range(3000):
        n = rng.randint(1, 5000)
        k = rng.randint(0, n)
        lo, hi = proportion_confint(k, n, method="wilson")
        for fair in (0.5, 1 / 3, 0.25):
            a, b = (float(x.rstrip("%")) for x in shown.interval(lo, hi, fair)[1:-1].split(", "))
            assert a <= 100 * lo + 1e-9 and b >= 100 * hi - 1e-9  # outward: holds the interval
            if lo > fair or hi < fair:
                assert a > 100 * fair or b < 100 * fair, (k, n, fair, a, b)
            else:
                assert a <= 100 * fair <= b, (k, n, fair, a, b)
    for lo, hi in ((-0.00004, 0.03), (0.0000004, 0.02), (-0.05, -0.000001), (-0.02, 0.01)):
        a, b = (
            float(x) for x in shown.interval(lo, hi, 0.0, unit="", signed=True)[1:-1].split(",")
        )
        assert (a > 0 or b < 0) == (lo > 0 or hi < 0), (lo, hi, a, b)


def _first_mover_study(root, wins, n):
    """``n`` Deathmatch games of imperial against highland, the first mover winning ``wins``."""
    games = [
        game_row("deathmatch", ("imperial", "highland"), ("random", "random"), i, w)
        for i in range(n)
        for w in [i % 2 if i < wins else 1 - i % 2]
    ]
    return write_dataset(root, games)


def test_a_finding_at_the_edge_prints_what_its_verdict_says(tmp_path):
    run = _first_mover_study(tmp_path / "run", 42, 104)
    r = make_report(run, tmp_path / "rep")
    (first,) = [f for f in r["summary"]["key_findings"] if f["kind"] == "first_player"]
    assert first["excludes_fair"] is True and first["hi"] < 0.5
    assert "40.4% [31.4%, 49.995%]" in first["text"]
    page = html.unescape(r["index"].read_text(encoding="utf-8"))
    assert "[31.5%, 50.0%]" not in page
    _check_findings_and_flags(page)


def _check_findings_and_flags(page):
    """Every finding's printed interval agrees with its mark, and every table cell flagged *
    (its interval excludes 50%) prints bounds that exclude 50%."""
    block = page[page.index('id="key-findings"') : page.index("</ul></div>")]
    for item in re.findall(r"<li>(.*?)</li>", block):
        if "[" not in item or "%" not in item:
            continue
        _, lo, hi = _printed(item)
        if "(interval excludes 50%)" in item:
            assert lo > 50 or hi < 50, item
        elif "(within noise of 50%)" in item:
            assert lo <= 50 <= hi, item
    for cell in re.findall(r"<td class=\"[^\"]*flag[^\"]*\">([^<]*\*)</td>", page):
        _, lo, hi = _printed(cell)
        assert lo > 50 or hi < 50, cell


def _field_study(root, seat0_wins: dict, n: int):
    """Deathmatch, random in both seats: ``n`` games of each deck pairing, seat 0 winning the
    given number of them."""
    games = []
    for decks, wins in seat0_wins.items():
        games += [
            game_row("deathmatch", decks, ("random", "random"), i, 0 if i < wins else 1)
            for i in range(n)
        ]
    return write_dataset(root, games)


def _findings(tmp_path, seat0_wins, n):
    r = make_report(_field_study(tmp_path / "run", seat0_wins, n), tmp_path / "rep")
    page = html.unescape(r["index"].read_text(encoding="utf-8"))
    _check_findings_and_flags(page)
    return [f for f in r["summary"]["key_findings"] if f["kind"] != "players_caveat"], page


def test_two_decks_within_noise_is_one_finding(tmp_path):
    """The issue's 40-game two-deck study: one non-significant fact, said once."""
    found, page = _findings(tmp_path, {("sylvan", "highland"): 23}, 40)
    deck_facts = [f for f in found if f["kind"] != "first_player"]
    assert [f["kind"] for f in deck_facts] == ["no_deck_stands_out"], deck_facts
    assert deck_facts[0]["excludes_fair"] is False
    assert "no deck stands out" in page and "strongest deck" not in page
    assert "weakest deck" not in page and "most lopsided" not in page


def test_two_decks_apart_name_the_strongest_once(tmp_path):
    found, _ = _findings(tmp_path, {("sylvan", "highland"): 60}, 80)
    deck_facts = [f for f in found if f["kind"] != "first_player"]
    assert [f["kind"] for f in deck_facts] == ["strongest_deck"]
    assert deck_facts[0]["deck"] == "sylvan" and deck_facts[0]["lo"] > 0.5


def test_several_decks_within_noise(tmp_path):
    even = {("imperial", "highland"): 21, ("imperial", "sylvan"): 19, ("highland", "sylvan"): 20}
    found, _ = _findings(tmp_path, even, 40)
    kinds = [f["kind"] for f in found]
    assert "no_deck_stands_out" in kinds
    assert "strongest_deck" not in kinds and "weakest_deck" not in kinds


@pytest.mark.parametrize("strong", [True, False])
def test_one_deck_apart_is_named_and_the_rest_are_not(tmp_path, strong):
    """Imperial wins 60% (40%) of 200 games: named strongest (weakest); the other two win
    45% (55%) of theirs, an interval that holds 50%, so the other end is not named."""
    w = 60 if strong else 40
    rates = {("imperial", "highland"): w, ("imperial", "sylvan"): w, ("highland", "sylvan"): 50}
    found, _ = _findings(tmp_path, rates, 100)
    kinds = {f["kind"]: f for f in found}
    named = kinds["strongest_deck" if strong else "weakest_deck"]
    assert named["deck"] == "imperial" and named["excludes_fair"] is True
    other = "weakest_deck" if strong else "strongest_deck"
    assert other not in kinds and "no_deck_stands_out" not in kinds


def test_findings_of_an_empty_summary():
    assert key_findings({"groups": [], "deck_vs_field": [], "tasks": {}}) == []
