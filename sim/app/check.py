"""`kalarite check`: play many games with the invariant checker after every applied option,
over every deck and mode by default, and report each broken invariant with the `kalarite play
--check` command that replays its game.

A designer's variant (``--content DIR``) can combine ops in ways no test saw; this is the
check to run before trusting a study of it. The games are a study's (sim.study): matchups of
every deck pairing or seating per mode (melee with 3 and 4 seats, new-player with its two
Imperial decks), the matchup seeds of a study with the same seed, and the study runner's
deterministic chunks (results.layout) with a study's dataset identity, played by the study's
own driver (cluster.driver: warm-up of the checked kernel, session, progress, Ctrl-C,
failures) and worker (cluster.worker with ``checked`` set). A game's verdict depends only on
(seed, matchup, game index), never on the workers or the chunking. ``--games`` is spread
evenly over the mode groups (duel High Form, duel Deathmatch, melee of 3, melee of 4, team
High Form, team Deathmatch, new player) and evenly over the matchups of each.

Exit status: 0 when every invariant held (a record of the clean check is written, see
results/checked.py), 1 when one broke (or a chunk failed), 2 for bad input, 130 on Ctrl-C.
"""

import math
import shlex
import sys
import time

from cluster.driver import RunFailed

DEFAULT_GAMES = 20_000
DEFAULT_POLICY = "random"
SHOW = 20  # broken games listed one by one (the counts cover all)


def add_check_command(sub, make):
    """Register `kalarite check` (``make``: the CLI's subcommand factory)."""
    from sim.app.cli_args import add_address_flag

    p = make(
        sub,
        "check",
        "play games with the invariant checker after every option, in every mode and deck, "
        "and report each broken invariant with the command that replays its game",
        (
            ("decks", "--decks 'all' or names, comma separated"),
            ("modes", "--modes 'all' or names, comma separated"),
            ("players", "--policy NAME or NAME:key=value:..., the player of every seat"),
        ),
        extra="Run it on a variant (--content DIR) before trusting a study of it. --games is "
        "spread evenly over the mode groups (duel high-form and deathmatch, melee of 3 and "
        "of 4 seats, team high-form and deathmatch, new-player) and their matchups. A clean "
        "check writes a record that `kalarite report` and `kalarite compare` look for. "
        "Exit status 0: every invariant held; 1: one broke; 2: bad input.",
    )
    p.add_argument("--decks", default="all", help="'all' or deck names, comma separated")
    p.add_argument("--modes", default="all", help="'all' or mode names, comma separated")
    p.add_argument(
        "--games", type=int, default=DEFAULT_GAMES, help="games in all, at least one per matchup"
    )
    p.add_argument("--policy", default=DEFAULT_POLICY, help="the player of every seat")
    p.add_argument("--seed", type=int, default=0, help="study seed (the matchup seeds' source)")
    p.add_argument("--turn-cap", type=int, default=200, help="a game ends after this turn")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="Ray workers (default: all local cores; 0: in this process, without Ray)",
    )
    add_address_flag(p)
    p.add_argument(
        "--beings-without-effects",
        action="store_true",
        help="also deal beings whose effect is not implemented yet, as no-effect beings",
    )
    p.add_argument(
        "--content",
        default=None,
        metavar="DIR",
        help="check a copy of the card files (kalarite cards copy DIR) instead of the "
        "installed ones",
    )
    p.add_argument(
        "--show", type=int, default=SHOW, help="broken games listed with their replay command"
    )
    from sim.app.cli_args import add_json_options

    add_json_options(p, "the result (every broken game)")
    p.set_defaults(func=cmd_check)


class CheckError(ValueError):
    """Bad input of `kalarite check` (one line, exit status 2)."""


def _names(text: str, flag: str):
    if text.strip() == "all":
        return "all"
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise CheckError(f"{flag} needs 'all' or names separated by commas")
    return names


def group_of(mu) -> str:
    """The mode group a matchup belongs to: the mode, melee with its seat count."""
    return f"melee-{len(mu.decks)}" if mu.mode == "melee" else mu.mode


