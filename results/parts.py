"""The parts of the balance report: one registry, ``PARTS``, that ``analyze`` (the numbers),
the report page, the notebook frames (``sim.api``), ``kalarite compare`` and the compare
page all iterate. Adding a part is adding one ``Part`` here.

A part is one key of the summary and what each layer does with it:

- ``compute``: ``"module:function"`` that computes it, called with ``args``, each the name of
  something ``analyze`` holds (``ANALYSIS_INPUTS``: the dataset, its groups, ...) or the
  summary key of another part (computed first, whatever the registry's order);
- ``section`` and ``title``: its anchor and heading on the report page (None: not on the
  page; a title of None: drawn without a nav entry); ``html``: ``"module:Class.method"`` that
  draws it (``Class`` is mixed into the page builder, so its methods share the page's
  ``self.w``, ``self.s``...);
- ``tidy``: ``(frame name, "module:function")`` pairs turning the summary into tidy rows
  for a DataFrame; a part without them is flattened generically (results/frames.py);
- ``compare``: ``"module:function"`` giving ``{table: rows}`` from two summaries
  (results/compare/tables.py), with ``tables``: each table's ``(name, title, short)``.

The functions are named rather than imported because the registry spans the layers (the
numbers in ``results.analysis``, the HTML in ``results.report``, which reads the numbers):
each consumer loads only its own column, so ``analyze`` never imports the HTML code and no
layer imports one above it. tests/test_parts.py loads every name and checks each lives in its
layer.

The summary's keys were renamed once (``kalarite_report`` 2): ``sensitivity`` (the stability
verdict) is ``stability`` and ``policy_sensitivity`` (each deck's rates per player) is
``player_sensitivity``; ``current(summary)`` reads a summary of version 1 under the new names.
"""

import functools
import importlib
from dataclasses import dataclass

FORMAT = 2  # summary["kalarite_report"]: 2 since the keys' renaming below
RENAMED = {"policy_sensitivity": "player_sensitivity", "sensitivity": "stability"}  # 1 -> 2

# What analyze holds besides the parts: a compute function's ``args`` name these or part keys.
ANALYSIS_INPUTS = (
    "dataset",  # results.analysis.dataset.Dataset
    "manifest",  # the dataset's study.json
    "groups",  # the two-seat groups (results.analysis.groups)
    "content",  # the study's content, None when it cannot be loaded
    "max_games",  # the games of a look (results/looks.py), None: all
    "margin",  # the stability margin in points (--margin), None: the spec's
    "alpha",  # each test's error (a look's share of it, else results.stats.ALPHA)
    "shared_deals",  # games two self-play players were dealt alike
    "summary",  # the summary itself, read key by key (a part reading many parts)
)


@dataclass(frozen=True)
class Part:
    """One part of the report (see the module's docstring for each field)."""

    key: str | None
    compute: str | None = None
    args: tuple[str, ...] = ()
    section: str | None = None
    title: str | None = None
    html: str | None = None
    tidy: tuple[tuple[str, str], ...] = ()
    compare: str | None = None
    tables: tuple[tuple[str, str, str], ...] = ()

    def function(self, field: str):
        """The function a field names (``compute``, ``compare``, or a tidy frame's name)."""
        if field in ("compute", "compare"):
            return load(getattr(self, field))
        return load(dict(self.tidy)[field])

    def mixin(self) -> tuple[type, str]:
        """The class that draws the part on the report page, and its method's name."""
        owner, _, method = self.html.rpartition(".")
        return load(owner), method


@functools.cache
def load(ref: str):
    """The object ``"package.module:name"`` (or ``name.attribute``) names."""
    module, _, name = ref.partition(":")
    obj = importlib.import_module(module)
    for attr in name.split("."):
        obj = getattr(obj, attr)
    return obj


def current(summary: dict) -> dict:
    """``summary`` under the current keys: a summary.json of version 1 (before the keys'
    renaming) read as version 2; a current one as it is."""
    if summary.get("kalarite_report", FORMAT) >= FORMAT:
        return summary
    old = dict(summary)
    new = {RENAMED.get(k, k): v for k, v in old.items()}
    new["kalarite_report"] = FORMAT
    return new


def titled(parts=None) -> tuple:
    """The page's nav: (section, title) of every part with a title, in page order."""
    return tuple((p.section, p.title) for p in (parts or PARTS) if p.title)


def compare_tables(parts=None) -> dict:
    """Every compare table's name -> (title, short title), in the order compare lists them."""
    return {name: (title, short) for p in parts or PARTS for name, title, short in p.tables}


_A = "results.analysis"
_R = "results.report"
_F = "results.frames"
_C = "results.compare.tables"

