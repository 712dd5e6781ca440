"""The player subcommands of ``kalarite``: ``players`` (the list with speed and strength),
``ladder`` (ratings from round-robin games), ``competence`` (each expansion mechanic's worth),
``tune`` (weights searched by play) and ``learn`` (a fitted win-probability profile).
``add_player_commands`` registers them on the CLI's subparsers (sim.app.cli)."""

import sys

from sim.app.cli_args import CliError, add_address_flag, add_json_options, emit, positive


def cmd_players(args):
    from sim.app.players_view import player_rows, players_text
    from sim.strength import load_ladder

    ladder, ladder_all = load_ladder(args.ladder), load_ladder(args.ladder_all, "all")
    rows = player_rows(ladder, ladder_all=ladder_all)
    emit(args, rows, lambda: players_text(rows, ladder, ladder_all))


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

    from sim.app.ladder import ladder_decks, ladder_result, ladder_study, write_json
    from sim.app.study_commands import play_study
    from sim.content import load_content
    from sim.inputs import need_number
    from sim.players import parse_policy
    from sim.strength import LADDER_FILES, LADDER_PLAYERS

    players = [p.strip() for p in args.players.split(",")] if args.players else LADDER_PLAYERS
    if len(players) < 2 or len(set(players)) != len(players):
        raise CliError("--players needs two or more different players")
    for p in players:
        parse_policy(p)
    positive(args.games, "--games")
    positive(args.workers, "--workers")
    need_number(args.speed_seconds, "--speed-seconds", 0, 3600, CliError, lo_open=True)
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
        rc = play_study(study, content, args)
        if rc:
            return rc
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
    from sim.app.run_outcome import run_to_end
    from sim.content import load_content

    positive(args.games, "--games")
    content = load_content()
    result, rc = run_to_end(
        lambda: run_competence(args, content, log=lambda s: print(s, file=sys.stderr))
    )
    if rc:
        return rc
    emit(args, result, lambda: competence_text(result))
    return 0


def cmd_tune(args):
    from sim.app.tune import tune
    from sim.inputs import need_int
    from sim.players import check_profile_name, parse_policy

    for flag in ("iterations", "population", "games", "validation", "workers"):
        positive(getattr(args, flag), f"--{flag}")
    if args.population < 2:
        raise CliError("--population must be at least 2")
    # each iteration's games are seeded seed * 1000 + i (sim.app.tune)
    need_int(args.seed, "--seed", 0, 10**15, CliError)
    check_profile_name(args.name, "--name", CliError)
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


def _add_learn(sub, make):
    from results.learn import DEFAULT_HOLDOUT, DEFAULT_L2

    learn = make(
        sub,
        "learn",
        "fit a win-probability model per mode on a study's positions and store it as a "
        "planner profile",
        (("players", "--base: a planner or a planner profile"),),
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
        help="dataset directory of a study with the positions table (several: fit their union, "
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
    add_json_options(learn, "the fit's figures, the profile's name and file")
    learn.add_argument(
        "--profiles", default=None, help="profile file (default: sim/profiles/players.toml)"
    )
    learn.set_defaults(func=cmd_learn)


def add_player_commands(sub, make) -> None:
    """Register players, ladder, competence, tune and learn; ``make(sub, name, summary,
    lists, extra)`` builds one subcommand's parser (the CLI's, with its help formatter)."""
    players = make(
        sub,
        "players",
        "list the players and profiles with their speed and strength",
        (("players", "NAME or NAME:key=value:..., as a study plays them"),),
    )
    add_json_options(players, "the list (one object per player and profile)")
    players.add_argument(
        "--ladder", default=None, help="ladder file (default: benchmarks/results/ladder.json)"
    )
    players.add_argument(
        "--ladder-all",
        default=None,
        help="the all-deck ladder file (default: benchmarks/results/ladder_all_decks.json)",
    )
    players.set_defaults(func=cmd_players)

    ladder = make(
        sub,
        "ladder",
        "rate the players: round-robin games on Ray, Bradley-Terry ratings",
        (("players", "--players NAME,NAME,... or NAME:key=value:..., weakest first"),),
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
    add_address_flag(ladder)
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

    from sim.app.competence import COMPETENCE_MODES, MECHANICS

    comp = make(
        sub,
        "competence",
        "what each expansion mechanic is worth to a player: full player against its "
        "restricted twin on the same deals",
        (("players", "--player NAME or NAME:key=value:..."),),
    )
    comp.add_argument(
        "--player",
        help="the full player (default: the strongest player rated on the checked-in ladders)",
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
    add_address_flag(comp)
    comp.add_argument(
        "--out",
        default="runs/competence",
        help="directory of the datasets, one per deck and seat (default: runs/competence)",
    )
    add_json_options(comp, "every figure")
    comp.set_defaults(func=cmd_competence)

    tune = make(
        sub,
        "tune",
        "search a player's evaluation weights (cross-entropy method on Ray)",
        (("players", "--player and --opponent: NAME or NAME:key=value:..."),),
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

    _add_learn(sub, make)
