"""The lookahead players (greedy, planner, mc): legal in every mode, reproducible, blind to
hidden cards; the greedy placement shortcut and the early-exit summon test agree with the
plain computations; profiles round-trip through their file.
"""

import numpy as np
import pytest
from numba import njit

from core import constants as K
from core.kernel import R_ERROR, R_WIDTH, workspace
from core.layout import (
    COLOUR,
    CUR,
    HAND_N,
    RNG,
)
from core.players.choose import choose
from core.players.greedy import KEYS_NONE, option_value, placement_shortcut, score_options
from core.players.summon_reach import hand_bits, slot_summonable
from core.rules.piles import hand_card
from core.rules.turn import advance
from core.summon.patterns import card_summons
from sim.content import load_content
from sim.players import (
    DEFAULT_WEIGHTS,
    Profile,
    load_profiles,
    parse_policy,
    resolve,
    save_profile,
)
from tests.support.harness import play_named
from tests.support.players import MODES, positions, scramble

CONTENT = load_content()
T = CONTENT.tables
MC = "mc:playouts=2:horizon=1:candidates=2"
# the evaluation features that are off by default, on: the shortcut must get them right too
RICH = "greedy:opp_claimable=4:centre=0.3:exposed=-0.4"


def _play(mode, decks, specs, games, first=0, seed=11, check=1):
    return play_named(mode, decks, specs, games, first=first, seed=seed, checked=bool(check)).rows


@pytest.mark.parametrize("mode,decks", MODES, ids=[f"{m}-{len(d)}" for m, d in MODES])
def test_players_only_make_legal_moves_in_every_mode(mode, decks):
    """The invariant checker runs after every applied option of every game."""
    n = len(decks)
    lineups = [
        ["planner"] + ["greedy"] * (n - 1),
        ["greedy"] + [RICH] * (n - 1),
        [MC] + ["random"] * (n - 1),
        # the top player (a network leaf, beam 20) and the gateway twin of the sage
        ["seer"] + ["sage:restrict=gateway"] * (n - 1),
    ]
    for specs in lineups:
        rows = _play(mode, decks, specs, 2)
        assert rows.shape == (2, R_WIDTH)
        assert (rows[:, R_ERROR] == 0).all(), (specs, rows[:, R_ERROR])
        assert (rows[:, 2] != K.END_NONE).all()  # R_END_REASON: every game ended


def test_games_do_not_depend_on_how_they_are_chunked():
    """Same (seed, game index) -> same game, whether played alone or after other games
    (the planner's stored plan must not carry over from one game to the next)."""
    specs = ["planner", "greedy"]
    whole = _play("high-form", ("imperial", "highland"), specs, 4, check=0)
    parts = np.concatenate(
        [
            _play("high-form", ("imperial", "highland"), specs, 1, first=g, check=0)
            for g in (3, 2, 1, 0)
        ][::-1]
    )
    assert np.array_equal(whole, parts)


# --- positions from real games ------------------------------------------------------------------


@njit(cache=True)
def _compare_values(T, states, w):
    """Largest difference between the shortcut's and the plain values over all options of
    all states, and how many placement values went through the shortcut."""
    work, wopts, ev0, fwork = workspace()
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    worst = 0.0
    shortcut = 0
    for i in range(states.shape[0]):
        s = states[i].copy()
        n = advance(s, T, ev, opts)
        if placement_shortcut(s, T, opts, n) >= 0:
            for k in range(n):
                if opts[k, 0] == K.OPT_PLACE and opts[k, 1] >= 0:
                    shortcut += 1
        vals = fwork[1]
        score_options(
            s, T, opts, n, w, s[CUR], vals, fwork[2], fwork[3], KEYS_NONE, work, wopts, ev0, fwork,
            w, False, False,
        )  # fmt: skip
        for k in range(n):
            plain, _ = option_value(s, T, opts, k, w, s[CUR], work[1], wopts[1], ev0)
            worst = max(worst, abs(plain - vals[k]))
    return worst, shortcut


@pytest.mark.parametrize(
    "mode,decks,spec",
    [
        ("high-form", ("imperial", "highland"), "greedy"),
        ("high-form", ("sylvan", "imperial"), RICH),
        ("deathmatch", ("highland", "sylvan"), RICH),
        ("melee", ("imperial", "highland", "sylvan"), RICH),
        ("team-high-form", ("imperial", "highland", "sylvan", "sylvan"), RICH),
        ("high-form", ("everfrost", "sylvan"), RICH),
        ("deathmatch", ("nethervoid", "highland"), RICH),
        ("high-form", ("etherweave", "everfrost"), RICH),
    ],
)
def test_placement_shortcut_gives_the_plain_values(mode, decks, spec):
    states = positions(mode, decks, games=4)
    w = parse_policy(spec)[1][: len(DEFAULT_WEIGHTS)]
    worst, shortcut = _compare_values(T, states, w)
    assert shortcut >= 200  # the shortcut was really exercised
    assert worst < 1e-9


@njit(cache=True)
def _summonable_mismatches(T, states):
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    bad = 0
    checked = 0
    for i in range(states.shape[0]):
        s = states[i]
        seat = s[CUR]
        me = s[COLOUR + seat]
        for slot in range(s[HAND_N + seat]):
            card = hand_card(s, seat, slot)
            if T.card_kind[card] == K.CK_FLARE:
                continue
            bits = hand_bits(s, T, me)
            fast = slot_summonable(s, T, me, card, bits)
            plain = card_summons(s, T, me, card, slot, opts, 0) > 0
            checked += 1
            if fast != plain:
                bad += 1
    return bad, checked


