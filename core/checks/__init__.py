"""Checkers the tests run against the engine; the commands never compile them.

- ``invariants``: the invariant checker run after every applied option in test games
  (``core.kernel.play_games_checked``): counters, stocks and piles agree with the board.
- ``reference_search``: plain full scans of summon legality, the oracles the fast searches
  in core.summon are held to.
"""
