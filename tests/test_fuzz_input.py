"""Untrusted input never reaches the engine unchecked (issue 27).

Card files, position files and study specs come from designers and from the service's users,
and the engine is compiled without bounds checks. Two defences are tested here:

- the loaders check every value's type and range (a fixed, seeded sample of mutants of every
  file of sim/data, of position files and of specs: each loads and plays, or is refused with
  one ``kalarite: error:`` line naming the file, exit status 2; a few in a real process, so a
  signal or a traceback would show);
- a proof over the compiled tables (core.checks.tables_proof) that every index the engine
  reads is in range, run by load_content: a corrupted compiled array is refused, naming it.

The longer run of the same fuzzer is ``make fuzz`` (benchmarks/fuzz_input.py).
"""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from fastapi.testclient import TestClient

import sim.content as content_module
from benchmarks import numeric_extremes as numeric
from benchmarks.input_mutants import (
    DATA_FILES,
    STRUCTURAL,
    check_service,
    judge,
    mutants,
    run_in_process,
)
from benchmarks.input_mutants import commands as mutant_commands
from core import constants as K
from core import ops as O
from core.checks.tables_proof import TablesProofError, prove_tables
from sim.app.cli import main
from sim.app.service.app import create_app
from sim.app.service.config import ServiceConfig
from sim.content import ContentError, load_content, parse_pattern

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOKEN = "fuzz-token-0123"
SEED = 27
N_CONTENT = N_POSITIONS = N_SPECS = 30  # mutants of each kind (make fuzz runs many more)
CONTENT = load_content()
T = CONTENT.tables


# --- the proof over the compiled tables -----------------------------------------------------


def test_the_proof_accepts_the_shipped_tables():
    prove_tables(T)  # raises on any violation


def _first(kind):
    return int(np.flatnonzero(T.card_kind == kind)[0])


def _op_row(code):
    return int(np.flatnonzero(T.ops[:, O.I_OP] == code)[0])


def _choose_row():
    return _op_row(O.OP_CHOOSE)


def _set(field, index, value):
    def change(arrays):
        arrays[field][index] = value

    return change


CORRUPTIONS = [
    ("nbr", _set("nbr", (40, 0), 81)),
    ("nbr", _set("nbr", (40, 3), -2)),
    ("dist", _set("dist", (0, 80), 100)),
    ("onboard", _set("onboard", 5, 0)),
    ("sq_color", _set("sq_color", 40, 7)),
    ("duel_start", _set("duel_start", 0, -1)),
    ("melee_start", _set("melee_start", (2, 1), 0)),  # a void corner square
    ("side_id", _set("side_id", 4, 9)),
    ("card_kind", _set("card_kind", 0, 5)),
    ("card_deck", _set("card_deck", 0, 99)),
    ("card_rank", _set("card_rank", 0, 4)),
    ("card_or_start", _set("card_or_start", 0, 10**6)),
    ("card_or_n", _set("card_or_n", 0, 10**6)),
    ("card_eff_end", _set("card_eff_end", 0, 10**6)),
    ("card_eff2_start", _set("card_eff2_start", 0, -1)),
    ("card_deck_pos", _set("card_deck_pos", 0, 40)),
    ("card_or_n", _set("card_det_n", 0, 1)),  # a plain and a detached pattern
    ("card_has_warp", _set("card_has_warp", _first(K.CK_FLARE), 1)),
    ("or_card", _set("or_card", 0, 10**6)),
    ("or_ncells", _set("or_ncells", 0, 13)),
    ("or_cells", _set("or_cells", (0, 0, 1), 9)),  # COLS_OK[d_col + 8] would overrun
    ("or_cells", _set("or_cells", (0, 0, 0), -9)),  # a bitboard shift beyond the board
    ("or_cells", _set("or_cells", (0, 0, 2), 4)),
    ("or_marks", _set("or_marks", (0, 0, 2), 5)),
    ("or_sym", _set("or_sym", 0, 8)),
    ("ops[I_OP]", _set("ops", (0, O.I_OP), O.N_OPS)),
    ("ops[I_WHO]", _set("ops", (0, O.I_WHO), len(O.WHO_NAMES))),
    ("ops[I_MOVE_KIND]", _set("ops", (0, O.I_MOVE_KIND), 4)),
    ("ops[I_MOVE_TYPE]", _set("ops", (0, O.I_MOVE_TYPE), -1)),
    ("ops[I_RANKS]", _set("ops", (0, O.I_RANKS), 1)),
    ("ops[I_REGION]", _set("ops", (0, O.I_REGION), 1 << 30)),
    ("ops[I_DIST]", _set("ops", (0, O.I_DIST), 9)),
    ("ops[I_SUPPORT]", _set("ops", (0, O.I_SUPPORT), 9)),
    ("ops[I_PARAM]", _set("ops", (_op_row(O.OP_PLACE), O.I_PARAM), 4)),
    ("ops[I_PARAM2]", _set("ops", (0, O.I_PARAM2), -1)),
    ("ops[I_ALTS]", _set("ops", (_choose_row(), O.I_ALTS), 200)),
    ("ops[I_ALTS]", _set("ops", (_op_row(O.OP_PLACE), O.I_ALTS), 2)),
    ("ops[I_COND2]", _set("ops", (0, O.I_COND2), 1 << 20)),
    ("deck_cards", _set("deck_cards", (0, 3), _first(K.CK_FLARE))),
    ("deck_cards", _set("deck_cards", (1, 0), -1)),
    ("deck_size", _set("deck_size", 0, 19)),
    ("legend_cards", _set("legend_cards", 0, 0)),
    ("flare_cards", _set("flare_cards", 0, 10**6)),
    ("task_kind", _set("task_kind", 0, 100)),
    ("task_type", _set("task_type", 3, -1)),
    ("task_args", _set("task_args", (2, 1), -5)),
    ("task_points", _set("task_points", 0, 0)),
]


