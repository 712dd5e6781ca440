"""Checkers run against the engine: by the tests and `kalarite check` (never on the hot path),
and the load-time proofs of the compiled tables and of the op dispatch. (The test oracles,
plain scans the fast searches are held to, live in tests/oracles.py: editing one does not
change the engine hash.)

- ``invariants``: the invariant checker run after every applied option in test games
  (``core.kernel.play_games_checked``): counters, stocks and piles agree with the board.
- ``tables_proof``: every index the compiled tables hold is in range (plain numpy, run by
  sim.content.load_content before any kernel sees the tables).
- ``dispatch_proof``: every op of core.ops.OPS has its branch in each function of
  core.effects its family names, and in no other (ast over their source, run by
  sim.content.load_content once per process and by tests/test_op_registry.py).
"""
