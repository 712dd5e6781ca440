"""The Python API (``from sim import api``): a tiny study played in-process, its tables as
DataFrames with nullable integer dtypes and categoricals, its analysis as DataFrames, the
report and a comparison; and pandas reading the Parquet files directly with the same dtypes."""

import pandas as pd
import pytest

from sim import api

SPEC = {
    "decks": [["imperial", "highland"]],
    "modes": "deathmatch",
    "policies": "random",  # fast; the default player is the planner
    "games": 40,
    "seed": 9,
}


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    out = tmp_path_factory.mktemp("api") / "s"
    st = api.run(SPEC, out=out, progress=False)
    assert st.summary.workers == 0  # a tiny study: in this process, no Ray
    return st


def test_games_as_pandas(study):
    g = study.games()
    assert len(g) == 40
    assert str(g["seat2_score"].dtype) == "Int32" and g["seat2_score"].isna().all()
    assert str(g["seat0_score"].dtype) == "Int32" and str(g["winner"].dtype) == "Int8"
    assert str(g["seat2_won"].dtype) == "boolean" and str(g["seed"].dtype) == "UInt64"
    for col in ("seat0_deck", "seat1_policy", "end_reason", "mode", "matchup"):
        assert isinstance(g[col].dtype, pd.CategoricalDtype), col
    assert set(g["seat0_deck"]) == {"imperial"}
    ce = study.card_events()
    assert isinstance(ce["card"].dtype, pd.CategoricalDtype) and len(ce) > 40
    assert study.task_claims().empty  # Deathmatch has no tasks


def test_plain_pandas_reads_the_same_dtypes(study):
    """pd.read_parquet on the dataset, no kalarite code involved (pandas metadata)."""
    g = pd.read_parquet(study.path / "games")
    assert str(g["seat3_pieces_end"].dtype) == "Int32"
    assert str(g["winning_team"].dtype) == "Int8"
    assert isinstance(g["end_reason"].dtype, pd.CategoricalDtype)
    assert not [c for c, t in g.dtypes.items() if str(t) in ("float64", "object")]


def test_analysis_frames(study):
    a = study.analysis()
    m = a["matchups"]
    assert list(m[["deck", "opp_deck"]].itertuples(index=False, name=None)) == [
        ("imperial", "highland"),
        ("highland", "imperial"),
    ]
    assert (m["wins"] + m["losses"] + m["draws"] == m["games"]).all()
    assert {"win_rate", "win_rate_lo", "win_rate_hi"} <= set(m.columns)
    assert set(a["deck_vs_field"]["deck"]) == {"imperial", "highland"}
    assert a["first_player"]["first_mover_games"].iloc[0] == 40
    assert len(a["cards"]) > 0 and {"card", "played", "win_when_played"} <= set(a["cards"].columns)
    assert "deathmatch" in a and "key_findings" in a
    kinds = list(a["key_findings"]["kind"])
    assert "first_player" in kinds
    # two decks: the strongest deck's record is the weakest's and their one matchup, said once
    assert kinds.count("strongest_deck") + kinds.count("no_deck_stands_out") == 1
    assert "weakest_deck" not in kinds and "matchup_imbalance" not in kinds
    assert study.report().name == "index.html"


def test_run_again_and_compare(study, tmp_path):
    again = api.run(SPEC, out=study.path, progress=False)
    assert again.summary.nothing_to_do
    other = api.run({**SPEC, "seed": 10}, out=tmp_path / "o", progress=False, workers=0)
    c = api.compare(study, other)
    assert "differs in: seed; the same: decks, modes" in c.text()
    assert {"matchups", "first_player"} <= set(c.tables)
    assert "paired_matchups" not in c.tables  # other seeds: nothing pairs up
    assert not c.result["paired"]["paired"]
    assert c.page(tmp_path / "page").is_file()
    assert api.open(study.path).manifest["study"]["seed"] == 9
    with pytest.raises(ValueError, match="holds no kalarite study"):
        api.open(tmp_path)


def test_the_readme_loop_compares_a_card_change(tmp_path):
    """The README's API example: ``api.run`` of a dict without ``policies``, then a spec file
    that writes the same players per seat (``["random", "random"]``) with a changed card;
    compare reads one change (the content), names the card and pairs the games."""
    from sim.app.cli import main
    from sim.study import DEFAULT_POLICY
    from tests.support.content_edits import stronger_swordmaster

    cards = tmp_path / "my-cards"
    assert main(["cards", "copy", str(cards)]) == 0
    stronger_swordmaster(cards)
    a = api.run(
        {"decks": [["imperial", "highland"]], "games": 30, "seed": 1},
        out=tmp_path / "a",
        progress=False,
    )
    spec = tmp_path / "example.toml"
    p = DEFAULT_POLICY  # the dict names no player: the spec file names it once per seat
    spec.write_text(
        'name = "example"\ndecks = ["imperial", "highland"]\nmodes = ["high-form", '
        f'"deathmatch"]\npolicies = ["{p}", "{p}"]\ngames = 30\nseed = 1\n'
    )
    b = api.run(spec, out=tmp_path / "b", content=cards, progress=False, workers=0)
    assert a.manifest["study"]["policies"] == b.manifest["study"]["policies"] == [[p]]
    c = api.compare(a, b.path)
    assert c.result["differs_in"] == ["content"]
    assert "players" not in c.result["changes"]
    assert "imperial/swordmaster" in c.text()
    assert c.result["paired"]["paired"] and "paired_matchups" in c.tables
    assert not c.result["false_positives_only"]
    # how the games ended and the player stability of both studies come with it
    assert "how the games ended:" in c.text()
    assert f"A: High Form: not measured: one player ({p})" in c.text()
    assert len(c.result["players"]["b"]["decisiveness"]) == 1  # the groups compared


def test_bad_spec_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="unknown deck 'atlantis'"):
        api.run({**SPEC, "decks": [["imperial", "atlantis"]]}, out=tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_size_decides_where_it_runs():
    small = api._study(SPEC)
    big = api._study({**SPEC, "games": 1_000_000})
    assert api.estimated_seconds(small) < api.IN_PROCESS_S < api.estimated_seconds(big)
