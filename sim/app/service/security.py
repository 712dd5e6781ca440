"""The bearer token and the request body limit.

- Token: with ``--token`` / ``KALARITE_TOKEN`` set, every API call must send
  ``Authorization: Bearer TOKEN``. A browser cannot add that header to a link it follows (a
  report, a download), so a GET may instead carry the token in the ``kalarite_token`` cookie,
  which the web page sets (SameSite=Strict: other sites cannot make the browser send it); a
  request that changes anything needs the header. Compared in constant time.
- Body limit: a request body over ``max_body`` bytes gets 413 before any handler runs (the
  body is read, up to the limit, by this middleware; a declared Content-Length over the limit
  is refused without reading).
- Other web sites: a service without a token answers only requests addressed to a loopback
  name (``Host: 127.0.0.1``, ``localhost``, ``[::1]``), so a page elsewhere cannot reach it by
  pointing its own domain name at 127.0.0.1 (DNS rebinding); and a request that changes
  something is refused when the browser says it comes from another origin.
"""

import json
import secrets
from urllib.parse import urlsplit

from fastapi import HTTPException, Request

COOKIE = "kalarite_token"
_DRAIN_MAX = 16 * 1024 * 1024  # read (and drop) this much of an oversize body, then answer


async def check_token(request: Request):
    """FastAPI dependency: 401 unless the request carries the service's token. (Async: no
    I/O, so it runs on the event loop instead of costing a thread hop per request.)"""
    token = request.app.state.config.token
    if not token:
        return
    given = None
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        given = value.strip()
    elif request.method in ("GET", "HEAD"):
        given = request.cookies.get(COOKIE)
    if given is None:
        raise HTTPException(
            401, "missing token: send Authorization: Bearer TOKEN", {"WWW-Authenticate": "Bearer"}
        )
    if not secrets.compare_digest(given.encode(), token.encode()):
        raise HTTPException(401, "wrong token", {"WWW-Authenticate": "Bearer"})


class BodyLimit:
    """ASGI middleware: 413 for a request body larger than ``max_body`` bytes."""

    def __init__(self, app, max_body: int):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        declared = None
        for k, v in scope.get("headers", []):
            if k == b"content-length":
                try:
                    declared = int(v)
                except ValueError:
                    return await self._refuse(send, 400, "bad Content-Length")
        if declared is not None and declared > self.max_body:
            return await self._refuse(send, 413, self._too_big())
        chunks, size, more = [], 0, True
        while more:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            body = msg.get("body", b"")
            size += len(body)
            more = msg.get("more_body", False)
            if size > self.max_body:
                while more and size < _DRAIN_MAX:  # let the client finish sending, then answer
                    msg = await receive()
                    size += len(msg.get("body", b""))
                    more = msg.get("more_body", False) and msg["type"] == "http.request"
                return await self._refuse(send, 413, self._too_big())
            chunks.append(body)
        body = b"".join(chunks)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    def _too_big(self) -> str:
        return f"request body too large (the limit is {self.max_body} bytes)"

    @staticmethod
    async def _refuse(send, status: int, message: str):
        data = json.dumps({"error": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(data)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": data})


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def _host_name(host: str) -> str:
    """``name:port`` or ``[v6]:port`` -> the name, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class SameOrigin:
    """ASGI middleware: 400 for a Host header that is not a loopback name when the service
    has no token; 403 for a POST (or other unsafe method) whose Origin is another site."""

    def __init__(self, app, config):
        self.app = app
        self.config = config

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k: v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get(b"host", "")
        if not self.config.token:
            allowed = set(LOOPBACK_NAMES) | {_host_name(self.config.host)}
            if _host_name(host) not in allowed:
                return await BodyLimit._refuse(
                    send, 400, f"unknown host {host!r}: this service answers on loopback only"
                )
        origin = headers.get(b"origin")
        if scope["method"] not in ("GET", "HEAD", "OPTIONS") and origin is not None:
            if urlsplit(origin).netloc.lower() != host.lower():  # "null" (opaque) too
                return await BodyLimit._refuse(send, 403, f"cross-site request from {origin}")
        return await self.app(scope, receive, send)
