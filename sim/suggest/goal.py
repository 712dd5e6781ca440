"""Balance goals for `kalarite suggest`: a small TOML spec, or the command's shorthands.

A goal names one deck and what its win share (win 1, shared win 1/2) should become, per
two-seat mode, against a field of opponents (mirror matches never count: a deck scores 1/2
against itself by symmetry):

- ``vs-field``: its win share against the field, the matchups weighted equally, into
  ``band = [lo, hi]`` (the designer's band, not always 50%);
- ``matchup-floor``: every matchup of the deck within ``floor`` .. ``ceiling``;
- ``nerf``: its win share against the field down to ``ceiling`` at most.

Spec (every key but ``deck`` and the goal's bounds optional)::

    [goal]
    deck = "everfrost"
    kind = "vs-field"                  # vs-field | matchup-floor | nerf
    band = [0.40, 0.52]                # vs-field
    # floor = 0.40, ceiling = 0.60     # matchup-floor (ceiling alone: nerf)
    modes = ["high-form", "deathmatch"]
    opponents = "all"                  # or a list of deck names
    min_effect = 0.01                  # the designer's smallest effect worth having
    [players]                          # default: the top two of sim.strength (the seer, the sage)
    screen = "seer"                    # plays the base and the race (default: the top player)
    confirm = ["seer", "sage"]         # replays the best edits (default: the top two)
    [edits]
    cards = ["everfrost/*"]            # which cards may change ("deck/*" or "deck/card")
    lock = ["everfrost/ice-queen"]     # never these
    kinds = ["op-remove", "op-repeat", ...]   # sim.suggest.grammar.KINDS
    swaps = ["everfrost/snow-fox=imperial/swordmaster"]
    directions = "goal"                # or "both": also edits whose direction is unknown
    max_candidates = 200               # the race's candidates at most (by prior)
    [budget]
    games = 150000                     # screen + confirmation games, all players
    first_round = 25                   # race games per matchup and mode in round 1
    rounds = 6                         # rounds planned (each doubles the games)
    confirm_games = 300                # per matchup and mode, per confirming player
    confirm_count = 3                  # the best edits replayed on fresh seeds
    check_games = 100                  # invariant-checked random games per candidate
    alpha = 0.05                       # the race's and the confirmation's error rates
    [run]
    seed = 1
    content = "my-cards"               # the card files to start from (relative to the spec)
    stack = 1                          # accept the best edit and search again, N times
    competence = "runs/competence"     # a `kalarite competence --out` directory (optional)

Every value is checked (one-line GoalError) before anything is played.
"""

import dataclasses
import pathlib
from dataclasses import dataclass, field

from sim.suggest.grammar import KINDS

GOAL_KINDS = ("vs-field", "matchup-floor", "nerf")
DUEL_MODES = ("high-form", "deathmatch")
SECTIONS = {
    "goal": {"deck", "kind", "band", "floor", "ceiling", "modes", "opponents", "min_effect"},
    "players": {"screen", "confirm"},
    "edits": {"cards", "lock", "kinds", "swaps", "directions", "max_candidates"},
    "budget": {
        "games",
        "first_round",
        "rounds",
        "confirm_games",
        "confirm_count",
        "check_games",
        "alpha",
    },
    "run": {"seed", "content", "stack", "competence"},
}
MAX_BUDGET = 100_000_000
MAX_ROUNDS = 12
MAX_SEED = 2**63


class GoalError(ValueError):
    """A bad goal spec or bad suggest flags: one line, exit status 2."""


