"""The output of `kalarite suggest`: ``suggest.json`` (every number) and ``index.html`` (the
report's look): the goal, the base with its intervals and what was reached first; the ranked
table of edits (one-line card diff, effect per mode with its interval and where it comes
from, projected win share against the goal's range, status, checklist, side effects, the
compare page and the `kalarite play` command of the deal where the edit mattered most); the
race chart (each edit's interval round by round, eliminations marked); the refused edits;
the method with its error rates."""

import json
import pathlib
import shlex

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from results.report import CSS, esc, pct, table
from results.report.html import Cell
from results.shown import difference_text
from results.suggest.decision import DROP_CUT
from sim.app.cli_args import json_ready

TOP = 10  # edits in the first screen's table (every edit is in suggest.json and below)
TICK = {True: "✓", False: "✗", None: "?"}
EXTRA_CSS = "td.wrap{white-space:normal;min-width:16em;max-width:34em}td.wrap code{font-size:.9em}"


def play_command(goal, s: dict, content, race_player) -> str | None:
    """The `kalarite play` command of the deal where the edit moved the goal most: in its
    confirmation's games (the first confirming player) when it was replayed, else in the
    race's (the race's player)."""
    c = s.get("confirmation") or {}
    mm, player = c.get("most_mattered"), (c.get("players") or [None])[0]
    if not mm:
        mm, player = s.get("race_most_mattered"), race_player
    if not mm:
        return None
    parts = ["kalarite", "play", "--decks", f"{goal['deck']},{mm['opponent']}", "--mode",
             mm["mode"], "--seed", str(mm["seed"]), "--game", str(mm["game"]), "--policy",
             player, "--content", content]  # fmt: skip
    return " ".join(shlex.quote(x) for x in parts)


def compare_pages(result: dict, out: pathlib.Path, say=None):
    """The paired compare page of every replayed edit under each player (base vs edit on
    the same fresh deals), beside the step's datasets, and every edit's play command; both
    go into the result. ``say(text)``: which page is being written (a few seconds each)."""
    from results.compare import compare
    from results.report.compare_page import write_compare_page

    todo = [(s["cid"], p) for st in result["steps"] for s in st.get("suggestions", [])
            for p in (s.get("confirmation") or {}).get("players", [])]  # fmt: skip
    for step in result["steps"]:
        race_player = (step.get("race") or {}).get("player")
        for s in step.get("suggestions", []):
            s["play"] = play_command(result["goal"], s, s["content"], race_player)
            c = s.get("confirmation")
            if not c:
                continue
            pages = {}
            for p in c["players"]:
                where = out / f"step-{step['step']}" / "compare" / s["cid"] / _safe(p)
                if not (where / "index.html").is_file():
                    if say is not None:
                        i = todo.index((s["cid"], p)) + 1
                        say(f"the compare page of {s['cid']} under {p} ({i} of {len(todo)})")
                    r = compare(c["base_datasets"][p], c["datasets"][p])
                    write_compare_page(r, where)
                pages[p] = str((where / "index.html").relative_to(out))
            s["compare_pages"] = pages


def _safe(p) -> str:
    from sim.study import policy_label

    return policy_label(p)


