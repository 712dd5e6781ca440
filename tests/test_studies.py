"""Studies at scale: specs, chunking, the Parquet dataset, and runs through real Ray.

One local Ray session (2 CPUs) serves the in-process runs of this module; subprocess runs
go through the real `kalarite` command: one against that session (`--address`), one that
starts its own Ray and gets Ctrl-C (then resumes on that session), one with an unreachable
`--address`. Game counts are small (tens to a few thousand games). The pandas, polars and
DuckDB reader tests skip when those packages are not installed.
"""

import dataclasses
import json
import os
import pathlib
import re
import signal
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cluster.runner import StudyFailed, StudyInterrupted, run_study
from core import ENGINE_HASH
from core import constants as K
from results.layout import Layout
from results.schema import COLUMN_DOCS, PARTITION_COLUMNS, SCHEMAS, TABLES
from results.store import MANIFEST, StoreError, read_manifest, read_table
from sim.app.cli import main
from sim.content import load_content
from sim.study import (
    StudyError,
    load_study,
    matchup_seed,
    policy_label,
    study_from_dict,
)
from tests.support.service import wait_for

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONTENT = load_content()
SPEC = {
    "name": "test",
    "decks": [["imperial", "highland"], ["sylvan", "sylvan"]],
    "modes": ["high-form", "deathmatch"],
    "policies": "random",
    "games": 60,
    "seed": 7,
    "beings_without_effects": True,
}
N_GAMES = 4 * 60


def make_study(**changes):
    return study_from_dict({**SPEC, **changes}, CONTENT)


def canonical(out, table):
    """A table with its rows in a canonical order (sorted by every column; Arrow cannot sort
    dictionary-encoded columns, so those are compared as plain strings)."""
    t = read_table(out, table)
    for i, f in enumerate(t.schema):
        if pa.types.is_dictionary(f.type):
            t = t.set_column(i, f.name, t.column(i).cast(pa.string()))
    return t.sort_by([(c, "ascending") for c in t.column_names])


def game_keys(out):
    t = read_table(out, "games", columns=["mode", "matchup", "policies", "game_index"])
    return list(zip(*(t.column(c).to_pylist() for c in t.column_names), strict=True))


def assert_same_data(a, b):
    for table in TABLES:
        ta, tb = canonical(a, table), canonical(b, table)
        assert ta.num_rows == tb.num_rows, table
        assert ta.equals(tb), f"{table} differs between {a} and {b}"


def assert_complete(out, n_games=N_GAMES):
    keys = game_keys(out)
    assert len(keys) == n_games
    assert len(set(keys)) == n_games, "duplicate games"
    assert read_manifest(out)["status"] == "complete"


# --- specs and chunking (no Ray) -----------------------------------------------------------


def test_example_spec_parses():
    study = load_study(ROOT / "sim" / "studies" / "example.toml", CONTENT)
    assert study.modes == ["high-form", "deathmatch"]
    # every pairing of the 3 base decks including mirrors: 6 unordered pairs
    assert len(study.decks) == 6
    assert ("imperial", "imperial") in study.decks
    assert len(study.matchups()) == 12
    assert study.total_games == 12 * study.games


def test_all_decks_and_policy_pairings():
    same = study_from_dict({"decks": "all", "games": 1}, CONTENT)  # no escape hatch needed
    n = len(CONTENT.decks)
    assert n == 6 and "etherweave" in CONTENT.decks
    assert len(same.decks) == n * (n + 1) // 2
    # no player named: the planner in every seat (random games are decided by tie-breakers)
    assert same.modes == ["high-form"] and same.policies == [("planner",)]
    assert [m.policies for m in same.matchups()] == [("planner", "planner")] * len(same.decks)
    every = study_from_dict({"decks": "all", "games": 1, "modes": "all"}, CONTENT)
    assert every.modes == list(K.MODE_NAMES)
    per_mode = {}
    for m in every.matchups():
        per_mode.setdefault(m.mode, []).append(m.decks)
        assert len(m.policies) == len(m.decks)
    pairs = n * (n + 1) // 2
    assert len(per_mode["high-form"]) == len(per_mode["deathmatch"]) == pairs
    assert len(per_mode["melee"]) == n * (n + 1) * (n + 2) // 6  # multisets of 3 decks
    assert len(per_mode["team-high-form"]) == pairs * (pairs + 1) // 2  # team pair vs pair
    assert per_mode["new-player"] == [("imperial", "imperial")]
    four = study_from_dict(
        {"decks": ["imperial", "sylvan"], "games": 1, "modes": "melee", "melee_players": 4},
        CONTENT,
    )
    assert sorted(m.decks for m in four.matchups()) == sorted(
        [
            ("imperial", "imperial", "imperial", "imperial"),
            ("imperial", "imperial", "imperial", "sylvan"),
            ("imperial", "imperial", "sylvan", "sylvan"),
            ("imperial", "sylvan", "imperial", "sylvan"),
            ("imperial", "sylvan", "sylvan", "sylvan"),
            ("sylvan", "sylvan", "sylvan", "sylvan"),
        ]
    )
    # explicit seat lists go to the modes with that many seats
    mixed = make_study(
        decks=[["highland", "imperial"], ["sylvan", "imperial", "highland"]],
        modes=["high-form", "melee"],
    )
    assert [(m.mode, m.decks) for m in mixed.matchups()] == [
        ("high-form", ("highland", "imperial")),
        ("melee", ("sylvan", "imperial", "highland")),
    ]
    exact = make_study(decks=[["highland", "imperial"]])
    assert exact.decks == [("highland", "imperial")]