@dataclass
class Goal:
    deck: str
    kind: str = "vs-field"
    band: tuple = (0.0, 1.0)  # the target range of the goal metric (nerf: (0, ceiling))
    modes: tuple = DUEL_MODES
    opponents: tuple | None = None  # None: every dealable deck but the goal's
    min_effect: float = 0.01
    screen_player: str | None = None  # None: the top player (``default_players``)
    confirm_players: tuple | None = None  # None: the top two players (``default_players``)
    cards: tuple | None = None  # full card ids; None: every card of the deck
    lock: tuple = ()
    kinds: tuple = tuple(k for k in KINDS if k != "swap")
    swaps: tuple = ()  # (card id, replacement card id)
    directions: str = "goal"
    max_candidates: int | None = None
    games: int = 150_000
    first_round: int = 25
    rounds: int = 6
    confirm_games: int = 300
    confirm_count: int = 3
    check_games: int = 100
    alpha: float = 0.05
    seed: int = 1
    content: str | None = None  # absolute path; None: the installed card files
    stack: int = 1
    competence: str | None = None
    extra: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        screen, confirm = default_players()
        if self.screen_player is None:
            self.screen_player = screen
        if self.confirm_players is None:
            self.confirm_players = confirm

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d.pop("extra")
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}

    def text(self) -> str:
        """The goal in one line."""
        lo, hi = self.band
        modes = " and ".join(self.modes)
        if self.kind == "vs-field":
            what = f"{self.deck}'s win share against the field into {lo:.0%}..{hi:.0%}"
        elif self.kind == "matchup-floor":
            what = f"every matchup of {self.deck} within {lo:.0%}..{hi:.0%}"
        else:
            what = f"{self.deck}'s win share against the field down to {hi:.0%} at most"
        return f"{what} ({modes})"


def default_players() -> tuple:
    """(screen, confirm): suggest rests on the top of the ladder by default, not on lower
    rungs: the base and the race under the strongest player, the confirmations under the
    two strongest (``sim.strength.strongest_players(2)``, today the seer and the sage)."""
    from sim.strength import strongest_players

    top_two = tuple(strongest_players(2))
    return top_two[0], top_two


def _is_int(v) -> bool:
    from sim.inputs import is_int

    return is_int(v)


def _number(v, what, lo, hi, text, lo_open=False, hi_open=False) -> float:
    """A finite number in its range (sim.inputs' number rule), refused as a GoalError."""
    from sim.inputs import need_number

    return need_number(v, what, lo, hi, GoalError, text, lo_open, hi_open)


def _share(v, what) -> float:
    return _number(v, what, 0, 1, "a win share between 0 and 1")


def _int(v, what, lo, hi) -> int:
    from sim.inputs import need_int

    return need_int(v, what, lo, hi, GoalError)


def _names(v, what) -> tuple:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not v or not all(isinstance(x, str) and x for x in v):
        raise GoalError(f"{what} must be a name or a non-empty list of names, got {v!r}")
    return tuple(v)


