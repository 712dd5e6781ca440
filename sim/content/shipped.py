"""The card content a driver loaded, as data that travels with every chunk to a worker on any
machine: a ``--content DIR`` copy, a suggest candidate or the installed files, never read
from a path on the worker's disk (which another node does not have, or has different).

``pack_dir(data_dir, content_hash)``: the TOML files of a content directory (None: the
installed one), compressed (about 26 kB for the installed files), checked against the hash
the driver loaded (the files changed since: one line). ``unpack(packed)``: the Content on
the worker, loaded once per process and content hash (the last few kept): the installed
files when their hash is the one sent, else the sent files written once to a private cache
directory of this machine (``kalarite-content-UID/HASH`` under the temporary directory) and
loaded from there; a content no worker of the machine used for a day is removed when
another is written.
"""

import functools
import os
import pathlib
import shutil
import tempfile
import time
import zlib
from dataclasses import dataclass

from sim import content as _content  # looked up at call time (tests replace load_content)
from sim.content import DATA_DIR, ContentError


@dataclass(frozen=True)
class PackedContent:
    content_hash: str
    files: tuple  # ((file name, zlib-compressed bytes), ...) of every *.toml, sorted


@functools.lru_cache(maxsize=8)
def pack_dir(data_dir: str | None, content_hash: str) -> PackedContent:
    """The files of the content in ``data_dir`` (None: the installed card files) that the
    driver loaded as ``content_hash``, as the worker will load them."""
    data_dir = str(data_dir or DATA_DIR)
    files = _toml_files(pathlib.Path(data_dir))
    packed = PackedContent(content_hash, tuple((n, zlib.compress(b, 6)) for n, b in files))
    if _content.hash_files(files) != content_hash:
        raise ContentError(
            f"the card files in {data_dir} changed after they were loaded (content "
            f"{content_hash}); run the command again to play the files as they are now"
        )
    return packed


def _toml_files(d: pathlib.Path) -> tuple:
    """((name, bytes), ...) of the card files in ``d``, sorted: what the content hash reads."""
    return tuple((p.name, p.read_bytes()) for p in sorted(d.glob("*.toml")))


_UNPACKED = {}  # content hash -> Content, the most recent few (a suggestion races many)
_KEEP = 8
_UNUSED_S = 86400.0  # a written content unused this long is removed (about 160 kB each)


def unpack(packed: PackedContent):
    """The Content of ``packed`` in this process (loaded once per content hash)."""
    if packed.content_hash not in _UNPACKED:
        if _content.hash_files(_toml_files(DATA_DIR)) == packed.content_hash:
            c = _content.load_content()
        else:
            c = _content.load_content(str(_written(packed)))
        if c.content_hash != packed.content_hash:
            raise ContentError(
                f"the card files sent with this chunk load as content {c.content_hash}, "
                f"not {packed.content_hash}"
            )
        _UNPACKED[packed.content_hash] = c
        while len(_UNPACKED) > _KEEP:
            del _UNPACKED[next(iter(_UNPACKED))]
    return _UNPACKED[packed.content_hash]


def _written(packed: PackedContent) -> pathlib.Path:
    """The directory of this machine holding ``packed``'s files: written once, whole (a
    temporary directory renamed into place), shared by the worker processes of the node."""
    root = pathlib.Path(tempfile.gettempdir()) / f"kalarite-content-{os.getuid()}"
    final = root / packed.content_hash
    try:
        os.utime(final)  # written already; in use, so kept
        return final
    except OSError:
        pass  # not written yet
    root.mkdir(parents=True, exist_ok=True)
    _remove_unused(root)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix=".part-", dir=root))
    for name, data in packed.files:
        (tmp / pathlib.Path(name).name).write_bytes(zlib.decompress(data))
    try:
        tmp.rename(final)
    except OSError:  # another worker of this machine wrote it first
        for p in tmp.iterdir():
            p.unlink()
        tmp.rmdir()
    return final


def _remove_unused(root: pathlib.Path) -> None:
    """Remove the written contents no worker of this machine used for ``_UNUSED_S``."""
    now = time.time()
    for d in root.iterdir():
        try:
            if d.is_dir() and now - d.stat().st_mtime > _UNUSED_S:
                shutil.rmtree(d)
        except OSError:
            continue  # another worker removed it, or it is being written
