"""The lists at the end of a subcommand's ``--help``: the valid decks, modes and players
(with their parameters and defaults). Built only when the help is printed: listing the decks
loads the card files.

Each list's header says where the command takes those names: the option it has (``--decks``
for ``play``, ``--deck`` and ``--opponents`` for ``suggest``) or the file key (``study``: the
spec's), so that a command's help names only options it takes (tests/test_cli_help.py)."""

import textwrap

from core import constants as K

MODE_TEXT = {
    "high-form": "2 seats: tasks and legendary pieces, 9 points",
    "deathmatch": "2 seats: the duel, destruction points, 18 points",
    "melee": "3 or 4 seats: Deathmatch each for themself",
    "team-high-form": "4 seats: High Form, seats 0+2 against 1+3",
    "team-deathmatch": "4 seats: the duel's scoring, seats 0+2 against 1+3",
    "new-player": "2 seats: first-game rules, two imperial decks, 6 points",
}


# where a command takes the names when it does not say otherwise: play's and simulate's options
DEFAULT_HOW = {
    "decks": "--decks, one per seat",
    "modes": "--mode",
    "players": "--policy NAME or NAME:key=value:..., one for every seat or one per seat, "
    "comma separated, e.g. planner,greedy or mc:playouts=32,random",
}


def _decks(how: str) -> list:
    from sim.content.copies import load_content_dir

    content = load_content_dir(None)
    lines = [f"decks ({how}; kalarite cards lists their cards):"]
    for d in content.decks:
        n = sum(1 for c in content.cards if c.deck == d)
        missing = len(content.missing_effects([d]))
        note = f" ({missing} not implemented yet: not dealt)" if missing else ""
        lines.append(f"  {d:18s} {n} beings{note}")
    return lines


def _modes(how: str) -> list:
    lines = [f"modes ({how}):"]
    for m in K.MODE_NAMES:
        lines.append(f"  {m:18s} {MODE_TEXT.get(m, '')}".rstrip())
    return lines


def _players(how: str) -> list:
    """Every kind of the player registry (sim.player_kinds) with its settings' defaults and
    ranges and its search budget, then the profiles."""
    from sim.player_kinds import DEFAULT_WEIGHTS, KINDS
    from sim.players import load_profiles

    lines = textwrap.wrap(f"players ({how}):", 88)
    for kind in KINDS:
        lines.append(f"  {kind.name:18s} {kind.description}")
    for name, prof in load_profiles().items():
        lines.append(f"  {name:18s} profile of {prof.player}: {prof.about}".rstrip(": "))
    weights = ", ".join(f"{k}={v:g}" for k, v in DEFAULT_WEIGHTS.items())
    tunable = [k.name for k in KINDS if k.weights]
    texts = [f"parameters of {', '.join(tunable)}: the evaluation weights (defaults): {weights}"]
    meanings = {}
    for kind in KINDS:
        if kind.settings:
            own = ", ".join(f"{s.key}={s.default} ({s.allowed()})" for s in kind.settings)
            budget = f"; search budget: {kind.budget}" if kind.budget else ""
            texts.append(f"parameters of {kind.name} (default, range): {own}{budget}")
        meanings |= {s.key: s.about for s in kind.settings}
    texts += [f"{key}: {about}" for key, about in meanings.items()]
    for text in texts:
        lines += textwrap.wrap(text, 88, initial_indent="  ", subsequent_indent="    ")
    return lines


def valid_names(which) -> str:
    """The lists named in ``which``: each "decks", "modes" or "players" (headed by
    DEFAULT_HOW), or (name, how): the list headed by where this command takes the names."""
    parts = {"decks": _decks, "modes": _modes, "players": _players}
    out = []
    for w in which:
        name, how = (w, DEFAULT_HOW[w]) if isinstance(w, str) else w
        out += parts[name](how) + [""]
    return "\n".join(out)
