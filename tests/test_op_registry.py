"""core.ops.OPS, the one declaration of each op, against the loader and sim/data/README.md."""

import pathlib
import re
import tomllib

import pytest

import core.ops as O
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
