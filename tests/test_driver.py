"""A study and `kalarite check` are played by the one driver (cluster/driver.py): both open
it, show the same progress lines, acknowledge a real Ctrl-C the same way and leave nothing
that looks complete, and say a chunk that failed for good in the same one line. Ray is
started in one place (cluster/session.py), fan_out included.

The runs are in this process (``--workers 0``) and tiny; the same through Ray is in
test_studies.py and test_check.py.
"""

import ast
import os
import pathlib
import re
import signal
import threading

import pytest

import cluster.driver as driver_module
from results.store import read_manifest
from sim.app.cli import main
from tests.support.service import wait_for

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAIR = ["--decks", "imperial,highland"]
SMALL = ["--workers", "0", "--seed", "4"]


def _study(out):
    """A study of 3 chunks."""
    return ["simulate", *PAIR, "--mode", "high-form", "--policy", "random", "--games", "30",
            "--chunk-size", "10", "--out", str(out), *SMALL]  # fmt: skip


def _check():
    """A check of 2 or more chunks (one per matchup)."""
    return ["check", *PAIR, "--modes", "high-form", "--games", "4", *SMALL]


@pytest.fixture
def opened(monkeypatch, tmp_path):
    """The drivers opened (each Driver.open's ``checked``), and no clean-check record kept
    outside tmp_path."""
    monkeypatch.setenv("KALARITE_CHECKED_DIR", str(tmp_path / "records"))
    monkeypatch.setenv("KALARITE_PROGRESS_EVERY", "3600")  # plain lines: the first and last
    drivers = []
    real_open = driver_module.Driver.open.__func__

    def spy(cls, *args, **kw):
        d = real_open(cls, *args, **kw)
        drivers.append((kw.get("checked", False), d))
        return d

    monkeypatch.setattr(driver_module.Driver, "open", classmethod(spy))
    return drivers


