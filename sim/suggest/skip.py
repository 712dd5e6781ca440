"""The exact skip of `kalarite suggest`: a deal in which the edited card never left its
owner's deck (seat 0 never drew it) plays the same game with and without the edit, so the
edit's game is recorded as the base's without being played.

That holds only for players that never look at the cards a seat has not seen: the turn
planner and greedy read the board, their own hand and counts, never the order or content of
a deck. It does not hold for ``mc`` (it deals the opponent's hidden hand from the cards that
seat has not seen, the edited card among them) nor for a player with a learned leaf value
(the sage: its features count the opponent's summonable cards over hand and deck pooled).
tests/test_suggest_skip.py plays base and edited games of every edit kind under each player
listed here and finds every game without the card identical; a player not listed plays every
game.
"""

SKIP_EXACT_PLAYERS = ("planner", "greedy")


def skip_exact(spec: str) -> bool:
    """Is the exact skip proven for this player spec? (a plain planner or greedy, any
    settings or weights, without a learned model)"""
    from sim.players import models_of, resolve

    player, _, settings = resolve(spec)
    return player in SKIP_EXACT_PLAYERS and not models_of(spec) and "restrict" not in settings
