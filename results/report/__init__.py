"""The balance report of a study: ``index.html`` (one self-contained file, plots embedded as
PNG data), the plots as PNG files, and ``summary.json`` (every number shown: the dict of
``results.analysis.analyze``). See results/REPORT.md for what each section means."""

import base64
import hashlib
import json
import pathlib
import struct
from typing import NamedTuple

from results import analysis
from results.analysis.findings import key_findings
from results.analysis.glance import at_a_glance
from results.analysis.labels import study_title
from results.report.cards import CardSections
from results.report.deathmatch import DeathmatchSection
from results.report.decisiveness import DecisivenessSection
from results.report.duel import DuelSections
from results.report.findings import FindingsBlock
from results.report.first_screen import FirstScreenPart
from results.report.glance import GlanceSection
from results.report.html import (  # noqa: F401 (the report's public names)
    CSS,
    SMALL_MARK,
    Cell,
    diff_cell,
    esc,
    pct,
    policy_list,
    prose,
    rests_on,
    seats_label,
    slug_of,
    table,
)
from results.report.length import LengthSections
from results.report.multiplayer import MultiplayerSections
from results.report.policies import PolicySection
from results.report.sensitivity import SensitivitySection
from results.report.skill_trace import TraceSection
from results.report.tasks import TaskSections
from results.stats import METHODS, SMALL_SAMPLE


class _Page:
    """The page's frame and its own sections (study, warnings, method); the other sections are
    mixins, put together from ``SECTIONS`` into ``_Builder``."""

    def __init__(self, summary, out: pathlib.Path):
        self.s = summary
        self.out = out
        self.groups = analysis.group_index(summary)
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
        title = dict(NAV)[sid]
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
        for sid, title in NAV:
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


class Section(NamedTuple):
    """One part of the page, in page order: ``id`` (its anchor), ``title`` (its heading and
    nav entry; None: not in the nav), ``key`` (the summary key it draws; None: none),
    ``mixin`` (the class that draws it, mixed into the builder) and ``render`` (the method of
    ``mixin`` that writes it)."""

    id: str
    title: str | None
    key: str | None
    mixin: type
    render: str


SECTIONS = (
    Section(
        "at-a-glance",
        "At a glance: each deck against the field",
        "at_a_glance",
        GlanceSection,
        "glance",
    ),
    Section("first-screen", None, "at_a_glance", FirstScreenPart, "first_screen_part"),
    Section("key-findings", None, "key_findings", FindingsBlock, "findings"),
    Section("contents", None, None, _Page, "contents"),
    Section("overview", "Study", "run", _Page, "overview"),
    Section("warnings", "Warnings and missing data", "warnings", _Page, "warnings"),
    Section(
        "decisiveness",
        "Decisiveness: how the games were decided",
        "decisiveness",
        DecisivenessSection,
        "decisiveness",
    ),
    Section("matchups", "Matchup matrix", "matchups", DuelSections, "matchups"),
    Section("deck-vs-field", "Deck vs field", "deck_vs_field", DuelSections, "field"),
    Section("first-player", "First-player advantage", "first_player", DuelSections, "first_player"),
    Section("game-length", "Game length", "game_length", LengthSections, "game_length"),
    Section("end-reasons", "End reasons", "end_reasons", LengthSections, "end_reasons"),
    Section("tasks", "High Form tasks", "tasks", TaskSections, "tasks"),
    Section("cards", "Cards", "cards", CardSections, "cards"),
    Section(
        "deathmatch", "Deathmatch: points by source", "deathmatch", DeathmatchSection, "deathmatch"
    ),
    Section("policies", "Policies (players)", "policies", PolicySection, "policies"),
    Section(
        "sensitivity", "Policy sensitivity", "policy_sensitivity", SensitivitySection, "sensitivity"
    ),
    Section("skill-trace", "Skill trace", "skill_trace", TraceSection, "skill_trace"),
    Section("looks", "Played until decided: the looks", "looks", TraceSection, "looks"),
    Section(
        "multiplayer",
        "Multiplayer: melee and team play",
        "multiplayer",
        MultiplayerSections,
        "multiplayer",
    ),
    Section("method", "Method", "methods", _Page, "method"),
)
NAV = tuple((s.id, s.title) for s in SECTIONS if s.title)  # the page's nav: (id, title)


class _Builder(*dict.fromkeys(s.mixin for s in SECTIONS if s.mixin is not _Page), _Page):
    """Writes the report page: the header, then every entry of ``SECTIONS`` in order."""

    def build(self, progress=None) -> str:
        self.progress = progress
        self.header()
        titled = [s for s in SECTIONS if s.title]
        for s in SECTIONS:
            if s.title:
                self.step = f"section {titled.index(s) + 1} of {len(titled)} ({s.title})"
                if progress:
                    progress(self.step)
            getattr(self, s.render)()
        self.w("</body></html>")
        return "\n".join(self.parts)


def write_report(summary: dict, out, progress=None) -> dict:
    """Write index.html, the PNG plots and summary.json into ``out``; returns their paths.
    ``progress(text)`` hears of each section as it is drawn."""
    out = pathlib.Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OSError(f"cannot create --out {str(out)!r}: {e.strerror or e}") from None
    summary.setdefault("at_a_glance", at_a_glance(summary))
    summary.setdefault("key_findings", key_findings(summary))
    b = _Builder(summary, out)
    page = b.build(progress)
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    sj = out / "summary.json"
    sj.write_text(json.dumps(summary, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    return {"index": index, "summary_json": sj, "plots": b.pngs}


def report_inputs(run_dir) -> dict:
    """What a report is made from: the dataset's manifest (it changes whenever games are
    added, repaired or replayed) and the code that reads and draws them (every source file of
    results/, and the package version). A report whose summary.json holds the same inputs
    would be written again byte for byte, so ``kalarite demo`` keeps it."""
    from results.store import MANIFEST
    from sim import version

    code = hashlib.sha256(version().encode())
    root = pathlib.Path(__file__).resolve().parent.parent
    for path in sorted(root.rglob("*.py")):
        code.update(path.relative_to(root).as_posix().encode())
        code.update(path.read_bytes())
    manifest = pathlib.Path(run_dir) / MANIFEST
    return {
        "dataset": hashlib.sha256(manifest.read_bytes()).hexdigest()[:16],
        "code": code.hexdigest()[:16],
    }


def report_is_current(run_dir, out, margin=None) -> bool:
    """Does ``out`` hold a complete report of ``run_dir`` made from the same inputs (and the
    same stability ``margin``)?"""
    out = pathlib.Path(out)
    try:
        old = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        same = old.get("report_inputs") == {**report_inputs(run_dir), "margin": margin}
    except (OSError, ValueError, AttributeError):
        return False
    return same and (out / "index.html").is_file()


def make_report(run_dir, out, allow_incomplete: bool = False, margin=None, progress=None) -> dict:
    """Analyse the study in ``run_dir`` and write its report into ``out`` (``margin``: the
    stability margin in points, --margin). ``progress(text)`` is told each step (reading the
    games, then each section drawn): a large study's report takes a minute, and a caller
    shows where it stands."""
    if progress:
        progress("reading and analysing the games")
    inputs = {**report_inputs(run_dir), "margin": margin}
    summary = analysis.analyze(run_dir, allow_incomplete=allow_incomplete, margin=margin)
    summary["report_inputs"] = inputs
    paths = write_report(summary, out, progress)
    return {"summary": summary, **paths}
