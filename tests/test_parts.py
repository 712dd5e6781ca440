"""The one registry of the report's parts (results/parts.py): every registered part is in
analyze's summary, on the report page, in the notebook frames and, where it is compared, in
``compare``'s tables, its text and its page; registering a part is the only step a new part
needs (a dummy part registered here shows up everywhere); and a summary of the old format
(before the keys' renaming) is read under the new names."""

import dataclasses
import json
import pathlib
import re

import pytest

from results import analysis, parts
from results.compare import compare, format_text
from results.frames import summary_frames
from results.report import make_report, write_report
from results.report.compare_page import write_compare_page
from tests.support.datasets import random_dataset

LAYERS = {  # where each column's functions live: a layer never imports one above it
    "compute": ("results.analysis.", "results.looks"),
    "html": ("results.report.",),
    "tidy": ("results.frames",),
    "compare": ("results.compare.",),
}


def test_every_name_loads_and_lives_in_its_layer():
    keys = [p.key for p in parts.PARTS if p.key]
    assert len(keys) == len(set(keys))
    sections = [p.section for p in parts.PARTS if p.section]
    assert len(sections) == len(set(sections))
    tables = [name for p in parts.PARTS for name, _, _ in p.tables]
    assert len(tables) == len(set(tables))
    for p in parts.PARTS:
        assert set(p.args) <= set(parts.ANALYSIS_INPUTS) | set(keys), p
        if p.compute:
            assert p.compute.startswith(LAYERS["compute"]) and callable(p.function("compute"))
        if p.html:
            assert p.html.startswith(LAYERS["html"]) and (p.section or not p.title), p
            mixin, method = p.mixin()
            assert callable(getattr(mixin, method)), p
        for name, ref in p.tidy:
            assert ref.startswith(LAYERS["tidy"]) and callable(p.function(name)), p
        assert bool(p.compare) == bool(p.tables), p
        if p.compare:
            assert p.compare.startswith(LAYERS["compare"]) and callable(p.function("compare"))


def test_html_is_written_only_in_results_report():
    """The numbers and the comparison write no HTML: a closing tag in results/ outside
    results/report/ is presentation in the wrong layer."""
    root = pathlib.Path(__file__).resolve().parents[1] / "results"
    tag = re.compile(r"</(p|div|section|table|tr|td|th|span|b|i|h[1-6]|ul|li|caption|pre)>")
    found = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if "report" not in path.relative_to(root).parts[:1] and tag.search(path.read_text())
    ]
    assert found == []


# --- a dummy part, registered and nothing else -----------------------------------------------


def dummy_numbers(dataset, groups, matchups):
    """The dummy part's numbers: its games per group, read from another part (matchups)."""
    cells = {m["group"]: sum(c["combined"]["games"] for c in m["cells"]) for m in matchups}
    return {"groups": [{"group": g["id"], "games": cells.get(g["id"], 0)} for g in groups]}


def dummy_rows(summary) -> list:
    return [{"group": g["group"], "dummy_games": g["games"]} for g in summary["dummy"]["groups"]]


def dummy_compare(pair) -> dict:
    from results.compare.tables import row

    a = {g["group"]: g["games"] for g in pair.sa["dummy"]["groups"]}
    b = {g["group"]: g["games"] for g in pair.sb["dummy"]["groups"]}
    total_a, total_b = sum(a.values()), sum(b.values())
    return {
        "dummy_share": [
            row(f"dummy {g}", [g], a[g], total_a, b.get(g, 0), total_b, metric="dummy share")
            for g in a
        ]
    }


class DummySection:
    def dummy(self):
        self.h2("dummy-part")
        self.w(f"<p>dummy groups: {len(self.s['dummy']['groups'])}</p>")
        self.end()


DUMMY = parts.Part(
    "dummy",
    f"{__name__}:dummy_numbers",
    ("dataset", "groups", "matchups"),
    "dummy-part",
    "A dummy part",
    f"{__name__}:DummySection.dummy",
    (("dummy_rows", f"{__name__}:dummy_rows"),),
    f"{__name__}:dummy_compare",
    (("dummy_share", "Dummy: share of the games", "dummy share"),),
)


