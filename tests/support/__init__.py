"""What several test files share, in one place: test files import from here, never from each
other, and nothing here is a test (pytest collects only tests/test_*.py).

- ``harness``: scenario positions built from test defaults (``Game``, over the library's step
  API sim/game.py), option helpers (``summon``, ``target``, ``skip``...) and named batches
  (``play_named``, ``player_rows``, ``planner_decision``).
- ``players``: real positions for the player tests (``MODES``, ``positions``, ``scramble``).
- ``summons``: the summon-search fixtures (``PATTERN_CARDS``, ``ORACLE_PATTERNS``, random
  boards, ``oracle_summons``); ``oracles``: the compiled plain scans the searches are held to.
- ``task_positions``: the task tests' boards and tables.
- ``content_edits``: card files edited on purpose (the loader's refusals, a stronger
  Swordmaster).
- ``datasets``: synthetic datasets with known answers (``game_row``, ``write_dataset``,
  ``hand_dataset``, ``random_dataset``); ``player_studies``: several players' studies over
  known pairing rates (stability, compare, wording).
- ``playthrough``: the golden playthroughs (``python -m tests.support.playthrough --write``).
- ``cli``: the command line in-process and the one-line error rule; ``snippets``: the code
  blocks of a Markdown text; ``report_layout``: the report page's layout fingerprint.
- ``service``: a live or in-process service, a browser, waiting for a condition;
  ``cluster``: a two-node Ray cluster on this machine.
"""
