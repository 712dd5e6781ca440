"""The statistics of `kalarite suggest`.

- ``decision``: the one decision of a step, with its error rates: the goal's direction, the
  race's rules (surely worse than the leader, cannot reach the smallest effect, the
  budget's sequential halving) and stops, the finalists, the confirmation and the
  acceptance; pure functions the real suggestion and its calibration
  (benchmarks/suggest_sim.py) share.
- ``data``: per game, the goal deck's win share and the cards its seat drew or played.
- ``effects``: paired effects per matchup, per mode and on the goal's objective.
- ``checklist``: the trust checklist of a replayed edit.
"""
