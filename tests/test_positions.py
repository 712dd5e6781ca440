"""The opt-in positions table (issue 25, item 1): the spec key and flag, the table's columns
and counts, the games unchanged by sampling, nothing else changed when it is off, and
resume and chunk checks that include it.

The studies are played in this process (workers=0) with greedy players, a few dozen games:
seconds once the kernel is compiled."""

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cluster.runner import run_study
from results.chunk_check import chunk_problem
from results.schema import (
    ALL_TABLES,
    COLUMN_DOCS,
    FEATURE_COLUMNS,
    FEATURE_DOCS,
    SCHEMAS,
    TABLES,
    dataset_tables,
)
from results.store import StoreError, read_manifest, read_table
from sim.app.cli import main
from sim.content import load_content
from sim.study import StudyError, study_from_dict

CONTENT = load_content()
SPEC = {
    "name": "positions",
    "decks": [["imperial", "nethervoid"], ["everfrost", "etherweave"]],
    "modes": ["high-form", "deathmatch"],
    "policies": "greedy",
    "games": 6,
    "seed": 11,
}
N_GAMES = 4 * 6


def study(**changes):
    return study_from_dict({**SPEC, **changes}, CONTENT)


def play(out, **changes):
    return run_study(study(**changes), CONTENT, out, workers=0, chunk_size=3)


def files(out, table):
    """{relative path: bytes} of a table's Parquet files."""
    root = out / table
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


