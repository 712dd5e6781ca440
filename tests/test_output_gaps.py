"""benchmarks/output_gaps.py, the timer of a command's output behind "no silent stretch over
5 s" (issue 50): it sees each line of stdout and stderr (a carriage-return redraw as a line),
the exit status, and the longest stretch between them, counted from the start."""

import sys

from benchmarks.output_gaps import longest_gap, main, timed_lines


def test_longest_gap_counts_from_the_start_and_names_the_line_after_it():
    assert longest_gap([(1.0, "a"), (7.5, "b"), (9.0, "c")]) == (6.5, "b")
    assert longest_gap([(6.0, "first"), (7.0, "b")]) == (6.0, "first")
    assert longest_gap([]) == (0.0, "")


def test_every_line_of_both_streams_and_the_exit_status():
    code = "import sys; print('out'); print('err', file=sys.stderr); print('a\\rb'); sys.exit(3)"
    stamps = list(timed_lines([sys.executable, "-c", code]))
    lines = [line for _, line in stamps]
    assert sorted(lines[:-1]) == ["a", "b", "err", "out"]
    assert lines[-1] == "(exit status 3)"
    times = [t for t, _ in stamps]
    assert times == sorted(times) and times[0] >= 0


def test_the_command_line_prints_the_longest_gap_and_keeps_the_exit_status(capsys):
    rc = main(["--quiet", "--", sys.executable, "-c", "print('hello')"])
    out = capsys.readouterr().out
    assert rc == 0 and out.startswith("longest gap: ") and out.count("\n") == 1
