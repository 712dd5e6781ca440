"""Type and range checks for the values of the card, flare, task and board files.

A card file is edited by hand and may come from a user of the service, so every value is
checked for its type and range before anything is compiled: a table where a string belongs,
a string where a number belongs, true where a number belongs, a number beyond what the
compiled tables hold. Each refusal is a ContentError of one line that names the file and the
card (``where``), never a Python TypeError from deep inside the compiler. The rules are
sim.inputs' (the one validation layer); this module binds them to ContentError and to the
``where: key`` form of the content's messages.
"""

import hashlib
import pickle

from sim import inputs
from sim.inputs import is_int, show  # noqa: F401 (re-exported for the content's modules)


class ContentError(inputs.InputError):
    """Bad content or a bad request for content (unknown deck, unplayable card)."""


def fail(where: str, msg: str) -> ContentError:
    return ContentError(f"{where}: {msg}")


def need_keys(d: dict, required, allowed, where: str):
    """Every key in ``required`` present, none outside ``allowed``."""
    return inputs.need_keys(d, required, allowed, where, ContentError)


def need_str(value, key: str, where: str, nonempty: bool = True) -> str:
    return inputs.need_str(value, f"{where}: {key}", ContentError, nonempty)


def need_slug(value, key: str, where: str) -> str:
    """An identifier (a deck or card id): ASCII letters, digits, '-' and '_'."""
    return inputs.need_slug(value, f"{where}: {key}", ContentError)


def need_display(value, key: str, where: str, nonempty: bool = True) -> str:
    """A name or text shown to people, in NFC, without bidi or zero-width controls."""
    return inputs.need_display(value, f"{where}: {key}", ContentError, nonempty)


def need_bool(value, key: str, where: str) -> bool:
    return inputs.need_bool(value, f"{where}: {key}", ContentError)


def need_int(value, key: str, lo: int, hi: int, where: str) -> int:
    return inputs.need_int(value, f"{where}: {key}", lo, hi, ContentError)


def need_name(value, key: str, names, where: str, kind: str = "") -> str:
    return inputs.need_name(value, where, names, ContentError, kind or key)


def need_tables(value, key: str, where: str) -> list:
    """An array of tables (``[[key]]``)."""
    return inputs.need_tables(value, key, where, ContentError)


def need_squares(value, key: str, where: str, on_board=None, n=None) -> list:
    """A list of [row, col] pairs (exactly ``n`` when given), no square twice."""
    return inputs.need_squares(value, key, where, ContentError, on_board, n)


_PARSED = {}  # sha-256 of a file's bytes -> its parsed table, pickled (the last _PARSED_MAX)
_PARSED_MAX = 64


def read_toml(path):
    """The TOML table of the content file ``path``, or ContentError in one line naming it.
    Files with the same bytes are parsed once (`kalarite suggest` loads hundreds of copies of
    the card files that differ in one deck file); each caller gets its own copy."""
    try:
        with open(path, "rb") as f:
            raw = f.read(inputs.MAX_BYTES + 1)
    except (OSError, ValueError):
        raw = None
    if raw is None or len(raw) > inputs.MAX_BYTES:  # the reader's own one-line refusal
        return inputs.read_document(path, path.name, "TOML", ContentError)
    key = hashlib.sha256(raw).digest()
    if key not in _PARSED:
        data = inputs.parse_document(raw, path.name, "TOML", ContentError)
        if len(_PARSED) >= _PARSED_MAX:
            del _PARSED[next(iter(_PARSED))]
        _PARSED[key] = pickle.dumps(data)
    return pickle.loads(_PARSED[key])