def test_one_name_for_every_seat_and_one_per_seat_are_the_same_players(tmp_path):
    """``policies = ["random", "random"]`` and ``"random"``: one study, stored as
    ``[["random"]]`` (no key at all stores the default player the same way), with the same
    matchups and seeds. A per-seat list that keeps a study to one seat count stays as given
    (it plays other games than the one name would)."""
    spec = {"decks": [["imperial", "highland"]], "games": 5, "seed": 1}
    forms = [
        study_from_dict({**spec, **extra}, CONTENT)
        for extra in ({"policies": "random"}, {"policies": ["random", "random"]})
    ]
    forms.append(study_from_dict({**spec, "policies": [["random"], ["random", "random"]]}, CONTENT))
    assert all(f.to_dict() == forms[0].to_dict() for f in forms)
    assert forms[0].to_dict()["policies"] == [["random"]]
    # no key at all: the default player, stored the same way (one name for every seat)
    from sim.study import DEFAULT_POLICY

    assert study_from_dict(spec, CONTENT).to_dict()["policies"] == [[DEFAULT_POLICY]]
    assert all(
        [m.to_dict() for m in f.matchups()] == [m.to_dict() for m in forms[0].matchups()]
        for f in forms
    )
    assert len(forms[-1].matchups()) == 1  # the two spellings no longer play it twice
    toml = tmp_path / "s.toml"
    toml.write_text(
        'decks = [["imperial", "highland"]]\ngames = 5\nseed = 1\npolicies = ["random", "random"]\n'
    )
    assert load_study(toml, CONTENT).to_dict() == forms[0].to_dict()
    # simulate's --policy random,random is the same study as --policy random
    from sim.study import canonical_spec, same_players, simulate_study

    sims = [
        simulate_study(CONTENT, ["imperial", "highland"], "high-form", p, 5, 1, 200, False)
        for p in (("random",), ("random", "random"))
    ]
    assert sims[0].to_dict() == sims[1].to_dict()
    # other players per seat stay per seat
    assert make_study(policies=["greedy", "random"]).policies == [("greedy", "random")]
    # beside seat lists of three decks a two-seat list keeps the study to two seats
    decks = [("imperial", "highland"), ("imperial", "highland", "sylvan")]
    modes = ["high-form", "melee"]
    assert same_players([("random", "random"), ("greedy",)], decks, modes) == [
        ("random", "random"),
        ("greedy",),
    ]
    assert same_players([("random", "random")], decks[:1], modes) == [("random",)]
    # a stored spec of before (either spelling) reads as the one form
    old = {**forms[0].to_dict(), "policies": [["random", "random"]]}
    assert canonical_spec(old) == forms[0].to_dict()


def test_resume_reads_a_spec_stored_with_the_other_spelling(tmp_path):
    """A dataset whose study.json says ``[["random", "random"]]`` (written before the one
    spelling) resumes under a spec that says ``random``; another spec is still refused."""
    from results.store import FORMAT, DatasetStore, dataset_info

    study = make_study(decks=[["imperial", "highland"]], modes=["high-form"], games=10)
    info = dataset_info(study, CONTENT)
    out = tmp_path / "old"
    out.mkdir()
    old = {
        "format": FORMAT,
        "status": "running",
        "engine_hash": info["engine_hash"],
        "content_hash": info["content_hash"],
        "study": {**info["study"], "policies": [["random", "random"]]},
        "players": info["players"],  # (a dataset without them is never resumed)
        "chunk_size": 5,
    }
    (out / MANIFEST).write_text(json.dumps(old))
    store = DatasetStore.prepare(out, info, study.matchups(), 5)
    assert store.resume and store.chunk_size == 5
    other = make_study(decks=[["imperial", "highland"]], modes=["high-form"], games=10, seed=8)
    with pytest.raises(StoreError, match="different study"):
        DatasetStore.prepare(out, dataset_info(other, CONTENT), other.matchups(), 5)


def test_matchup_seed_is_stable_and_distinct():
    # a fixed value: the seeds must never depend on Python's hash() or the machine
    assert matchup_seed(1, "high-form", ["imperial", "highland"], ["random", "random"]) == (
        16991863479383205749
    )
    seeds = {m.seed for m in make_study(decks="all").matchups()}
    assert len(seeds) == len(make_study(decks="all").matchups())
    assert all(0 <= s < 2**64 for s in seeds)


@pytest.mark.parametrize("size", [1, 7, 37, 60, 1000])
def test_chunks_cover_every_game_once(size):
    matchups = make_study().matchups()
    chunks = Layout.of_matchups(matchups, size).chunks()
    seen = set()
    for c in chunks:
        assert 0 < c.n_games <= size
        for g in range(c.first_game, c.first_game + c.n_games):
            assert (c.matchup, g) not in seen
            seen.add((c.matchup, g))
    assert seen == {(m, g) for m in range(len(matchups)) for g in range(60)}


