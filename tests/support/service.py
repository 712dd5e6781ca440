"""Helpers for the service tests: a `kalarite serve` process on 127.0.0.1, waiting with a
deadline, and the system's headless Chromium driven by Playwright. The tests' one HTTP
client is httpx2, the one FastAPI's test client (starlette.testclient) runs on."""

import contextlib
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import time

import httpx2

ROOT = pathlib.Path(__file__).resolve().parents[2]


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
                return httpx2.get(self.url + "/healthz", timeout=5).status_code == 200
            except httpx2.HTTPError:
                return False

        if wait_for(up, timeout, "the service to answer /healthz") is True:
            return True
        text = self.log.read_bytes()[offset:].decode(errors="replace")
        if f"cannot listen on 127.0.0.1:{self.port}" in text:
            return False
        raise AssertionError(f"kalarite serve exited: {text[-2000:]}")

    def client(self, **kw) -> httpx2.Client:
        return httpx2.Client(base_url=self.url + "/api/v1", timeout=120, **kw)

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


def wait_state(client: httpx2.Client, sid: str, states, timeout: float) -> dict:
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


# --- headless Chromium, driven by Playwright ----------------------------------------------------

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_path() -> str | None:
    """The system's Chromium (Debian: apt-get install chromium): Playwright drives it, and
    never downloads a browser of its own."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def browser_or_skip():
    """Skip a test where no Chromium is installed, with the reason; under CI (``CI=true``,
    where .ci/run installs it) a missing browser fails instead, so the browser tests cannot
    quietly stop running."""
    import pytest

    if chromium_path() is None:
        message = "Chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + ": CI must run the browser tests")
        pytest.skip(message + ": the browser tests skip")


@contextlib.contextmanager
def open_browser(width: int = 1280, height: int = 1000):
    """A headless Chromium page for a module's browser tests (skipped, or failed under CI,
    where none is installed: ``browser_or_skip``), closed afterwards."""
    browser_or_skip()
    b = Browser(width, height)
    try:
        yield b
    finally:
        b.close()


class Browser:
    """Headless system Chromium with one page, through Playwright (``playwright`` is a dev
    dependency; its own browser downloads are never used)."""

    def __init__(self, width: int = 1280, height: int = 900):
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        try:
            self._browser = self._playwright.chromium.launch(
                executable_path=chromium_path(),
                headless=True,
                # tests may run as root (CI containers); /dev/shm may be small there
                args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
            )
            self.page = self._browser.new_page(viewport={"width": width, "height": height})
        except BaseException:
            self._playwright.stop()
            raise

    def eval(self, expression: str):
        """The value of a JavaScript expression in the page (a promise is awaited). A page
        that is navigating (a click that opens another page) is waited for, then asked."""
        from playwright.sync_api import Error

        for _ in range(20):
            try:
                return self.page.evaluate(expression)
            except Error as e:
                if "context was destroyed" not in str(e) and "navigat" not in str(e):
                    raise
                self.page.wait_for_load_state("load")
        return self.page.evaluate(expression)

    def goto(self, url: str, timeout: float = 180.0):
        self.page.goto(url, timeout=timeout * 1000, wait_until="load")

    def insert_text(self, text: str):
        """Text typed into the focused field (the input events of typing)."""
        self.page.keyboard.insert_text(text)

    def resize(self, width: int, height: int):
        self.page.set_viewport_size({"width": width, "height": height})

    def screenshot(self, path, full: bool = False):
        self.page.screenshot(path=str(path), full_page=full)

    def close(self):
        try:
            self._browser.close()
        finally:
            self._playwright.stop()


# --- text contrast (WCAG 2 AA), measured in the page -------------------------------------------

# Every visible text (an element's own text, a form field's value) against its effective
# background: the element's and its ancestors' background colours composited from the first
# opaque one up (the canvas white below all), the text's colour and every ancestor's opacity
# over that. AA: 4.5:1, 3:1 for large text (24 px, or 18.66 px bold). Text on a background
# image is listed apart (no colour to compute); disabled controls are exempt (WCAG 1.4.3).
CONTRAST = """() => {
  const rgba = (c) => {
    const m = /rgba?\\(([^)]*)\\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(parseFloat);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, below) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage && s.backgroundImage !== 'none') return null;
      const c = rgba(s.backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    return layers.reverse().reduce((below, c) => over(c, below), [255, 255, 255, 1]);
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity);
    return o;
  };
  const visible = (el) => {
    if (!el.getClientRects().length) return false;
    const s = getComputedStyle(el);
    return s.visibility === 'visible' && s.display !== 'none' && opacity(el) > 0;
  };
  const fields = 'input:not([type=checkbox]):not([type=radio]):not([type=hidden])'
    + ':not([type=range]):not([type=color]), textarea, select';
  const out = {checked: 0, failures: [], on_images: []};
  for (const el of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION'].includes(el.tagName)) continue;
    const own = el.matches(fields) ? (el.value || '')
      : [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('');
    if (!own.trim() || !visible(el)) continue;
    if (el.matches(':disabled') || el.closest('fieldset:disabled')) continue;
    const s = getComputedStyle(el);
    const bg = background(el);
    const cls = typeof el.className === 'string' ? el.className.trim() : '';
    const what = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
      + (cls ? '.' + cls.split(/\\s+/).join('.') : '');
    const text = own.trim().replace(/\\s+/g, ' ').slice(0, 60);
    if (!bg) { out.on_images.push({what, text}); continue; }
    const fg = rgba(s.color);
    fg[3] *= opacity(el);
    const px = parseFloat(s.fontSize);
    const large = px >= 24 || (px >= 18.66 && parseInt(s.fontWeight, 10) >= 700);
    const need = large ? 3 : 4.5;
    const r = ratio(over(fg, bg), bg);
    out.checked += 1;
    if (r < need) {
      const under = 'rgb(' + bg.slice(0, 3).map(Math.round) + ')';
      out.failures.push({what, text, ratio: Math.round(r * 100) / 100, need,
                         color: s.color, background: under});
    }
  }
  return out;
}"""


def low_contrast(b: Browser) -> dict:
    """The page's text contrast: ``checked`` (texts measured), ``failures`` (each below AA:
    the element, its text, its ratio and what it needs) and ``on_images`` (text on a
    background image, not measured)."""
    return b.eval(CONTRAST)


@contextlib.contextmanager
def inprocess_service(data, token: str):
    """The service's app in this process (FastAPI's test client, no server) with one admin
    token sent on every request, and a Ray address nobody listens at: for tests of what the
    routes answer, not of studies that run."""
    from fastapi.testclient import TestClient

    from sim.app.service.app import create_app
    from sim.app.service.config import ServiceConfig

    config = ServiceConfig(data=data, token=token, address="127.0.0.1:9", poll_s=0.1)
    with TestClient(
        create_app(config),
        headers={"authorization": f"Bearer {token}"},
        raise_server_exceptions=False,
    ) as client:
        yield client


GOAL = {
    "goal": {"deck": "everfrost", "band": [0.45, 0.55], "opponents": ["imperial"],
             "modes": ["high-form"]},
    "players": {"screen": "greedy", "confirm": ["greedy", "random"]},
    "edits": {"cards": ["everfrost/war-sled", "everfrost/snow-fox"], "max_candidates": 4},
    "budget": {"games": 2000, "first_round": 6, "rounds": 2, "confirm_games": 8,
               "check_games": 2},
}  # fmt: skip
