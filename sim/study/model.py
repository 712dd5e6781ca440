"""The study model: a Study (decks, modes, players, games, seeds) and its expansion into
matchups, their seeds and deals, listed games and skill traces (the spec is read by
sim.study.load; the package docstring documents the spec keys)."""

import hashlib
import itertools
import json
import re
from dataclasses import dataclass, field

from core import constants as K
from sim.chunking import DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MAX_GAMES  # noqa: F401 (re-exported)
from sim.inputs import InputError, is_int
from sim.spec import (  # noqa: F401 (re-exported: the spec's keys and limits are sim.spec's)
    DEALS,
    DEFAULT_DEALS,
    DEFAULT_POLICY,
    DEFAULT_STABILITY_MARGIN,
    DEFAULT_TURN_CAP,
    FLAGS,
    MAX_POSITIONS,
    MAX_SEED,
    MAX_STABILITY_MARGIN,
    MAX_TURN_CAP,
    NEW_PLAYER_DECK,
    OLD_DEALS,
    SPEC,
    SPEC_KEYS,
    seat_problem,
    seats_text,
)

WHY_DEFAULT_POLICY = (
    "random players' games all end when the decks run out and are decided by the tie-breakers, "
    "so they say little about the decks"
)
# names end up in directory names (hive partitions): keep them plain; a hyphen may join
# words (imperial-v2) but "-vs-" separates the seats of a matchup
SAFE_NAME = re.compile(r"^[A-Za-z0-9_.]+(-[A-Za-z0-9_.]+)*$")
_UNSAFE_CHARS = re.compile(r"[^A-Za-z0-9_.-]")


class StudyError(InputError):
    """A bad study spec or bad study flags: one line, exit status 2."""


@dataclass(frozen=True)
class Matchup:
    mode: str
    decks: tuple  # deck name per seat
    policies: tuple  # policy name per seat
    seed: int  # 64-bit matchup seed
    games: int
    # the game indices played, sorted (``Study.game_lists``); empty: games 0 .. games - 1
    game_list: tuple = ()

    @property
    def matchup(self) -> str:
        return "-vs-".join(self.decks)

    @property
    def policy_pair(self) -> str:
        return "-vs-".join(policy_label(p) for p in self.policies)

    def to_dict(self) -> dict:
        return {
            "mode": self.mode,
            "matchup": self.matchup,
            "policies": self.policy_pair,
            "seat_decks": list(self.decks),
            "seat_policies": list(self.policies),
            "seed": self.seed,
            "games": self.games,
            # a game list (a study of some games): its span (the lists are in no file; the
            # spec's game_lists digest identifies them)
            **(
                {"game_list": {"first": self.game_list[0], "last": self.game_list[-1]}}
                if self.game_list
                else {}
            ),
        }


