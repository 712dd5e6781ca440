"""The credibility study's tooling: its spec and trace spec as shipped, the record and the
README's decided table from a study's datasets (benchmarks/credibility.py), and the first
screen of a study that cannot decide its own stability, which names the record's answer or
says it is not yet run (results/credibility.py)."""

import html
import json
import pathlib
import tomllib

import pytest

from benchmarks import credibility as cred
from cluster.runner import run_study
from results import analysis
from results.credibility import RECORD, answer_text, load_record
from results.report import make_report
from sim.content import load_content
from sim.strength import strongest_players
from sim.study import load_study, study_from_dict

CONTENT = load_content()
ROOT = pathlib.Path(__file__).resolve().parents[1]
NOT_RUN = "the credibility study that decides it (sim/studies/credibility.toml) is not yet run"


def test_the_shipped_specs():
    """The two top-rated players (weakest first, as the rule ranks a study without head-to-head
    games) on the same deals, no mirrors, both duel modes, until decided, capped at 8,000
    games a deck; the trace at four doublings with at least 1,000 games a level."""
    s = load_study("sim/studies/credibility.toml", CONTENT)
    top_two = [(p,) for p in reversed(strongest_players(2))]
    assert s.policies == top_two and s.deals == "shared" and not s.mirrors
    assert s.modes == ["high-form", "deathmatch"] and s.until == "decided"
    assert s.games * 5 == 8000 and len(s.decks) == 15 and s.total_games == 96_000
    t = load_study("sim/studies/credibility-trace.toml", CONTENT)
    assert t.trace["player"] == strongest_players(1)[0] and t.trace["levels"] == [4, 8, 16, 32]
    assert t.games * len(t.decks) >= 1000 and t.modes == ["high-form", "deathmatch"]


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    root = tmp_path_factory.mktemp("cred")
    spec = {
        "name": "credibility-tiny",
        "decks": ["imperial", "highland", "sylvan"],
        "modes": ["high-form"],
        "policies": [["random"], ["greedy:points=40"]],
        "mirrors": False,
        "games": 40,
        "seed": 5,
        "until": "decided",
    }
    run_study(study_from_dict(spec, CONTENT), CONTENT, root / "s", workers=0, progress=False)
    trace = {
        "name": "trace-tiny",
        "decks": ["imperial", "highland", "sylvan"],
        "modes": ["high-form"],
        "mirrors": False,
        "trace": {"player": "mc:candidates=1:horizon=1", "levels": [1, 2, 4, 8]},
        "games": 2,
        "seed": 2,
    }
    run_study(study_from_dict(trace, CONTENT), CONTENT, root / "t", workers=0, progress=False)
    return root


