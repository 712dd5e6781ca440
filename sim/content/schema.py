"""Type and range checks for the values of the card, flare, task and board files.

A card file is edited by hand and may come from a user of the service, so every value is
checked for its type and range before anything is compiled: a table where a string belongs,
a string where a number belongs, true where a number belongs, a number beyond what the
compiled tables hold. Each refusal is a ContentError of one line that names the file and the
card (``where``), never a Python TypeError from deep inside the compiler.
"""

import hashlib
import pickle
import tomllib


class ContentError(ValueError):
    """Bad content or a bad request for content (unknown deck, unplayable card)."""


def fail(where: str, msg: str) -> ContentError:
    return ContentError(f"{where}: {msg}")


def show(value) -> str:
    """A value for an error message: short, one line."""
    text = " ".join(repr(value).split())
    return text if len(text) <= 60 else text[:57] + "..."


def is_int(value) -> bool:
    """An integer, not a bool (TOML true is no number)."""
    return type(value) is int


def need_keys(d: dict, required, allowed, where: str):
    """Every key in ``required`` present, none outside ``allowed``."""
    for key in required:
        if key not in d:
            raise fail(where, f"missing {key!r}")
    extra = sorted(k for k in d if k not in allowed)
    if extra:
        raise fail(where, f"unknown key {extra[0]!r} (known keys: {', '.join(sorted(allowed))})")


def need_str(value, key: str, where: str, nonempty: bool = True) -> str:
    if not isinstance(value, str) or (nonempty and not value.strip()):
        kind = "a non-empty string" if nonempty else "a string"
        raise fail(where, f"{key} must be {kind}, got {show(value)}")
    return value


def need_bool(value, key: str, where: str) -> bool:
    if not isinstance(value, bool):
        raise fail(where, f"{key} must be true or false, got {show(value)}")
    return value


def need_int(value, key: str, lo: int, hi: int, where: str) -> int:
    if not is_int(value) or not lo <= value <= hi:
        raise fail(where, f"{key} must be an integer in {lo}..{hi}, got {show(value)}")
    return value


def need_tables(value, key: str, where: str) -> list:
    """An array of tables (``[[key]]``)."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise fail(where, f"{key} must be an array of tables ([[{key}]]), got {show(value)}")
    return value


def need_square(value, key: str, where: str, on_board=None) -> tuple:
    """[row, col] of the 9x9 grid (``on_board``: a predicate on row, col for playable)."""
    if not (
        isinstance(value, list) and len(value) == 2 and all(is_int(x) and 0 <= x < 9 for x in value)
    ):
        raise fail(where, f"{key} must hold [row, col] pairs in 0..8, got {show(value)}")
    if on_board is not None and not on_board(*value):
        raise fail(where, f"{key}: {value} is not a square of the board")
    return value[0], value[1]


def need_squares(value, key: str, where: str, on_board=None, n=None) -> list:
    """A list of [row, col] pairs (exactly ``n`` when given), no square twice."""
    if not isinstance(value, list) or (n is not None and len(value) != n) or not value:
        count = f"{n}" if n is not None else "a non-empty list of"
        raise fail(where, f"{key} must be {count} [row, col] pairs, got {show(value)}")
    out = [need_square(v, key, where, on_board) for v in value]
    if len(set(out)) != len(out):
        raise fail(where, f"{key} names a square twice")
    return out


_PARSED = {}  # sha-256 of a file's bytes -> its parsed table, pickled (the last _PARSED_MAX)
_PARSED_MAX = 64


def read_toml(path):
    """The TOML table of the content file ``path``, or ContentError in one line naming it.
    Files with the same bytes are parsed once (`kalarite suggest` loads hundreds of copies of
    the card files that differ in one deck file); each caller gets its own copy."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
        key = hashlib.sha256(raw).digest()
        if key not in _PARSED:
            if len(_PARSED) >= _PARSED_MAX:
                del _PARSED[next(iter(_PARSED))]
            _PARSED[key] = pickle.dumps(tomllib.loads(raw.decode("utf-8")))
        return pickle.loads(_PARSED[key])
    except tomllib.TOMLDecodeError as e:
        raise ContentError(f"{path.name}: not valid TOML: {e}") from None
    except UnicodeDecodeError:
        raise ContentError(f"{path.name}: not valid TOML (not UTF-8 text)") from None
    except IsADirectoryError:
        raise ContentError(f"{path.name}: is a directory, not a card file") from None
