"""``kalarite serve``: check the options, take the data directory's lock, and run the app on
uvicorn until SIGINT or SIGTERM (which stop the running studies cleanly; they resume on the
next start)."""

import socket

import uvicorn

from sim.app.service.app import DataLock, create_app
from sim.app.service.config import ConfigError, ServiceConfig


class _Server(uvicorn.Server):
    """Says where it listens once the socket is bound (the port may have been 0)."""

    def __init__(self, config, service: ServiceConfig, app):
        super().__init__(config)
        self.service = service
        self.app = app

    def handle_exit(self, sig, frame):
        # uvicorn waits for open connections before the app's shutdown: end the event
        # streams first, or an open page would hold the shutdown for its whole grace time
        self.app.state.closing.set()
        super().handle_exit(sig, frame)

    async def startup(self, sockets=None):
        await super().startup(sockets=sockets)
        if self.should_exit:
            return
        host, port = self.servers[0].sockets[0].getsockname()[:2]
        self.service.port = port
        if self.service.workers == 0:
            where = "no Ray"
        elif self.service.address:
            where = f"Ray cluster at {self.service.address}"
        else:
            where = "a local Ray"
        if self.service.token or self.service.has_user_tokens():
            auth = "token required"
        else:
            auth = "no token (loopback only)"
        print(
            f"kalarite serve: http://{host}:{port}/ (data {self.service.data}, {where}, {auth})",
            flush=True,
        )


def _check_listen(host: str, port: int):
    """One clear line when the address is taken or not ours (uvicorn would log and exit)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise ConfigError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            raise ConfigError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def serve(service: ServiceConfig) -> int:
    _check_listen(service.host, service.port)
    service.prepare()
    lock = DataLock(service).acquire()
    try:
        app = create_app(service, lock=lock)
        config = uvicorn.Config(
            app,
            host=service.host,
            port=service.port,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=120,
        )
        server = _Server(config, service, app)
        server.run()
        return 0 if server.started else 2
    finally:
        lock.release()
