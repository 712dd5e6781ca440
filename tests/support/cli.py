"""The command line run in-process (``run``) and the project's bad-input rule checked
(``assert_one_line_error``: one ``kalarite: error: ...`` line, exit 2, nothing on stdout)."""

from sim.app.cli import main


def run(capsys, *argv):
    """main(argv) in-process; returns (exit status, stdout, stderr)."""
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def assert_one_line_error(rc, out, err, *needles):
    assert rc == 2, f"exit status {rc}, stderr: {err!r}"
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got: {err!r}"
    assert lines[0].startswith("kalarite: error: "), lines[0]
    assert "Traceback" not in err
    assert out == ""
    for needle in needles:
        assert needle.lower() in lines[0].lower(), f"{needle!r} not in {lines[0]!r}"
