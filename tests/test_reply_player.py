"""The turn planner's wide beam, its reply-aware step (core.players.reply) and a leaf value
with a hidden layer (core.players.learned): legal in every mode and deck, the same game for
a seed however the games are chunked, blind to hidden cards (the sampled worlds of the reply
step included), and every kept plan plays again in a sampled world.
"""

import numpy as np
import pytest

from core import constants as K
from core.kernel import R_ERROR, R_WIDTH, workspace
from core.layout import COLOUR, CUR, GAME_OVER, TURN_NO
from core.players.feature_names import FEATURE_NAMES, N_FEATURES
from core.players.params import MODEL_STRIDE, PP_MODEL
from core.players.planner import (
    F_FINALS,
    F_REPLY,
    MAX_PLANS,
    O_REPLY,
    W_FINAL,
    W_REPLY,
    best_final,
    reply_step,
    search,
)
from core.players.reply import reply_world
from core.rules.turn import advance
from sim.learned import model_block
from sim.players import parse_policy
from tests.support.harness import planner_decision, play_named
from tests.support.players import MODES, T, positions, scramble

REPLY = "planner:width=3:samples=1:plans=2:reply_width=1:endgame=exact"


def net_model(seed, units=6) -> dict:
    """A model with a hidden layer whose every weight is non-zero, so a peek at a hidden
    card through any feature of either part would show."""
    rng = np.random.default_rng(seed)
    return {
        "intercept": 0.1,
        "coef": dict(zip(FEATURE_NAMES, np.linspace(-0.3, 0.4, N_FEATURES).tolist(), strict=True)),
        "hidden": {
            "bias": [float(v) for v in rng.normal(0, 0.5, units)],
            "out": [float(v) for v in rng.normal(0, 0.5, units)],
            "weights": {n: [float(v) for v in rng.normal(0, 0.2, units)] for n in FEATURE_NAMES},
        },
    }


ALL_MODES = tuple(range(len(K.MODE_NAMES)))


def row_of(spec, modes=ALL_MODES, seed=3):
    """The parameter row of ``spec`` with the network of ``net_model`` in ``modes``."""
    row = parse_policy(spec)[1].copy()
    for m in modes:
        b = PP_MODEL + m * MODEL_STRIDE
        row[b : b + MODEL_STRIDE] = model_block(net_model(seed + m))
    return row


def _play(mode, decks, rows, games, first=0, seed=11, check=1):
    """Planners in every seat, seat i playing ``rows[i % len(rows)]`` (core.kernel.play)."""
    n = len(decks)
    params = np.array([rows[i % len(rows)] for i in range(n)])
    specs = ["planner"] * n
    return play_named(
        mode, decks, specs, games, first=first, seed=seed, checked=bool(check), params=params
    ).rows


@pytest.mark.parametrize("mode,decks", MODES, ids=[f"{m}-{len(d)}" for m, d in MODES])
def test_the_reply_aware_planner_only_makes_legal_moves(mode, decks):
    """The invariant checker runs after every option of every game: the reply-aware step
    with a network leaf against the plain planner, and a wide beam."""
    lineups = [
        [row_of(REPLY), parse_policy("planner")[1]],
        [parse_policy("planner:width=20")[1], row_of("planner:width=2")],
    ]
    for rows in lineups:
        out = _play(mode, decks, rows, 1)
        assert out.shape == (1, R_WIDTH)
        assert (out[:, R_ERROR] == 0).all(), out[:, R_ERROR]
        assert (out[:, 2] != K.END_NONE).all()


def test_the_reply_aware_planner_is_the_same_game_for_a_seed():
    """Same (seed, game index), the same game, played alone or after other games, and again."""
    rows = [row_of(REPLY), row_of("planner")]
    decks = ("etherweave", "nethervoid")
    whole = _play("deathmatch", decks, rows, 3, check=0)
    one = [_play("deathmatch", decks, rows, 1, first=g, check=0) for g in range(3)]
    parts = np.concatenate(one)
    assert np.array_equal(whole, parts)
    assert np.array_equal(whole, _play("deathmatch", decks, rows, 3, check=0))


def test_the_reply_step_decides_something():
    """The step is not a no-op: some games differ from the plain search's."""
    decks = ("everfrost", "imperial")
    plain = _play("high-form", decks, [row_of("planner:width=3")], 3, check=0)
    reply = _play("high-form", decks, [row_of(REPLY)], 3, check=0)
    assert not np.array_equal(plain, reply)


@pytest.mark.parametrize(
    "mode,decks",
    [("high-form", ("etherweave", "everfrost")), ("deathmatch", ("nethervoid", "sylvan"))],
)
@pytest.mark.parametrize("spec", ["planner:width=3:samples=2:plans=3:reply_width=2", "seer"])
def test_the_reply_aware_planner_never_reads_hidden_cards(mode, decks, spec):
    """Moving the opponent's hand cards and every deck's order around changes no choice and
    no random word of the game: the reply step's worlds are sampled from the pooled cards
    with the position's fingerprint, never from where the cards really lie; the top player's
    network leaf reads only what the seat may know."""
    rng = np.random.default_rng(4)
    row = parse_policy(spec)[1]
    states = positions(mode, decks, specs=("planner", "planner"), games=2, every=6, cap=30)
    changed = 0
    for s in states:
        x = scramble(s, int(s[CUR]), rng)
        changed += int(not np.array_equal(x, s))
        assert planner_decision(s, row) == planner_decision(x, row)
    assert changed >= len(states) // 2


