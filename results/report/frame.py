"""The report page's frame: ``ReportPage`` writes the page's head, nav, section headings,
embedded plots and folds, and draws the parts of the report that are the study itself
(contents, study, warnings, method). The other parts' classes (results/parts.py) are mixed in
with it by results/report/__init__.py."""

import base64
import pathlib
import struct

from results.analysis.groups import group_index
from results.analysis.labels import study_title
from results.report.html import CSS, SMALL_MARK, esc, policy_list, prose, rests_on, slug_of, table
from results.stats import METHODS, SMALL_SAMPLE


class ReportPage:
    """The page's frame (header, nav, headings, plots, folds) and its own sections (contents,
    study, warnings, method); the other parts' classes are mixed in with it
    (results/report/__init__.py ``builder``)."""

    nav = ()  # (section, title) of the page's parts, set by the builder
    drawn = ()  # the parts drawn (results.parts.Part), in page order, set by the builder

    def __init__(self, summary, out: pathlib.Path):
        self.s = summary
        self.out = out
        self.groups = group_index(summary)
        self.pngs = []
        self.parts = []
        self.progress = None  # progress(text): told of each section and plot (build())
        self.step = ""

    def w(self, *chunks):
        self.parts.extend(chunks)

    def img(self, name, draw, *args, alt="", zoom=False):
        """Draw a plot and embed it. A plot that returns ``scale`` was written at that many
        pixels per page pixel (sharp, and worth enlarging); ``zoom``: a click shows it at
        full size (its box scrolls), another click fits it to the page again."""
        path = self.out / f"{slug_of(name)}.png"
        info = draw(path, *args) or {}
        self.pngs.append(path)
        if self.progress:
            self.progress(f"{self.step}, {len(self.pngs)} plots drawn")
        raw = path.read_bytes()
        data = base64.b64encode(raw).decode("ascii")
        width, height = struct.unpack(">II", raw[16:24])  # the PNG header's IHDR
        scale = info.get("scale", 1)
        attrs = f'width="{round(width / scale)}" height="{round(height / scale)}"'
        if "text_px" in info:
            attrs += f' data-text-px="{info["text_px"]:.2f}"'
        tag = f'<img src="data:image/png;base64,{data}" alt="{esc(alt or name)}" {attrs}'
        if zoom:
            self.w(
                '<div class="zoombox">'
                f'{tag} class="zoomable" title="click to enlarge (full size); click again to '
                'fit" onclick="this.classList.toggle(\'zoomed\')"></div>'
            )
        else:
            self.w(tag + ">")

    def fold(self, summary, open_=False):
        """Start a folded block (``<details>``): long tables and plots stay one click away."""
        self.w(f"<details{' open' if open_ else ''}><summary>{esc(summary)}</summary>")

    def unfold(self):
        self.w("</details>")

    def h2(self, sid):
        title = dict(self.nav)[sid]
        self.w(f'<section id="{sid}"><h2>{esc(title)}</h2>')

    def end(self):
        self.w("</section>")

    def glabel(self, gid):
        return self.groups[gid]["label"]

    # --- sections

    def header(self):
        run = self.s["run"]
        name = study_title(run["study"]) or pathlib.Path(run["path"]).name
        self.w(
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>kalarite balance report — {esc(name)}</title>",
            f"<style>{CSS}</style></head><body>",
            f'<h1 class="top">Balance report: {esc(name)}</h1>',
        )
        if self.s["data"]["beings_without_effects"]:
            self.w(
                '<div class="banner" id="banner-beings-without-effects">⚠ Beings without '
                "effects: this study dealt beings whose effect is not implemented yet as "
                "beings with no effect. These results are NOT those of the real game.</div>"
            )
        for w in self.s["warnings"]:
            if w["severe"] and w["kind"] != "beings_without_effects":
                self.w(f'<div class="banner compact">⚠ {prose(w["text"])}</div>')

    def contents(self):
        self.w("<nav><ul>")
        for sid, title in self.nav:
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
            ["policy pairings", ", ".join(policy_list(x) for x in st.get("policies", []))],
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
        self.w(
            f"<p>{data['games_analyzed']:,} games analyzed; modes "
            f"{esc(', '.join(st.get('modes', [])))}; players "
            f"{esc(', '.join(policy_list(x) for x in st.get('policies', [])))}.</p>"
        )
        self.fold("the study's spec, hashes and counts")
        self.w(table(["", ""], rows, rests_on(data["games_analyzed"]), left=2))
        self.unfold()
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
            self.w(f'<div class="warn"><b>{esc(w["kind"])}</b>: {prose(w["text"])}</div>')
        for m in self.s["missing_data"]:
            self.w(
                f'<div class="missing"><b>Missing data — {esc(m["what"])}</b>: '
                f"{esc(m['text'])}</div>"
            )
        self.end()

    def method(self):
        self.h2("method")
        self.fold("intervals and tests", open_=False)
        rows = [[k, str(v)] for k, v in METHODS.items()]
        self.w(
            table(["what", "method"], rows, "Intervals and tests (95%).", left=2),
            "<p class='note'>Win rates are over decisive games (a shared win is a draw, "
            "reported as the draw rate over all games). Intervals are Wilson score intervals "
            "(frequentist, not Bayesian). Numbers resting on fewer than "
            f"{SMALL_SAMPLE} trials are marked {SMALL_MARK}. Every number of this page is in "
            "summary.json. See results/REPORT.md.</p>",
        )
        self.unfold()
        self.end()

    def build(self, progress=None) -> str:
        """The header, then every part in page order."""
        self.progress = progress
        self.header()
        titled = [p for p in self.drawn if p.title]
        for p in self.drawn:
            if p.title:
                self.step = f"section {titled.index(p) + 1} of {len(titled)} ({p.title})"
                if progress:
                    progress(self.step)
            getattr(self, p.mixin()[1])()
        self.w("</body></html>")
        return "\n".join(self.parts)
