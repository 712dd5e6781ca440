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
from sim.study import DEFAULT_POLICY, WHY_DEFAULT_POLICY

POLICY_HELP = (
    f"one player, or one per seat (default: {DEFAULT_POLICY}, the turn planner: "
    f"{WHY_DEFAULT_POLICY}; --policy random for speed work)"
)


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """Argument errors become CliError, so they too end in one `kalarite: error:` line
    (argparse would print the usage and its own error line). ``lists``: the valid names
    (decks, modes, players) appended to the help, looked up only when it is printed."""

    def __init__(self, *a, lists=(), **k):
        k.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*a, **k)
        self.lists = lists

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


def _decks(text: str) -> list[str]:
    decks = [d.strip() for d in text.split(",") if d.strip()]
    if not decks:
        raise CliError("--decks needs deck names separated by commas")
    return decks


def _policies(text: str, n: int) -> tuple:
    names = [p.strip() for p in text.split(",")]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise CliError(f"--policy needs 1 or {n} names")
    return tuple(names)


def _content(args):
    """The card files of the command: --content DIR, else the installed ones."""
    from sim.content.copies import load_content_dir

    return load_content_dir(getattr(args, "content", None))


def cmd_play(args):
    from sim.single_game import GameConfig, format_game, play_logged

    content = _content(args)
    decks = _decks(args.decks)
    if args.game < 0:
        raise CliError("--game must be a game index >= 0")
    cfg = GameConfig(
        decks=decks,
        mode=args.mode,
        seed=args.seed,
        game_index=args.game,
        policies=_policies(args.policy, len(decks)),
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

    content = _content(args)
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
    content = _content(args)
    print(show_card(content, args.card) if args.card else list_cards(content))


def _positive(value, flag, zero_ok=False):
    if value is not None and value < (0 if zero_ok else 1):
        what = "0 (in this process, without Ray) or more" if zero_ok else "a positive integer"
        raise CliError(f"{flag} must be {what}, got {value}")


def _run_study(study, content, args) -> int:
    """Play a study into --out; the summary line on stdout. Exit status 0, 1 when a chunk
    failed for good, 130 when interrupted (both resumable by running the command again)."""
    from cluster.runner import StudyFailed, StudyInterrupted, run_study

    _positive(args.workers, "--workers", zero_ok=True)
    _positive(args.chunk_size, "--chunk-size")
    try:
        summary = run_study(
            study,
            content,
            args.out,
            workers=args.workers,
            address=args.address,
            chunk_size=args.chunk_size,
            overwrite=args.overwrite,
            force=args.force,
        )
    except StudyInterrupted as e:
        print(
            f"kalarite: interrupted: {e.summary.line()}; run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    except KeyboardInterrupt:
        print("kalarite: interrupted before the study started", file=sys.stderr)
        return 130
    except StudyFailed as e:
        text = " ".join(str(e).split())
        print(f"kalarite: error: {text}; run the same command again to resume", file=sys.stderr)
        return 1
    print(f"kalarite: {summary.line()}")
    return 0


def cmd_simulate(args):
    from sim.study import simulate_study

    content = _content(args)
    decks = _decks(args.decks)
    study = simulate_study(
        content,
        decks=decks,
        mode=args.mode,
        policies=_policies(args.policy, len(decks)),
        games=args.games,
        seed=args.seed,
        turn_cap=args.turn_cap,
        beings_without_effects=args.beings_without_effects,
        positions=args.positions or 0,
    )
    return _run_study(study, content, args)


def cmd_study(args):
    from sim.content.copies import load_content_dir
    from sim.study import load_study

    study = load_study(
        args.spec,
        beings_without_effects=args.beings_without_effects,
        content_dir=args.content,
        positions=args.positions,
        until=args.until,
    )
    return _run_study(study, load_content_dir(study.content), args)


def _add_run_flags(p):
    p.add_argument("--out", required=True, help="dataset directory (Parquet tables + study.json)")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="parallel workers (default: all local cores; 0: in this process, without Ray)",
    )
    p.add_argument(
        "--address",
        default=None,
        help="address of an existing Ray cluster (default: $RAY_ADDRESS, else a local Ray)",
    )
    p.add_argument(
        "--chunk-size",
        type=int,
        default=None,
        help="games per chunk (default: about 10 s of play, at most 2000; never changes a result)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace a different study in --out (running a study again only plays what is "
        "missing)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="start even when the study's estimated output is more than the free disk space "
        "at --out",
    )
    _add_content_flag(p)
    p.add_argument(
        "--beings-without-effects",
        action="store_true",
        help="deal beings whose effect is not implemented yet, as no-effect beings "
        "(every output is marked)",
    )
    p.add_argument(
        "--positions",
        type=int,
        default=None,
        metavar="N",
        help="also write the positions table (what `kalarite learn` fits on): the features of "
        "about one turn end in N, 0 off (default: off; study: the spec's 'positions' key)",
    )


def _add_content_flag(p):
    p.add_argument(
        "--content",
        default=None,
        metavar="DIR",
        help="play a copy of the card files (kalarite cards copy DIR) instead of the "
        "installed ones",
    )


def cmd_trace(args):
    from sim.app.trace import trace_spec
    from sim.study import FLAGS, study_from_dict

    content = _content(args)
    _positive(args.games, "--games")
    try:
        spec = trace_spec(args)
    except ValueError as e:
        raise CliError(str(e)) from None
    study = study_from_dict(spec, content, where="trace", flags=FLAGS)
    rc = _run_study(study, content, args)
    if rc == 0:
        print(f"kalarite: the skill trace: kalarite report {args.out}")
    return rc


def cmd_demo(args):
    from sim.app.demo import run_demo

    _positive(args.workers, "--workers", zero_ok=True)
    return run_demo(args.out, args.games, args.workers, overwrite=args.overwrite)


def cmd_players(args):
    from sim.app.players_view import load_ladder, player_rows, players_text

    ladder, ladder_all = load_ladder(args.ladder), load_ladder(args.ladder_all, "all")
    rows = player_rows(ladder, ladder_all=ladder_all)
    print(json.dumps(rows, indent=1) if args.json else players_text(rows, ladder, ladder_all))


def _finished(out, study) -> bool:
    """Does ``out`` hold this study, complete?"""
    from results.store import read_manifest

    try:
        m = read_manifest(out)
    except (OSError, ValueError):
        return False
    from sim.study import canonical_spec

    return m.get("status") == "complete" and canonical_spec(m.get("study")) == study.to_dict()


def cmd_ladder(args):
    import shlex

    from cluster.runner import run_study
    from sim.app.ladder import (
        LADDER_FILES,
        LADDER_PLAYERS,
        ladder_decks,
        ladder_result,
        ladder_study,
        write_json,
    )
    from sim.content import load_content
    from sim.players import parse_policy

    players = [p.strip() for p in args.players.split(",")] if args.players else LADDER_PLAYERS
    if len(players) < 2 or len(set(players)) != len(players):
        raise CliError("--players needs two or more different players")
    for p in players:
        parse_policy(p)
    _positive(args.games, "--games")
    _positive(args.workers, "--workers")
    content = load_content()
    deck_set, decks = ladder_decks(content, args.decks)
    result_path = args.result or LADDER_FILES.get(deck_set)
    if result_path is None:
        raise CliError(
            "--decks with a list of its own needs --result (only the base and the all-deck "
            "ladders have a checked-in file)"
        )
    study = ladder_study(content, players, args.games, args.seed, decks)
    if not args.overwrite and _finished(args.out, study):
        print(f"kalarite: {args.out} already holds these ladder games: rating them")
    else:
        summary = run_study(
            study, content, args.out, workers=args.workers, overwrite=args.overwrite
        )
        print(f"kalarite: {summary.line()}")
    command = "kalarite ladder " + " ".join(
        shlex.quote(x)
        for x in (
            ["--out", args.out, "--games", str(args.games), "--seed", str(args.seed)]
            + (["--players", args.players] if args.players else [])
            + (["--decks", args.decks] if args.decks else [])
        )
    )
    result = ladder_result(args.out, players, content, command, args.speed_seconds, deck_set)
    write_json(result, result_path)
    print(f"kalarite: ladder -> {result_path}")
    return 0


def cmd_competence(args):
    from sim.app.competence import competence_text, run_competence
    from sim.content import load_content

    _positive(args.games, "--games")
    result = run_competence(args, load_content(), log=lambda s: print(s, file=sys.stderr))
    print(json.dumps(result, indent=1) if args.json else competence_text(result))
    return 0


def cmd_tune(args):
    from sim.app.tune import tune
    from sim.players import parse_policy

    for flag in ("iterations", "population", "games", "validation", "workers"):
        _positive(getattr(args, flag), f"--{flag}")
    if args.population < 2:
        raise CliError("--population must be at least 2")
    if not args.name.replace("-", "_").isidentifier():
        raise CliError(f"--name {args.name!r}: letters, digits, '-' and '_' only")
    parse_policy(args.player)
    parse_policy(args.opponent)
    prof = tune(
        args.player,
        args.opponent,
        args.name,
        iterations=args.iterations,
        population=args.population,
        games=args.games,
        validation=args.validation,
        seed=args.seed,
        workers=args.workers,
        path=args.profiles,
        log=lambda line: print(f"kalarite: {line}", flush=True),
    )
    print(f"kalarite: profile {prof.name!r} -> {args.profiles or 'sim/profiles/players.toml'}")
    return 0


def cmd_learn(args):
    from sim.app.learn import run_learn

    return run_learn(args)


def _add_learn(sub):
    from results.learn import DEFAULT_HOLDOUT, DEFAULT_L2

    learn = _sub(
        sub,
        "learn",
        "fit a win-probability model per mode on a study's positions and store it as a "
        "planner profile",
        ("players",),
        extra="The study must have the positions table (play it with --positions N). Each "
        "position is labelled 1 when the seat that moved won, 0 when it lost (games with a "
        "shared win are left out); whole games are held out for the test figures (log-loss, "
        "Brier score, reliability by deciles). The profile is the base player with the "
        "fitted model of every mode the study played: play it as --policy NAME. See "
        "docs/players.md.",
    )
    learn.add_argument(
        "study",
        nargs="+",
        help="dataset directory of a study played with --positions (several: fit their union, "
        "e.g. the last model's self-play beside the earlier studies)",
    )
    learn.add_argument(
        "--name", default="learned", help="name of the profile to write (default: learned)"
    )
    learn.add_argument(
        "--base",
        default="planner",
        help="the player or planner profile whose settings and weights the profile keeps "
        "(default: planner)",
    )
    learn.add_argument(
        "--holdout",
        type=float,
        default=DEFAULT_HOLDOUT,
        help=f"share of the games held out for the test figures (default {DEFAULT_HOLDOUT})",
    )
    learn.add_argument(
        "--l2",
        type=float,
        default=DEFAULT_L2,
        help=f"L2 penalty on the standardised coefficients (default {DEFAULT_L2})",
    )
    learn.add_argument(
        "--hidden",
        type=int,
        default=0,
        help="units of a hidden layer beside the linear model (0: linear, the default; at "
        "most 32): a nonlinear leaf value",
    )
    learn.add_argument(
        "--l2-hidden",
        type=float,
        default=None,
        help="L2 penalty on the hidden layer's weights (default 100)",
    )
    learn.add_argument(
        "--seed", type=int, default=0, help="seed of the held-out split (and of a network's start)"
    )
    learn.add_argument("--json", action="store_true", help="print one JSON object")
    learn.add_argument(
        "--profiles", default=None, help="profile file (default: sim/profiles/players.toml)"
    )
    learn.set_defaults(func=cmd_learn)


def cmd_bench(args):
    import json

    from benchmarks.bench import markdown_table, run, run_baseline

    _positive(args.rounds, "--rounds")
    _positive(args.compile_rounds, "--compile-rounds")
    if args.compile_rounds and not args.baseline:
        raise CliError("--compile-rounds needs --baseline")
    if args.baseline:
        from benchmarks.side_by_side import ratio_table

        res = run_baseline(args.baseline, args.quick, args.rounds, args.compile_rounds or 1)
        table = ratio_table
    else:
        res = run(quick=args.quick)
        table = markdown_table
    if args.out:
        with open(args.out, "w") as f:
            json.dump(res, f, indent=2)
    if args.json:
        print(json.dumps(res))
    else:
        print(table(res))


def _sub(sub, name, summary, lists=(), extra=""):
    """A subcommand whose help starts with its one-line summary."""
    return sub.add_parser(
        name,
        help=summary,
        description=summary + (f"\n\n{extra}" if extra else ""),
        lists=lists,
    )


def cmd_serve(args):
    from sim.app.service.config import ServiceConfig, parse_size
    from sim.app.service.server import serve

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
    _add_content_flag(play)
    play.set_defaults(func=cmd_play)

    moves = _sub(
        sub,
        "moves",
        "list every legal action in a position file, as JSON",
        ("decks", "modes"),
    )
    moves.add_argument("position", help="position TOML file (format in docs/cli.md)")
    _add_content_flag(moves)
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
    _add_content_flag(cards)
    cards.set_defaults(func=cmd_cards)

    simulate = _sub(
        sub,
        "simulate",
        "play many games of one matchup into a Parquet dataset (on Ray)",
        ("decks", "modes", "players"),
    )
    simulate.add_argument(
        "--decks", required=True, help="one deck per seat, e.g. imperial,highland"
    )
    simulate.add_argument("--mode", default="high-form", choices=K.MODE_NAMES, help="game mode")
    simulate.add_argument(
        "--games",
        type=int,
        default=1000,
        help="games to play (default 1000: about 100 s of one core with the planner, whose "
        "win rates are then good to about +-3 points)",
    )
    simulate.add_argument("--policy", default=DEFAULT_POLICY, help=POLICY_HELP)
    simulate.add_argument("--seed", type=int, default=0, help="study seed")
    simulate.add_argument("--turn-cap", type=int, default=200, help="a game ends after this turn")
    _add_run_flags(simulate)
    simulate.set_defaults(func=cmd_simulate)

    study = _sub(
        sub,
        "study",
        "play a study spec (TOML) into a Parquet dataset (on Ray)",
        ("decks", "modes", "players"),
        extra="Spec keys: see sim/studies/example.toml and docs/studies.md. A spec "
        f"without 'policies' is played by {DEFAULT_POLICY!r} in every seat: {WHY_DEFAULT_POLICY} "
        '(policies = "random" for speed work).',
    )
    study.add_argument("spec", help="study spec TOML file (see sim/studies/example.toml)")
    study.add_argument(
        "--until",
        default=None,
        metavar="RULE",
        help="stop at the first of the pre-planned doubling looks that decides, the spec's "
        "games being the cap: 'decided' (every mode's stability verdict) or 'width=W' (every "
        "deck's interval narrower than W points); the error is spent over the looks "
        "(default: the spec's 'until' key, else play every game)",
    )
    _add_run_flags(study)
    study.set_defaults(func=cmd_study)

    trace = _sub(
        sub,
        "trace",
        "a player's skill trace: its budget doubled level by level, self-play at each level "
        "and adjacent levels against each other (on Ray); kalarite report shows it",
        ("decks", "modes", "players"),
    )
    trace.add_argument(
        "--player", required=True, help="a player with a search budget (planner, mc, a profile)"
    )
    trace.add_argument(
        "--levels", type=int, default=4, help="budgets N, 2N, 4N, ...: how many (at least 4)"
    )
    trace.add_argument(
        "--base",
        type=int,
        default=None,
        help="the first budget N (default: the player's own, or the largest whose top level "
        "its setting allows)",
    )
    trace.add_argument("--decks", default=None, help="decks, comma separated (default: all)")
    trace.add_argument(
        "--modes", default=None, help="duel modes, comma separated (default: high-form)"
    )
    trace.add_argument(
        "--games",
        type=int,
        required=True,
        help="games per matchup: per deck pairing and level, and per deck, seat order and "
        "adjacent pair of levels",
    )
    trace.add_argument("--seed", type=int, default=0, help="study seed")
    trace.add_argument("--name", default=None, help="the study's name (default: trace PLAYER)")
    trace.add_argument(
        "--until", default=None, help="stop at the first doubling look that decides (see study)"
    )
    _add_run_flags(trace)
    trace.set_defaults(func=cmd_trace)

    demo = _sub(
        sub,
        "demo",
        "run the default demo study (sim/studies/demo.toml) and write its report",
    )
    demo.add_argument("--out", default="runs/demo", help="dataset directory")
    demo.add_argument(
        "--games", type=int, default=None, help="games per matchup (default: the spec's)"
    )
    demo.add_argument(
        "--workers",
        type=int,
        default=None,
        help="Ray workers (default: all local cores; 0: in this process)",
    )
    demo.add_argument(
        "--overwrite", action="store_true", help="replace another study already in --out"
    )
    demo.set_defaults(func=cmd_demo)

    from sim.app.report_commands import add_report_commands

    add_report_commands(sub)

    _add_serve(sub)

    players = _sub(
        sub,
        "players",
        "list the players and profiles with their speed and strength",
        ("players",),
    )
    players.add_argument("--json", action="store_true", help="print a JSON list of objects")
    players.add_argument(
        "--ladder", default=None, help="ladder file (default: benchmarks/results/ladder.json)"
    )
    players.add_argument(
        "--ladder-all",
        default=None,
        help="the all-deck ladder file (default: benchmarks/results/ladder_all_decks.json)",
    )
    players.set_defaults(func=cmd_players)

    ladder = _sub(
        sub,
        "ladder",
        "rate the players: round-robin games on Ray, Bradley-Terry ratings",
        ("players",),
    )
    ladder.add_argument("--out", required=True, help="dataset directory of the ladder games")
    ladder.add_argument(
        "--games",
        type=int,
        default=25,
        help="games per matchup: per pair of players, mode "
        "and ordered deck pairing (default 25: 225 per pair and mode)",
    )
    ladder.add_argument("--seed", type=int, default=1, help="study seed (default 1)")
    ladder.add_argument(
        "--players",
        default=None,
        help="players and profiles, weakest first (default: random,greedy,mc,planner)",
    )
    ladder.add_argument("--workers", type=int, default=None, help="Ray workers (default: cores)")
    ladder.add_argument(
        "--decks",
        default=None,
        help="the decks: 'base' (default: imperial, highland, sylvan), 'all' (every deck of "
        "the content) or a comma-separated list",
    )
    ladder.add_argument(
        "--result",
        default=None,
        help="where the ladder goes (default: benchmarks/results/ladder.json, or "
        "ladder_all_decks.json with --decks all)",
    )
    ladder.add_argument(
        "--speed-seconds", type=float, default=5.0, help="CPU seconds to time each player"
    )
    ladder.add_argument("--overwrite", action="store_true", help="replace a different study")
    ladder.set_defaults(func=cmd_ladder)

    from sim.app.competence import COMPETENCE_MODES, MECHANICS, TOP_PLAYER

    comp = _sub(
        sub,
        "competence",
        "what each expansion mechanic is worth to a player: full player against its "
        "restricted twin on the same deals",
        ("players",),
    )
    comp.add_argument(
        "--player", default=TOP_PLAYER, help=f"the full player (default: {TOP_PLAYER})"
    )
    comp.add_argument(
        "--games",
        type=int,
        default=100,
        help="games per matchup: per opponent deck, seat order and mode, for the full player "
        "and again for its twin (default 100)",
    )
    comp.add_argument(
        "--decks",
        default=None,
        help=f"expansion decks, comma separated (default: {','.join(MECHANICS)})",
    )
    comp.add_argument(
        "--modes",
        default=None,
        help=f"duel modes, comma separated (default: {','.join(COMPETENCE_MODES)})",
    )
    comp.add_argument("--seed", type=int, default=1, help="study seed (default 1)")
    comp.add_argument(
        "--workers",
        type=int,
        default=None,
        help="Ray workers (default: all local cores; 0: in this process, without Ray)",
    )
    comp.add_argument(
        "--out",
        default="runs/competence",
        help="directory of the datasets, one per deck and seat (default: runs/competence)",
    )
    comp.add_argument("--json", action="store_true", help="print one JSON object")
    comp.set_defaults(func=cmd_competence)

    tune = _sub(
        sub,
        "tune",
        "search a player's evaluation weights (cross-entropy method on Ray)",
        ("players",),
    )
    tune.add_argument(
        "--player", default="planner", help="player or profile to start from (default: planner)"
    )
    tune.add_argument("--opponent", default="greedy", help="player to beat (default: greedy)")
    tune.add_argument("--name", required=True, help="name of the profile to write")
    tune.add_argument("--iterations", type=int, default=6, help="rounds of the search (default: 6)")
    tune.add_argument(
        "--population", type=int, default=12, help="candidates per iteration (default: 12)"
    )
    tune.add_argument("--games", type=int, default=72, help="games per candidate (default: 72)")
    tune.add_argument(
        "--validation", type=int, default=400, help="games to rate the result (default: 400)"
    )
    tune.add_argument("--seed", type=int, default=1, help="search seed (default: 1)")
    tune.add_argument("--workers", type=int, default=None, help="Ray workers (default: cores)")
    tune.add_argument(
        "--profiles", default=None, help="profile file (default: sim/profiles/players.toml)"
    )
    tune.set_defaults(func=cmd_tune)

    _add_learn(sub)

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
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--out", help="also write the JSON to this file")
    bench.set_defaults(func=cmd_bench)
    return p


def main(argv=None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        parser.print_help()
        return 0
    try:
        args = parser.parse_args(argv)
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