@pytest.mark.parametrize("field,change", CORRUPTIONS, ids=[f for f, _ in CORRUPTIONS])
def test_the_proof_refuses_a_corrupted_table_naming_the_field(field, change):
    arrays = {k: v.copy() for k, v in T._asdict().items()}
    change(arrays)
    with pytest.raises(TablesProofError) as err:
        prove_tables(type(T)(**arrays))
    msg = str(err.value)
    assert "\n" not in msg
    assert f"compiled tables: {field}:" in msg, msg


def test_a_field_of_the_wrong_dtype_or_shape_is_refused():
    for field, value in (
        ("ops", T.ops.astype(np.int64)),
        ("legend_cards", np.zeros(17, np.int32)),
        ("task_args", T.task_args[:, :3].copy()),
    ):
        with pytest.raises(TablesProofError, match=f"compiled tables: {field}:"):
            prove_tables(T._replace(**{field: value}))


def test_load_content_runs_the_proof_and_refuses_in_one_line(monkeypatch, data_copy):
    real = content_module._compile

    def corrupt(*args):
        tables = real(*args)
        bad = tables.or_cells.copy()
        bad[0, 0, 1] = 12
        return tables._replace(or_cells=bad)

    monkeypatch.setattr(content_module, "_compile", corrupt)
    with pytest.raises(ContentError) as err:
        load_content(str(data_copy))
    assert "compiled tables: or_cells: offsets must lie in -8..8" in str(err.value)
    assert "\n" not in str(err.value)


# --- the loaders' own checks (defects the fuzzer found) ---------------------------------


