"""How a command that plays ends when its run does not finish: every command that plays
through the one driver (cluster/driver.py: `study`, `simulate`, `trace`, `demo`, `ladder`,
`competence`, `check`) says it the same way, in one line on stderr and an exit status.

- Ctrl-C (the chunks in flight were finished and handed over first): ``kalarite:
  interrupted: ...``, exit status 130. A study's line says what its dataset holds.
- A chunk that failed for good, or a dataset that could not be written
  (cluster.driver.RunFailed): ``kalarite: error: ...``, exit status 1 (the input was fine).

Either way the line ends with what comes next (``then``): how to resume, or what is lost.
"""

import sys

RESUME = "run the same command again to resume"


def run_to_end(run, then: str = RESUME) -> tuple:
    """``(run(), 0)``; or, after its one line on stderr, ``(None, 130)`` on Ctrl-C and
    ``(None, 1)`` when the run failed (see the module)."""
    from cluster.driver import RunFailed

    try:
        return run(), 0
    except KeyboardInterrupt as e:
        summary = getattr(e, "summary", None)  # a study's (cluster.runner.StudyInterrupted)
        done = f"{summary.line()}; " if summary is not None else ""
        _say(f"interrupted: {done}{then}")
        return None, 130
    except RunFailed as e:
        _say(f"error: {' '.join(str(e).split())}; {then}")
        return None, 1


def _say(text: str) -> None:
    print(f"kalarite: {text}", file=sys.stderr, flush=True)
