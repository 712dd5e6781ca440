"""The `kalarite` command line.

Bad input always ends in one line `kalarite: error: ...` on stderr and exit status 2; a run
that failed with good input (a chunk failed for good, a full disk) exits with status 1 and is
resumed by the same command; Ctrl-C exits with 130 (docs/studies.md).
`kalarite` alone prints the usage; every subcommand's `--help` gives its defaults and, where
they apply, the valid decks, modes and players (sim/app/cli_help.py, built only when asked for).
"""

import argparse
import json
import os
import sys

from core import constants as K
from sim.app.cli_args import (
    CliError,
    add_content_flag,
    add_json_options,
    check_json_out,
    content_of,
    deck_list,
    emit,
    float_flag,
    int_flag,
    policy_list,
)
from sim.app.cli_args import positive as _positive


class _Parser(argparse.ArgumentParser):
    """Argument errors become CliError, so they too end in one `kalarite: error:` line
    (argparse would print the usage and its own error line). ``lists``: the valid names
    (decks, modes, players) appended to the help, looked up only when it is printed
    (sim/app/cli_help.py). A command takes exactly the options its help lists: no
    abbreviations (`--ou` for `--out`), which a later option would silently break."""

    def __init__(self, *a, lists=(), **k):
        k.setdefault("formatter_class", _HelpFormatter)
        k.setdefault("allow_abbrev", False)
        super().__init__(*a, **k)
        self.lists = lists
        self.register("type", int, int_flag)  # every number flag bounded and finite
        self.register("type", float, float_flag)

    def error(self, message):
        where = self.prog.partition(" ")[2]  # the subcommand, if any
        raise CliError(f"{where}: {message}" if where else message)

    def format_help(self):
        text = super().format_help()
        if self.lists:
            from sim.app.cli_help import valid_names

            text += "\n" + valid_names(self.lists)
        return text


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Shows each option's default (when it has a meaningful one)."""

    def _get_help_string(self, action):
        text = action.help or ""
        default = action.default
        if (
            "%(default)" not in text
            and "default" not in text
            and action.option_strings
            and default is not None
            and default is not False
            and default is not argparse.SUPPRESS
        ):
            text += " (default: %(default)s)"
        return text


def cmd_play(args):
    from sim.chunking import MAX_GAMES
    from sim.single_game import GameConfig, format_game, play_logged

    content = content_of(args)
    decks = deck_list(args.decks)
    if not 0 <= args.game < MAX_GAMES:
        raise CliError(f"--game must be a game index from 0 to {MAX_GAMES - 1:,}, got {args.game}")
    cfg = GameConfig(
        decks=decks,
        mode=args.mode,
        seed=args.seed,
        game_index=args.game,
        policies=policy_list(args.policy, len(decks)),
        turn_cap=args.turn_cap,
        beings_without_effects=args.beings_without_effects,
    )
    if args.check:
        from sim.app.check import play_and_check

        return play_and_check(content, cfg)
    s, events = play_logged(content, cfg)
    print(format_game(content, cfg, s, events))