def _run(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return rc, out, err


def test_a_study_and_a_check_play_through_the_one_driver_with_the_same_progress(
    opened, capsys, tmp_path
):
    rc, out, err = _run(capsys, _study(tmp_path / "s"))
    assert rc == 0 and "30 games" in out, (out, err)
    assert re.search(r"^kalarite: 30 of 30 games \(100%\)", err, re.M), err
    rc, out, err = _run(capsys, _check())
    assert rc == 0 and "every invariant held" in out, (out, err)
    games = int(re.search(r"checked (\d+) games", out).group(1))
    assert re.search(rf"^kalarite: {games} of {games} games \(100%\)", err, re.M), err
    assert [checked for checked, _ in opened] == [False, True]
    assert all(d.landed >= 2 for _, d in opened)  # each played its chunks through it


def _ctrl_c_after_the_first_chunk(opened, hold):
    """Send this process one SIGINT once the driver holds after its first chunk (the hold
    file keeps it there until the Ctrl-C: no chunk can land meanwhile)."""

    def press():
        wait_for(lambda: opened and opened[-1][1].landed >= 1, 120, "the first chunk")
        os.kill(os.getpid(), signal.SIGINT)

    hold.write_text("")
    t = threading.Thread(target=press, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("command", ["study", "check"])
def test_ctrl_c_is_acknowledged_then_the_run_stops_with_nothing_looking_complete(
    command, opened, capsys, tmp_path, monkeypatch
):
    hold = tmp_path / "hold"
    monkeypatch.setenv("KALARITE_TEST_HOLD_FILE", str(hold))
    out_dir = tmp_path / "s"
    presser = _ctrl_c_after_the_first_chunk(opened, hold)
    rc, out, err = _run(capsys, _study(out_dir) if command == "study" else _check())
    presser.join(5)
    assert rc == 130, (out, err)
    ack = err.index("kalarite: Ctrl-C: stopping now (Ctrl-C again stops at once)")
    assert ack < err.index("kalarite: interrupted: "), err
    assert opened[-1][1].landed == 1  # nothing was submitted after the Ctrl-C
    if command == "study":
        assert "run the same command again to resume" in err
        manifest = read_manifest(out_dir)
        assert manifest["status"] != "complete"
        assert manifest["runs"][-1]["status"] == "interrupted"
    else:
        assert "the check is incomplete" in err and out == ""
        assert not (tmp_path / "records").exists()  # no record of a clean check


@pytest.mark.parametrize("command", ["study", "check"])
def test_a_chunk_that_fails_for_good_is_one_error_line_and_exit_1(
    command, opened, capsys, tmp_path, monkeypatch
):
    monkeypatch.setenv("KALARITE_TEST_KILL_CHUNK", "0")  # its marker cannot be written: the
    monkeypatch.setenv("KALARITE_TEST_KILL_MARKER", str(tmp_path / "no" / "marker"))  # chunk fails
    rc, out, err = _run(capsys, _study(tmp_path / "s") if command == "study" else _check())
    assert rc == 1, (out, err)
    (line,) = [x for x in err.splitlines() if x.startswith("kalarite: error: ")]
    assert re.match(r"kalarite: error: chunk 0 of .+ failed: FileNotFoundError", line), line
    then = "run the same command again to resume" if command == "study" else "incomplete"
    assert line.endswith(then)


def test_ray_is_started_only_by_the_session():
    """Every ``ray.init`` of the project is in cluster/session.py: runs, fan_out (tune) and
    the service's own Ray start it there."""
    calls = []
    for package in ("core", "sim", "cluster", "results", "benchmarks"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                f = getattr(node, "func", None)
                if isinstance(f, ast.Attribute) and f.attr == "init" and _names_ray(f.value):
                    calls.append(str(path.relative_to(ROOT)))
    assert calls and set(calls) == {"cluster/session.py"}, calls


def _names_ray(node) -> bool:
    return (
        isinstance(node, ast.Name)
        and node.id == "ray"
        or (isinstance(node, ast.Attribute) and node.attr == "ray")
    )


def test_fan_out_plays_on_the_session_it_opens(monkeypatch):
    """fan_out opens a local RaySession (never RAY_ADDRESS's cluster) and closes it."""
    import cluster.fanout as fanout

    seen = []

    class FakeRay:
        @staticmethod
        def remote(fn):
            return type("R", (), {"remote": staticmethod(lambda *a: fn(*a))})

        @staticmethod
        def get(values):
            return values

    class FakeSession:
        def __init__(self, workers, address, say=None, local=False):
            seen.append((workers, address, local))
            self.ray = FakeRay

        def close(self):
            seen.append("closed")

    monkeypatch.setattr(fanout, "RaySession", FakeSession)
    with fanout.fan_out(pow, 3) as run:
        assert run([(2, 3), (3, 2)]) == [8, 9]
    assert seen == [(3, None, True), "closed"]


@pytest.mark.parametrize("command", ["ladder", "competence", "demo", "trace"])
@pytest.mark.parametrize("ending", ["failed", "interrupted"])
def test_every_command_that_plays_a_study_ends_a_stopped_run_in_one_line(
    command, ending, capsys, tmp_path, monkeypatch
):
    """The commands that play studies besides study and simulate end a failed or
    interrupted run as they do (sim/app/run_outcome.py): one line, exit status 1 or 130."""
    import cluster.runner as runner

    def stopped(study, content, out, **kw):
        if ending == "failed":
            raise runner.StudyFailed("chunk 0 of somewhere failed: RuntimeError: boom")
        summary = runner.RunSummary(str(out), 10, 2, 0, 5, 1, 0, 1.0, 0, status="interrupted")
        raise runner.StudyInterrupted(summary)

    monkeypatch.setattr(runner, "run_study", stopped)
    out = str(tmp_path / "o")
    argv = {
        "ladder": ["ladder", "--out", out, "--games", "2", "--players", "random,greedy",
                   "--result", str(tmp_path / "ladder.json")],
        "competence": ["competence", "--out", out, "--games", "2", "--decks", "everfrost",
                       "--modes", "high-form", "--workers", "0"],
        "demo": ["demo", "--out", out, "--games", "10", "--workers", "0"],
        "trace": ["trace", "--out", out, "--player", "planner", "--games", "4"],
    }[command]  # fmt: skip
    rc, _, err = _run(capsys, argv)
    lines = [x for x in err.splitlines() if x.startswith(("kalarite: error:", "kalarite: inter"))]
    if ending == "failed":
        assert rc == 1 and lines == [
            "kalarite: error: chunk 0 of somewhere failed: RuntimeError: boom; "
            "run the same command again to resume"
        ], err
    else:
        assert rc == 130 and len(lines) == 1, err
        assert lines[0].startswith("kalarite: interrupted: 2 games of 10 in ")
        assert lines[0].endswith("; run the same command again to resume")
