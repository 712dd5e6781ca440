"""A designer's own copy of the card files (``--content DIR``, ``content = "DIR"`` in a
study spec): the same TOML files as sim/data (``kalarite cards copy DIR`` makes the copy),
with changed cards, or a new deck file, played without touching the installed content.

A changed copy gets its own content hash (every file's bytes), which the dataset records with
the list of cards that differ from the installed ones (sim/content/diff.py). Ray workers get
the files with every chunk (sim/content/shipped.py), so a cluster's other nodes need no copy;
the content hash is checked on every chunk.
"""

import pathlib
import shutil

from sim import content as _content  # looked up at call time (tests replace load_content)
from sim.content import DATA_DIR, ContentError

REQUIRED = ("board.toml", "legends.toml", "flares.toml", "tasks.toml")


def _resolve(path) -> pathlib.Path:
    return pathlib.Path(path).expanduser().resolve()


def load_content_dir(path, what: str = "--content"):
    """The content in ``path`` (None: the installed card files); ContentError (one line)
    when the directory or one of its files is missing or malformed."""
    if path is None:
        return _content.load_content()
    if "\x00" in str(path):
        raise ContentError(f"{what}: {str(path)!r} is not a directory name (a NUL byte)")
    d = _resolve(path)
    if not d.is_dir():
        raise ContentError(f"{what}: {str(path)!r} is not a directory of card files")
    missing = [f for f in REQUIRED if not (d / f).is_file()]
    if missing:
        raise ContentError(
            f"{what}: {str(path)!r} lacks {', '.join(missing)} (copy every file of the "
            "installed content first: kalarite cards copy DIR)"
        )
    if d == _resolve(DATA_DIR):
        return _content.load_content()
    try:
        return _content.load_content(str(d))
    except OSError as e:
        raise ContentError(f"{what}: cannot read {str(path)!r}: {e.strerror or e}") from None


def custom_dir(content) -> str | None:
    """The directory of a designer's content, None for the installed card files."""
    where = getattr(content, "data_dir", "") or ""
    if not where or _resolve(where) == _resolve(DATA_DIR):
        return None
    return where


def copy_content(dest, source=None) -> pathlib.Path:
    """Copy the card files (and their README) of ``source`` (default: the installed ones)
    into the new directory ``dest``."""
    d = pathlib.Path(dest)
    if d.exists() and (not d.is_dir() or any(d.iterdir())):
        raise ContentError(f"{str(dest)!r} exists and is not an empty directory")
    try:
        d.mkdir(parents=True, exist_ok=True)
        for p in sorted(pathlib.Path(source or DATA_DIR).iterdir()):
            if p.suffix in (".toml", ".md") and p.is_file():
                shutil.copy2(p, d / p.name)
    except (OSError, ValueError) as e:
        raise ContentError(f"cannot copy the card files to {str(dest)!r}: {_why(d, e)}") from None
    return d


def _why(d: pathlib.Path, e) -> str:
    """An OS error in words: which part of the path is in the way, or the system's reason."""
    if isinstance(e, NotADirectoryError | FileExistsError):
        for parent in [d, *d.parents]:
            if parent.exists() and not parent.is_dir():
                return f"{str(parent)!r} is a file, not a directory"
    if isinstance(e, ValueError):  # a NUL byte in the name
        return "the name holds a NUL byte"
    return (getattr(e, "strerror", None) or str(e)).lower()
