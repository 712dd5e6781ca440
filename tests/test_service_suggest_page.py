"""A finished suggestion through the service page, in headless Chromium: its row says the
games it played (its budget apart), and every link the row offers (report, summary.json,
tables, log) answers what it names, fetched by the page as a click would. And the text of
every page the service shows (the studies page, a study's report, a suggestion's page, the
compare view, the API's docs) meets WCAG AA contrast (tests/support/service.py measures it
in the page).

The service plays without Ray (``--workers 0``: each study in its own child process). The
system's Chromium, driven by Playwright; skipped, with the reason, where it is missing (CI
installs it, and fails without it)."""

import httpx2
import pytest

from tests.support.service import (
    GOAL,
    Browser,
    LiveService,
    low_contrast,
    open_browser,
    wait_for,
    wait_state,
)

STUDY = {"name": "small", "decks": [["imperial", "highland"]], "modes": ["high-form"],
         "policies": "random", "games": 40, "seed": 5}  # fmt: skip


@pytest.fixture(scope="module")
def browser():
    with open_browser() as b:
        yield b


@pytest.fixture(scope="module")
def service(tmp_path_factory, browser):
    """A suggestion and a study run to their end, a third study cancelled while queued."""
    data = tmp_path_factory.mktemp("suggest-page") / "data"
    svc = LiveService(data, "--workers", "0").start()
    try:
        with svc.client() as c:
            ids = {"suggestion": c.post("/suggestions", json=GOAL).json()["id"]}
            ids["study"] = c.post("/studies", json=STUDY).json()["id"]
            ids["cancelled"] = c.post("/studies", json={**STUDY, "seed": 6}).json()["id"]
            assert c.post(f"/studies/{ids['cancelled']}/cancel").status_code == 202
            for key in ("suggestion", "study"):
                s = wait_state(c, ids[key], ("finished", "failed"), 900)
                assert s["state"] == "finished", c.get(f"/studies/{ids[key]}/log").text[-2000:]
            wait_state(c, ids["cancelled"], "cancelled", 120)
        svc.ids = ids
        yield svc
    finally:
        svc.stop()


def js(b: Browser, expression: str):
    return b.eval(f"(() => {{ {expression} }})()")


def open_page(b: Browser, svc: LiveService):
    """The studies page, once it lists every study and its preview is settled."""
    b.goto(svc.url + "/")
    n = len(svc.ids)
    wait_for(
        lambda: js(b, f"return document.querySelectorAll('#studies tbody tr').length >= {n}"),
        30,
        "the studies to be listed",
    )
    # the preview fades while the service reads the spec (0.15 s back): measured once shown
    shown = "const p = document.getElementById('preview');"
    shown += "return !p.classList.contains('pending') && getComputedStyle(p).opacity === '1'"
    wait_for(lambda: js(b, shown), 30, "the preview")


def test_a_finished_suggestion_on_the_page(service, browser):
    sid = service.ids["suggestion"]
    with service.client() as c:
        view = c.get(f"/studies/{sid}").json()
    played = view["games_done"]
    assert 0 < played < view["games_budget"] == 2000 and view["games_total"] == played
    open_page(browser, service)
    row = f"document.getElementById('study-{sid}')"
    assert js(browser, f"return {row}.dataset.state") == "finished"
    games = js(browser, f"return {row}.querySelector('td.games').textContent").strip()
    assert games == f"{played:,} played (budget 2,000)"
    assert js(browser, f"return {row}.querySelector('input.pick').disabled")  # no compare
    links = js(
        browser,
        f"return [...{row}.querySelectorAll('td.links a')].map((a) => [a.textContent, a.href]);",
    )
    assert [t for t, _ in links] == [
        "report", "summary.json", "games", "card_events", "task_claims", "log"
    ]  # fmt: skip
    for text, href in links:  # each fetched by the page, as a click would
        got = js(
            browser,
            f"return fetch({href!r}).then(async (r) => [r.status, r.headers.get('content-type'),"
            " (await r.arrayBuffer()).byteLength]);",
        )
        assert got[0] == 200 and got[2] > 0, (text, got)
        if text in ("games", "card_events", "task_claims"):
            assert got[1] == "application/vnd.apache.parquet", (text, got)
    summary = js(browser, f"return fetch({links[1][1]!r}).then((r) => r.json());")
    assert summary["kalarite_suggest"] == 1 and summary["games"] == played
    browser.goto(links[0][1])
    assert "kalarite suggest" in js(browser, "return document.title")


def test_every_service_page_meets_the_contrast_minimum(service, browser):
    """WCAG AA (4.5:1, 3:1 for large text) for every visible text against its effective
    background, on every page the service shows."""
    api = service.url + "/api/v1"
    pages = {
        "studies page": None,
        "a study's report": f"{api}/studies/{service.ids['study']}/report",
        "a suggestion's page": f"{api}/studies/{service.ids['suggestion']}/report",
        "the compare view": service.url + "/static/compare.html",
    }
    # the API's documentation, drawn by its bundles once they have read the OpenAPI
    drawn = {"/docs": ".opblock", "/redoc": "[data-section-id]"}
    pages |= {f"API docs {p}": service.url + p for p in drawn}
    for name, url in pages.items():
        if url is None:
            open_page(browser, service)
        else:
            browser.goto(url)
        for path, selector in drawn.items():
            count = f"return document.querySelectorAll('{selector}').length"
            if url and url.endswith(path):
                wait_for(lambda c=count: js(browser, c) >= 10, 60, f"{path} to be drawn")
        r = low_contrast(browser)
        assert r["checked"] >= 3, (name, r)  # the compare view: its header and status
        assert not r["failures"], (name, r["failures"][:10])
        # ReDoc draws its schema tree's lines as background images behind the property
        # names (dark text on white beside the line): there, the only text not measured
        if not name.endswith("redoc"):
            assert not r["on_images"], (name, r["on_images"][:10])
    with httpx2.Client(base_url=api) as c:  # the page above showed every state's badge
        states = {s["state"] for s in c.get("/studies").json()["studies"]}
    assert states == {"finished", "cancelled"}
