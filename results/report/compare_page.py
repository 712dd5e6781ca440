"""The compare page: ``index.html`` (self-contained, the report's look) and its PNG plots,
from the dict of ``results.compare.compare``: what changed (cards side by side, ops as a
line diff), the significant differences first, the paired analysis with how much narrower
its intervals are, then every table (titled from results/parts.py)."""

import base64
import json
import pathlib

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from results.analysis.labels import MODE_LABELS
from results.analysis.stability_text import mode_text, move, points
from results.compare.changes import format_changes
from results.compare.paired_text import PAIRED_TITLES, diff_interval, pairs_by_matchup
from results.compare.stability import KINDS
from results.parts import compare_tables
from results.report import plots
from results.report.html import CSS, Cell, diff_cell, esc, pct, prose, table

SECTIONS = (
    ("studies", "Studies"),
    ("players", "How the games ended · player stability"),
    ("stability", "Stable, player-sensitive or undetermined between A and B"),
    ("changes", "What changed"),
    ("significant", "Significant differences"),
    ("paired", "Paired analysis"),
    ("tables", "Every comparison"),
    ("method", "Method"),
)
EXTRA_CSS = """
.diff{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;background:#f7fafc;
border:1px solid #cbd5e0;padding:.5em .8em;overflow-x:auto;max-width:100%;box-sizing:border-box}
.diff .add{color:#22543d;background:#c6f6d5}.diff .del{color:#742a2a;background:#fed7d7}
.card{margin:.8em 0 1.2em}
"""


def paired_forest(path, title, rows):
    """Each paired difference with its paired interval (thick) and, below it, the unpaired
    interval of the same games (thin): the gain of pairing at a glance."""
    n = len(rows)
    fig = Figure(figsize=(8, max(2.2, 0.42 * n + 1.5)), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    for k, r in enumerate(rows):
        d = r["diff"]
        y = n - 1 - k
        if not d:
            continue
        colour = plots.RED if r["significant"] else plots.BLUE
        if d["unpaired_lo"] is not None:
            ax.plot([d["unpaired_lo"], d["unpaired_hi"]], [y - 0.18] * 2, color=plots.GREY, lw=1)
        if d["lo"] is not None:  # (none: the same change in every pair)
            ax.plot([d["lo"], d["hi"]], [y, y], color=colour, lw=3)
        ax.plot([d["diff"]], [y], "o", color=colour, ms=5)
    ax.axvline(0, color=plots.GREY, lw=1, ls="--")
    ax.set_yticks(range(n)[::-1], [r["label"] for r in rows], fontsize=8)
    ax.set_ylim(-0.8, n - 0.3)
    share = all(r["diff"]["share"] for r in rows if r["diff"])
    if share:
        lo, hi = ax.get_xlim()
        digits = 1 if hi - lo < 0.05 else 0
        ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:+.{digits}f}")
    ax.set_xlabel(
        ("B − A (percentage points)" if share else "B − A")
        + "; thick: 95% paired CI (red: significant); thin: unpaired",
        fontsize=9,
    )
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.savefig(path, dpi=plots.DPI)


def _players(lists) -> str:
    return "; ".join(" vs ".join(p) if len(p) > 1 else f"{p[0]} (every seat)" for p in lists or [])


PAIRED_SHORT = {
    "matchups": "paired: matchup score share",
    "first_player": "paired: first mover score share",
    "turns": "paired: turns per game",
}


def _holm(row) -> float:
    p = row["diff"].get("p_holm")
    return 1.0 if p is None else p


def _p(x) -> str:
    """A p-value; one that underflows to 0 is below the smallest double."""
    return "< 1e-300" if x == 0 else f"{x:.2g}"


def _diff_ci(d, share) -> str:
    """A paired difference and its interval, the bounds printed so that they agree with the
    significance beside them (results.shown)."""
    return f"{_v(d['diff'], share)} {diff_interval(d, share)}"


def _where(side: dict) -> str:
    """How the page names a study: its dataset's directory (its id in the service)."""
    return side.get("path") or f"study {side.get('id', '?')}"


def _v(x, share, signed=True):
    if x is None:
        return "–"
    if share:
        return f"{100 * x:+.1f}" if signed else pct(x)
    return f"{x:+.2f}" if signed else f"{x:.2f}"


