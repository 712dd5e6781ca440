"""A study spec read into a checked Study: from a dict (a TOML document, a request body,
the Python API), a spec file, or `kalarite simulate` flags."""

import pathlib

from sim.inputs import read_document
from sim.spec import (
    DEFAULT_DEALS,
    FLAGS,
    SPEC,
)
from sim.study.checks import known_deck, validate
from sim.study.model import (
    Study,
    StudyError,
    dealable_decks,
    deck_lists,
    same_players,
    trace_of,
    trace_players,
)


def study_from_dict(data: dict, content, where: str = "study", flags=None) -> Study:
    """Parse and validate a spec dict (a TOML document, a request body, or flags) into a
    Study: every key by its rule in sim.spec.SPEC, then every name against the content.
    ``flags``: {key: flag} of the values a command line gave (its messages name the flag)."""
    if not isinstance(data, dict):
        raise StudyError(f"{where}: a study spec is a TOML table of keys")
    if "content" in data:  # a spec dict (the Python API): relative to the working directory
        from sim.content.copies import load_content_dir

        content_dir = SPEC["content"].check(data["content"], where, StudyError, flags)
        content = load_content_dir(content_dir, what=f"{where}: content")
    v = SPEC.check(data, where, StudyError, flags)
    trace = None
    if v["trace"] is not None:
        if "policies" in data or "policy" in data:
            raise StudyError(f"{where}: a trace names its players in 'trace', not 'policies'")
        trace = trace_of(v["trace"], where)
        v["policies"] = [(p,) for p in trace_players(trace)]
    decks_v = v["decks"]
    if decks_v != "all":  # every name known before the seat lists are expanded
        for name in {d for item in decks_v for d in ([item] if isinstance(item, str) else item)}:
            known_deck(content, name, where)
        if not v["mirrors"] and isinstance(decks_v[0], tuple):
            mirror = next((d for d in decks_v if len(set(d)) == 1), None)
            if mirror is not None:
                raise StudyError(
                    f"{where}: the seat list {list(mirror)} is a mirror match and 'mirrors' is "
                    "false"
                )
    decks = deck_lists(
        decks_v,
        v["policies"],
        v["modes"],
        v["melee_players"],
        dealable_decks(content, v["beings_without_effects"]),
        v["mirrors"],
    )
    study = Study(
        decks=decks,
        modes=v["modes"],
        policies=same_players(v["policies"], decks, v["modes"], v["melee_players"]),
        games=v["games"],
        seed=v["seed"],
        turn_cap=v["turn_cap"],
        beings_without_effects=v["beings_without_effects"],
        name=v["name"],
        chunk_size=v["chunk_size"],
        melee_players=tuple(v["melee_players"]),
        content=_content_dir(content),
        seed_names=dict(getattr(content, "variant_of", {})),
        positions=v["positions"],
        stability_margin=v["stability_margin"],
        deals=v["deals"] or DEFAULT_DEALS,
        deals_given=v["deals"] is not None,
        mirrors=v["mirrors"],
        trace=trace,
        until=v["until"],
    )
    validate(study, content, where, flags)
    return study


def check_positions(value, what: str) -> int:
    """The ``positions`` key (``--positions``): an integer 0 (off) to MAX_POSITIONS."""
    return SPEC["positions"].rule.check(value, what, StudyError)


def check_stability_margin(value, what: str) -> float:
    """The ``stability_margin`` key (``--margin``): a number of points above 0 and at most
    MAX_STABILITY_MARGIN."""
    return SPEC["stability_margin"].rule.check(value, what, StudyError)


def _content_dir(content) -> str | None:
    """The study's content directory: None for the installed card files."""
    from sim.content.copies import custom_dir

    return custom_dir(content)


def load_study(
    path,
    content=None,
    beings_without_effects: bool = False,
    content_dir=None,
    positions=None,
    games=None,
    until=None,
) -> Study:
    """Read and validate a study spec file; ``beings_without_effects`` (the command-line flag)
    forces that key on, ``positions`` (--positions), ``games`` (--games) and ``until``
    (--until) replace those keys' values. The content played is ``content_dir`` (--content)
    if given, else the spec's ``content`` key (relative to the spec file), else ``content``
    (default: the installed card files)."""
    p = pathlib.Path(path)
    data = read_document(p, p.name, "TOML", StudyError)
    if not isinstance(data, dict):  # tomllib gives a table, but a caller may not
        raise StudyError(f"{p.name}: a study spec is a TOML table of keys")
    given = {"positions": positions, "games": games, "until": until}
    for key, value in given.items():  # a flag's value, checked and named as the flag
        if value is not None:
            data[key] = SPEC[key].check(value, p.name, StudyError, FLAGS)
    if beings_without_effects:
        data["beings_without_effects"] = True
    from sim.content.copies import load_content_dir

    spec_dir = data.pop("content", None)
    if spec_dir is not None:
        spec_dir = SPEC["content"].check(spec_dir, p.name, StudyError)
    if content_dir is not None:
        content = load_content_dir(content_dir)
    elif spec_dir is not None:
        content = load_content_dir(p.parent / spec_dir, what=f"{p.name}: content")
    elif content is None:
        content = load_content_dir(None)
    return study_from_dict(data, content, where=p.name)


def simulate_study(
    content,
    decks: list,
    mode: str,
    policies: tuple,
    games: int,
    seed: int,
    turn_cap: int,
    beings_without_effects: bool,
    positions: int = 0,
) -> Study:
    """The one-matchup study of ``kalarite simulate``: its flags as a spec, checked by the
    spec's rules with the flags' names."""
    spec = {
        "name": "simulate",
        "decks": [list(decks)],
        "modes": mode,
        "policies": [list(policies)],
        "games": games,
        "seed": seed,
        "turn_cap": turn_cap,
        "beings_without_effects": beings_without_effects,
        "positions": positions,
    }
    return study_from_dict(spec, content, where="simulate", flags=FLAGS)
