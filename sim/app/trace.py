"""`kalarite trace`: one player's skill trace, a study with a ``trace`` (sim.study): the
player at budgets N, 2N, 4N, ... (its search budget: the setting its kind's ``budget`` names
in the player registry, sim.player_kinds)
in self-play over every pairing of the decks (no mirror matches: a trace reads each deck's
win rate against the field), and each two adjacent budgets against each other with every
deck against itself in both seats; played by the one runner (cluster/runner.py) into a
dataset that `kalarite report` reads (results/analysis/skill_trace.py: the strength trace,
the deck trace, each deck's slope per doubling and the joint test)."""

from sim.spec import MAX_TRACE_LEVELS, MIN_TRACE_LEVELS


def budgets(player: str, levels: int, base: int | None) -> list:
    """The budgets of a trace: ``base`` doubled ``levels - 1`` times. Without ``base``: the
    player's own budget if its top level stays within the setting's range, else the largest
    base that does. ValueError (one line) for a player without a budget or a bad count."""
    from sim.player_kinds import BY_NAME, budgets
    from sim.players import resolve

    if not MIN_TRACE_LEVELS <= levels <= MAX_TRACE_LEVELS:
        raise ValueError(
            f"--levels must be {MIN_TRACE_LEVELS} to {MAX_TRACE_LEVELS} budgets, got {levels}"
        )
    name, _, settings = resolve(player)
    knob = BY_NAME[name].budget_setting()
    if knob is None:
        known = ", ".join(f"{p} ({s})" for p, s in budgets().items())
        raise ValueError(f"--player: {player!r} has no search budget to trace (players: {known})")
    setting, default, lo, hi = knob.key, knob.default, knob.lo, knob.hi
    top = 2 ** (levels - 1)
    if base is None:
        own = int(settings.get(setting, default))
        base = own if own * top <= hi else max(lo, hi // top)
    if base < lo or base * top > hi:
        raise ValueError(
            f"--base: {levels} levels from {base} reach {setting} {base * top}, outside "
            f"{player}'s range {lo} to {hi}"
        )
    return [base * 2**k for k in range(levels)]


def trace_spec(args) -> dict:
    """The study spec of `kalarite trace`'s flags (checked by sim.spec like any spec)."""
    decks = [d.strip() for d in args.decks.split(",")] if args.decks else "all"
    modes = [m.strip() for m in args.modes.split(",")] if args.modes else ["high-form"]
    levels = budgets(args.player.strip(), args.levels, args.base)
    spec = {
        "name": args.name or f"trace {args.player.strip()}",
        "decks": decks,
        "modes": modes,
        "games": args.games,
        "seed": args.seed,
        "mirrors": False,
        "trace": {"player": args.player.strip(), "levels": levels},
    }
    for key, value in (
        ("until", args.until),
        ("positions", args.positions),
        ("beings_without_effects", args.beings_without_effects or None),
        ("content", args.content),
    ):
        if value is not None:
            spec[key] = value
    return spec
