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


def add_content_flag(p):
    p.add_argument(
        "--content",
        default=None,
        metavar="DIR",
        help="play a copy of the card files (kalarite cards copy DIR) instead of the "
        "installed ones",
    )
