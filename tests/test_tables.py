"""core.tables: compiled code sees exactly the arrays Python holds, and a Tables still behaves
like the namedtuple it replaced (construction by keyword, fields, _replace, pickling)."""

import pickle

import numpy as np
import pytest
from numba import njit

from core.tables import TABLE_FIELDS, Tables
from sim.content import load_content

T = load_content().tables


def _header_reader():
    """One compiled function returning (data address, size, first stride, last dim) of every
    field, read through the packed headers."""
    parts = ", ".join(
        f"(T.{n}.ctypes.data, T.{n}.size, T.{n}.strides[0], T.{n}.shape[-1])" for n in TABLE_FIELDS
    )
    src = f"def read(T):\n    return ({parts},)\n"
    ns = {}
    exec(src, ns)
    return njit(_nrt=True)(ns["read"])


def test_compiled_code_reads_every_field_of_the_python_arrays():
    got = _header_reader()(T)
    for name, (addr, size, stride0, last) in zip(TABLE_FIELDS, got, strict=True):
        a = getattr(T, name)
        assert (addr, size, stride0, last) == (
            a.ctypes.data,
            a.size,
            a.strides[0],
            a.shape[-1],
        ), name


@njit(_nrt=False)
def _probe(T, s, d):
    """Values read without numba's runtime (engine functions are compiled that way)."""
    return T.nbr[s, d], T.dist[s, 80 - s], T.or_cells[3, 1, 2], T.ops[2, 1], T.onboard.shape[0]


def test_values_read_without_the_runtime():
    for s in (0, 40, 77):
        for d in (0, 5):
            want = (T.nbr[s, d], T.dist[s, 80 - s], T.or_cells[3, 1, 2], T.ops[2, 1], 69)
            assert _probe(T, s, d) == tuple(int(x) for x in want)


def test_pickle_and_replace_keep_the_arrays():
    U = pickle.loads(pickle.dumps(T))
    for name in TABLE_FIELDS:
        assert np.array_equal(getattr(U, name), getattr(T, name)), name
    V = T._replace(flare_x=np.zeros_like(T.flare_x))
    assert not V.flare_x.any() and np.array_equal(V.nbr, T.nbr)
    assert _probe(U, 40, 5) == _probe(T, 40, 5)
    assert list(T._asdict()) == list(TABLE_FIELDS) == list(T._fields)


def test_bad_construction_and_mutation_are_refused():
    fields = T._asdict()
    with pytest.raises(TypeError, match="missing fields: ops"):
        Tables(**{k: v for k, v in fields.items() if k != "ops"})
    with pytest.raises(TypeError, match="unknown field"):
        Tables(**fields, nonsense=np.zeros(1))
    with pytest.raises(AttributeError):
        T.ops = np.zeros(1)


def test_read_only_and_strided_inputs_become_plain_arrays():
    fields = T._asdict()
    ro = fields["dist"].copy()
    ro.flags.writeable = False
    fields["dist"] = ro
    fields["onboard"] = np.repeat(fields["onboard"], 2)[::2]  # not contiguous
    U = Tables(**fields)
    assert U.dist.flags.writeable and U.onboard.flags.c_contiguous
    assert _probe(U, 40, 5) == _probe(T, 40, 5)
