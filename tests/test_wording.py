"""The words a newcomer reads say what is true (issue 38, item 8): which player the demo plays,
a first screen that explains only the labels it draws, `serve --help` without the lists it
does not take, reports and comparisons titled by what was played and what differs, commands
in a banner set as code, and `report` refusing a bad dataset before it announces anything."""

import html
import pathlib
import re
import subprocess
import sys
import tomllib

from results.compare import compare
from results.report import make_report
from results.report.compare_page import write_compare_page
from sim.app.cli import main
from sim.strength import top_player
from tests.support.datasets import game_row, write_dataset
from tests.support.player_studies import BASE, study

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_the_docs_name_the_player_the_demo_plays():
    spec = tomllib.loads((ROOT / "sim/studies/demo.toml").read_text())
    player = spec["policies"]
    assert player == top_player() == "seer"  # the strongest rated (then the docs must say so)
    (row,) = [r for r in (ROOT / "docs/cli.md").read_text().splitlines() if "`kalarite demo`" in r]
    assert f"the {player} in both seats" in row and "planner in both seats" not in row
    readme = (ROOT / "README.md").read_text()
    assert f"make demo plays 5,040 {player} games" in readme
    assert f"The **{player}** plays both seats" in readme


def _report_page(root) -> str:
    r = make_report(root, root / "report")
    return html.unescape(r["index"].read_text(encoding="utf-8"))


def _simulate_study(root, policies=("random", "random"), content_hash="c0ffee", n=30):
    spec = {
        "name": "simulate",
        "decks": [["imperial", "highland"]],
        "modes": ["high-form"],
        "policies": [list(policies)],
        "games": n,
        "seed": 1,
        "turn_cap": 200,
        "beings_without_effects": False,
    }
    games = [
        game_row("high-form", ("imperial", "highland"), policies, i, i % 2, end_reason="deck")
        for i in range(n)
    ]
    return write_dataset(root, games, study=spec, content_hash=content_hash)


def test_the_legend_explains_per_deck_labels_only_where_they_are_drawn(tmp_path):
    one = _report_page(_simulate_study(tmp_path / "one"))
    assert "Undetermined by this study (stability cannot be judged: one player" in one
    assert "Per deck on the right" not in one
    two = _report_page(study(tmp_path / "two", {"greedy": BASE, "planner": BASE}))
    assert "Per deck on the right: its own word." in two


def test_serve_help_lists_no_decks_modes_or_players():
    out = subprocess.run(
        [sys.executable, "-m", "sim.app.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for heading in ("decks (--decks", "modes (--mode", "players (--policy"):
        assert heading not in out, heading
    assert "GET /api/v1/options" in " ".join(out.split())


def test_a_simulate_report_is_titled_by_what_it_played(tmp_path):
    page = _report_page(_simulate_study(tmp_path / "run"))
    title = "imperial vs highland, High Form, random (both seats)"
    assert f'<h1 class="top">Balance report: {title}</h1>' in page
    assert "Balance report: simulate" not in page


def test_a_comparison_is_titled_by_what_differs(tmp_path):
    a = _simulate_study(tmp_path / "a", content_hash="c-a")
    a2 = _simulate_study(tmp_path / "a2", content_hash="c-a")
    b = _simulate_study(tmp_path / "b", content_hash="c-b")
    assert compare(a, b)["title"] == "imperial vs highland, High Form: content c-a → c-b"
    g = _simulate_study(tmp_path / "g", policies=("greedy", "greedy"), content_hash="c-a")
    r = compare(a2, g)
    title = "imperial vs highland, High Form: random (both seats) → greedy (both seats)"
    assert r["title"] == title
    page = write_compare_page(r, tmp_path / "page")["index"].read_text(encoding="utf-8")
    assert f"<h1>Comparison: {html.escape(title)}</h1>" in page
    assert "simulate vs simulate" not in page
    # the weak players' banner names a command: as code, not between literal backticks
    banners = re.findall(r'<div class="banner[^"]*">(.*?)</div>', page)
    assert any("<code>kalarite players</code>" in x for x in banners), banners
    assert not any("`" in x for x in banners), banners


def test_report_refuses_before_it_announces(tmp_path, capsys):
    assert main(["report", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kalarite: error: no dataset at") and "writing" not in err
    assert len(err.splitlines()) == 1
    incomplete = _simulate_study(tmp_path / "half")
    manifest = incomplete / "study.json"
    manifest.write_text(manifest.read_text().replace('"complete"', '"running"'))
    assert main(["report", str(incomplete)]) == 2
    err = capsys.readouterr().err
    assert "incomplete" in err and "writing" not in err and len(err.splitlines()) == 1
