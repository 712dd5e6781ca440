"""Helpers for the service tests: a `kalarite serve` process on 127.0.0.1, waiting with a
deadline, and a small Chrome DevTools Protocol client to drive headless Chromium."""

import base64
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import time

import httpx

ROOT = pathlib.Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, timeout: float, what: str, every: float = 0.3):
    """Call ``check`` until it returns something truthy; fail with ``what`` after ``timeout``
    seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = check()
        if last:
            return last
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what} (last: {last!r})")


def child_env(**extra) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("RAY_ADDRESS", None)
    env.pop("KALARITE_TOKEN", None)
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    env.update(extra)
    return env


class LiveService:
    """``kalarite serve`` as a real process on 127.0.0.1 (its own session, so it can be killed
    with -9 like a crashed server)."""

    def __init__(self, data, *args, env=None):
        self.data = pathlib.Path(data)
        self.args = list(args)
        self.env = env or child_env()
        self.port = free_port()
        self.proc = None
        self.log = self.data.parent / f"{self.data.name}-serve.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 180.0) -> "LiveService":
        """Start the service and wait for /healthz. The free port was only free when it was
        picked: if another process took it meanwhile, start again on a new one."""
        for _ in range(5):
            if self._start(timeout):
                return self
            self.port = free_port()
        raise AssertionError(f"no free port for kalarite serve: {self.log.read_text()[-2000:]}")

    def _start(self, timeout: float) -> bool:
        argv = [sys.executable, "-m", "sim.app.cli", "serve", "--data", str(self.data)]
        argv += ["--port", str(self.port), *self.args]
        offset = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                argv,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

        def up():
            if self.proc.poll() is not None:
                return "exited"
            try:
                return httpx.get(self.url + "/healthz", timeout=5).status_code == 200
            except httpx.HTTPError:
                return False

        if wait_for(up, timeout, "the service to answer /healthz") is True:
            return True
        text = self.log.read_bytes()[offset:].decode(errors="replace")
        if f"cannot listen on 127.0.0.1:{self.port}" in text:
            return False
        raise AssertionError(f"kalarite serve exited: {text[-2000:]}")

    def client(self, **kw) -> httpx.Client:
        return httpx.Client(base_url=self.url + "/api/v1", timeout=120, **kw)

    def kill9(self):
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(60)

    def stop(self, timeout: float = 120.0) -> int:
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            return self.proc.wait(30)


def wait_state(client: httpx.Client, sid: str, states, timeout: float) -> dict:
    states = (states,) if isinstance(states, str) else tuple(states)

    def check():
        s = client.get(f"/studies/{sid}").json()
        return s if s["state"] in states else None

    return wait_for(check, timeout, f"study {sid} to be {'/'.join(states)}", every=0.5)


def our_processes(marker: str) -> list:
    """Processes whose command line mentions ``marker`` (a data directory)."""
    import psutil

    found = []
    for p in psutil.process_iter():
        try:
            if marker in " ".join(p.cmdline()):
                found.append(p)
        except psutil.Error:
            continue
    return found


# --- headless Chromium over the DevTools protocol -----------------------------------------------


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """Headless Chromium driven through the Chrome DevTools Protocol (one page)."""

    def __init__(self, profile_dir):
        import websocket

        profile = pathlib.Path(profile_dir)
        self.log = open(profile.parent / "chromium.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                chromium_path(),
                "--headless",
                "--no-sandbox",  # tests may run as root
                "--disable-gpu",
                "--no-first-run",
                "--window-size=1280,900",
                f"--user-data-dir={profile_dir}",
                "--remote-debugging-port=0",  # Chromium picks a free port and writes it down
                "--remote-allow-origins=*",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

        def port():
            try:
                first = (profile / "DevToolsActivePort").read_text().splitlines()[0]
            except (OSError, IndexError):
                return None
            return int(first) if first.isdigit() and int(first) > 0 else None

        self.port = wait_for(port, 180, "Chromium's DevToolsActivePort file")
        base = f"http://127.0.0.1:{self.port}"

        def page():
            try:
                pages = httpx.get(base + "/json/list", timeout=5).json()
            except (httpx.HTTPError, ValueError):
                return None
            return next((p for p in pages if p.get("type") == "page"), None)

        target = wait_for(page, 180, "Chromium's DevTools endpoint")
        self.ws = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=180)
        self._id = 0

    def call(self, method: str, **params) -> dict:
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self._id:
                if "error" in msg:
                    raise AssertionError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def eval(self, expression: str):
        r = self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in r:
            raise AssertionError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def goto(self, url: str, timeout: float = 180.0):
        self.call("Page.navigate", url=url)
        wait_for(
            lambda: (
                self.eval("location.href") == url and self.eval("document.readyState") == "complete"
            ),
            timeout,
            f"{url} to load",
        )

    def screenshot(self, path, full: bool = False):
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=full)["data"]
        pathlib.Path(path).write_bytes(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
            self.log.close()
