"""`kalarite competence`: does the player get anything out of each expansion's mechanic?

Each expansion deck plays every other deck, in both seats (the first mover alternating by
game index), once with the full player in both seats and once with its restricted twin in the
expansion deck's seat (Everfrost: never thaws; Etherweave: never warps; Nethervoid: the
Gateway counts for nothing), on the same deals. The win-share gap full − twin, with its
paired interval (results.competence), is what the mechanic is worth to that player; where it
is not measurably positive (interval includes 0, or below +5 points) the output says the
player extracts no measurable value from the mechanic: a balance finding, as the deck's win
rate then says nothing about what the mechanic could do in stronger hands.

The games are ordinary studies (sim.study), two per deck (the deck in seat 0, in seat 1),
each kept as a dataset under ``--out`` (``<deck>-seat0``, ``<deck>-seat1``) so it can be
reported and resumed.
"""

import pathlib
import shlex
import time

from sim.strength import top_player

MECHANICS = {"everfrost": "frozen", "etherweave": "warp", "nethervoid": "gateway"}
MECHANIC_TEXT = {
    "frozen": "thawing frozen effects",
    "warp": "warps",
    "gateway": "the Nethervoid Gateway",
}
USE_COLUMN = {"frozen": "thaws", "warp": "warps", "gateway": "gateway_turns"}
COMPETENCE_MODES = ("high-form", "deathmatch")


def twin_spec(player: str, mechanic: str) -> str:
    return f"{player}:restrict={mechanic}"


def competence_studies(content, deck, player, games, seed, modes) -> dict:
    """The two studies of ``deck`` (seat 0, seat 1): full player and twin on the same deals."""
    from sim.study import dealable_decks, study_from_dict

    others = [d for d in dealable_decks(content, False) if d != deck]
    twin = twin_spec(player, MECHANICS[deck])
    out = {}
    for seat in (0, 1):
        pairs = [[deck, o] if seat == 0 else [o, deck] for o in others]
        seats = [twin, player] if seat == 0 else [player, twin]
        out[f"{deck}-seat{seat}"] = study_from_dict(
            {
                "name": f"competence {deck} seat {seat}",
                "decks": pairs,
                "modes": list(modes),
                "policies": [[player], seats],
                "games": games,
                "seed": seed,
            },
            content,
            where="competence",
        )
    return out


def check_args(decks, modes, player, games, workers):
    """Raise ValueError (one line) on a bad argument, before anything is played."""
    from sim.player_kinds import BY_NAME, RESTRICT
    from sim.players import parse_policy, resolve

    known = ", ".join(MECHANICS)
    for d in decks or [""]:
        if d not in MECHANICS:
            raise ValueError(f"--decks: {d!r} is not an expansion deck (known: {known})")
    for m in modes or [""]:
        if m not in COMPETENCE_MODES:
            raise ValueError(f"--modes: {m!r} is not a duel mode ({', '.join(COMPETENCE_MODES)})")
    base, _, settings = resolve(player)
    if BY_NAME[base].setting(RESTRICT.key) is None:  # the registry's kinds without a twin
        raise ValueError(f"--player: {base} has no restricted twin (it looks nothing ahead)")
    if RESTRICT.key in settings:
        raise ValueError("--player: give the full player; the command makes its twins")
    for d in decks:
        parse_policy(twin_spec(player, MECHANICS[d]))
    if games < 2:
        raise ValueError(f"--games must be at least 2 (a paired interval), got {games}")
    if workers is not None and workers < 0:
        raise ValueError("--workers must be 0 (in this process) or more")


def play(
    content, decks, player, games, seed, modes, out, workers=None, log=print, address=None
) -> dict:
    """Play (or resume) every study; the dataset directory of each."""
    from cluster.runner import run_study

    root = pathlib.Path(out)
    dirs = {}
    for deck in decks:
        for name, study in competence_studies(content, deck, player, games, seed, modes).items():
            d = root / name
            summary = run_study(study, content, d, workers=workers, address=address, progress=False)
            log(f"kalarite: {name}: {summary.line()}")
            dirs[name] = str(d)
    return dirs


