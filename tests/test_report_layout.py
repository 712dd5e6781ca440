"""The report's layout: the key findings on top (each with its interval), tables in their own
scroll box with a sticky first column, and plot labels that say which seat played which
player in a study of two policies. (The browser checks are in test_browser.py.)"""

import json
import re

import pytest

from results import report
from results.analysis.findings import key_findings
from results.report import make_report, plots
from tests.support.datasets import random_dataset


@pytest.fixture(scope="module")
def two_policies(tmp_path_factory):
    """Greedy against random in both seat orders: one group, two partitions per deck pair."""
    tmp = tmp_path_factory.mktemp("layout")
    run = random_dataset(
        tmp / "run",
        seed=41,
        games=200,
        modes=("high-form",),
        policies=(("greedy", "random"), ("random", "greedy")),
        p_seat0={("imperial", "sylvan"): 0.75},
    )
    return run, tmp


@pytest.fixture(scope="module")
def rendered(two_policies):
    run, tmp = two_policies
    return make_report(run, tmp / "rep"), tmp


def test_key_findings_on_top(rendered):
    r, tmp = rendered
    page = r["index"].read_text()
    assert page.index('id="key-findings"') < page.index('<section id="overview">')
    f = r["summary"]["key_findings"]
    assert json.loads((tmp / "rep" / "summary.json").read_text())["key_findings"] == f
    kinds = [x["kind"] for x in f]
    assert kinds[0] == "players_caveat" and "first_player" in kinds
    caveat = f[0]["text"]
    assert "greedy vs random" in caveat and "tied on points" in caveat
    assert "Undetermined by this study (stability cannot be judged" in caveat
    assert kinds.count("strongest_deck") == kinds.count("weakest_deck") == 1
    assert kinds.count("deck_imbalance") == 1  # 3 decks: the one not named strongest/weakest
    assert "easiest_task" in kinds and "hardest_task" in kinds
    # the planted imbalance: imperial seated first wins 75% against sylvan
    ends = [x for x in f if x["kind"] in ("strongest_deck", "weakest_deck")]
    top = max(ends, key=lambda x: abs(x["rate"] - 0.5))
    assert "(played by greedy)" in top["text"] and "stability cannot be judged" in top["text"]
    assert top["excludes_fair"] is True and top["lo"] < top["rate"] < top["hi"]
    assert re.search(r"\[\d+\.\d%, \d+\.\d%\]", top["text"])
    strongest = next(x for x in f if x["kind"] == "strongest_deck")
    weakest = next(x for x in f if x["kind"] == "weakest_deck")
    assert strongest["rate"] > weakest["rate"]
    lopsided = next(x for x in f if x["kind"] == "matchup_imbalance")
    assert "sylvan (played by greedy) against imperial wins" in lopsided["text"]
    assert abs(lopsided["rate"] - 0.5) > 0.15
    for x in f:
        assert f"#{x['section']}" in page
        if x["rate"] is not None:
            assert x["lo"] <= x["rate"] <= x["hi"]
    assert page.index('id="at-a-glance"') < page.index('id="key-findings"')


def test_findings_without_tasks_or_games():
    assert key_findings({"groups": [], "deck_vs_field": [], "tasks": {}}) == []


def test_tables_scroll_in_their_own_box(rendered):
    page = rendered[0]["index"].read_text()
    n = page.count("<table>")  # every table sits in a scroll box
    assert n > 10 and page.count('<div class="scroll"><table>') == page.count("</table></div>") == n
    assert "position:sticky" in report.CSS and "overflow-x:auto" in report.CSS
    assert '<meta name="viewport"' in page


def test_two_policy_plots_say_who_played_what(two_policies, monkeypatch):
    run, tmp = two_policies
    labels = {}

    def spy(name, real, pick):
        def draw(path, *args):
            labels.setdefault(name, []).extend(pick(*args))
            return real(path, *args)

        return draw

    monkeypatch.setattr(
        plots, "forest", spy("forest", plots.forest, lambda t, rows, *a: [(t, r[0]) for r in rows])
    )
    monkeypatch.setattr(
        plots,
        "end_reasons",
        spy("end_reasons", plots.end_reasons, lambda t, rs, lab, bars: [(t, b[0]) for b in bars]),
    )
    make_report(run, tmp / "rep3")
    bars = [b for t, b in labels["end_reasons"] if b != "all"]
    assert len(bars) == len(set(bars)) == 12  # 6 deck pairs in each seat order
    assert "imperial (greedy) vs sylvan (random)" in bars
    assert "imperial (random) vs sylvan (greedy)" in bars
    field = [lab for t, lab in labels["forest"] if "deck vs field" in t]
    assert sorted(field) == ["highland (greedy)", "imperial (greedy)", "sylvan (greedy)"]
    first = [lab for t, lab in labels["forest"] if "moving first" in t]
    assert "imperial (greedy) first" in first and "imperial (greedy) second" in first


def test_seat_labels():
    assert report.seats_label("imperial-vs-highland", "greedy-vs-random") == (
        "imperial (greedy) vs highland (random)"
    )
    assert report.seats_label("imperial-vs-highland", "random-vs-random") == "imperial vs highland"
