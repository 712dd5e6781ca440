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
