"""The ASGI application: ``create_app(config)``.

Its lifespan takes the data directory's lock (one service per ``--data``), opens the
registry, removes what deletions cut short left behind, and starts the executor; on
shutdown the event streams end, the executor stops its children (running studies go back
to the queue) and the lock is released.
"""

import fcntl
import importlib.metadata
import os
import threading
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from sim.app.service import (
    routes_api,
    routes_docs,
    routes_events,
    routes_files,
    routes_pages,
    suggestions,
)
from sim.app.service.config import ConfigError, ServiceConfig
from sim.app.service.executor import Executor
from sim.app.service.limits import DiskUsage
from sim.app.service.progress import ProgressCache
from sim.app.service.registry import Registry
from sim.app.service.removal import sweep
from sim.app.service.security import BodyLimit, SameOrigin


class DataLock:
    """An exclusive ``flock`` on ``DATA/service.lock``: a second service on the same data
    directory is refused; the kernel drops the lock when the process dies, even by kill -9."""

    def __init__(self, config: ServiceConfig):
        self.path = config.data / "service.lock"
        self._fd = None

    def acquire(self) -> "DataLock":
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise ConfigError(
                f"another kalarite serve is using --data {str(self.path.parent)!r}"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return self

    def release(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _version() -> str:
    try:
        return importlib.metadata.version("kalarite")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def create_app(config: ServiceConfig, lock: DataLock | None = None) -> FastAPI:
    """The service for ``config``; ``lock`` when the caller already holds the data lock."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        config.prepare()
        held = lock or DataLock(config).acquire()
        registry = Registry(config.registry_path)
        sweep(config, registry)
        executor = Executor(config, registry)
        app.state.registry = registry
        app.state.executor = executor
        app.state.closing.clear()
        executor.start()
        try:
            yield
        finally:
            app.state.closing.set()  # event streams end
            await run_in_threadpool(executor.stop)
            registry.close()
            held.release()

    app = FastAPI(
        title="kalarite",
        version=_version(),
        summary="Tash-Kalar studies as a service: submit a study spec, watch it run on Ray, "
        "read its report and tables.",
        lifespan=lifespan,
        docs_url=None,  # served by routes_docs, from installed files instead of a CDN
        redoc_url=None,
    )
    app.state.config = config
    app.state.progress = ProgressCache()
    app.state.compare_locks = {}
    app.state.disk = DiskUsage(config.data)
    app.state.closing = threading.Event()  # set when the service begins to shut down
    app.add_middleware(BodyLimit, max_body=config.max_body)
    app.add_middleware(SameOrigin, config=config)  # added last: runs first

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        return JSONResponse({"error": exc.detail}, exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return JSONResponse({"error": f"{where}: {first.get('msg', 'bad request')}"}, 400)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception):
        # never reached by bad input (that is a 4xx); still JSON, never a page of text, and
        # without the exception's words (they may name the server's files): its log has them
        return JSONResponse({"error": "internal error (the service's log has the details)"}, 500)

    @app.get("/healthz", summary="Liveness: 200 while the service answers")
    def healthz():
        return {"status": "ok"}

    app.include_router(routes_api.router)
    app.include_router(routes_events.router)
    app.include_router(routes_files.router)
    app.include_router(routes_pages.router)
    app.include_router(suggestions.router)
    routes_pages.mount_static(app)
    routes_docs.mount_docs(app)
    return app
