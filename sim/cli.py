"""The `kalarite` command line.

Bad input always ends in one line `kalarite: error: ...` on stderr and exit status 2.
"""

import argparse
import json
import sys

from core import constants as K


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """Argument errors become CliError, so they too end in one `kalarite: error:` line
    (argparse would print the usage and its own error line)."""

    def error(self, message):
        where = self.prog.partition(" ")[2]  # the subcommand, if any
        raise CliError(f"{where}: {message}" if where else message)


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


def cmd_play(args):
    from sim.content import load_content
    from sim.single_game import GameConfig, format_game, play_logged

    content = load_content()
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
    s, events = play_logged(content, cfg)
    print(format_game(content, cfg, s, events))


def cmd_moves(args):
    from sim.content import load_content
    from sim.position import legal_moves, load_position

    content = load_content()
    s = load_position(args.position, content)
    print(json.dumps(legal_moves(s, content), indent=2))


def cmd_cards(args):
    from sim.cards_view import list_cards, show_card
    from sim.content import load_content

    content = load_content()
    print(show_card(content, args.card) if args.card else list_cards(content))


def _positive(value, flag):
    if value is not None and value < 1:
        raise CliError(f"{flag} must be a positive integer, got {value}")


def _run_study(study, content, args) -> int:
    """Play a study into --out; the summary line on stdout. Exit status 0, 1 when a chunk
    failed for good, 130 when interrupted (both resumable by running the command again)."""
    from cluster.runner import StudyFailed, StudyInterrupted, run_study

    _positive(args.workers, "--workers")
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
    from sim.content import load_content
    from sim.study import simulate_study

    content = load_content()
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
    )
    return _run_study(study, content, args)


def cmd_study(args):
    from sim.content import load_content
    from sim.study import load_study

    content = load_content()
    study = load_study(args.spec, content, beings_without_effects=args.beings_without_effects)
    return _run_study(study, content, args)


def _add_run_flags(p):
    p.add_argument("--out", required=True, help="dataset directory (Parquet tables + study.json)")
    p.add_argument(
        "--workers", type=int, default=None, help="parallel workers (default: all local cores)"
    )
    p.add_argument(
        "--address",
        default=None,
        help="address of an existing Ray cluster (default: $RAY_ADDRESS, else a local Ray)",
    )
    p.add_argument("--chunk-size", type=int, default=None, help="games per chunk (default 2000)")
    p.add_argument(
        "--overwrite", action="store_true", help="replace a finished or different study in --out"
    )
    p.add_argument(
        "--beings-without-effects",
        action="store_true",
        help="deal beings whose effect is not implemented yet, as no-effect beings "
        "(every output is marked)",
    )


def cmd_demo(args):
    from sim.demo import run_demo

    return run_demo(args.out, args.games, args.workers)


def cmd_players(args):
    from sim.players_view import load_ladder, player_rows, players_text

    ladder = load_ladder(args.ladder)
    rows = player_rows(ladder)
    print(json.dumps(rows, indent=1) if args.json else players_text(rows, ladder))


def _finished(out, study) -> bool:
    """Does ``out`` hold this study, complete?"""
    from results.store import read_manifest

    try:
        m = read_manifest(out)
    except (OSError, ValueError):
        return False
    return m.get("status") == "complete" and m.get("study") == study.to_dict()


def cmd_ladder(args):
    import shlex

    from cluster.runner import run_study
    from sim.content import load_content
    from sim.ladder import LADDER_PLAYERS, ladder_result, ladder_study, write_json
    from sim.players import parse_policy

    players = [p.strip() for p in args.players.split(",")] if args.players else LADDER_PLAYERS
    if len(players) < 2 or len(set(players)) != len(players):
        raise CliError("--players needs two or more different players")
    for p in players:
        parse_policy(p)
    _positive(args.games, "--games")
    _positive(args.workers, "--workers")
    content = load_content()
    study = ladder_study(content, players, args.games, args.seed)
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
        )
    )
    result = ladder_result(args.out, players, content, command, args.speed_seconds)
    write_json(result, args.result)
    print(f"kalarite: ladder -> {args.result}")
    return 0


def cmd_tune(args):
    from sim.players import parse_policy
    from sim.tune import tune

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


