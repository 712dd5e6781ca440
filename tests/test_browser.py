"""The report and the compare page in a real browser (the system's headless Chromium, driven by
Playwright: `apt-get install chromium`), at 1280 and 800 px wide: the page never scrolls
sideways (wide tables scroll inside their own box, first column sticky) and every image
loads. Skipped, with the reason, where Chromium is missing (failed under CI, which installs
it).

`python tests/test_browser.py screenshot [RUN]` retakes docs/demo-report.png from the demo
report (RUN defaults to runs/demo) and records its layout fingerprint beside it.
"""

import hashlib
import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
if __name__ == "__main__":  # run as a script (screenshot): the repository root on the path
    sys.path.insert(0, str(ROOT))

from tests.support.service import Browser, low_contrast, open_browser  # noqa: E402

WIDTHS = (1280, 800)
# what the page looks like once loaded, measured in the page
CHECK = """() => {
  const d = document.documentElement;
  const boxes = [...document.querySelectorAll('.scroll')];
  const first = document.querySelector('.scroll td');
  return {
    scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, innerWidth: window.innerWidth,
    images: [...document.images].map(i => i.complete && i.naturalWidth > 0),
    boxes: boxes.length,
    scrollingBoxes: boxes.filter(b => b.scrollWidth > b.clientWidth + 1).length,
    sticky: first ? getComputedStyle(first).position : null,
    height: d.scrollHeight,
    glance: (() => {
      const g = document.querySelector('#at-a-glance img');
      if (!g) return null;
      const b = g.getBoundingClientRect();
      return {top: b.top + window.scrollY, bottom: b.bottom + window.scrollY,
              width: b.width, textPx: +g.dataset.textPx * b.width / g.naturalWidth};
    })(),
    heatmaps: [...document.querySelectorAll('#matchups details img, #matchups > img, '
      + '#matchups .zoombox img')].filter(i => i.getBoundingClientRect().width > 0).map(i => {
      const before = i.getBoundingClientRect().width;
      const px = +i.dataset.textPx * before / i.naturalWidth;
      i.click();
      const zoomed = i.getBoundingClientRect().width;
      i.click();
      return {textPx: px, before: before, zoomed: zoomed, natural: i.naturalWidth};
    }),
    wider: [...document.body.querySelectorAll('*')].filter(
      e => e.getBoundingClientRect().right > d.clientWidth + 1 && !e.closest('.scroll')
    ).slice(0, 5).map(e => e.tagName + '.' + e.className),
  };
}"""


@pytest.fixture(scope="module")
def chromium():
    with open_browser() as b:
        yield b


def measure(b: Browser, html: pathlib.Path, width: int) -> dict:
    """Open ``html`` at ``width`` px (1000 px high); the measurements."""
    b.resize(width, 1000)
    b.goto(pathlib.Path(html).resolve().as_uri())
    return b.eval(CHECK)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """A report with wide tables (three decks, two modes, two policy pairings) and a compare
    page."""
    from results.compare import compare
    from results.report import make_report
    from results.report.compare_page import write_compare_page
    from results.report_dirs import report_dir
    from tests.support.datasets import random_dataset

    tmp = tmp_path_factory.mktemp("browser")
    kw = dict(games=300, policies=(("random", "random"), ("greedy", "random")))
    a = random_dataset(tmp / "a", seed=31, **kw)
    b = random_dataset(
        tmp / "b", seed=32, content_hash="changed", p_seat0={("imperial", "sylvan"): 0.7}, **kw
    )
    report = make_report(a, report_dir(a, None))["index"]
    page = write_compare_page(compare(a, b), tmp / "cmp")["index"]
    return {"report": report, "compare": page}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("which", ["report", "compare"])
def test_no_sideways_scroll_and_every_image_loads(chromium, pages, which, width):
    r = measure(chromium, pages[which], width)
    assert r["innerWidth"] == width
    assert r["scrollWidth"] <= r["clientWidth"], f"the page scrolls sideways: {r}"
    assert r["images"] and all(r["images"]), f"an image did not load: {r['images']}"
    assert r["boxes"] > 0 and r["sticky"] == "sticky"
    if which == "report" and width == 800:
        assert r["scrollingBoxes"] > 0, "expected wide tables to scroll inside their box"


