"""``/api/v1``: progress as server-sent events (``text/event-stream``), so clients and the
web page are told of changes instead of polling.

- ``GET /studies/{id}/events``: an ``event: study`` with the study's view (what
  ``GET /studies/{id}`` answers) whenever it changes; when the study has ended (finished,
  failed or cancelled) one last ``event: end`` and the stream closes; ``event: deleted``
  (then closed) when it is deleted meanwhile.
- ``GET /events``: an ``event: studies`` with the list (what ``GET /studies`` answers)
  whenever anything in it changes; it stays open (the page keeps one).

The service looks every half second (progress comes from the dataset on disk, cached, so
many streams cost one directory scan per study); a comment line every 15 s keeps idle
connections alive through proxies. Streams close when the service shuts down, and after an
hour (an EventSource reconnects by itself, after the ``retry`` the stream names). A browser
sends the token cookie with an EventSource request, so the page needs no header for these.
"""

import asyncio
import json
import time

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import StreamingResponse

from sim.app.service.routes_api import get_row
from sim.app.service.security import check_token, identify
from sim.app.service.views import API, public_view

router = APIRouter(prefix=API, dependencies=[Depends(check_token)])

ENDED = ("finished", "failed", "cancelled")
EVERY_S = 0.5
HEARTBEAT_S = 15.0
MAX_STREAM_S = 3600.0
RETRY_MS = 2000
LIST_LIMIT = 200  # what GET /studies lists by default
_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def _response(request: Request, step) -> StreamingResponse:
    return StreamingResponse(
        _stream(request, step), media_type="text/event-stream", headers=_HEADERS
    )


def sse(event: str, data) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def _closing(request: Request) -> bool:
    return request.app.state.closing.is_set()


async def _stream(request: Request, step):
    """Yield what ``step()`` gives ((bytes or None, done)) every EVERY_S, plus heartbeats."""
    yield f"retry: {RETRY_MS}\n\n".encode()
    started = last_sent = time.monotonic()
    while True:
        try:
            identify(request)  # a token revoked meanwhile ends the stream
        except HTTPException:
            return
        data, done = step()
        now = time.monotonic()
        if data:
            yield data
            last_sent = now
        elif now - last_sent >= HEARTBEAT_S:
            yield b": keep-alive\n\n"
            last_sent = now
        if done or _closing(request) or now - started >= MAX_STREAM_S:
            return
        await asyncio.sleep(EVERY_S)


@router.get(
    "/studies/{sid}/events",
    summary="One study's progress as server-sent events; the stream ends when the study ends",
)
async def study_events(request: Request, sid: str):
    get_row(request, sid)
    registry = request.app.state.registry
    last = [None]

    def step():
        row = registry.get(sid)
        if row is None:
            return sse("deleted", {"id": sid}), True
        view = public_view(request, row)
        text = json.dumps(view, sort_keys=True)
        out = b""
        if text != last[0]:
            last[0] = text
            out = sse("study", view)
        if row.state in ENDED:
            return out + sse("end", {"id": sid, "state": row.state}), True
        return out or None, False

    return _response(request, step)


@router.get("/events", summary="The list of studies as server-sent events, whenever it changes")
async def list_events(request: Request):
    registry = request.app.state.registry
    last = [None]

    def step():
        views = [public_view(request, r) for r in registry.list(limit=LIST_LIMIT)]
        text = json.dumps(views, sort_keys=True)
        if text == last[0]:
            return None, False
        last[0] = text
        return sse("studies", {"studies": views}), False

    return _response(request, step)
