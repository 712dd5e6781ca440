"""Checkers run against the engine: by the tests and `kalarite check` (never on the hot path),
and the load-time proof of the compiled tables.

- ``invariants``: the invariant checker run after every applied option in test games
  (``core.kernel.play_games_checked``): counters, stocks and piles agree with the board.
- ``reference_search``: plain full scans of summon legality, the oracles the fast searches
  in core.summon are held to.
- ``tables_proof``: every index the compiled tables hold is in range (plain numpy, run by
  sim.content.load_content before any kernel sees the tables).
"""