# In page order; analyze computes each part after the parts it reads.
PARTS = (
    Part(
        "at_a_glance",
        f"{_A}.glance:at_a_glance",
        ("summary",),
        "at-a-glance",
        "At a glance: each deck against the field",
        f"{_R}.glance:GlanceSection.glance",
    ),
    Part(  # the designer's first screen: computed inside at_a_glance, drawn without a nav entry
        None, section="first-screen", html=f"{_R}.first_screen:FirstScreenPart.first_screen_part"
    ),
    Part(
        "key_findings",
        f"{_A}.findings:key_findings",
        ("summary",),
        "key-findings",
        None,
        f"{_R}.findings:FindingsBlock.findings",
    ),
    Part(None, html=f"{_R}.frame:ReportPage.contents"),  # the nav: no summary key, no anchor
    Part("run", section="overview", title="Study", html=f"{_R}.frame:ReportPage.overview"),
    Part(
        "warnings",
        section="warnings",
        title="Warnings and missing data",
        html=f"{_R}.frame:ReportPage.warnings",
    ),
    Part(
        "decisiveness",
        f"{_A}.decisiveness:decisiveness",
        ("dataset",),
        "decisiveness",
        "Decisiveness: how the games were decided",
        f"{_R}.decisiveness:DecisivenessSection.decisiveness",
    ),
    Part(
        "matchups",
        f"{_A}.duel:matchup_table",
        ("dataset", "groups"),
        "matchups",
        "Matchup matrix",
        f"{_R}.duel:DuelSections.matchups",
        (("matchups", f"{_F}:matchups_rows"),),
        f"{_C}:matchups",
        (
            (
                "matchups",
                "Matchups: win rate of the first-named deck (decisive games)",
                "matchup win rate",
            ),
            ("draws", "Matchups: draw rate", "draw rate"),
        ),
    ),
    Part(
        "deck_vs_field",
        f"{_A}.duel:deck_vs_field_rates",
        ("dataset", "groups"),
        "deck-vs-field",
        "Deck vs field",
        f"{_R}.duel:DuelSections.field",
        (("deck_vs_field", f"{_F}:field_rows"),),
    ),
    Part(
        "mechanics",
        f"{_A}.mechanics:mechanic_use",
        ("dataset", "groups"),
        tidy=(("mechanics", f"{_F}:mechanic_rows"),),
    ),
    Part(
        "first_player",
        f"{_A}.duel:first_player_rates",
        ("dataset", "groups", "deck_vs_field"),
        "first-player",
        "First-player advantage",
        f"{_R}.duel:DuelSections.first_player",
        (("first_player", f"{_F}:first_player_rows"),),
        f"{_C}:first_player",
        (("first_player", "First mover win rate", "first mover win rate"),),
    ),
    Part(
        "game_length",
        f"{_A}.length:game_length_stats",
        ("dataset", "groups"),
        "game-length",
        "Game length",
        f"{_R}.length:LengthSections.game_length",
    ),
    Part(
        "end_reasons",
        f"{_A}.length:end_reason_stats",
        ("dataset", "groups"),
        "end-reasons",
        "End reasons",
        f"{_R}.length:LengthSections.end_reasons",
    ),
    Part(
        "tasks",
        f"{_A}.tasks:task_stats",
        ("dataset", "groups", "content"),
        "tasks",
        "High Form tasks",
        f"{_R}.tasks:TaskSections.tasks",
        (("tasks", f"{_F}:task_rows"),),
        f"{_C}:tasks",
        (
            ("tasks", "Task claim rate per game", "task claim rate"),
            (
                "tasks_shown",
                "Task display: share of games in which the task was shown",
                "task shown",
            ),
            ("tasks_given_shown", "Task claim rate given shown", "task claim rate given shown"),
        ),
    ),
    Part(
        "cards",
        f"{_A}.cards:card_stats",
        ("dataset", "groups", "content"),
        "cards",
        "Cards",
        f"{_R}.cards:CardSections.cards",
        (("cards", f"{_F}:card_rows"),),
        f"{_C}:cards",
        (
            (
                "cards_played",
                "Cards: share of seat-games in which the card was played",
                "card played",
            ),
            (
                "cards_win_when_played",
                "Cards: win rate of the seat-games in which the card was played",
                "card: win rate when played",
            ),
        ),
    ),
    Part(
        "deathmatch",
        f"{_A}.deathmatch:deathmatch_points",
        ("dataset", "groups"),
        "deathmatch",
        "Deathmatch: points by source",
        f"{_R}.deathmatch:DeathmatchSection.deathmatch",
    ),
    Part(
        "policies",
        f"{_A}.policies:policy_stats",
        ("dataset", "groups", "first_player"),
        "policies",
        "Policies (players)",
        f"{_R}.policies:PolicySection.policies",
    ),
    Part(
        "player_sensitivity",
        f"{_A}.sensitivity:sensitivity",
        ("summary", "shared_deals"),
        "sensitivity",
        "Policy sensitivity",
        f"{_R}.sensitivity:SensitivitySection.sensitivity",
    ),
    Part("stability", f"{_A}.stability:study_stability", ("summary", "margin", "alpha")),
    Part(
        "skill_trace",
        f"{_A}.skill_trace:skill_trace",
        ("dataset", "summary"),
        "skill-trace",
        "Skill trace",
        f"{_R}.skill_trace:TraceSection.skill_trace",
    ),
    Part(
        "looks",
        "results.looks:study_looks",
        ("manifest", "max_games"),
        "looks",
        "Played until decided: the looks",
        f"{_R}.skill_trace:TraceSection.looks",
    ),
    Part(
        "multiplayer",
        f"{_A}.multiplayer:multiplayer_stats",
        ("dataset",),
        "multiplayer",
        "Multiplayer: melee and team play",
        f"{_R}.multiplayer:MultiplayerSections.multiplayer",
        (("multiplayer", f"{_F}:multiplayer_rows"),),
    ),
    Part("methods", section="method", title="Method", html=f"{_R}.frame:ReportPage.method"),
)
