"""`kalarite learn`: fit a win-probability model per mode on a study's positions
(results/learn.py) and store it as a planner profile with its provenance (sim.players).

The profile is the base player (``--base``, default the planner) with its settings and
weights, and the fitted model of every mode the study played; a base profile's models of
modes the study did not play are kept, so a refit on a study of one mode updates that mode
only.
"""

from sim.player_kinds import MODEL_PLAYERS
from sim.players import (
    DEFAULT_WEIGHTS,
    Profile,
    check_profile_name,
    load_profiles,
    models_of,
    resolve,
)


class LearnOptionError(ValueError):
    """Bad ``kalarite learn`` options: one line, exit status 2."""


def base_profile(name: str, base: str, profiles: dict) -> Profile:
    """The profile ``name`` as the base spec makes it, before any model is fitted."""
    check_profile_name(name, "--name", LearnOptionError)
    player, weights, settings = resolve(base, profiles)
    if player not in MODEL_PLAYERS:
        raise LearnOptionError(
            f"--base {base!r} is a {player}: only {', '.join(MODEL_PLAYERS)} reads a learned value"
        )
    changed = {k: v for k, v in weights.items() if DEFAULT_WEIGHTS[k] != v}
    return Profile(
        name=name,
        player=player,
        weights=changed,
        settings=dict(settings),
        models=dict(models_of(base, profiles)),
    )


def run_learn(args) -> int:
    from results.learn import learn, report_text
    from sim.inputs import need_int
    from sim.players import PROFILES_PATH, save_profile

    need_int(args.seed, "--seed", 0, 2**64 - 1, LearnOptionError)
    path = args.profiles or PROFILES_PATH
    profiles = load_profiles(path)
    prof = base_profile(args.name, args.base, profiles)
    result = learn(
        args.study,
        seed=args.seed,
        holdout=args.holdout,
        l2=args.l2,
        hidden=args.hidden,
        l2_hidden=args.l2_hidden,
    )
    prof.models |= {f.mode: f.model() for f in result.fits}
    modes = ", ".join(f.mode for f in result.fits)
    prof.about = f"{prof.player} with a learned leaf value ({modes}; kalarite learn)"
    prof.provenance = {"base": args.base, **result.provenance}
    save_profile(prof, path)
    from sim.app.cli_args import emit

    doc = {**result.to_dict(), "profile": prof.name, "path": str(path)}
    emit(args, doc, lambda: f"{report_text(result)}\n\nkalarite: profile {prof.name!r} -> {path}")
    return 0
