"""The numbers of the balance report, from a study's dataset (results/README.md).

``analyze(run_dir)`` loads a finished study (DuckDB over the pyarrow datasets of
``results.store``), aggregates it and returns a JSON-ready dict: every number the report shows
(``summary.json`` is this dict): the study's own context (run, data, warnings, groups) and the
numbers of every part of the report (``results.parts.PARTS``, each computed by its module
here). Intervals and tests come from ``results.stats`` (statsmodels,
scipy); ``results/REPORT.md`` says what each section means.

Conventions:

- A *group* is one game mode and one policy pairing (the players of the two seats, unordered:
  ``random``/``greedy`` and ``greedy``/``random`` are the same experiment since the first
  player alternates). Every section is computed per group.
- A pairing of two different policies P and Q is read from P's side (P = the seat-0 policy of
  the pairing's first entry in the spec): deck matrices give P's deck's results against Q's
  deck. A pairing of one policy with itself is read from each deck's side; its mirror match
  (a deck against itself) has no side, so its cell gives the first mover's results.
- A win rate is the share of *decisive* games won (draws, i.e. shared wins, are left out of it)
  and the draw rate is given beside it, over all games.
- Games with an engine error are left out of every table (their count is a warning); games
  whose event log overflowed (``log_lost > 0``) are left out of the task and card tables.
- Every section above is about two-seat games (``n_players = 2``: high-form, deathmatch,
  new-player). Games of three or four seats (melee, team-high-form, team-deathmatch) have
  their own section, ``multiplayer`` (``results.analysis.multiplayer``): a group there is one
  mode, one seat count and one list of seat policies; the win rate of a deck, a turn position
  or a team composition is over decisive games (shared wins left out, shown as the shared
  rate) and is tested against the fair share (1/n in melee, 1/2 in team play).

``look_decision`` decides a look of a study played ``--until`` from its report at that look
(cluster/until.py asks it; the looks' plan and error are results/looks.py).
"""

from collections.abc import Mapping

from results import parts, stats
from results.analysis.dataset import Dataset, DatasetError, study_content
from results.analysis.decisiveness import weak_play_warnings
from results.analysis.deck_moves import shared_deals_sql
from results.analysis.groups import group_index, register_groups
from results.analysis.labels import END_LABELS, MODE_LABELS
from results.analysis.tasks import TASK_DISPLAY_NOTE
from results.checked import unchecked_text
from sim.study import canonical_spec

__all__ = ["Dataset", "DatasetError", "END_LABELS", "MODE_LABELS", "analyze", "group_index"]


def _warnings(d: Dataset, data) -> list:
    w = []
    if data["beings_without_effects"]:
        w.append(
            {
                "kind": "beings_without_effects",
                "severe": True,
                "text": f"{data['beings_without_effects_games']} of {data['games']} games were "
                "played with beings whose effect is not implemented yet, dealt as beings with no "
                "effect (--beings-without-effects): these results are NOT those of the real game.",
            }
        )
    if not d.complete:
        w.append(
            {
                "kind": "incomplete",
                "severe": True,
                "text": f"the study is incomplete (status {d.manifest.get('status')!r}): "
                f"{d.games_present} of {d.games_expected} games present.",
            }
        )
    if data["games_error"]:
        w.append(
            {
                "kind": "engine_errors",
                "severe": True,
                "text": f"{data['games_error']} games stopped on an engine error and are left "
                "out of every table.",
            }
        )
    unchecked = unchecked_text(d.manifest.get("content_hash"), d.manifest.get("content_dir"))
    if unchecked:
        w.append({"kind": "content_unchecked", "severe": True, "text": unchecked + "."})
    if data["games_log_lost"]:
        w.append(
            {
                "kind": "log_lost",
                "severe": False,
                "text": f"{data['games_log_lost']} games overflowed the event log and are left "
                "out of the task and card tables.",
            }
        )
    return w


def _shared_deals(d: Dataset, groups) -> list:
    """The games two self-play players of a mode were dealt alike (the stability rule pairs
    them); none to look for unless a mode has two self-play players."""
    modes = [g["mode"] for g in groups if g["symmetric"]]
    if len(modes) == len(set(modes)):
        return []
    return d.rows(shared_deals_sql("g", "g", "a.seat0_policy <> b.seat0_policy"))


