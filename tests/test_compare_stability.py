"""`kalarite compare A B` states the stability rule's verdict between two studies that differ
only in their players, or only in their seed (results/compare/stability.py): a real A/A
check (the planner on two seeds, a tiny study), synthetic studies of two players, games dealt
alike compared game by game, and studies it does not apply to (another content)."""

import json

import pytest

from results.analysis import stability as st
from results.compare import compare, format_text
from results.report.compare_page import write_compare_page
from sim.app.cli import main
from tests.support.player_studies import BASE, IMPERIAL_UP_12, study

# dealt per player (the scheme it was written with): at 12 games a deck these seeds decide
# nothing; the rule's normal approximation can still misfire at so few games (a deck at 0 of
# 12 has a standard error of 0), which another realization shows
SPEC = """name = "aa-{seed}"
decks = ["imperial", "highland", "sylvan"]
modes = ["high-form"]
policies = "{player}"
games = 6
seed = {seed}
deals = "per-player"
"""


def _play(tmp_path, name, player, seed):
    spec = tmp_path / f"{name}.toml"
    spec.write_text(SPEC.format(seed=seed, player=player))
    out = tmp_path / name
    assert main(["study", str(spec), "--out", str(out), "--workers", "0"]) == 0
    return out


def test_a_real_aa_check_of_the_planner_on_two_seeds(tmp_path, capsys):
    """The same player on two seeds: a replicate; the rule says stable or undetermined (12
    games a deck decide nothing), never player-sensitive, with each deck's move and
    interval; --json's block has the shape of the report's sensitivity."""
    a = _play(tmp_path, "a", "planner", 1)
    b = _play(tmp_path, "b", "planner", 2)
    capsys.readouterr()
    out = tmp_path / "cmp.json"
    argv = ["compare", str(a), str(b), "--json-out", str(out), "--html", str(tmp_path / "p")]
    assert main(argv) == 0
    text = capsys.readouterr().out
    block = json.loads(out.read_text())["stability"]
    assert block["kind"] == "replicate" and block["judged"]
    assert block["verdict"] == st.UNDETERMINED
    (c,) = block["modes"]["high-form"]["comparisons"]
    assert c["players"] == ["planner", "planner"] and c["games"] == 12
    assert set(c["decks"]) == {"imperial", "highland", "sylvan"}
    for x in block["decks"].values():
        assert x["delta_lo"] <= x["delta"] <= x["delta_hi"] and x["games_needed"] > 12
    assert "stability between A and B (the same players on another seed" in text
    assert "High Form: undetermined (planner in A vs in B)" in text
    page = (tmp_path / "p" / "index.html").read_text()
    assert 'id="stability"' in page and "Between the studies: <b>undetermined</b>" in page


def test_the_block_has_the_shape_of_the_reports_sensitivity(tmp_path):
    from results import analysis

    a = study(tmp_path / "a", {"planner": BASE})
    b = study(tmp_path / "b", {"sage": IMPERIAL_UP_12})
    block = compare(a, b)["stability"]
    own = analysis.analyze(study(tmp_path / "ab", {"planner": BASE, "sage": IMPERIAL_UP_12}))
    sens = own["stability"]
    assert set(block) == set(sens) | {"kind"}
    assert block["kind"] == "players" and block["verdict"] == sens["verdict"] == st.SENSITIVE
    (cb,) = block["modes"]["high-form"]["comparisons"]
    (cs,) = sens["modes"]["high-form"]["comparisons"]
    assert cb["players"] == ["planner", "sage"] and cb["from_to"] == ["planner (A)", "sage (B)"]
    for d, x in cs["decks"].items():  # the same games, the same numbers
        for k in ("delta", "se", "delta_lo", "delta_hi", "verdict", "p_beyond_holm"):
            assert cb["decks"][d][k] == x[k]
    assert cb["differ"] == cs["differ"] and cb["tau"] == cs["tau"]


def test_games_dealt_alike_in_both_studies_are_paired(tmp_path):
    a = study(tmp_path / "a", {"planner": BASE}, shared=True)
    b = study(tmp_path / "b", {"sage": IMPERIAL_UP_12}, shared=True)
    apart = study(tmp_path / "c", {"sage": IMPERIAL_UP_12})
    (paired,) = compare(a, b)["stability"]["modes"]["high-form"]["comparisons"]
    (unpaired,) = compare(a, apart)["stability"]["modes"]["high-form"]["comparisons"]
    assert paired["paired_pairings"] == 6 and unpaired["paired_pairings"] == 0
    assert paired["decks"]["sylvan"]["se"] < unpaired["decks"]["sylvan"]["se"]


def test_studies_of_other_content_are_not_judged(tmp_path):
    from tests.support.datasets import game_row, write_dataset

    games = [
        game_row("high-form", (x, y), ("planner", "planner"), k, k % 2, seed=k)
        for x, y in (("imperial", "highland"), ("imperial", "sylvan"), ("highland", "sylvan"))
        for k in range(20)
    ]
    a = write_dataset(tmp_path / "a", games)
    b = write_dataset(tmp_path / "b", games[:-1], content_hash="other")
    r = compare(a, b)
    block = r["stability"]
    assert block["judged"] is False and block["verdict"] is None
    assert block["why"].startswith("the studies differ in their content")
    assert "not judged: the studies differ in their content" in format_text(r)
    page = write_compare_page(r, tmp_path / "page")["index"].read_text()
    assert "Not judged: the studies differ in their content" in page


def test_the_margin_option_reaches_compare(tmp_path, capsys):
    a = study(tmp_path / "a", {"planner": BASE})
    b = study(tmp_path / "b", {"sage": IMPERIAL_UP_12})
    out = tmp_path / "c.json"
    assert main(["compare", str(a), str(b), "--margin", "20", "--json-out", str(out)]) == 0
    assert json.loads(out.read_text())["stability"]["verdict"] == st.STABLE
    assert "margin ±20 points" in capsys.readouterr().out
    for bad in ("0", "abc", "nan"):
        assert main(["compare", str(a), str(b), "--margin", bad]) == 2
        (line,) = capsys.readouterr().err.splitlines()
        assert line.startswith("kalarite: error: compare: argument --margin: must be")


def test_the_spec_key_is_checked_and_kept(tmp_path):
    from sim.study import StudyError, load_study

    spec = tmp_path / "s.toml"
    spec.write_text(SPEC.format(seed=1, player="planner") + "stability_margin = 2.5\n")
    assert load_study(spec).to_dict()["stability_margin"] == 2.5
    spec.write_text(SPEC.format(seed=1, player="planner"))
    assert "stability_margin" not in load_study(spec).to_dict()  # the default: as before
    for bad in ("0", "-1", "100", '"3"', "true"):
        spec.write_text(SPEC.format(seed=1, player="planner") + f"stability_margin = {bad}\n")
        with pytest.raises(StudyError, match="'stability_margin' must be"):
            load_study(spec)
