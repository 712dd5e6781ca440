"""The credibility study's record and the README's decided table, from its datasets: the
study (sim/studies/credibility.toml, played ``--until decided``) and its skill trace
(sim/studies/credibility-trace.toml).

    python -m benchmarks.credibility --study runs/credibility --trace runs/credibility-trace

writes ``benchmarks/results/credibility.json`` (the record the report's first screen reads:
results/credibility.py) and replaces the README's block between ``<!-- credibility:begin -->``
and ``<!-- credibility:end -->`` with the decided table: per mode the verdict, the players,
the games a deck, how the games ended and where the study stopped; per deck each player's win
rate against the field and its move with its interval; and the trace's strength and deck
figures. ``--out`` and ``--readme`` write elsewhere (``--readme -`` prints the block).

    python -m benchmarks.credibility --from-record benchmarks/results/credibility.json

re-renders the README's block from a record already written (no dataset needed).
"""

import argparse
import datetime
import json
import pathlib
import subprocess
import sys

from results.analysis import analyze
from results.analysis.glance import how_games_ended
from results.analysis.labels import MODE_LABELS
from results.analysis.stability_text import interval_levels
from results.credibility import KIND, RECORD
from results.store import read_manifest

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BEGIN, END = "<!-- credibility:begin -->", "<!-- credibility:end -->"


def _commit() -> str | None:
    try:
        r = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return r.stdout.strip()


def worker_seconds(manifest) -> float:
    """Workers x playing time over the dataset's runs: the CPU the play took at most (a worker
    waiting for a chunk counts too)."""
    total = 0.0
    for run in manifest.get("runs", []):
        total += float(run.get("play_s") or 0) * max(int(run.get("workers") or 1), 1)
    return round(total, 1)


def _mode_record(summary, mode) -> dict:
    sens = summary["stability"]["modes"][mode]
    dec = (summary.get("decisiveness") or {}).get(mode)
    out = {"verdict": sens.get("verdict"), "ended": how_games_ended(dec)}
    if sens.get("verdict") is None:
        return out | {"why": sens.get("why")}
    (c,) = [x for x in sens["comparisons"] if x["kind"] == "top_two"] or sens["comparisons"][:1]
    out |= {
        "players": c["from_to"],
        "games_per_deck": c["games"],
        "paired_pairings": c["paired_pairings"],
        "pairings": c["pairings"],
        "differ": c["differ"],
        "games_needed": c["games_needed"],
        "decks": {
            d: {
                k: x[k]
                for k in ("delta", "delta_lo", "delta_hi", "verdict", "rates", "p_beyond_holm")
            }
            for d, x in c["decks"].items()
        },
    }
    return out


def _trace_record(summary) -> dict | None:
    t = summary.get("skill_trace")
    if not t:
        return None
    return {
        "player": t["player"],
        "setting": t["setting"],
        "levels": t["levels"],
        "top_two_levels": (summary["stability"] or {}).get("verdict"),
        "modes": {
            mode: {
                "joint": m["joint"],
                "strength": [
                    {k: s[k] for k in ("from", "to", "rate", "lo", "hi", "decisive")}
                    for s in m["strength"]
                ],
                "decks": {
                    d: {k: x[k] for k in ("slope", "slope_lo", "slope_hi")}
                    for d, x in m["decks"].items()
                },
            }
            for mode, m in t["modes"].items()
        },
        "games": summary["data"]["games"],
    }


def build_record(study_dir, trace_dir=None, command=None) -> dict:
    """The record of the credibility study (and its trace) from their datasets."""
    s = analyze(study_dir)
    m = read_manifest(study_dir)
    modes = [g["mode"] for g in s["groups"]]
    rec = {
        "kind": KIND,
        "version": 1,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "commit": _commit(),
        "command": command,
        "study": s["run"]["name"],
        "engine_hash": m.get("engine_hash"),
        "content_hash": m.get("content_hash"),
        "deals": m["study"].get("deals"),
        "mirrors": m["study"].get("mirrors", True),
        "players": list(dict.fromkeys(p[0] for p in m["study"]["policies"])),
        "verdict": s["stability"]["verdict"],
        "margin": s["stability"]["margin"],
        "rule": s["stability"]["rule"],
        "looks": s["looks"],
        "games": s["data"]["games"],
        "worker_seconds": worker_seconds(m),
        "modes": {mode: _mode_record(s, mode) for mode in dict.fromkeys(modes)},
        "trace": None,
    }
    if trace_dir:
        t = analyze(trace_dir)
        rec["trace"] = _trace_record(t)
        if rec["trace"]:
            rec["trace"]["worker_seconds"] = worker_seconds(read_manifest(trace_dir))
    return rec


def _pts(x) -> str:
    return "–" if x is None else f"{x:+.1f}"


