"""``/api/v1``: submit, list, read, cancel, resume and delete studies; what a spec may
contain.

Every call needs the read role; submitting needs submit; cancel, resume and delete need the
study's owner (with submit) or an admin (sim.app.service.security). A submission is checked
against the spec rules, then the service's limits (sim.app.service.limits), and only then is
anything written.

``DELETE /studies/{id}`` removes a study that is not running: its registry row, then its
directory (spec, dataset, report, downloads, log) and the comparisons it is in. A queued
study is deleted at once (it never starts); a running one is refused with 409 (cancel it
first: a cancel lets the chunks in flight finish, which can take a while, and a DELETE
answers at once).
"""

import importlib.metadata

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from sim.app.service.config import ID_PATTERN, TABLES
from sim.app.service.limits import LimitError, check_games
from sim.app.service.preflight import check_study
from sim.app.service.registry import STATES
from sim.app.service.removal import remove, set_aside
from sim.app.service.security import Reader, Submitter, check_token, is_open, may_change
from sim.app.service.specs import SPEC_FILE, SpecError, check_spec
from sim.app.service.submit import Job, submit_job
from sim.app.service.summary import WEAK_PLAYERS, spec_summary
from sim.app.service.views import API, public_view
from sim.spec import spec_schema
from sim.strength import load_ladder, top_player

router = APIRouter(prefix=API, dependencies=[Depends(check_token)])


def _base_ladder() -> dict | None:
    """The checked-in base-deck ladder, or None when it is missing or unreadable (the page
    then shows no ratings)."""
    try:
        return load_ladder()
    except ValueError:
        return None


def example_spec(player: str) -> str:
    """The page's example spec, played by ``player``: the page's own default player is the
    strongest on the ladder (sim.strength), whose games are decided by play (random players
    are one choice away, for speed work: their games end by deck exhaustion)."""
    return f"""\
name = "first look"
decks = ["imperial", "highland"]
modes = ["high-form"]
policies = "{player}"
games = 200
seed = 1
"""


def spec_body() -> dict:
    """What /docs shows a spec body to be: the spec's own rules as JSON Schema (sim.spec). A
    fresh copy per route: FastAPI rewrites the one it is given."""
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": spec_schema()},
                "application/toml": {
                    "schema": {"type": "string", "description": "the same keys, as a TOML file"},
                    "example": example_spec(top_player((_base_ladder(), None))),
                },
            },
        }
    }


def _spec_defaults(content) -> dict:
    """What the spec parser uses for the keys a spec may leave out (read from the parser
    itself, so the page cannot drift from it)."""
    from sim.study import study_from_dict

    decks = list(content.decks)[:2]
    study = study_from_dict({"decks": decks, "games": 1}, content)
    return {
        "name": study.name,
        "modes": list(study.modes),
        "policies": [list(p) for p in study.policies],
        "seed": study.seed,
    }


def get_row(request: Request, sid: str):
    """The registry row of ``sid``; 404 for anything that is not an id the service made."""
    if not ID_PATTERN.match(sid):
        raise HTTPException(404, f"no study {sid!r}")
    row = request.app.state.registry.get(sid)
    if row is None:
        raise HTTPException(404, f"no study {sid!r}")
    return row


# The reads below are async and answer with JSONResponse: a registry lookup and a cached
# directory scan take microseconds, and status reads are what many clients poll.


@router.get("/info", summary="What this service runs on, its limits, and who you are")
async def info(request: Request, who: Reader):
    s = request.app.state
    try:
        version = importlib.metadata.version("kalarite")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return JSONResponse(
        {
            "version": version,
            "api": "v1",
            "ray": s.executor.ray.to_dict(),
            "max_running": s.config.max_running,
            "max_body_bytes": s.config.max_body,
            "auth_required": not is_open(request.app),
            "you": {"name": who.name, "role": who.role},
            "limits": s.config.limits(),
            "studies": {st: s.registry.count(st) for st in STATES},
        }
    )


def _players(rows) -> list:
    """Every player and profile (sim.app.players_view, from the player registry): its
    parameters, its settings with their defaults and ranges (a profile's defaults are its
    own), its search budget, what it does and its ladder rating."""
    from sim.player_kinds import BY_NAME, DEFAULT_WEIGHTS

    out = []
    for r in rows:
        kind = BY_NAME[r["player"]]
        params = (list(DEFAULT_WEIGHTS) if kind.weights else []) + kind.keys()
        p = {"name": r["name"], "parameters": params, "description": r["description"]}
        if r["kind"] == "profile":
            p["profile_of"] = kind.name
        p["settings"] = {s.key: _setting(s, r["parameters"][s.key]) for s in kind.settings}
        p["budget"] = kind.budget
        p["rating"] = None if r["rating"] is None else round(r["rating"])
        out.append(p)
    return out


def _setting(setting, default) -> dict:
    """One setting as /options lists it: its default, its range or its choices, its meaning."""
    if setting.named:
        return {"default": default, "choices": list(setting.choices), "about": setting.about}
    return {"default": default, "min": setting.lo, "max": setting.hi, "about": setting.about}


@router.get("/options", summary="Decks, modes, players and spec keys a study may use")
def options():
    from core import constants as K
    from sim.app.players_view import player_rows
    from sim.app.service.specs import _default_content
    from sim.spec import SPEC

    content = _default_content()
    ladder = _base_ladder()
    page_player = top_player((ladder, None))
    return {
        "decks": list(content.decks),
        "modes": [
            {"name": m, "seats": list(s)} for m, s in zip(K.MODE_NAMES, K.MODE_SEATS, strict=True)
        ],
        "players": _players(player_rows(ladder)),
        "spec_keys": list(SPEC.keys()),
        "spec_defaults": _spec_defaults(content),
        "page_player": page_player,
        "weak_players": list(WEAK_PLAYERS),
        "example": example_spec(page_player),
        "tables": list(TABLES),
    }