class _Page:
    def __init__(self, result, out: pathlib.Path):
        self.r = result
        self.out = out
        self.parts = []
        self.pngs = []

    def w(self, *chunks):
        self.parts.extend(chunks)

    def img(self, name, draw, *args, alt=""):
        path = self.out / f"{name}.png"
        draw(path, *args)
        self.pngs.append(path)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        self.w(f'<img src="data:image/png;base64,{data}" alt="{esc(alt or name)}">')

    def h2(self, sid):
        self.w(f'<section id="{sid}"><h2>{esc(dict(SECTIONS)[sid])}</h2>')

    def header(self):
        a, b = self.r["a"], self.r["b"]
        name = self.r.get("title") or f"{b['name']} vs {a['name']}"
        self.w(
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>kalarite comparison — {esc(name)}</title>",
            f"<style>{CSS}{EXTRA_CSS}</style></head><body>",
            f"<h1>Comparison: {esc(name)}</h1>",
            f"<p class='note'>B = {esc(_where(b))} against A (the baseline) = "
            f"{esc(_where(a))}.</p>",
        )
        if self.r.get("nothing_to_compare"):
            self.w(f'<div class="banner">Nothing to compare: {prose(self.r["reason"])}.</div>')
            return
        for text in self.r.get("unchecked", []):
            self.w(f'<div class="banner" id="banner-unchecked">⚠ {prose(text)}</div>')
        warning = (self.r.get("players") or {}).get("warning")
        if warning:
            self.w(f'<div class="banner">⚠ {prose(warning)}.</div>')
        if self.r.get("false_positives_only"):
            self.w(f'<div class="banner">⚠ {prose(self.r["false_positive_note"])}.</div>')
        self.w(
            "<nav><ul>",
            *[f'<li><a href="#{sid}">{esc(t)}</a></li>' for sid, t in SECTIONS],
            "</ul></nav>",
        )

    def studies(self):
        self.h2("studies")
        a, b = self.r["a"], self.r["b"]
        keys = (
            ("path", "dataset"),
            ("name", "study name"),
            ("games", "games analyzed"),
            ("seed", "study seed"),
            ("decks", "decks"),
            ("modes", "modes"),
            ("games_per_matchup", "games per matchup"),
            ("policies", "players"),
            ("content_hash", "content hash"),
            ("content_dir", "card files"),
            ("engine_hash", "engine hash"),
        )
        rows = []
        for k, label in keys:
            va, vb = a.get(k), b.get(k)
            if k == "content_dir":
                va, vb = va or "installed", vb or "installed"
            if k == "policies":
                va, vb = _players(va), _players(vb)
            if k == "games":
                va, vb = f"{va:,}", f"{vb:,}"
            if k in ("decks", "modes"):
                va, vb = ", ".join(va or []), ", ".join(vb or [])
            rows.append([label, str(va), str(vb)])
        self.w(table(["", "A (baseline)", "B"], rows, "The two studies.", left=3))
        named = self.r.get("differences") or []
        self.w(f"<p>Differs in: <b>{esc(', '.join(named) or 'nothing')}</b>.</p>")
        self.w(*[f"<p class='note'>{esc(n)}</p>" for n in self.r.get("notes", [])])
        self.w("</section>")

    def players(self):
        """How each study's compared games ended, and its player stability."""
        self.h2("players")
        pl = self.r.get("players") or {}
        self.w(
            "<p class='note'>A balance difference needs games that reach their goal: when most "
            "games end because a deck ran out, or tied on points and decided by tie-breakers "
            "(random players end nearly every game so), a difference describes the players "
            "more than the cards. Player stability: whether a study's deck win rates and "
            "verdicts against the field hold between its top two players (the report's first "
            "screen: stable, player-sensitive naming the decks, or undetermined).</p>"
        )
        rows = []
        for side in "ab":
            for e in pl.get(side, {}).get("decisiveness", []):
                target, mean = e["score_target"], e["mean_winning_score"]
                score = "–" if mean is None else f"{mean:.1f}" + (f" of {target}" if target else "")
                rows.append(
                    [
                        side.upper(),
                        f"{MODE_LABELS.get(e['mode'], e['mode'])} · "
                        + e["players"].replace("-vs-", " vs "),
                        f"{e['games']:,}",
                        pct(e["by_score"]),
                        Cell(esc(pct(e["by_deck"])), "flag" if e["weak"] else ""),
                        Cell(esc(pct(e["tie_on_points"])), "flag" if e["weak"] else ""),
                        score,
                        Cell("⚠ weak play", "sig") if e["weak"] else "ok",
                    ]
                )
        if rows:
            self.w(
                table(
                    [
                        "study",
                        "games of",
                        "games",
                        "reached the score target",
                        "a deck ran out",
                        "tied on points",
                        "mean winning score",
                        "",
                    ],
                    rows,
                    "How the compared games ended, per study.",
                    left=2,
                )
            )
        rows = [
            [
                side.upper(),
                MODE_LABELS.get(e["mode"], e["mode"]),
                e["verdict"],
                e["text"].split(": ", 1)[1],
            ]
            for side in "ab"
            for e in pl.get(side, {}).get("stability", [])
        ]
        if rows:
            self.w(
                table(
                    ["study", "mode", "player stability", "why"],
                    rows,
                    "Is each study's answer stable under stronger play?",
                    left=4,
                )
            )
        self.w("</section>")

    def stability(self):
        """The stability rule between A and B (results/compare/stability.py)."""
        self.h2("stability")
        self.w(stability_html(self.r.get("stability")), "</section>")

    def changes(self):
        self.h2("changes")
        ch = self.r.get("changes") or {}
        content = ch.get("content")
        if ch.get("deck_map"):
            pairs = ", ".join(f"{b} = {a}" for b, a in ch["deck_map"].items())
            self.w(f"<p>B's decks read as A's: <b>{esc(pairs)}</b>.</p>")
        if "content_hashes" in ch and content is None:
            self.w("<p>The content differs, but the card data of one study are not recorded.</p>")
        if content:
            for c in content["cards_changed"]:
                self._card(c)
            for key, label in (
                ("cards_added", "Cards only in B"),
                ("cards_removed", "Cards only in A"),
                ("decks_added", "Decks only in B"),
                ("decks_removed", "Decks only in A"),
                ("tasks_changed", "Tasks changed"),
                ("tasks_added", "Tasks only in B"),
                ("tasks_removed", "Tasks only in A"),
            ):
                if content[key]:
                    self.w(f"<p><b>{esc(label)}</b>: {esc(', '.join(content[key]))}</p>")
        other = format_changes({k: v for k, v in ch.items() if k != "content"})
        other = [x for x in other if not x.startswith(("content:", "  ", "decks of B"))]
        if other:
            self.w("<ul>", *[f"<li>{esc(x)}</li>" for x in other], "</ul>")
        if not content and not other:
            self.w("<p>No setting that changes the games differs.</p>")
        self.w("</section>")

    def _card(self, c):
        name = c["card"] if c["card"] == c["card_b"] else f"{c['card']} → {c['card_b']}"
        self.w(
            f"<div class='card'><h3>{esc(name)}</h3><p>changed: {esc(', '.join(c['fields']))}</p>"
        )
        if "pattern" in c:
            a = "\n".join(c["pattern"]["a"] or [])
            b = "\n".join(c["pattern"]["b"] or [])
            self.w(
                table(
                    ["pattern in A", "pattern in B"],
                    [[Cell(f"<pre>{esc(a)}</pre>"), Cell(f"<pre>{esc(b)}</pre>")]],
                    "The summoning pattern (row 0 = north).",
                    left=2,
                )
            )
        for key, label in (("ops", "ops"), ("ops_lower", "ops of the lower half")):
            if c.get(key):
                lines = []
                for row in c[key]:
                    cls = "add" if row.startswith("+") else "del" if row.startswith("-") else ""
                    lines.append(f'<span class="{cls}">{esc(row)}</span>' if cls else esc(row))
                self.w(
                    f"<p>{esc(label)} (− A, + B):</p>",
                    f"<pre class='diff'>{'<br>'.join(lines)}</pre>",
                )
        for key in ("name", "rank", "description", "flare"):
            if key in c:
                self.w(f"<p>{esc(key)}: {esc(c[key]['a'])} → <b>{esc(c[key]['b'])}</b></p>")
        self.w("</div>")

    def _all_rows(self):
        """(section, row, paired?) of every comparison."""
        p = self.r.get("paired") or {}
        for name, rows in (p.get("tables") or {}).items():
            for row in rows:
                yield PAIRED_SHORT[name], row, True
        titles = compare_tables()
        for name, rows in self.r["tables"].items():
            for row in rows:
                yield titles[name][1], row, False

    def significant(self):
        self.h2("significant")
        sig = [(t, r, paired) for t, r, paired in self._all_rows() if r["significant"]]
        sig.sort(key=lambda x: (_holm(x[1]), -abs(x[1]["diff"]["diff"])))
        if not sig:
            self.w("<p>No significant difference (Holm-adjusted p < 0.05 within each table).</p>")
            self.w("</section>")
            return
        rows = []
        for title, r, paired in sig:
            d = r["diff"]
            share = d.get("share", True)
            if paired:
                a, b = _v(r["a_mean"], share, False), _v(r["b_mean"], share, False)
                cell = Cell(
                    esc(_diff_ci(d, share)),
                    "sig",
                )
                n = f"{r['pairs']:,} pairs"
            else:
                a, b = pct(r["a"]["rate"]), pct(r["b"]["rate"])
                cell = diff_cell(d)
                n = f"{r['a']['n']:,} / {r['b']['n']:,}"
            rows.append([r["label"], title, a, b, cell, _p(d["p_holm"]), n])
        self.w(
            table(
                ["what", "measure", "A", "B", "B − A [95% CI]", "Holm p", "n"],
                rows,
                "Every significant difference, the most significant first (paired rows: "
                "percentage points of score share; others: of the rate).",
                left=2,
            )
        )
        self.w("</section>")

    def paired(self):
        self.h2("paired")
        p = self.r.get("paired") or {}
        which = pairs_by_matchup(p)
        if which:
            self.w("<p class='note'>" + "<br>".join(esc(x.strip()) for x in which) + "</p>")
        if not p.get("paired"):
            self.w(f"<p>Not paired: {esc(p.get('why_not', 'no games pair up'))}.</p></section>")
            return
        ratio = p.get("median_width_ratio")
        self.w(
            f"<p>{p['pairs']:,} games of B pair up with a game of A (dealt from the same "
            f"seed). Test: {esc(p['method'])}.</p>"
        )
        if ratio:
            self.w(
                f"<p><b>The paired intervals are {ratio:.2f} times as wide as the unpaired "
                f"ones</b> (median over the rows): as precise as two independent studies "
                f"{1 / ratio**2:.1f} times as large.</p>"
            )
        if p.get("identical_rows"):
            self.w(
                f"<p class='note'>{p['identical_rows']} row(s) are identical in every pair: the "
                "change never came into play in those games.</p>"
            )
        for name, rows in p["tables"].items():
            if not rows:
                continue
            ordered = sorted(rows, key=lambda r: not r["significant"])
            body = []
            for r in ordered:
                d = r["diff"]
                if not d:
                    body.append([r["label"], f"{r['pairs']:,}", "–", "–", "–", "–"])
                    continue
                share = d["share"]
                if r.get("identical"):
                    body.append(
                        [r["label"], f"{r['pairs']:,}", "identical in every pair", "", "", ""]
                    )
                    continue
                body.append(
                    [
                        r["label"],
                        f"{r['pairs']:,}",
                        f"{_v(r['a_mean'], share, False)} → {_v(r['b_mean'], share, False)}",
                        Cell(
                            esc(
                                _diff_ci(d, share)
                                + (f" (Holm p {_p(d['p_holm'])})" if r["significant"] else "")
                            ),
                            "sig" if r["significant"] else "",
                        ),
                        f"[{_v(d['unpaired_lo'], share)}, {_v(d['unpaired_hi'], share)}]",
                        "–" if d["width_ratio"] is None else f"{d['width_ratio']:.2f}",
                    ]
                )
            self.w(
                f"<h3>{esc(PAIRED_TITLES[name])}</h3>",
                table(
                    ["", "pairs", "A → B", "B − A [95% paired CI]", "unpaired CI", "width ratio"],
                    body,
                    "Significant rows first.",
                ),
            )
            drawn = [r for r in ordered if r["diff"] and not r.get("identical")][:40]
            if not drawn:
                continue
            self.img(
                f"paired-{name}",
                paired_forest,
                PAIRED_SHORT[name] + " (significant first)",
                drawn,
                alt=f"paired differences: {name}",
            )
        self.w("</section>")

    def tables(self):
        self.h2("tables")
        self.w(
            "<p class='note'>Independent-samples comparisons: B − A with its 95% Newcombe "
            "interval, score test, Holm within each table; significant rows first.</p>"
        )
        for name, rows in self.r["tables"].items():
            if not rows:
                continue
            ordered = sorted(rows, key=lambda r: not r["significant"])
            body = [
                [
                    r["label"] + (f" (only in {r['only_in']})" if r.get("only_in") else ""),
                    f"{pct(r['a']['rate'])} (n={r['a']['n']:,})",
                    f"{pct(r['b']['rate'])} (n={r['b']['n']:,})",
                    diff_cell(r["diff"]),
                ]
                for r in ordered
            ]
            n_sig = sum(r["significant"] for r in rows)
            self.w(
                f"<h3>{esc(compare_tables()[name][0])}: {n_sig} of {len(rows)} significant</h3>",
                table(["", "A", "B", "B − A [95% CI]"], body, "Significant rows first."),
            )
        self.w("</section>")

    def method(self):
        self.h2("method")
        rows = [[k, str(v)] for k, v in self.r["methods"].items()]
        p = self.r.get("paired") or {}
        if p.get("method"):
            rows.append(["paired", p["method"]])
        self.w(table(["what", "method"], rows, "Intervals and tests (95%).", left=2), "</section>")

    def build(self) -> str:
        self.header()
        if self.r.get("nothing_to_compare"):
            self.studies()
            self.w("</body></html>")
            return "\n".join(self.parts)
        self.studies()
        self.players()
        self.stability()
        self.changes()
        self.significant()
        self.paired()
        self.tables()
        self.method()
        self.w("</body></html>")
        return "\n".join(self.parts)


