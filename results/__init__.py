"""A study's dataset and everything read from it: the dataset contract that cluster writes
through, the analysis, the balance report and the comparison of two studies. Imports sim,
results and, of core, only the row layout (core.constants, core.rows, core.layout).

Dataset contract and shared statistics:
- ``store``: the dataset on disk (manifest and Parquet chunk files), written atomically.
- ``schema``: the tables' Arrow schemas, and one chunk's tables from kernel output.
- ``pandas_meta``: the Parquet files' pandas metadata (nullable dtypes).
- ``stats``: the report's statistics (statsmodels, scipy).
- ``frames``: the report's numbers and a comparison's tables as DataFrames (``sim.api``).
- ``ratings``: Bradley-Terry ratings and head-to-head records (``kalarite ladder``).

Analysis (the numbers of the report, see README.md):
- ``analysis``: ``analyze``, the summary of a dataset; ``dataset``: the tables as DuckDB
  views; ``groups``: the groups of games compared and their SQL helpers; ``labels``: shared
  names.
- ``section_duel``, ``section_length``, ``section_tasks``, ``section_cards``,
  ``section_multiplayer``, ``section_points``, ``decisiveness``, ``sensitivity``: one family of
  report sections each; ``findings``: the key findings block.

Report (see REPORT.md):
- ``report``: ``make_report`` (index.html, PNG plots, summary.json); ``report_html``: its HTML
  building blocks; ``plots``: the plots; ``report_duel``, ``report_length``, ``report_tasks``,
  ``report_cards``, ``report_multiplayer``, ``report_players``: the sections' HTML.
- ``report_paths``: where a report or compare page may be written.

Comparison of two studies:
- ``compare``: ``kalarite compare``'s numbers; ``compare_changes``: what changed between the
  two; ``compare_html``: the compare page; ``paired``: the paired analysis (common random
  numbers); ``paired_text``: it as text.
"""