@pytest.fixture(scope="module")
def studies(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("parts")
    kw = dict(games=120, modes=("high-form",), decks=("imperial", "highland"))
    base = random_dataset(tmp / "a", seed=31, **kw)
    changed = random_dataset(tmp / "b", seed=32, content_hash="changed", **kw)
    return {"a": base, "b": changed, "tmp": tmp}


@pytest.fixture(params=[False, True], ids=["registered", "with-a-dummy"])
def registry(request, monkeypatch):
    """The registry as it is, and with the dummy part put first (the page's order; it reads
    a part listed after it, so analyze must compute that one first)."""
    if request.param:
        monkeypatch.setattr(parts, "PARTS", (DUMMY, *parts.PARTS))
        parts.load.cache_clear()
    return parts.PARTS


def test_every_part_is_everywhere(studies, registry, tmp_path):
    summary = analysis.analyze(studies["a"])
    report = make_report(studies["a"], tmp_path / "report")
    page = report["index"].read_text(encoding="utf-8")
    written = json.loads(report["summary_json"].read_text(encoding="utf-8"))
    frames = summary_frames(summary)
    result = compare(studies["a"], studies["b"])
    text = format_text(result, show_all=True)
    compared = write_compare_page(result, tmp_path / "cmp")["index"].read_text(encoding="utf-8")
    for p in registry:
        if p.key:
            assert p.key in summary and p.key in written, p.key
        if p.section:
            assert f'<section id="{p.section}"' in page or f'id="{p.section}"' in page, p
        if p.title:
            assert f'<a href="#{p.section}">' in page, p
        for name, _ in p.tidy:
            assert name in frames, name
        if p.compute and not p.tidy and isinstance(summary[p.key], list):
            assert p.key in frames, p.key
        for name, title, _ in p.tables:
            assert name in result["tables"] and result["tables"][name], name
            assert title in text and title in compared, name
    if DUMMY in registry:
        (group,) = summary["dummy"]["groups"]
        cells = [c for m in summary["matchups"] for c in m["cells"]]
        assert group["games"] == sum(c["combined"]["games"] for c in cells) > 0
        assert list(frames["dummy_rows"].columns) == ["group", "dummy_games"]
        assert "dummy groups: 1" in page and page.index("dummy-part") < page.index("matchups")
        assert result["significant"]["dummy_share"] == 0


def test_an_old_summary_is_read_under_the_new_names(studies, tmp_path):
    """A summary.json written before the keys' renaming (version 1: ``sensitivity`` the
    stability verdict, ``policy_sensitivity`` each deck's rates per player) draws the same
    page and the same frames as today's."""
    new = analysis.analyze(studies["a"])
    assert new["kalarite_report"] == parts.FORMAT == 2
    assert "sensitivity" not in new and "policy_sensitivity" not in new
    old = {
        ("sensitivity" if k == "stability" else k): v
        for k, v in new.items()
        if k not in ("at_a_glance", "key_findings")  # version 1 left these to the report
    }
    old["policy_sensitivity"] = old.pop("player_sensitivity")
    old["kalarite_report"] = 1
    read = parts.current(json.loads(json.dumps(old)))
    assert read.keys() == new.keys() - {"at_a_glance", "key_findings"}
    assert read["stability"] == json.loads(json.dumps(new["stability"]))
    page_new = write_report(dict(new), tmp_path / "new")["index"].read_text(encoding="utf-8")
    page_old = write_report(old, tmp_path / "old")["index"].read_text(encoding="utf-8")
    assert page_old == page_new.replace(str(tmp_path / "new"), str(tmp_path / "old"))
    same_keys = {k: v for k, v in new.items() if k in read}
    frames_old, frames_new = summary_frames(old), summary_frames(same_keys)
    assert frames_old.keys() == frames_new.keys()
    for name, frame in frames_new.items():
        assert frame.equals(frames_old[name]), name


def test_a_part_reading_itself_is_refused(studies, monkeypatch):
    """Parts that read each other in a circle: a plain error naming them, not a hang."""
    loop = dataclasses.replace(DUMMY, args=("dummy",), compute=f"{__name__}:dummy_rows")
    monkeypatch.setattr(parts, "PARTS", (loop, *parts.PARTS))
    with pytest.raises(RuntimeError, match="read each other: dummy"):
        analysis.analyze(studies["a"])
