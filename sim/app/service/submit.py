"""The one way a job enters the service, whatever its kind (a study: routes_api ``POST
/studies``; a suggestion: suggestions ``POST /suggestions``): its kind's checks, then the
service's admission (sim.app.service.limits: the disk quota, the token's jobs queued or
running), and only then its directory, its file and its registry row; the queue is woken and
the answer is the job's view (201, with its ``Location``).

A bad body or a job over the limits gets its status with ``{"error": one line}`` before
anything is written; a directory or file that cannot be written, 507 and nothing left
behind.
"""

import shutil
from dataclasses import dataclass

from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from sim.app.service.limits import LimitError, check_active, check_disk
from sim.app.service.registry import new_id
from sim.app.service.specs import SpecError
from sim.app.service.views import public_view


@dataclass
class Job:
    """A checked submission: what its child reads (``text`` in the job's directory as
    ``file``) and its registry row (``name``, ``spec``, ``games``, ``matchups``)."""

    file: str
    text: str
    name: str
    spec: dict
    games: int
    matchups: int
    what: str  # in the 507's words: "study", "goal"


async def submit_job(request, who, check) -> JSONResponse:
    """Admit and store one job (see the module). ``check(body, content_type, state)``: the
    kind's own checks, awaited; returns the ``Job`` or raises SpecError / LimitError."""
    body = await request.body()
    s = request.app.state
    try:
        job = await check(body, request.headers.get("content-type"), s)
        check_disk(s.config, await run_in_threadpool(s.disk.get))
        # from here to the registry row nothing awaits: two submissions of one token cannot
        # both pass the count
        if who.role != "admin":  # admins (the open loopback service's "local" too) queue freely
            check_active(s.config, s.registry, who.name)
    except (SpecError, LimitError) as e:
        return JSONResponse({"error": str(e)}, status_code=e.status)
    sid = new_id()
    d = s.config.study_dir(sid)
    try:
        d.mkdir(parents=True)
        (d / job.file).write_text(job.text, encoding="utf-8")
        s.registry.add(sid, job.name, job.spec, job.games, job.matchups, who.name)
    except OSError as e:
        shutil.rmtree(d, ignore_errors=True)
        return JSONResponse({"error": f"cannot store the {job.what}: {e.strerror or e}"}, 507)
    s.executor.wake()
    view = public_view(request, s.registry.get(sid))
    return JSONResponse(view, status_code=201, headers={"Location": view["links"]["self"]})
