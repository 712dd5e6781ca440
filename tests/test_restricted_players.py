"""Restricted twins (`restrict=frozen|warp|gateway`): the setting parses and reaches the
parameter row; a restricted lookahead player never picks the forbidden option, at the root
or in checked whole games (the telemetry counters stay 0 while the full player uses the
mechanic); its games are reproducible for a seed.
"""

import numpy as np
import pytest

from core import constants as K
from core.kernel import R_ERROR, R_SEAT, R_SEAT_WIDTH, workspace
from core.layout import STATE_SIZE
from core.players.choose import choose
from core.players.params import (
    PP_RESTRICT,
    RESTRICT_FROZEN,
    RESTRICT_GATEWAY,
    RESTRICT_NONE,
    RESTRICT_WARP,
)
from core.players.random_player import choose_random
from core.players.restrict import BAN_GATEWAY, is_banned
from core.rows import S_THAWS, S_WARPS
from core.rules.setup import init_game
from core.rules.turn import advance, apply_option
from sim.players import (
    Profile,
    load_profiles,
    parse_policy,
    resolve,
    save_profile,
)
from tests.support.harness import CONTENT, T, play_named, player_rows

MC = "mc:playouts=2:horizon=1:candidates=3"
LOOKAHEAD = ["greedy", "planner", MC]


@pytest.mark.parametrize(
    "value,code",
    [("none", RESTRICT_NONE), ("frozen", RESTRICT_FROZEN), ("warp", RESTRICT_WARP),
     ("gateway", RESTRICT_GATEWAY)],
)  # fmt: skip
def test_restrict_reaches_the_parameter_row(value, code):
    for base in LOOKAHEAD:
        spec = f"{base}:restrict={value}"
        _, row = parse_policy(spec)
        assert row[PP_RESTRICT] == code
        assert player_rows([spec, "random"])[1][0, PP_RESTRICT] == code
    assert parse_policy("planner")[1][PP_RESTRICT] == RESTRICT_NONE
    # a default is left out of the settings, so equal players resolve alike
    settings = resolve(f"planner:restrict={value}")[2]
    assert settings.get("restrict", "none") == value and ("restrict" in settings) == (code != 0)


