"""Every code block of the README and docs/ that a user can run is run here, as written.

The documents are README.md, docs/*.md and benchmarks/README.md. Each document's blocks run in
order in one temporary directory, so a block may use what an earlier one wrote, as a reader
following the page would:

- a ```sh block runs in bash (`set -euo pipefail`) with the project's venv first on PATH;
- a ```python block is exec'd, every block of a document in one namespace;
- `<!-- file: NAME -->` just before a block writes the block to NAME instead (a spec or a
  position file that the next commands use);
- `<!-- not-run: reason -->` just before a block keeps it out of the test (`make demo`,
  `kalarite serve`, minutes of play); the reason is required.

In the directory, `sim` links to the project's sim/ (so `sim/studies/...` resolves as it does
in a checkout) and `runs/first` is a copy of the README's first study, played once per session.
"""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from tests.support.snippets import PYTHON, ROOT, SHELL, Block, blocks

BIN = pathlib.Path(sys.executable).parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks/README.md"]
# The README's first study (its main job); shared by every document as runs/first.
FIRST_STUDY = (
    "kalarite simulate --decks sylvan,highland --mode deathmatch --games 40 --workers 0 "
    "--out runs/first"
)
BLOCK_TIMEOUT_S = 600  # a cold kernel cache compiles the engine in the first command


def _env() -> dict:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.pop("RAY_ADDRESS", None)  # the docs' commands play here, never on a cluster
    return env


def _shell(block: Block, cwd: pathlib.Path):
    proc = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + block.text],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT_S,
    )
    assert proc.returncode == 0, (
        f"{block.where()}: the shell block failed (exit status {proc.returncode})\n"
        f"{block.text}\n--- stdout (end)\n{proc.stdout[-3000:]}\n--- stderr (end)\n"
        f"{proc.stderr[-3000:]}"
    )


@pytest.fixture(scope="session")
def first_study(tmp_path_factory):
    """The README's first study, played once: every document finds it as runs/first."""
    where = tmp_path_factory.mktemp("first")
    proc = subprocess.run(
        ["bash", "-c", FIRST_STUDY],
        cwd=where,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT_S,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return where / "runs" / "first"


def test_marks_are_read():
    text = (
        "intro\n\n<!-- not-run: a server -->\n```sh\nkalarite serve\n```\n\n"
        "<!-- file: spec.toml -->\n```toml\ngames = 1\n```\n\n```python\nx = 1\n```\n"
    )
    got = [(b.lang, b.mark, b.arg, b.text) for b in blocks(text)]
    assert got == [
        ("sh", "not-run", "a server", "kalarite serve\n"),
        ("toml", "file", "spec.toml", "games = 1\n"),
        ("python", None, "", "x = 1\n"),
    ]
    with pytest.raises(AssertionError, match="never closed"):
        blocks("```sh\nls\n")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_mark_is_complete(doc):
    """A not-run mark gives its reason and sits on a block a user could run; a file mark names
    a plain file in the directory."""
    for b in blocks(doc.read_text(), doc):
        if b.mark == "not-run":
            assert len(b.arg.split()) >= 2, f"{b.where()}: `not-run` needs a reason"
            assert b.runnable, f"{b.where()}: `not-run` on a block that is not run anyway"
        if b.mark == "file":
            name = pathlib.PurePosixPath(b.arg)
            assert b.arg and not name.is_absolute() and ".." not in name.parts, b.where()


def test_the_readme_plays_the_shared_first_study():
    """runs/first (the fixture) is the README's own first command, not a study of its own."""
    text = (ROOT / "README.md").read_text()
    assert any(FIRST_STUDY in b.text for b in blocks(text) if b.lang in SHELL and not b.mark)


def _to_run(doc) -> list[Block]:
    return [b for b in blocks(doc.read_text(), doc) if b.mark != "not-run"]


RUNNABLE = [doc for doc in DOCS if any(b.runnable for b in _to_run(doc))]


def test_the_readme_and_docs_have_blocks_to_run():
    assert ROOT / "README.md" in RUNNABLE and len(RUNNABLE) >= 3, RUNNABLE


@pytest.mark.parametrize("doc", RUNNABLE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_blocks_run(doc, tmp_path, monkeypatch, first_study):
    todo = _to_run(doc)
    (tmp_path / "sim").symlink_to(ROOT / "sim", target_is_directory=True)
    shutil.copytree(first_study, tmp_path / "runs" / "first")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    for b in todo:
        if b.mark == "file":
            (tmp_path / b.arg).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / b.arg).write_text(b.text)
        elif b.lang in SHELL:
            _shell(b, tmp_path)
        elif b.lang in PYTHON:
            try:
                exec(compile(b.text, b.where(), "exec"), namespace)  # noqa: S102 - the docs' code
            except Exception as e:
                raise AssertionError(f"{b.where()}: the Python block failed: {e!r}") from e


def test_a_failing_block_fails_with_its_place(tmp_path):
    (bad,) = blocks("text\n\n```sh\nkalarite no-such-command\n```\n", pathlib.Path("x.md"))
    with pytest.raises(AssertionError, match=r"x\.md:3: the shell block failed"):
        _shell(bad, tmp_path)
