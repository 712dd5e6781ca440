"""The balance report of a study: ``index.html`` (one self-contained file, plots embedded as
PNG data), the plots as PNG files, and ``summary.json`` (every number shown: the dict of
``results.analysis.analyze``). See results/REPORT.md for what each section means."""

import base64
import html
import json
import pathlib
import re

from results import analysis, plots
from results import decisiveness as decisiveness_section
from results import sensitivity as sensitivity_section
from results.findings import findings_html, key_findings
from results.stats import METHODS, SMALL_SAMPLE, flip

SECTIONS = (
    ("overview", "Study"),
    ("warnings", "Warnings and missing data"),
    ("decisiveness", "Decisiveness: how the games were decided"),
    ("matchups", "Matchup matrix"),
    ("deck-vs-field", "Deck vs field"),
    ("first-player", "First-player advantage"),
    ("game-length", "Game length"),
    ("end-reasons", "End reasons"),
    ("tasks", "High Form tasks"),
    ("cards", "Cards"),
    ("deathmatch", "Deathmatch: points by source"),
    ("policies", "Policies (players)"),
    ("sensitivity", "Policy sensitivity"),
    ("multiplayer", "Multiplayer: melee and team play"),
    ("method", "Method"),
)
SMALL_MARK = "†"

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:0 auto;
max-width:1500px;padding:0 1.2em 3em;color:#1a202c;line-height:1.4;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%;margin:.6em 0 1.2em}.scroll>table{margin:0}
.scroll td:first-child,.scroll th:first-child{position:sticky;left:0;z-index:1;
background:#fff;box-shadow:1px 0 0 #cbd5e0}.scroll th:first-child{background:#edf2f7}
.scroll td.flag:first-child{background:#fefcbf}.scroll td.sig:first-child{background:#fed7d7}
td,th{overflow-wrap:normal}pre{margin:0}
.findings{background:#f0fff4;border-left:5px solid #2f855a;padding:.4em 1.2em;margin:1em 0}
.findings li{margin:.2em 0}
h1{margin-top:.8em}h2{border-bottom:2px solid #cbd5e0;padding-bottom:.2em;margin-top:2em}
h3{margin-top:1.4em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.86em}
th,td{border:1px solid #cbd5e0;padding:.25em .5em;text-align:right;vertical-align:top;
white-space:nowrap}th{white-space:normal}
th{background:#edf2f7}td.l,th.l{text-align:left}
caption{caption-side:top;text-align:left;font-size:.92em;color:#4a5568;padding:.2em 0}
.flag{background:#fefcbf;font-weight:600}.sig{background:#fed7d7;font-weight:600}
.small{color:#a0aec0}.note{color:#4a5568;font-size:.92em}
.banner{background:#c53030;color:#fff;padding:1em 1.2em;font-size:1.15em;font-weight:700;
border-radius:6px;margin:1em 0}
.warn{background:#fefcbf;border-left:5px solid #d69e2e;padding:.6em 1em;margin:.6em 0}
.missing{background:#ebf8ff;border-left:5px solid #3182ce;padding:.6em 1em;margin:.6em 0}
img{max-width:100%;height:auto;display:block;margin:.6em 0}
nav ul{columns:3;font-size:.92em}code{background:#edf2f7;padding:0 .2em}
"""


# --- formatting ------------------------------------------------------------------------------


def esc(x) -> str:
    return html.escape(str(x), quote=True)


def pct(x, digits=1) -> str:
    """A share in percent; small shares get more decimals (0.04%, not 0.0%)."""
    if x is None:
        return "–"
    if abs(x) < 5e-9:
        return "0%"
    if abs(x) < 0.01:
        digits = max(digits, 2 if abs(x) >= 0.001 else 3)
    return f"{100 * x:.{digits}f}%"


def num(x, digits=2) -> str:
    if x is None:
        return "–"
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:.{digits}f}"


def interval(r, digits=1) -> str:
    if not r or r.get("lo") is None:
        return ""
    return f" [{pct(r['lo'], digits)}, {pct(r['hi'], digits)}]"


class Cell:
    """A table cell: escaped html and an optional css class."""

    def __init__(self, text="", cls=""):
        self.html = text
        self.cls = cls


def rate_cell(r, flag_half=False, show_n=True, flag_key="excludes_half") -> Cell:
    """A proportion with its interval and n; ``flag_half`` highlights an interval that
    excludes 50% (with ``flag_key="excludes_share"``: that excludes the fair share)."""
    if not r or r.get("rate") is None:
        return Cell("–" + (" (n=0)" if show_n else ""), "small")
    txt = pct(r["rate"]) + interval(r)
    if show_n:
        txt += f" n={r['n']:,}"
    cls = ""
    if r.get("small"):
        txt += " " + SMALL_MARK
        cls = "small"
    if flag_half and r.get(flag_key):
        txt += " *"
        cls = "flag"
    if r.get("significant") and flag_half:
        cls = "sig"
    return Cell(esc(txt), cls)


def diff_cell(d) -> Cell:
    if not d:
        return Cell("–", "small")
    txt = f"{100 * d['diff']:+.1f} pts"
    if d.get("lo") is not None:
        txt += f" [{100 * d['lo']:+.1f}, {100 * d['hi']:+.1f}]"
    cls = "small" if d.get("small") else ""
    if d.get("small"):
        txt += " " + SMALL_MARK
    if d.get("significant"):
        cls = "sig"
        ph = d.get("p_holm")
        txt += " (Holm p" + ("=?" if ph is None else " < 1e-300" if ph == 0 else f"={ph:.2g}") + ")"
    return Cell(esc(txt), cls)


def mean_cell(m, digits=2) -> Cell:
    if not m or m.get("mean") is None:
        return Cell("–", "small")
    txt = num(m["mean"], digits)
    if m.get("lo") is not None:
        txt += f" [{num(m['lo'], digits)}, {num(m['hi'], digits)}]"
    return Cell(esc(txt), "small" if m.get("small") else "")


def record_cells(rec, flag=True) -> list:
    """Win rate [CI], W-L-D, draw rate."""
    if not rec:
        return [Cell("–", "small"), Cell("–", "small"), Cell("–", "small")]
    return [
        rate_cell(rec["win_rate"], flag_half=flag),
        Cell(esc(f"{rec['wins']:,}–{rec['losses']:,}–{rec['draws']:,}")),
        rate_cell(rec["draw_rate"], show_n=False),
    ]


def share_record_cells(rec) -> list:
    """A multiplayer record: win rate [CI] flagged against the fair share, W–L–shared, shared
    rate."""
    if not rec:
        return [Cell("–", "small"), Cell("–", "small"), Cell("–", "small")]
    return [
        rate_cell(rec["win_rate"], flag_half=True, flag_key="excludes_share"),
        Cell(esc(f"{rec['wins']:,}–{rec['losses']:,}–{rec['draws']:,}")),
        rate_cell(rec["draw_rate"], show_n=False),
    ]


def _policy_list(p) -> str:
    """A study's policy list: one spec for every seat, or one per seat."""
    return f"{p[0]} (every seat)" if len(p) == 1 else " vs ".join(p)


def table(headers, rows, caption, left=1) -> str:
    """``rows``: lists of Cell or str (escaped here); the first ``left`` columns align left."""
    cells = [c for row in rows for c in row if isinstance(c, Cell)]
    if any("small" in c.cls.split() or SMALL_MARK in c.html for c in cells):
        caption += (
            f" {SMALL_MARK} marks a small sample: a number resting on fewer than "
            f"{SMALL_SAMPLE} trials."
        )
    out = ['<div class="scroll"><table>', f"<caption>{caption}</caption>"]
    if any(headers):
        out.append("<thead><tr>")
        for i, h in enumerate(headers):
            out.append(f'<th class="{"l" if i < left else ""}">{esc(h)}</th>')
        out.append("</tr></thead>")
    out.append("<tbody>")
    for row in rows:
        out.append("<tr>")
        for i, c in enumerate(row):
            if not isinstance(c, Cell):
                c = Cell(esc(c))
            cls = " ".join(x for x in (c.cls, "l" if i < left else "") if x)
            out.append(f'<td class="{cls}">{c.html}</td>' if cls else f"<td>{c.html}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")  # wide tables scroll in their box, not the page
    return "\n".join(out)


def rests_on(games, what="games", extra="") -> str:
    small = f" — <b>small sample</b> (fewer than {SMALL_SAMPLE})" if games < SMALL_SAMPLE else ""
    return f"Rests on {games:,} {esc(what)}{small}.{(' ' + esc(extra)) if extra else ''}"


def _slug(text) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")


# --- the report ------------------------------------------------------------------------------


class _Builder:
    def __init__(self, summary, out: pathlib.Path):
        self.s = summary
        self.out = out
        self.groups = analysis.group_index(summary)
        self.pngs = []
        self.parts = []

    def w(self, *chunks):
        self.parts.extend(chunks)

    def img(self, name, draw, *args, alt=""):
        path = self.out / f"{_slug(name)}.png"
        draw(path, *args)
        self.pngs.append(path)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        self.w(f'<img src="data:image/png;base64,{data}" alt="{esc(alt or name)}">')

    def h2(self, sid):
        title = dict(SECTIONS)[sid]
        self.w(f'<section id="{sid}"><h2>{esc(title)}</h2>')

    def end(self):
        self.w("</section>")

    def glabel(self, gid):
        return self.groups[gid]["label"]

    # --- sections

    def header(self):
        run = self.s["run"]
        name = run["name"] or pathlib.Path(run["path"]).name
        self.w(
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>kalarite balance report — {esc(name)}</title>",
            f"<style>{CSS}</style></head><body>",
            f"<h1>Balance report: {esc(name)}</h1>",
        )
        if self.s["data"]["beings_without_effects"]:
            self.w(
                '<div class="banner" id="banner-beings-without-effects">⚠ Beings without '
                "effects: this study dealt beings whose effect is not implemented yet as "
                "beings with no effect. These results are NOT those of the real game.</div>"
            )
        for w in self.s["warnings"]:
            if w["severe"] and w["kind"] != "beings_without_effects":
                self.w(f'<div class="banner">⚠ {esc(w["text"])}</div>')
        self.w("<nav><ul>")
        for sid, title in SECTIONS:
            self.w(f'<li><a href="#{sid}">{esc(title)}</a></li>')
        self.w("</ul></nav>")

    def overview(self):
        self.h2("overview")
        run, data, st = self.s["run"], self.s["data"], self.s["run"]["study"]
        rows = [
            ["dataset", run["path"]],
            ["study name", st.get("name", "")],
            ["status", run["status"]],
            ["modes", ", ".join(st.get("modes", []))],
            ["deck pairings", ", ".join(" vs ".join(x) for x in st.get("decks", []))],
            ["policy pairings", ", ".join(_policy_list(x) for x in st.get("policies", []))],
            ["games per matchup", f"{st.get('games', 0):,}"],
            ["study seed", st.get("seed")],
            ["turn cap", st.get("turn_cap")],
            ["beings without effects", "YES" if data["beings_without_effects"] else "no"],
            ["engine", f"{run['engine_version']} (engine hash {run['engine_hash']})"],
            ["content hash", run["content_hash"]],
            ["played", f"{run['created']} – {run['completed']}"],
            ["games in the dataset", f"{data['games']:,} of {data['games_expected']:,}"],
            ["games analyzed", f"{data['games_analyzed']:,}"],
            *(
                [
                    ["of which two-seat games", f"{data['games_two_seat']:,}"],
                    ["of which games of 3 or 4 seats", f"{data['games_multi_seat']:,}"],
                ]
                if data.get("games_multi_seat")
                else []
            ),
            ["games with an engine error (left out)", f"{data['games_error']:,}"],
            ["games with an incomplete event log", f"{data['games_log_lost']:,}"],
        ]
        self.w(table(["", ""], rows, rests_on(data["games_analyzed"]), left=2))
        grows = [
            [
                g["label"],
                g["mode"],
                " vs ".join(g["policies"]),
                ", ".join(g["decks"]),
                f"{g['matchups']:,}",
                f"{g['games']:,}",
            ]
            for g in self.s["groups"]
        ]
        if grows:
            self.w(
                "<p class='note'>Every section is given per <b>group</b>: one game mode and one "
                "pairing of policies (players).</p>",
                table(
                    ["group", "mode", "policies", "decks", "matchups", "games"],
                    grows,
                    rests_on(data["games_two_seat"]),
                    left=4,
                ),
            )
        mp = self.s["multiplayer"]["groups"]
        if mp:
            mrows = [
                [
                    g["label"],
                    g["mode"],
                    str(g["n_players"]),
                    " / ".join(g["seat_policies"]),
                    ", ".join(g["decks"]),
                    f"{g['matchups']:,}",
                    f"{g['games']:,}",
                ]
                for g in mp
            ]
            self.w(
                "<p class='note'>Games of three or four seats have their own section, "
                "<a href='#multiplayer'>Multiplayer</a>, per <b>multiplayer group</b>: one "
                "mode, one seat count and one list of seat policies. The sections before it "
                "are about two-seat games only.</p>",
                table(
                    [
                        "multiplayer group",
                        "mode",
                        "seats",
                        "seat policies",
                        "decks",
                        "matchups",
                        "games",
                    ],
                    mrows,
                    rests_on(self.s["multiplayer"]["games"]),
                    left=5,
                ),
            )
        self.end()

    def no_two_seat(self) -> bool:
        """End a two-seat section with nothing to show (a study of games of 3 or 4 seats
        only); True when it did."""
        if self.s["groups"]:
            return False
        self.w(
            "<p>This study has no two-seat games (High Form, Deathmatch, New Player): see "
            "<a href='#multiplayer'>Multiplayer</a>.</p>"
        )
        self.end()
        return True

    def warnings(self):
        self.h2("warnings")
        ws = self.s["warnings"]
        if not ws:
            self.w("<p>No warnings: every game was played to its end with every card's effect.</p>")
        for w in ws:
            self.w(f'<div class="warn"><b>{esc(w["kind"])}</b>: {esc(w["text"])}</div>')
        for m in self.s["missing_data"]:
            self.w(
                f'<div class="missing"><b>Missing data — {esc(m["what"])}</b>: '
                f"{esc(m['text'])}</div>"
            )
        self.end()

    def matchups(self):
        self.h2("matchups")
        if self.no_two_seat():
            return
        self.w(
            "<p class='note'>Win rate of the row deck over decisive games (draws — shared wins "
            "— are left out of it and shown as the draw rate), with its 95% Wilson interval. "
            "<span class='flag'>*</span> the interval excludes 50%; "
            "<span class='sig'>red</span>: also significant after Holm's correction over the "
            f"matchups of the group; {SMALL_MARK}: fewer than {SMALL_SAMPLE} decisive games. A "
            "mirror match of one policy against itself has no side: it shows the first mover's "
            "results.</p>"
        )
        for m in self.s["matchups"]:
            g = self.groups[m["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>", f"<p class='note'>{esc(m['perspective'])}.</p>")
            self.img(
                f"matchups-{g['id']}",
                plots.matchup_matrix,
                g["label"],
                m["decks"],
                m["cells"],
                m["perspective"],
            )
            rows = []
            for c in m["cells"]:
                label = f"{c['deck']} vs {c['opp_deck']}"
                if c["mirror"]:
                    label += " (mirror: first mover)"
                comb = c["combined"]
                rows.append(
                    [label, *record_cells(comb)]
                    + [rate_cell(_wr(c["first"]), True), rate_cell(_wr(c["second"]), True)]
                    + [f"{comb['games']:,}"]
                )
            self.w(
                table(
                    [
                        "matchup (row vs column)",
                        "win rate, both orders [95% CI]",
                        "W–L–D",
                        "draw rate",
                        "row deck first",
                        "row deck second",
                        "games",
                    ],
                    rows,
                    rests_on(m["games"]),
                )
            )
        self.end()

    def field(self):
        self.h2("deck-vs-field")
        if self.no_two_seat():
            return
        for f in self.s["deck_vs_field"]:
            g = self.groups[f["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>", f"<p class='note'>{esc(f['note'])}.</p>")
            if not f["rows"]:
                self.w("<p>No matches between different decks in this group.</p>")
                continue
            rows = [
                [r["deck"], *record_cells(r["combined"]), f"{r['combined']['games']:,}"]
                for r in f["rows"]
            ]
            self.w(
                table(
                    ["deck", "win rate vs field [95% CI]", "W–L–D", "draw rate", "games"],
                    rows,
                    rests_on(f["games"]),
                )
            )
            self.img(
                f"field-{g['id']}",
                plots.forest,
                f"{g['label']}: deck vs field",
                [
                    (
                        r["deck"] + played_by(g),
                        *_est(r["combined"]["win_rate"]),
                        None,
                        f"n={r['combined']['win_rate']['n']}",
                    )
                    for r in f["rows"]
                ],
                "win rate against the other decks (95% Wilson)",
            )
        self.end()

    def first_player(self):
        self.h2("first-player")
        if self.no_two_seat():
            return
        self.w(
            "<p class='note'>The first player alternates between the seats (game index "
            "parity). First-mover win rate over decisive games; per deck: the deck's win rate "
            "against the other decks when it moves first and when it moves second, and the "
            "difference (95% Newcombe interval, score test, Holm over the decks).</p>"
        )
        rows = []
        for f in self.s["first_player"]:
            rows.append(
                [self.glabel(f["group"]), *record_cells(f["first_mover"]), f"{f['games']:,}"]
            )
        total = sum(f["games"] for f in self.s["first_player"])
        self.w(
            table(
                ["group", "first mover win rate [95% CI]", "W–L–D", "draw rate", "games"],
                rows,
                rests_on(total),
            )
        )
        for f in self.s["first_player"]:
            g = self.groups[f["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            mrows = [
                [
                    m["matchup"],
                    m["policies"],
                    *record_cells(m["first_mover"]),
                    f"{m['first_mover']['games']:,}",
                ]
                for m in f["matchups"]
            ]
            self.w(
                table(
                    [
                        "matchup",
                        "policies",
                        "first mover win rate [95% CI]",
                        "W–L–D",
                        "draw rate",
                        "games",
                    ],
                    mrows,
                    rests_on(f["games"]),
                    left=2,
                )
            )
            if f["per_deck"]:
                drows = [
                    [
                        r["deck"],
                        rate_cell(_wr(r["first"]), True),
                        rate_cell(_wr(r["second"]), True),
                        diff_cell(r["first_minus_second"]),
                    ]
                    for r in f["per_deck"]
                ]
                n = sum(
                    (r["first"] or {}).get("games", 0) + (r["second"] or {}).get("games", 0)
                    for r in f["per_deck"]
                )
                self.w(
                    table(
                        [
                            "deck (vs field)",
                            "win rate moving first",
                            "win rate moving second",
                            "first minus second",
                        ],
                        drows,
                        rests_on(n, "deck-games (mirror matches left out)"),
                    )
                )
                prow = []
                for r in f["per_deck"]:
                    deck = r["deck"] + played_by(g)
                    prow.append((f"{deck} first", *_est(_wr(r["first"])), plots.BLUE, None))
                    prow.append((f"{deck} second", *_est(_wr(r["second"])), plots.ORANGE, None))
                prow.insert(
                    0, ("all: first mover", *_est(f["first_mover"]["win_rate"]), plots.RED, None)
                )
                self.img(
                    f"first-player-{g['id']}",
                    plots.forest,
                    f"{g['label']}: win rate moving first vs second",
                    prow,
                    "win rate (decisive games, 95% Wilson)",
                )
        self.end()

    def game_length(self):
        self.h2("game-length")
        if self.no_two_seat():
            return
        for gl in self.s["game_length"]:
            g = self.groups[gl["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>")

            def qrow(label, q, extra=()):
                return [
                    label,
                    *extra,
                    mean_cell(q["mean"], 1),
                    num(q["sd"], 1),
                    q["min"],
                    num(q["p10"], 1),
                    num(q["median"], 1),
                    num(q["p90"], 1),
                    q["max"],
                    f"{q['games']:,}",
                ]

            heads = ["", "mean [95% CI]", "sd", "min", "p10", "median", "p90", "max", "games"]
            self.w(
                table(
                    heads,
                    [qrow("turns", gl["turns"]), qrow("actions", gl["actions"])],
                    rests_on(gl["games"]),
                )
            )
            mrows = []
            for m in gl["matchups"]:
                mrows.append(qrow(m["matchup"], m["turns"], (m["policies"], "turns")))
                mrows.append(qrow(m["matchup"], m["actions"], (m["policies"], "actions")))
            self.w(
                table(
                    ["matchup", "policies", "", *heads[1:]],
                    mrows,
                    rests_on(gl["games"], extra="Per matchup."),
                    left=3,
                )
            )
            self.img(
                f"length-{g['id']}", plots.histograms, f"{g['label']}: game length", gl["histogram"]
            )
        self.end()

    def end_reasons(self):
        self.h2("end-reasons")
        if self.no_two_seat():
            return
        self.w(
            "<p class='note'>Why games ended: <b>score reached</b> (a seat reached the target "
            "score), <b>deck exhausted</b> (a seat drew its last being card), <b>turn cap</b> "
            "(the study's turn limit). Shares with 95% Wilson intervals.</p>"
        )
        for e in self.s["end_reasons"]:
            g = self.groups[e["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            labels = [analysis.END_LABELS.get(r, r) for r in e["reasons"]]
            rows = [
                [
                    "all matchups",
                    "",
                    *[rate_cell(e["overall"]["reasons"][r], show_n=False) for r in e["reasons"]],
                    f"{e['overall']['games']:,}",
                ]
            ]
            for m in e["matchups"]:
                rows.append(
                    [
                        m["matchup"],
                        m["policies"],
                        *[rate_cell(m["reasons"][r], show_n=False) for r in e["reasons"]],
                        f"{m['games']:,}",
                    ]
                )
            self.w(
                table(["matchup", "policies", *labels, "games"], rows, rests_on(e["games"]), left=2)
            )
            bars = [("all", e["overall"]["reasons"])] + [
                (seats_label(m["matchup"], m["policies"]), m["reasons"]) for m in e["matchups"]
            ]
            self.img(
                f"end-reasons-{g['id']}",
                plots.end_reasons,
                f"{g['label']}: end reasons",
                e["reasons"],
                analysis.END_LABELS,
                bars,
            )
        self.end()

    def tasks(self):
        self.h2("tasks")
        if self.no_two_seat():
            return
        t = self.s["tasks"]
        shown = t["display_recorded"]
        if shown:
            self.w(
                f"<p class='note'>{esc(t['note'])} Marked <i>hard</i>: shown, and claimed in "
                f"fewer than {pct(t['hard_threshold'], 0)} of the games it was shown (upper "
                "end of the 95% Wilson interval); <i>easy</i>: claimed in more than "
                f"{pct(t['easy_threshold'], 0)} of the games it was shown (lower end of the "
                "interval). Both are for the players of the group: weak players make every "
                "task look hard.</p>"
            )
        else:
            self.w(f'<div class="missing"><b>Task display not recorded.</b> {esc(t["note"])}</div>')
        if not t["groups"]:
            self.w("<p>This study has no High Form games.</p>")
        self.multi_note()
        for tg in t["groups"]:
            g = self.groups[tg["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            extra = ""
            if shown:
                extra = (
                    f" Tasks shown per game: {esc(num(tg['shown_per_game']['mean']))} "
                    "(3 available and the next task, more when tasks are claimed)."
                )
            self.w(
                f"<p>{tg['claims']:,} tasks claimed in {tg['games']:,} games: "
                f"{esc(num(tg['claims_per_game']['mean']))} per game; "
                f"games without any claim: {esc(pct(tg['games_without_claim']['rate']))}"
                f"{esc(interval(tg['games_without_claim']))}.{extra}</p>"
            )
            lists = []
            if shown:
                lists += [
                    ("Never shown", tg["never_shown"]),
                    ("Shown but never claimed", tg["shown_never_claimed"]),
                    (
                        f"Hard (claimed in fewer than {pct(t['hard_threshold'], 0)} of the "
                        "games shown)",
                        tg["hard"],
                    ),
                    (
                        f"Easy (claimed in more than {pct(t['easy_threshold'], 0)} of the "
                        "games shown)",
                        tg["easy"],
                    ),
                ]
            else:
                lists += [
                    ("Never claimed", tg["never_claimed"]),
                    (
                        f"Claimed in fewer than {pct(t['rare_threshold'], 0)} of games",
                        tg["rarely_claimed"],
                    ),
                ]
            for label, names in lists:
                if names:
                    self.w(f"<p><b>{esc(label)}</b> ({len(names)}): {esc(', '.join(names))}.</p>")
            if shown and tg["easy"] == []:
                self.w(
                    f"<p>No task is claimed in more than {pct(t['easy_threshold'], 0)} of the "
                    "games it was shown.</p>"
                )
            if shown and tg["claimed_not_shown"]:
                self.w(
                    f'<div class="warn"><b>inconsistent data</b>: {tg["claimed_not_shown"]} '
                    "claims of a task that tasks_shown does not mark as shown.</div>"
                )
            if not tg["all_tasks_listed"]:
                self.w(
                    "<p class='note'>Only tasks claimed at least once are listed (the "
                    "content changed since the study).</p>"
                )
            heads = ["task"]
            if shown:
                heads += ["games shown [95% CI]"]
            heads += ["claims", "claim rate per game [95% CI]"]
            if shown:
                heads += ["claim rate given shown [95% CI]"]
            per = "per {} seat-game" + ("; given shown" if shown else "")
            heads += [f"by {d} ({per.format(d)})" for d in tg["decks"]]
            heads += [f"by {p}" + ("; given shown" if shown else "") for p in tg["policies"]]
            heads += ["points", "claim turn: median (p10–p90)", "mean turn [95% CI]"]
            rows = []
            for r in tg["tasks"]:
                if shown:
                    flag = next(
                        (
                            f" ({w})"
                            for w, on in (
                                ("never shown", r["never_shown"]),
                                ("shown, never claimed", r["shown_never_claimed"]),
                                ("hard", r["hard"]),
                                ("easy", r["easy"]),
                            )
                            if on
                        ),
                        "",
                    )
                else:
                    flag = (
                        " (never claimed)"
                        if r["never_claimed"]
                        else (" (rare)" if r["rarely_claimed"] else "")
                    )
                row = [Cell(esc(r["task"] + flag), "flag" if flag else "")]
                if shown:
                    sh = r["shown"]
                    c = rate_cell(sh, show_n=False)
                    row.append(Cell(f"{sh['k']:,}: " + c.html, c.cls))
                row += [f"{r['claims']:,}", rate_cell(r["claim_rate"], show_n=False)]
                if shown:
                    row.append(rate_cell(r["claimed_given_shown"], show_n=False))

                def both(per_game, given):
                    c = rate_cell(per_game, show_n=False)
                    if given is None:
                        return c
                    gc_ = rate_cell(given, show_n=False)
                    return Cell(f"{c.html}<br><span class='note'>{gc_.html}</span>", c.cls)

                row += [
                    both(r["by_deck"][d], r["by_deck_given_shown"][d] if shown else None)
                    for d in tg["decks"]
                ]
                row += [
                    both(r["by_policy"][p], r["by_policy_given_shown"][p] if shown else None)
                    for p in tg["policies"]
                ]
                pts = r["points"]
                row.append(
                    "–"
                    if not pts
                    else (str(pts["min"]) if pts["min"] == pts["max"] else num(pts["mean"]))
                )
                tr = r["turn"]
                row.append(
                    "–"
                    if not tr
                    else f"{num(tr['median'], 1)} ({num(tr['p10'], 1)}–{num(tr['p90'], 1)})"
                )
                row.append(mean_cell(tr["mean"], 1) if tr else Cell("–", "small"))
                rows.append(row)
            seat_games = ", ".join(f"{d}: {n:,}" for d, n in tg["deck_seat_games"].items())
            self.w(table(heads, rows, rests_on(tg["games"], extra=f"Seat-games: {seat_games}.")))
            self.img(f"tasks-{g['id']}", plots.tasks, f"{g['label']}: tasks", tg["tasks"], shown)
        self.end()

    def cards(self):
        self.h2("cards")
        if self.no_two_seat():
            return
        c = self.s["cards"]
        self.w(
            f'<div class="missing"><b>Association, not causation.</b> {esc(c["note"])}</div>',
            "<p class='note'>Per card: the share of the seat-games that could hold it (a "
            "deck's cards: the seat-games of that deck; legends and flares: every seat-game) "
            "in which it was drawn, played, discarded (discard action) or returned (to the "
            "bottom of its deck after a discard action). Win rates over decisive games; the "
            "difference has a 95% Newcombe interval and is marked when significant after "
            "Holm's correction over the cards of the table.</p>",
        )
        self.multi_note()
        for cg in c["groups"]:
            self.w(f"<h3>{esc(cg['label'])}</h3>")
            rows = []
            for r in cg["cards"]:
                gw = r["games_with"]
                rows.append(
                    [
                        Cell(
                            esc(r["card"])
                            + (
                                f"<br><span class='note'>{esc(r['name'])}</span>"
                                if r["name"] != r["card"]
                                else ""
                            )
                        ),
                        f"{r['seat_games']:,}",
                        pct(gw["drawn"]["rate"]),
                        pct(r["played"]["rate"]),
                        pct(gw["discarded"]["rate"]),
                        pct(gw["returned"]["rate"]),
                        rate_cell(r["when_played"]["win_rate"]),
                        rate_cell(r["when_not_played"]["win_rate"]),
                        diff_cell(r["played_minus_not"]),
                    ]
                )
            self.w(
                table(
                    [
                        "card",
                        "seat-games",
                        "drawn",
                        "played",
                        "discarded",
                        "returned",
                        "win rate when played",
                        "when not played",
                        "difference",
                    ],
                    rows,
                    rests_on(cg["games"], extra=f"{cg['seat_games']:,} seat-games."),
                )
            )
            if cg["cards"]:
                self.img(
                    f"cards-{cg['group']}" + (f"-{cg['side']}" if cg["side"] else ""),
                    plots.cards,
                    cg["label"],
                    cg["cards"],
                )
        self.end()

    def deathmatch(self):
        self.h2("deathmatch")
        if self.no_two_seat():
            return
        dm = self.s["deathmatch"]
        if not dm["groups"]:
            self.w("<p>This study has no Deathmatch games.</p>")
        labels = dm["labels"]
        for dg in dm["groups"]:
            g = self.groups[dg["group"]]
            self.w(
                f"<h3>{esc(g['label'])}</h3>",
                "<p class='note'>Mean points per game of a deck (seat-game) by source, with "
                "95% t intervals, and each source's share of all points scored.</p>",
            )
            heads = ["deck", "score"] + [labels[s] for s in dm["sources"]] + ["seat-games"]
            rows = []
            for r in [{"deck": "all decks", "policy": None} | dg["overall"], *dg["decks"]]:
                label = r["deck"] + (f" ({r['policy']})" if r.get("policy") else "")
                row = [label, mean_cell(r["score"])]
                for s in dm["sources"]:
                    src = r["sources"][s]
                    cell = mean_cell(src["per_game"])
                    cell.html += (
                        esc(f" · {pct(src['share'], 0)}") if src["share"] is not None else ""
                    )
                    row.append(cell)
                row.append(f"{r['seat_games']:,}")
                rows.append(row)
            self.w(table(heads, rows, rests_on(dg["games"])))
            bars = [("all decks", dg["overall"])] + [
                (r["deck"] + (f" ({r['policy']})" if r.get("policy") else ""), r)
                for r in dg["decks"]
            ]
            self.img(
                f"deathmatch-{g['id']}",
                plots.points_by_source,
                f"{g['label']}: points by source",
                dm["sources"],
                labels,
                bars,
            )
        self.end()

    def policies(self):
        self.h2("policies")
        if self.no_two_seat():
            return
        p = self.s["policies"]
        self.w(
            f"<p class='note'>{esc(p['note'])}. Win rate of the first-named policy over "
            "decisive games with its 95% Wilson interval; Holm over the pairings of a mode."
            "</p>"
        )
        if not p["several"]:
            self.w(
                "<p>This study has a single policy per mode: see the first-player section "
                "for its self-play.</p>"
            )
        for m in p["modes"]:
            self.w(f"<h3>{esc(analysis.MODE_LABELS.get(m['mode'], m['mode']))}</h3>")
            rows = []
            for x in m["pairings"]:
                if x["self_play"]:
                    rec = [
                        Cell(
                            "self-play: first mover " + rate_cell(x["first"]["win_rate"], True).html
                        ),
                        "",
                        "",
                    ]
                else:
                    rec = record_cells(x["record"])
                rows.append(
                    [
                        x["policy"],
                        x["opponent"],
                        *rec,
                        rate_cell(_wr(x["first"]), True),
                        rate_cell(_wr(x["second"]), True),
                        f"{x['games']:,}",
                    ]
                )
            n = sum(x["games"] for x in m["pairings"])
            self.w(
                table(
                    [
                        "policy",
                        "opponent",
                        "win rate [95% CI]",
                        "W–L–D",
                        "draw rate",
                        "moving first",
                        "moving second",
                        "games",
                    ],
                    rows,
                    rests_on(n),
                    left=2,
                )
            )
            if len(m["policies"]) > 1:
                cells = {}
                for x in m["pairings"]:
                    if x["self_play"]:
                        cells[(x["policy"], x["policy"])] = x["first"]["win_rate"]
                    else:
                        cells[(x["policy"], x["opponent"])] = x["record"]["win_rate"]
                        cells[(x["opponent"], x["policy"])] = flip(x["record"])["win_rate"]
                self.img(
                    f"policies-{m['mode']}",
                    plots.policy_matrix,
                    f"{analysis.MODE_LABELS.get(m['mode'], m['mode'])}: policy vs policy",
                    m["policies"],
                    cells,
                )
        self.end()

    def multi_note(self):
        """The one line saying that a two-seat-only section leaves games of 3-4 seats out."""
        mp = self.s["multiplayer"]
        if mp["groups"]:
            self.w(f"<p class='note'>{esc(mp['cards_note'])}</p>")

    def multiplayer(self):
        self.h2("multiplayer")
        mp = self.s["multiplayer"]
        if not mp["groups"]:
            self.w("<p>This study has no games of three or four seats (melee, team play).</p>")
            self.end()
            return
        self.w(
            f"<p class='note'>{esc(mp['note'])} Each win rate has its 95% Wilson interval; "
            "<span class='flag'>*</span> the interval excludes the fair share; "
            "<span class='sig'>red</span>: the score test against the fair share is also "
            "significant after Holm's correction over the rows of the table; "
            f"{SMALL_MARK}: fewer than {SMALL_SAMPLE} decisive seat-games. W–L–S: wins, "
            "losses, shared wins.</p>",
            f"<p class='note'>{esc(mp['cards_note'])}</p>",
        )
        reasons = mp["reasons"]
        erows = []
        for g in mp["groups"]:
            er = g["end_reasons"]["reasons"]
            erows.append(
                [
                    g["label"],
                    *[rate_cell(er[r], show_n=False) for r in reasons],
                    rate_cell(g["shared"], show_n=False),
                    mean_cell(g["turns"], 1),
                    f"{g['games']:,}",
                ]
            )
        self.w(
            "<h3>End reasons, shared wins and game length</h3>",
            table(
                [
                    "multiplayer group",
                    *[analysis.END_LABELS.get(r, r) for r in reasons],
                    "shared win",
                    "turns: mean [95% CI]",
                    "games",
                ],
                erows,
                rests_on(mp["games"]),
            ),
        )
        self.img(
            "multiplayer-end-reasons",
            plots.end_reasons,
            "Multiplayer: end reasons",
            reasons,
            analysis.END_LABELS,
            [(g["label"], g["end_reasons"]["reasons"]) for g in mp["groups"]],
        )
        for g in mp["groups"]:
            share = g["fair_share"]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            facts = (
                f"{g['games']:,} games in {g['matchups']:,} matchups; seat policies "
                f"{' / '.join(g['seat_policies'])}; fair share of a "
                + ("team" if g["team"] else "seat")
                + f": {pct(share)}. Shared wins: {pct(g['shared']['rate'])}"
                + interval(g["shared"])
                + f". Turns: {num(g['turns']['mean'], 1)}"
                + (
                    f" [{num(g['turns']['lo'], 1)}, {num(g['turns']['hi'], 1)}]"
                    if g["turns"]["lo"] is not None
                    else ""
                )
                + "."
            )
            self.w(f"<p>{esc(facts)}</p>")
            if g["melee"]:
                ml = g["melee"]
                self.w(
                    table(
                        ["final score (lowest colour column)", "mean [95% CI]", "n"],
                        [
                            ["winner", mean_cell(ml["winner_score"]), ml["winner_score"]["n"]],
                            ["all seats", mean_cell(ml["seat_score"]), ml["seat_score"]["n"]],
                        ],
                        rests_on(g["games"], extra="Winner: games with a single winner."),
                    )
                )
            uniform = g["uniform_policies"]
            if g["per_deck"]:
                rows = [
                    [
                        r["deck"] + ("" if uniform else f" ({r['policy']})"),
                        *share_record_cells(r["record"]),
                        mean_cell(r["score"]),
                        f"{r['seat_games']:,}",
                    ]
                    for r in g["per_deck"]
                ]
                self.w(
                    table(
                        [
                            "deck" + ("" if uniform else " (policy)"),
                            f"win rate [95% CI] vs fair share {pct(share)}",
                            "W–L–S",
                            "shared",
                            "final score: mean [95% CI]",
                            "seat-games",
                        ],
                        rows,
                        rests_on(
                            g["games"],
                            extra=f"Per deck: its seat-games; the {g['mirror_games']:,} games "
                            "in which every seat plays the same deck are left out.",
                        ),
                    )
                )
            else:
                self.w("<p>No games between different decks in this group.</p>")
            prow = [
                [r["label"], *share_record_cells(r["record"]), f"{r['record']['games']:,}"]
                for r in g["positions"]
            ]
            self.w(
                table(
                    [
                        "turn position",
                        f"win rate [95% CI] vs fair share {pct(share)}",
                        "W–L–S",
                        "shared",
                        "seat-games",
                    ],
                    prow,
                    rests_on(
                        g["games"],
                        extra="First-player edge: the seat moving 1st, 2nd... in turn order"
                        + (
                            " (in team play the 1st and 3rd players are teammates, as are the "
                            "2nd and 4th)."
                            if g["team"]
                            else "."
                        ),
                    ),
                )
            )
            forest = [
                (r["label"], *_est(r["record"]["win_rate"]), plots.ORANGE, None)
                for r in g["positions"]
            ]
            forest += [
                (
                    r["deck"] + ("" if uniform else f" ({r['policy']})"),
                    *_est(r["record"]["win_rate"]),
                    plots.BLUE,
                    f"n={r['record']['win_rate']['n']}",
                )
                for r in g["per_deck"]
            ]
            if g["team"]:
                ft = g["first_team"]
                self.w(
                    table(
                        ["", "win rate [95% CI] vs 50%", "W–L–S", "shared", "games"],
                        [["team of the first player", *record_cells(ft), f"{ft['games']:,}"]],
                        rests_on(g["games"]),
                    )
                )
                crows = [
                    [r["label"], *share_record_cells(r["record"]), f"{r['record']['games']:,}"]
                    for r in g["compositions"]
                ]
                if crows:
                    self.w(
                        table(
                            [
                                "team composition",
                                "win rate [95% CI] vs 50%",
                                "W–L–S",
                                "shared",
                                "team-games",
                            ],
                            crows,
                            rests_on(
                                g["games"],
                                extra="Per team composition (the two teammates' decks): its "
                                f"team-games; the {g['composition_mirror_team_games']:,} "
                                "team-games against the same composition are left out.",
                            ),
                        )
                    )
                else:
                    self.w("<p>No games between different team compositions in this group.</p>")
                forest.insert(0, ("first player's team", *_est(ft["win_rate"]), plots.RED, None))
                forest += [
                    (r["label"], *_est(r["record"]["win_rate"]), plots.GREEN, None)
                    for r in g["compositions"]
                ]
            self.img(
                f"multiplayer-{g['id']}",
                plots.forest,
                f"{g['label']}: win rates (turn positions, decks"
                + (", team compositions)" if g["team"] else ")"),
                forest,
                f"win rate (decisive games, 95% Wilson); dashed: fair share {pct(share)}",
                share,
            )
        self.end()

    def decisiveness(self):
        self.h2("decisiveness")
        self.w(decisiveness_section.html(self.s, table, esc, analysis.MODE_LABELS, rests_on))
        self.end()

    def sensitivity(self):
        self.h2("sensitivity")
        self.w(sensitivity_section.html(self.s, table, esc, analysis.MODE_LABELS, Cell, rests_on))
        self.end()

    def method(self):
        self.h2("method")
        rows = [[k, str(v)] for k, v in METHODS.items()]
        self.w(
            table(["what", "method"], rows, "Intervals and tests (95%).", left=2),
            "<p class='note'>Win rates are over decisive games (a shared win is a draw, "
            "reported as the draw rate over all games). Intervals are Wilson score intervals "
            "(frequentist, not Bayesian). Numbers resting on fewer than "
            f"{SMALL_SAMPLE} trials are marked {SMALL_MARK}. Every number of this page is in "
            "summary.json. See results/REPORT.md.</p>",
        )
        self.end()

    def build(self) -> str:
        self.header()
        self.w(findings_html(self.s.get("key_findings") or []))
        self.overview()
        self.warnings()
        self.decisiveness()
        self.matchups()
        self.field()
        self.first_player()
        self.game_length()
        self.end_reasons()
        self.tasks()
        self.cards()
        self.deathmatch()
        self.policies()
        self.sensitivity()
        self.multiplayer()
        self.method()
        self.w("</body></html>")
        return "\n".join(self.parts)


def played_by(g) -> str:
    """A plot label's suffix naming the player of a deck in a group of two policies."""
    return "" if g["symmetric"] else f" ({g['policies'][0]})"


def seats_label(matchup: str, policies: str) -> str:
    """imperial-vs-highland + greedy-vs-random -> "imperial (greedy) vs highland (random)";
    with one policy for both seats just "imperial vs highland"."""
    decks, pols = matchup.split("-vs-"), policies.split("-vs-")
    if len(set(pols)) == 1 or len(pols) != len(decks):
        return " vs ".join(decks)
    return " vs ".join(f"{d} ({p})" for d, p in zip(decks, pols, strict=True))


def _wr(rec):
    return rec["win_rate"] if rec else None


def _est(wr):
    if not wr or wr.get("rate") is None:
        return (None, None, None)
    return (wr["rate"], wr["lo"], wr["hi"])


def write_report(summary: dict, out) -> dict:
    """Write index.html, the PNG plots and summary.json into ``out``; returns their paths."""
    out = pathlib.Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OSError(f"cannot create --out {str(out)!r}: {e.strerror or e}") from None
    summary.setdefault("key_findings", key_findings(summary))
    b = _Builder(summary, out)
    page = b.build()
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    sj = out / "summary.json"
    sj.write_text(json.dumps(summary, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    return {"index": index, "summary_json": sj, "plots": b.pngs}


def make_report(run_dir, out, allow_incomplete: bool = False) -> dict:
    summary = analysis.analyze(run_dir, allow_incomplete=allow_incomplete)
    paths = write_report(summary, out)
    return {"summary": summary, **paths}