def _rate(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def readme_block(rec: dict) -> str:
    """The README's decided table, from the record."""
    lk = rec.get("looks") or {}
    stop = (lk.get("stopped") or {}).get("why", "played every game")
    a, b = rec["players"][:2] if len(rec["players"]) >= 2 else (rec["players"] + ["?", "?"])[:2]
    shown, equivalence = interval_levels(rec["rule"]["alpha"])
    lines = [
        BEGIN,
        f"**The decided answer** (`sim/studies/credibility.toml`, commit {rec['commit']}: {a} "
        f"and {b}, each in both seats, on the same deals, no mirror matches; {stop}; "
        f"{rec['games']:,} games, {rec['worker_seconds'] / 3600:.2f} worker-hours of play; the "
        f"stability rule at margin ±{rec['margin']:g} points, each test at alpha "
        f"{rec['rule']['alpha']:.3g} (the error spent over the looks: moves shown with "
        f"{shown} intervals, equivalence tested on {equivalence} ones); "
        "`benchmarks/results/credibility.json`):",
        "",
        "| mode | verdict | games a deck | the players differ | how the games ended |",
        "| --- | --- | --- | --- | --- |",
    ]
    for mode, m in rec["modes"].items():
        differ = m.get("differ")
        differ_text = (
            "–"
            if not differ
            else f"{'yes' if differ['differ'] else 'not shown'} (p {differ['p_value']:.2g})"
        )
        lines.append(
            f"| {MODE_LABELS.get(mode, mode)} | **{m['verdict'] or 'not judged'}** | "
            f"{m.get('games_per_deck', '–'):,} | {differ_text} | {m['ended']} |"
        )
    lines += ["", f"| mode | deck | {a} | {b} | move {b} − {a} [{shown}] | deck's verdict |"]
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for mode, m in rec["modes"].items():
        for d, x in (m.get("decks") or {}).items():
            ra, rb = x["rates"]
            lines.append(
                f"| {MODE_LABELS.get(mode, mode)} | {d} | {_rate(ra)} | {_rate(rb)} | "
                f"{_pts(x['delta'])} [{_pts(x['delta_lo'])}, {_pts(x['delta_hi'])}] | "
                f"{x['verdict']} |"
            )
    t = rec.get("trace")
    if t:
        levels = ", ".join(str(x) for x in t["levels"])
        lines += [
            "",
            f"**Skill trace** (`sim/studies/credibility-trace.toml`: {t['player']} at "
            f"{t['setting']} {levels}, {t['games']:,} games; its two top levels: "
            f"{t['top_two_levels']}):",
            "",
            "| mode | 2N against N [95%] | balance depends on strength | slope, points per "
            "doubling [95%] |",
            "| --- | --- | --- | --- |",
        ]
        for mode, m in t["modes"].items():
            strength = "; ".join(
                f"{s['to']}/{s['from']} {_rate(s['rate'])} [{_rate(s['lo'])}, {_rate(s['hi'])}]"
                for s in m["strength"]
            )
            j = m["joint"]
            joint = (
                "–" if not j else f"{'yes' if j['depends'] else 'not shown'} (p {j['p_value']:.2g})"
            )
            slopes = ", ".join(
                f"{d} {_pts(x['slope'])} [{_pts(x['slope_lo'])}, {_pts(x['slope_hi'])}]"
                for d, x in m["decks"].items()
            )
            lines.append(f"| {MODE_LABELS.get(mode, mode)} | {strength} | {joint} | {slopes} |")
    lines.append(END)
    return "\n".join(lines)


def replace_block(text: str, block: str) -> str:
    """``text`` with its credibility block replaced (ValueError when it has none)."""
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        raise ValueError(f"the README has no {BEGIN} ... {END} block")
    return text[:i] + block + text[j + len(END) :]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--study", help="the credibility study's dataset")
    p.add_argument(
        "--from-record",
        default=None,
        help="re-render the README's block from this record instead of a dataset",
    )
    p.add_argument("--trace", default=None, help="its skill trace's dataset")
    p.add_argument("--out", default=str(RECORD), help="the record (default: %(default)s)")
    p.add_argument(
        "--readme", default=str(README), help="README to update (- prints the block instead)"
    )
    a = p.parse_args(argv)
    if a.from_record:
        try:
            rec = json.loads(pathlib.Path(a.from_record).read_text())
        except (OSError, ValueError) as e:
            print(f"credibility: error: cannot read {a.from_record}: {e}", file=sys.stderr)
            return 2
    elif not a.study:
        p.error("--study (a dataset) or --from-record (a record) is needed")
    else:
        command = "python -m benchmarks.credibility " + " ".join(
            sys.argv[1:] if argv is None else argv
        )
        rec = build_record(a.study, a.trace, command)
        pathlib.Path(a.out).write_text(json.dumps(rec, indent=1) + "\n")
    block = readme_block(rec)
    if a.readme == "-":
        print(block)
    else:
        path = pathlib.Path(a.readme)
        path.write_text(replace_block(path.read_text(), block))
    where = a.readme if a.from_record else a.out
    print(f"credibility: {rec['verdict']} -> {where}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
