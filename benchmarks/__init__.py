"""Measurements, never assertions: research scripts beside ``kalarite bench``, whose code
(the suite, the side-by-side comparison with another checkout and the summon-search
positions) lives in sim/app/bench/; these scripts import it, the CLI imports nothing here.
Part of the application layer; it may import anything.

- ``versus``: one player's speed here against another checkout.
- ``same_games``: a small study's tables, this checkout against another: the same games?
- ``compile_profile``: where a cold compile's CPU goes.
- ``command_cpu``: each command that plays nothing (``--version``, ``cards``...), warm, in CPU
  seconds of a fresh process, against another checkout.
- ``study_bytes``: the Parquet bytes per game that sim/study_size.py's estimate stores.
- ``stability_rule``: the stability rule's error rates and power on simulated studies.
- ``trace_power``: the skill trace's joint test (A/A and power) and slope coverage, simulated.
- ``credibility``: the credibility study's record and the README's decided table.
- ``player_cost``: one player's CPU per game against another's, side by side in one run.
- ``duel``: one player against another on every ordered deck pairing, seats alternated,
  with intervals, ties on points and pending beings at the end.
- ``learning_loop``: the learned leaf value's rounds (self-play, fit, the new model against
  the last) and its learning curve.
- ``pending``: when a player leaves an Etherweave being pending at a game's end.
- ``results/``: saved benchmark output (``make bench``).
"""
