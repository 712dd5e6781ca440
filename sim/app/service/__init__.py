"""``kalarite serve``: studies as a service, an HTTP API and a web page over the study runner.

Application layer: the CLI (sim/app/cli.py, ``kalarite serve``) starts it, and its children
run the CLI (``job``); nothing in core/, cluster/, results/ or the sim library imports it
(tests/test_layers.py checks).

- ``config``: the service's settings (``ServiceConfig``) and the layout of ``--data``.
- ``registry``: the study registry, one SQLite file under ``--data`` (studies and users'
  tokens).
- ``tokens``: users' tokens and roles (read, submit, admin), kept hashed; ``tokens_cli``:
  ``kalarite serve tokens add|list|revoke``.
- ``limits``: what one submission may cost (games per matchup and per study, a
  suggestion's budget, studies per user, the data directory's disk quota); ``submit``: the
  one submit path of every kind of job (its checks, admission, its directory and registry
  row); ``removal``: a deleted study's files.
- ``specs``: a request body (TOML or JSON) checked into a study spec, as ``kalarite study``
  would check it; ``preflight``: what the study would still fail on as it starts (chunks,
  disk space), refused before the 201; ``suggestions``: ``POST /api/v1/suggestions``, a
  `kalarite suggest` goal queued and run like a study (its page the study's report), and
  ``suggestion_files``: its summary, manifest and tables (its datasets').
- ``progress``: games done, games/s (over playing time) and ETA, read from a dataset's chunk
  files (a suggestion's: all its datasets').
- ``executor``: the queue; each study runs in a child process (``kalarite study`` through
  ``job``), then its report (``kalarite report``); ``children``: spawning and ending child
  processes; ``logs``: reading their output; ``localray`` and ``rayhost``: the service's
  own local Ray (or the cluster given with ``--address``).
- ``app`` with ``routes_api``, ``routes_events`` (progress as server-sent events),
  ``routes_files``, ``routes_pages`` and ``routes_docs`` (``/docs`` from installed files, no
  CDN): the ASGI application; ``views``: what the API says about a
  study, with ``summary``: what its spec plays, in the page's words; ``security``: who a request
  is (its token and role; how a service with one shared token or none behaves), the body
  size limit, loopback host names and same-origin writes; ``server``: uvicorn.
- ``static/``: the web page (plain HTML, CSS and JavaScript, no build step): ``builder.js``
  keeps the new-study form and its TOML (``toml.js``) one state.
"""