BAD_SPECS = [
    ("decks = [", "not valid toml"),
    ('decks = "all"\ngmaes = 5', "unknown key 'gmaes'"),
    ('games = 5\nmodes = ["high-form"]', "missing key 'decks'"),
    ('decks = "all"', "missing key 'games'"),
    ('decks = "all"\ngames = 0', "'games'"),
    ('decks = "all"\ngames = -3', "'games'"),
    ('decks = "all"\ngames = "many"', "'games'"),
    ('decks = "all"\ngames = 5\nseed = -1', "'seed'"),
    ('decks = "all"\ngames = 5\nturn_cap = 0', "'turn_cap'"),
    ('decks = ["imperial", "atlantis"]\ngames = 5', "unknown deck 'atlantis'"),
    ('decks = [["imperial"]]\ngames = 5', "decks"),
    ("decks = 3\ngames = 5", "decks"),
    ('decks = "all"\ngames = 5\nmodes = ["chess"]', "unknown mode 'chess'"),
    ('decks = "all"\ngames = 5\npolicies = ["alphazero", "random"]', "unknown policy 'alphazero'"),
    ('decks = "all"\ngames = 5\npolicies = "greedy:speed=3"', "unknown parameter 'speed'"),
    ('decks = "all"\ngames = 5\npolicies = ["a", "b", "c", "d", "e"]', "policies"),
    ('decks = [["imperial", "sylvan", "highland"]]\ngames = 5', "no game to play"),
    (
        'decks = "all"\ngames = 5\nmodes = "new-player"\npolicies = ["random", "greedy", "mc"]',
        "no game to play",
    ),
    ('decks = "all"\ngames = 5\nmodes = "melee"\nmelee_players = 5', "melee_players"),
    ('decks = "all"\ngames = 5\nbeings_without_effects = "yes"', "beings_without_effects"),
    ('decks = "all"\ngames = 5\nchunk_size = 0', "chunk_size"),
    ('decks = "all"\ngames = 5\ndeals = "same"', "'deals' must be one of shared, per-player"),
    ('decks = "all"\ngames = 5\nmirrors = 0', "'mirrors' must be true or false"),
    ('decks = [["sylvan", "sylvan"]]\ngames = 5\nmirrors = false', "is a mirror match"),
    ('decks = "all"\ngames = 5\nuntil = "forever"', "'until' must be decided or width=W"),
    ('decks = "all"\ngames = 5\nuntil = "width=0"', "'until' must be decided or width=W"),
    ('decks = "all"\ngames = 5\ntrace = "planner"', "'trace' must be a table"),
    ('decks = "all"\ngames = 5\ntrace = {player = "planner", levels = [1, 2, 4]}', "levels"),
    ('decks = "all"\ngames = 5\ntrace = {player = "planner", levels = [1, 4, 2, 8]}', "levels"),
    ('decks = "all"\ngames = 5\ntrace = {player = "greedy", levels = [1, 2, 4, 8]}', "budget"),
    (
        'decks = "all"\ngames = 5\ntrace = {player = "planner:width=2", levels = [1, 2, 4, 8]}',
        "without its width",
    ),
    ('decks = "all"\ngames = 5\ntrace = {player = "planner", levels = [1, 2, 4, 80]}', "width"),
    (
        'decks = "all"\ngames = 5\npolicies = "planner"\n'
        'trace = {player = "planner", levels = [1, 2, 4, 8]}',
        "not 'policies'",
    ),
    (
        'decks = "all"\ngames = 5\nmodes = "melee"\n'
        'trace = {player = "planner", levels = [1, 2, 4, 8]}',
        "duel modes",
    ),
]


@pytest.mark.parametrize("text,needle", BAD_SPECS)
def test_malformed_spec_is_one_clear_error(tmp_path, text, needle):
    spec = tmp_path / "bad.toml"
    spec.write_text(text + "\nbeings_without_effects = true\n" if "beings" not in text else text)
    with pytest.raises(StudyError) as e:
        load_study(spec, CONTENT)
    msg = str(e.value)
    assert "\n" not in msg
    assert needle.lower() in msg.lower(), msg


def test_missing_effects_need_the_flag():
    """A deck holding a being whose effect is not implemented is refused without the flag
    (every card of the real content has its effect: one is marked as missing here)."""
    cards = [
        dataclasses.replace(c, has_effect=False) if c.id == "sylvan/sapling" else c
        for c in CONTENT.cards
    ]
    half_built = dataclasses.replace(CONTENT, cards=cards)
    assert half_built.missing_effects(["sylvan"]) == ["sylvan/sapling"]
    spec = {**SPEC, "decks": [["imperial", "sylvan"]], "beings_without_effects": False}
    with pytest.raises(ValueError, match="beings_without_effects"):
        study_from_dict(spec, half_built)
    study_from_dict({**spec, "decks": [["imperial", "highland"]]}, half_built)


# --- bad input through the command line: exit 2, one line, nothing written -------------------