@pytest.mark.parametrize("mode,decks", MODES[:4], ids=[f"{m}-{len(d)}" for m, d in MODES[:4]])
def test_early_exit_summon_test_agrees_with_the_summon_search(mode, decks):
    states = positions(mode, decks, specs=("random",), games=10, every=2)
    bad, checked = _summonable_mismatches(T, states)
    assert checked > 500 and bad == 0


# --- hidden information ---------------------------------------------------------------------


def _decide(s, spec):
    """(option index, the state's random words afterwards) with fresh buffers."""
    code, row = parse_policy(spec)
    s = s.copy()
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    n = advance(s, T, ev, opts)
    work, wopts, ev0, fwork = workspace()
    k = choose(s, T, opts, n, code, row, work, wopts, ev0, fwork)
    return n, int(k), tuple(opts[k]), tuple(s[RNG : RNG + 4])


@pytest.mark.parametrize("spec", ["greedy", "planner", MC])
@pytest.mark.parametrize("mode,decks", [MODES[0], MODES[1], MODES[4]], ids=["hf", "dm", "team"])
def test_players_never_read_hidden_cards(spec, mode, decks):
    """Moving the hidden cards around (the other seats' hands and every deck's order) does
    not change any choice, nor the random numbers a player draws."""
    rng = np.random.default_rng(5)
    states = positions(mode, decks, games=3, every=7, cap=60)
    changed = 0
    for s in states:
        seat = int(s[CUR])
        x = scramble(s, seat, rng)
        changed += int(not np.array_equal(x, s))
        assert _decide(s, spec) == _decide(x, spec)
    assert changed >= len(states) // 2


# --- profiles ----------------------------------------------------------------------------------


def test_a_profile_round_trips_through_its_file(tmp_path):
    path = tmp_path / "players.toml"
    prof = Profile(
        name="sharp",
        player="planner",
        about='tuned "by hand"',
        weights={"points": 12.5, "exposed": -0.25},
        settings={"width": 4},
        provenance={"games": 800, "seed": 3, "opponent": "greedy", "win_rate": 0.61},
    )
    save_profile(prof, path)
    save_profile(Profile(name="other", player="greedy", weights={"centre": 1.0}), path)
    back = load_profiles(path)
    assert back["sharp"] == prof and list(back) == ["sharp", "other"]
    player, weights, settings = resolve("sharp:width=3", back)
    assert player == "planner" and settings == {
        "width": 3,
        "plans": 3,
        "samples": 0,
        "reply_width": 2,
        "leaf_top": 0,
    }  # every setting of the planner, its reply-aware step and leaf screen off
    assert weights["points"] == 12.5 and weights["material"] == DEFAULT_WEIGHTS["material"]
    code, row = parse_policy("sharp", back)
    assert code == K.POLICY_NAMES.index("planner") and row[0] == 12.5


def test_profiles_read_once_are_private_copies_and_a_rewrite_is_seen(tmp_path):
    """load_profiles keeps the parsed file (a learned network makes it long): what one caller
    changes never reaches another, and a rewrite of equal size at once is read again."""
    path = tmp_path / "players.toml"
    path.write_text('[profile.a]\nplayer = "greedy"\n[profile.a.weights]\ncentre = 1.0\n')
    first = load_profiles(path)
    first["a"].weights["centre"] = 9.0
    assert load_profiles(path)["a"].weights == {"centre": 1.0}
    path.write_text('[profile.a]\nplayer = "greedy"\n[profile.a.weights]\ncentre = 2.0\n')
    assert load_profiles(path)["a"].weights == {"centre": 2.0}


def test_checked_in_profiles_load_and_parse():
    for name in load_profiles():
        parse_policy(name)


@pytest.mark.parametrize(
    "spec,message",
    [
        ("planner:width=0", "width must be an integer from 1 to 32"),
        ("greedy:width=3", "unknown parameter 'width'"),
        ("random:points=1", "random takes no parameters"),
        ("genius", "unknown policy 'genius'"),
        ("greedy:points=inf", "points must be a finite number"),
    ],
)
def test_bad_player_specs_name_the_problem(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_policy(spec)


def test_a_profile_built_on_another_takes_its_base_and_keeps_its_own_keys(tmp_path):
    """``base``: seer-lean is the seer with one setting more, its network not copied; saving
    the file keeps it a variant; a missing or circular base is one clear error."""
    path = tmp_path / "p.toml"
    path.write_text(
        '[profile.a]\nplayer = "greedy"\nabout = "a"\n[profile.a.weights]\ncentre = 1.0\n'
        "material = 2.0\n"
        '[profile.b]\nbase = "a"\nabout = "b"\n[profile.b.weights]\ncentre = 3.0\n'
    )
    got = load_profiles(path)
    assert got["b"].player == "greedy" and got["b"].about == "b"
    assert got["b"].weights == {"centre": 3.0, "material": 2.0}
    save_profile(Profile(name="c", player="greedy", weights={"centre": 5.0}), path)
    assert "[profile.b]\nbase = " in path.read_text()
    assert load_profiles(path)["b"].weights == got["b"].weights
    lean, seer = load_profiles()["seer-lean"], load_profiles()["seer"]
    assert lean.models == seer.models and lean.settings == seer.settings | {"leaf_top": 3}
    for bad, why in (('"zzz"', "must name another profile"), ('"b"', "round in a circle")):
        path.write_text(f'[profile.b]\nbase = {bad}\nplayer = "greedy"\n')
        with pytest.raises(ValueError, match=why):
            load_profiles(path)
