"""Suggestions as a job kind of the service: ``POST /api/v1/suggestions`` takes a goal
(docs/suggest.md: TOML or the same tables as JSON), checks it as `kalarite suggest` would,
and queues it like a study. Its child runs ``kalarite suggest goal.toml --out REPORT_DIR``
(resumable like a study); it is finished when ``suggest.json`` is written, and its page is
the study's report (``/studies/{id}/report``); every other study route (status, log, cancel,
resume, delete) works the same. The registry keeps the goal as the row's spec
(``{"kind": "suggest", "goal": ...}``).
"""

from fastapi import APIRouter, Depends, Request
from starlette.concurrency import run_in_threadpool

from sim.app.service.limits import check_budget
from sim.app.service.preflight import check_suggestion
from sim.app.service.security import Submitter, check_token
from sim.app.service.specs import (
    WHERE,
    SpecError,
    _content_dir,
    _default_content,
    load_variant,
    parse_body,
)
from sim.app.service.submit import Job, submit_job
from sim.app.service.summary import SUGGEST_KIND
from sim.app.service.views import API

GOAL_FILE = "goal.toml"
router = APIRouter(prefix=API, dependencies=[Depends(check_token)])


def check_goal(body: bytes, content_type, content_root):
    """(goal, TOML text for the child) of a submitted goal; raises SpecError (400)."""
    from sim.content import ContentError
    from sim.suggest.goal import GoalError, goal_from_dict
    from sim.suggest.grammar import toml_value

    data, _ = parse_body(body, content_type)
    content = _default_content()
    run = data.get("run")
    if isinstance(run, dict):
        if "competence" in run:
            raise SpecError(f"{WHERE}: run.competence names a directory: not for the service")
        if "content" in run:
            d = _content_dir(run["content"], content_root)
            run["content"] = str(d)
            content = load_variant(d)
    try:
        goal = goal_from_dict(data, content, where=WHERE)
    except (GoalError, ContentError, ValueError) as e:
        raise SpecError(" ".join(str(e).split())) from None
    lines = ["# submitted to kalarite serve"]
    for table, keys in data.items():
        lines.append(f"[{table}]")
        lines += [f"{k} = {toml_value(v)}" for k, v in keys.items()]
    return goal, "\n".join(lines) + "\n"


def spawn_argv(config, sid: str, address) -> list:
    argv = ["suggest", str(config.study_dir(sid) / GOAL_FILE), "--out", str(config.report_dir(sid))]
    if config.workers == 0:
        return argv + ["--workers", "0"]
    argv += ["--address", address]
    return argv + (["--workers", str(config.workers)] if config.workers else [])


def finished(config, sid: str) -> bool:
    return (config.report_dir(sid) / "suggest.json").is_file()


@router.post(
    "/suggestions",
    status_code=201,
    summary="Submit a suggestion (a balance goal for `kalarite suggest`)",
    description="The body is a goal spec (docs/suggest.md), TOML or the same tables as JSON. "
    "It is queued and run like a study (the same status, log, cancel, resume and delete "
    "routes under /studies/{id}); its page is /studies/{id}/report once finished. A bad goal "
    "gets 400 with the one-line message of the CLI; the games budget counts against the "
    "service's per-study limit.",
)
async def submit(request: Request, who: Submitter):
    return await submit_job(request, who, _suggestion_job)


async def _suggestion_job(body: bytes, content_type, s) -> Job:
    """A submitted goal checked as `kalarite suggest` would, its games budget against the
    per-study limit and the room it needs (sim.app.service.preflight)."""
    goal, text = check_goal(body, content_type, s.config.content_root)
    check_budget(s.config, goal.games)
    await run_in_threadpool(check_suggestion, s.config, goal)  # room for its budget
    spec = {"kind": SUGGEST_KIND, "goal": goal.to_dict()}
    return Job(GOAL_FILE, text, f"suggest {goal.deck}", spec, goal.games, len(goal.modes), "goal")