def cli(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def assert_bad_input(rc, out, err, needle, path):
    assert rc == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kalarite: error: "), err
    assert needle.lower() in lines[0].lower(), lines[0]
    assert out == "" and "Traceback" not in err
    assert not pathlib.Path(path).exists(), "bad input must write nothing"


SIM = ["simulate", "--mode", "high-form", "--policy", "random", "--beings-without-effects"]


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--decks", "imperial,atlantis", "--games", "10"], "unknown deck 'atlantis'"),
        (["--decks", "imperial", "--games", "10"], "--decks"),
        (["--decks", "imperial,highland", "--games", "0"], "--games"),
        (["--decks", "imperial,highland", "--games", "-5"], "--games"),
        (["--decks", "imperial,highland", "--policy", "alphazero,random"], "unknown policy"),
        (["--decks", "imperial,highland", "--policy", "a,b,c"], "--policy"),
        (["--decks", "imperial,highland", "--seed", "-1"], "--seed"),
        (["--decks", "imperial,highland", "--workers", "-1"], "--workers"),
        (["--decks", "imperial,highland", "--chunk-size", "0"], "--chunk-size"),
        (["--decks", "imperial,highland", "--games", "ten"], "--games"),
    ],
)
def test_simulate_bad_input(capsys, tmp_path, extra, needle):
    out = tmp_path / "out"
    assert_bad_input(*cli(capsys, *SIM, *extra, "--out", out), needle, out)