def test_the_record_and_the_readme_table(datasets, tmp_path, monkeypatch):
    out, readme = tmp_path / "credibility.json", tmp_path / "README.md"
    readme.write_text(f"before\n{cred.BEGIN}\nnot yet run\n{cred.END}\nafter\n")
    args = ["--study", str(datasets / "s"), "--trace", str(datasets / "t"), "--out", str(out)]
    assert cred.main([*args, "--readme", str(readme)]) == 0
    rec = json.loads(out.read_text())
    assert rec["kind"] == "kalarite-credibility" and rec["deals"] == "shared"
    assert rec["players"] == ["random", "greedy:points=40"] and rec["mirrors"] is False
    m = rec["modes"]["high-form"]
    assert m["verdict"] in ("stable", "player-sensitive", "undetermined")
    assert set(m["decks"]) == {"imperial", "highland", "sylvan"} and "tied on points" in m["ended"]
    assert rec["looks"]["stopped"]["why"] and rec["games"] == 6 * rec["looks"]["games"]
    assert rec["trace"]["levels"] == [1, 2, 4, 8] and "high-form" in rec["trace"]["modes"]
    # item 4: the seat edge and the tasks under the top player, and the power figure
    edge = m["seat_edge"]
    assert edge["top"] == "greedy:points=40" and edge["players"] == rec["players"]
    assert edge["verdict"] in ("stable", "player-sensitive", "undetermined")
    share = edge["shares"]["greedy:points=40"]
    assert 0 <= share["lo"] <= share["rate"] <= share["hi"] <= 1 and edge["detectable"] > 3
    assert m["detectable"] > 3 and m["first_screen"]["power"].startswith("What this study")
    assert rec["tasks"]["player"] == "greedy:points=40" and rec["tasks"]["tasks"]
    assert all(x["flag"] in (None, "easy", "hard") for x in rec["tasks"]["tasks"])
    aa = cred.seat_edge_aa(datasets / "s", datasets / "s")  # one sample twice: no move
    assert aa["modes"]["high-form"]["delta"] == 0.0
    assert aa["modes"]["high-form"]["verdict"] != "player-sensitive"
    text = readme.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "not yet run" not in text
    assert "**The decided answer**" in text and "| High Form |" in text and "Skill trace" in text
    assert "the first mover's share under the greedy:points=40 [95%]" in text
    assert "**High Form tasks under the greedy:points=40**" in text
    with pytest.raises(ValueError, match="no <!-- credibility:begin -->"):
        cred.replace_block("no block", "x")
    # a one-player study's first screen names the record's answer, or says it is not yet run
    monkeypatch.setenv("KALARITE_CREDIBILITY_RECORD", str(out))
    assert f"says {m['verdict']}" in answer_text("high-form")
    assert "did not play this mode" in answer_text("deathmatch")
    one = tmp_path / "one"
    spec = {"decks": ["imperial", "highland"], "policies": "random", "games": 4, "seed": 1}
    run_study(study_from_dict(spec, CONTENT), CONTENT, one, workers=0, progress=False)
    (g,) = analysis.analyze(one)["at_a_glance"]["modes"]
    assert g["stability"]["text"].startswith("undetermined by this study")
    assert (
        f"random vs greedy:points=40, same deals, {m['games_per_deck']:,} games a deck"
        in (g["stability"]["text"])
    )
    monkeypatch.setenv("KALARITE_CREDIBILITY_RECORD", str(tmp_path / "none.json"))
    (g,) = analysis.analyze(one)["at_a_glance"]["modes"]
    assert g["stability"]["text"].endswith(NOT_RUN)
    assert "player-sensitive" not in g["stability"]["text"]


def test_the_demo_first_screen_and_the_docs_say_what_the_record_holds(tmp_path, monkeypatch):
    """What the checked-in record holds decides what the demo's first screen, the README and
    docs/studies.md say. No record (the credibility study not yet run): each says so, with
    the command, and none claims a decided answer. A record: the README holds its table and
    the first screen names its verdict per mode."""
    monkeypatch.delenv("KALARITE_CREDIBILITY_RECORD", raising=False)
    spec = tomllib.loads((ROOT / "sim/studies/demo.toml").read_text())
    spec["games"] = 2  # the demo's decks, modes and player, two games a matchup
    out = tmp_path / "demo"
    run_study(study_from_dict(spec, CONTENT), CONTENT, out, workers=0, progress=False)
    glance = analysis.analyze(out)["at_a_glance"]["modes"]
    assert [g["mode"] for g in glance] == ["high-form", "deathmatch"]
    page = html.unescape(make_report(out, out / "report")["index"].read_text(encoding="utf-8"))
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index(cred.BEGIN) : readme.index(cred.END)]
    studies = (ROOT / "docs/studies.md").read_text()
    if not RECORD.exists():  # not yet run
        for g in glance:
            st = g["stability"]
            assert st["verdict"] is None and st["text"].startswith("undetermined by this study")
            assert st["text"].endswith(NOT_RUN)
            assert " says " not in st["text"]
        assert "is not yet run" in page
        assert "not yet recorded" in block and "has not been run" in block
        assert "kalarite study sim/studies/credibility.toml" in block
        assert "| High Form |" not in block  # no decided table without a record
        assert "Its answer is not yet recorded" in studies
        assert "kalarite study sim/studies/credibility.toml --out runs/credibility" in studies
    else:
        rec = load_record()
        assert rec is not None, f"{RECORD} is not a readable credibility record"
        for g in glance:
            m = rec["modes"].get(g["mode"])
            assert m and f"says {m['verdict']}" in g["stability"]["text"]
        assert "**The decided answer**" in block and "not yet recorded" not in block
        assert "not yet recorded" not in studies


def test_the_readme_stays_under_300_lines():
    assert len((ROOT / "README.md").read_text().splitlines()) < 300