@pytest.mark.parametrize(
    "file,old,new,words",
    [
        # the reported traceback: a string value replaced by a table
        ("imperial.toml", 'id = "swordmaster"', "id = { a = 1 }", ["imperial.toml", "card '#1'"]),
        ("imperial.toml", 'rank = "common"', "rank = { a = 1 }", ["swordmaster", "bad rank"]),
        ("imperial.toml", 'region = "diagonal"', "region = { a = 1 }", ["swordmaster", "region"]),
        ("imperial.toml", '"* c *",', "{ a = 1 },", ["swordmaster", "pattern"]),
        ("imperial.toml", 'if = ["done", "destroyed"]', "if = [{ a = 1 }]", ["condition"]),
        ("imperial.toml", "optional = true", "optional = 1", ["swordmaster", "optional"]),
        ("imperial.toml", 'name = "Swordmaster"', "name = 7", ["swordmaster", "name"]),
        ("imperial.toml", 'id = "swordmaster"', 'id = "swordmaster"\ncolour = "red"', ["colour"]),
        ("flares.toml", "upgraded = 3", 'upgraded = "3"', ["flares.toml", "f36", "upgraded"]),
        ("flares.toml", "upgraded = 3", "upgraded = 1099511627776", ["f36", "upgraded"]),
        ("flares.toml", "pieces = 6", "pieces = true", ["f36", "pieces"]),
        ("tasks.toml", "args = [3, 0]", "args = [3, -1]", ["tasks.toml", "Destruction", "args"]),
        ("tasks.toml", "points = 1", "points = { a = 1 }", ["Destruction", "points"]),
        ("tasks.toml", 'type = "destruction"', "type = [1]", ["Destruction", "unknown type"]),
        ("board.toml", "duel_start = [[4, 2], [4, 6]]", "duel_start = [[4, 2]]", ["duel_start"]),
        ("board.toml", "duel_start = [[4, 2], [4, 6]]", "duel_start = [[0, 0], [4, 6]]", ["duel"]),
        ("board.toml", "central = [[3, 3]", "central = [[3, 1099511627776]", ["board.toml"]),
        ("board.toml", "[corners]", "[corner]", ["board.toml", "corner"]),
        ("board.toml", '"##.....##",', '"##..x..##",', ["board.toml", "'x'"]),
        ("legends.toml", 'deck = "legends"', 'deck = "imperial"', ["legends.toml"]),
        ("highland.toml", 'deck = "highland"', 'deck = "imperial"', ["highland.toml", "taken"]),
    ],
)
def test_a_value_of_the_wrong_type_or_range_is_one_line(data_copy, file, old, new, words):
    path = data_copy / file
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ContentError) as err:
        load_content(str(data_copy))
    msg = str(err.value)
    assert "\n" not in msg
    for w in [file] + words:
        assert w in msg, msg


def test_a_pattern_larger_than_the_board_is_refused():
    with pytest.raises(ContentError, match="x.toml: card 'big': pattern must be 1 to 9 rows"):
        parse_pattern([". c ."] * 9 + ["c @ ."], pathlib.Path("x.toml"), "big")
    with pytest.raises(ContentError, match="of 1 to 9 cells"):
        parse_pattern([" ".join(["c"] * 10), " ".join(["@"] + ["."] * 9)], pathlib.Path("x"), "w")


def test_a_choice_number_beyond_int32_is_refused(data_copy):
    path = data_copy / "sylvan.toml"
    text = path.read_text()
    assert '"choice-1"' in text
    path.write_text(text.replace('"choice-1"', '"choice-99999999999"', 1))
    with pytest.raises(ContentError, match="choice-N takes N in 0..15"):
        load_content(str(data_copy))


# --- the fuzzer: a fixed sample, in process -------------------------------------------------


def _run_all(sample, tmp_path):
    results = []
    for i, m in enumerate(sample):
        where = tmp_path / f"m{i}"
        where.mkdir()
        results.append((m, *run_in_process(m, where)))
    failures = [f"{m.file} ({m.what}): {detail}" for m, o, detail in results if o == "failure"]
    assert not failures, "\n".join(failures)
    return [o for _, o, _ in results]


def test_content_mutants_load_and_play_or_are_refused_in_one_line(tmp_path):
    sample = mutants(SEED, N_CONTENT, kinds=("content",), structural=0)
    assert {m.file for m in sample} == set(DATA_FILES)  # every data file gets mutants
    outcomes = _run_all(sample, tmp_path)
    assert outcomes.count("played") >= 3 and outcomes.count("refused") >= 15, outcomes


def test_position_mutants_give_moves_or_one_line(tmp_path):
    outcomes = _run_all(mutants(SEED, N_POSITIONS, kinds=("position",), structural=0), tmp_path)
    assert "played" in outcomes and outcomes.count("refused") >= 15, outcomes


