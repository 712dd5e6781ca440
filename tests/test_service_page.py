"""The service page's new-study box in headless Chromium: the form and the TOML are one state
(either edits the other), the page shows what Submit will send before it sends it, and the
study the service stores is the one the form showed. Also /docs with no internet: every asset
from the service itself.

The service here has no Ray to reach (``--address 127.0.0.1:9``), so its studies fail at once
and cost no game: what is checked is what was submitted and stored. The system's Chromium,
driven by Playwright; skipped, with the reason, where it is missing (CI installs it, and
fails without it).

``python tests/test_service_page.py screenshot DIR`` takes DIR/service-page.png and
DIR/service-submitted.png at 1280 px from a service with a local Ray (one worker), where the
submitted study really runs.
"""

import pathlib
import sys
import tomllib

import httpx2
import pytest

if __name__ == "__main__":  # run as a script (screenshot): the repository root on the path
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from tests.support.service import Browser, LiveService, browser_or_skip, wait_for  # noqa: E402


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    data = tmp_path_factory.mktemp("page") / "data"
    svc = LiveService(data, "--address", "127.0.0.1:9").start()
    try:
        yield svc
    finally:
        svc.stop()


@pytest.fixture(scope="module")
def browser():
    browser_or_skip()
    b = Browser()
    try:
        yield b
    finally:
        b.close()


def js(b: Browser, expression: str):
    return b.eval(f"(() => {{ const $ = (id) => document.getElementById(id); {expression} }})()")


def open_page(b: Browser, url: str):
    b.goto(url + "/")
    wait_for(
        lambda: js(b, "return document.querySelectorAll('#decks input').length >= 3"),
        30,
        "the decks to be listed",
    )
    return settled(b)


def settled(b: Browser) -> str:
    """Wait until the preview shows the service's reading of the current TOML; its text."""
    wait_for(lambda: js(b, "return !$('preview').classList.contains('pending')"), 30, "the preview")
    return js(b, "return $('preview-body').textContent")


def state(b: Browser) -> dict:
    """What the form shows, and the TOML."""
    return js(
        b,
        """
        const ticked = (id) => [...document.querySelectorAll('#' + id + ' input:checked')]
          .map((i) => i.value);
        return { decks: ticked('decks'), modes: ticked('modes'), player: $('player').value,
                 name: $('name').value, games: $('games').value, seed: $('seed').value,
                 toml: $('spec').value,
                 note: $('form-note').hidden ? '' : $('form-note').textContent,
                 disabled: $('builder').querySelector('fieldset').disabled,
                 playerNote: $('player-note').textContent };
        """,
    )


def tick(b: Browser, container: str, value: str):
    """A user's click on a checkbox (the browser fires its input and change events)."""
    js(b, f"$({container!r}).querySelector('input[value=\"{value}\"]').click()")


def choose(b: Browser, select: str, value: str):
    js(
        b,
        f"const s = $({select!r}); s.value = {value!r};"
        "s.dispatchEvent(new Event('input', {bubbles: true}));"
        "s.dispatchEvent(new Event('change', {bubbles: true}));",
    )


def type_into(b: Browser, field: str, text: str):
    """Replace a field's text the way typing does: focus, select all, insert the text."""
    js(b, f"const f = $({field!r}); f.focus(); f.select();")
    b.insert_text(text)


def submit(b: Browser) -> str:
    js(b, "$('submit').click()")
    wait_for(lambda: js(b, "return !$('submitted').hidden"), 30, "the stored spec to be shown")
    return js(b, "return $('submitted').dataset.id")


def test_the_page_starts_with_the_strongest_player(service, browser):
    """The page's default: the strongest player on the ladder; random is one choice away and
    says what it is."""
    text = open_page(browser, service.url)
    s = state(browser)
    assert s["player"] == "seer" and "seer in every seat" in text
    assert "strongest" in s["playerNote"] and "deck exhaustion" not in s["playerNote"]
    with httpx2.Client(base_url=service.url + "/api/v1") as c:
        rated = [p for p in c.get("/options").json()["players"] if p["rating"] is not None]
    assert max(rated, key=lambda p: p["rating"])["name"] == "seer"
    choose(browser, "player", "random")
    assert "deck exhaustion" in state(browser)["playerNote"]
    assert tomllib.loads(state(browser)["toml"])["policies"] == "random"
    text = settled(browser)
    assert "random in every seat" in text and "deck exhaustion" in text


def test_form_edits_are_what_is_submitted_and_stored(service, browser):
    """Tick highland and sylvan (imperial off), choose greedy, type 30 games, submit: the
    preview, the TOML sent and the spec the service stored all say so."""
    open_page(browser, service.url)
    assert state(browser)["decks"] == ["imperial", "highland"]
    tick(browser, "decks", "imperial")
    tick(browser, "decks", "sylvan")
    choose(browser, "player", "greedy")
    type_into(browser, "games", "30")
    type_into(browser, "name", "from the form")
    s = state(browser)
    spec = tomllib.loads(s["toml"])
    assert spec == {
        "name": "from the form",
        "decks": ["highland", "sylvan"],
        "modes": ["high-form"],
        "policies": "greedy",
        "games": 30,
        "seed": 1,
    }
    assert (s["decks"], s["player"], s["games"]) == (["highland", "sylvan"], "greedy", "30")
    text = settled(browser)
    assert "highland, sylvan (3 seat lists)" in text
    assert "greedy in every seat" in text
    assert "30 per matchup × 3 matchups = 90 games" in text
    sid = submit(browser)
    assert js(browser, "return $('submit-message').textContent") == f"submitted {sid} (90 games)"
    shown = js(browser, "return $('submitted').textContent")
    assert "30 per matchup × 3 matchups = 90 games" in shown and "greedy in every seat" in shown
    with httpx2.Client(base_url=service.url + "/api/v1") as c:
        study = c.get(f"/studies/{sid}").json()
        stored_toml = c.get(f"/studies/{sid}/spec").text
    assert stored_toml == s["toml"]  # the TOML the page showed, byte for byte
    stored = study["spec"]
    assert sorted(map(tuple, stored["decks"])) == [
        ("highland", "highland"),
        ("highland", "sylvan"),
        ("sylvan", "sylvan"),
    ]
    assert {x for p in stored["policies"] for x in p} == {"greedy"}
    assert (stored["games"], stored["modes"], stored["seed"]) == (30, ["high-form"], 1)
    assert study["games_total"] == 90 and study["name"] == "from the form"
    assert study["summary"]["players"] == ["greedy in every seat"]
    assert study["summary"]["total_games"] == 90