def goal_from_dict(data: dict, content, where: str = "goal", base_dir=None) -> Goal:
    """Parse and check a goal (the spec's tables); ``content``: the card files the goal
    starts from (its deck, cards and opponents are checked against them). ``base_dir``:
    where a relative ``run.content`` / ``run.competence`` is (the spec file's folder)."""
    if not isinstance(data, dict):
        raise GoalError(f"{where}: a goal spec is a TOML document of tables")
    for sec, value in data.items():
        if sec not in SECTIONS:
            raise GoalError(f"{where}: unknown table [{sec}] (known: {', '.join(SECTIONS)})")
        if not isinstance(value, dict):
            raise GoalError(f"{where}: [{sec}] must be a table")
        unknown = sorted(set(value) - SECTIONS[sec])
        if unknown:
            raise GoalError(
                f"{where}: [{sec}] has no key {unknown[0]!r} (known: "
                f"{', '.join(sorted(SECTIONS[sec]))})"
            )
    g = data.get("goal", {})
    pl, ed, bu, ru = (data.get(k, {}) for k in ("players", "edits", "budget", "run"))
    if "deck" not in g:
        raise GoalError(f"{where}: [goal] needs 'deck'")
    deck = g["deck"]
    if not isinstance(deck, str) or deck not in content.decks:
        raise GoalError(
            f"{where}: goal.deck: unknown deck {deck!r} (decks: {', '.join(content.decks)})"
        )
    kind = g.get("kind", "vs-field")
    if kind not in GOAL_KINDS:
        raise GoalError(f"{where}: goal.kind must be one of {', '.join(GOAL_KINDS)}, got {kind!r}")
    band = _bounds(g, kind, where)
    modes = _names(g.get("modes", list(DUEL_MODES)), f"{where}: goal.modes")
    for m in modes:
        if m not in DUEL_MODES:
            raise GoalError(
                f"{where}: goal.modes: {m!r} is not a two-seat mode a deck is rated in "
                f"({', '.join(DUEL_MODES)})"
            )
    opponents = None
    if g.get("opponents", "all") != "all":
        opponents = _names(g["opponents"], f"{where}: goal.opponents")
        for o in opponents:
            if o not in content.decks:
                raise GoalError(f"{where}: goal.opponents: unknown deck {o!r}")
            if o == deck:
                raise GoalError(
                    f"{where}: goal.opponents: {deck} against itself is a mirror match (always "
                    "1/2 by symmetry): leave it out"
                )
        if len(set(opponents)) != len(opponents):
            raise GoalError(f"{where}: goal.opponents names a deck twice")
    min_effect = _number(
        g.get("min_effect", 0.01),
        f"{where}: goal.min_effect",
        0,
        1,
        "a share in (0, 1)",
        True,
        True,
    )
    screen = pl.get("screen", default_players()[0])
    confirm = pl.get("confirm")
    from sim.players import parse_policy

    for p in [screen] + list(
        confirm if isinstance(confirm, list) else [confirm] if confirm else []
    ):
        if not isinstance(p, str):
            raise GoalError(f"{where}: players: a player is a name, got {p!r}")
        try:
            parse_policy(p)
        except ValueError as e:
            raise GoalError(f"{where}: players: {e}") from None
    if confirm is not None:
        confirm = _names(confirm, f"{where}: players.confirm")
        if len(confirm) != 2 or confirm[0] == confirm[1]:
            raise GoalError(f"{where}: players.confirm names two different players")
    cards = lock = None
    deck_cards = {c.id for c in content.cards if c.deck == deck}
    if "cards" in ed:
        cards = _card_ids(ed["cards"], deck, deck_cards, f"{where}: edits.cards")
    lock = _card_ids(ed.get("lock", []), deck, deck_cards, f"{where}: edits.lock", empty=True)
    kinds = tuple(k for k in KINDS if k != "swap")
    if "kinds" in ed:
        kinds = _names(ed["kinds"], f"{where}: edits.kinds")
        for k in kinds:
            if k not in KINDS:
                raise GoalError(f"{where}: edits.kinds: unknown kind {k!r} ({', '.join(KINDS)})")
    swaps = _swaps(ed.get("swaps", []), deck, deck_cards, content, f"{where}: edits.swaps")
    if swaps and "swap" not in kinds:
        kinds = (*kinds, "swap")
    directions = ed.get("directions", "goal")
    if directions not in ("goal", "both"):
        raise GoalError(f"{where}: edits.directions must be 'goal' or 'both', got {directions!r}")
    max_c = ed.get("max_candidates")
    if max_c is not None:
        max_c = _int(max_c, f"{where}: edits.max_candidates", 1, 10_000)
    seed = _int(ru.get("seed", 1), f"{where}: run.seed", 0, MAX_SEED - 1)
    stack = _int(ru.get("stack", 1), f"{where}: run.stack", 1, 20)
    content_dir = _dir(ru.get("content"), f"{where}: run.content", base_dir)
    competence = _dir(ru.get("competence"), f"{where}: run.competence", base_dir)
    goal = Goal(
        deck=deck,
        kind=kind,
        band=band,
        modes=modes,
        opponents=opponents,
        min_effect=float(min_effect),
        screen_player=screen,
        confirm_players=confirm,
        cards=cards,
        lock=lock,
        kinds=kinds,
        swaps=swaps,
        directions=directions,
        max_candidates=max_c,
        games=_int(bu.get("games", 150_000), f"{where}: budget.games", 1, MAX_BUDGET),
        first_round=_int(bu.get("first_round", 25), f"{where}: budget.first_round", 2, 100_000),
        rounds=_int(bu.get("rounds", 6), f"{where}: budget.rounds", 1, MAX_ROUNDS),
        confirm_games=_int(
            bu.get("confirm_games", 300), f"{where}: budget.confirm_games", 2, 1_000_000
        ),
        confirm_count=_int(bu.get("confirm_count", 3), f"{where}: budget.confirm_count", 1, 20),
        check_games=_int(bu.get("check_games", 100), f"{where}: budget.check_games", 0, 100_000),
        alpha=_alpha(bu.get("alpha", 0.05), f"{where}: budget.alpha"),
        seed=seed,
        content=content_dir,
        stack=stack,
        competence=competence,
    )
    return goal