def analyse(dirs: dict, decks, player, modes) -> list:
    """One result per deck and mode (results.competence.paired_gap), with the mechanic use
    of the full player and the twin."""
    from results.competence import mechanic_use, paired_gap, seat_games

    rows = []
    for deck in decks:
        mech = MECHANICS[deck]
        twin = twin_spec(player, mech)
        full_g, twin_g = {}, {}
        for seat in (0, 1):
            d = dirs[f"{deck}-seat{seat}"]
            full_g |= seat_games(d, deck, player)
            twin_g |= seat_games(d, deck, twin)
        for mode in modes:
            f = {k: v for k, v in full_g.items() if k[0] == mode}
            t = {k: v for k, v in twin_g.items() if k[0] == mode}
            gap = paired_gap(f, t)
            row = {
                "deck": deck,
                "mechanic": mech,
                "mode": mode,
                "player": player,
                "twin": twin,
                **gap,
                "use": {"full": mechanic_use(f), "twin": mechanic_use(t)},
                "finding": None,
            }
            if gap["flagged"]:
                row["finding"] = (
                    f"{player} extracts no measurable value from {MECHANIC_TEXT[mech]} "
                    f"({deck}, {mode})"
                )
                if gap["identical"]:
                    row["finding"] += " (every game the twin played ended as the full player's)"
            rows.append(row)
    return rows


def _pts(x):
    return "–" if x is None else f"{x * 100:+.1f}"


def competence_text(result: dict) -> str:
    head = ("deck", "mode", "pairs", "full", "twin", "gap [95%]", "use full/twin")
    lines = []
    for r in result["results"]:
        col = USE_COLUMN[r["mechanic"]]
        uf, ut = r["use"]["full"], r["use"]["twin"]
        use = "–" if uf is None else f"{col} {uf[col]:.2f}/{ut[col]:.2f}"
        full = "–" if r["full_rate"] is None else f"{r['full_rate'] * 100:.1f}%"
        twin = "–" if r["twin_rate"] is None else f"{r['twin_rate'] * 100:.1f}%"
        gap = f"{_pts(r['gap'])} [{_pts(r['lo'])}, {_pts(r['hi'])}]"
        lines.append((r["deck"], r["mode"], str(r["pairs"]), full, twin, gap, use))
    widths = [max(len(x[i]) for x in [head, *lines]) for i in range(len(head))]
    out = [
        f"Mechanic competence of {result['player']}: the expansion deck's win share with the "
        "full player and with its restricted twin, on the same deals (both seats, every other "
        "deck, the first mover alternating; full games: the player in both seats).",
        "",
    ]
    out += ["  ".join(x[i].ljust(widths[i]) for i in range(len(head))).rstrip()
            for x in [head, *lines]]  # fmt: skip
    out.insert(3, "-" * (sum(widths) + 2 * (len(head) - 1)))
    findings = [r["finding"] for r in result["results"] if r["finding"]]
    out.append("")
    if findings:
        out += [f"finding: {f}: the gap is below +5 points or its interval includes 0"
                for f in findings]  # fmt: skip
    else:
        out.append("every gap is at least +5 points with an interval above 0")
    out += ["", f"method: {result['method']}", f"reproduce: {result['command']}"]
    return "\n".join(out)


def run_competence(args, content, log=print) -> dict:
    from results.competence import METHOD

    decks = [d.strip() for d in args.decks.split(",")] if args.decks else list(MECHANICS)
    modes = [m.strip() for m in args.modes.split(",")] if args.modes else list(COMPETENCE_MODES)
    player = args.player.strip() if args.player is not None else top_player()
    check_args(decks, modes, player, args.games, args.workers)
    t0 = time.perf_counter()
    where = {"workers": args.workers, "address": getattr(args, "address", None)}
    dirs = play(content, decks, player, args.games, args.seed, modes, args.out, log=log, **where)
    command = "kalarite competence " + " ".join(
        shlex.quote(x)
        for x in ["--player", player, "--games", str(args.games), "--seed", str(args.seed),
                  "--decks", ",".join(decks), "--modes", ",".join(modes), "--out", args.out]
    )  # fmt: skip
    return {
        "command": command,
        "player": player,
        "games": args.games,
        "seed": args.seed,
        "decks": decks,
        "modes": modes,
        "wall_s": round(time.perf_counter() - t0, 1),
        "datasets": dirs,
        "method": METHOD,
        "results": analyse(dirs, decks, player, modes),
    }
