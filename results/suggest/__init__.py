"""The statistics of `kalarite suggest`.

- ``race``: the race's decision rules (surely worse than the leader, cannot reach the
  smallest effect, the budget's sequential halving) and the confirmation rule, with their
  error rates; pure functions the real race and the benchmarks share.
- ``data``: per game, the goal deck's win share and the cards its seat drew or played.
- ``effects``: paired effects per matchup, per mode and on the goal's objective.
- ``checklist``: the trust checklist of a replayed edit.
"""
