"""Running games on Ray and writing them into a dataset (through results' dataset contract:
store, schema, pandas_meta). Imports core, sim and results; only the application layer
(sim/app/, sim/api.py, benchmarks/) imports the runner.

- ``runner``: ``run_study``, a study's chunks played and each written as it arrives;
  resumable, with progress and a summary; a dataset started before shared deals resumes
  with its own seeds.
- ``until``: a study played ``--until``: its chunks look by look, each look read from the
  dataset (results/looks.py), stopping at the first that decides.
- ``driver``: the one driver around the scheduler, of studies and ``kalarite check``:
  warm-up, the session, progress, Ctrl-C, a failed chunk in one line, the chunks' jobs with
  the dataset's identity, the test hooks.
- ``scheduler``: the one chunk scheduler under the driver: the window of chunks in flight,
  retries, Ctrl-C.
- ``session``: where chunks are played: Ray (reused, connected or started) or this process;
  the one place Ray is started (``start_local_ray``: runs, ``fanout``, the service's Ray).
- ``connect``: an existing cluster asked once before connecting: its token followed with
  nothing set, a refusal in one line (docs/cluster.md).
- ``worker``: the one worker: a study's chunk returned as Parquet bytes, or a checked chunk
  (``kalarite check``) with only its broken games.
- ``inprocess``: the session without Ray (``workers=0``).
- ``warmup``: the engine compiled once in the driver before the workers start.
- ``progress``: the progress bar on a terminal, lines where there is none (logs, pipes),
  a notebook cell.
- ``fanout``: independent calls of one function on a local Ray session, for jobs that are
  not studies (``kalarite tune``).
"""
