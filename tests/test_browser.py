"""The report and the compare page in a real browser (headless Chromium from the system
packages: `apt-get install chromium`), at 1280 and 800 px wide: the page never scrolls
sideways (wide tables scroll inside their own box, first column sticky) and every image
loads. Skipped, with the reason, where Chromium is missing.

`python tests/test_browser.py screenshot [RUN]` retakes docs/demo-report.png from the demo
report (RUN defaults to runs/demo) and records its layout fingerprint beside it.
"""

import hashlib
import json
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
WIDTHS = (1280, 800)
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHECK = """<script>
window.addEventListener('load', () => {
  const d = document.documentElement;
  const boxes = [...document.querySelectorAll('.scroll')];
  const first = document.querySelector('.scroll td');
  const r = {
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
  const p = document.createElement('pre');
  p.id = 'kalarite-check';
  p.textContent = JSON.stringify(r);
  document.body.appendChild(p);
});
</script>"""


def browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def _flags(width, height=1000):
    return [
        "--headless",
        "--no-sandbox",  # the test may run as root (CI containers)
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--virtual-time-budget=10000",
    ]


def measure(html: pathlib.Path, width: int) -> dict:
    """Open a copy of ``html`` with the check script at ``width`` px; the measurements."""
    probe = html.with_name(f".probe-{width}-{html.name}")
    probe.write_text(html.read_text(encoding="utf-8").replace("</body>", CHECK + "</body>"))
    try:
        p = subprocess.run(
            [browser(), *_flags(width), "--dump-dom", probe.resolve().as_uri()],
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        probe.unlink()
    m = re.search(r'<pre id="kalarite-check">(.*?)</pre>', p.stdout, re.S)
    assert m, f"no measurement from the browser: {p.stderr[-2000:]}"
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))


needs_browser = pytest.mark.skipif(
    browser() is None,
    reason="Chromium is not installed (apt-get install chromium): the browser checks of the "
    "report and the compare page are skipped",
)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """A report with wide tables (three decks, two modes, two policy pairings) and a compare
    page."""
    from test_report import random_dataset

    from results.compare import compare
    from results.compare.page import write_compare_page
    from results.report import make_report
    from results.report_dirs import report_dir

    tmp = tmp_path_factory.mktemp("browser")
    kw = dict(games=300, policies=(("random", "random"), ("greedy", "random")))
    a = random_dataset(tmp / "a", seed=31, **kw)
    b = random_dataset(
        tmp / "b", seed=32, content_hash="changed", p_seat0={("imperial", "sylvan"): 0.7}, **kw
    )
    report = make_report(a, report_dir(a, None))["index"]
    page = write_compare_page(compare(a, b), tmp / "cmp")["index"]
    return {"report": report, "compare": page}


@needs_browser
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("which", ["report", "compare"])
def test_no_sideways_scroll_and_every_image_loads(pages, which, width):
    r = measure(pages[which], width)
    assert r["innerWidth"] == width
    assert r["scrollWidth"] <= r["clientWidth"], f"the page scrolls sideways: {r}"
    assert r["images"] and all(r["images"]), f"an image did not load: {r['images']}"
    assert r["boxes"] > 0 and r["sticky"] == "sticky"
    if which == "report" and width == 800:
        assert r["scrollingBoxes"] > 0, "expected wide tables to scroll inside their box"


@needs_browser
def test_first_screen_is_the_deck_picture_and_the_heatmap_is_legible(pages):
    """At 1280 px: the deck-vs-field picture fills the first screen (top 800 px) with text of
    at least 11 px; every visible heatmap's cell text is at least 11 px and a click shows it at
    full size; the folded page stays short."""
    r = measure(pages["report"], 1280)
    g = r["glance"]
    assert g and g["top"] < 400 and g["bottom"] <= 800, g  # below the weak-play banners
    assert g["textPx"] >= 11, g
    assert r["heatmaps"], "no heatmap visible in the matchup section"
    for h in r["heatmaps"]:
        assert h["textPx"] >= 11, h
        assert h["zoomed"] >= h["natural"] - 1 > h["before"], h
    assert r["height"] < 15000, f"the page is {r['height']} px long"  # 4 groups: ~14,300
    assert r["scrollWidth"] <= r["clientWidth"]


@needs_browser
def test_the_check_sees_a_page_that_scrolls_sideways(tmp_path):
    """The measurement itself: a page with an over-wide block and a broken image fails it."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<html><body><div style="width:2000px">wide</div>'
        '<img src="data:image/png;base64,AAAA"></body></html>'
    )
    r = measure(bad, 800)
    assert r["scrollWidth"] > r["clientWidth"] and r["images"] == [False]


def screenshot(run, png=ROOT / "docs" / "demo-report.png", width=1280, height=800):
    """Retake the README's screenshot from ``run``'s report and record its fingerprint."""
    from test_cli_conventions import layout_fingerprint

    from results.report import CSS, NAV

    index = pathlib.Path(run) / "report" / "index.html"
    subprocess.run(
        [
            browser(),
            *_flags(width, height),
            "--hide-scrollbars",
            f"--screenshot={png}",
            index.resolve().as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
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
        sys.path.insert(0, str(ROOT))
        sys.path.insert(0, str(ROOT / "tests"))
        print(screenshot(sys.argv[2] if len(sys.argv) > 2 else ROOT / "runs" / "demo"))


@needs_browser
def test_a_player_sensitive_first_screen_still_fits(tmp_path):
    """Three players in self-play (greedy, planner, planner:width=12), the answer
    player-sensitive in both comparisons: the stability line and the per-deck tags keep the
    picture on the first screen and the page short."""
    from test_stability import BASE, IMPERIAL_UP_12, study

    from results.report import make_report

    down = {k: (1 - v if "imperial" in k else v) for k, v in BASE.items()}
    run = study(
        tmp_path / "run", {"greedy": BASE, "planner": IMPERIAL_UP_12, "planner:width=12": down}
    )
    r = make_report(run, tmp_path / "rep")
    modes = r["summary"]["sensitivity"]["modes"]
    assert [c["verdict"] for c in modes["high-form"]["comparisons"]] == ["player-sensitive"] * 2
    m = measure(r["index"], 1280)
    g = m["glance"]
    assert g and g["top"] < 400 and g["bottom"] <= 800, g
    assert m["height"] < 15000, f"the page is {m['height']} px long"
    assert m["scrollWidth"] <= m["clientWidth"]
