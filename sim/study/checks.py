"""A study checked against its content before anything is played: every mode, seat list,
deck and player known and playable, ``deals`` and ``until`` meaningful; one StudyError line
otherwise. The spec's keys were checked one by one on reading (sim.spec); these are the checks
across keys and against the card files. sim.study.load calls ``validate`` last in
``study_from_dict``."""

from core import constants as K
from sim.spec import DEALS, SPEC, seat_problem, seats_text
from sim.study.model import SAFE_NAME, TRACE_MODES, Study, StudyError, fits, policy_label


def validate(study: Study, content, where: str = "study", flags=None):
    """Every name known and playable, every mode and seat list played; raises StudyError /
    ContentError (one line). ``flags``: as for study_from_dict."""
    from sim.content import ContentError
    from sim.players import parse_policy

    for mode in study.modes:
        if mode not in K.MODE_NAMES:  # a Study built in code: the spec's rule checked the rest
            raise StudyError(
                f"{where}: unknown mode {mode!r} (known modes: {', '.join(K.MODE_NAMES)})"
            )
        if study.trace and mode not in TRACE_MODES:
            raise StudyError(
                f"{where}: a trace plays the duel modes ({', '.join(TRACE_MODES)}), not {mode!r}"
            )
    if study.deals not in DEALS:
        raise StudyError(f"{where}: deals must be one of {', '.join(DEALS)}, got {study.deals!r}")
    if study.until:
        _check_until(study, where, flags)
    for pair in study.policies:
        for p in pair:
            try:
                parse_policy(p)
            except ValueError as e:
                raise StudyError(f"{where}: {e}") from None
    labels = {}
    for pair in study.policies:
        label = "-vs-".join(policy_label(p) for p in pair)
        if labels.setdefault(label, pair) != pair:
            raise StudyError(
                f"{where}: policies {list(pair)} and {list(labels[label])} have the same "
                f"directory name {label!r}"
            )
    if flags and len(study.modes) == len(study.decks) == len(study.policies) == 1:
        problem = seat_problem(study.modes[0], study.decks[0], study.policies[0], flags)
        if problem:  # one game's flags: the flag that does not fit
            raise StudyError(problem)
    for mode in study.modes:
        if not any(study.plays(mode, d, p) for d in study.decks for p in study.policies):
            need = (
                "two 'imperial' decks"
                if mode == "new-player"
                else f"a seat list of {seats_text(mode)} decks"
            )
            raise StudyError(
                f"{where}: mode {mode!r} has no game to play: it needs {need} (and one policy, "
                "or one per seat)"
            )
    for decks in study.decks:
        if not any(fits(m, decks, p) for m in study.modes for p in study.policies):
            raise StudyError(
                f"{where}: no chosen mode plays the seat list {list(decks)} (seats: "
                + "; ".join(f"{m} {seats_text(m)}" for m in study.modes)
                + ")"
            )
    for pair in study.decks:
        for d in pair:
            known_deck(content, d, where)
            if not SAFE_NAME.match(d):
                raise StudyError(f"{where}: deck name {d!r} cannot be a partition value")
    for pair in study.decks:
        try:
            content.require_playable(list(pair), study.beings_without_effects)
        except ContentError as e:
            raise StudyError(
                f"{e}" if flags else f"{where}: {e} (in a spec: beings_without_effects = true)"
            ) from None


def _check_until(study: Study, where: str, flags=None):
    """``until`` needs something to decide on: ``decided`` two players each in self-play (the
    stability rule compares them; a trace has them), ``width=W`` one, in a duel mode with
    two different decks (results/looks.py reads them)."""
    label = SPEC["until"].label(where, flags)
    duel = [m for m in study.modes if m in TRACE_MODES]
    pairs = [d for d in study.decks if len(d) == 2 and d[0] != d[1]]
    selfplay = [p for p in study.policies if len(set(p)) == 1]
    if not duel or not pairs:
        raise StudyError(
            f"{label} = {study.until}: needs a duel mode ({', '.join(TRACE_MODES)}) with two "
            "different decks"
        )
    if study.until == "decided" and len(selfplay) < 2:
        raise StudyError(
            f"{label} = decided: needs two players each in self-play (the stability rule "
            "compares them), or a trace"
        )
    if not selfplay:
        raise StudyError(f"{label} = {study.until}: needs a player in self-play")


def known_deck(content, name: str, where: str):
    """Raise StudyError (one line) unless the content deals a deck ``name``."""
    from sim.content import ContentError

    try:
        content.deck_index(name)
    except ContentError as e:
        raise StudyError(f"{where}: {e}") from None
