"""The fenced code blocks of a Markdown text (``blocks``), each with the mark just before it
(``<!-- not-run: ... -->``, ``<!-- file: NAME -->``): what tests/test_docs_snippets.py runs
and the tests that read one documented block."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


SHELL = {"sh", "bash", "shell"}


PYTHON = {"python", "py"}


FENCE = re.compile(r"^```(\S*)\s*$")


MARK = re.compile(r"^<!--\s*(not-run|file)\s*:?(.*?)-->\s*$")


class Block:
    def __init__(self, path, line, lang, text, mark, arg):
        self.path, self.line, self.lang, self.text = path, line, lang, text
        self.mark, self.arg = mark, arg

    @property
    def runnable(self) -> bool:
        return self.lang in SHELL or self.lang in PYTHON

    def where(self) -> str:
        return (
            f"{self.path.relative_to(ROOT) if self.path.is_absolute() else self.path}:{self.line}"
        )


def blocks(text: str, path=pathlib.Path("doc.md")) -> list[Block]:
    """The fenced blocks of a Markdown text, each with the mark on the line just before it."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, lang = i, m.group(1).lower()
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        if j == len(lines):
            raise AssertionError(f"{path}:{start + 1}: a code block is never closed")
        prev = start - 1
        while prev >= 0 and not lines[prev].strip():
            prev -= 1
        mark = MARK.match(lines[prev].strip()) if prev >= 0 else None
        out.append(
            Block(
                path,
                start + 1,
                lang,
                "\n".join(lines[start + 1 : j]) + "\n",
                mark.group(1) if mark else None,
                mark.group(2).strip() if mark else "",
            )
        )
        i = j + 1
    return out
