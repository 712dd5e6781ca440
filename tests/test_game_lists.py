"""A study of some games (``sim.study.with_game_lists``): the listed games of each matchup,
played through the study runner, are the very games of the whole study (same seeds, same
rows, card events and task claims), in any chunking; a listed study resumes and refuses
other lists. `kalarite suggest` plays its rounds this way (a window of games, less the games
an edit cannot change)."""

import pyarrow.compute as pc
import pytest

from cluster.runner import run_study
from results.store import StoreError, read_manifest, read_table
from sim.content import load_content
from sim.study import StudyError, study_from_dict, with_game_lists

SPEC = {
    "decks": [["imperial", "highland"], ["sylvan", "imperial"]],
    "modes": ["high-form", "deathmatch"],
    "policies": "random",
    "games": 40,
    "seed": 5,
}
LIST = [3, 4, 5, 6, 17, 19, 30, 31, 32, 39]


def _study():
    return study_from_dict(dict(SPEC), load_content())


def _rows(out, table):
    """The table's rows as dicts, sorted by game (stable: a game's events keep their order)."""
    rows = read_table(out, table).to_pylist()
    return sorted(rows, key=lambda r: (r["mode"], r["matchup"], r["game_index"]))


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "ds"
    run_study(_study(), load_content(), out, workers=0, progress=False)
    return out


def _listed(study):
    lists = {}
    for k, mu in enumerate(study.matchups()):
        if k == 1:
            continue  # a matchup left out plays nothing
        lists[(mu.mode, mu.decks, mu.policies)] = LIST[k % 3 :]
    return lists


@pytest.mark.parametrize("chunk_size", [3, 100])
def test_listed_games_are_the_whole_studys_games(whole, tmp_path, chunk_size):
    study = _study()
    listed = with_game_lists(study, _listed(study))
    out = tmp_path / "listed"
    summary = run_study(
        listed, load_content(), out, workers=0, progress=False, chunk_size=chunk_size
    )
    expect = sum(len(v) for v in _listed(study).values())
    assert summary.games == summary.games_played == expect
    wanted = {}
    for (mode, decks, _pols), games in _listed(study).items():
        wanted[(mode, "-vs-".join(decks))] = set(games)

    def listed(r):
        return r["game_index"] in wanted.get((r["mode"], r["matchup"]), ())

    for table in ("games", "card_events", "task_claims"):
        got = _rows(out, table)
        ref = [r for r in _rows(whole, table) if listed(r)]
        assert got == ref, table
        if table == "games":
            assert len(got) == expect
    m = read_manifest(out)
    assert m["study"]["game_lists"]["games"] == expect
    assert m["matchups"][0]["game_list"]["first"] == LIST[0]


def test_listed_study_resumes_and_refuses_other_lists(tmp_path):
    study = _study()
    listed = with_game_lists(study, _listed(study))
    out = tmp_path / "ds"
    run_study(listed, load_content(), out, workers=0, progress=False, chunk_size=2)
    again = run_study(listed, load_content(), out, workers=0, progress=False, chunk_size=2)
    assert again.nothing_to_do
    # a lost chunk is played again
    part = next(p for p in (out / "games").rglob("part-00001.parquet"))
    part.unlink()
    refill = run_study(listed, load_content(), out, workers=0, progress=False, chunk_size=2)
    assert refill.refilled and refill.games_played == 2
    n = read_table(out, "games").num_rows
    assert n == sum(len(v) for v in _listed(study).values())
    assert pc.max(read_table(out, "games").column("game_index")).as_py() == 39
    other = dict(_listed(study))
    key = next(iter(other))
    other[key] = other[key][:-1]
    with pytest.raises(StoreError, match="study spec"):
        run_study(with_game_lists(study, other), load_content(), out, workers=0, progress=False)


def test_bad_lists():
    study = _study()
    mu = study.matchups()[0]
    key = (mu.mode, mu.decks, mu.policies)
    with pytest.raises(StudyError, match="no matchup"):
        with_game_lists(study, {("melee", ("a",), ("random",)): [1]})
    with pytest.raises(StudyError, match="twice"):
        with_game_lists(study, {key: [1, 1]})
    with pytest.raises(StudyError, match="outside"):
        with_game_lists(study, {key: [-1]})
    with pytest.raises(StudyError, match="no game"):
        with_game_lists(study, {key: []})