def _bounds(g, kind, where) -> tuple:
    keys = {"vs-field": ("band",), "matchup-floor": ("floor", "ceiling"), "nerf": ("ceiling",)}
    for k in ("band", "floor", "ceiling"):
        if k in g and k not in keys[kind]:
            raise GoalError(f"{where}: goal.{k} is not a key of a {kind} goal")
    if kind == "vs-field":
        if "band" not in g:
            raise GoalError(f"{where}: a vs-field goal needs band = [lo, hi]")
        b = g["band"]
        if not isinstance(b, list) or len(b) != 2:
            raise GoalError(f"{where}: goal.band must be [lo, hi], got {b!r}")
        lo, hi = (_share(x, f"{where}: goal.band") for x in b)
    elif kind == "matchup-floor":
        lo = _share(g.get("floor", 0.0), f"{where}: goal.floor")
        hi = _share(g.get("ceiling", 1.0), f"{where}: goal.ceiling")
        if "floor" not in g and "ceiling" not in g:
            raise GoalError(f"{where}: a matchup-floor goal needs floor and/or ceiling")
    else:
        if "ceiling" not in g:
            raise GoalError(f"{where}: a nerf goal needs ceiling (the most win share left)")
        lo, hi = 0.0, _share(g["ceiling"], f"{where}: goal.ceiling")
    if not lo < hi:
        raise GoalError(f"{where}: the goal's range is empty ({lo} .. {hi})")
    return (lo, hi)


def _alpha(v, what) -> float:
    return _number(v, what, 0, 0.5, "an error rate in (0, 0.5)", True, True)


def _card_ids(v, deck, deck_cards, what, empty=False) -> tuple:
    if empty and v == []:
        return ()
    out = []
    for name in _names(v, what):
        if name == f"{deck}/*":
            out.extend(sorted(deck_cards))
            continue
        if name not in deck_cards:
            raise GoalError(
                f"{what}: {name!r} is not a card of {deck} (give deck/card or {deck}/*; edits "
                "change the goal deck's cards only)"
            )
        out.append(name)
    return tuple(dict.fromkeys(out))


def _swaps(v, deck, deck_cards, content, what) -> tuple:
    if v == []:
        return ()
    from core import constants as K

    ids = {c.id for c in content.cards if c.kind != K.CK_FLARE}
    out = []
    for item in _names(v, what):
        a, sep, b = item.partition("=")
        if not sep or a not in deck_cards:
            raise GoalError(f"{what}: {item!r} must read {deck}/CARD=DECK/CARD")
        if b not in ids or b in deck_cards:
            raise GoalError(
                f"{what}: {item!r}: {b!r} is not a being or legend card of another deck"
            )
        out.append((a, b))
    return tuple(out)


def _dir(v, what, base_dir) -> str | None:
    if v is None:
        return None
    if not isinstance(v, str) or not v:
        raise GoalError(f"{what} must be a directory name")
    p = pathlib.Path(v).expanduser()
    if base_dir is not None and not p.is_absolute():
        p = pathlib.Path(base_dir) / p
    if not p.is_dir():
        raise GoalError(f"{what}: {v!r} is not a directory")
    return str(p.resolve())


def read_goal_file(path) -> dict:
    """A goal spec file, read as any untrusted document (sim.inputs: bounded size and
    nesting, every problem one line naming the file)."""
    from sim.inputs import read_document

    p = pathlib.Path(path)
    return read_document(p, p.name, "TOML", GoalError)