def write_compare_page(result: dict, out) -> dict:
    """Write index.html, its PNG plots and compare.json into ``out``; returns the paths."""
    out = pathlib.Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OSError(f"cannot create {str(out)!r}: {e.strerror or e}") from None
    for old in out.glob("paired-*.png"):
        old.unlink()
    page = _Page(result, out)
    html = page.build()
    index = out / "index.html"
    index.write_text(html, encoding="utf-8")
    js = out / "compare.json"
    js.write_text(json.dumps(result, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    return {"index": index, "json": js, "plots": page.pngs}


def stability_html(block: dict | None) -> str:
    """The compare page's section: per mode the verdict line and each deck's move."""
    if not block:
        return "<p>Not computed.</p>"
    parts = [
        f"<p class='note'>Between A and B ({esc(KINDS[block['kind']])}): each deck's move "
        "B − A of its win rate against the field (mirror matches left out), in points, with "
        "its 95% interval (standard error stratified by deck pairing, paired game by game "
        "where A and B were dealt the same games, else never narrower than the tables' "
        f"Newcombe interval of the same win rates). <b>Stable</b>: every deck's 90% interval "
        f"within ±{block['margin']:g} points; <b>player-sensitive</b>: some deck's move "
        "confidently beyond it (Holm over the decks); else <b>undetermined</b>, with the "
        "games a deck would need (the same rule as a report's first screen, "
        "results/analysis/stability.py).</p>"
    ]
    if block.get("why"):
        return "\n".join([*parts, f"<p>Not judged: {esc(block['why'])}.</p>"])
    for mode, m in block["modes"].items():
        label = MODE_LABELS.get(mode, mode)
        parts.append(f"<p><b>{esc(label)}</b>: {esc(mode_text(m))}.</p>")
        for c in m.get("comparisons", []):
            rows = []
            for deck, x in c["decks"].items():
                cls = {"player-sensitive": "sig", "undetermined": "flag"}.get(x["verdict"], "")
                rows.append(
                    [
                        deck,
                        f"{100 * x['rates'][0]:.1f}%",
                        f"{100 * x['rates'][1]:.1f}%",
                        move(x),
                        points(x["within_lo"], x["within_hi"]),
                        Cell(esc(x["verdict"]), cls),
                        f"{x['games_needed']:,}" if x.get("games_needed") else "–",
                    ]
                )
            a, b = c["from_to"]
            parts.append(
                table(
                    ["deck", a, b, "B − A [95%]", "90% interval", "verdict", "games a deck"],
                    rows,
                    f"{esc(label)}: {esc(a)} → {esc(b)}, {c['games']:,} games a deck.",
                    left=1,
                )
            )
    if block["judged"]:
        parts.append(f"<p>Between the studies: <b>{esc(block['verdict'])}</b>.</p>")
    return "\n".join(parts)
