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
- ``player_speed``: a lookahead player's cost per game, this checkout against another.
- ``chunk_cost``: what a study's chunk costs beyond the kernel (kernel alone against the
  worker's whole chunk), side by side.
- ``profile``: where a workload's time goes, phase by phase of the engine.
- ``scale``: a big study's peak memory and bytes per game, and Ray across nodes.
- ``soak_service``: the service soaked (many users, cancels, deletes, a SIGKILL and restart).
- ``input_mutants``: seeded one-change mutants of the input files and what became of each;
  ``fuzz_input`` runs them at length through the real command line; ``numeric_extremes``: an
  extreme number in every place a user gives one.
- ``output_gaps``: a command's longest silent stretch of output.
- ``suggest_sim``: suggest's decisions calibrated on simulated races (screening, A/A, power);
  ``suggest_planted``: a planted nerf, found again by ``kalarite suggest``.
- ``results/``: saved benchmark output (``make bench``).
"""
