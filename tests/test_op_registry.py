"""core.ops.OPS, the one declaration of each op, against the loader and sim/data/README.md."""

import pathlib
import re
import tomllib

import pytest

import core.ops as O
from core.checks.dispatch_proof import (
    CORE,
    DispatchProofError,
    dispatch_table,
    prove_dispatch,
    prove_dispatch_once,
)
from core.checks.tables_proof import TablesProofError, prove_tables
from sim.content import ContentError, load_content
from sim.content.ops import OP_CODES, OP_KEYS, OpError, compile_ops

README = pathlib.Path(__file__).resolve().parents[1] / "sim" / "data" / "README.md"


def _op_table():
    """{op name: (what it does, example, the row's op names)} from the README's table under
    "### Ops" (a row may document two ops: `upgrade` / `downgrade`)."""
    text = README.read_text()
    body = text[text.index("### Ops") :]
    body = body[: body.index("\n\n", body.index("| --- |"))]
    rows = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 3 or cells[0] in ("op", "---"):
            continue
        names = re.findall(r"`([a-z0-9-]+)`", cells[0])
        for name in names:
            assert name not in rows, f"{name} has two rows in the op table"
            rows[name] = (cells[1], cells[2], names)
    return rows


def test_codes_and_names_line_up():
    assert [s.code for s in O.OPS] == list(range(O.N_OPS))
    assert O.OP_NAMES == tuple(s.name for s in O.OPS)
    assert OP_CODES == {s.name: s.code for s in O.OPS}
    assert set(OP_KEYS) == set(O.OP_NAMES)
    # spot checks that the registry kept the historical codes (the goldens depend on them)
    assert O.OP_NAMES[O.OP_PLACE] == "place" and O.OP_PLACE == 0
    assert O.OP_NAMES[O.OP_LOSE_ACTION] == "opponents-lose-action"
    assert O.OP_NAMES[O.OP_LOSE_OWN_ACTION] == "lose-action"
    assert O.OP_NAMES[O.OP_VOID_SUMMON] == "void-summon" and O.N_OPS == 37


def test_the_registry_check_refuses_a_shifted_code(monkeypatch):
    shifted = list(O.OPS)
    shifted[3], shifted[4] = shifted[4], shifted[3]
    monkeypatch.setattr(O, "OPS", tuple(shifted))
    with pytest.raises(AssertionError, match="in order"):
        O._check_registry()


def test_the_registry_check_refuses_an_op_without_an_entry(monkeypatch):
    monkeypatch.setattr(O, "OP_NEW_THING", O.N_OPS, raising=False)
    with pytest.raises(AssertionError, match="exactly one"):
        O._check_registry()


def test_every_op_has_one_readme_row():
    rows = _op_table()
    assert sorted(rows) == sorted(O.OP_NAMES)


def test_readme_examples_compile_to_their_op():
    """Each row's example is an op table the loader accepts (keys included) and names that
    row's op; an example with "..." is checked for its op name only."""
    for name, (_, example, row_ops) in _op_table().items():
        m = re.fullmatch(r"`(\{.*\})`", example)
        assert m, f"{name}: the example is one inline table in backticks"
        src = m.group(1)
        used = [op for op in row_ops if f'op = "{op}"' in src]
        assert used, f"{name}: its row's example uses none of {row_ops}"
        if "..." in src:
            continue
        rows = compile_ops([tomllib.loads(f"x = {src}")["x"]])
        assert set(used) <= {O.OP_NAMES[r[O.I_OP]] for r in rows}, name


def test_every_op_key_is_documented():
    """A key the loader accepts for some op appears in the README in backticks."""
    text = README.read_text()
    keys = set(O.COMMON_KEYS).union(*(s.keys for s in O.OPS))
    missing = sorted(k for k in keys if f"`{k}" not in text)
    assert not missing, missing


def test_targeted_ops_are_the_ones_choose_accepts():
    for spec in O.OPS:
        if spec.name == "choose":
            continue
        alt = {"op": spec.name}
        if spec.name == "copy-warp":
            alt["from"] = "pending"
        block = [{"op": "choose", "of": [alt, {"op": "destroy"}]}]
        if spec.targeted:
            compile_ops(block)
        else:
            with pytest.raises(OpError, match="with a target"):
                compile_ops(block)


# --- families: every op stands in the functions that carry it out ---------------------------


def test_every_op_stands_in_exactly_the_functions_of_its_family():
    """Read from the source of core.effects (ast): an op is named in run_automatic,
    instruction_targets, apply_instruction and step_targets exactly as its family says."""
    table = dispatch_table()
    for spec in O.OPS:
        named_in = {f for f, codes in table.items() if spec.code in codes}
        assert named_in == set(O.FAMILIES[spec.family]), (spec.name, named_in)
    prove_dispatch()  # what load_content runs


def _effects_copy(tmp_path, edits):
    """core/effects/{apply,targets}.py under tmp_path, with (file, old, new) edits."""
    (tmp_path / "effects").mkdir()
    for name in ("apply.py", "targets.py"):
        text = (CORE / "effects" / name).read_text()
        for file, old, new in edits:
            if file == name:
                assert old in text, old
                text = text.replace(old, new, 1)
        (tmp_path / "effects" / name).write_text(text)
    return tmp_path