def race_chart(path, race: dict, title: str):
    """Each edit's mean effect on the goal by round (grey), the ten best with their 95%
    intervals, and a cross where an edit was dropped (hollow: cut by the budget)."""
    arms = race["arms"]
    fig = Figure(figsize=(9, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    top = arms[:TOP]
    for a in arms:
        xs = [h["round"] + 1 for h in a["history"]]
        ys = [100 * h["mean"] for h in a["history"]]
        if a not in top:
            ax.plot(xs, ys, color="#a0aec0", lw=0.6, alpha=0.6)
        if a["dropped_round"] is not None and xs:
            cut = (a["reason"] or "").startswith(DROP_CUT)
            ax.plot(xs[-1], ys[-1], marker="x" if not cut else "o", ms=5,
                    color="#c53030" if not cut else "#718096",
                    mfc="none" if cut else None, ls="none")  # fmt: skip
    for k, a in enumerate(top):
        xs = [h["round"] + 1 + 0.04 * (k - len(top) / 2) for h in a["history"]]
        ys = [100 * h["mean"] for h in a["history"]]
        # no interval (every pair alike): no bar
        lo = [100 * (h["mean"] - h["lo"]) if h["lo"] is not None else 0 for h in a["history"]]
        hi = [100 * (h["hi"] - h["mean"]) if h["hi"] is not None else 0 for h in a["history"]]
        ax.errorbar(xs, ys, yerr=[lo, hi], lw=1.2, capsize=2, label=a["cid"])
    ax.axhline(0, color="#1a202c", lw=0.8)
    ax.set_xticks(range(1, max(2, len(race["rounds"]) + 1)))
    ax.set_xlabel("round (each doubles the games)")
    ax.set_ylabel("effect on the goal (points, paired)")
    ax.set_title(title, fontsize=10)
    if top:
        ax.legend(fontsize=7, ncol=2, loc="best")
    fig.savefig(path, dpi=110)


def _effects(s, modes, sep="; ") -> str:
    out = []
    for m in modes:
        e = (s.get("effect") or {}).get(m)
        if e is None:
            continue
        lo, hi = s["effect_lo"].get(m), s["effect_hi"].get(m)
        out.append(esc(f"{m}: {difference_text(e, lo, hi)}"))
    return sep.join(out)


def _projected(s, goal) -> str:
    lo, hi = goal["band"]
    out = []
    for m, v in (s.get("projected") or {}).items():
        if v is None:
            continue
        where = "in" if lo <= v <= hi else "below" if v < lo else "above"
        out.append(esc(f"{m}: {pct(v)} ({where})"))
    return "<br>".join(out)


def _checks(s) -> str:
    if not s.get("checklist"):
        return "–"
    return " ".join(TICK[c["ok"]] for c in s["checklist"] if c["item"] != "label")


def _headline(result) -> str:
    goal = result["goal"]
    status = result["status"]
    deck = goal["deck"]
    steps = result["steps"]
    if status == "met":
        return f"Nothing to suggest: {steps[0]['why']}."
    if status == "no edits":
        return "No edit of the grammar could be tried (every one refused or locked)."
    if result["stack"] and status == "reached":
        n = len(result["stack"])
        last = result["stack"][-1]
        proj = ", ".join(f"{m} {pct(v)}" for m, v in last["projected"].items())
        return (f"Reached with {n} edit{'s' * (n > 1)} (confirmed on fresh seeds): {deck} "
                f"projected at {proj} (point estimates; the intervals are below).")  # fmt: skip
    best = next((s for s in result["suggestions"] if s["status"] == "confirmed"), None)
    if best is None:
        return (f"No single edit is confirmed to move {deck} toward the goal: the best "
                "candidates of the race were replayed on fresh seeds and none cleared the "
                "confirmation test. The ranked list below is what the race saw.")  # fmt: skip
    eff = ", ".join(f"{m} {v * 100:+.1f} points" for m, v in best["effect"].items())
    n = len(result["stack"])
    stack = f" After {n} accepted edit{'s' * (n > 1)} the goal is still not met." if n else ""
    return (f"No single edit reaches the goal; the best confirmed edit moves {deck} {eff} "
            f"({best['edit']}).{stack}")  # fmt: skip


def _base_table(step, modes) -> str:
    """The base deck's win share per mode: the race's games, and each confirming player's
    fresh-seed games."""
    rows = []
    race = step.get("race")
    if race:
        src = [(f"race ({race['player']})", race["base"], "mean", "lo", "hi", "games")]
    else:
        src = [("first round", step["base_first_round"]["modes"], "mean", "lo", "hi", "games")]
    for p, m in step.get("confirm", {}).get("base", {}).items():
        src.append((f"fresh seeds ({p})", m, "base", "base_lo", "base_hi", "pairs"))
    for label, by_mode, k, lo, hi, n in src:
        cells = [Cell(esc(label), "l")]
        for mode in modes:
            v = by_mode.get(mode)
            cells.append(Cell("–" if v is None else
                              f"{pct(v[k])} [{pct(v[lo])}, {pct(v[hi])}]<br>"
                              f"<span class=note>{v[n]:,} games</span>"))  # fmt: skip
        rows.append(cells)
    return table(["games", *modes], rows, "Base: the deck's win share against the field (95%)")


def _table(result, step, rows) -> str:
    goal = result["goal"]
    modes = goal["modes"]
    body = []
    for s in rows:
        side = ""
        c = s.get("confirmation")
        if c:
            worst = min(c["cells"], key=lambda r: (r["effect"] or 0) * (r.get("weight") or 1))
            side = f"{worst['mode']} vs {worst['opponent']} {worst['effect'] * 100:+.1f}"
        links = []
        for p, path in (s.get("compare_pages") or {}).items():
            links.append(f'<a href="{esc(path)}">compare ({esc(p)})</a>')
        if s.get("play"):
            links.append(f"<code>{esc(s['play'])}</code>")
        screen = _effects(
            {"effect": s["screen_effect"], "effect_lo": s["screen_effect_lo"],
             "effect_hi": s["screen_effect_hi"]}, modes, "<br>",
        )  # fmt: skip
        body.append([
            Cell(str(s["rank"])),
            Cell(f"<code>{esc(s['edit'])}</code>", "l wrap"),
            Cell(_effects(s, modes, "<br>") + f"<br><span class=note>"
                 f"{esc(s['effect_source'])}</span>", "l"),
            Cell(screen + f"<br><span class=note>{s['screen_pairs']:,} pairs</span>", "l"),
            Cell(_projected(s, goal), "l"),
            Cell(esc(s["status"]), "l wrap"),
            Cell(_checks(s)),
            Cell(esc(side), "l"),
            Cell("<br>".join(links) or "–", "l wrap"),
        ])  # fmt: skip
    heads = [
        "#",
        "edit",
        "effect per mode (points, 95%)",
        "screening estimate",
        "projected win share",
        "status",
        "checklist",
        "largest side effect",
        "links",
    ]
    return table(heads, body, f"Step {step['step']}: edits in rank order", left=9)


def _checklists(rows) -> str:
    out = []
    for s in rows:
        if not s.get("checklist"):
            continue
        items = "".join(
            f"<li>{TICK[c['ok']]} <b>{esc(c['item'])}</b>: {esc(c['text'])}</li>"
            for c in s["checklist"]
        )
        out.append(f"<h3>{esc(s['cid'])}: <code>{esc(s['edit'])}</code></h3><ul>{items}</ul>")
    return "".join(out)


METHOD = """<p>Each edit is one change of the card grammar (sim/suggest/grammar.py), written as
its own copy of the card files, loaded and proved by the content loader, told apart from the
others by its compiled tables, and played by random players with the invariant checker.</p>
<p><b>Race (screening).</b> Every edit plays the base's deals (the same seeds: common random
numbers), round after round, each round doubling the games; where the screening player's
games are provably unchanged by an edit (the edited card never left the deck) they are not
played. After each complete round an edit is dropped when its paired difference from the
leader is surely negative, or it surely cannot move the goal by the smallest effect
(one-sided t bounds, Bonferroni over rounds, candidates and both rules: with probability at
least 1 − alpha neither the best edit nor one that reaches the smallest effect is dropped by
them), and otherwise the best half go on (sequential halving: a budget rule, its accuracy
measured by benchmarks/suggest_sim.py). Screening estimates of the winners are biased
upward (the winner's curse); the effects reported come from the confirmation.</p>
<p><b>Confirmation.</b> The finalists are replayed on fresh seeds under the two strongest
players, beside the base on the same deals; an edit is <i>confirmed</i> when under both
players its one-sided paired t-test in the goal's direction is significant at alpha divided
by the edits replayed (with no real effect anywhere a false confirmation happens in at most
alpha of the suggestions). A confirmed edit is a candidate for human playtesting, not a
verdict.</p>"""


def _players_line(result) -> str:
    """The players the suggestion rests on (an old suggest.json: its screening player)."""
    goal = result["goal"]
    return result.get("players_text") or f"screen {goal['screen_player']}"


def write_page(result, out: pathlib.Path) -> pathlib.Path:
    goal = result["goal"]
    parts = [f"<h1 class=top>kalarite suggest</h1><p><b>Goal:</b> {esc(result['goal_text'])}"
             f"; min effect {goal['min_effect'] * 100:g} points.</p><p><b>Players:</b> "
             f"{esc(_players_line(result))}.</p>"]  # fmt: skip
    parts.append(f"<div class=findings><p>{esc(_headline(result))}</p></div>")
    for step in result["steps"]:
        parts.append(f"<h2 id=step-{step['step']}>Step {step['step']}</h2>")
        parts.append(_base_table(step, goal["modes"]))
        parts.append(f"<p>{esc(step['why'])}.</p>")
        if result["stack"] and any(x["step"] == step["step"] for x in result["stack"]):
            acc = next(x for x in result["stack"] if x["step"] == step["step"])
            parts.append(f"<p><b>Accepted:</b> <code>{esc(acc['edit'])}</code> (content "
                         f"<code>{esc(acc['content'])}</code>)</p>")  # fmt: skip
        rows = step.get("suggestions", [])
        if not rows:
            continue
        race = step["race"]
        parts.append(
            f"<p>{step['generated']} edits in the goal's direction, {step['candidates']} raced "
            f"({len(step['refused'])} refused or not raced); the race ({esc(race['player'])}) "
            f"played {race['games']:,} games ({race['games_skipped']:,} edit games recorded "
            f"unchanged without playing: {'on' if race['skip'] else 'off for this player'}) "
            f"in {len(race['rounds'])} rounds and stopped: {esc(race['stop'])}.</p>"
        )
        parts.append(_table(result, step, rows[:TOP]))
        chart = out / f"race-step-{step['step']}.png"
        race_chart(chart, race, f"Race of step {step['step']}: {goal['deck']}")
        parts.append(f'<img src="{chart.name}" alt="race chart of step {step["step"]}">')
        parts.append(_checklists(rows[:TOP]))
        if len(rows) > TOP:
            parts.append(f"<details><summary>every edit ({len(rows)})</summary>"
                         + _table(result, step, rows) + "</details>")  # fmt: skip
        if step["refused"]:
            items = "".join(f"<li><code>{esc(r['edit']['line'])}</code>: {esc(r['reason'])}</li>"
                            for r in step["refused"])  # fmt: skip
            parts.append(f"<details><summary>refused or not raced ({len(step['refused'])})"
                         f"</summary><ul>{items}</ul></details>")  # fmt: skip
    parts.append(f"<h2 id=method>Method and error rates</h2>{METHOD}"
                 f"<p>alpha = {goal['alpha']}; games in all: {result['games']:,}.</p>")  # fmt: skip
    html = ("<!doctype html><html><head><meta charset=utf-8><title>kalarite suggest: "
            f"{esc(goal['deck'])}</title><style>{CSS}{EXTRA_CSS}</style></head><body>"
            + "".join(parts) + "</body></html>")  # fmt: skip
    index = out / "index.html"
    index.write_text(html, encoding="utf-8")
    return index


def write_outputs(result: dict, out, say=None) -> dict:
    """Compare pages, suggest.json, the race charts and index.html under ``out``;
    ``say(text)``: the part being written."""
    out = pathlib.Path(out)
    compare_pages(result, out, say)
    if say is not None:
        say("suggest.json, the race charts and index.html")
    clean = json_ready(result)
    for step in clean["steps"]:
        step.pop("checks", None)
    js = out / "suggest.json"
    tmp = out / ".suggest.json.tmp"
    tmp.write_text(json.dumps(clean, indent=1, allow_nan=False) + "\n")
    tmp.replace(js)
    index = write_page(clean, out)
    return {"json": js, "index": index}
