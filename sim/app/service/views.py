"""What the API says about a study: its registry row plus its progress on disk."""

import datetime

from sim.app.service import progress
from sim.app.service.config import TABLES, study_tables
from sim.app.service.registry import StudyRow
from sim.app.service.summary import is_suggestion, spec_summary, suggestion_summary

API = "/api/v1"
_SUMMARIES: dict = {}  # study id -> its spec summary (a study's spec never changes)
_SUMMARIES_MAX = 4096
_PLAYED: dict = {}  # finished suggestion's id -> the games it played (they never change)


def summary_of(row: StudyRow) -> dict:
    s = _SUMMARIES.get(row.id)
    if s is None:
        if len(_SUMMARIES) >= _SUMMARIES_MAX:
            _SUMMARIES.clear()
        summarise = suggestion_summary if is_suggestion(row.spec) else spec_summary
        s = _SUMMARIES[row.id] = summarise(row.spec)
    return s


def _iso(t: float | None) -> str | None:
    if t is None:
        return None
    return datetime.datetime.fromtimestamp(t, datetime.UTC).isoformat(timespec="seconds")


def links(sid: str, tables=TABLES[:3]) -> dict:
    """The study's URLs; ``tables``: the tables it has (study_tables)."""
    base = f"{API}/studies/{sid}"
    return {
        "self": base,
        "events": f"{base}/events",
        "spec": f"{base}/spec",
        "log": f"{base}/log",
        "cancel": f"{base}/cancel",
        "resume": f"{base}/resume",
        "report": f"{base}/report",
        "summary": f"{base}/summary",
        "manifest": f"{base}/manifest",
        "tables": {t: f"{base}/tables/{t}" for t in tables},
    }


def _progress(row: StudyRow, config, cache: progress.ProgressCache) -> dict:
    """Games done, this run's games, games/s and ETA of a study or a suggestion. A
    suggestion's games are those its datasets hold (its budget is only the most it may play),
    counted as they are played and once it has finished."""
    done = this_run = 0
    rate = {"games_per_s": None, "eta_s": None}
    suggestion = is_suggestion(row.spec)
    if row.state == "finished" and not suggestion:
        done = row.games_total
    elif row.state == "finished":
        if row.id not in _PLAYED:
            if len(_PLAYED) >= _SUMMARIES_MAX:
                _PLAYED.clear()
            _PLAYED[row.id] = progress.scan_tree(config.report_dir(row.id))["games_done"]
        done = _PLAYED[row.id]
    elif row.state != "queued" or row.runs:
        if suggestion:
            p = cache.get(row.id, config.report_dir(row.id), row.started, tree=True)
        else:
            p = cache.get(row.id, config.dataset_dir(row.id), row.started)
        done = p["games_done"]
        if row.state == "running" and row.phase == "playing":
            this_run = p["games_this_run"]
            rate = progress.rates(p, None if suggestion else row.games_total)
    total = done if suggestion and row.state == "finished" else row.games_total
    return {
        "games_done": done,
        "games_total": total,
        "games_budget": row.games_total if suggestion else None,
        "games_this_run": this_run,
        **rate,
    }


def study_view(row: StudyRow, config, cache: progress.ProgressCache) -> dict:
    p = _progress(row, config, cache)
    return {
        "id": row.id,
        "name": row.name,
        "owner": row.owner,
        "state": row.state,
        "phase": row.phase,
        "games_done": p["games_done"],
        "games_total": p["games_total"],
        "games_budget": p["games_budget"],
        "games_this_run": p["games_this_run"],
        "matchups": row.matchups,
        "games_per_s": p["games_per_s"],
        "eta_s": p["eta_s"],
        "error": row.error,
        "cancel_requested": row.cancel_requested,
        "runs": row.runs,
        "created": _iso(row.created),
        "started": _iso(row.started),
        "finished": _iso(row.finished),
        "spec": row.spec,
        "summary": summary_of(row),
        "links": links(row.id, study_tables(row.spec)),
    }


def public_view(request, row: StudyRow) -> dict:
    """A study's or suggestion's view as a client may see it (the service's config decides
    which paths are public): what every route that answers with one study returns."""
    s = request.app.state
    return s.config.public(study_view(row, s.config, s.progress))
