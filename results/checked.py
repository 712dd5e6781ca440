"""Records of the content `kalarite check` played clean, and the warning of a dataset whose
content was never checked.

A clean check writes one JSON record (content and engine hashes, games per mode and deck,
players, command, date) into the user's record directory (``$KALARITE_CHECKED_DIR``, else
``~/.cache/kalarite/checked``) and, for a designer's content directory, into its
``checked/`` subfolder as well, so the record travels with the card files (the content hash
covers only the ``*.toml`` files, so the record never changes it). The installed content's
record is checked in under ``sim/data/checked/``. A record counts for every dataset whose
content hash it names, whatever the engine version (the record says which one it was).

The report (results.analysis) and `kalarite compare` read these records; `kalarite check`
(sim/app/check.py) writes them.
"""

import hashlib
import json
import os
import pathlib

RECORD_VERSION = 1
INSTALLED_RECORDS = pathlib.Path(__file__).resolve().parent.parent / "sim" / "data" / "checked"
SUBDIR = "checked"  # of a designer's content directory


def user_dir() -> pathlib.Path:
    env = os.environ.get("KALARITE_CHECKED_DIR")
    if env:
        return pathlib.Path(env).expanduser()
    return pathlib.Path.home() / ".cache" / "kalarite" / "checked"


def record_dirs(content_dir: str | None = None) -> list:
    """Where records are looked for: the user's directory, the installed content's, and the
    ``checked/`` folder of the dataset's own content directory (if it has one)."""
    dirs = [user_dir(), INSTALLED_RECORDS]
    if content_dir:
        dirs.append(pathlib.Path(content_dir) / SUBDIR)
    return dirs


def record_name(record: dict) -> str:
    """One file per content, engine and configuration: checking the same again replaces it."""
    key = json.dumps(record.get("config", {}), sort_keys=True).encode()
    digest = hashlib.sha256(key).hexdigest()[:10]
    return f"{record['content_hash']}-{record['engine_hash']}-{digest}.json"


def write_record(record: dict, content_dir: str | None = None) -> list:
    """Write ``record`` (a clean check) where later reports look; returns the paths written.
    The user's directory must be writable (OSError otherwise); the content directory's copy
    is best effort (a read-only copy of the card files is fine)."""
    name = record_name(record)
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    written = []
    targets = [user_dir()] + ([pathlib.Path(content_dir) / SUBDIR] if content_dir else [])
    for i, d in enumerate(targets):
        try:
            d.mkdir(parents=True, exist_ok=True)
            tmp = d / f".{name}.tmp"
            tmp.write_text(text)
            os.replace(tmp, d / name)  # never a half-written record
            written.append(str(d / name))
        except OSError:
            if i == 0:
                raise
    return written


def find_records(content_hash: str, content_dir: str | None = None) -> list:
    """Every clean check record of this content hash, newest first."""
    out = []
    for d in record_dirs(content_dir):
        try:
            paths = sorted(d.glob(f"{content_hash}-*.json"))
        except OSError:
            continue
        for p in paths:
            try:
                r = json.loads(p.read_text())
            except (OSError, ValueError):
                continue
            if (
                isinstance(r, dict)
                and r.get("content_hash") == content_hash
                and r.get("result") == "clean"
            ):
                out.append({**r, "path": str(p)})
    out.sort(key=lambda r: str(r.get("date", "")), reverse=True)
    return out


def unchecked_text(content_hash: str | None, content_dir: str | None = None) -> str | None:
    """One sentence when no clean `kalarite check` of this content is recorded, else None."""
    if not content_hash or find_records(content_hash, content_dir):
        return None
    where = f" --content {content_dir}" if content_dir else ""
    return (
        f"content {content_hash} was never checked: no `kalarite check` record says its games "
        f"keep every invariant of the engine (run kalarite check{where} before trusting "
        "these results)"
    )
