"""`make`'s install is never silent for long (issue 38, item 9): scripts/pip_progress.py keeps
a status line while pip works, prints it again through a silent stretch, lets pip's warnings
and errors through, and on failure prints the end of pip's output and its exit status. A
stand-in for pip (a Python script printing pip's lines) plays the install here."""

import importlib.util
import io
import pathlib
import sys
import threading

from tests.support.service import wait_for

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("pip_progress", ROOT / "scripts/pip_progress.py")
pip_progress = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pip_progress)

PIP_LINES = [
    "Collecting numba<0.69,>=0.60 (from kalarite==0.1.0)",
    "  Downloading numba-0.68.1-cp311-cp311-manylinux.whl (3.8 MB)",
    "Requirement already satisfied: numpy>=1.26 in ./.venv/lib/python3.11/site-packages",
    "WARNING: a real pip warning",
    "Installing collected packages: llvmlite, numba, kalarite",
]


class Stream(io.StringIO):
    """A log (not a terminal) that the test can read while the run writes to it."""

    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()

    def write(self, s):
        with self.lock:
            return super().write(s)

    def text(self):
        with self.lock:
            return self.getvalue()


def _fake_pip(lines, go_file=None, rc=0) -> list:
    """A command that prints ``lines``, then (with ``go_file``) stays silent until that file
    exists, like pip unpacking a large wheel, then prints its last line and exits ``rc``."""
    code = (
        "import os, sys, time\n"
        f"for line in {lines!r}: print(line, flush=True)\n"
        f"go = {str(go_file) if go_file else None!r}\n"
        "while go and not os.path.exists(go): time.sleep(0.02)\n"
        f"print('Successfully installed llvmlite numba kalarite' if {rc} == 0 else 'ERROR: boom')\n"
        f"sys.exit({rc})\n"
    )
    return [sys.executable, "-c", code]


def test_each_phase_is_said_with_its_counts():
    out = Stream()
    assert pip_progress.run("installing kalarite", _fake_pip(PIP_LINES), out, every_s=3600) == 0
    text = out.text()
    assert "kalarite: installing kalarite: downloading (1 packages checked, 1 downloaded" in text
    assert "installing (2 packages checked, 1 downloaded, 3 to install" in text
    assert "WARNING: a real pip warning" in text  # pip's warnings still show
    assert text.rstrip().splitlines()[-1].startswith("kalarite: installing kalarite: done")
    assert "Collecting numba" not in text  # pip's own lines are summed up, not repeated


def test_a_silent_stretch_still_prints_the_status(tmp_path):
    out = Stream()
    go = tmp_path / "go"
    argv = _fake_pip(PIP_LINES, go_file=go)
    result = {}
    run = threading.Thread(
        target=lambda: result.update(rc=pip_progress.run("installing", argv, out, every_s=0.05))
    )
    run.start()
    try:
        # pip says nothing after "Installing collected packages": the status is repeated
        wait_for(lambda: out.text().count("installing: installing (") >= 3, 60, "status lines")
    finally:
        go.touch()
        run.join(60)
    assert result["rc"] == 0


def test_a_failure_prints_the_end_of_pips_output_and_its_status():
    out = Stream()
    assert pip_progress.run("installing", _fake_pip(PIP_LINES, rc=3), out, every_s=3600) == 3
    text = out.text()
    assert "kalarite: pip failed (exit status 3):" in text
    assert "Collecting numba" in text and text.rstrip().endswith("ERROR: boom")


def test_the_makefile_installs_through_it():
    makefile = (ROOT / "Makefile").read_text()
    assert "scripts/pip_progress.py" in makefile and "--quiet" not in makefile
