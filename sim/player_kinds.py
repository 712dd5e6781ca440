"""The player registry: every kind of player the engine plays, declared once.

A kind (``random``, ``greedy``, ``planner``, ``mc``) is one ``PlayerKind`` in ``KINDS``: the
engine's code (core.constants POL_*), what it does, its settings (``Setting``: the key, the
parameter-row column it fills, its default, its range or its named choices, what it means),
its search budget (the setting a skill trace doubles and the stability rule compares), whether
it takes the evaluation weights and reads a learned model, and its cost per game (what the
chunk size and the study-size estimate read). Like the op registry (core/ops.py) it is checked
at import: the codes against ``POLICY_NAMES``, the columns against core.players.params.

Everything else derives from it: parsing a spec and compiling its parameter row
(sim.players), the dataset identity's account of what changed (sim.games ``changed_parts``),
the chunk size (sim.chunking), trace budgets (sim/app/trace.py, sim.study), the players'
families (results/analysis/player_families.py), `--help`'s player list (sim/app/cli_help.py),
`kalarite players` (sim/app/players_view.py) and the service's ``/options``. It imports no
numpy: the CLI's help and the chunk size read it cheaply.
"""

import functools
import types
from typing import NamedTuple

from core import constants as K
from core.players.params import (
    PP_ENDGAME,
    PP_LEAF_TOP,
    PP_MC_CANDIDATES,
    PP_MC_HORIZON,
    PP_MC_PLAYOUTS,
    PP_MODEL,
    PP_PEEK,
    PP_PLAN_WIDTH,
    PP_REPLY_PLANS,
    PP_REPLY_SAMPLES,
    PP_REPLY_WIDTH,
    PP_RESTRICT,
    PP_TAIL,
    PP_WIDTH,
    RESTRICT_NAMES,
)
from core.players.weights import N_WEIGHTS, WEIGHT_NAMES
from sim.inputs import int_text, need_int

# Default evaluation weights (documented in docs/players.md): a point is worth 10, a task
# you could claim right now 6 per point, and so on down to a piece on the board. The last
# three features are off by default (tuned profiles use them). Every kind that ``weights``
# takes all of them.
DEFAULT_WEIGHTS = {
    "points": 10.0,
    "claimable": 6.0,
    "destroyed": 1.0,
    "upgraded": 1.5,
    "legendary": 3.0,
    "material": 0.5,
    "summonable": 0.7,
    "legends_ready": 1.5,
    "win": 100.0,
    "opp_claimable": 0.0,
    "centre": 0.0,
    "exposed": 0.0,
    "pending": 2.0,  # Etherweave: points a pending being is charged (times `points`)
}
assert tuple(DEFAULT_WEIGHTS) == WEIGHT_NAMES
# an evaluation weight's range: the defaults are at most 100 and tuned ones near them, so a
# million is far past any useful value while every sum of weighted features stays finite
MAX_WEIGHT = 1e6


class Setting(NamedTuple):
    """One setting of a kind, declared once: the spec key, the parameter-row column, the
    default, and either an integer range (``lo``..``hi``) or named ``choices`` (the column
    holds the choice's index; the first is the default)."""

    key: str
    column: int  # a PP_* column of the parameter row
    default: object  # an int, or the first of ``choices``
    about: str  # what it does, in one line (help, `kalarite players`)
    lo: int = 0
    hi: int = 0
    choices: tuple = ()  # named settings: the allowed values

    @property
    def named(self) -> bool:
        return bool(self.choices)

    def allowed(self) -> str:
        """How the allowed values read in help and messages."""
        if self.named:
            return ", ".join(self.choices)
        return f"{self.lo} to {self.hi}"

    def parse(self, text: str, what: str):
        """A value given in a spec (``key=text``), or ValueError with one line."""
        if self.named:
            return self.check(text, what)
        return int_text(text, what, self.lo, self.hi, ValueError)

    def check(self, value, what: str):
        """A value given in a profile file (TOML: a name or an integer), or one line."""
        if self.named:
            if value not in self.choices:
                raise ValueError(f"{what} must be one of {', '.join(self.choices)}, got {value!r}")
            return value
        return need_int(
            value, what, self.lo, self.hi, ValueError, f"an integer from {self.lo} to {self.hi}"
        )

    def encode(self, value) -> float:
        """The value as its parameter-row column holds it."""
        return float(self.choices.index(value)) if self.named else float(value)