def plan(
    content,
    decks="all",
    modes="all",
    policy=DEFAULT_POLICY,
    games=DEFAULT_GAMES,
    seed=0,
    turn_cap=200,
    beings_without_effects=False,
):
    """(study, matchups with their games): the study's matchups of ``decks`` and ``modes``,
    ``games`` spread evenly over the mode groups and then over each group's matchups."""
    import dataclasses

    from sim.spec import FLAGS
    from sim.study import StudyError, study_from_dict

    if games < 1:  # the games of the whole check (the spec plays 1 per matchup)
        raise CheckError(f"--games must be a positive integer, got {games}")
    spec = {
        "name": "kalarite check",
        "decks": decks,
        "modes": modes,
        "melee_players": [3, 4],
        "policies": policy,
        "games": 1,
        "seed": seed,
        "turn_cap": turn_cap,
        "beings_without_effects": beings_without_effects,
    }
    flags = {**FLAGS, "modes": "--modes", "melee_players": None, "games": None}
    study = study_from_dict(spec, content, where="check", flags=flags)
    study.content = _content_dir(content)
    matchups = study.matchups()
    if not matchups:
        raise StudyError(
            "check: these decks and modes make no game (new-player is played with two "
            "imperial decks; team play and melee need the decks' seats)"
        )
    groups = {}
    for mu in matchups:
        groups.setdefault(group_of(mu), []).append(mu)
    per_group = math.ceil(games / len(groups))
    out = []
    for mu in matchups:
        n = max(1, math.ceil(per_group / len(groups[group_of(mu)])))
        out.append(dataclasses.replace(mu, games=n))
    return study, out


def _content_dir(content):
    from sim.content.copies import custom_dir

    return custom_dir(content)


def replay_command(mu, game: int, *, turn_cap=200, content_dir=None, bwe=False) -> str:
    """The `kalarite play` command that replays game ``game`` of matchup ``mu`` with the
    checker (it stops where the invariant broke)."""
    pols = mu.policies
    parts = ["kalarite", "play", "--decks", ",".join(mu.decks), "--mode", mu.mode]
    parts += ["--seed", str(mu.seed), "--game", str(game)]
    parts += ["--policy", pols[0] if len(set(pols)) == 1 else ",".join(pols)]
    if turn_cap != 200:
        parts += ["--turn-cap", str(turn_cap)]
    if bwe:
        parts.append("--beings-without-effects")
    if content_dir:
        parts += ["--content", content_dir]
    parts.append("--check")
    return " ".join(shlex.quote(x) for x in parts)


def _jobs(study, matchups, content, chunk_size=None) -> list:
    """The checked chunks of the check's matchups: the study runner's chunks
    (results.layout) with the dataset identity a study of them would have
    (results.store.dataset_info: the players resolved once here and shipped with every
    chunk), the one worker's jobs with ``checked`` set."""
    from cluster.driver import chunk_jobs
    from results.layout import Layout
    from results.store import dataset_info
    from sim.chunking import choose_chunk_size
    from sim.games import resolve_players

    size = choose_chunk_size(matchups, chunk_size)
    players = resolve_players(p for mu in matchups for p in mu.policies)
    info = dataset_info(study, content, players)
    chunks = Layout.of_matchups(matchups, size).chunks()
    return list(chunk_jobs(study, matchups, info, chunks, checked=True))


class ChunkFailed(RunFailed):
    """A chunk of the check failed for good (the check is incomplete: exit 1)."""


def _play(jobs, workers, address, progress, lent=None):
    """Play every job through the one driver (cluster.driver: warm-up of the checked
    kernel, the session, progress, Ctrl-C, failures), on Ray or in this process with
    ``workers=0``; returns (results, seconds compiling, seconds starting Ray, seconds
    playing, workers). Ctrl-C finishes the chunks in flight, then KeyboardInterrupt; a chunk
    that fails for good raises ChunkFailed."""
    from cluster.driver import Driver
    from sim.invariant_names import short_name

    results = []

    with Driver.open(
        workers, address, progress, checked=True, failed=ChunkFailed, lent=lent
    ) as driver:

        def keep(job, res):
            results.append(res)
            for game, code, turn, _ in res["broken"]:  # seen at once
                driver.prog.note(
                    f"broken: {short_name(code)} in {job.mode} {' vs '.join(job.decks)}, "
                    f"game {game}, turn {turn} (replay commands at the end)"
                )

        total = sum(j.n_games for j in jobs)
        with driver.playing(total, 0, len(jobs), then="the check will be incomplete"):
            driver.play(jobs, keep)
        play_s = time.perf_counter() - driver.t_play
    return results, driver.compile_s, driver.start_s, play_s, driver.workers