def test_first_screen_is_the_deck_picture_and_the_heatmap_is_legible(chromium, pages):
    """At 1280 px: the deck-vs-field picture fills the first screen (top 800 px) with text of
    at least 11 px; every visible heatmap's cell text is at least 11 px and a click shows it at
    full size; the folded page stays short."""
    r = measure(chromium, pages["report"], 1280)
    g = r["glance"]
    assert g and g["top"] < 400 and g["bottom"] <= 800, g  # below the weak-play banners
    assert g["textPx"] >= 11, g
    assert r["heatmaps"], "no heatmap visible in the matchup section"
    for h in r["heatmaps"]:
        assert h["textPx"] >= 11, h
        assert h["zoomed"] >= h["natural"] - 1 > h["before"], h
    assert r["height"] < 15000, f"the page is {r['height']} px long"  # 4 groups: ~14,300
    assert r["scrollWidth"] <= r["clientWidth"]


def test_the_check_sees_a_page_that_scrolls_sideways(chromium, tmp_path):
    """The measurement itself: a page with an over-wide block and a broken image fails it."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<html><body><div style="width:2000px">wide</div>'
        '<img src="data:image/png;base64,AAAA"></body></html>'
    )
    r = measure(chromium, bad, 800)
    assert r["scrollWidth"] > r["clientWidth"] and r["images"] == [False]


def screenshot(run, png=ROOT / "docs" / "demo-report.png", width=1280, height=800):
    """Retake the README's screenshot from ``run``'s report and record its fingerprint."""
    from results.report import CSS, NAV
    from tests.support.report_layout import layout_fingerprint

    index = pathlib.Path(run) / "report" / "index.html"
    b = Browser(width, height)
    try:
        b.goto(index.resolve().as_uri())
        b.screenshot(png)
    finally:
        b.close()
    meta = {
        "source": "kalarite demo report (make demo), headless Chromium",
        "width": width,
        "height": height,
        "layout": layout_fingerprint(CSS, NAV),
        "png_sha256": hashlib.sha256(png.read_bytes()).hexdigest(),
    }
    png.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    return png


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "screenshot":
        print(screenshot(sys.argv[2] if len(sys.argv) > 2 else ROOT / "runs" / "demo"))


def test_a_player_sensitive_first_screen_still_fits(chromium, tmp_path):
    """Three players in self-play (greedy, planner, planner:width=12), the answer
    player-sensitive in both comparisons: the stability line and the per-deck tags keep the
    picture on the first screen and the page short."""
    from results.report import make_report
    from tests.support.player_studies import BASE, IMPERIAL_UP_12, study

    down = {k: (1 - v if "imperial" in k else v) for k, v in BASE.items()}
    run = study(
        tmp_path / "run", {"greedy": BASE, "planner": IMPERIAL_UP_12, "planner:width=12": down}
    )
    r = make_report(run, tmp_path / "rep")
    modes = r["summary"]["stability"]["modes"]
    assert [c["verdict"] for c in modes["high-form"]["comparisons"]] == ["player-sensitive"] * 2
    m = measure(chromium, r["index"], 1280)
    g = m["glance"]
    assert g and g["top"] < 400 and g["bottom"] <= 800, g
    assert m["height"] < 15000, f"the page is {m['height']} px long"
    assert m["scrollWidth"] <= m["clientWidth"]
    assert not low_contrast(chromium)["failures"]  # the verdicts' own colours too


@pytest.mark.parametrize("which", ["report", "compare"])
def test_every_text_meets_the_contrast_minimum(chromium, pages, which):
    """WCAG AA (4.5:1, 3:1 for large text) for every visible text against its effective
    background; the compare page's `kalarite check` banner was white on near-white."""
    measure(chromium, pages[which], 1280)
    r = low_contrast(chromium)
    assert r["checked"] > 20, r
    assert not r["failures"], r["failures"][:10]
    assert not r["on_images"], r["on_images"][:10]


def test_the_contrast_check_sees_faint_text(chromium, tmp_path):
    """The measurement itself: white on near-white, grey on a translucent grey over white,
    and faded text fail; large text needs only 3:1; black on white passes."""
    bad = tmp_path / "faint.html"
    bad.write_text(
        '<html><body style="background:#fff">'
        '<p id="ok" style="color:#000">black on white</p>'
        '<div style="background:#f5f5f5"><p id="white" style="color:#fff">white</p></div>'
        '<div style="background:rgba(0,0,0,0.5)"><p id="grey" style="color:#777">grey</p></div>'
        '<p id="faded" style="color:#000;opacity:0.2">faded</p>'
        '<p id="large" style="color:#888;font-size:30px">large grey</p>'
        '<p id="small" style="color:#888">small grey</p>'
        "</body></html>"
    )
    measure(chromium, bad, 800)
    r = low_contrast(chromium)
    failed = {f["what"] for f in r["failures"]}
    assert failed == {"p#white", "p#grey", "p#faded", "p#small"}, r
    assert r["checked"] == 6
