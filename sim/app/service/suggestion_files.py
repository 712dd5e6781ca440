"""What a suggestion wrote, answered by the study routes (summary, manifest, tables): a
suggestion is no single dataset but many, one per stage (``step-N/race/...``,
``step-N/confirm/...``) under its directory, each a study's dataset.

- summary: its ``suggest.json`` (the goal, the ranked edits, the games it played);
- manifest: every dataset's manifest (without every card's data and the players' rows: a
  few kB each instead of over 100), each named by its place under the suggestion and, once finished,
  by what it played (``suggest.json``'s ``datasets``);
- tables: one Parquet file of every dataset's rows, a ``dataset`` column naming which.
"""

import json
import os

from sim.app.service import progress

SUMMARY = "suggest.json"
GOAL = "goal.json"
DATASET_COLUMN = "dataset"
_BULKY = ("content", "player_rows")  # every card's data and the players' rows (results.store)


def _read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def sources(root) -> list:
    """[(dataset directory, its name under the suggestion)] of every dataset under ``root``."""
    return [(d, os.path.relpath(d, root)) for d in progress.datasets(root)]


def manifest(root) -> dict | None:
    """The suggestion's goal and its datasets' manifests; None before the first dataset."""
    from results.store import read_manifest

    found = sources(root)
    if not found:
        return None
    result = _read_json(os.path.join(root, SUMMARY)) or {}
    real = os.path.realpath(root)  # suggest.json names its datasets by resolved paths
    what = {os.path.relpath(p, real): w for p, w in result.get("datasets", {}).items()}
    datasets = []
    for d, name in found:
        try:
            m = read_manifest(d)
        except (OSError, ValueError):
            continue  # being written: the next read has it
        entry = {"dataset": name, **what.get(name, {})}
        entry["manifest"] = {k: v for k, v in m.items() if k not in _BULKY}
        datasets.append(entry)
    return {"kind": "suggest", "goal": _read_json(os.path.join(root, GOAL)), "datasets": datasets}
