"""Do this checkout and another play the very same games into a dataset? A small study of
every mode, base and expansion decks, random and greedy players, with sampled positions, is
run by each checkout's own `kalarite study` (in a fresh process, in its own directory), and
every table of the two datasets is compared row by row (the data, not the files' metadata,
which names each checkout's engine).

    python -m benchmarks.same_games --baseline ../kalarite-25b763c
    python -m benchmarks.same_games --baseline ../base-56b7f8f --players seer,sage,planner

``--players`` puts the study's players in self-play instead (each named player in every
seat, the same decks and modes): the check for a change to the lookahead players.

Prints one JSON object (``same_games``: every table identical; for a table that is not,
``differences``: each column that differs, with the rows it differs in and its first values,
baseline then this) and exits 1 when a table differs. This is the check behind "games
identical to main" for a change that must not change a game; ``kalarite bench --baseline``
compares the kernel's result rows the same way.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

from sim.app.bench.side_by_side import cli_module, git_commit

REPO = pathlib.Path(__file__).resolve().parent.parent

SPEC = """
name = "same games"
decks = [
    ["imperial", "etherweave"], ["nethervoid", "everfrost"], ["sylvan", "highland"],
    ["imperial", "imperial"], ["etherweave", "nethervoid", "everfrost"],
    ["imperial", "highland", "etherweave", "everfrost"],
]
modes = "all"
policies = {policies}
games = {games}
seed = 3
positions = 3
chunk_size = 2
"""
SORT = ("mode", "matchup", "policies", "game_index")


def knows_deals(root) -> bool:
    """Does this checkout's spec have the ``deals`` key (shared deals, sim.study)?"""
    spec = pathlib.Path(root) / "sim" / "spec.py"
    return spec.is_file() and '"deals"' in spec.read_text()


def deals_line(root, baseline) -> str:
    """A baseline from before shared deals dealt every study per player: both sides deal so
    (the key only where the checkout knows it), so the comparison asks about the engine, not
    the deliberate change of seeds."""
    if knows_deals(baseline) or not knows_deals(root):
        return ""
    return 'deals = "per-player"\n'


def run_study(root, spec_path, out) -> None:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    cmd = [sys.executable, "-m", cli_module(str(root)), "study", str(spec_path), "--out", str(out)]
    r = subprocess.run([*cmd, "--workers", "0"], cwd=root, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"`kalarite study` failed in {root}:\n{r.stderr[-3000:]}")


def _table(out, table):
    """One table of a dataset, sorted, its dictionary columns decoded (the encoding may
    differ between files), without the metadata."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    path = pathlib.Path(out) / table
    if not path.exists():
        return None
    t = ds.dataset(path, format="parquet", partitioning="hive").to_table()
    keys = [k for k in SORT if k in t.column_names]
    if "turn" in t.column_names:
        keys.append("turn")
    if "seat" in t.column_names:
        keys.append("seat")
    t = t.sort_by([(k, "ascending") for k in keys])
    plain = [
        f.with_type(f.type.value_type) if pa.types.is_dictionary(f.type) else f for f in t.schema
    ]
    return t.cast(pa.schema(plain)).replace_schema_metadata(None)


def differences(a, b) -> dict:
    """Where two versions of a table differ: {column: rows that differ} (columns only one
    side has: "missing"), or {"rows": [n, m]} when their row counts differ; with the rows in
    the order ``_table`` sorts them, the first differing values of each column."""
    if a.num_rows != b.num_rows:
        return {"rows": [a.num_rows, b.num_rows]}
    out = {}
    for name in dict.fromkeys(a.column_names + b.column_names):
        if name not in a.column_names or name not in b.column_names:
            out[name] = "missing"
            continue
        x, y = a.column(name).to_pylist(), b.column(name).to_pylist()
        rows = [i for i, (u, v) in enumerate(zip(x, y, strict=True)) if u != v]
        if rows:
            out[name] = {"rows": len(rows), "first": [[x[i], y[i]] for i in rows[:3]]}
    return out


def spec_text(players=None, games=5) -> str:
    """The study's spec: random and greedy players, or each of ``players`` in self-play."""
    policies = [["random"], ["greedy", "random"]]
    if players:
        policies = [[p] for p in players]
    return SPEC.format(policies=json.dumps(policies), games=games)


def compare(baseline, this=REPO, players=None, games=5) -> dict:
    res = {
        "baseline": str(baseline),
        "baseline_commit": git_commit(str(baseline)),
        "this_commit": git_commit(str(this)),
        "spec": spec_text(players, games),
        "tables": {},
    }
    with tempfile.TemporaryDirectory(prefix="kalarite-same-") as tmp:
        outs = {}
        for side, root in (("baseline", baseline), ("this", this)):
            spec = pathlib.Path(tmp) / f"{side}.toml"
            spec.write_text(spec_text(players, games) + deals_line(root, baseline))
            outs[side] = pathlib.Path(tmp) / side
            run_study(root, spec, outs[side])
        for table in ("games", "card_events", "task_claims", "positions"):
            a, b = _table(outs["baseline"], table), _table(outs["this"], table)
            if a is None and b is None:
                continue
            same = a is not None and b is not None and a.equals(b)
            res["tables"][table] = {
                "rows": [None if a is None else a.num_rows, None if b is None else b.num_rows],
                "same": same,
            }
            if not same and a is not None and b is not None:
                res["tables"][table]["differences"] = differences(a, b)
    res["same_games"] = all(t["same"] for t in res["tables"].values())
    return res


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--baseline", required=True, help="the other checkout (e.g. of 25b763c)")
    p.add_argument("--players", help="comma-separated players, each in self-play instead")
    p.add_argument("--games", type=int, default=5, help="games per cell of the study")
    a = p.parse_args(argv)
    if not (pathlib.Path(a.baseline) / "core").is_dir():
        raise SystemExit(f"--baseline {a.baseline!r} is not a kalarite checkout (no core/)")
    players = [x.strip() for x in a.players.split(",") if x.strip()] if a.players else None
    res = compare(pathlib.Path(a.baseline).resolve(), players=players, games=a.games)
    print(json.dumps(res, indent=1))
    return 0 if res["same_games"] else 1


if __name__ == "__main__":
    sys.exit(main())
