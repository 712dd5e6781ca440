"""The credibility study's record and the README's decided table, from its datasets: the
study (sim/studies/credibility.toml, played ``--until decided``) and its skill trace
(sim/studies/credibility-trace.toml).

    python -m benchmarks.credibility --study runs/credibility --trace runs/credibility-trace \
        --aa runs/aa-seer-41 runs/aa-seer-42

writes ``benchmarks/results/credibility.json`` (the record the report's first screen reads:
results/credibility.py) and replaces the README's block between ``<!-- credibility:begin -->``
and ``<!-- credibility:end -->`` with the decided table: per mode the verdict, the players,
the games a deck, the smallest move found with 80% power, the seat edge (the first mover's
share under the top player and its move between the two, decided by the same rule:
results/analysis/seat_edge.py), how the games ended and where the study stopped; per deck
each player's win rate against the field and its move with its interval; the High Form tasks
under the top player (claim rate when shown, the claimer's win rate); and the trace's
strength and deck figures; with ``--aa`` the seat edge between the top player's two A/A
studies (``seat_edge_aa``). The record also keeps each mode's first-screen lines
(results/analysis/first_screen.py). ``--out`` and ``--readme`` write elsewhere
(``--readme -`` prints the block).

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
from results.analysis.seat_edge import decide_edge, first_mover, pair
from results.analysis.stability import ALPHA, detectable_move
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


SHARE_KEYS = ("rate", "lo", "hi", "n")


def _share(wr) -> dict | None:
    return None if not wr else {k: wr.get(k) for k in SHARE_KEYS}


def _seat_edge_record(edge) -> dict | None:
    """The seat edge of a mode (results/analysis/seat_edge.py): each player's first-mover
    share and the move's verdict between them."""
    if not edge:
        return None
    out = {"top": edge["top"], "shares": {p: _share(w) for p, w in edge["shares"].items()}}
    keys = ("players", "verdict", "delta", "delta_lo", "delta_hi", "se", "paired", "games")
    keys += ("games_needed", "detectable", "margin", "alpha", "p_beyond", "p_within")
    return out | {k: edge.get(k) for k in keys}


def _tasks_record(summary, player) -> dict | None:
    """High Form tasks under ``player`` (its self-play group): each task's claim rate when
    shown and the claimer's win rate, with intervals, and its easy/hard flag."""
    group = next(
        (
            g
            for g in summary["groups"]
            if g["mode"] == "high-form" and g["symmetric"] and g["policies"][0] == player
        ),
        None,
    )
    tasks = summary.get("tasks") or {}
    tg = next((x for x in tasks.get("groups", []) if group and x["group"] == group["id"]), None)
    if not tg:
        return None
    rows = []
    for r in tg["tasks"]:
        rows.append(
            {
                "task": r["task"],
                "claimed_given_shown": _share(r.get("claimed_given_shown")),
                "claim_rate": _share(r["claim_rate"]),
                "claimer_win_rate": _share((r.get("claimer") or {}).get("win_rate")),
                "points": (r.get("points") or {}).get("mean"),
                "flag": "easy" if r.get("easy") else "hard" if r.get("hard") else None,
            }
        )
    return {
        "player": player,
        "games": tg["games"],
        "display_recorded": tasks.get("display_recorded"),
        "easy_threshold": tasks.get("easy_threshold"),
        "hard_threshold": tasks.get("hard_threshold"),
        "tasks": rows,
    }


def seat_edge_aa(run_a, run_b) -> dict:
    """The seat edge between two studies of the same player on two seeds (an A/A: its move
    should be stable, never player-sensitive), per mode: each study's first-mover share and
    the move's verdict, unpaired (other deals) at the rule's 5%."""
    sa, sb = analyze(run_a), analyze(run_b)
    out = {"studies": [str(run_a), str(run_b)], "modes": {}}
    for mode in dict.fromkeys(g["mode"] for g in sa["groups"]):
        (player,) = pair(sa, mode)[-1:] or [None]
        ra = first_mover(sa, mode, player) if player else None
        rb = first_mover(sb, mode, player) if player else None
        if not (ra and rb):
            continue
        edge = decide_edge(ra, rb, None, sa["stability"]["margin"], ALPHA)
        out["modes"][mode] = {
            "player": player,
            "shares": [_share(ra["win_rate"]), _share(rb["win_rate"])],
        } | {k: edge[k] for k in ("verdict", "delta", "delta_lo", "delta_hi", "detectable")}
    return out


