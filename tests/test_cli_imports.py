"""`kalarite play` starts warm in about two seconds only while the CLI's parser is built
without the report's libraries; one eager import (results.report via its paths, issue 24's
2.6x warm-start regression) costs three seconds on every command. This test names the
heavy modules that building the parser must not load."""

import json
import subprocess
import sys

# bare `scipy` is light and numba loads it; its stats module is what the report pulls in
HEAVY = ("scipy.stats", "matplotlib", "pandas", "statsmodels", "pyarrow", "ray", "fastapi")

PROBE = """
import json, sys
from sim.app.cli import build_parser
build_parser()
print(json.dumps(sorted(sys.modules)))
"""


def test_building_the_cli_parser_loads_no_report_or_cluster_library():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    out = out.stdout
    loaded = set(json.loads(out))
    assert not loaded & set(HEAVY), f"the CLI's parser imports {sorted(loaded & set(HEAVY))}"


# Commands that play nothing (issue 38): the lookups and the argument errors load neither
# numba (about a second of CPU) nor the engine's compiled modules.
ENGINE = ("numba", "core.kernel", "core.rules.turn", "core.players.choose")
LOOKUPS = [
    ["--version"],
    ["--help"],
    [],
    ["cards"],
    ["cards", "show", "sylvan/naiad"],
    ["cards", "show", "nope/nope"],
    ["players"],
    ["players", "--json"],
    ["simulate", "--help"],
    ["serve", "--help"],
    ["report"],
    ["compare", "only-one"],
    ["report", "/nonexistent/run"],
    ["compare", "/nonexistent/a", "/nonexistent/b"],
]

LOOKUP_PROBE = """
import contextlib, io, json, sys
from sim.app.cli import main
out = []
for argv in json.loads(sys.argv[1]) + [["cards", "copy", sys.argv[2]]]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            rc = main(argv)
        except SystemExit as e:
            rc = e.code
    out.append([argv, rc, sorted(m for m in json.loads(sys.argv[3]) if m in sys.modules)])
print(json.dumps(out))
"""


def test_lookups_and_argument_errors_never_load_numba(tmp_path):
    """One process runs every lookup in turn and names the engine modules loaded after each:
    the first command to load one is the culprit."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            LOOKUP_PROBE,
            json.dumps(LOOKUPS),
            str(tmp_path / "cards"),
            json.dumps(ENGINE),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    runs = json.loads(out.stdout)
    assert (tmp_path / "cards" / "imperial.toml").is_file()  # cards copy did its work
    assert [rc for _, rc, _ in runs][:2] == [0, 0]
    for argv, _, loaded in runs:
        assert not loaded, f"kalarite {' '.join(argv)} loads {loaded}"


MOVES_PROBE = """
import contextlib, io, json, sys
from sim.app.cli import main
from sim.position import QUERY_KERNELS
err = io.StringIO()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
    rc = main(["moves", sys.argv[1]])
misses = sum(sum(k.stats.cache_misses.values()) for k in QUERY_KERNELS)
hits = sum(sum(k.stats.cache_hits.values()) for k in QUERY_KERNELS)
print(json.dumps({"rc": rc, "misses": misses, "hits": hits, "stderr": err.getvalue()}))
"""


def test_moves_loads_only_cached_kernels(tmp_path):
    """A second `kalarite moves` compiles nothing and says nothing: every kernel it calls
    comes from numba's cache (the first run of an engine compiles them, saying so)."""
    import pathlib

    doc = (pathlib.Path(__file__).parents[1] / "docs" / "cli.md").read_text()
    position = doc.split("<!-- file: position.toml -->\n```toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "position.toml").write_text(position)

    def run():
        out = subprocess.run(
            [sys.executable, "-c", MOVES_PROBE, str(tmp_path / "position.toml")],
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(out.stdout.strip().splitlines()[-1])

    first = run()
    assert first["rc"] in (0, None)
    second = run()
    assert second["misses"] == 0 and second["hits"] >= 1, second
    assert second["stderr"] == "", second["stderr"]


MISSING_PROBE = """
import contextlib, io, json, sys
from sim.app.cli import main
with contextlib.redirect_stderr(io.StringIO()) as err:
    rc = main(["report", sys.argv[1]])
print(json.dumps([rc, err.getvalue(), sorted(sys.modules)]))
"""


def test_a_report_of_a_missing_dataset_is_refused_before_the_report_libraries_load(tmp_path):
    missing = str(tmp_path / "no-such-run")
    out = subprocess.run(
        [sys.executable, "-c", MISSING_PROBE, missing], capture_output=True, text=True, check=True
    )
    rc, err, loaded = json.loads(out.stdout)
    assert rc == 2 and f"no dataset at {missing!r}" in err
    assert not set(loaded) & set(HEAVY), sorted(set(loaded) & set(HEAVY))