def plain(out, table):
    """A table's rows in a canonical order, dictionary columns as strings, no metadata."""
    t = read_table(out, table)
    for i, f in enumerate(t.schema):
        if pa.types.is_dictionary(f.type):
            t = t.set_column(i, f.name, t.column(i).cast(pa.string()))
    return t.replace_schema_metadata(None).sort_by([(c, "ascending") for c in t.column_names])


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The same study without the key, with ``positions = 0`` and with ``positions = 2``."""
    root = tmp_path_factory.mktemp("positions")
    outs = {"absent": root / "absent", "zero": root / "zero", "on": root / "on"}
    play(outs["absent"])
    play(outs["zero"], positions=0)
    play(outs["on"], positions=2)
    return outs


# --- the spec key and the flag -----------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 1001, 2.5, "4", True])
def test_positions_key_is_validated(bad):
    with pytest.raises(StudyError, match=r"'positions' must be an integer from 0 \(off\) to 1000"):
        study(positions=bad)


def test_positions_off_is_the_spec_it_always_was():
    assert study().to_dict() == study(positions=0).to_dict()
    assert "positions" not in study().to_dict()
    assert study(positions=4).to_dict()["positions"] == 4
    assert dataset_tables(study().to_dict()) == TABLES
    assert dataset_tables(study(positions=4).to_dict()) == ALL_TABLES


def test_bad_positions_flag_is_one_error_line(capsys, tmp_path):
    out = tmp_path / "s"
    rc = main(["simulate", "--decks", "imperial,highland", "--games", "2", "--positions", "-3"])
    assert rc == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kalarite: error:"), err
    rc = main(
        ["simulate", "--decks", "imperial,highland", "--games", "2", "--out", str(out)]
        + ["--positions", "1001"]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "--positions must be an integer from 0 (off) to 1000" in err, err
    assert not out.exists()


def test_feature_docs_name_the_engine_features():
    """results/ reads no engine module, so it names the features once more: the same list."""
    from core.players.feature_names import FEATURE_NAMES, N_FEATURES

    assert tuple(FEATURE_DOCS) == FEATURE_NAMES
    assert SCHEMAS["positions"].names == ["game_index", "turn", "seat", *FEATURE_COLUMNS]
    assert len(FEATURE_COLUMNS) == N_FEATURES
    assert set(COLUMN_DOCS["positions"]) == set(SCHEMAS["positions"].names)


# --- off: nothing changes; on: the table, the games unchanged --------------------------------


def test_off_writes_the_same_dataset(played):
    a, z = played["absent"], played["zero"]
    for out in (a, z):
        m = read_manifest(out)
        assert m["tables"] == list(TABLES)
        assert "positions" not in m["study"]
        assert not (out / "positions").exists()
        for t in TABLES:
            for data in files(out, t).values():
                assert pq.read_schema(pa.py_buffer(data)).remove_metadata() == SCHEMAS[t], t
    for t in TABLES:  # byte for byte: the spec stored in each file is the same one
        fa, fz = files(a, t), files(z, t)
        assert fa and fa.keys() == fz.keys(), t
        for name in fa:  # the chunk's metadata names the process: the same one here
            assert pq.read_table(pa.py_buffer(fa[name])).equals(
                pq.read_table(pa.py_buffer(fz[name]))
            )
            md_a = pq.read_schema(pa.py_buffer(fa[name])).metadata
            md_z = pq.read_schema(pa.py_buffer(fz[name])).metadata
            assert md_a == md_z, (t, name)


def test_on_adds_the_positions_table_and_changes_no_game(played):
    a, on = played["absent"], played["on"]
    m = read_manifest(on)
    assert m["tables"] == [*TABLES, "positions"]
    assert m["study"]["positions"] == 2
    for t in TABLES:
        assert plain(a, t).equals(plain(on, t)), f"{t} changed by sampling positions"
    for data in files(on, "positions").values():
        assert pq.read_schema(pa.py_buffer(data)).remove_metadata() == SCHEMAS["positions"]
    pos = read_table(on, "positions")
    md = pos.schema.metadata
    assert md[b"kalarite.table"] == b"positions"
    assert json.loads(md[b"kalarite.study"])["positions"] == 2
    games = read_table(on, "games").to_pylist()
    turns = {(g["mode"], g["matchup"], g["game_index"]): g["turns"] for g in games}
    rows = pos.to_pylist()
    per_game = {}
    for r in rows:
        key = (r["mode"], r["matchup"], r["game_index"])
        assert key in turns
        assert 1 <= r["turn"] <= turns[key]
        assert r["seat"] in (0, 1)
        assert r["f_turn"] == r["turn"]  # the feature is the state's turn counter
        assert 0 <= r["f_hand_me"] <= 10 and r["f_deck_me"] >= 0
        per_game[key] = per_game.get(key, 0) + 1
    assert max(per_game.values()) <= 16
    # about one turn end in 2 (16 at most a game, the last turn never)
    total_turns = sum(min(t - 1, 32) for t in turns.values())
    assert 0.3 * total_turns <= len(rows) <= 0.7 * total_turns, (len(rows), total_turns)
    for name in FEATURE_COLUMNS:
        assert np.isfinite(np.array(pos.column(name).to_pylist(), float)).all(), name


def test_resume_checks_positions_and_never_mixes_on_and_off(played, tmp_path):
    import shutil

    on = tmp_path / "on"
    shutil.copytree(played["on"], on)
    before = plain(on, "positions")
    part = next((on / "positions").rglob("part-00001.parquet"))
    part.unlink()  # a chunk whose positions file is lost: played again
    summary = play(on, positions=2)
    assert summary.chunks_played == 1
    assert plain(on, "positions").equals(before)
    # a changed file that still reads: the games of another chunk
    other = next((on / "positions").rglob("part-00000.parquet"))
    part = other.with_name("part-00001.parquet")
    part.write_bytes(other.read_bytes())
    summary = play(on, positions=2)
    assert summary.chunks_played == 1 and plain(on, "positions").equals(before)
    for spec in ({}, {"positions": 0}, {"positions": 4}):
        with pytest.raises(StoreError, match="study spec differ"):
            play(on, **spec)
    with pytest.raises(StoreError, match="study spec differ"):
        play(played["absent"], positions=2)


def test_chunk_check_of_a_positions_file(tmp_path):
    t = pa.table({"game_index": pa.array([5, 7], pa.int64())})
    t = t.append_column("turn", pa.array([1, 2], pa.int32()))
    path = tmp_path / "p.parquet"
    pq.write_table(t, path)
    assert chunk_problem({"positions": path}, 5, 3) == "positions file lacks the column 'seat'"
    full = pa.Table.from_pylist(
        [{c: 0 for c in SCHEMAS["positions"].names} | {"game_index": 9}],
        schema=SCHEMAS["positions"],
    )
    pq.write_table(full, path)
    assert chunk_problem({"positions": path}, 5, 3) == (
        "positions file holds games 9..9, the chunk 5..7"
    )
    assert chunk_problem({"positions": path}, 8, 2) is None
    pq.write_table(full.slice(0, 0), path)
    assert chunk_problem({"positions": path}, 5, 3) is None  # no row sampled is fine