def test_toml_edits_set_the_form(service, browser):
    """Typing TOML moves the form; settings the form cannot show are named and kept when a
    form field changes; TOML the form cannot read disables the form until it is fixed."""
    open_page(browser, service.url)
    toml = 'name = "typed"\ndecks = ["sylvan", "everfrost"]\nmode = "deathmatch"\n'
    toml += 'policy = "greedy-tuned"\ngames = 12\n'
    type_into(browser, "spec", toml)
    s = state(browser)
    assert (s["decks"], s["modes"], s["player"]) == (
        ["sylvan", "everfrost"],
        ["deathmatch"],
        "greedy-tuned",
    )
    assert (s["name"], s["games"], s["seed"], s["note"]) == ("typed", "12", "", "")
    assert "greedy-tuned in every seat" in settled(browser)
    # a key the form cannot show, and seat lists: named, and kept when a field changes
    toml = '# my study\ndecks = [\n  ["imperial", "sylvan"],\n]\ngames = 5\n'
    toml += 'chunk_size = 2  # small chunks\npolicies = ["greedy", "random"]\n'
    type_into(browser, "spec", toml)
    s = state(browser)
    assert s["decks"] == [] and s["player"] == ""
    for shown in (
        'decks = [["imperial", "sylvan"]]',
        "chunk_size = 2",
        'policies = ["greedy", "random"]',
    ):
        assert shown in s["note"], s["note"]
    text = settled(browser)
    assert "greedy vs random" in text and "5 per matchup × 1 matchup = 5 games" in text
    type_into(browser, "games", "7")
    s = state(browser)
    assert s["toml"] == toml.replace("games = 5", "games = 7")
    tick(browser, "decks", "nethervoid")
    tick(browser, "decks", "etherweave")
    s = state(browser)
    assert tomllib.loads(s["toml"]) == {
        "decks": ["etherweave", "nethervoid"],
        "games": 7,
        "chunk_size": 2,
        "policies": ["greedy", "random"],
    }
    assert s["toml"].startswith("# my study\n") and "# small chunks" in s["toml"]
    assert "decks" not in s["note"] and "chunk_size = 2" in s["note"]
    # TOML the form cannot read: the form stands aside, the text is still what is checked
    type_into(browser, "spec", "[study]\ngames = 3\n")
    s = state(browser)
    assert s["disabled"] and "cannot show this TOML" in s["note"] and "line 1" in s["note"]
    assert "Submit would be refused: request body: unknown key 'study'" in settled(browser)
    js(browser, "$('from-form').click()")
    s = state(browser)
    assert not s["disabled"] and s["note"] == ""
    assert tomllib.loads(s["toml"])["decks"] == ["etherweave", "nethervoid"]
    # a value the service refuses: the preview says so, with the service's own message
    type_into(browser, "games", "0")
    assert "Submit would be refused: request body: 'games' must be a positive" in settled(browser)


def test_docs_work_offline(service, browser):
    """/docs renders the API from the service's own files: nothing is fetched elsewhere."""
    browser.goto(service.url + "/docs")
    wait_for(
        lambda: js(browser, "return document.querySelectorAll('.opblock').length") >= 10,
        60,
        "Swagger UI to list the operations",
    )
    assert "kalarite" in js(browser, "return document.querySelector('.info .title').textContent")
    loaded = js(browser, "return performance.getEntriesByType('resource').map((e) => e.name)")
    assert any(u.endswith("/openapi.json") for u in loaded), loaded
    assert all(u.startswith(service.url + "/") for u in loaded), loaded


def screenshot(out: pathlib.Path):
    """The page at 1280 px before and after a submission, from a service with a local Ray."""
    import tempfile

    out.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="kalarite-shots-"))
    svc = LiveService(tmp / "data", "--workers", "1").start(timeout=120)
    b = Browser(1280, 1000)
    try:
        open_page(b, svc.url)
        tick(b, "decks", "imperial")
        tick(b, "decks", "sylvan")
        choose(b, "player", "greedy")
        type_into(b, "games", "30")
        settled(b)
        b.screenshot(out / "service-page.png", full=True)
        sid = submit(b)
        wait_for(
            lambda: js(b, f"const r = $('study-{sid}'); return r && r.dataset.state") == "finished",
            600,
            "the study to finish",
        )
        b.screenshot(out / "service-submitted.png", full=True)
    finally:
        b.close()
        svc.stop()
    return out


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "screenshot":
        print(screenshot(pathlib.Path(sys.argv[2])))
    else:
        sys.exit("usage: python tests/test_service_page.py screenshot DIR")