def test_spec_mutants_run_or_are_refused_by_the_cli_and_the_service(tmp_path):
    sample = mutants(SEED, N_SPECS, kinds=("spec",), structural=0)
    results = []
    for i, m in enumerate(sample):
        where = tmp_path / f"m{i}"
        where.mkdir()
        service = check_service(m, tmp_path / "content-root")
        assert service[0] != "failure", f"{m.what}: {service[1]}"
        if i < 8:  # a few play their study through `kalarite study`
            results.append(run_in_process(m, where))
        else:  # the rest only as far as the spec check (the games cost time)
            results.append(_validate_spec(m, where))
        assert results[-1][0] != "failure", f"{m.what}: {results[-1][1]}"
    outcomes = [o for o, _ in results]
    assert "played" in outcomes[:8] and outcomes.count("refused") >= 8, outcomes


def _validate_spec(m, where):
    """The spec mutant through load_study, judged as the CLI would print its error."""
    from sim.study import load_study

    mutant_commands(m, where)
    try:
        load_study(where / m.file)
    except ValueError as e:  # StudyError, ContentError: the CLI prints one line, exit 2
        return judge(m, 2, "", f"kalarite: error: {' '.join(str(e).split())}\n")
    return "played", ""


def test_structural_mutants_are_refused_in_one_line_or_read_past(tmp_path):
    """Nesting thousands deep (arrays, inline tables, dotted keys), huge values and files and
    odd encodings, for every kind of input, through the CLI and (specs) the service as TOML
    and JSON: each refused in one line naming the file, but for the UTF-8 byte-order mark,
    which is read past (the file then does what its original does), and a long string where
    any string goes."""
    sample = mutants(SEED, 0, structural=len(STRUCTURAL))
    assert len(sample) == 3 * len(STRUCTURAL)
    for i, m in enumerate(sample):
        where = tmp_path / f"s{i}"
        where.mkdir()
        outcome, detail = run_in_process(m, where)
        assert outcome != "failure", f"{m.kind} {m.file} ({m.what}): {detail}"
        readable = m.what in ("utf-8-bom", "long-string") or (
            m.what == "long-list" and m.file == "board.toml"
        )
        if m.what == "utf-8-bom":  # read past: whatever the file says decides, not its bytes
            assert "valid TOML" not in detail and "Invalid" not in detail, detail
        elif not readable:
            assert outcome == "refused", f"{m.kind} {m.file} ({m.what}) was not refused"
        if m.kind == "spec":
            service = check_service(m, tmp_path / "content-root")
            assert service[0] == ("played" if m.what == "utf-8-bom" else "refused"), service
            assert "nested" in service[1] or not m.what.startswith(("nested", "dotted"))


# --- numeric extremes: every number flag, file number and route (issue 50) ----------------

# the issue's own cases, always run: a player's setting of 1e400 through the command line, a
# spec and a goal (each was an OverflowError traceback, and HTTP 500 in the service)
ISSUE_CASES = ("play --policy", "study policies", "suggest --policy", "suggest players.screen")
CHEAP = ("play", "moves", "report", "compare", "learn")  # their accepted values run in a second


def test_every_command_is_in_the_numeric_corpus():
    """A new command or number flag is covered without a change to the corpus; a command
    without a small command line of its own fails here."""
    import argparse

    from sim.app.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(numeric.bases()) == set(sub.choices)
    flags = numeric.number_flags(parser)
    for command in ("play", "simulate", "study", "trace", "report", "serve", "ladder", "tune"):
        assert flags[command], command
    assert ("--policy", "player") in flags["play"] and ("--l2", "float") in flags["learn"]
    places = {(c.target, c.place) for c in numeric.cli_cases(numeric.MUST_REFUSE)}
    assert {("study", "policies"), ("suggest", "--band"), ("learn", "weights")} <= places


