"""A study spec's keys, each declared once with its rule, its default and the flag that gives
it: what ``kalarite study`` (a TOML file), ``api.run`` (a dict), the service (a request body),
``kalarite simulate``, ``kalarite check`` and ``kalarite demo`` (flags) and ``kalarite play``
(one game) are checked by, and what the service's /docs publishes as the spec's JSON Schema.

The keys are documented in sim/study/__init__.py (and docs/studies.md); sim.study turns the checked
values into a Study. A message names a key the way the user gave it: ``spec.toml: 'games'
must be ...`` for a spec, ``--games must be ...`` for a flag.
"""

import math

from core import constants as K
from sim.chunking import MAX_CHUNK_SIZE, MAX_GAMES
from sim.inputs import (
    Bool,
    Directory,
    Field,
    Fields,
    InputError,
    Int,
    Number,
    Rule,
    Text,
    got,
    is_int,
    show,
)

DEFAULT_TURN_CAP = K.DEFAULT_TURN_CAP  # the engine's one definition (core.constants)
# The player of a study that names none: the turn planner, the weakest player whose games the
# score decides. Random players' games all end by deck exhaustion and are decided by the
# tie-breakers, so they say little about the decks (they stay for speed work: "random").
DEFAULT_POLICY = "planner"
NEW_PLAYER_DECK = "imperial"  # the new-player rules: two Imperial decks
MAX_SEED = 2**64
MAX_TURN_CAP = 100_000
MAX_POSITIONS = 1000  # the positions key: sample one turn end in at most this many
MAX_NAMES = 64  # deck or policy names in one list
MAX_SEAT_LISTS = 10_000  # explicit seat lists of a spec
MAX_NAME = 200  # characters of a study's name (reports show it as their title)
# the report's stability rule (results/analysis/stability.py): a deck's move that matters
DEFAULT_STABILITY_MARGIN = 3.0
MAX_STABILITY_MARGIN = 50.0
# How a matchup's games are dealt (sim.study.matchup_seed). "shared": game i of a matchup (mode,
# seat decks) is dealt alike whatever the players, so two players' games pair up deal by deal;
# "per-player": the seed also names the seat players (every study before this key; a dataset
# started so resumes so). A spec without the key is "shared", or its dataset's own on resume.
DEALS = ("shared", "per-player")
DEFAULT_DEALS = "shared"
OLD_DEALS = "per-player"  # a stored spec without the key was dealt so
MIN_TRACE_LEVELS = 4  # a skill trace: at least four budgets of one player
MAX_TRACE_LEVELS = 12
MAX_TRACE_BUDGET = 1_000_000
MAX_UNTIL_WIDTH = 100.0


def _dedupe(items):
    return list(dict.fromkeys(items))


def _names(value, n_max: int) -> bool:
    return (
        isinstance(value, list)
        and 0 < len(value) <= n_max
        and all(isinstance(v, str) for v in value)
    )


class Decks(Rule):
    """``"all"``, a list of deck names, or a list of seat lists (2 to 4 names each)."""

    def check(self, value, what, error=InputError):
        if value == "all":
            return "all"
        if _names(value, MAX_NAMES):
            return _dedupe(value)
        if isinstance(value, list) and 0 < len(value) <= MAX_SEAT_LISTS:
            if all(isinstance(v, list) for v in value):
                for v in value:
                    if not 2 <= len(v) <= 4 or not all(isinstance(x, str) for x in v):
                        raise error(
                            f"each entry of {what} must list 2 to 4 deck names (one per seat), "
                            f"got {show(v)}"
                        )
                return _dedupe(tuple(v) for v in value)
        raise error(
            f'{what} must be "all", a list of at most {MAX_NAMES} deck names, or a list of '
            f"seat lists, {got(value)}"
        )

    def schema(self):
        names = {"type": "array", "items": {"type": "string"}, "minItems": 1}
        return {
            "anyOf": [
                {"const": "all"},
                {**names, "maxItems": MAX_NAMES},
                {
                    "type": "array",
                    "items": {**names, "minItems": 2, "maxItems": 4},
                    "minItems": 1,
                    "maxItems": MAX_SEAT_LISTS,
                },
            ]
        }