@router.post(
    "/specs/check",
    summary="Check a spec without submitting it",
    description="The same body and checks as `POST /studies`, but nothing is stored or run: "
    "200 with what the spec would play (`summary`: decks, modes and their matchups, players, "
    "games per matchup and in all) and its normalised form (`spec`), or 400 with the message "
    "a submission would get. The page shows this before it submits.",
    openapi_extra=spec_body(),
)
async def check(request: Request):
    body = await request.body()
    try:
        spec = check_spec(
            body, request.headers.get("content-type"), request.app.state.config.content_root
        )
        check_games(request.app.state.config, spec.study)
        await run_in_threadpool(check_study, request.app.state.config, spec.study)
    except (SpecError, LimitError) as e:
        return JSONResponse({"error": str(e)}, status_code=e.status)
    normalised = spec.study.to_dict()
    return JSONResponse({"summary": spec_summary(normalised), "spec": normalised})


@router.post(
    "/studies",
    status_code=201,
    summary="Submit a study",
    description="The body is a study spec, as for `kalarite study`: TOML "
    "(`Content-Type: application/toml`) or the same keys as JSON (`application/json`). "
    "A bad spec gets 400 with the one-line message the CLI gives; a spec over the service's "
    "limits 400 (games), 429 (the token's studies queued or running; not for admins) or 403 "
    "(the data directory's disk quota), each before anything is written. A study that could "
    "not start is refused the same way, with what to change: 400 when it cannot be split "
    "into chunks (set a larger chunk_size), 403 when its estimated output does not fit in "
    "the free disk space. Needs the submit role; the study is the token's own.",
    openapi_extra=spec_body(),
)
async def submit(request: Request, who: Submitter):
    return await submit_job(request, who, _study_job)


async def _study_job(body: bytes, content_type, s) -> Job:
    """A submitted spec checked as `kalarite study` would, against the games limits and
    what the study would fail on as it starts (sim.app.service.preflight)."""
    spec = check_spec(body, content_type, s.config.content_root)
    check_games(s.config, spec.study)
    await run_in_threadpool(check_study, s.config, spec.study)  # what it would fail on
    study = spec.study
    n = len(study.matchups())
    return Job(SPEC_FILE, spec.toml_text, spec.name, study.to_dict(), study.total_games, n, "study")


@router.get("/studies", summary="List studies (newest first)")
async def list_studies(request: Request, state: str | None = None, limit: int = 200):
    if state is not None and state not in STATES:
        raise HTTPException(400, f"unknown state {state!r} (states: {', '.join(STATES)})")
    if not 1 <= limit <= 1000:
        raise HTTPException(400, "limit must be in 1..1000")
    rows = request.app.state.registry.list(state=state, limit=limit)
    return JSONResponse({"studies": [public_view(request, r) for r in rows]})


@router.get("/studies/{sid}", summary="One study: state, games done / total, games/s, ETA")
async def get_study(request: Request, sid: str):
    return JSONResponse(public_view(request, get_row(request, sid)))


@router.post(
    "/studies/{sid}/cancel",
    status_code=202,
    summary="Cancel a queued or running study (its owner or an admin)",
)
def cancel(request: Request, sid: str, who: Submitter):
    row = get_row(request, sid)
    may_change(who, row, "cancel")
    s = request.app.state
    if s.registry.cancel(sid) is None:
        raise HTTPException(
            409, f"study {sid} is {row.state}: only a queued or running study can be cancelled"
        )
    s.executor.wake()
    return public_view(request, s.registry.get(sid))


@router.post(
    "/studies/{sid}/resume",
    status_code=202,
    summary="Resume a failed or cancelled study (its owner or an admin)",
)
def resume(request: Request, sid: str, who: Submitter):
    row = get_row(request, sid)
    may_change(who, row, "resume")
    s = request.app.state
    if not s.registry.resume(sid):
        raise HTTPException(
            409, f"study {sid} is {row.state}: only a failed or cancelled study can be resumed"
        )
    s.executor.wake()
    return public_view(request, s.registry.get(sid))


@router.get("/studies/{sid}/spec", summary="The spec as the study reads it (TOML)")
def spec(request: Request, sid: str):
    get_row(request, sid)
    config = request.app.state.config
    text = (config.study_dir(sid) / SPEC_FILE).read_text(encoding="utf-8")
    return Response(config.public(text), media_type="application/toml")


@router.delete(
    "/studies/{sid}",
    summary="Delete a study that is not running: its dataset, report, downloads and row "
    "(its owner or an admin; 409 while it runs: cancel it first)",
)
async def delete(request: Request, sid: str, who: Submitter):
    row = get_row(request, sid)
    may_change(who, row, "delete")
    s = request.app.state
    state = s.registry.delete(sid)
    if state is None:
        raise HTTPException(404, f"no study {sid!r}")
    if state == "running":
        raise HTTPException(
            409, f"study {sid} is running: cancel it first, then delete it once it has stopped"
        )
    gone = set_aside(s.config, sid)  # right after the row, with no await in between
    await run_in_threadpool(remove, gone)
    s.disk.forget()
    return JSONResponse({"deleted": sid, "state": state})
