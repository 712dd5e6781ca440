"""What every ``kalarite`` subcommand's handler shares, apart from the parser: the user error
that ends in one ``kalarite: error:`` line (exit status 2) and the check of a count flag.
Its own module so that the command modules (sim/app/*_commands.py, check, suggest) need not
import the CLI that imports them."""

from sim.study import DEFAULT_POLICY, WHY_DEFAULT_POLICY

POLICY_HELP = (
    f"one player, or one per seat (default: {DEFAULT_POLICY}, the turn planner: "
    f"{WHY_DEFAULT_POLICY}; --policy random for speed work)"
)


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


MAX_COUNT = 1_000_000_000  # a count flag's most (games, workers, rounds): sim.chunking.MAX_GAMES
MAX_FLAG_INT = 2**64  # no integer flag goes past a seed's 64 bits


def int_flag(text: str) -> int:
    """Every ``type=int`` flag (the parser registers it for ``int``): an integer of at most
    64 bits, so no number of forty digits reaches a handler; each flag's own range is checked
    where it is used."""
    from argparse import ArgumentTypeError

    from sim.inputs import show

    value = int(text) if len(text) <= 40 else None  # a ValueError: "invalid int value"
    if value is None or not -MAX_FLAG_INT < value < MAX_FLAG_INT:
        raise ArgumentTypeError(f"must be an integer of at most 20 digits, got {show(text)}")
    return value


def float_flag(text: str) -> float:
    """Every ``type=float`` flag: a finite number (nan, inf and 1e400 refused here, by
    sim.inputs' number rule); each flag's own range is checked where it is used."""
    from argparse import ArgumentTypeError

    from sim.inputs import number_text

    float(text)  # a ValueError: argparse's own "invalid float value"
    return number_text(text, "", error=lambda message: ArgumentTypeError(message.strip()))


def positive(value, flag, zero_ok=False, hi=MAX_COUNT):
    """A count flag that must be positive (or, with ``zero_ok``, 0 or more) and at most
    ``hi``; None: not given."""
    if value is not None and not (0 if zero_ok else 1) <= value <= hi:
        what = "0 (in this process, without Ray) to" if zero_ok else "a positive integer up to"
        raise CliError(f"{flag} must be {what} {hi:,}, got {value}")


def deck_list(text: str) -> list[str]:
    decks = [d.strip() for d in text.split(",") if d.strip()]
    if not decks:
        raise CliError("--decks needs deck names separated by commas")
    return decks


def policy_list(text: str, n: int) -> tuple:
    names = [p.strip() for p in text.split(",")]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise CliError(f"--policy needs 1 or {n} names")
    return tuple(names)


def content_of(args):
    """The card files of the command: --content DIR, else the installed ones."""
    from sim.content.copies import load_content_dir

    return load_content_dir(getattr(args, "content", None))


def add_address_flag(p):
    """``--address``: an existing Ray cluster, reached with its own authentication
    (cluster/connect.py); the one flag of every command that plays on Ray."""
    p.add_argument(
        "--address",
        default=None,
        metavar="HOST:PORT",
        help="an existing Ray cluster: the address its head node printed at start (default: "
        "$RAY_ADDRESS, else a local Ray); its token is found as Ray finds it "
        "(~/.ray/auth_token or $RAY_AUTH_TOKEN)",
    )


def add_content_flag(p):
    p.add_argument(
        "--content",
        default=None,
        metavar="DIR",
        help="play a copy of the card files (kalarite cards copy DIR) instead of the "
        "installed ones",
    )


def add_json_options(p, what: str = "the result", also=()) -> None:
    """Every command's one JSON convention: ``--json`` prints ``what`` as one JSON document
    on stdout (instead of the text; notes and progress go to stderr), ``--json-out FILE``
    also writes it to FILE ('-': stdout, as --json). ``emit`` does the printing. ``also``:
    older spellings of --json-out kept working (listed in the help beside it)."""
    p.add_argument(
        "--json",
        action="store_true",
        help=f"print {what} as one JSON document on stdout instead of the text",
    )
    p.add_argument(
        "--json-out",
        *also,
        dest="json_out",
        default=None,
        metavar="FILE",
        help=f"also write {what} as JSON to FILE ('-': stdout, as --json)",
    )


def wants_json(args) -> bool:
    """Does stdout carry the JSON document (``--json``, or ``--json-out -``)?"""
    return bool(getattr(args, "json", False)) or getattr(args, "json_out", None) == "-"


def check_json_out(args) -> None:
    """Refuse a --json-out FILE that could not be written before the command does its work
    (minutes of games must not end in a bad path)."""
    import pathlib

    path = getattr(args, "json_out", None)
    if path is None or path == "-":
        return
    p = pathlib.Path(path)
    if p.is_dir():
        raise CliError(f"--json-out {path!r} is a directory: give a file name")
    parent = p.parent if str(p.parent) else pathlib.Path(".")
    if not parent.is_dir():
        raise CliError(f"--json-out {path!r}: no directory {str(parent)!r}")


def json_text(doc) -> str:
    """Strict JSON (NaN and infinities as null, which JSON has no spelling for)."""
    import json

    return json.dumps(json_ready(doc), indent=1, allow_nan=False)


def json_ready(x):
    """``x`` with NaN and infinities as None and numpy scalars as Python numbers."""
    import math

    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {str(k): json_ready(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [json_ready(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, str | bytes):  # numpy scalars
        return json_ready(x.item())
    return x


def emit(args, doc, text=None) -> None:
    """A command's result: written to --json-out FILE if given, then on stdout as one JSON
    document with --json, else ``text()`` (a callable, so the text is built only if shown;
    None: the command printed its text already)."""
    import pathlib

    out = getattr(args, "json_out", None)
    if out is not None and out != "-":
        try:
            pathlib.Path(out).write_text(json_text(doc) + "\n", encoding="utf-8")
        except OSError as e:
            raise OSError(f"cannot write --json-out {out!r}: {e.strerror or e}") from None
    if wants_json(args):
        print(json_text(doc), flush=True)
    elif text is not None:
        print(text())
