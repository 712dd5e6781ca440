"""Golden playthroughs: fixed games printed with the engine's own state, for every deck and
every mode (``CONFIGS``; tests/test_golden.py compares them with tests/golden/*.txt).

A playthrough is the game's text log (sim.render.event_text, one line per event) with the
engine's state read where the engine holds it, never rebuilt from the events:

- at the first decision of every turn, the board of the engine's state row (sim.render
  ``board_lines``), its Gateways and its scores; at the end, the final state's;
- every decision: the seat, the option it took and how many it had;
- the decisions ``shown`` (the first ``FIRST_SHOWN``, then every ``EVERY``-th): every option
  row the engine listed (kind and its three values; ``*`` marks the one taken), so a change in
  the options or their order shows where it happens.

The games are played step by step from Python (sim.single_game.play_stepwise), which the
test checks against the kernel's own game (play_logged) for every configuration.

Regenerate after a deliberate change, and read the diff before committing it::

    .venv/bin/python -m tests.support.playthrough --write            # every file
    .venv/bin/python -m tests.support.playthrough --write NAME ...   # some
"""

import argparse
import pathlib
import sys

from core import constants as K
from core.layout import GATEWAY
from sim.content import load_content
from sim.render import board_lines, event_text
from sim.single_game import GameConfig, gateway_text, header_lines, play_stepwise, score_text

GOLDEN_DIR = pathlib.Path(__file__).parent.parent / "golden"
FIRST_SHOWN = 5  # the first decisions of a game with all their options...
EVERY = 10  # ...then every tenth
WIDTH = 100

CONFIGS = {
    "high-form_imperial-highland_seed7": dict(
        decks=["imperial", "highland"], mode="high-form", seed=7
    ),
    "deathmatch_sylvan-imperial_seed3": dict(
        decks=["sylvan", "imperial"], mode="deathmatch", seed=3
    ),
    "high-form_highland-highland_seed11": dict(
        decks=["highland", "highland"], mode="high-form", seed=11
    ),
    # game index 1: seat 1 takes the first turn
    "high-form_sylvan-highland_seed5_game1": dict(
        decks=["sylvan", "highland"], mode="high-form", seed=5, game_index=1
    ),
    "deathmatch_highland-imperial_seed2_game1": dict(
        decks=["highland", "imperial"], mode="deathmatch", seed=2, game_index=1
    ),
    "melee_imperial-highland-sylvan_seed4": dict(
        decks=["imperial", "highland", "sylvan"], mode="melee", seed=4, policies=("random",) * 3
    ),
    "melee_sylvan-imperial-highland-highland_seed6_game2": dict(
        decks=["sylvan", "imperial", "highland", "highland"],
        mode="melee",
        seed=6,
        game_index=2,
        policies=("random",) * 4,
    ),
    "team-high-form_imperial-highland-sylvan-sylvan_seed8": dict(
        decks=["imperial", "highland", "sylvan", "sylvan"],
        mode="team-high-form",
        seed=8,
        policies=("random",) * 4,
    ),
    "team-deathmatch_highland-sylvan-imperial-highland_seed9_game1": dict(
        decks=["highland", "sylvan", "imperial", "highland"],
        mode="team-deathmatch",
        seed=9,
        game_index=1,
        policies=("random",) * 4,
    ),
    "new-player_imperial-imperial_seed10": dict(
        decks=["imperial", "imperial"], mode="new-player", seed=10
    ),
    # Everfrost: frozen effects stored, replaced and thawed; pieces removed from the game
    "deathmatch_everfrost-imperial_seed2": dict(
        decks=["everfrost", "imperial"], mode="deathmatch", seed=2
    ),
    "high-form_sylvan-everfrost_seed15": dict(
        decks=["sylvan", "everfrost"], mode="high-form", seed=15
    ),
    "melee_everfrost-highland-sylvan_seed2": dict(
        decks=["everfrost", "highland", "sylvan"], mode="melee", seed=2, policies=("random",) * 3
    ),
    "team-deathmatch_everfrost-imperial-highland-everfrost_seed2": dict(
        decks=["everfrost", "imperial", "highland", "everfrost"],
        mode="team-deathmatch",
        seed=2,
        policies=("random",) * 4,
    ),
    # Nethervoid: Gateways marked, followed and lost; possessed summons; the Hound's card
    # under the deck; a legend made by an effect
    "deathmatch_nethervoid-imperial_seed18": dict(
        decks=["nethervoid", "imperial"], mode="deathmatch", seed=18
    ),
    "high-form_everfrost-nethervoid_seed29": dict(
        decks=["everfrost", "nethervoid"], mode="high-form", seed=29
    ),
    "melee_nethervoid-sylvan-highland_seed3": dict(
        decks=["nethervoid", "sylvan", "highland"], mode="melee", seed=3, policies=("random",) * 3
    ),
    "team-high-form_imperial-nethervoid-highland-nethervoid_seed2": dict(
        decks=["imperial", "nethervoid", "highland", "nethervoid"],
        mode="team-high-form",
        seed=2,
        policies=("random",) * 4,
    ),
    # Etherweave: warps and the pending being's penalty, swaps, copied warps, a piece taken
    # into stasis and brought back, void cells, Time Traveler's card put back on the deck
    "high-form_etherweave-sylvan_seed14": dict(
        decks=["etherweave", "sylvan"], mode="high-form", seed=14
    ),
    "deathmatch_imperial-etherweave_seed13": dict(
        decks=["imperial", "etherweave"], mode="deathmatch", seed=13
    ),
    "melee_etherweave-nethervoid-highland_seed19": dict(
        decks=["etherweave", "nethervoid", "highland"],
        mode="melee",
        seed=19,
        policies=("random",) * 3,
    ),
    "team-deathmatch_etherweave-everfrost-etherweave-everfrost_seed30": dict(
        decks=["etherweave", "everfrost", "etherweave", "everfrost"],
        mode="team-deathmatch",
        seed=30,
        policies=("random",) * 4,
    ),
}