def run_check(
    content,
    *,
    decks="all",
    modes="all",
    policy=DEFAULT_POLICY,
    games=DEFAULT_GAMES,
    seed=0,
    turn_cap=200,
    beings_without_effects=False,
    workers=None,
    address=None,
    progress=None,
    command=None,
    chunk_size=None,
    session=None,
) -> dict:
    """Play the check; returns its result (a JSON-ready dict, ``broken`` sorted by matchup
    and game: the same whatever the workers and ``chunk_size``, games per chunk);
    ``session``: one the caller opened and closes (cluster.session ``lent``)."""
    import datetime

    from core import ENGINE_HASH
    from results.store import engine_version

    t0 = time.perf_counter()
    study, matchups = plan(
        content, decks, modes, policy, games, seed, turn_cap, beings_without_effects
    )
    jobs = _jobs(study, matchups, content, chunk_size)
    results, compile_s, start_s, play_s, n_workers = _play(
        jobs, workers, address, progress, session
    )
    broken = []
    for r in results:
        for game, code, turn, actions in r["broken"]:
            broken.append((r["matchup"], game, code, turn, actions))
    broken.sort()
    per_group, per_deck = {}, {}
    for mu in matchups:
        per_group[group_of(mu)] = per_group.get(group_of(mu), 0) + mu.games
        for d in set(mu.decks):
            per_deck[d] = per_deck.get(d, 0) + mu.games
    played = sum(mu.games for mu in matchups)
    from sim.invariant_names import error_text, short_name

    counts = {}
    for *_, code, _t, _a in broken:
        counts[short_name(code)] = counts.get(short_name(code), 0) + 1
    return {
        "kalarite_check": 1,
        "result": "clean" if not broken else "broken",
        "command": command,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "content_hash": content.content_hash,
        "content_dir": study.content,
        "engine_hash": ENGINE_HASH,
        "engine_version": engine_version(),
        "config": {
            "decks": decks,
            "modes": modes,
            "games": games,
            "policy": policy,
            "seed": seed,
            "turn_cap": turn_cap,
            "beings_without_effects": beings_without_effects,
        },
        "policies": [policy],
        "games": played,
        "matchups": len(matchups),
        "chunks": len(jobs),
        "games_per_mode": per_group,
        "games_per_deck": dict(sorted(per_deck.items())),
        "replayed_with_long_log": sum(r["replayed"] for r in results),
        "workers": n_workers,
        "wall_s": round(time.perf_counter() - t0, 1),
        "compile_s": round(compile_s, 1),
        "ray_start_s": round(start_s, 1),
        "play_s": round(play_s, 1),
        "games_per_s": round(played / play_s, 1) if play_s > 0 else None,
        "broken_counts": counts,
        "broken": [
            {
                "invariant": short_name(code),
                "text": error_text(code),
                "code": code,
                "mode": matchups[m].mode,
                "decks": list(matchups[m].decks),
                "policies": list(matchups[m].policies),
                "matchup_seed": matchups[m].seed,
                "game": game,
                "turn": turn,
                "actions": actions,
                "replay": replay_command(
                    matchups[m],
                    game,
                    turn_cap=turn_cap,
                    content_dir=study.content,
                    bwe=beings_without_effects,
                ),
            }
            for m, game, code, turn, actions in broken
        ],
    }


