"""The `kalarite suggest` command: its flags, and the one-line errors and exit statuses of the
CLI (0 done, 1 a study failed for good, 2 bad input, 130 interrupted: run it again to
resume)."""

import sys


def add_suggest_command(sub, make):
    from sim.app.cli_args import add_address_flag

    p = make(
        sub,
        "suggest",
        "propose card edits that move a deck toward a balance goal, ranked and confirmed",
        (
            ("decks", "--deck, the one to change; --opponents, the field"),
            ("modes", "--modes, comma separated: the two-seat ones"),
            ("players", "--policy and --confirm-players: NAME or NAME:key=value:..."),
        ),
        extra="A goal is a spec file (GOAL.toml, see docs/suggest.md) or the flags --deck with "
        "--band LO,HI (its win share against the field), --floor LO,HI (every matchup) or "
        "--nerf HI. The edits of the card grammar in the goal's direction race on the base's "
        "deals under the strongest player, the best are replayed on fresh seeds under the two "
        "strongest players (kalarite players: the top two by default), and "
        "OUT/index.html and OUT/suggest.json rank them. Running the command again resumes.",
    )
    p.add_argument("goal", nargs="?", default=None, metavar="GOAL.toml", help="a goal spec")
    p.add_argument("--deck", default=None, help="the deck to change")
    p.add_argument("--band", default=None, metavar="LO,HI", help="win share against the field")
    p.add_argument("--floor", default=None, metavar="LO,HI", help="every matchup within LO..HI")
    p.add_argument("--nerf", default=None, metavar="HI", help="win share against the field <= HI")
    p.add_argument("--cards", default=None, help="cards that may change: D/CARD,... or D/*")
    p.add_argument("--lock", default=None, help="cards that may not change: D/CARD,...")
    p.add_argument("--swap", action="append", default=None, metavar="D/CARD=E/CARD",
                   help="also try this card in place of that one (repeatable)")  # fmt: skip
    p.add_argument("--kinds", default=None, help="edit kinds (default: all but swap)")
    p.add_argument("--modes", default=None, help="two-seat modes (default: high-form,deathmatch)")
    p.add_argument("--opponents", default=None, help="the field (default: every other deck)")
    p.add_argument(
        "--policy", default=None, help="the base's and the race's player (default: the strongest)"
    )
    p.add_argument("--confirm-players", default=None, metavar="P,Q",
                   help="the two confirming players (default: the two strongest)")  # fmt: skip
    p.add_argument("--min-effect", type=float, default=None,
                   help="the smallest effect worth having, a share (default: 0.01)")  # fmt: skip
    p.add_argument("--games", type=int, default=None, help="game budget (default: 150000)")
    p.add_argument("--first-round", type=int, default=None,
                   help="race games per matchup and mode in round 1 (default: 25)")  # fmt: skip
    p.add_argument("--rounds", type=int, default=None, help="race rounds planned (default: 6)")
    p.add_argument(
        "--confirm-games",
        type=int,
        default=None,
        help="confirmation games per matchup, mode and player (default: 300)",
    )
    p.add_argument(
        "--check-games",
        type=int,
        default=None,
        help="invariant-checked random games per edit (default: 100)",
    )
    p.add_argument(
        "--candidates",
        type=int,
        default=None,
        help="race at most this many edits, by prior (default: all)",
    )
    p.add_argument("--seed", type=int, default=None, help="the suggestion's seed (default: 1)")
    p.add_argument(
        "--stack",
        type=int,
        default=None,
        help="accept the best confirmed edit and search again, up to N edits",
    )
    p.add_argument(
        "--competence",
        default=None,
        metavar="DIR",
        help="a `kalarite competence --out` directory for the checklist",
    )
    p.add_argument("--content", default=None, metavar="DIR", help="the card files to start from")
    p.add_argument("--out", required=True, help="output directory (resumable)")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="parallel workers (default: all local cores; 0: in this process)",
    )
    add_address_flag(p)
    from sim.app.cli_args import add_json_options

    add_json_options(p, "suggest.json's summary (the goal, status, games, ranked edits)")
    p.set_defaults(func=cmd_suggest)


def load(args):
    """The goal of the command line (a spec file, or the shorthand flags)."""
    from sim.suggest.goal import GoalError, goal_from_flags, load_goal

    if args.goal is not None:
        flags = [f for f in ("deck", "band", "floor", "nerf") if getattr(args, f) is not None]
        if flags:
            raise GoalError(f"give a goal spec or --{flags[0]}, not both")
        return load_goal(args.goal, content_dir=args.content)
    return goal_from_flags(args)


def summary_lines(result) -> list:
    from sim.app.suggest.page import _headline

    lines = [f"goal: {result['goal_text']}", _headline(result)]
    for s in result["suggestions"][:5]:
        eff = ", ".join(f"{m} {v * 100:+.1f}" for m, v in (s.get("effect") or {}).items())
        lines.append(f"{s['rank']:>3}. {s['edit']}  [{eff} points; {s['status']}]")
    return lines


def cmd_suggest(args) -> int:
    from sim.app.cli_args import positive
    from sim.app.suggest.context import SuggestFailed, SuggestInterrupted
    from sim.app.suggest.run import run_suggest

    positive(args.workers, "--workers", zero_ok=True)
    goal = load(args)
    try:
        # each race round and confirmation shows the study runner's progress (stderr lines,
        # a bar on a terminal), --json or not: a round of thousands of games is minutes,
        # never silent
        result = run_suggest(
            goal, args.out, workers=args.workers, address=args.address, progress=None
        )
    except SuggestInterrupted as e:
        print(f"kalarite: interrupted: {e}; run the same command again to resume",
              file=sys.stderr)  # fmt: skip
        return 130
    except KeyboardInterrupt:
        print("kalarite: interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    except SuggestFailed as e:
        print(f"kalarite: error: {e}; run the same command again to resume", file=sys.stderr)
        return 1
    from sim.app.cli_args import emit

    fields = ("rank", "edit", "content", "effect", "effect_lo", "effect_hi", "status")
    brief = {k: result[k] for k in ("goal", "status", "stack", "games")}
    brief["suggestions"] = [{k: s.get(k) for k in fields} for s in result["suggestions"]]
    lines = [*summary_lines(result), f"suggest -> {args.out}/index.html, {args.out}/suggest.json"]
    emit(args, brief, lambda: "\n".join(f"kalarite: {line}" for line in lines))
    return 0