def test_numeric_extremes_end_in_one_line_never_a_traceback_or_a_500(tmp_path):
    """A seeded sample of the corpus (``make fuzz`` runs all of it): NaN, the infinities,
    1e400, 41 digits and 2**64 refused in one line naming the flag or key; -0, 0, -1, 0.5,
    1e-400 and 2**63 refused so or taken; every service route answers 4xx JSON, never 5xx."""
    refuse = numeric.sample(numeric.cli_cases(numeric.MUST_REFUSE), 120, SEED, ISSUE_CASES)
    accept = [c for c in numeric.cli_cases(numeric.MAY_ACCEPT) if c.target in CHEAP]
    picked = refuse + numeric.sample(accept, 30, SEED)
    assert sum(c.label().startswith(ISSUE_CASES) for c in picked) >= 4 * len(ISSUE_CASES)
    outcomes = []
    for i, case in enumerate(picked):
        where = tmp_path / f"n{i}"
        where.mkdir()
        outcome, detail = numeric.run_in_process(case, where)
        assert outcome != "failure", f"{case.label()}: {detail}"
        outcomes.append(outcome)
    assert outcomes[: len(refuse)].count("refused") == len(refuse)
    assert "accepted" in outcomes[len(refuse) :]
    config = ServiceConfig(data=tmp_path / "data", token=TOKEN, address="127.0.0.1:9")
    with TestClient(
        create_app(config),
        headers={"authorization": f"Bearer {TOKEN}"},
        raise_server_exceptions=False,
    ) as client:
        answers = [(c, *numeric.run_service(c, client)) for c in numeric.service_cases()]
    failed = [f"{c.label()} ({c.content_type}): {d}" for c, o, d in answers if o == "failure"]
    assert not failed, "\n".join(failed)
    assert {c.path for c, o, _ in answers if o == "refused"} >= {
        "/api/v1/specs/check",
        "/api/v1/studies",
        "/api/v1/suggestions",
    }


# --- a few in a real process: no signal, no traceback -----------------------------------


def test_a_few_mutants_in_a_real_process(tmp_path):
    """A refused content mutant, a refused position and spec, and one that plays, each as a
    real `kalarite` process (the in-process runs above could not see a signal)."""
    picked, probes = [], iter(range(10**6))
    for kind in ("content", "position", "spec"):
        for m in mutants(SEED + 1, 12, kinds=(kind,), structural=0):
            where = tmp_path / f"probe{next(probes)}"
            where.mkdir()
            if run_in_process(m, where)[0] == "refused":
                picked.append(m)
                break
    for m in mutants(SEED, N_POSITIONS, kinds=("position",), structural=0):
        where = tmp_path / f"probe{next(probes)}"
        where.mkdir()
        if run_in_process(m, where)[0] == "played":
            picked.append(m)
            break
    assert len(picked) == 4
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for i, m in enumerate(picked):
        where = tmp_path / f"real{i}"
        where.mkdir()
        for argv in mutant_commands(m, where):
            p = subprocess.run(
                [sys.executable, "-m", "sim.app.cli", *argv],
                capture_output=True,
                text=True,
                timeout=300,
                cwd=where,
                env=env,
            )
            assert p.returncode >= 0, f"signal {-p.returncode}: {m.what}"
            outcome, detail = judge(m, p.returncode, p.stdout, p.stderr)
            assert outcome != "failure", f"{m.what}: {detail}"
            if outcome == "refused":
                assert p.returncode == 2 and p.stderr.count("\n") == 1
                assert "Traceback" not in p.stderr
                break


def test_main_is_the_path_the_fuzzer_judges(tmp_path, capsys):
    """The judge's view of one refusal agrees with what main prints and returns."""
    (tmp_path / "p.toml").write_text("mode = { a = 1 }\nto_move = 0\n")
    rc = main(["moves", str(tmp_path / "p.toml")])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("kalarite: error: ") and err.count("\n") == 1
    assert "p.toml" in err


def test_a_spec_chunk_size_beyond_the_largest_chunk_names_the_spec(tmp_path, capsys):
    """Found by `make fuzz`: the spec's chunk_size was refused later, as if --chunk-size."""
    spec = tmp_path / "big.toml"
    spec.write_text('decks = ["imperial"]\ngames = 2\npolicies = "random"\nchunk_size = 2000000\n')
    rc = main(["study", str(spec), "--out", str(tmp_path / "out"), "--workers", "0"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert "big.toml: 'chunk_size' must be an integer in 1..20,000" in err, err
    assert not (tmp_path / "out").exists()
