"""`kalarite suggest` (the application side): from a balance goal to ranked, confirmed card
edits.

- ``command``: the CLI command and its flags.
- ``run``: the steps (base, candidates, race, confirmation) and the stack of accepted edits.
- ``plan``: a step before its race: the goal's matchups, the base's first rates, candidate
  edits, their prior order and their short invariant check.
- ``race``: the paired race on the study runner, round by round.
- ``confirm``: the finalists replayed on fresh seeds under the two strongest players.
- ``context``: what the stages share, and ``play``, the one way they play games.
- ``page``: ``suggest.json``, ``index.html``, the race chart and the compare pages.

The library side: sim/suggest (goal, grammar, variants, skip); the statistics:
results/suggest (the decision, effects, checklist, data).

By default the base and the race are played by the strongest player and the confirmations by
the two strongest (sim.suggest.goal.default_players). Every decision of a step is
results/suggest/decision.py's.
"""
