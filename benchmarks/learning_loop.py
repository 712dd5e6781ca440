"""The nonlinear leaf value's learning loop, round after round, and its learning curve.

    python -m benchmarks.learning_loop --rounds 3 --out runs/loop \
        --curve benchmarks/results/learning_curve.json

Round r: the last round's player plays itself on every pairing of the decks in both duel
modes with positions sampled (study ``positions-r<r>``, ``--games`` per matchup, seed 30 + r;
round 1's player is ``--data-player``, by default the start player); ``kalarite learn``'s fit with a
hidden layer of ``--hidden`` units runs on the union of every round's positions so far and
becomes profile ``<name>-r<r>`` (the start player's search: base ``--base``); then that
profile plays the last round's player (benchmarks.duel: every ordered pairing, both seats,
``--match-games`` deals each, both duel modes) and the curve records its score with a 95%
interval, the fit's figures and the data it rests on. Round 0's player is ``--start``.

Every step is kept under ``--out`` and in the curve file and is skipped when it is already
there, so a stopped loop resumes where it stopped (a study resumes by its chunks, a duel by
its pairings). Played in this process, one game at a time (one core).
"""

import argparse
import json
import pathlib

DEFAULT_START = "sage:width=16"
DEFAULT_BASE = "planner:pending=0:width=16"


def positions_study(content, player, games, r, decks=None):
    """Round ``r``'s self-play (sim/studies/positions-r1.toml is round 1's); ``decks``: every
    pairing of these decks instead of all."""
    import itertools

    from sim.study import study_from_dict

    pairs = (
        "all" if not decks else [list(p) for p in itertools.combinations_with_replacement(decks, 2)]
    )
    return study_from_dict(
        {
            "name": f"positions-r{r}",
            "decks": pairs,
            "modes": ["high-form", "deathmatch"],
            "policies": player,
            "games": games,
            "seed": 30 + r,
            "positions": 2,
        },
        content,
        where="learning loop",
    )


def fit_round(name, base, roots, hidden, l2, l2_hidden, seed, profiles_path=None) -> dict:
    """``kalarite learn`` on ``roots`` into profile ``name``; the fit's figures."""
    from results.learn import learn
    from sim.app.learn import base_profile
    from sim.players import PROFILES_PATH, load_profiles, save_profile

    path = profiles_path or PROFILES_PATH
    prof = base_profile(name, base, load_profiles(path))
    result = learn([str(r) for r in roots], seed=seed, l2=l2, hidden=hidden, l2_hidden=l2_hidden)
    prof.models |= {f.mode: f.model() for f in result.fits}
    modes = ", ".join(f.mode for f in result.fits)
    prof.about = f"{prof.player} with a learned leaf value ({modes}; learning loop)"
    prof.provenance = {"base": base, **result.provenance}
    save_profile(prof, path)
    return {
        f.mode: {
            k: f.figures.get(k)
            for k in ("test_log_loss", "linear_test_log_loss", "base_log_loss", "brier")
        }
        | {"train_positions": f.train_positions, "test_positions": f.test_positions}
        for f in result.fits
    }


def run(args, log=print) -> dict:
    """Play the rounds ``args`` asks for (resuming what is done); returns the curve."""
    from benchmarks import duel
    from cluster.runner import run_study
    from sim.content import load_content

    out = pathlib.Path(args.out)
    curve_path = pathlib.Path(args.curve)
    curve = json.loads(curve_path.read_text()) if curve_path.exists() else {}
    curve["command"] = args.command  # the last run's (each round names its own data)
    curve.setdefault("start", args.start)
    curve.setdefault("rounds", [])
    content = load_content()
    player = args.start
    roots = []
    for r in range(1, args.rounds + 1):
        data_player = args.data_player if (r == 1 and args.data_player) else player
        root = out / f"positions-r{r}"
        if _finished(root):  # kept as it is, even if the engine has changed since
            log(f"round {r}: positions of {data_player}: {root} (finished before)")
            played = _manifest(root)["study"]
        else:
            study = positions_study(content, data_player, args.games, r, args.decks)
            summary = run_study(study, content, root, workers=0, progress=False)
            log(f"round {r}: positions of {data_player}: {summary.line()}")
            played = _manifest(root)["study"]
        roots.append(root)
        name = f"{args.name}-r{r}"
        done = {e["round"]: e for e in curve["rounds"]}
        if r in done and done[r]["player"] == name:
            player = name
            continue
        fit = fit_round(name, args.base, roots, args.hidden, args.l2, args.l2_hidden, args.seed)
        log(f"round {r}: {name} fitted: {json.dumps(fit)}")
        match = duel.run(
            name,
            player,
            args.match_games,
            seed=100 + r,
            decks=args.decks,
            out=out / f"duel-r{r}.json",
            log=log,
        )
        curve["rounds"].append(
            {
                "round": r,
                "player": name,
                "against": player,
                "data_player": data_player,
                "self_play": {k: played.get(k) for k in ("name", "games", "seed", "positions")},
                "positions_studies": [str(x) for x in roots],
                "fit": fit,
                "duel": {m: _brief(v) for m, v in match["modes"].items()},
            }
        )
        curve_path.parent.mkdir(parents=True, exist_ok=True)
        curve_path.write_text(json.dumps(curve, indent=1) + "\n")
        player = name
    return curve


def _manifest(root) -> dict:
    from results.store import read_manifest

    return read_manifest(root)


def _finished(root) -> bool:
    try:
        return _manifest(root).get("status") == "complete"
    except (OSError, ValueError):
        return False


def _brief(mode_summary: dict) -> dict:
    keep = ("games", "score", "score_interval", "shared", "tied_on_points_share", "cpu_s")
    return {k: mode_summary[k] for k in keep if k in mode_summary}


def main(argv=None):
    import shlex
    import sys

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--out", default="runs/loop", help="directory of the rounds' datasets")
    p.add_argument("--curve", default="benchmarks/results/learning_curve.json")
    p.add_argument("--start", default=DEFAULT_START, help="round 0's player")
    p.add_argument("--data-player", default=None, help="round 1's self-play (default: --start)")
    p.add_argument("--base", default=DEFAULT_BASE, help="the search every round's profile keeps")
    p.add_argument("--name", default="seer")
    p.add_argument("--games", type=int, default=280, help="self-play games per matchup")
    p.add_argument("--match-games", type=int, default=8, help="deals per pairing and seat")
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--l2", type=float, default=1.0)
    p.add_argument("--l2-hidden", type=float, default=100.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--decks", default=None, help="comma-separated decks (default: every deck)")
    args = p.parse_args(argv)
    args.decks = args.decks.split(",") if args.decks else None
    args.command = "python -m benchmarks.learning_loop " + shlex.join(
        sys.argv[1:] if argv is None else argv
    )
    run(args)


if __name__ == "__main__":
    main()