@pytest.mark.parametrize(
    "spec,message",
    [
        ("planner:restrict=ice", "restrict must be one of none, frozen, warp, gateway, got 'ice'"),
        ("random:restrict=frozen", "random takes no parameters"),
        ("planner:width=frozen", "width needs a number"),
        ("greedy:restrict=1", "restrict must be one of"),
    ],
)
def test_bad_restrict_values_name_the_problem(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_policy(spec)


def test_a_profile_stores_its_restriction(tmp_path):
    path = tmp_path / "players.toml"
    save_profile(Profile("frozen-twin", "planner", "never thaws", {}, {"restrict": "frozen"}), path)
    prof = load_profiles(path)["frozen-twin"]
    assert prof.settings == {"restrict": "frozen"}
    assert parse_policy("frozen-twin", load_profiles(path))[1][PP_RESTRICT] == RESTRICT_FROZEN
    path.write_text(path.read_text().replace('"frozen"', '"lava"'))
    with pytest.raises(ValueError, match="restrict must be one of"):
        load_profiles(path)


def _decide_row(s, opts, n, spec):
    """The row ``spec`` picks at position ``s`` (a copy: ``s`` is left as it was)."""
    code, row = parse_policy(spec)
    work, wopts, ev0, fwork = workspace()
    return int(choose(s.copy(), T, opts, n, code, row, work, wopts, ev0, fwork))


def _decide(s, opts, n, spec):
    return int(opts[_decide_row(s, opts, n, spec), 0])


def _random_positions(decks, mode, games, seed, keep):
    """Walk random-player games; ``keep(s, opts, n)`` says what to keep of a position (None:
    nothing). Returns the kept items."""
    s = np.zeros(STATE_SIZE, np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    dk = np.array([CONTENT.deck_index(d) for d in decks], np.int32)
    found = []
    for g in range(games):
        init_game(s, T, ev, K.MODE_NAMES.index(mode), 2, dk, g % 2, 0, seed, g, 200, 0)
        n = advance(s, T, ev, opts)
        while n > 0:
            item = keep(s, opts, n)
            if item is not None:
                found.append(item)
            k = choose_random(s, opts, n)
            apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            n = advance(s, T, ev, opts)
    return found


def _positions_with(kind, decks, mode="deathmatch", games=3):
    """Positions of random-player games where ``kind`` is among the mover's options."""

    def keep(s, opts, n):
        if n > 1 and any(opts[k, 0] == kind for k in range(n)):
            return s.copy(), opts.copy(), n
        return None

    return _random_positions(decks, mode, games, 21, keep)


@pytest.mark.parametrize(
    "kind,mechanic,decks",
    [(K.OPT_THAW, "frozen", ("everfrost", "imperial")),
     (K.OPT_WARP, "warp", ("etherweave", "sylvan"))],
)  # fmt: skip
def test_at_the_root_a_twin_never_picks_its_forbidden_option(kind, mechanic, decks):
    """Positions of real games where the option is offered: the full players pick it in
    some of them (greedy rarely warps: a pending being is charged 2 points at once); a twin
    in none, and always a listed option."""
    found = _positions_with(kind, decks, games=6)
    assert len(found) >= 5
    picked = 0
    for base in LOOKAHEAD:
        full = [_decide(s, o, n, base) for s, o, n in found]
        twin = [_decide(s, o, n, f"{base}:restrict={mechanic}") for s, o, n in found]
        picked += full.count(kind)
        assert kind == K.OPT_WARP or kind in full, base  # every full player thaws somewhere
        assert kind not in twin, base
        for pick, (_, o, n) in zip(twin, found, strict=True):
            assert pick in {int(o[k, 0]) for k in range(n)}
    assert picked > 0


def _games(mode, decks, specs, n, seed=3, check=1):
    rows = play_named(mode, decks, specs, n, seed=seed, checked=bool(check)).rows
    assert (rows[:, R_ERROR] == 0).all(), rows[:, R_ERROR]
    return rows


def _count(rows, seat, k):
    return int(rows[:, R_SEAT + seat * R_SEAT_WIDTH + k].sum())


@pytest.mark.parametrize(
    "base,games,uses",
    [
        ("greedy", 8, ()),
        ("planner", 8, ("thaws", "warps")),
        (MC, 2, ("thaws",)),
        # the sage values the ends of its plans with its model: a forbidden option must stay
        # forbidden there too
        ("sage", 6, ("thaws", "warps")),
    ],
)
def test_twins_never_use_their_mechanic_in_checked_games(base, games, uses):
    """Everfrost against Etherweave in both duel modes, the invariant checker after every
    option: the frozen twin thaws 0 times, the warp twin warps 0 times, while the full
    player uses ``uses`` (over the games of both modes; on these deals greedy neither thaws
    nor warps, and mc does not warp: scored one decision ahead, a thaw or a warp first
    loses the stored effect's value or charges the pending being's 2 points)."""
    full = {"thaws": 0, "warps": 0}
    for mode in ("high-form", "deathmatch"):
        decks = ("everfrost", "etherweave")
        rows = _games(mode, decks, [base, base], games)
        full["thaws"] += _count(rows, 0, S_THAWS)
        full["warps"] += _count(rows, 1, S_WARPS)
        frozen = _games(mode, decks, [f"{base}:restrict=frozen", base], games)
        assert _count(frozen, 0, S_THAWS) == 0
        warp = _games(mode, decks, [base, f"{base}:restrict=warp"], games)
        assert _count(warp, 1, S_WARPS) == 0
    assert all(full[u] > 0 for u in uses), full


def test_twins_are_reproducible_for_a_seed():
    specs = ["planner:restrict=frozen", "planner:restrict=warp"]
    a = _games("high-form", ("everfrost", "etherweave"), specs, 3, seed=9, check=0)
    b = _games("high-form", ("everfrost", "etherweave"), specs, 3, seed=9, check=0)
    assert np.array_equal(a, b)


def _gateway_decisions(decks=("nethervoid", "sylvan"), games=8):
    """Positions of random-player games where some offered row is an optional effect part
    that uses the Gateway, with those rows."""

    def keep(s, opts, n):
        gate = {k for k in range(n) if is_banned(s, T, opts, k, BAN_GATEWAY)}
        return (s.copy(), opts.copy(), n, gate) if gate else None

    return _random_positions(decks, "deathmatch", games, 23, keep)


def test_the_gateway_twin_never_takes_an_optional_gateway_part():
    """Where an optional effect part that uses the Gateway is offered (always with its skip,
    and only Gateway-using target rows are forbidden), the full players take it somewhere and
    the gateway twin never does, picking a listed row every time."""
    found = _gateway_decisions()
    assert len(found) >= 5
    for _s, o, n, gate in found:
        assert any(o[k, 0] == K.OPT_SKIP for k in range(n))
        assert all(o[k, 0] == K.OPT_TARGET for k in gate) and len(gate) < n
    taken = 0
    for base in LOOKAHEAD:
        for s, o, n, gate in found:
            taken += _decide_row(s, o, n, base) in gate
            pick = _decide_row(s, o, n, f"{base}:restrict=gateway")
            assert pick not in gate and 0 <= pick < n, base
    assert taken > 0


def test_the_gateway_twin_plays_checked_games_of_its_own():
    """Nethervoid's gateway twin (greedy, the planner) plays whole checked games without an
    error, other games than the full player's on the same deals."""
    decks = ("nethervoid", "sylvan")
    for base in ("greedy", "planner"):
        full = _games("deathmatch", decks, [base, base], 4)
        twin = _games("deathmatch", decks, [f"{base}:restrict=gateway", base], 4)
        assert not np.array_equal(full, twin), base


def test_the_gateway_twin_of_the_sage_plays_without_valuing_the_gateway():
    """The sage's leaf value reads the Gateway's features; its gateway twin reads them as
    absent (core.players.features FL_GATEWAY_BLIND), so it plays other games."""
    decks = ("nethervoid", "sylvan")
    full = _games("deathmatch", decks, ["sage", "planner"], 6, check=0)
    twin = _games("deathmatch", decks, ["sage:restrict=gateway", "planner"], 6, check=0)
    assert not np.array_equal(full, twin)
