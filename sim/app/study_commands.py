"""The study subcommands of ``kalarite``: ``simulate`` (one matchup), ``study`` (a spec),
``trace`` (a player's skill trace) and ``demo``, all played into a dataset by the one study
runner (cluster.runner). ``add_study_commands`` registers them on the CLI's subparsers
(sim.app.cli); their flags for where and how a study runs are ``add_run_flags``."""

from core import constants as K
from sim.app.cli_args import (
    POLICY_HELP,
    CliError,
    add_address_flag,
    add_content_flag,
    content_of,
    deck_list,
    policy_list,
    positive,
)
from sim.study import DEFAULT_POLICY, WHY_DEFAULT_POLICY


def play_study(study, content, args) -> int:
    """Play a study into --out with the run flags of ``args`` (--workers, --address,
    --overwrite; --chunk-size and --force where the command has them); the summary line on
    stdout. Exit status 0, 1 when a chunk failed for good, 130 when interrupted (both
    resumable by running the command again: sim.app.run_outcome)."""
    from cluster.runner import run_study
    from sim.app.run_outcome import run_to_end

    chunk_size = getattr(args, "chunk_size", None)
    positive(args.workers, "--workers", zero_ok=True)
    positive(chunk_size, "--chunk-size")
    summary, rc = run_to_end(
        lambda: run_study(
            study,
            content,
            args.out,
            workers=args.workers,
            address=args.address,
            chunk_size=chunk_size,
            overwrite=args.overwrite,
            force=getattr(args, "force", False),
        )
    )
    if rc == 0:
        print(f"kalarite: {summary.line()}")
    return rc


def cmd_simulate(args):
    from sim.study import simulate_study

    content = content_of(args)
    decks = deck_list(args.decks)
    study = simulate_study(
        content,
        decks=decks,
        mode=args.mode,
        policies=policy_list(args.policy, len(decks)),
        games=args.games,
        seed=args.seed,
        turn_cap=args.turn_cap,
        beings_without_effects=args.beings_without_effects,
        positions=args.positions or 0,
    )
    return play_study(study, content, args)


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
    return play_study(study, load_content_dir(study.content), args)


def add_run_flags(p):
    p.add_argument("--out", required=True, help="dataset directory (Parquet tables + study.json)")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="parallel workers (default: all local cores; 0: in this process, without Ray)",
    )
    add_address_flag(p)
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
    add_content_flag(p)
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


def cmd_trace(args):
    from sim.app.trace import trace_spec
    from sim.study import FLAGS, study_from_dict

    content = content_of(args)
    positive(args.games, "--games")
    try:
        spec = trace_spec(args)
    except ValueError as e:
        raise CliError(str(e)) from None
    study = study_from_dict(spec, content, where="trace", flags=FLAGS)
    rc = play_study(study, content, args)
    if rc == 0:
        print(f"kalarite: the skill trace: kalarite report {args.out}")
    return rc


def cmd_demo(args):
    from sim.app.demo import run_demo

    positive(args.workers, "--workers", zero_ok=True)
    return run_demo(args.out, args.games, args.workers, overwrite=args.overwrite)


def add_study_commands(sub, make) -> None:
    """Register simulate, study, trace and demo; ``make(sub, name, summary, lists, extra)``
    builds one subcommand's parser (the CLI's, with its help formatter)."""
    simulate = make(
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
    add_run_flags(simulate)
    simulate.set_defaults(func=cmd_simulate)

    study = make(
        sub,
        "study",
        "play a study spec (TOML) into a Parquet dataset (on Ray)",
        (
            ("decks", "the spec's decks"),
            ("modes", "the spec's modes"),
            (
                "players",
                "the spec's policies: NAME or NAME:key=value:..., one for every seat "
                "or one per seat",
            ),
        ),
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
    add_run_flags(study)
    study.set_defaults(func=cmd_study)

    trace = make(
        sub,
        "trace",
        "a player's skill trace: its budget doubled level by level, self-play at each level "
        "and adjacent levels against each other (on Ray); kalarite report shows it",
        (
            ("decks", "--decks, comma separated"),
            ("modes", "--modes, comma separated: the two-seat ones"),
            ("players", "--player NAME or NAME:key=value:..., one with a search budget"),
        ),
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
    add_run_flags(trace)
    trace.set_defaults(func=cmd_trace)

    demo = make(
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