def load_goal(path, content_dir=None) -> Goal:
    """A goal spec file, checked against its content (``content_dir`` replaces the spec's
    ``run.content``)."""
    from sim.content import ContentError
    from sim.content.copies import load_content_dir

    p = pathlib.Path(path)
    data = read_goal_file(p)
    run = data.get("run", {}) if isinstance(data, dict) else {}
    if content_dir is not None:
        if isinstance(run, dict):
            run["content"] = str(pathlib.Path(content_dir).resolve())
    where = p.name
    cdir = (
        _dir(run.get("content"), f"{where}: run.content", p.parent)
        if isinstance(run, dict)
        else None
    )
    try:
        content = load_content_dir(cdir, what=f"{where}: run.content")
    except ContentError as e:
        raise GoalError(str(e)) from None
    return goal_from_dict(data, content, where=where, base_dir=p.parent)


def _split(text, flag) -> list:
    items = [x.strip() for x in text.split(",") if x.strip()]
    if not items:
        raise GoalError(f"{flag} needs values separated by commas")
    return items


def _pair(text, flag) -> list:
    items = _split(text, flag)
    if len(items) != 2:
        raise GoalError(f"{flag} needs two win shares LO,HI, got {text!r}")
    try:
        return [float(x) for x in items]
    except ValueError:
        raise GoalError(f"{flag} needs two numbers LO,HI, got {text!r}") from None


def goal_from_flags(args) -> Goal:
    """The shorthand: ``--deck D --band LO,HI`` (or ``--floor LO,HI``, ``--nerf HI``) and the
    optional flags of `kalarite suggest` into the same checked Goal."""
    from sim.content import ContentError
    from sim.content.copies import load_content_dir

    if not args.deck:
        raise GoalError("give a goal spec (GOAL.toml) or --deck with --band, --floor or --nerf")
    given = [f for f in ("band", "floor", "nerf") if getattr(args, f) is not None]
    if len(given) != 1:
        raise GoalError("give one of --band LO,HI, --floor LO,HI or --nerf HI")
    g = {"deck": args.deck}
    if args.band is not None:
        g["band"] = _pair(args.band, "--band")
    elif args.floor is not None:
        g["kind"] = "matchup-floor"
        g["floor"], g["ceiling"] = _pair(args.floor, "--floor")
    else:
        g["kind"] = "nerf"
        try:
            g["ceiling"] = float(args.nerf)
        except ValueError:
            raise GoalError(f"--nerf needs a win share, got {args.nerf!r}") from None
    if args.modes:
        g["modes"] = _split(args.modes, "--modes")
    if args.opponents:
        g["opponents"] = _split(args.opponents, "--opponents")
    if args.min_effect is not None:
        g["min_effect"] = args.min_effect
    data = {"goal": g, "players": {}, "edits": {}, "budget": {}, "run": {}}
    if args.policy:
        data["players"]["screen"] = args.policy
    if args.confirm_players:
        data["players"]["confirm"] = _split(args.confirm_players, "--confirm-players")
    if args.cards:
        data["edits"]["cards"] = _split(args.cards, "--cards")
    if args.lock:
        data["edits"]["lock"] = _split(args.lock, "--lock")
    if args.swap:
        data["edits"]["swaps"] = list(args.swap)
    if args.kinds:
        data["edits"]["kinds"] = _split(args.kinds, "--kinds")
    if args.candidates is not None:
        data["edits"]["max_candidates"] = args.candidates
    for flag, key in (
        ("games", "games"),
        ("first_round", "first_round"),
        ("rounds", "rounds"),
        ("confirm_games", "confirm_games"),
        ("check_games", "check_games"),
    ):
        if getattr(args, flag) is not None:
            data["budget"][key] = getattr(args, flag)
    for flag in ("seed", "stack"):
        if getattr(args, flag) is not None:
            data["run"][flag] = getattr(args, flag)
    if args.competence:
        data["run"]["competence"] = args.competence
    try:
        content = load_content_dir(args.content)
    except ContentError as e:
        raise GoalError(str(e)) from None
    if args.content:
        data["run"]["content"] = args.content
    return goal_from_dict(data, content, where="suggest", base_dir=pathlib.Path.cwd())
