"""`make demo` on a finished study keeps its report (issue 38, item 9): a report made from the
same dataset by the same code is pointed to, not written again (49 s on the demo); a changed
dataset gets a new one, and `kalarite report` always writes one."""

import json

import pytest

from results.report import report_inputs, report_is_current
from sim.app.cli import main


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo") / "demo"
    assert main(["demo", "--out", str(out), "--games", "1", "--workers", "0"]) == 0
    return out


def test_a_finished_demo_points_to_its_report(demo, capsys):
    index = demo / "report" / "index.html"
    summary = json.loads((demo / "report" / "summary.json").read_text())
    assert summary["report_inputs"] == {**report_inputs(demo), "margin": None}
    before = index.stat().st_mtime_ns, sorted(p.name for p in (demo / "report").glob("*.png"))
    assert before[1]
    capsys.readouterr()
    assert main(["demo", "--out", str(demo), "--games", "1", "--workers", "0"]) == 0
    out, err = capsys.readouterr()
    assert f"kalarite: demo report -> {index} (up to date" in out
    assert "writing the report" not in err
    after = index.stat().st_mtime_ns, sorted(p.name for p in (demo / "report").glob("*.png"))
    assert after == before  # not rewritten, its plots kept


def test_a_changed_dataset_or_code_gets_a_new_report(demo, tmp_path, capsys):
    assert report_is_current(demo, demo / "report")
    manifest = demo / "study.json"
    text = manifest.read_text()
    manifest.write_text(json.dumps(json.loads(text), indent=2))  # the manifest rewritten
    try:
        assert not report_is_current(demo, demo / "report")
        assert main(["demo", "--out", str(demo), "--games", "1", "--workers", "0"]) == 0
        out, err = capsys.readouterr()
        assert "writing the report: section" in err and "(up to date" not in out
        assert report_is_current(demo, demo / "report")
    finally:
        manifest.write_text(text)
    summary = json.loads((demo / "report" / "summary.json").read_text())
    summary["report_inputs"]["code"] = "another version"
    (demo / "report" / "summary.json").write_text(json.dumps(summary))
    assert not report_is_current(demo, demo / "report")
