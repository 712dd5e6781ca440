"""Load the High Form task list (sim/data/tasks.toml) into the arrays of core.tables.

The kernels only see criterion codes and integer arguments; names and descriptions stay on
the Python side for logs and reports. Errors name the file and the task so a typo in the
data is found without reading a traceback.
"""

import pathlib

import numpy as np

from core.layout import N_AVAIL, N_TASKS
from core.rules.task_codes import TASK_CHECK_NAMES, TASK_TYPE_NAMES
from sim.content.schema import (
    ContentError,
    is_int,
    need_bool,
    need_display,
    need_int,
    need_keys,
    need_name,
    need_tables,
    read_toml,
    show,
)

DEFAULT_PATH = pathlib.Path(__file__).parent.parent / "data" / "tasks.toml"
MAX_ARGS = 4
MAX_ARG = 81  # a count of pieces or squares, a colour mask, a distance: never beyond the board
TASK_KEYS = frozenset({"name", "points", "advanced", "type", "check", "args", "description"})


def load_tasks(path=None) -> dict:
    """Parse and validate tasks.toml; return the task_* arrays plus names and descriptions."""
    path = pathlib.Path(path) if path is not None else DEFAULT_PATH
    data = read_toml(path)
    need_keys(data, (), {"task"}, path.name)
    tasks = need_tables(data.get("task", []), "task", path.name)
    if len(tasks) != N_TASKS:
        raise ContentError(f"{path.name}: expected {N_TASKS} tasks, found {len(tasks)}")
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
        name = t.get("name")
        name = name if isinstance(name, str) and name else f"#{i + 1}"
        where = f"{path.name}: task {name!r}"

        def bad(msg, where=where):
            return ContentError(f"{where}: {msg}")

        need_keys(
            t, ("name", "points", "advanced", "type", "check", "description"), TASK_KEYS, where
        )
        for key in ("name", "description"):  # shown to people: NFC, no hidden controls
            t[key] = need_display(t[key], key, where, nonempty=False)
        need_name(t["check"], "check", TASK_CHECK_NAMES, where)
        need_name(t["type"], "type", TASK_TYPE_NAMES, where)
        points = need_int(t["points"], "points", 1, 3, where)
        need_bool(t["advanced"], "advanced", where)
        args = t.get("args", [])
        if (
            not isinstance(args, list)
            or len(args) > MAX_ARGS
            or any(not is_int(a) or not 0 <= a <= MAX_ARG for a in args)
        ):
            raise bad(f"args must be at most {MAX_ARGS} integers in 0..{MAX_ARG}, got {show(args)}")
        out["task_kind"][i] = TASK_CHECK_NAMES.index(t["check"])
        out["task_points"][i] = points
        out["task_advanced"][i] = int(t["advanced"])
        out["task_type"][i] = TASK_TYPE_NAMES.index(t["type"])
        out["task_args"][i, : len(args)] = args
        out["task_names"].append(t["name"])
        out["task_descriptions"].append(t["description"])
    if len(set(out["task_names"])) != N_TASKS:
        raise ContentError(f"{path.name}: two tasks have the same name")
    basic = [int(out["task_type"][i]) for i in range(N_TASKS) if not out["task_advanced"][i]]
    if len(basic) < N_AVAIL or len(set(basic)) < 2:
        raise ContentError(
            f"{path.name}: the first display needs {N_AVAIL} tasks that are not advanced, "
            "of at least two types"
        )
    return out
