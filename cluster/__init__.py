"""Running games on Ray and writing them into a dataset (through results' dataset contract:
store, schema, pandas_meta). Imports core, sim and results; only the application layer
(sim/app/, sim/api.py, benchmarks/) imports the runner.

- ``runner``: ``run_study``, a study's chunks as Ray tasks, each written as it arrives;
  resumable, with progress and Ctrl-C handling.
- ``worker``: one chunk in a Ray worker: its games with the compiled kernel, returned as
  Parquet bytes.
- ``inprocess``: a study's chunks in this process without Ray (``workers=0``).
- ``warmup``: the engine compiled once in the driver before the workers start.
- ``progress``: progress lines where there is no terminal bar (logs, pipes, notebooks).
- ``fanout``: independent calls of one function on Ray, for jobs that are not studies
  (``kalarite tune``).
"""