def test_unwritable_out(capsys, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    out = blocker / "run"
    rc, o, e = cli(capsys, *SIM, "--decks", "imperial,highland", "--games", "5", "--out", out)
    assert_bad_input(rc, o, e, "--out", out)
    rc, o, e = cli(capsys, *SIM, "--decks", "imperial,highland", "--games", "5", "--out", blocker)
    assert rc == 2 and "not a directory" in e and blocker.read_text() == "not a directory"


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_read_only_out(capsys, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        out = ro / "run"
        args = [*SIM, "--decks", "imperial,highland", "--games", "5", "--out", out]
        assert_bad_input(*cli(capsys, *args), "cannot write", out)
    finally:
        ro.chmod(0o700)


def test_unreachable_cluster(tmp_path):
    """A subprocess: this module's own Ray session must not be the one reused."""
    out = tmp_path / "out"
    args = [*SIM, "--decks", "imperial,highland", "--games", "5", "--out", out]
    p = subprocess.run(
        kalarite(*args, "--address", "127.0.0.1:1"),
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert_bad_input(p.returncode, p.stdout, p.stderr, "cannot reach Ray at 127.0.0.1:1", out)


def test_study_bad_spec_cli(capsys, tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('decks = "all"\ngames = 0\n')
    out = tmp_path / "out"
    assert_bad_input(*cli(capsys, "study", spec, "--out", out), "'games'", out)
    assert_bad_input(
        *cli(capsys, "study", tmp_path / "nope.toml", "--out", out), "no such file", out
    )


def test_out_not_a_study(capsys, tmp_path):
    out = tmp_path / "full"
    out.mkdir()
    (out / "precious.txt").write_text("keep me")
    args = [*SIM, "--decks", "imperial,highland", "--games", "5", "--out", out]
    for extra in ([], ["--overwrite"]):
        rc, o, e = cli(capsys, *args, *extra)
        assert rc == 2 and "not empty" in e, e
    assert sorted(p.name for p in out.iterdir()) == ["precious.txt"]


# --- through Ray -----------------------------------------------------------------------------


def run(out, study=None, **kw):
    kw.setdefault("progress", False)
    return run_study(study or make_study(), CONTENT, out, **kw)


@pytest.fixture(scope="module")
def reference(ray_session, tmp_path_factory):
    """The test study played by one worker in chunks of 50."""
    out = tmp_path_factory.mktemp("ref") / "ref"
    summary = run(out, workers=1, chunk_size=50)
    assert summary.games_played == N_GAMES and summary.chunks == 8
    assert summary.max_in_flight == 1  # 1 worker in a 2-CPU session: one chunk at a time
    return out


def test_same_rows_with_any_workers_and_chunk_size(reference, tmp_path):
    out = tmp_path / "w2"
    summary = run(out, workers=2, chunk_size=37)
    assert summary.games_played == N_GAMES and summary.chunks == 4 * 2
    assert summary.max_in_flight <= 2 * 2  # bounded memory: at most 2 chunks per worker
    assert len(summary.worker_pids) < summary.chunks_played  # workers are reused
    assert_complete(out)
    assert_complete(reference)
    assert_same_data(reference, out)


def test_row_counts(reference):
    games = read_table(reference, "games")
    assert games.num_rows == N_GAMES
    per = {}
    for row in games.select(["mode", "matchup", "policies"]).to_pylist():
        key = (row["mode"], row["matchup"], row["policies"])
        per[key] = per.get(key, 0) + 1
    assert per == {
        (m, mu, "random-vs-random"): 60
        for m in ("high-form", "deathmatch")
        for mu in ("imperial-vs-highland", "sylvan-vs-sylvan")
    }
    ce = read_table(reference, "card_events")
    assert ce.num_rows > N_GAMES * 10  # every game draws cards
    # every card event and task claim belongs to a game of the same matchup
    keys = set(game_keys(reference))
    for table in ("card_events", "task_claims"):
        t = read_table(reference, table, columns=["mode", "matchup", "policies", "game_index"])
        cols = [t.column(c).to_pylist() for c in t.column_names]
        assert set(zip(*cols, strict=True)) <= keys
    # the per-seat task counters agree with the task_claims table
    claims = read_table(reference, "task_claims").num_rows
    g = games.to_pydict()
    assert claims == sum(g["seat0_tasks"]) + sum(g["seat1_tasks"])


def test_schema_and_metadata(reference):
    manifest = read_manifest(reference)
    assert manifest["status"] == "complete"
    assert manifest["engine_hash"] == ENGINE_HASH
    assert manifest["content_hash"] == CONTENT.content_hash
    assert manifest["study"] == make_study().to_dict()
    assert manifest["beings_without_effects"] is True
    assert manifest["games"] == N_GAMES and len(manifest["matchups"]) == 4
    for table in TABLES:
        files = sorted((reference / table).rglob("*.parquet"))
        assert len(files) == 8, table
        for f in files:
            rel = f.relative_to(reference / table).parts
            assert [p.split("=")[0] for p in rel[:-1]] == list(PARTITION_COLUMNS)
            schema = pq.read_schema(f)
            assert schema.remove_metadata().equals(SCHEMAS[table]), table
            md = {k.decode(): v.decode() for k, v in schema.metadata.items()}
            assert md["kalarite.table"] == table
            assert md["kalarite.engine_hash"] == ENGINE_HASH
            assert md["kalarite.content_hash"] == CONTENT.content_hash
            assert md["kalarite.beings_without_effects"] == "true"
            assert json.loads(md["kalarite.study"]) == make_study().to_dict()
        t = read_table(reference, table)
        assert t.column_names == SCHEMAS[table].names + list(PARTITION_COLUMNS)
        assert all(t.column("beings_without_effects").to_pylist())
    g = read_table(reference, "games").to_pydict()
    for i in range(N_GAMES):
        assert g["first_seat"][i] == g["game_index"][i] % 2
        assert g["winner"][i] in (-1, 0, 1)
        assert g["end_reason"][i] in K.END_NAMES[1:]
        assert g["error"][i] == 0
        deck0, deck1 = g["matchup"][i].split("-vs-")
        assert (g["seat0_deck"][i], g["seat1_deck"][i]) == (deck0, deck1)
        assert g["seat0_policy"][i] == g["seat1_policy"][i] == "random"
    ev = set(read_table(reference, "card_events", columns=["event"]).column(0).to_pylist())
    assert ev <= {"drawn", "summoned", "discarded", "returned", "flare-played", "thawed", "warped"}


def test_results_readme_documents_every_column():
    text = (ROOT / "results" / "README.md").read_text()
    for table, docs in COLUMN_DOCS.items():
        assert f"`{table}`" in text
        for col in [*docs, *PARTITION_COLUMNS]:
            name = re.sub(r"^seat[0-3]_", "seatN_", col)
            assert f"`{name}`" in text, f"{table}.{col} undocumented"
    for key in ("kalarite.engine_hash", "kalarite.content_hash", "kalarite.study", MANIFEST):
        assert key in text


def test_a_game_replays_with_play(reference):
    """(seed, game_index) of a row are what `kalarite play --seed --game` needs."""
    from core.layout import SCORE, TURN_NO
    from sim.single_game import GameConfig, play_logged

    g = read_table(reference, "games").to_pylist()
    for row in (g[0], g[-1]):
        decks = row["matchup"].split("-vs-")
        cfg = GameConfig(
            decks=decks,
            mode=row["mode"],
            seed=row["seed"],
            game_index=row["game_index"],
            turn_cap=row["turn_cap"],
            beings_without_effects=row["beings_without_effects"],
        )
        s, _ = play_logged(CONTENT, cfg)
        assert [int(s[SCORE]), int(s[SCORE + 1])] == [row["seat0_score"], row["seat1_score"]]
        assert int(s[TURN_NO]) == row["turns"]


def test_pandas_reads_it(reference):
    pd = pytest.importorskip("pandas")
    df = pd.read_parquet(reference / "games")
    assert len(df) == N_GAMES and set(PARTITION_COLUMNS) <= set(df.columns)
    assert (df.groupby("matchup", observed=True).size() == N_GAMES // 2).all()
    # two-seat games: nullable integers and booleans, categoricals for repeated strings
    assert str(df["seat2_score"].dtype) == "Int32" and df["seat2_score"].isna().all()
    assert str(df["seat3_won"].dtype) == "boolean" and str(df["winner"].dtype) == "Int8"
    for col in ("seat0_deck", "seat1_policy", "end_reason", "matchup"):
        assert isinstance(df[col].dtype, pd.CategoricalDtype), col
    ce = pd.read_parquet(reference / "card_events")
    assert isinstance(ce["card"].dtype, pd.CategoricalDtype)
    assert isinstance(ce["event"].dtype, pd.CategoricalDtype)


def test_in_process_run_plays_the_same_games(reference, tmp_path):
    """workers=0: no Ray, the same rows."""
    out = tmp_path / "inproc"
    summary = run(out, workers=0, chunk_size=45)
    assert summary.workers == 0 and summary.worker_pids == {os.getpid()}
    assert_complete(out)
    assert_same_data(reference, out)


def test_polars_reads_it(reference):
    pl = pytest.importorskip("polars")
    games = pl.scan_parquet(reference / "games").collect()
    assert games.height == N_GAMES and set(PARTITION_COLUMNS) <= set(games.columns)
    assert pl.read_parquet(reference / "card_events" / "**" / "*.parquet").height > N_GAMES


def test_duckdb_reads_it(reference):
    duckdb = pytest.importorskip("duckdb")
    rows = duckdb.sql(
        f"select mode, count(*) from read_parquet('{reference}/games/**/*.parquet', "
        "hive_partitioning = true) group by mode order by mode"
    ).fetchall()
    assert rows == [("deathmatch", N_GAMES // 2), ("high-form", N_GAMES // 2)]
    md = duckdb.sql(
        f"select value from parquet_kv_metadata('{reference}/games/**/*.parquet') "
        "where key = 'kalarite.engine_hash'"
    ).fetchall()
    assert {bytes(v).decode() for (v,) in md} == {ENGINE_HASH}


def test_resume_after_interrupt(reference, tmp_path, monkeypatch):
    out = tmp_path / "resume"
    monkeypatch.setenv("KALARITE_TEST_INTERRUPT_AFTER", "3")
    with pytest.raises(StudyInterrupted) as e:
        run(out, workers=2, chunk_size=20)
    assert e.value.summary.chunks_played == 3
    manifest = read_manifest(out)
    assert manifest["status"] == "running" and manifest["runs"][-1]["status"] == "interrupted"
    assert len(game_keys(out)) == 3 * 20
    # a finished-but-unwritten dataset is not "finished": same command resumes
    monkeypatch.delenv("KALARITE_TEST_INTERRUPT_AFTER")
    summary = run(out, workers=2, chunk_size=1000)  # the dataset keeps its chunk size
    assert summary.chunks_skipped == 3 and summary.games_skipped == 60
    assert summary.chunks_played == summary.chunks - 3 == 12 - 3
    assert summary.games_played == N_GAMES - 60
    assert_complete(out)
    assert [r["status"] for r in read_manifest(out)["runs"]] == ["interrupted", "complete"]
    assert_same_data(reference, out)


def test_worker_killed_mid_study(reference, tmp_path, monkeypatch):
    out = tmp_path / "killed"
    marker = tmp_path / "killed-once"
    monkeypatch.setenv("KALARITE_TEST_KILL_CHUNK", "1")
    monkeypatch.setenv("KALARITE_TEST_KILL_MARKER", str(marker))
    summary = run(out, workers=2, chunk_size=30)
    assert marker.exists(), "the worker of chunk 1 did not die"
    assert summary.chunks_played == summary.chunks == 8
    assert_complete(out)
    assert_same_data(reference, out)


def test_a_chunk_that_fails_for_good(reference, tmp_path, monkeypatch):
    """An error inside the worker is not retried: the study stops with StudyFailed, the
    dataset stays resumable, and the same study then completes."""
    out = tmp_path / "failed"
    monkeypatch.setenv("KALARITE_TEST_KILL_CHUNK", "1")
    # the worker cannot create its marker here: it raises instead of dying
    monkeypatch.setenv("KALARITE_TEST_KILL_MARKER", str(tmp_path / "missing" / "marker"))
    with pytest.raises(StudyFailed, match="chunk 1 of mode=high-form/matchup=imperial-vs-highland"):
        run(out, workers=2, chunk_size=30)
    assert read_manifest(out)["runs"][-1]["status"] == "failed"
    monkeypatch.delenv("KALARITE_TEST_KILL_CHUNK")
    summary = run(out, workers=2, chunk_size=30)
    assert summary.chunks_played + summary.chunks_skipped == 8
    assert_complete(out)
    assert_same_data(reference, out)


def test_players_with_parameters(ray_session, tmp_path):
    """Each seat its own player; a parameterized spec gets a directory-safe label."""
    mc = "mc:playouts=2:horizon=1:candidates=2"
    study = make_study(
        decks=[["imperial", "highland"]],
        modes=["high-form"],
        policies=[["greedy", "random"], [mc, "random"]],
        games=4,
    )
    out = tmp_path / "players"
    run(out, study, workers=2)
    g = read_table(out, "games").to_pydict()
    pairs = set(zip(g["policies"], g["seat0_policy"], g["seat1_policy"], strict=True))
    assert pairs == {
        ("greedy-vs-random", "greedy", "random"),
        ("mc.playouts_2.horizon_1.candidates_2-vs-random", mc, "random"),
    }
    assert policy_label(mc) == "mc.playouts_2.horizon_1.candidates_2"


def test_finished_dataset_is_kept_unless_overwrite(ray_session, tmp_path):
    study = make_study(games=10, decks=[["imperial", "highland"]], modes=["high-form"])
    out = tmp_path / "done"
    run(out, study, workers=1)
    before = read_manifest(out)
    assert run(out, study, workers=1).nothing_to_do  # the same study: nothing to do
    with pytest.raises(StoreError, match="finished different study.*--overwrite"):
        run(out, make_study(games=11, decks=[["imperial", "highland"]]), workers=1)
    assert read_manifest(out) == before
    summary = run(out, make_study(games=12, decks=[["imperial", "highland"]]), overwrite=True)
    assert summary.games_played == 24
    assert read_manifest(out)["games"] == 24 and len(game_keys(out)) == 24


def test_unfinished_different_study_is_refused(ray_session, tmp_path, monkeypatch):
    out = tmp_path / "other"
    monkeypatch.setenv("KALARITE_TEST_INTERRUPT_AFTER", "1")
    with pytest.raises(StudyInterrupted):
        run(out, make_study(games=40), workers=1, chunk_size=10)
    monkeypatch.delenv("KALARITE_TEST_INTERRUPT_AFTER")
    with pytest.raises(StoreError, match="different study"):
        run(out, make_study(games=40, seed=8), workers=1)


# --- the real command ----------------------------------------------------------------------


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("RAY_ADDRESS", None)
    return env


def kalarite(*argv):
    return [sys.executable, "-m", "sim.app.cli", *map(str, argv)]


def test_cli_simulate_on_an_existing_cluster(ray_session, tmp_path):
    out = tmp_path / "cli"
    address = ray_session.get_runtime_context().gcs_address
    args = ["simulate", "--decks", "imperial,highland", "--mode", "deathmatch", "--games", "50"]
    args += ["--policy", "random"]
    args += ["--seed", "3", "--beings-without-effects", "--chunk-size", "20", "--workers", "2"]
    p = subprocess.run(
        kalarite(*args, "--out", out, "--address", address),
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 1, p.stdout
    assert re.match(
        r"^kalarite: 50 games in [\d.]+ s \([\d.]+ s starting Ray, "
        r"([\d.]+ s starting workers, )?[\d.]+ s playing\), "
        r"[\d,]+ games/s, 2 workers -> ",
        lines[0],
    )
    assert str(out) in lines[0]
    assert_complete(out, 50)
    # the same games as an in-process run of the same study
    same = tmp_path / "same"
    study = make_study(
        decks=[["imperial", "highland"]], modes=["deathmatch"], games=50, seed=3, name="simulate"
    )
    run(same, study, workers=1)
    assert_same_data(out, same)
    # again: the finished study has nothing to do (exit 0); another one needs --overwrite
    before = read_manifest(out)
    p = subprocess.run(
        kalarite(*args, "--out", out, "--address", address),
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0 and p.stdout.startswith("kalarite: nothing to do: "), p.stderr
    assert read_manifest(out) == before
    p = subprocess.run(
        kalarite(*args, "--seed", "4", "--out", out, "--address", address),
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 2 and p.stderr.startswith("kalarite: error: ")
    assert "--overwrite" in p.stderr and len(p.stderr.splitlines()) == 1


def test_cli_ctrl_c_then_resume(ray_session, tmp_path):
    """Ctrl-C (SIGINT to the kalarite process) during a local-Ray study stops it cleanly; the
    same command again resumes and skips the finished chunks.

    Sent to the whole process group (as a terminal does), the signal also reaches Ray's own
    daemons, and Ray's core then sometimes aborts the driver (exit 1, "unexpected system
    state" in task_manager.cc) instead of letting it stop: the dataset is still resumable
    (chunks are written atomically), but the exit status is Ray's, so the test signals the
    driver alone."""
    spec = tmp_path / "s.toml"
    spec.write_text(
        'decks = [["imperial", "highland"]]\nmodes = "high-form"\ngames = 3000\nseed = 5\n'
        'policies = "random"\n'
        "beings_without_effects = true\nchunk_size = 50\n"
    )
    out = tmp_path / "ctrlc"
    hold = tmp_path / "hold"  # the runner waits after its first chunk while this exists
    hold.touch()
    proc = subprocess.Popen(
        kalarite("study", spec, "--out", out, "--workers", "2"),
        cwd=ROOT,
        env={**_env(), "KALARITE_TEST_HOLD_FILE": str(hold)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    games = out / "games"

    def first_chunk():
        assert proc.poll() is None, proc.communicate()  # held: it cannot have finished
        return games.exists() and len(list(games.rglob("part-*.parquet"))) >= 1

    wait_for(first_chunk, 600, "the first chunk")
    os.kill(proc.pid, signal.SIGINT)  # ends the hold too
    stdout, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 130, (stdout, stderr)
    assert "interrupted" in stderr and "Traceback" not in stderr, stderr
    # acknowledged at once, before the chunks in flight were finished
    ack = stderr.index("kalarite: Ctrl-C: stopping once the")
    assert ack < stderr.index("kalarite: interrupted:")
    # not a terminal: plain progress lines
    assert re.search(r"^kalarite: [\d,]+ of 3,000 games \(\d+%\)", stderr, re.M)
    manifest = read_manifest(out)
    assert manifest["status"] == "running"
    finished = len(list(games.rglob("part-*.parquet")))
    assert 1 <= finished < 60  # the held chunk and those in flight
    # resume on the module's Ray session (faster than starting another)
    address = ray_session.get_runtime_context().gcs_address
    p = subprocess.run(
        kalarite("study", spec, "--out", out, "--address", address),
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr
    assert "from an earlier run" in p.stdout
    assert_complete(out, 3000)
    assert not list(out.rglob(".*.tmp"))
    runs = read_manifest(out)["runs"]
    assert [r["status"] for r in runs] == ["interrupted", "complete"]
    assert runs[1]["chunks_played"] == 60 - finished
    assert np.all(np.diff(sorted(k[3] for k in game_keys(out))) == 1)


# --- resume checks every chunk it counts as done (in this process: the check is the driver's)

RESUME = ["simulate", "--decks", "imperial,highland", "--mode", "high-form", "--policy", "random"]
RESUME += ["--games", "30", "--chunk-size", "10", "--seed", "4", "--workers", "0"]
PARTITION = "mode=high-form/matchup=imperial-vs-highland/policies=random-vs-random"


def _part(out, table, chunk):
    return out / table / PARTITION / f"part-{chunk:05d}.parquet"


def _truncate(out):
    p = _part(out, "games", 1)
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    return "games file unreadable"


def _garbage(out):
    _part(out, "card_events", 1).write_bytes(b"this is not parquet\n" * 200)
    return "card_events file unreadable"


def _other_chunk(out):  # readable, right row count, wrong games
    _part(out, "games", 1).write_bytes(_part(out, "games", 0).read_bytes())
    return "games file holds games 0..9, the chunk 10..19"


def _short(out):  # readable, too few rows (a chunk of another chunk size)
    p = _part(out, "games", 1)
    pq.write_table(pq.read_table(p).slice(0, 4), p)
    return "games file has 4 rows, the chunk 10 games"


def _no_events(out):
    p = _part(out, "card_events", 1)
    pq.write_table(pq.read_table(p).slice(0, 0), p)
    return "card_events file has no rows"


@pytest.mark.parametrize("damage", [_truncate, _garbage, _other_chunk, _short, _no_events])
def test_resume_replays_a_damaged_chunk_and_says_which(capsys, tmp_path, damage):
    """A finished study with one chunk file damaged: the same command names the chunk and
    why, plays it again, and the study holds exactly its games (the same rows as before)."""
    out = tmp_path / "s"
    rc, o, e = cli(capsys, *RESUME, "--out", out)
    assert rc == 0, e
    before = {t: canonical(out, t) for t in TABLES}
    why = damage(out)
    rc, o, e = cli(capsys, *RESUME, "--out", out)
    assert rc == 0, e
    said = [line for line in e.splitlines() if "replaying" in line]
    assert len(said) == 1, e
    assert said[0].startswith(f"kalarite: chunk 1 of {PARTITION} (games 10..): {why}"), e
    assert said[0].endswith(": replaying it"), e
    assert "the finished study had lost or damaged 1 chunk: 10 games played again" in o
    assert_complete(out, 30)
    for t in TABLES:
        assert canonical(out, t).equals(before[t]), t
    rc, o, e = cli(capsys, *RESUME, "--out", out)
    assert rc == 0 and o.startswith("kalarite: nothing to do") and "replaying" not in e


def test_resume_of_an_unfinished_study_replays_damaged_chunks_and_report_works(
    capsys, tmp_path, monkeypatch
):
    """Interrupted after 2 chunks, one of them then damaged (a full disk, say): the rerun
    plays 2 of 3 chunks, the study completes with exactly 30 games and the report reads it."""
    out = tmp_path / "s"
    monkeypatch.setenv("KALARITE_TEST_INTERRUPT_AFTER", "2")
    rc, o, e = cli(capsys, *RESUME, "--out", out)
    assert rc == 130, e
    monkeypatch.delenv("KALARITE_TEST_INTERRUPT_AFTER")
    _part(out, "games", 0).write_bytes(b"PAR1")  # cut short after its first four bytes
    rc, o, e = cli(capsys, *RESUME, "--out", out)
    assert rc == 0, e
    assert f"kalarite: chunk 0 of {PARTITION} (games 0..): games file unreadable" in e
    assert o.startswith("kalarite: 30 games (10 from an earlier run)"), o
    assert_complete(out, 30)
    rc, o, e = cli(capsys, "report", out)
    assert rc == 0, e
    assert "kalarite: writing the report: " in e  # (the report says where it stands)
    assert "report of 30 games" in o and (out / "report" / "index.html").is_file()


def test_a_full_disk_stops_the_study_with_status_1_and_the_same_command_completes_it(
    capsys, tmp_path, monkeypatch
):
    """Writing chunk 1 fails with ENOSPC after its first bytes: one error line, exit status 1
    (the input was fine and the run can be resumed, unlike status 2), no partial or temporary
    file left; once space is back the same command plays only what is missing and ends with
    exactly 30 games."""
    import builtins
    import errno

    import results.store as store

    out = tmp_path / "s"
    full = {"names": {".part-00001.parquet.tmp"}}

    class FullDisk:
        def __init__(self, path):
            self.f = builtins.open(path, "wb")

        def write(self, data):
            self.f.write(data[:4])  # the start of the file made it to disk
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    def open_on_a_full_disk(path, mode="r", *a, **k):
        if "w" in mode and pathlib.Path(path).name in full["names"]:
            return FullDisk(path)
        return builtins.open(path, mode, *a, **k)

    monkeypatch.setattr(store, "open", open_on_a_full_disk, raising=False)
    rc, o, e = cli(capsys, *RESUME, "--out", out)
    assert rc == 1, e
    lines = [x for x in e.splitlines() if x.startswith("kalarite: error:")]
    assert lines == [
        f"kalarite: error: cannot write chunk 1 of {PARTITION}: No space left on device; "
        "run the same command again to resume"
    ], e
    assert not _part(out, "games", 1).exists() and not _part(out, "card_events", 1).exists()
    assert not list(out.rglob("*.tmp")), "a temporary file was left behind"
    assert read_manifest(out)["status"] != "complete"

    full["names"].add(".study.json.tmp")  # the manifest cannot be written either
    rc, o, e = cli(capsys, *RESUME, "--out", out)
    assert rc == 1, e
    assert "No space left on device; run the same command again to resume" in e
    assert not list(out.rglob("*.tmp")), "a temporary file was left behind"

    monkeypatch.undo()  # space is back
    rc, o, e = cli(capsys, *RESUME, "--out", out)
    assert rc == 0, e
    assert_complete(out, 30)