def result_text(res: dict, show: int = SHOW) -> str:
    """What `kalarite check` prints: the verdict, then each broken game and its replay."""
    modes = ", ".join(f"{g} {n:,}" for g, n in res["games_per_mode"].items())
    head = (
        f"kalarite: checked {res['games']:,} games of {', '.join(res['policies'])} players "
        f"({res['matchups']:,} matchups; {modes}; decks {', '.join(res['games_per_deck'])}) "
        f"in {res['wall_s']:.1f} s ({res['play_s']:.1f} s playing, "
        f"{res['games_per_s'] or 0:,.0f} games/s, {max(res['workers'], 1)} worker"
        f"{'s' * (res['workers'] > 1)}) on content {res['content_hash']}"
    )
    if not res["broken"]:
        return head + ": every invariant held after every option"
    lines = [head + f": {len(res['broken']):,} games broke an invariant"]
    for b in res["broken"][:show]:
        lines.append(
            f"  {b['text']}: {b['mode']} {' vs '.join(b['decks'])}, game {b['game']}, turn "
            f"{b['turn']}\n    {b['replay']}"
        )
    if len(res["broken"]) > show:
        lines.append(f"  ... and {len(res['broken']) - show:,} more (--json lists them all)")
    counts = ", ".join(f"{k} x{v:,}" for k, v in sorted(res["broken_counts"].items()))
    lines.append(f"kalarite: broken: {counts}")
    return "\n".join(lines)


def _command(args) -> str:
    parts = ["kalarite", "check", "--games", str(args.games), "--policy", args.policy]
    parts += ["--seed", str(args.seed)]
    for flag, value, default in (
        ("--decks", args.decks, "all"),
        ("--modes", args.modes, "all"),
        ("--turn-cap", args.turn_cap, 200),
        ("--content", args.content, None),
        ("--workers", args.workers, None),
    ):
        if value != default:
            parts += [flag, str(value)]
    if args.beings_without_effects:
        parts.append("--beings-without-effects")
    return " ".join(shlex.quote(x) for x in parts)


def cmd_check(args) -> int:
    from results.checked import write_record
    from sim.app.run_outcome import run_to_end
    from sim.content.copies import load_content_dir
    from sim.players import parse_policy

    for flag, value, low in (("--workers", args.workers, 0), ("--show", args.show, 0)):
        if value is not None and value < low:
            raise CheckError(f"{flag} must be {low} or more, got {value}")
    if args.turn_cap < 1:
        raise CheckError(f"--turn-cap must be a positive integer, got {args.turn_cap}")
    if "," in args.policy:
        raise CheckError("--policy takes one player, who plays every seat")
    parse_policy(args.policy)
    content = load_content_dir(args.content)
    res, rc = run_to_end(
        lambda: run_check(
            content,
            decks=_names(args.decks, "--decks"),
            modes=_names(args.modes, "--modes"),
            policy=args.policy,
            games=args.games,
            seed=args.seed,
            turn_cap=args.turn_cap,
            beings_without_effects=args.beings_without_effects,
            workers=args.workers,
            address=args.address,
            command=_command(args),
        ),
        then="the check is incomplete",
    )
    if rc:
        return rc
    if res["result"] == "clean":
        try:
            res["record"] = write_record(res, res["content_dir"])
        except OSError as e:  # the games were checked all the same: say so, exit 0
            print(f"kalarite: warning: the record was not written: {e}", file=sys.stderr)
    from sim.app.cli_args import emit, wants_json

    emit(args, res, lambda: result_text(res, args.show))
    if not wants_json(args) and res.get("record"):
        print(f"kalarite: record of the clean check -> {res['record'][0]}")
    return 0 if res["result"] == "clean" else 1


def play_and_check(content, cfg) -> int:
    """`kalarite play --check`: the game's log up to the end, or up to the option after
    which an invariant broke (exit status 1), and the verdict."""
    from core.layout import BOARD, NSQ, TURN_NO
    from core.rows import ERR_LOG
    from sim.invariant_names import error_text
    from sim.render import code_lines
    from sim.single_game import format_game, play_checked

    s, events, code = play_checked(content, cfg)
    print(format_game(content, cfg, s, events))
    if not code:
        print("kalarite: every invariant held after every option")
        return 0
    board = [int(x) for x in s[BOARD : BOARD + NSQ]]
    print("board when it broke:")
    print("\n".join("    " + line for line in code_lines(board, content.tables)))
    what = "invariant broken" if code > 0 and code != ERR_LOG else "engine error"
    print(f"kalarite: {what}: {error_text(code)} in turn {int(s[TURN_NO])}")
    return 1
