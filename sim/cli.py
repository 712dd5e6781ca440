"""The `kalarite` command line.

Bad input always ends in one line `kalarite: error: ...` on stderr and exit status 2.
"""

import argparse
import json
import sys

from core import constants as K


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """Argument errors become CliError, so they too end in one `kalarite: error:` line
    (argparse would print the usage and its own error line)."""

    def error(self, message):
        where = self.prog.partition(" ")[2]  # the subcommand, if any
        raise CliError(f"{where}: {message}" if where else message)


def _decks(text: str) -> list[str]:
    decks = [d.strip() for d in text.split(",") if d.strip()]
    if not decks:
        raise CliError("--decks needs deck names separated by commas")
    return decks


def _policies(text: str, n: int) -> tuple:
    names = [p.strip() for p in text.split(",")]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise CliError(f"--policy needs 1 or {n} names")
    return tuple(names)


def cmd_play(args):
    from sim.content import load_content
    from sim.single_game import GameConfig, format_game, play_logged

    content = load_content()
    decks = _decks(args.decks)
    if args.game < 0:
        raise CliError("--game must be a game index >= 0")
    cfg = GameConfig(
        decks=decks,
        mode=args.mode,
        seed=args.seed,
        game_index=args.game,
        policies=_policies(args.policy, len(decks)),
        turn_cap=args.turn_cap,
        beings_without_effects=args.beings_without_effects,
    )
    s, events = play_logged(content, cfg)
    print(format_game(content, cfg, s, events))


def cmd_moves(args):
    from sim.content import load_content
    from sim.position import legal_moves, load_position

    content = load_content()
    s = load_position(args.position, content)
    print(json.dumps(legal_moves(s, content), indent=2))


def cmd_cards(args):
    from sim.cards_view import list_cards, show_card
    from sim.content import load_content

    content = load_content()
    print(show_card(content, args.card) if args.card else list_cards(content))


def cmd_demo(args):
    from sim.demo import run_demo

    run_demo(args.out, args.games)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="kalarite", description="Tash-Kalar Monte Carlo simulator")
    sub = p.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play one game and print its turn-by-turn log")
    play.add_argument("--decks", required=True, help="one deck per seat, e.g. imperial,highland")
    play.add_argument("--mode", default="high-form", choices=K.MODE_NAMES)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--game", type=int, default=0, help="game index (also picks the first seat)")
    play.add_argument("--policy", default="random", help="one policy, or one per seat")
    play.add_argument("--turn-cap", type=int, default=200)
    play.add_argument(
        "--beings-without-effects",
        action="store_true",
        help="deal beings whose effect is not implemented yet, as no-effect beings",
    )
    play.set_defaults(func=cmd_play)

    moves = sub.add_parser("moves", help="list every legal action in a position file, as JSON")
    moves.add_argument("position", help="position TOML file (format in README.md)")
    moves.set_defaults(func=cmd_moves)

    cards = sub.add_parser("cards", help="list the decks and cards, or show one card")
    cards.add_argument("action", nargs="?", choices=["show"], help="show one card")
    cards.add_argument("card", nargs="?", help="card id, e.g. imperial/swordmaster")
    cards.set_defaults(func=cmd_cards)

    demo = sub.add_parser("demo", help="run the default demo study and write its summary")
    demo.add_argument("--out", default="runs/demo")
    demo.add_argument("--games", type=int, default=400, help="games per matchup and mode")
    demo.set_defaults(func=cmd_demo)
    return p


def main(argv=None) -> int:
    from sim.content import ContentError
    from sim.position import PositionError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if getattr(args, "action", None) == "show" and not args.card:
            parser.error("cards show needs a card id")
        args.func(args)
    except (CliError, ContentError, PositionError, ValueError, OSError) as e:
        text = " ".join(str(e).split())  # always one line
        print(f"kalarite: error: {text}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