class _Inputs(Mapping):
    """What the parts are computed from: ``ANALYSIS_INPUTS`` and, read as a mapping, the
    summary's keys, each part computed the first time it is read (so a part reads the parts
    it needs in whatever order the registry lists them). Iterating it gives the keys computed
    so far."""

    def __init__(self, registry, base: dict, inputs: dict, derived: dict):
        self.parts = {p.key: p for p in registry if p.compute}
        self.values = dict(base)
        self.inputs = inputs  # name -> value
        self.derived = derived  # name -> function of the summary (read when asked for)
        self.busy = []

    def __getitem__(self, key):
        return self.compute(key)

    def compute(self, key):
        """The value of summary key ``key``, computing its part the first time."""
        if key not in self.values:
            part = self.parts.get(key)
            if part is None:
                raise KeyError(key)
            if key in self.busy:
                raise RuntimeError(f"report parts read each other: {' -> '.join(self.busy)}")
            self.busy.append(key)
            fn = part.function("compute")
            self.values[key] = fn(*(self.arg(a) for a in part.args))
            self.busy.pop()
        return self.values[key]

    def arg(self, name):
        if name == "summary":
            return self
        if name in self.inputs:
            return self.inputs[name]
        if name in self.derived:
            return self.derived[name](self)
        return self[name]

    def __iter__(self):
        return iter(list(self.values))

    def __len__(self):
        return len(self.values)


def analyze(
    run_dir, allow_incomplete: bool = False, margin=None, max_games=None, alpha=None
) -> dict:
    """Every number of the balance report of the study in ``run_dir``: the study's own
    context (run, data, warnings, groups...) and every part of ``results.parts.PARTS``.
    ``margin``: the stability margin in points (--margin; default the spec's
    ``stability_margin``, else results.analysis.stability.MARGIN_POINTS). ``max_games`` and
    ``alpha``: the games and each test's error of a look (results/looks.py); a study played
    ``--until`` is read at the look it stopped at by default."""
    d = Dataset(run_dir, allow_incomplete=allow_incomplete, max_games=max_games)
    m = d.manifest
    totals = d.rows(
        "SELECT count(*) AS games, count(*) FILTER (WHERE error <> 0) AS err, "
        "count(*) FILTER (WHERE log_lost > 0 AND error = 0) AS lost, "
        "count(*) FILTER (WHERE beings_without_effects) AS bwe FROM games_raw"
    )[0]
    bwe_events = d.rows(
        "SELECT (SELECT count(*) FILTER (WHERE beings_without_effects) FROM card_events_raw) + "
        "(SELECT count(*) FILTER (WHERE beings_without_effects) FROM task_claims_raw) AS n"
    )[0]["n"]
    data = {
        "games": int(totals["games"]),
        "games_expected": d.games_expected,
        "games_analyzed": int(totals["games"] - totals["err"]),
        "games_error": int(totals["err"]),
        "games_log_lost": int(totals["lost"]),
        "beings_without_effects_games": int(totals["bwe"]),
        "beings_without_effects": bool(
            totals["bwe"] or bwe_events or m.get("beings_without_effects")
        ),
    }
    groups = register_groups(d)
    content = study_content(m)
    run = {
        "path": str(d.root),
        "name": m["study"].get("name", ""),
        "status": m.get("status"),
        "engine_hash": m.get("engine_hash"),
        "engine_version": m.get("engine_version"),
        "content_hash": m.get("content_hash"),
        "created": m.get("created"),
        "completed": m.get("completed"),
        "study": canonical_spec(m["study"]),  # one spelling of the same players
    }
    base = {"kalarite_report": parts.FORMAT, "run": run, "methods": stats.METHODS}
    base.update(data=data, warnings=[], missing_data=[], groups=groups)

    def look_alpha(summary):
        looks = summary["looks"]
        return alpha if alpha is not None else (looks["alpha"] if looks else stats.ALPHA)

    inputs = {
        "dataset": d,
        "manifest": m,
        "groups": groups,
        "content": content,
        "max_games": d.max_games,
        "margin": margin,
    }
    derived = {"alpha": look_alpha, "shared_deals": lambda summary: _shared_deals(d, groups)}
    summary = _Inputs(parts.PARTS, base, inputs, derived)
    data["games_two_seat"] = int(d.rows("SELECT count(*) AS n FROM g")[0]["n"])
    data["games_multi_seat"] = summary["multiplayer"]["games"]
    base["warnings"] += _warnings(d, data)  # before the parts that read them (at a glance)
    base["warnings"] += weak_play_warnings(summary["decisiveness"], MODE_LABELS)
    if not summary["tasks"]["display_recorded"]:
        base["missing_data"].append({"what": "task display", "text": TASK_DISPLAY_NOTE})
    if content is None:
        base["missing_data"].append(
            {
                "what": "content names",
                "text": "the game content has changed since the study (content hash differs) "
                "or cannot be loaded: tasks and cards never seen in the data are not listed.",
            }
        )
    for key in summary.parts:
        summary.compute(key)
    d.con.close()
    return {k: summary.values[k] for k in [*base, *summary.parts]}
