"""The numbers of the balance report, from a study's dataset (results/README.md).

``analyze(run_dir)`` loads a finished study (DuckDB over the pyarrow datasets of
``results.store``), aggregates it and returns a JSON-ready dict: every number the report shows
(``summary.json`` is this dict). Intervals and tests come from ``results.stats`` (statsmodels,
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

from results import stats
from results.analysis.cards import card_stats
from results.analysis.dataset import Dataset, DatasetError, study_content
from results.analysis.deathmatch import deathmatch_points
from results.analysis.decisiveness import decisiveness, weak_play_warnings
from results.analysis.deck_moves import shared_deals_sql
from results.analysis.duel import deck_vs_field_rates, first_player_rates, matchup_table
from results.analysis.glance import at_a_glance
from results.analysis.groups import group_index, register_groups
from results.analysis.labels import END_LABELS, MODE_LABELS
from results.analysis.length import end_reason_stats, game_length_stats
from results.analysis.mechanics import mechanic_use
from results.analysis.multiplayer import multiplayer_stats
from results.analysis.policies import policy_stats
from results.analysis.sensitivity import sensitivity
from results.analysis.skill_trace import skill_trace
from results.analysis.stability import study_stability
from results.analysis.tasks import TASK_DISPLAY_NOTE, task_stats
from results.checked import unchecked_text
from results.looks import study_looks
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


def analyze(
    run_dir, allow_incomplete: bool = False, margin=None, max_games=None, alpha=None
) -> dict:
    """Every number of the balance report of the study in ``run_dir``; ``margin``: the
    stability margin in points (--margin; default the spec's ``stability_margin``, else
    results.analysis.stability.MARGIN_POINTS). ``max_games`` and ``alpha``: the games and
    each test's error of a look (results/looks.py); a study played ``--until`` is read at
    the look it stopped at by default."""
    d = Dataset(run_dir, allow_incomplete=allow_incomplete, max_games=max_games)
    looks = study_looks(d.manifest, d.max_games)
    if alpha is None:
        alpha = looks["alpha"] if looks else stats.ALPHA
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
    multiplayer = multiplayer_stats(d)
    data["games_two_seat"] = int(d.rows("SELECT count(*) AS n FROM g")[0]["n"])
    data["games_multi_seat"] = multiplayer["games"]
    content = study_content(m)
    matchups = matchup_table(d, groups)
    field = deck_vs_field_rates(d, groups)
    first_player = first_player_rates(d, groups, field)
    tasks = task_stats(d, groups, content)
    dec = decisiveness(d)
    summary = {
        "kalarite_report": 1,
        "run": {
            "path": str(d.root),
            "name": m["study"].get("name", ""),
            "status": m.get("status"),
            "engine_hash": m.get("engine_hash"),
            "engine_version": m.get("engine_version"),
            "content_hash": m.get("content_hash"),
            "created": m.get("created"),
            "completed": m.get("completed"),
            "study": canonical_spec(m["study"]),  # one spelling of the same players
        },
        "methods": stats.METHODS,
        "data": data,
        "warnings": _warnings(d, data) + weak_play_warnings(dec, MODE_LABELS),
        "decisiveness": dec,
        "missing_data": [],
        "groups": groups,
        "matchups": matchups,
        "deck_vs_field": field,
        "mechanics": mechanic_use(d, groups),
        "first_player": first_player,
        "game_length": game_length_stats(d, groups),
        "end_reasons": end_reason_stats(d, groups),
        "tasks": tasks,
        "cards": card_stats(d, groups, content),
        "deathmatch": deathmatch_points(d, groups),
        "policies": policy_stats(d, groups, first_player),
        "multiplayer": multiplayer,
    }
    summary["policy_sensitivity"] = sensitivity(summary, _shared_deals(d, groups))
    summary["sensitivity"] = study_stability(summary, margin, alpha)
    summary["looks"] = looks
    summary["skill_trace"] = skill_trace(d, summary)
    summary["at_a_glance"] = at_a_glance(summary)
    if not tasks["display_recorded"]:
        summary["missing_data"].append({"what": "task display", "text": TASK_DISPLAY_NOTE})
    if content is None:
        summary["missing_data"].append(
            {
                "what": "content names",
                "text": "the game content has changed since the study (content hash differs) "
                "or cannot be loaded: tasks and cards never seen in the data are not listed.",
            }
        )
    d.con.close()
    return summary