def _mode_record(summary, mode) -> dict:
    sens = summary["stability"]["modes"][mode]
    dec = (summary.get("decisiveness") or {}).get(mode)
    fs = summary["at_a_glance"]["first_screen"]
    screen = next((m for m in fs["modes"] if m["mode"] == mode), None)
    out = {
        "verdict": sens.get("verdict"),
        "ended": how_games_ended(dec),
        "seat_edge": _seat_edge_record(fs["seat_edge"].get(mode)),
        "first_screen": None
        if not screen
        else {
            "lines": [d["line"] for d in screen["decks"]],
            **{k: screen[k] for k in ("rests_on", "power", "seat_edge")},
        },
    }
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
        "detectable": round(
            detectable_move(
                max(x["se"] for x in c["decks"].values()),
                c["margin"],
                c["alpha"],
                len(c["decks"]),
                max(x.get("continuity") or 0.0 for x in c["decks"].values()),
            ),
            2,
        ),
        "decks": {
            d: {
                k: x.get(k)
                for k in (
                    "delta",
                    "delta_lo",
                    "delta_hi",
                    "se",
                    "verdict",
                    "rates",
                    "p_beyond_holm",
                    "games_needed",
                )
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


def build_record(study_dir, trace_dir=None, command=None, top_two_dir=None) -> dict:
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
    top = next((e["top"] for e in s["at_a_glance"]["first_screen"]["seat_edge"].values()), None)
    rec["tasks"] = _tasks_record(s, top) if top else None
    if trace_dir:
        t = analyze(trace_dir)
        rec["trace"] = _trace_record(t)
        if rec["trace"]:
            rec["trace"]["worker_seconds"] = worker_seconds(read_manifest(trace_dir))
    if top_two_dir and rec["trace"]:
        rec["trace"]["top_two"] = top_two_record(top_two_dir)
        rec["trace"]["top_two_levels"] = rec["trace"]["top_two"]["verdict"]
    return rec


def top_two_record(run_dir) -> dict:
    """The trace's top two levels decided apart (sim/studies/trace-top-two.toml: the two
    widest budgets, each in self-play, shared deals, until the stability rule decides): the
    verdict, the look it stopped at, its cost, and per mode each deck's move from the lower
    level to the higher one with its own verdict."""
    m = read_manifest(run_dir)
    s = analyze(run_dir, allow_incomplete=True)
    looks = s.get("looks") or {}
    stopped = looks.get("stopped") or {}
    played = s["data"]["games"]
    if m.get("status") != "complete" and not stopped and looks.get("results"):
        # stopped by hand before deciding: read at its last look, at that look's error
        stopped = looks["results"][-1]
        s = analyze(
            run_dir, allow_incomplete=True, max_games=stopped["games"], alpha=stopped["alpha"]
        )
    modes = {}
    for mode in dict.fromkeys(g["mode"] for g in s["groups"]):
        r = _mode_record(s, mode)
        modes[mode] = {
            k: r.get(k) for k in ("verdict", "players", "games_per_deck", "ended", "decks")
        }
    return {
        "study": s["run"]["name"],
        "players": list(dict.fromkeys(p[0] for p in m["study"]["policies"])),
        "verdict": s["stability"]["verdict"],
        "look": stopped.get("look"),
        "why": stopped.get("why"),
        "games": s["data"]["games"],
        "games_played": played,
        "complete": m.get("status") == "complete",
        "next_look_games": _next_look_games(looks, stopped, s["data"]["games"]),
        "worker_seconds": worker_seconds(m),
        "modes": modes,
    }


def _next_look_games(looks, stopped, games) -> int | None:
    """The games the study holds at its next look (None when it decided or was at its cap)."""
    if stopped.get("decided") or not looks.get("looks"):
        return None
    after = [n for n in looks["looks"] if n > (stopped.get("games") or 0)]
    return games * after[0] // stopped["games"] if after and stopped.get("games") else None


def _pts(x) -> str:
    return "–" if x is None else f"{x:+.1f}"


def _rate(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _share_text(s) -> str:
    if not s or s.get("rate") is None:
        return "–"
    return f"{100 * s['rate']:.1f}% [{100 * s['lo']:.1f}, {100 * s['hi']:.1f}]"


def seat_edge_cell(e) -> str:
    """The first mover's share under the top player; the move's verdict between the two."""
    if not e:
        return "–"
    text = _share_text(e["shares"].get(e["top"]))
    if e.get("verdict"):
        text += (
            f"; {_pts(e['delta'])} [{_pts(e['delta_lo'])}, {_pts(e['delta_hi'])}] "
            f"**{e['verdict']}** (80% power at {e['detectable']:.1f} points)"
        )
    return text


def tasks_line(t) -> str | None:
    """High Form tasks under the top player in one paragraph: each task's claim rate when
    shown and the claimer's win rate, with 95% intervals, easy/hard where the interval says."""
    if not t or not t.get("tasks"):
        return None
    key = "claimed_given_shown" if t.get("display_recorded") else "claim_rate"
    parts = []
    for x in t["tasks"]:
        if not (x.get(key) or {}).get("n"):
            continue
        flag = f" **{x['flag']}**" if x.get("flag") else ""
        parts.append(
            f"{x['task']} {_share_text(x[key])}, {_share_text(x['claimer_win_rate'])}{flag}"
        )
    when = "when shown" if key == "claimed_given_shown" else "per game"
    return (
        f"**High Form tasks under the {t['player']}** ({t['games']:,} games; each task: claimed "
        f"{when} [95%], then the claimer's win rate in those games [95%], an association, not "
        f"a cause; **easy** where the claim rate's interval lies above "
        f"{100 * t['easy_threshold']:.0f}%, **hard** where below "
        f"{100 * t['hard_threshold']:.0f}%): " + "; ".join(parts) + "."
    )


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
        "| mode | verdict | games a deck | a deck's move found with 80% power | the players "
        f"differ | the first mover's share under the {b} [95%]; its move {b} − {a} "
        f"[{shown}] | how the games ended |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for mode, m in rec["modes"].items():
        differ = m.get("differ")
        differ_text = (
            "–"
            if not differ
            else f"{'yes' if differ['differ'] else 'not shown'} (p {differ['p_value']:.2g})"
        )
        power = "–" if m.get("detectable") is None else f"{m['detectable']:.1f} points"
        lines.append(
            f"| {MODE_LABELS.get(mode, mode)} | **{m['verdict'] or 'not judged'}** | "
            f"{m.get('games_per_deck', '–'):,} | {power} | {differ_text} | "
            f"{seat_edge_cell(m.get('seat_edge'))} | {m['ended']} |"
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
    tasks = tasks_line(rec.get("tasks"))
    if tasks:
        lines += ["", tasks]
    t = rec.get("trace")
    if t:
        levels = ", ".join(str(x) for x in t["levels"])
        lines += [
            "",
            f"**Skill trace** (`sim/studies/credibility-trace.toml`: {t['player']} at "
            f"{t['setting']} {levels}, {t['games']:,} games; its two top levels: "
            f"{top_two_text(t)}):",
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


def top_two_text(t: dict) -> str:
    """The trace's top two levels in one clause: the trace's own verdict, or the study that
    played them until decided (its verdict, its look and cost, each mode's decks that moved)."""
    tt = t.get("top_two")
    if not tt:
        return str(t["top_two_levels"])
    hours = tt["worker_seconds"] / 3600
    parts = []
    for mode, m in tt["modes"].items():
        moved = [
            f"{d} {_pts(x['delta'])} [{_pts(x['delta_lo'])}, {_pts(x['delta_hi'])}]"
            for d, x in (m.get("decks") or {}).items()
            if x.get("verdict") and x["verdict"] != "undetermined" and x["verdict"] != "stable"
        ]
        stable = [d for d, x in (m.get("decks") or {}).items() if x.get("verdict") == "stable"]
        open_ = [
            f"{d} {_pts(x['delta'])} [{_pts(x['delta_lo'])}, {_pts(x['delta_hi'])}]"
            + (
                f" (decided at about {x['games_needed']:,} games a deck)"
                if x.get("games_needed")
                else ""
            )
            for d, x in (m.get("decks") or {}).items()
            if x.get("verdict") == "undetermined"
        ]
        bits = [f"**{m['verdict']}**"]
        if m.get("ended"):
            bits.append(f"games ended: {m['ended']}")
        if moved:
            bits.append("moved: " + ", ".join(moved))
        if stable:
            bits.append("stable: " + ", ".join(stable))
        if open_:  # each one's move, and the games a deck that would decide it at that move
            bits.append("not yet known: " + ", ".join(open_))
        parts.append(f"{MODE_LABELS.get(mode, mode)} " + "; ".join(bits))
    stop = f"stopped at look {tt['look']}"
    if "cap" in (tt.get("why") or ""):
        stop += ", its cap, with a mode undecided"
    if not tt.get("complete") and tt.get("next_look_games"):
        stop = (
            f"read at look {tt['look']} of an unfinished run ({tt['games_played']:,} games "
            f"played); its next look needs {tt['next_look_games']:,}"
        )
    return (
        f"**{tt['verdict']}** when played apart (`sim/studies/trace-top-two.toml`, "
        f"{' and '.join(tt['players'])}, {tt['games']:,} games, {hours:.2f} worker-hours, "
        f"{stop}): " + " / ".join(parts)
    )


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
    p.add_argument(
        "--top-two",
        default=None,
        help="the trace's top two levels played until decided (sim/studies/trace-top-two.toml)",
    )
    p.add_argument(
        "--aa",
        nargs=2,
        default=None,
        metavar=("A", "B"),
        help="the top player's A/A datasets (two seeds): their seat edge is recorded beside it",
    )
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
        rec = build_record(a.study, a.trace, command, a.top_two)
        if a.aa:
            rec["seat_edge_aa"] = seat_edge_aa(*a.aa)
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
