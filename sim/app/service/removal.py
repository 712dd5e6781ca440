"""Removing a deleted study's files: its directory (spec, dataset, report, downloads, log)
and the comparisons it is part of.

The registry row goes first (``Registry.delete``, which refuses a running study); the
directory is then renamed out of the way (one atomic step: the study's URLs answer 404 at
once) and removed, right after the row, with nothing yielding in between. A service that
dies in the middle of that leaves a ``.deleted-*`` directory; a submission cut short leaves a
study directory holding only its spec and no row. ``sweep`` removes both when the service
starts. A study directory with a dataset but no row is left alone: a registry lost or
replaced by hand must not cost anyone their datasets.
"""

import secrets
import shutil

from sim.app.service.config import ID_PATTERN
from sim.app.service.specs import SPEC_FILE


def set_aside(config, sid: str) -> list:
    """Rename the study's directory and its comparisons out of the way (quick: renames
    only); returns what ``remove`` should then remove."""
    gone = []
    d = config.study_dir(sid)
    if d.exists():
        trash = d.parent / f".deleted-{sid}-{secrets.token_hex(4)}"
        d.rename(trash)
        gone.append(trash)
    compares = config.data / "compares"
    if compares.is_dir():
        for c in compares.iterdir():
            if sid in c.name.split("-"):
                gone.append(c)
    return gone


def remove(paths: list):
    for p in paths:
        shutil.rmtree(p, ignore_errors=True)


def sweep(config, registry) -> int:
    """Remove what deletions (or submissions) cut short left behind. Returns how many
    directories went."""
    studies = config.data / "studies"
    if not studies.is_dir():
        return 0
    known = registry.ids()
    removed = 0
    for d in studies.iterdir():
        if not d.is_dir():
            continue
        leftover = d.name.startswith(".deleted-")
        orphan = (
            ID_PATTERN.match(d.name)
            and d.name not in known
            and {p.name for p in d.iterdir()} <= {SPEC_FILE}
        )
        if leftover or orphan:
            shutil.rmtree(d, ignore_errors=True)
            removed += 1
    return removed