class PlayerKind(NamedTuple):
    """One kind of player, declared once (the module docstring says who reads what)."""

    code: int  # POL_*
    name: str
    description: str  # what it does, in one line
    settings: tuple  # Setting per key, integers first (the order help lists them in)
    budget: str | None = None  # the integer setting that is its search budget
    weights: bool = True  # takes the evaluation weights (DEFAULT_WEIGHTS)
    # its games are decided by deck exhaustion and tie-breakers, not by play: the service's
    # page warns a study of it is no balance figure (sim/app/service/summary.py)
    weak: bool = False
    learned: bool = False  # a profile of it may hold a learned model (sim.learned)
    # cost: seconds per game on one core of the development machine (benchmarks/README.md),
    # two seats of it, at its defaults; ``search_factor``: the cost at the defaults over the
    # cost of no search (greedy's), the search part scaling with the product of the
    # ``scaled`` settings over their defaults
    seconds: float = 1 / 28
    search_factor: float = 1.0
    scaled: tuple = ()
    # Parquet bytes per game of the three tables, (High Form, Deathmatch), as `python -m
    # benchmarks.study_bytes` measured them at the chunk size a study picks (imperial vs
    # highland, seed 1; random 2,000 games, greedy and planner 200 per mode); () not
    # measured: greedy's (sim/study_size.py)
    game_bytes: tuple = ()

    def setting(self, key: str) -> Setting | None:
        return next((s for s in self.settings if s.key == key), None)

    def keys(self) -> list:
        return [s.key for s in self.settings]

    def defaults(self) -> dict:
        """Every setting at its default, in declaration order."""
        return {s.key: s.default for s in self.settings}

    def budget_setting(self) -> Setting | None:
        return self.setting(self.budget) if self.budget else None

    def seconds_per_game(self, settings: dict) -> float:
        """A rough estimate of one game's time on one core, both seats this player with
        ``settings`` (missing ones at their defaults)."""
        if not self.scaled:
            return self.seconds
        work = 1.0
        for key in self.scaled:
            default = self.setting(key).default
            work *= settings.get(key, default) / default
        return self.seconds * (1 + (self.search_factor - 1) * work)


# restrict: the mechanic a restricted twin gives up (core.players.restrict): frozen = never
# thaws, warp = never plays a warp, gateway = the Nethervoid Gateway counts for nothing
RESTRICT = Setting(
    "restrict",
    PP_RESTRICT,
    RESTRICT_NAMES[0],
    "a restricted twin for `kalarite competence`: none, frozen (never thaws), warp (never "
    "warps), gateway (skips optional Gateway effect parts)",
    choices=RESTRICT_NAMES,
)