def config(name: str) -> GameConfig:
    return GameConfig(**CONFIGS[name])


def shown(decision: int) -> bool:
    """Are this decision's options printed?"""
    return decision < FIRST_SHOWN or decision % EVERY == 0


def _state_lines(cfg, s, content) -> list:
    """The engine's board, Gateways and scores of state row ``s``."""
    lines = ["    " + line for line in board_lines(s, content.tables)]
    gateways = {p: int(s[GATEWAY + p]) for p in range(len(cfg.decks)) if s[GATEWAY + p] != -1}
    if gateways:
        lines.append("    " + gateway_text(gateways))
    lines.append("    score: " + score_text(cfg, s))
    return lines


def _wrapped(items, indent: str) -> list:
    lines, line = [], indent
    for item in items:
        if len(line) + len(item) + 1 > WIDTH and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += item + " "
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _decision_lines(d) -> list:
    n = len(d.options)
    head = f"  decision {d.index}: seat {d.seat} takes option {d.chosen} of {n}"
    if not shown(d.index):
        return [head]
    items = [
        f"{k}{'*' if k == d.chosen else ':'}{K.OPT_NAMES[o[0]]}({o[1]},{o[2]},{o[3]})"
        for k, o in enumerate(d.options.tolist())
    ]
    return [head + ", options:", *_wrapped(items, "      ")]


def playthrough(content, cfg: GameConfig) -> str:
    """The game's playthrough text (the module's docstring says what it holds)."""
    decisions = []
    s, events = play_stepwise(content, cfg, decisions.append)
    lines = header_lines(cfg)
    pending = iter(decisions)
    d = next(pending, None)
    turn_started = False
    for i, row in enumerate(events):
        while d is not None and d.logged <= i:
            if turn_started:  # the board as the turn's seat starts deciding
                lines += _state_lines(cfg, d.state, content)
                turn_started = False
            lines += _decision_lines(d)
            d = next(pending, None)
        kind = int(row[0])
        if kind == K.EV_TURN:
            lines.append(event_text(row, content, cfg.mode, cfg.decks))
            turn_started = True
        elif kind == K.EV_END:
            lines += _state_lines(cfg, s, content)
            lines.append(event_text(row, content, cfg.mode))
            lines.append("final score: " + score_text(cfg, s))
        elif kind != K.EV_DRAW:  # draws: many, and hidden from the other seats
            lines.append("  " + event_text(row, content, cfg.mode))
    assert d is None, "a decision after the last event"
    return "\n".join(lines) + "\n"


def golden_text(name: str) -> str:
    return playthrough(load_content(), config(name))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Rewrite golden playthroughs (tests/golden/).")
    p.add_argument("--write", action="store_true", help="rewrite the files (else: list them)")
    p.add_argument("names", nargs="*", help="configurations (default: all)")
    a = p.parse_args(argv)
    unknown = [n for n in a.names if n not in CONFIGS]
    if unknown:
        p.error(f"unknown configuration {unknown[0]!r}")
    for name in a.names or sorted(CONFIGS):
        path = GOLDEN_DIR / f"{name}.txt"
        if not a.write:
            print(path)
            continue
        text = golden_text(name)
        old = path.read_text() if path.exists() else None
        if old != text:
            path.write_text(text)
        print(f"{'unchanged' if old == text else 'rewrote'} {path}", file=sys.stderr)
    if a.write:
        print("read the diff (git diff --stat tests/golden) before committing", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