class Modes(Rule):
    """``"all"``, one mode name, or a list of them."""

    def check(self, value, what, error=InputError):
        if value == "all":
            return list(K.MODE_NAMES)
        names = [value] if isinstance(value, str) else value
        if not _names(names, MAX_NAMES):
            raise error(f"{what} must be a mode name or a non-empty list of names, {got(value)}")
        for mode in names:
            if mode not in K.MODE_NAMES:
                raise error(
                    f"{what}: unknown mode {mode!r} (known modes: {', '.join(K.MODE_NAMES)})"
                )
        return _dedupe(names)

    def schema(self):
        one = {"enum": list(K.MODE_NAMES)}
        return {"anyOf": [{"const": "all"}, one, {"type": "array", "items": one, "minItems": 1}]}


class Policies(Rule):
    """One player for every seat, one per seat (2 to 4), or a list of such lists: tuples."""

    def check(self, value, what, error=InputError):
        if isinstance(value, str):
            return [(value,)]
        if _names(value, 4):
            return [tuple(value)]
        if isinstance(value, list) and 0 < len(value) <= MAX_NAMES:
            if all(_names(v, 4) for v in value):
                return _dedupe(tuple(v) for v in value)
        raise error(
            f"{what} must be a policy name, a list with one per seat, or a list of such lists, "
            f"{got(value)}"
        )

    def schema(self):
        seats = {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 4}
        return {
            "anyOf": [
                {"type": "string"},
                seats,
                {"type": "array", "items": seats, "minItems": 1, "maxItems": MAX_NAMES},
            ]
        }


class MeleePlayers(Rule):
    """3, 4 or a list of them: the seat counts melee is played with."""

    def check(self, value, what, error=InputError):
        values = [value] if is_int(value) else value
        if not (
            isinstance(values, list)
            and 0 < len(values) <= MAX_NAMES
            and all(is_int(v) and v in (3, 4) for v in values)
        ):
            raise error(f"{what} must be 3, 4 or a list of them, {got(value)}")
        return sorted(set(values))

    def schema(self):
        one = {"enum": [3, 4]}
        return {"anyOf": [one, {"type": "array", "items": one, "minItems": 1}]}


class Points(Number):
    """A number of points of win rate above 0 and at most ``hi`` (an integer or a float, not
    a bool): the stability margin."""

    def __init__(self, hi: float):
        super().__init__(0, hi, f"a number of points above 0 and at most {hi:g}", lo_open=True)


class Choice(Rule):
    """One of a few names."""

    def __init__(self, names):
        self.names = tuple(names)

    def check(self, value, what, error=InputError):
        if not isinstance(value, str) or value not in self.names:
            raise error(f"{what} must be one of {', '.join(self.names)}, {got(value)}")
        return value

    def schema(self):
        return {"enum": list(self.names)}