def _cached(kernel) -> bool:
    """Does numba's on-disk cache hold ``kernel`` for this engine? (Unknown counts as yes.)"""
    try:  # its cache index, empty when missing or stale (numba internals)
        return bool(kernel._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba internals moved: say nothing rather than wrong
        return True


def cmd_moves(args):
    from sim.app.progress_line import said, ticking
    from sim.position import QUERY_KERNELS, legal_moves, load_position

    content = content_of(args)
    s = load_position(args.position, content)
    if all(_cached(k) for k in QUERY_KERNELS):  # the usual case: the cached kernels load
        moves = legal_moves(s, content)
    else:  # (a kernel this position does not call stays uncached: said only if it takes long)
        label, text = "compiling the position query", "first run of this engine only"
        with ticking(label, text, after_s=1.0) as line:
            moves = legal_moves(s, content)
            if said(line):
                line("done; later calls load it from the cache", force=True)
    print(json.dumps(moves, indent=2))


def cmd_cards(args):
    from sim.app.cards_view import list_cards, show_card

    if args.action == "copy":
        from sim.content.copies import copy_content

        d = copy_content(args.card)
        print(
            f"kalarite: copied the card files to {d}; edit them, then play them with "
            f'--content {d} (or content = "{d}" in a study spec)'
        )
        return 0
    content = content_of(args)
    print(show_card(content, args.card) if args.card else list_cards(content))


MAX_BENCH_ROUNDS = 1000  # interleaved rounds of a side-by-side: a few are minutes


def cmd_bench(args):
    from sim.app.bench.suite import markdown_table, run, run_baseline

    _positive(args.rounds, "--rounds", hi=MAX_BENCH_ROUNDS)
    _positive(args.compile_rounds, "--compile-rounds", hi=MAX_BENCH_ROUNDS)
    if args.compile_rounds and not args.baseline:
        raise CliError("--compile-rounds needs --baseline")
    if args.baseline:
        from sim.app.bench.side_by_side import ratio_table

        res = run_baseline(args.baseline, args.quick, args.rounds, args.compile_rounds or 1)
        table = ratio_table
    else:
        res = run(quick=args.quick)
        table = markdown_table
    emit(args, res, lambda: table(res))


def _sub(sub, name, summary, lists=(), extra=""):
    """A subcommand whose help starts with its one-line summary."""
    return sub.add_parser(
        name,
        help=summary,
        description=summary + (f"\n\n{extra}" if extra else ""),
        lists=lists,
    )


def cmd_serve(args):
    import os

    from cluster.connect import ClusterUnreachable, follow_cluster_auth
    from sim.app.service.config import ServiceConfig, parse_size
    from sim.app.service.server import serve

    address = args.address or os.environ.get("RAY_ADDRESS")
    if address and args.workers != 0:  # the cluster's token, or one line why not, at once
        try:  # (token mode, when needed, reaches every study's child)
            follow_cluster_auth(address)
        except ClusterUnreachable:
            pass  # not up yet: the service starts, its studies fail until it is

    config = ServiceConfig(
        data=args.data,
        host=args.host,
        port=args.port,
        token=args.token,
        address=args.address,
        workers=args.workers,
        max_running=args.max_running,
        max_games_study=args.max_games_per_study,
        max_games_matchup=args.max_games_per_matchup,
        max_active_per_user=args.max_active_per_user,
        disk_quota=parse_size(args.max_disk),
    )
    return serve(config)


def _add_serve(sub):
    serve = _sub(
        sub,
        "serve",
        "run studies as a service: an HTTP API (/api/v1, documented at /docs) and a web page",
        extra="The decks, modes and players a submitted spec may name: GET /api/v1/options "
        "(or kalarite study --help).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--data",
        default="runs/service",
        help="directory of the registry, the studies' datasets and reports (default runs/service)",
    )
    serve.add_argument(
        "--address",
        default=None,
        help="Ray cluster for the studies (default: $RAY_ADDRESS, else the service's own local "
        "Ray)",
    )
    serve.add_argument(
        "--token",
        default=None,
        help="bearer token every API call must send (default: $KALARITE_TOKEN); required to "
        "bind to anything but loopback",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=None,
        help="Ray workers per study (default: all cores; 0: each study in its own process, "
        "without Ray)",
    )
    serve.add_argument(
        "--max-running", type=int, default=1, help="studies played at once (default 1)"
    )
    from sim.app.service import config as service
    from sim.app.service import tokens_cli

    for option, default, what in (
        ("--max-games-per-study", service.MAX_GAMES_STUDY, "games one study may ask for"),
        ("--max-games-per-matchup", service.MAX_GAMES_MATCHUP, "games per matchup"),
        (
            "--max-active-per-user",
            service.MAX_ACTIVE_PER_USER,
            "studies a submit token may have queued or running",
        ),
    ):
        serve.add_argument(
            option, type=int, default=default, help=f"{what} (default {default}; 0: no limit)"
        )
    serve.add_argument(
        "--max-disk",
        default="20G",
        help="stop taking studies once the data directory holds this much (default 20G; 0: "
        "no quota)",
    )
    tokens_cli.add_parser(serve, "runs/service")
    serve.set_defaults(func=cmd_serve, serve_command=None)


def _version() -> str:
    from sim import version

    return f"kalarite {version()}"


class _VersionAction(argparse.Action):
    def __init__(self, option_strings, dest=argparse.SUPPRESS, **k):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **k)

    def __call__(self, parser, namespace, values, option_string=None):
        print(_version())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="kalarite",
        description="Tash-Kalar Monte Carlo simulator: play many games, write them as Parquet, "
        "report on balance. `kalarite COMMAND --help` for a command's options.",
    )
    p.add_argument("--version", action=_VersionAction, help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = _sub(
        sub,
        "play",
        "play one game and print its turn-by-turn log",
        ("decks", "modes", "players"),
    )
    play.add_argument("--decks", required=True, help="one deck per seat, e.g. imperial,highland")
    play.add_argument("--mode", default="high-form", choices=K.MODE_NAMES, help="game mode")
    play.add_argument("--seed", type=int, default=0, help="study seed")
    play.add_argument("--game", type=int, default=0, help="game index (also picks the first seat)")
    play.add_argument("--policy", default="random", help="one player, or one per seat")
    play.add_argument("--turn-cap", type=int, default=200, help="the game ends after this turn")
    play.add_argument(
        "--beings-without-effects",
        action="store_true",
        help="deal beings whose effect is not implemented yet, as no-effect beings",
    )
    play.add_argument(
        "--check",
        action="store_true",
        help="run the invariant checker after every option: the log stops where one broke "
        "(exit 1), as `kalarite check` reports it",
    )
    add_content_flag(play)
    play.set_defaults(func=cmd_play)

    moves = _sub(
        sub,
        "moves",
        "list every legal action in a position file, as JSON",
        (("decks", "the position file's decks"), ("modes", "the position file's mode")),
    )
    moves.add_argument("position", help="position TOML file (format in docs/cli.md)")
    add_content_flag(moves)
    moves.set_defaults(func=cmd_moves)

    cards = _sub(
        sub,
        "cards",
        "list the decks and cards, show one card, or copy the card files to change them",
        extra="kalarite cards                  every deck and card\n"
        "kalarite cards show DECK/CARD   one card: pattern (with its symbols), rank, ops\n"
        "kalarite cards copy DIR         copy the card files to DIR, to play with --content",
    )
    cards.add_argument(
        "action", nargs="?", choices=["show", "copy"], help="show one card, or copy the files"
    )
    cards.add_argument(
        "card", nargs="?", help="card id, e.g. imperial/swordmaster (copy: the new directory)"
    )
    add_content_flag(cards)
    cards.set_defaults(func=cmd_cards)

    from sim.app.study_commands import add_study_commands

    add_study_commands(sub, _sub)

    from sim.app.report_commands import add_report_commands

    add_report_commands(sub)

    _add_serve(sub)

    from sim.app.player_commands import add_player_commands

    add_player_commands(sub, _sub)

    from sim.app.check import add_check_command

    add_check_command(sub, _sub)

    from sim.app.suggest.command import add_suggest_command

    add_suggest_command(sub, _sub)

    bench = _sub(sub, "bench", "measure engine and Ray throughput")
    bench.add_argument(
        "--quick", action="store_true", help="the short version (a few minutes: cold compile)"
    )
    bench.add_argument(
        "--baseline",
        metavar="DIR",
        help="measure side by side against another checkout (e.g. a git worktree of an older "
        "commit), interleaved, and print the ratios",
    )
    bench.add_argument(
        "--rounds", type=int, default=None, help="interleaved rounds with --baseline (7; 3 quick)"
    )
    bench.add_argument(
        "--compile-rounds",
        type=int,
        default=None,
        help="cold-compile pairs with --baseline, alternating which side goes first (1)",
    )
    add_json_options(bench, "the figures", also=("--out",))
    bench.set_defaults(func=cmd_bench)
    return p


def _old_json_hint(message: str, argv: list) -> str:
    """`--json FILE` (compare's old spelling) now reads FILE as an extra argument: say what
    --json has become (a flag, the JSON on stdout) and where a file goes now."""
    after = argv[argv.index("--json") + 1 : argv.index("--json") + 2] if "--json" in argv else []
    old = (after and "unrecognized arguments" in message and after[0] in message.split()) or (
        "--json: ignored explicit argument" in message
    )
    return "; --json prints the JSON on stdout, --json-out FILE writes it to a file" if old else ""


def _compiled_here() -> bool:
    """Did this process compile a kernel (a cold cache) rather than load it? (Unknown: no.)"""
    kernels = []
    if "core.kernel" in sys.modules:
        kernel = sys.modules["core.kernel"]
        kernels += [kernel.play_games, kernel.play_games_checked]
    if "sim.position" in sys.modules:
        kernels += list(sys.modules["sim.position"].QUERY_KERNELS)
    try:  # numba's compile statistics of each dispatcher
        return any(k.stats.cache_misses for k in kernels)
    except Exception:  # noqa: BLE001 - numba internals moved: say nothing rather than wrong
        return False


def _exit_after_a_compile(rc: int) -> None:
    """A process that compiled the engine spends seconds after its last line freeing the
    compiler's objects one by one (issue 50: 4 s at load 5, 8.7 s at load 15, of which
    1.6 s the garbage collector): its exit handlers run (Ray's, logging's), then it ends at
    once, the memory going back to the system whole. Only the command line's own process,
    and only after a compile."""
    if not _compiled_here():
        return
    import atexit

    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)


def main(argv=None) -> int:
    """The command line (``argv`` None: this process's, which then ends); the exit status."""
    rc = _main(sys.argv[1:] if argv is None else list(argv))
    if argv is None:
        _exit_after_a_compile(rc or 0)
    return rc


def _main(argv: list) -> int:
    parser = build_parser()
    if not argv:
        parser.print_help()
        return 0
    try:
        try:
            args = parser.parse_args(argv)
        except CliError as e:
            raise CliError(f"{e}{_old_json_hint(str(e), argv)}") from None
        check_json_out(args)
        if getattr(args, "action", None) == "show" and not args.card:
            parser.error("cards show needs a card id")
        if getattr(args, "action", None) == "copy" and not args.card:
            parser.error("cards copy needs a directory")
        rc = args.func(args)
    except BrokenPipeError:
        # the reader went away (`kalarite cards show X | head`): not an error of ours; stdout
        # goes to /dev/null so the interpreter's final flush does not complain either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (CliError, ValueError, OSError) as e:  # bad content, positions, specs: ValueErrors
        text = " ".join(str(e).split())  # always one line
        print(f"kalarite: error: {text}", file=sys.stderr)
        return 2
    return rc or 0


if __name__ == "__main__":
    sys.exit(main())