KINDS = (
    PlayerKind(
        K.POL_RANDOM,
        "random",
        "uniform over the kinds of option, then over the options of that kind",
        (),
        weights=False,
        weak=True,
        seconds=1 / 3400,
        game_bytes=(283, 274),
    ),
    PlayerKind(
        K.POL_GREEDY,
        "greedy",
        "one-ply lookahead: each option played to the next decision of the turn, scored",
        (RESTRICT,),
        seconds=1 / 28,
        game_bytes=(499, 474),
    ),
    PlayerKind(
        K.POL_MC,
        "mc",
        "flat Monte Carlo: random playouts of the best options, hidden cards sampled",
        (
            Setting("playouts", PP_MC_PLAYOUTS, 8, "random playouts per option", 1, 10_000),
            Setting("horizon", PP_MC_HORIZON, 2, "turns each playout looks ahead", 1, 1000),
            Setting("candidates", PP_MC_CANDIDATES, 4, "best options played out", 1, 10_000),
            RESTRICT,
        ),
        budget="playouts",
        # greedy's work plus its playouts, measured at the defaults (8 x 4 x 2 turns): 2.5x
        seconds=1 / 28,
        search_factor=2.5,
        scaled=("playouts", "horizon", "candidates"),
    ),
    PlayerKind(
        K.POL_PLANNER,
        "planner",
        "searches whole turns (all actions, effect choices, the claim), beam-pruned",
        (
            Setting("width", PP_PLAN_WIDTH, 6, "the beam of the turn search", 1, 32),
            # the reply-aware step (core.players.reply)
            Setting("plans", PP_REPLY_PLANS, 3, "plans checked against the best reply", 1, 8),
            Setting(
                "samples",
                PP_REPLY_SAMPLES,
                0,
                "sampled worlds each plan is checked in (0: no reply step)",
                0,
                16,
            ),  # fmt: skip
            Setting("reply_width", PP_REPLY_WIDTH, 2, "the beam of the reply's search", 1, 32),
            # the leaf screen (core.players.planner leaf_screen): a cheaper, different search
            Setting(
                "leaf_top",
                PP_LEAF_TOP,
                0,
                "of a position's turn-ending options only the N best by the hand-set "
                "evaluation get the leaf value (0: all)",
                0,
                32,
            ),  # fmt: skip
            RESTRICT,
            # peek=on: the learned leaf value reads the opponents' real hands. A cheating
            # measurement of what hidden information costs (docs/players.md), never a player
            # for balance figures
            Setting(
                "peek",
                PP_PEEK,
                "off",
                "on: the learned value reads the opponents' real hands (a cheating measurement)",
                choices=("off", "on"),
            ),  # fmt: skip
            Setting(
                "endgame",
                PP_ENDGAME,
                "off",
                "exact: a plan ending the game's last turn is valued by its result",
                choices=("off", "exact"),
            ),  # fmt: skip
        ),
        budget="width",
        learned=True,
        seconds=1 / 11,
        game_bytes=(864, 825),
    ),
)
BY_NAME = {k.name: k for k in KINDS}
BY_CODE = {k.code: k for k in KINDS}
MODEL_PLAYERS = tuple(k.name for k in KINDS if k.learned)  # whose search reads a learned value


def kind(name: str) -> PlayerKind:
    """The kind named ``name`` (KeyError: none)."""
    return BY_NAME[name]


@functools.cache
def setting_columns() -> dict:
    """{column: Setting} of every setting of every kind, in column order: the columns a
    parameter row holds besides the weights and the models (computed once: the registry
    does not change, and the mapping is read-only)."""
    out = {}
    for k in KINDS:
        for s in k.settings:
            out.setdefault(s.column, s)
    return types.MappingProxyType(dict(sorted(out.items())))


def budgets() -> dict:
    """{kind: its budget setting's key} of the kinds with a search budget."""
    return {k.name: k.budget for k in KINDS if k.budget}


def _check_registry():
    """The registry against the engine: one kind per POLICY_NAMES code, each column a setting
    column of the row held by one key with one default, budgets integer settings; a setting
    in the row's tail (after the model blocks) encodes its default as 0, so a row using none
    keeps the identity it had before the tail (sim.games Player.digest)."""
    assert tuple(k.name for k in sorted(KINDS, key=lambda k: k.code)) == K.POLICY_NAMES
    assert [k.code for k in KINDS] == sorted(BY_CODE) and len(BY_NAME) == len(KINDS)
    seen = {}
    for k in KINDS:
        assert len(set(k.keys())) == len(k.settings), k.name
        assert not set(k.keys()) & set(WEIGHT_NAMES), k.name
        for s in k.settings:
            assert N_WEIGHTS <= s.column < PP_MODEL or PP_TAIL <= s.column, (k.name, s.key)
            assert s.column < PP_TAIL or s.encode(s.default) == 0.0, (k.name, s.key)
            assert seen.setdefault(s.column, s) == s, f"column {s.column}: two settings"
            if s.named:
                assert s.default == s.choices[0] and not (s.lo or s.hi), s.key
            else:
                assert s.lo <= s.default <= s.hi, s.key
        if k.budget:
            assert not k.budget_setting().named, k.name
        assert all(not k.setting(key).named for key in k.scaled), k.name
    columns = list(range(N_WEIGHTS, PP_MODEL)) + list(range(PP_TAIL, PP_WIDTH))
    assert sorted(seen) == columns, "a row column without a setting"
    assert BY_NAME["greedy"].game_bytes, "greedy's bytes stand in for the kinds not measured"


_check_registry()