class Trace(Rule):
    """A skill trace: ``{player = "sage", levels = [1, 2, 4, 8]}``, one player (without its
    budget setting) and its budgets, at least MIN_TRACE_LEVELS, increasing. The player and its
    budget setting are checked against the players by sim.study."""

    def check(self, value, what, error=InputError):
        if not isinstance(value, dict) or set(value) != {"player", "levels"}:
            raise error(
                f"{what} must be a table with the keys player and levels, e.g. "
                f'{{player = "planner", levels = [1, 2, 4, 8]}}, {got(value)}'
            )
        player = value["player"]
        if not isinstance(player, str) or not player.strip() or len(player) > MAX_NAME:
            raise error(f"{what}: player must be a player's name, {got(player)}")
        levels = value["levels"]
        ok = (
            isinstance(levels, list)
            and MIN_TRACE_LEVELS <= len(levels) <= MAX_TRACE_LEVELS
            and all(is_int(b) and 1 <= b <= MAX_TRACE_BUDGET for b in levels)
        )
        if not ok or any(b <= a for a, b in zip(levels, levels[1:], strict=False)):
            raise error(
                f"{what}: levels must list {MIN_TRACE_LEVELS} to {MAX_TRACE_LEVELS} increasing "
                f"budgets (integers from 1 to {MAX_TRACE_BUDGET:,}), e.g. [1, 2, 4, 8], "
                f"{got(levels)}"
            )
        return {"player": player.strip(), "levels": list(levels)}

    def schema(self):
        budget = {"type": "integer", "minimum": 1, "maximum": MAX_TRACE_BUDGET}
        return {
            "type": "object",
            "properties": {
                "player": {"type": "string", "minLength": 1},
                "levels": {
                    "type": "array",
                    "items": budget,
                    "minItems": MIN_TRACE_LEVELS,
                    "maxItems": MAX_TRACE_LEVELS,
                },
            },
            "required": ["player", "levels"],
            "additionalProperties": False,
        }


class Until(Rule):
    """When a study stops before its ``games`` (the cap): ``decided`` (the stability decision
    of every mode) or ``width=W`` (every deck's interval narrower than W points)."""

    def check(self, value, what, error=InputError):
        if value == "decided":
            return value
        text = value if isinstance(value, str) else ""
        key, sep, number = text.partition("=")
        try:
            w = float(number) if key.strip() == "width" and sep else math.nan
        except ValueError:
            w = math.nan
        if not (math.isfinite(w) and 0 < w <= MAX_UNTIL_WIDTH):
            raise error(
                f"{what} must be decided or width=W (W points, above 0 and at most "
                f"{MAX_UNTIL_WIDTH:g}), {got(value)}"
            )
        return f"width={w:g}"

    def schema(self):
        return {"type": "string", "pattern": r"^(decided|width=[0-9.]+)$"}


def until_width(until: str | None) -> float | None:
    """W of ``width=W`` (None for ``decided`` or no rule)."""
    if not until or not until.startswith("width="):
        return None
    return float(until.partition("=")[2])


def _melee_default(raw) -> list:
    """Melee with 3 seats when the spec names decks (every multiset of 3), else 3 and 4."""
    decks = raw.get("decks")
    lists = isinstance(decks, list) and decks and all(isinstance(v, list) for v in decks)
    return [3, 4] if lists else [3]