@pytest.mark.parametrize(
    "mode,decks",
    [
        ("high-form", ("etherweave", "imperial")),
        ("deathmatch", ("everfrost", "nethervoid")),
        ("team-high-form", ("imperial", "highland", "sylvan", "sylvan")),
    ],
)
def test_every_kept_plan_plays_again_in_a_sampled_world(mode, decks):
    """Each kept plan, played on a full copy of the game whose hidden cards are sampled
    afresh, matches the options step by step and ends the seat's turn; the plans kept are
    distinct and the best of them is the plain search's choice."""
    row = row_of("planner")
    states = positions(mode, decks, specs=("planner", "planner"), games=2, every=5, cap=25)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    kept = 0
    for s0 in states:
        s = s0.copy()
        n = advance(s, T, ev, opts)
        work, wopts, ev0, fwork = workspace()
        count = search(s, T, opts, n, row, work, wopts, ev0, fwork, 4, -1, 0, 4)
        assert 1 <= count <= 4
        kept += count
        keys = work[W_FINAL + MAX_PLANS + 1, 0 : 2 * count : 2]  # W_FINAL_META
        assert len(set(keys.tolist())) == count
        values = fwork[F_FINALS, :count].copy()
        best = best_final(work, fwork, 0, count)
        assert values[best] == values.max()
        w1, o1, e1, f1 = workspace()
        assert search(s, T, opts, n, row, w1, o1, e1, f1, 4, -1, 0, 1) == 1
        assert f1[F_FINALS, 0] == values[best]  # keeping one: the plain search's choice
        for i in range(count):
            for sample in (0, 1):
                c = work[W_REPLY]
                m = reply_world(s, T, work[W_FINAL + i], 7, sample, c, work[2], wopts[O_REPLY], ev0)
                assert m >= 0
                assert c[GAME_OVER] == 1 or c[TURN_NO] > s[TURN_NO]
        pick = reply_step(s, T, row, work, wopts, ev0, fwork, count, 2, best)
        assert 0 <= pick < count
        assert (fwork[F_REPLY, :count] >= 0).all() and (fwork[F_REPLY, :count] <= 2).all()
    assert kept > len(states)  # several plans kept somewhere


def test_the_reply_value_belongs_to_the_seat_that_planned():
    """A sampled world after a plan is the next seat's turn, of the other colour in a duel."""
    states = positions("deathmatch", ("imperial", "sylvan"), games=1, every=9, cap=5)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    row = row_of("planner")
    for s0 in states:
        s = s0.copy()
        n = advance(s, T, ev, opts)
        work, wopts, ev0, fwork = workspace()
        assert search(s, T, opts, n, row, work, wopts, ev0, fwork, 2, -1, 0, 1) == 1
        c = work[W_REPLY]
        m = reply_world(s, T, work[W_FINAL], 1, 0, c, work[2], wopts[O_REPLY], ev0)
        if m > 0:
            assert c[COLOUR + c[CUR]] != s[COLOUR + s[CUR]]


@pytest.mark.parametrize(
    "mode,decks",
    [("high-form", ("etherweave", "sylvan")), ("deathmatch", ("highland", "etherweave"))],
)
def test_the_last_turn_is_valued_by_the_games_result(mode, decks):
    """With ``endgame=exact`` a plan that ends the game's last turn is worth the result the
    rules give (a certain win, loss or shared win), and playing that plan in the game ends
    the game with that very result."""
    from core.layout import END_SEAT, FINAL_TURN, WINNER
    from core.players.learned import WIN_LOGIT

    row = row_of("planner:endgame=exact")
    plain = row_of("planner")
    states = positions(mode, decks, specs=("planner", "planner"), games=4, every=1, cap=4000)
    last = [s for s in states if s[FINAL_TURN] == 1 and s[CUR] == s[END_SEAT]]
    assert len(last) >= 3
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    differ = 0
    for s0 in last:
        s = s0.copy()
        n = advance(s, T, ev, opts)
        work, wopts, ev0, fwork = workspace()
        assert search(s, T, opts, n, row, work, wopts, ev0, fwork, 4, -1, 0, 1) == 1
        value = fwork[F_FINALS, 0]
        c = work[W_REPLY]
        assert reply_world(s, T, work[W_FINAL], 3, 0, c, work[2], wopts[O_REPLY], ev0) == 0
        assert c[GAME_OVER] == 1
        me = s[COLOUR + s[CUR]]
        want = 0.0 if c[WINNER] < 0 else (WIN_LOGIT if c[WINNER] == me else -WIN_LOGIT)
        assert value == want
        w2, o2, e2, f2 = workspace()
        search(s, T, opts, n, plain, w2, o2, e2, f2, 4, -1, 0, 1)
        differ += int(abs(f2[F_FINALS, 0]) != WIN_LOGIT)  # the plain leaf: a fitted logit
    assert differ == len(last)
