"""Who a request is (its token and role), the request body limit, and other web sites.

- Tokens (sim.app.service.tokens): every API call sends ``Authorization: Bearer TOKEN``. A
  browser cannot add that header to a link it follows (a report, a download, the page's
  event stream), so a GET may instead carry the token in the ``kalarite_token`` cookie, which
  the web page sets (SameSite=Strict: other sites cannot make the browser send it); a request
  that changes anything needs the header. Three ways a service can be set up:

  * users' tokens (``kalarite serve tokens add NAME --role ROLE``, kept hashed in the
    registry): each request is its token's name and role; the studies it submits are its own.
    Added and revoked tokens count from the next request, without a restart;
  * one shared token (``--token`` / ``KALARITE_TOKEN``, as before users' tokens): it is an
    admin token named ``shared-token``, alongside any users' tokens, so an existing setup
    keeps working unchanged;
  * neither, on loopback: open as before, every request is the admin ``local``; such a
    service answers only requests addressed to a loopback name (below). Adding a first user's
    token closes it: from then on every API call needs a token.

  Binding to anything but loopback needs a shared token or at least one user's token.
- Roles: ``read`` may only read; ``submit`` may also submit, and cancel, resume and delete
  its own studies; ``admin`` may do anything. A token without the role gets 403.
- Body limit: a request body over ``max_body`` bytes gets 413 before any handler runs (the
  body is read, up to the limit, by this middleware; a declared Content-Length over the limit
  is refused without reading).
- Other web sites: an open service (no token of any kind) answers only requests addressed to
  a loopback name (``Host: 127.0.0.1``, ``localhost``, ``[::1]``), so a page elsewhere cannot
  reach it by pointing its own domain name at 127.0.0.1 (DNS rebinding); and a request that
  changes something is refused when the browser says it comes from another origin.
"""

import json
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request

from sim.app.service.tokens import LOCAL, SHARED, Principal, hash_token, match

COOKIE = "kalarite_token"
_DRAIN_MAX = 16 * 1024 * 1024  # read (and drop) this much of an oversize body, then answer


def _given(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    if request.method in ("GET", "HEAD"):
        return request.cookies.get(COOKIE)
    return None


def is_open(app) -> bool:
    """No shared token and no user's token: the loopback-only service anyone there may use."""
    registry = getattr(app.state, "registry", None)
    return not app.state.config.token and not (registry and registry.tokens())


def identify(request: Request) -> Principal:
    """The principal of ``request``; 401 without a token the service knows. (Called on the
    event loop: a registry read of the few token rows, no other I/O.)"""
    config = request.app.state.config
    stored = [(n, r, h) for n, r, h, _ in request.app.state.registry.tokens()]
    if not config.token and not stored:
        return Principal(LOCAL, "admin")
    given = _given(request)
    if given is None:
        raise HTTPException(
            401, "missing token: send Authorization: Bearer TOKEN", {"WWW-Authenticate": "Bearer"}
        )
    if config.token:
        stored.append((SHARED, "admin", hash_token(config.token)))
    found = match(given, stored)
    if found is None:
        raise HTTPException(401, "wrong token", {"WWW-Authenticate": "Bearer"})
    return found


def need(role: str):
    """FastAPI dependency: the request's principal, 403 unless its role includes ``role``."""

    async def dependency(request: Request) -> Principal:
        who = identify(request)
        if not who.can(role):
            raise HTTPException(
                403, f"token {who.name!r} has the {who.role} role; this needs {role}"
            )
        request.state.principal = who
        return who

    return dependency


check_token = need("read")  # every API call needs at least this
Reader = Annotated[Principal, Depends(check_token)]
Submitter = Annotated[Principal, Depends(need("submit"))]


def may_change(who: Principal, row, what: str):
    """403 unless ``who`` may ``what`` (cancel, resume, delete) the study ``row``: its owner
    with the submit role, or an admin."""
    if who.role == "admin" or (who.can("submit") and row.owner == who.name):
        return
    if not who.can("submit"):
        raise HTTPException(403, f"token {who.name!r} has the read role; it may not {what}")
    owner = f"{row.owner!r}" if row.owner else "nobody (it predates tokens)"
    raise HTTPException(
        403, f"study {row.id} belongs to {owner}: only its owner or an admin may {what} it"
    )


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
    is open (no token of any kind); 403 for a POST (or other unsafe method) whose Origin is
    another site."""

    def __init__(self, app, config):
        self.app = app
        self.config = config

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k: v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get(b"host", "")
        if is_open(scope["app"]):
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
