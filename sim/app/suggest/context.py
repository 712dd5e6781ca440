"""What every stage of a suggestion shares: the goal, the output folder, the workers, the
games spent, the log; and ``play``, the one way a stage plays games: a study through the
project's study runner (cluster.runner.run_study), so every game is written to a resumable
Parquet dataset, identical for any number of workers."""

import hashlib
import json
import pathlib
import sys
from dataclasses import dataclass, field

from sim.study import policy_label


class SuggestInterrupted(KeyboardInterrupt):
    """Ctrl-C during a study of the suggestion (the datasets are resumable)."""


class SuggestFailed(RuntimeError):
    """A study of the suggestion failed for good (exit status 1; run again to resume)."""


@dataclass
class Context:
    goal: object  # sim.suggest.goal.Goal
    out: pathlib.Path
    workers: int | None = None
    address: str | None = None
    progress: bool = False
    log_file: object = None
    quiet: bool = False
    session: object = None  # the suggestion's one session (cluster.session), lent to each run
    datasets: dict = field(default_factory=dict)  # every dataset played: path -> (what, games)

    @property
    def games_played(self) -> int:
        """Games of the goal's players in every dataset so far (what the budget counts; the
        random games of the invariant checks are not counted)."""
        return sum(g for _, g in self.datasets.values())

    def log(self, text: str):
        if not self.quiet:
            print(f"kalarite: suggest: {text}", file=sys.stderr, flush=True)
        if self.log_file is not None:
            self.log_file.write(text + "\n")
            self.log_file.flush()

    def saying(self, text, after_s: float = 0.0):
        """Say a step that plays no games while it lasts (see ``saying``)."""
        return saying(text, self.quiet, after_s)

    def note(self, text: str):
        """A line for the log file only (``OUT/suggest.log``): every candidate's diff."""
        if self.log_file is not None:
            self.log_file.write(text + "\n")
            self.log_file.flush()

    def play(self, study, content, out, what: str):
        """Play ``study`` into ``out`` (resuming it), count its games; returns the summary."""
        from cluster.runner import StudyFailed, StudyInterrupted, run_study

        try:
            summary = run_study(
                study,
                content,
                out,
                workers=self.workers,
                address=self.address,
                progress=self.progress,
                session=self.session,
            )
        except StudyInterrupted as e:
            raise SuggestInterrupted(f"{what}: {e.summary.line()}") from None
        except StudyFailed as e:
            raise SuggestFailed(f"{what}: {e}") from None
        self.datasets[str(pathlib.Path(out).resolve())] = (what, study.total_games)
        if not summary.nothing_to_do:
            self.log(f"{what}: {summary.line()}")
        return summary


def saying(text, quiet: bool, after_s: float = 0.0):
    """A step of the suggestion that plays no games (a compile, the checks, the pages, Ray's
    stop), said while it lasts (a line every 4 s in a log) unless ``quiet``; ``text``
    may be a function (where the step stands). No silent stretch over 5 s (issue 50)."""
    import contextlib

    from sim.app.progress_line import ticking

    if quiet:
        return contextlib.nullcontext()
    return ticking("suggest", text, after_s=after_s)


def write_json(path, data) -> None:
    """Write a JSON record whole or not at all (a run killed mid-write resumes cleanly)."""
    path = pathlib.Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)


def derived_seed(seed: int, *parts) -> int:
    """A seed for one stage of the suggestion, from the goal's seed (63 bits)."""
    key = json.dumps(["kalarite-suggest", int(seed), *[str(p) for p in parts]])
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


def player_dir(player: str) -> str:
    return policy_label(player)