@dataclass
class Study:
    """A validated, expanded study: what is played. ``chunk_size`` is how the work is split
    (it never changes a result) and is not part of ``to_dict``."""

    decks: list  # [(seat0 deck, seat1 deck, ...), ...]; modes take the lists of their seats
    modes: list
    policies: list  # [(one spec for every seat,) or (seat0 policy, seat1 policy, ...), ...]
    games: int
    seed: int = 0
    turn_cap: int = K.DEFAULT_TURN_CAP
    beings_without_effects: bool = False
    name: str = ""
    chunk_size: int | None = field(default=None, compare=False)
    melee_players: tuple = (3, 4)  # seat counts melee is played with
    content: str | None = None  # absolute path of a designer's card files; None: installed
    # deck name used in the matchup seeds: a variant deck plays with its original's seeds
    seed_names: dict = field(default_factory=dict, compare=False)
    positions: int = 0  # the positions table: about one turn end in this many; 0 off
    stability_margin: float = DEFAULT_STABILITY_MARGIN  # read by the report, not the games
    # {(mode, seat decks, seat policies): sorted game indices}: the study plays exactly
    # these games of those matchups (and no other matchup); None: games 0 .. games - 1 of
    # every matchup. Made by ``with_game_lists`` (the Python API; no spec key), so that a
    # study can play a later window of games, or only some of them, with the same seeds.
    game_lists: dict | None = field(default=None, compare=False)
    deals: str = DEFAULT_DEALS  # how matchups are seeded (module docstring)
    # the spec named its deals (else a dataset being resumed keeps its own: cluster.runner)
    deals_given: bool = field(default=True, compare=False)
    mirrors: bool = True  # the name-expanded seat lists include a deck against itself
    trace: dict | None = None  # {"player", "setting", "levels"}: a skill trace
    until: str | None = None  # "decided" or "width=W": stop at the first look that decides

    def to_dict(self) -> dict:
        """The normalized spec: stored in the dataset metadata and compared on resume."""
        return {
            "name": self.name,
            "decks": [list(p) for p in self.decks],
            "modes": list(self.modes),
            "policies": [list(p) for p in self.policies],
            "games": self.games,
            "seed": self.seed,
            "turn_cap": self.turn_cap,
            "beings_without_effects": self.beings_without_effects,
            "melee_players": list(self.melee_players),
            **({"content": self.content} if self.content else {}),
            # off, the spec is the one it always was (nothing in the dataset changes)
            **({"positions": self.positions} if self.positions else {}),
            **(
                {"stability_margin": self.stability_margin}
                if self.stability_margin != DEFAULT_STABILITY_MARGIN
                else {}
            ),
            **({"game_lists": game_lists_digest(self.game_lists)} if self.game_lists else {}),
            "deals": self.deals,
            **({} if self.mirrors else {"mirrors": False}),
            **(
                {"trace": {"player": self.trace["player"], "levels": list(self.trace["levels"])}}
                if self.trace
                else {}
            ),
            **({"until": self.until} if self.until else {}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def matchups(self) -> list:
        """Every (mode, policies, decks) whose seat count fits the mode; a trace's
        head-to-head games after its self-play."""
        out = []
        for mode in self.modes:
            for pols in self.policies:
                for decks in self.decks:
                    if not self.plays(mode, decks, pols):
                        continue
                    seat_pols = tuple(pols) * len(decks) if len(pols) == 1 else tuple(pols)
                    games, game_list = self._games_of(mode, tuple(decks), seat_pols)
                    if games:
                        out.append(self._matchup(mode, tuple(decks), seat_pols, games, game_list))
            for decks, seat_pols in self.head_to_head() if mode in TRACE_MODES else ():
                games, game_list = self._games_of(mode, decks, seat_pols)
                if games:
                    out.append(self._matchup(mode, decks, seat_pols, games, game_list))
        return out

    def _games_of(self, mode, decks, seat_pols) -> tuple:
        """(games, game list) of a matchup: all ``games`` (an empty list), or only the listed
        ones of a study of listed games (``with_game_lists``; 0: not played)."""
        if self.game_lists is None:
            return self.games, ()
        game_list = self.game_lists.get((mode, decks, seat_pols), ())
        return len(game_list), game_list

    def _matchup(self, mode, decks, seat_pols, games, game_list=()) -> Matchup:
        players = None if self.deals == "shared" else [seed_policy(p) for p in seat_pols]
        names = [self.seed_names.get(d, d) for d in decks]
        return Matchup(
            mode=mode,
            decks=decks,
            policies=seat_pols,
            seed=matchup_seed(self.seed, mode, names, players),
            games=games,
            game_list=game_list,
        )

    def head_to_head(self) -> list:
        """A trace's games between adjacent levels: (seat decks, seat players) with each deck
        of the study against itself, the lower level in seat 0 and then in seat 1 (so a
        level's edge is neither a deck's nor a seat's); [] without a trace."""
        if not self.trace:
            return []
        names = list(dict.fromkeys(d for pair in self.decks if len(pair) == 2 for d in pair))
        specs = trace_players(self.trace)
        out = []
        for lo, hi in zip(specs, specs[1:], strict=False):
            for d in names:
                out += [((d, d), (lo, hi)), ((d, d), (hi, lo))]
        return out

    def plays(self, mode: str, decks, policies) -> bool:
        """Does this study play ``mode`` with these seat decks and policies?"""
        return plays(mode, decks, policies, self.melee_players)

    @property
    def total_games(self) -> int:
        return sum(m.games for m in self.matchups())


def plays(mode: str, decks, policies, melee_players) -> bool:
    """Is ``mode`` played with these seat decks and policies (melee: with its seat counts)?"""
    if mode == "melee" and len(decks) not in melee_players:
        return False
    return fits(mode, decks, policies)


def fits(mode: str, decks, policies) -> bool:
    """Does this seat list (and policy list) belong to ``mode``? (sim.spec.seat_problem)"""
    return seat_problem(mode, decks, policies) is None


def _played(modes, policies, decks, melee_players) -> set:
    """Every (mode, seat decks, seat policies) these lists play."""
    out = set()
    for mode in modes:
        for pols in policies:
            for d in decks:
                if plays(mode, d, pols, melee_players):
                    seats = tuple(pols) * len(d) if len(pols) == 1 else tuple(pols)
                    out.add((mode, tuple(d), seats))
    return out


def same_players(policies, decks, modes, melee_players=(3, 4)) -> list:
    """The policy lists in the one form a study stores, compares and shows: a list that names
    the same player for every seat (``["random", "random"]``) becomes that one name
    (``["random"]``), and repeats go, whenever that plays the very same games. (It would not
    when the per-seat list keeps a study to one seat count, e.g. ``["random", "random"]``
    beside seat lists of three decks: that list stays as given.) Unknown modes (a manifest of
    another version) leave the lists as they are."""
    lists = [tuple(p) for p in policies or []]
    if any(m not in K.MODE_NAMES for m in modes or []):
        return _dedupe(lists)
    decks = [tuple(d) for d in decks or []]
    games = _played(modes, lists, decks, melee_players)
    out = list(lists)
    for i, p in enumerate(lists):
        if len(p) > 1 and len(set(p)) == 1:
            trial = out[:i] + [p[:1]] + out[i + 1 :]
            if _played(modes, trial, decks, melee_players) == games:
                out = trial
    return _dedupe(out)


def canonical_spec(spec: dict) -> dict:
    """A stored study spec (study.json's ``study``, of any version) with its policy lists in
    the form of ``same_players`` and its ``deals`` named (``per-player`` for a spec stored
    before the key): what resume and ``compare`` compare, what reports show."""
    if not isinstance(spec, dict) or not isinstance(spec.get("policies"), list):
        return spec
    if "deals" not in spec:  # stored before the key: dealt per player
        spec = {**spec, "deals": OLD_DEALS}
    try:
        pols = same_players(
            spec["policies"],
            spec.get("decks") or [],
            spec.get("modes") or [],
            tuple(spec.get("melee_players") or (3, 4)),
        )
    except (TypeError, ValueError):  # a malformed spec: compared as it is
        return spec
    return {**spec, "policies": [list(p) for p in pols]}


def policy_label(spec: str) -> str:
    """A policy spec as a directory-safe name: ``mc:playouts=32`` -> ``mc.playouts_32``."""
    return _UNSAFE_CHARS.sub("_", spec.replace(":", ".").replace("=", "_"))


def seed_policy(spec: str) -> str:
    """The policy name a matchup's seed uses: the spec without its ``restrict=`` setting, so
    a restricted twin plays its full player's deals (common random numbers for
    `kalarite competence`); every other spec is its own."""
    name, *pairs = spec.split(":")
    kept = [p for p in pairs if p.partition("=")[0].strip() != "restrict"]
    return ":".join([name, *kept])


def matchup_seed(study_seed: int, mode: str, decks, policies=None) -> int:
    """The matchup's 64-bit seed: stable across runs, machines and Python versions.
    ``policies`` None: shared deals (the seed names no player); a list: per-player deals (the
    seed of every study before the ``deals`` key)."""
    if policies is None:
        parts = ["kalarite-deal", int(study_seed), mode, list(decks)]
    else:
        parts = ["kalarite-matchup", int(study_seed), mode, list(decks), list(policies)]
    key = json.dumps(parts, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def with_game_lists(study: Study, lists: dict) -> Study:
    """``study`` playing only the given games: ``lists`` maps (mode, seat decks, seat
    policies) of the study's matchups to game indices (any order, no repeats, each in
    0 .. MAX_GAMES - 1); matchups not named (or with no games) are not played. The games
    keep their matchup seeds, so game ``i`` is the same game as in the whole study."""
    import dataclasses

    known = {(m.mode, m.decks, m.policies) for m in study.matchups()}
    clean = {}
    for key, games in lists.items():
        key = (key[0], tuple(key[1]), tuple(key[2]))
        if key not in known:
            raise StudyError(f"game lists: the study plays no matchup {key!r}")
        games = sorted(games)
        if len(set(games)) != len(games):
            raise StudyError(f"game lists: {key!r} names a game twice")
        if games and not all(is_int(g) and 0 <= g < MAX_GAMES for g in games):
            raise StudyError(f"game lists: {key!r} names a game outside 0..{MAX_GAMES - 1:,}")
        if games:
            clean[key] = tuple(int(g) for g in games)
    if not clean:
        raise StudyError("game lists: no game to play")
    if study.positions:
        raise StudyError("game lists: a study that samples positions plays whole ranges")
    games = max(len(g) for g in clean.values())
    return dataclasses.replace(study, games=games, game_lists=clean)


def _runs(games) -> list:
    """Sorted game indices as [first, last] runs of consecutive games."""
    out = []
    for g in games:
        if out and g == out[-1][1] + 1:
            out[-1][1] = g
        else:
            out.append([g, g])
    return out


def _runs_text(games) -> str:
    """``0-99,120,130-199``: a game list as text (the manifest's matchup entries)."""
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in _runs(games))


def game_lists_digest(lists: dict) -> dict:
    """What a study's game lists add to its spec (and so to resume's identity check): the
    games in all and a hash of every list, not the lists (they go into every Parquet file)."""
    h = hashlib.sha256()
    for key in sorted(lists, key=repr):
        h.update(repr(key).encode())
        h.update(_runs_text(lists[key]).encode())
    return {"games": sum(len(g) for g in lists.values()), "sha256": h.hexdigest()[:16]}


TRACE_MODES = ("high-form", "deathmatch")  # a trace's modes: the duels


def trace_players(trace: dict) -> list:
    """The player spec of each level of a trace: ``player:setting=budget``."""
    return [f"{trace['player']}:{trace['setting']}={b}" for b in trace["levels"]]


def trace_of(value: dict, where: str) -> dict:
    """A checked ``trace`` value with its player's budget setting (sim.player_kinds):
    {"player", "setting", "levels"}; StudyError for a player without a budget, or one given
    with it."""
    from sim.player_kinds import BY_NAME, budgets
    from sim.players import resolve

    player = value["player"]
    try:
        base, _, settings = resolve(player)
    except ValueError as e:
        raise StudyError(f"{where}: 'trace': {e}") from None
    setting = BY_NAME[base].budget
    if setting is None:
        with_budget = ", ".join(f"{p} ({s})" for p, s in budgets().items())
        raise StudyError(
            f"{where}: 'trace': {player!r} has no search budget to trace (players with one: "
            f"{with_budget})"
        )
    if any(p.partition("=")[0].strip() == setting for p in player.split(":")[1:]):
        raise StudyError(f"{where}: 'trace': give {base} without its {setting}; the levels set it")
    trace = {"player": player, "setting": setting, "levels": list(value["levels"])}
    for spec in trace_players(trace):
        try:
            resolve(spec)
        except ValueError as e:
            raise StudyError(f"{where}: 'trace': {e}") from None
    return trace


# --- parsing ---------------------------------------------------------------------------------


def _pairings(names, policies):
    """All deck pairings of ``names`` for one policy list (see the module docstring)."""
    if len(set(policies)) == 1:
        return list(itertools.combinations_with_replacement(names, 2))
    return list(itertools.product(names, repeat=2))


def _seatings(names, n, policies):
    """Seat lists of ``n`` decks from ``names``: 3 seats, every multiset (every ordering
    when the seat policies differ); 4 seats, every team pair against every team pair, seated
    A1, B1, A2, B2."""
    uniform = len(set(policies)) == 1
    if n == 3:
        if uniform:
            return list(itertools.combinations_with_replacement(names, 3))
        return list(itertools.product(names, repeat=3))
    pairs = list(itertools.combinations_with_replacement(names, 2))
    teams = (
        itertools.combinations_with_replacement(pairs, 2)
        if uniform
        else itertools.product(pairs, repeat=2)
    )
    return [(a[0], b[0], a[1], b[1]) for a, b in teams]


def _dedupe(items):
    return list(dict.fromkeys(items))


def dealable_decks(content, beings_without_effects: bool) -> list:
    """What ``decks = "all"`` means: every deck the engine deals. A deck still missing a
    card's effect (a deck being built) joins only with beings_without_effects."""
    if beings_without_effects:
        return list(content.decks)
    return [d for d in content.decks if not content.missing_effects([d])]


def deck_lists(value, policies, modes, melee_players, all_decks, mirrors=True):
    """Seat lists of the study, in a stable order, from the checked ``decks`` value (sim.spec:
    "all", deck names, or seat lists as tuples); without ``mirrors``, none of one deck in
    every seat (but the new-player rules' two Imperial decks)."""
    if value == "all":
        names = list(all_decks)
    elif isinstance(value[0], tuple):
        return value
    else:
        names = value
    seats = set()
    for mode in modes:
        if mode == "melee":
            seats.update(melee_players)
        elif mode in K.MODE_NAMES and mode != "new-player":
            seats.update(K.MODE_SEATS[K.MODE_NAMES.index(mode)])
    out = []
    for pols in policies:
        if 2 in seats:
            out.extend(_pairings(names, pols))
        for n in (3, 4):
            if n in seats:
                out.extend(_seatings(names, n, pols))
    if not mirrors:
        out = [d for d in out if len(set(d)) > 1]
    if "new-player" in modes:
        out.append((NEW_PLAYER_DECK, NEW_PLAYER_DECK))
    return _dedupe(out)
