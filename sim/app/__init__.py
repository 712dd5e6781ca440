"""The application layer: the ``kalarite`` command and what only it uses. Nothing in core/,
cluster/, results/ or the sim library imports this package (tests/test_layers.py checks).

- ``cli``: the ``kalarite`` command line (entry point ``sim.app.cli:main``: the parser and the
  small commands); ``study_commands``: ``simulate``, ``study``, ``trace``, ``demo``;
  ``player_commands``: ``players``, ``ladder``, ``competence``, ``tune``, ``learn``;
  ``cli_args``: what every handler shares (``CliError``, the flag checks); ``cli_help``:
  the lists of valid decks, modes and players at the end of a subcommand's ``--help``;
  ``run_outcome``: the one line and exit status of every command that plays when its run
  is interrupted or fails.
- ``report_commands``: the ``report`` and ``compare`` subcommands; ``progress_line``: the one
  progress line of a long step that plays no game (the report, a first compile of ``moves``).
- ``demo``: ``kalarite demo``, the default study and its report.
- ``trace``: ``kalarite trace``, a player's skill trace as a study (its budgets and spec).
- ``ladder``: ``kalarite ladder``, the round-robin between players with their ratings
  (results.ratings) and speeds.
- ``check``: ``kalarite check``, games with the invariant checker after every option, each
  broken invariant with the command that replays it.
- ``competence``: ``kalarite competence``, each expansion mechanic's worth against the
  restricted twin that never uses it.
- ``learn``: ``kalarite learn``, a win-probability model fitted on a study's positions, stored
  as a planner profile.
- ``tune``: ``kalarite tune``, a player's weights searched by play (on cluster.fanout).
- ``cards_view``: the text of ``kalarite cards``; ``players_view``: of ``kalarite players``.
- ``suggest/``: ``kalarite suggest``, from a balance goal to ranked, confirmed card edits
  (the race and the confirmation on the study runner, suggest.json and the page).
- ``check``: ``kalarite check``; ``competence``: ``kalarite competence``; ``learn``:
  ``kalarite learn``.
- ``service/``: ``kalarite serve``, the HTTP API and web page over the study runner.
- ``bench/``: ``kalarite bench``, the speed suite and the side-by-side comparison with
  another checkout (the scripts of benchmarks/ import it).
"""
