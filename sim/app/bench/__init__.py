"""`kalarite bench`: the shipped measurements (never assertions), in the application so the
command depends on no research script; the scripts of benchmarks/ import them.

- ``suite``: the suite (throughput, JIT speed-up, summon search, Ray scaling, memory, cold
  compile and warm start) and its table.
- ``side_by_side``: ``kalarite bench --baseline DIR``: the same games in this checkout and
  another, in alternating rounds, with cold compile and warm start of ``kalarite play``; its
  ``PLAY_ROWS`` and ``Worker`` are what benchmarks/ uses to run other checkouts.
- ``positions``: a fixed set of mid-game positions for the summon-search bench.
"""
