"""Reading the children's logs: the end of what a child wrote, and its one-line error."""

import os

_RESUME_HINT = "; run the same command again to resume"


def read_from(path, offset: int = 0, most: int = 1 << 16) -> str:
    """The end (at most ``most`` bytes) of what a log got after ``offset``."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(offset, size - most))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def tail(path, lines: int = 3) -> str:
    """The last lines of a log, as one line."""
    text = read_from(path)
    return " ".join(" ".join(text.strip().splitlines()[-lines:]).split())[:400]


def error_line(text: str) -> str | None:
    """The last ``kalarite: error: ...`` line of a child's output, without the prefix and
    without the CLI's resume hint (the service resumes through its API)."""
    for line in reversed(text.splitlines()):
        if line.startswith("kalarite: error: "):
            msg = line[len("kalarite: error: ") :].strip()
            return msg[: -len(_RESUME_HINT)] if msg.endswith(_RESUME_HINT) else msg
    return None
