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


def positive(value, flag, zero_ok=False):
    """A count flag that must be positive (or, with ``zero_ok``, 0 or more); None: not given."""
    if value is not None and value < (0 if zero_ok else 1):
        what = "0 (in this process, without Ray) or more" if zero_ok else "a positive integer"
        raise CliError(f"{flag} must be {what}, got {value}")


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
        help="an existing Ray cluster, e.g. the head's `ray start --head` address (default: "
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