SPEC = Fields(
    Field(
        "name",
        Text(max_len=MAX_NAME, display=True),
        "free text, shown by reports (no bidi or zero-width controls)",
        default="",
    ),
    Field(
        "decks",
        Decks(),
        '"all" (every deck the engine deals), deck names (every pairing, mirror matches '
        "included; every multiset or team seating for modes with more seats), or explicit "
        "seat lists",
        flag="--decks",
    ),
    Field(
        "modes",
        Modes(),
        '"all", a mode name or a list of them',
        default="high-form",
        flag="--mode",
        alias="mode",
    ),
    Field(
        "policies",
        Policies(),
        "the player of every seat, one per seat, or a list of such lists (one study each)",
        default=DEFAULT_POLICY,
        flag="--policy",
        alias="policy",
    ),
    Field(
        "melee_players",
        MeleePlayers(),
        "melee seat counts (default 3 with deck names, 3 and 4 with seat lists)",
        default=_melee_default,
    ),
    Field(
        "games",
        Int(1, MAX_GAMES, f"a positive integer up to {MAX_GAMES:,}"),
        "games per matchup (and mode)",
        flag="--games",
    ),
    Field("seed", Int(0, MAX_SEED - 1), "the study seed", default=0, flag="--seed"),
    Field(
        "turn_cap",
        Int(1, MAX_TURN_CAP),
        "a game ends after this turn",
        default=DEFAULT_TURN_CAP,
        flag="--turn-cap",
    ),
    Field(
        "beings_without_effects",
        Bool(),
        "deal beings whose effect is not implemented yet, as no-effect beings",
        default=False,
        flag="--beings-without-effects",
    ),
    Field(
        "chunk_size",
        Int(1, MAX_CHUNK_SIZE),
        "games per chunk (default: sized to the players' speed; never changes a result)",
        default=None,
        flag="--chunk-size",
    ),
    Field(
        "content",
        Directory(),
        "a copy of the card files (kalarite cards copy DIR), relative to the spec file; "
        "the service takes the name of a directory under its data directory's content/",
        default=None,
        flag="--content",
    ),
    Field(
        "positions",
        Int(
            0,
            MAX_POSITIONS,
            f"an integer from 0 (off) to {MAX_POSITIONS} (sample about one turn end in that many)",
        ),
        "write the positions table, sampling about one turn end in this many (0: off)",
        default=0,
        flag="--positions",
    ),
    Field(
        "stability_margin",
        Points(MAX_STABILITY_MARGIN),
        "the report's stability margin, in points of win rate against the field: stable when "
        "every deck's move between the players is shown within it, player-sensitive when one "
        "is shown beyond it (report and compare --margin override it; never changes a game)",
        default=DEFAULT_STABILITY_MARGIN,
    ),
    Field(
        "deals",
        Choice(DEALS),
        'how games are dealt: "shared" (game i of a matchup is dealt alike whatever the '
        'players, so players compare deal by deal; the default of a new study) or "per-player" '
        "(the seed also names the seat players: every study before this key; a dataset "
        "resumes with its own unless the spec names one)",
        default=None,
    ),
    Field(
        "mirrors",
        Bool(),
        "play mirror matches (a deck against itself); false for a study that only needs each "
        "deck's win rate against the field (the new-player rules keep their two Imperial decks)",
        default=True,
    ),
    Field(
        "trace",
        Trace(),
        "a skill trace: {player, levels}: the player at each budget of levels (its budget "
        "setting, sim.player_kinds) in self-play, and adjacent levels against each other "
        "with each deck in both seats (kalarite trace)",
        default=None,
    ),
    Field(
        "until",
        Until(),
        "stop before games (the cap) at the first of the doubling looks that decides: "
        '"decided" (every mode\'s stability verdict) or "width=W" (every deck\'s interval '
        "narrower than W points); the error is spent over the looks",
        default=None,
        flag="--until",
    ),
)
SPEC_KEYS = SPEC.known()
# the flags of `kalarite simulate`, `kalarite study` and `kalarite play` (what their messages name)
FLAGS = {f.key: f.flag for f in SPEC.fields.values() if f.flag}


def spec_schema() -> dict:
    """The study spec as JSON Schema (the same keys as TOML); the service's /docs shows it."""
    return SPEC.schema(
        "Study spec",
        "Which games a study plays: the keys of a `kalarite study` TOML file, as TOML "
        "(application/toml) or JSON (application/json). See docs/studies.md.",
    )


def seats_text(mode: str) -> str:
    seats = K.MODE_SEATS[K.MODE_NAMES.index(mode)]
    return " or ".join(str(n) for n in seats)


def seat_problem(mode: str, decks, policies, flags=None) -> str | None:
    """Why these seat decks and policies are not a game of ``mode`` (None: they are): the
    one seat rule of specs, ``kalarite simulate`` and ``kalarite play``. ``flags``: name the
    flags that gave them (``FLAGS``)."""
    flags = flags or {}
    seats = K.MODE_SEATS[K.MODE_NAMES.index(mode)]
    if len(decks) not in seats:
        return (
            f"{flags.get('decks', 'decks')}: {mode} needs {seats_text(mode)} decks (one per "
            f"seat), got {len(decks)}"
        )
    if len(policies) not in (1, len(decks)):
        return (
            f"{flags.get('policies', 'policies')}: needs 1 or {len(decks)} players (one per seat)"
        )
    if mode == "new-player" and any(d != NEW_PLAYER_DECK for d in decks):
        return "new-player rules are played with two imperial decks"
    return None