def cmd_bench(args):
    import json

    from benchmarks.bench import markdown_table, run

    res = run(quick=args.quick)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(res, f, indent=2)
    if args.json:
        print(json.dumps(res))
    else:
        print(markdown_table(res))


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="kalarite", description="Tash-Kalar Monte Carlo simulator")
    sub = p.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play one game and print its turn-by-turn log")
    play.add_argument("--decks", required=True, help="one deck per seat, e.g. imperial,highland")
    play.add_argument("--mode", default="high-form", choices=K.MODE_NAMES)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--game", type=int, default=0, help="game index (also picks the first seat)")
    play.add_argument("--policy", default="random", help="one policy, or one per seat")
    play.add_argument("--turn-cap", type=int, default=200)
    play.add_argument(
        "--beings-without-effects",
        action="store_true",
        help="deal beings whose effect is not implemented yet, as no-effect beings",
    )
    play.set_defaults(func=cmd_play)

    moves = sub.add_parser("moves", help="list every legal action in a position file, as JSON")
    moves.add_argument("position", help="position TOML file (format in README.md)")
    moves.set_defaults(func=cmd_moves)

    cards = sub.add_parser("cards", help="list the decks and cards, or show one card")
    cards.add_argument("action", nargs="?", choices=["show"], help="show one card")
    cards.add_argument("card", nargs="?", help="card id, e.g. imperial/swordmaster")
    cards.set_defaults(func=cmd_cards)

    simulate = sub.add_parser(
        "simulate", help="play many games of one matchup into a Parquet dataset (on Ray)"
    )
    simulate.add_argument(
        "--decks", required=True, help="one deck per seat, e.g. imperial,highland"
    )
    simulate.add_argument("--mode", default="high-form", choices=K.MODE_NAMES)
    simulate.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    simulate.add_argument("--policy", default="random", help="one policy, or one per seat")
    simulate.add_argument("--seed", type=int, default=0, help="study seed (default 0)")
    simulate.add_argument("--turn-cap", type=int, default=200)
    _add_run_flags(simulate)
    simulate.set_defaults(func=cmd_simulate)

    study = sub.add_parser("study", help="play a study spec (TOML) into a Parquet dataset (on Ray)")
    study.add_argument("spec", help="study spec TOML file (see sim/studies/example.toml)")
    _add_run_flags(study)
    study.set_defaults(func=cmd_study)

    demo = sub.add_parser("demo", help="run the default demo study and write its report")
    demo.add_argument("--out", default="runs/demo")
    demo.add_argument(
        "--games", type=int, default=None, help="games per matchup (default: the spec's 300)"
    )
    demo.add_argument("--workers", type=int, default=None, help="Ray workers (default: cores)")
    demo.set_defaults(func=cmd_demo)

    from results.commands import add_report_commands

    add_report_commands(sub)

    players = sub.add_parser(
        "players", help="list the players and profiles with their speed and strength"
    )
    players.add_argument("--json", action="store_true", help="print a JSON list of objects")
    players.add_argument(
        "--ladder", default=None, help="ladder file (default: benchmarks/results/ladder.json)"
    )
    players.set_defaults(func=cmd_players)

    ladder = sub.add_parser(
        "ladder", help="rate the players: round-robin games on Ray, Bradley-Terry ratings"
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
        "--result", default="benchmarks/results/ladder.json", help="where the ladder goes"
    )
    ladder.add_argument(
        "--speed-seconds", type=float, default=5.0, help="CPU seconds to time each player"
    )
    ladder.add_argument("--overwrite", action="store_true", help="replace a different study")
    ladder.set_defaults(func=cmd_ladder)

    tune = sub.add_parser(
        "tune", help="search a player's evaluation weights (cross-entropy method on Ray)"
    )
    tune.add_argument("--player", default="planner", help="player or profile to start from")
    tune.add_argument("--opponent", default="greedy", help="player to beat")
    tune.add_argument("--name", required=True, help="name of the profile to write")
    tune.add_argument("--iterations", type=int, default=6)
    tune.add_argument("--population", type=int, default=12, help="candidates per iteration")
    tune.add_argument("--games", type=int, default=72, help="games per candidate")
    tune.add_argument("--validation", type=int, default=400, help="games to rate the result")
    tune.add_argument("--seed", type=int, default=1)
    tune.add_argument("--workers", type=int, default=None, help="Ray workers (default: cores)")
    tune.add_argument(
        "--profiles", default=None, help="profile file (default: sim/profiles/players.toml)"
    )
    tune.set_defaults(func=cmd_tune)

    bench = sub.add_parser("bench", help="measure engine and Ray throughput")
    bench.add_argument("--quick", action="store_true", help="the short version (< 1 minute)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--out", help="also write the JSON to this file")
    bench.set_defaults(func=cmd_bench)
    return p


def main(argv=None) -> int:
    from sim.content import ContentError
    from sim.position import PositionError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if getattr(args, "action", None) == "show" and not args.card:
            parser.error("cards show needs a card id")
        rc = args.func(args)
    except (CliError, ContentError, PositionError, ValueError, OSError) as e:
        text = " ".join(str(e).split())  # always one line
        print(f"kalarite: error: {text}", file=sys.stderr)
        return 2
    return rc or 0


if __name__ == "__main__":
    sys.exit(main())
