"""The game as data, and the library the application builds on: content (cards, tasks) as
TOML compiled into the engine's tables, players, study specs and one-game tools. It imports
only core and sim; the application layer on top of it is sim/app/ (plus sim/api.py).

- ``api``: the Python API for notebooks (``from sim import api``); application layer, the
  one such module outside sim/app/.
- ``content/``: load, validate and compile the card files (sim/data/*.toml) into core's
  tables: ``ops`` (op lists into op rows), ``tasks``, ``copies`` (a designer's ``--content
  DIR``), ``diff`` (what differs between two contents).
- ``player_kinds``: the player registry, each kind declared once (settings with ranges and
  defaults, budget knob, description, cost), from which parsing, identity words, chunking,
  trace budgets, help, `kalarite players` and the service's /options derive.
- ``players``: player specs (a player or profile name with parameters) into parameter rows;
  ``profiles/``: the named, tuned players; ``strength``: which player is strongest, read from
  the checked-in ladders' ratings (the one place the top player is named).
- ``games``: the one place a batch of games is built from names (``batch``) and players are
  resolved into the rows a dataset records and its workers play (``resolve_players``).
- ``inputs``: the one validation layer: the bounded reader of every untrusted document (TOML
  or JSON: size, nesting, encodings) and the rules its values are checked by.
- ``study_size``: a study's estimated output and time, for the warning past 10 GB and the
  refusal of a study larger than the free disk.
- ``spec``: a study spec's keys, each declared once with its rule, default and flag (also the
  spec's JSON Schema, and the seat rule of specs, ``simulate`` and ``play``).
- ``study/``: study specs (TOML, ``api.run`` dicts, request bodies or ``simulate`` flags),
  checked by ``spec`` and expanded into matchups (``model``, ``load``; ``checks``: the checks
  across keys and against the card files, ``validate``); ``studies/``: the shipped specs;
  ``chunking``: how many games a chunk holds (the chunk arithmetic results.layout reads).
- ``position``: position files into a state row, and the ``moves`` query.
- ``game``: the public step API (``Game``: deal or load a position, options, act, decide,
  the board, scores and hand views, the invariant checks) that play_stepwise, the goldens
  and the tests drive a game through.
- ``single_game``: one game from Python with its event log, and the board the log rebuilds;
  ``render``: the board and the events as text (each event's line from the event table,
  core.constants EVENTS).
- ``suggest/``: `kalarite suggest`'s library side: goals, the card grammar, each edit as its
  own content copy (and every candidate as a variant deck of one race content), the players
  for which a deal without the edited card is provably unchanged.
- ``learned``: a learned win-probability model as a profile holds it, compiled into the
  parameter row (one model per mode, a coefficient per feature name).
- ``invariant_names``: the names of the codes a checked game can end with (a broken
  invariant or an engine error), for the commands that report them.
- ``data/``: the card, deck and task files (see data/README.md).
- ``app/``: the application layer (CLI, demo, service, ladder, tune, text views).
"""


def version() -> str:
    """The installed package's version ("unknown" in a checkout that was never installed):
    what ``kalarite --version`` prints and every dataset records. Light on purpose: the
    version must not cost the report's or the engine's imports."""
    import importlib.metadata

    try:
        return importlib.metadata.version("kalarite")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"
