"""A study's dataset and everything read from it: the dataset contract that cluster writes
through, the analysis, the balance report and the comparison of two studies. Imports sim,
results and, of core, only the row layout (core.constants, core.rows, core.layout).

Dataset contract and shared statistics:
- ``store``: the dataset on disk (manifest and Parquet chunk files), written atomically; its
  identity (``dataset_info``: engine, content, spec, the players' parameter digests).
- ``layout``: a dataset's files: where each chunk's file is, how many chunks a matchup has
  and how many games each holds, part names read back, a chunk's Parquet files finished.
- ``chunk_check``: whether a chunk counted as done can be read and holds its games (resume).
- ``report_dirs``: where a report or compare page may be written; light, so the CLI can
  build its parser without the report's libraries (scipy, matplotlib, pandas).
- ``schema``: the tables' Arrow schemas, and one chunk's tables from kernel output.
- ``pandas_meta``: the Parquet files' pandas metadata (nullable dtypes).
- ``stats``: the report's statistics (statsmodels, scipy).
- ``shown``: how an interval is printed beside its verdict (outward, never contradicting it).
- ``parts``: the one registry of the report's parts (summary key, analysis, HTML, tidy
  tables, compare tables, page section) that analyze, the report, the frames and compare
  iterate; the summary's format and its renamed keys.
- ``frames``: the report's numbers and a comparison's tables as DataFrames (``sim.api``).
- ``ratings``: Bradley-Terry ratings and head-to-head records (``kalarite ladder``).
- ``learn``: the win-probability fit on a study's positions (``kalarite learn``); ``learn_net``
  its optional hidden layer.
- ``checked``: the records of content ``kalarite check`` played clean, and the warning of a
  dataset whose content was never checked.
- ``competence``: the paired gap between a player and its restricted twin (``kalarite
  competence``).
- ``looks``: the doubling looks of a study played ``--until`` and the error spent over them;
  each look's decision.
- ``credibility``: the credibility study's checked-in record, which the first screen of a
  study that cannot decide its own stability names.

``analysis/`` (the numbers of the report, see README.md and REPORT.md):
- ``__init__``: ``analyze``, the summary of a dataset; ``dataset``: the tables as DuckDB
  views; ``groups``: the groups of games compared and their SQL helpers; ``labels``: shared
  names.
- one file per section family: ``duel`` (matchups, deck vs field, first player), ``length``
  (game length, end reasons), ``tasks``, ``cards`` (with ``card_contrast``: a card against its
  deck-mates), ``deathmatch``, ``policies``, ``multiplayer``, ``decisiveness``,
  ``sensitivity``, ``skill_trace`` (a trace's strength and deck traces, slopes per doubling
  and the joint test), ``stability`` (the one owner of the stable / player-sensitive /
  undetermined rule, with ``deck_moves``: each deck's move and its covariance, stratified or
  paired; ``ranking_change``: tau, reversals and flips, description only; ``player_families``:
  which players are compared; ``stability_text``: the verdict in words), ``mechanics`` (each
  expansion mechanic's use beside its deck's win rate), ``glance`` (the first screen's
  picture and lines), ``first_screen`` (the designer's first screen: one line per deck in
  plain words with its own verdict, the power line, and how it was decided), ``seat_edge``
  (the first mover's share and its move between the top two players, decided by the
  stability rule); ``findings``: the key findings.

``suggest/`` (`kalarite suggest`'s statistics): ``race`` (the race's and the confirmation's
decision rules with their error rates), ``data`` (per game: the goal deck's win share and its
seat's cards), ``effects`` (paired effects per matchup, mode and goal), ``checklist`` (the
trust checklist of a replayed edit).

``report/`` (the balance report, see REPORT.md):
- ``__init__``: ``make_report`` and ``write_report`` (index.html, PNG plots, summary.json):
  the page draws every part of ``results/parts.py`` in its order; ``frame``: the page's frame
  and its own sections (contents, study, warnings, method); ``compare_page``: the compare
  page.
- ``html``: the HTML building blocks; ``plots``: the plots; ``plot_glance``: the first
  screen's picture.
- one file per section family with the same names as in ``analysis/``: ``duel``, ``length``,
  ``tasks``, ``cards``, ``deathmatch``, ``policies``, ``multiplayer``, ``decisiveness``,
  ``sensitivity``, ``glance``, ``first_screen``, ``findings`` (each a mixin of the page
  builder);
  ``skill_trace`` (the skill trace and the looks of a study played ``--until``) with its
  pictures in ``plot_trace``.

``compare/`` (two studies side by side):
- ``__init__``: ``compare``, ``kalarite compare``'s numbers, and its text; ``changes``: what
  changed between the two; ``tables``: each compared part's tables; ``paired``: the paired analysis
  (common random numbers); ``paired_text``: it as text; ``same``: whether one study's games
  are the other's (a copy, or a part of it); ``caveats``: how each study's games ended and
  whether its verdicts hold under another player; ``stability``: the stability rule between
  the two studies (another player, or the same one on another seed: an A/A check).
"""
