"""Load the High Form task list (sim/data/tasks.toml) into the arrays of core.tables.

The kernels only see criterion codes and integer arguments; names and descriptions stay on
the Python side for logs and reports. Errors name the file and the task so a typo in the
data is found without reading a traceback.
"""

import pathlib
import tomllib

import numpy as np

from core.layout import N_TASKS
from core.rules.tasks import TASK_CHECK_NAMES, TASK_TYPE_NAMES

DEFAULT_PATH = pathlib.Path(__file__).parent.parent / "data" / "tasks.toml"
MAX_ARGS = 4


def load_tasks(path=None) -> dict:
    """Parse and validate tasks.toml; return the task_* arrays plus names and descriptions."""
    path = pathlib.Path(path) if path is not None else DEFAULT_PATH
    with open(path, "rb") as f:
        tasks = tomllib.load(f).get("task", [])
    if len(tasks) != N_TASKS:
        raise ValueError(f"{path.name}: expected {N_TASKS} tasks, found {len(tasks)}")
    out = {
        "task_kind": np.zeros(N_TASKS, np.int8),
        "task_points": np.zeros(N_TASKS, np.int8),
        "task_advanced": np.zeros(N_TASKS, np.int8),
        "task_type": np.zeros(N_TASKS, np.int8),
        "task_args": np.zeros((N_TASKS, MAX_ARGS), np.int16),
        "task_names": [],
        "task_descriptions": [],
    }
    for i, t in enumerate(tasks):
        name = t.get("name", f"#{i}")

        def bad(msg, name=name):
            return ValueError(f"{path.name}: task {name!r}: {msg}")

        for key in ("name", "points", "advanced", "type", "check", "description"):
            if key not in t:
                raise bad(f"missing {key!r}")
        if t["check"] not in TASK_CHECK_NAMES:
            raise bad(f"unknown check {t['check']!r}")
        if t["type"] not in TASK_TYPE_NAMES:
            raise bad(f"unknown type {t['type']!r}")
        points = t["points"]
        if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= 3:
            raise bad(f"points must be 1..3, got {points!r}")
        if not isinstance(t["advanced"], bool):
            raise bad(f"advanced must be true or false, got {t['advanced']!r}")
        args = t.get("args", [])
        if (
            not isinstance(args, list)
            or len(args) > MAX_ARGS
            or any(type(a) is not int or abs(a) >= 2**15 for a in args)
        ):
            raise bad(f"args must be at most {MAX_ARGS} integers, got {args!r}")
        out["task_kind"][i] = TASK_CHECK_NAMES.index(t["check"])
        out["task_points"][i] = points
        out["task_advanced"][i] = int(t["advanced"])
        out["task_type"][i] = TASK_TYPE_NAMES.index(t["type"])
        out["task_args"][i, : len(args)] = args
        out["task_names"].append(name)
        out["task_descriptions"].append(t["description"])
    return out
