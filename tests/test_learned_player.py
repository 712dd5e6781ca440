"""The planner with a learned leaf value (core.players.learned): legal in every mode, blind
to hidden cards through every feature, deterministic, used only in the modes its row holds
a model for; and the positions a batch samples change no game.
"""

import numpy as np
import pytest

from core import constants as K
from core.kernel import R_ERROR
from core.layout import CUR
from core.players.feature_names import FEATURE_NAMES, N_FEATURES
from core.players.params import MODEL_STRIDE, PP_MODEL, PP_WIDTH
from core.rows import P_FEATURES, P_GAME, P_SEAT, P_TURN, POSITIONS_PER_GAME
from tests.support.harness import planner_decision, play_named, player_rows
from tests.support.players import MODES, positions, scramble

# every feature weighs something, the opponents' (expected) ones included, so a peek at a
# hidden card through any of them would show
COEF = np.linspace(-0.3, 0.4, N_FEATURES)


def model_row(modes, spec="planner"):
    row = player_rows([spec])[1][0].copy()
    assert row.shape == (PP_WIDTH,)
    for m in modes:
        b = PP_MODEL + m * MODEL_STRIDE
        row[b] = 1
        row[b + 1] = 0.1
        row[b + 2 : b + 2 + N_FEATURES] = COEF
    return row


def _play(mode, decks, rows_by_seat, games, seed=11, check=1):
    n = len(decks)
    params = np.array([rows_by_seat[i % len(rows_by_seat)] for i in range(n)])
    specs = ["planner"] * n
    return play_named(mode, decks, specs, games, seed=seed, checked=bool(check), params=params).rows


@pytest.mark.parametrize("mode,decks", MODES[::2], ids=[f"{m}-{len(d)}" for m, d in MODES[::2]])
def test_the_learned_planner_only_makes_legal_moves(mode, decks):
    """The invariant checker after every applied option, with a model for the mode."""
    row = model_row(range(len(K.MODE_NAMES)))
    rows = _play(mode, decks, [row, player_rows(["planner"])[1][0]], 2)
    assert (rows[:, R_ERROR] == 0).all(), rows[:, R_ERROR]


def test_a_model_for_another_mode_changes_nothing():
    """A row whose model is for Deathmatch plays High Form exactly as the planner."""
    decks = ("everfrost", "nethervoid")
    plain = _play("high-form", decks, [player_rows(["planner"])[1][0]], 4, check=0)
    other = _play("high-form", decks, [model_row([K.MODE_DEATHMATCH])], 4, check=0)
    learned = _play("high-form", decks, [model_row([K.MODE_HIGH_FORM])], 4, check=0)
    assert np.array_equal(plain, other)
    assert not np.array_equal(plain, learned)  # the model does decide something
    again = _play("high-form", decks, [model_row([K.MODE_HIGH_FORM])], 4, check=0)
    assert np.array_equal(learned, again)


@pytest.mark.parametrize(
    "mode,decks",
    [("high-form", ("everfrost", "etherweave")), ("deathmatch", ("nethervoid", "everfrost"))],
)
def test_the_learned_planner_never_reads_hidden_cards(mode, decks):
    """Moving the opponents' hand cards and every deck's order around changes no choice:
    the opponent's threat and flares are read in expectation over the pooled cards."""
    rng = np.random.default_rng(9)
    row = model_row([K.MODE_NAMES.index(mode)])
    states = positions(mode, decks, games=3, every=5, cap=60)
    changed = 0
    for s in states:
        x = scramble(s, int(s[CUR]), rng)
        changed += int(not np.array_equal(x, s))
        assert planner_decision(s, row) == planner_decision(x, row)
    assert changed >= len(states) // 2


def test_sampling_positions_changes_no_game():
    """Position rows come from a lookahead copy and a hash of (seed, game, turn): the games
    are those of a batch without them; rows name their game, turn and seat."""
    decks = ("etherweave", "highland")
    pols = ["planner", "greedy"]

    def games(positions_every):
        return play_named(
            "deathmatch", decks, pols, 6, first=5, seed=3, positions_every=positions_every
        )

    rows = games(0).rows
    out = games(2)
    rows2, pos = out.rows, out.positions
    assert np.array_equal(rows, rows2)
    assert len(pos) > 10 and pos.shape[1] == P_FEATURES + len(FEATURE_NAMES)
    assert set(pos[:, P_GAME].astype(int)) <= set(range(6))
    assert set(pos[:, P_SEAT].astype(int)) <= {0, 1}
    assert (pos[:, P_TURN] >= 1).all()
    # every fourth turn end instead: by the same hash, a subset in every game that did not
    # reach the cap of rows a game
    fewer = games(4).positions
    assert 0 < len(fewer) < len(pos)
    games, counts = np.unique(pos[:, P_GAME], return_counts=True)
    open_games = set(games[counts < POSITIONS_PER_GAME])
    keys = {tuple(r) for r in pos[:, :P_FEATURES]}
    some = [tuple(r) for r in fewer[:, :P_FEATURES] if r[P_GAME] in open_games]
    assert some and set(some) <= keys