def test_the_dispatch_proof_refuses_an_op_without_its_branch(tmp_path):
    """The explicit branch of the piece ops without `destroy`: a forgotten op would be skipped
    without a word, so the proof names it and the function."""
    root = _effects_copy(tmp_path, [("targets.py", "        or op == OP_DESTROY\n", "")])
    with pytest.raises(
        DispatchProofError, match="destroy .chosen. has no branch in instruction_targets"
    ):
        prove_dispatch(root)


def test_the_dispatch_proof_refuses_a_branch_outside_the_family(tmp_path):
    root = _effects_copy(
        tmp_path,
        [("apply.py", "elif op == OP_GAIN_TURN:", "elif op == OP_GAIN_TURN or op == OP_PLACE:")],
    )
    with pytest.raises(DispatchProofError, match="place is chosen but run_automatic .* has a"):
        prove_dispatch(root)


def test_a_new_op_without_branches_is_refused_at_load_time(monkeypatch, data_copy):
    """A registry entry whose code no dispatching function names: load_content refuses the
    content in one line (the check runs once per process, so its cache is cleared)."""
    new = O.OpSpec(O.N_OPS, "new-thing", "does something new", O.CHOSEN, False, (), frozenset())
    monkeypatch.setattr(O, "OPS", O.OPS + (new,))
    prove_dispatch_once.cache_clear()
    try:
        with pytest.raises(ContentError) as err:
            load_content(str(data_copy))
    finally:
        monkeypatch.undo()
        prove_dispatch_once.cache_clear()
    assert "op dispatch: new-thing (chosen) has no branch in instruction_targets" in str(err.value)
    assert "\n" not in str(err.value)


# --- values: the loader's and the proof's ranges come from each op's Params -------------------


def _params():
    return [(spec, p) for spec in O.OPS for p in spec.params]


def _table(spec, p, value):
    d = {"op": spec.name, p.key: value}
    for other in spec.params:
        if other.required and other.key != p.key:
            d[other.key] = other.names[0][0]
    return d


@pytest.mark.parametrize("spec,p", _params(), ids=[f"{s.name}.{p.key}" for s, p in _params()])
def test_a_param_compiles_within_its_range_and_no_further(spec, p):
    if p.kind == O.INT:
        for v in (p.lo, p.hi):
            assert compile_ops([_table(spec, p, v)])[0][p.column] == v
        for v in (p.lo - 1, p.hi + 1, float(p.hi), True, str(p.lo)):
            with pytest.raises(OpError, match=f"{p.key} must be an integer in {p.lo}..{p.hi}"):
                compile_ops([_table(spec, p, v)])
    elif p.kind == O.TRUE:
        assert compile_ops([_table(spec, p, True)])[0][p.column] == 1
        with pytest.raises(OpError, match=f"{p.key} must be true"):
            compile_ops([_table(spec, p, 1)])
    else:
        for name, code in p.names:
            assert compile_ops([_table(spec, p, name)])[0][p.column] == code
        with pytest.raises(OpError, match=f"unknown {p.what} 'nothing'"):
            compile_ops([_table(spec, p, "nothing")])
    if p.required:
        with pytest.raises(OpError, match=f"{spec.name} needs {p.key} ="):
            compile_ops([{"op": spec.name}])


@pytest.mark.parametrize("spec,p", _params(), ids=[f"{s.name}.{p.key}" for s, p in _params()])
def test_the_tables_proof_allows_a_param_its_range_and_no_further(spec, p):
    """The proof reads the same Params: a compiled row at the top of the range passes, one
    past it is refused naming the column."""
    T = load_content().tables
    valid = {O.INT: p.lo, O.TRUE: True}.get(p.kind, p.names[0][0] if p.names else None)
    row = compile_ops([_table(spec, p, valid)])[0]
    top = p.hi
    row[p.column] = top
    ops = T.ops.copy()
    ops[0] = row
    prove_tables(T._replace(ops=ops))
    ops[0, p.column] = top + 1
    column = {O.I_PARAM: "I_PARAM", O.I_PARAM2: "I_PARAM2", O.I_DIST: "I_DIST"}[p.column]
    with pytest.raises(TablesProofError, match=rf"ops\[{column}\]"):
        prove_tables(T._replace(ops=ops))


def test_every_op_says_what_it_does():
    for spec in O.OPS:
        assert spec.doc and "\n" not in spec.doc, spec.name


def test_the_developer_checklist_names_real_files_and_ops():
    """docs/developer.md's op checklist: every file it names exists, it names every
    dispatching file and the registry, and the ops it says to copy are ops."""
    root = README.parents[2]
    text = (root / "docs" / "developer.md").read_text()
    section = text[text.index("### Add a card op") : text.index("### Add a deck")]
    paths = set(re.findall(r"`((?:core|sim|tests)/[\w/<>.*-]+)`", section))
    for path in paths:
        if "<" not in path and "*" not in path:
            assert (root / path).exists(), path
    needed = {"core/ops.py", "sim/content/ops.py", "sim/data/README.md"}
    needed |= {f"core/{rel}" for rel in O.DISPATCH_FILES.values()}
    assert needed <= paths, needed - paths
    copies = re.findall(r"`([a-z-]+)`\s+for an op", section)
    assert copies and set(copies) <= set(O.OP_NAMES), copies
