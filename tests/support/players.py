"""Real positions for the player tests: every deck and mode (``MODES``), states taken from
real games (``positions``), and a state with its hidden cards moved (``scramble``)."""

import numpy as np

from core import constants as K
from core.kernel import workspace
from core.layout import (
    CONTROL,
    DECK,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    FDECK,
    FDECK_CNT,
    FDECK_HEAD,
    HAND,
    HAND_CAP,
    HAND_N,
    LDECK,
    LDECK_CNT,
    LDECK_HEAD,
    N_PLAYERS,
    SHARED_CAP,
    STATE_SIZE,
    TASK_CAP,
    TDECK,
    TDECK_CNT,
    TDECK_HEAD,
)
from core.players.choose import choose
from core.rules.setup import init_game
from core.rules.turn import advance, apply_option
from tests.support.harness import CONTENT, T, player_rows

MODES = [
    ("high-form", ("imperial", "highland")),
    ("deathmatch", ("sylvan", "imperial")),
    ("melee", ("imperial", "highland", "sylvan")),
    ("melee", ("sylvan", "imperial", "highland", "highland")),
    ("team-high-form", ("imperial", "highland", "sylvan", "sylvan")),
    ("team-deathmatch", ("highland", "sylvan", "imperial", "highland")),
    ("new-player", ("imperial", "imperial")),
    # Everfrost: frozen effects (stored, thawed, the keep-new/keep-old choice) reach the players
    ("high-form", ("everfrost", "imperial")),
    ("deathmatch", ("highland", "everfrost")),
    ("melee", ("everfrost", "sylvan", "everfrost")),
    ("team-high-form", ("everfrost", "highland", "everfrost", "imperial")),
    # Nethervoid: the Gateway, possessed summons, lost actions, cards put under the deck
    ("high-form", ("nethervoid", "sylvan")),
    ("deathmatch", ("nethervoid", "everfrost")),
    ("melee", ("highland", "nethervoid", "imperial", "nethervoid")),
    ("team-deathmatch", ("nethervoid", "imperial", "nethervoid", "sylvan")),
    # Etherweave: warps, the pending being and its penalty, swaps (while the deck is being
    # built, the beings not built yet play with no effect: the engine itself deals them)
    ("deathmatch", ("etherweave", "imperial")),
    ("melee", ("etherweave", "sylvan", "nethervoid")),
]


def deck_codes(decks):
    return np.array([CONTENT.deck_index(d) for d in decks], np.int32)


def positions(mode, decks, specs=("greedy", "greedy"), games=6, every=3, cap=400):
    """States at every ``every``-th decision with two or more options of ``games`` real
    games, played through the engine's own entries (``advance``, ``choose``,
    ``apply_option``) as tests/support/harness.py plays, not a compiled test helper of its own."""
    specs = list(specs) + [specs[-1]] * (len(decks) - len(specs))
    codes, params = player_rows(specs)
    seats = deck_codes(decks)
    work, wopts, ev0, fwork = workspace()
    s = np.zeros(STATE_SIZE, np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    out = []
    step = 0
    for g in range(games):
        mode_code = K.MODE_NAMES.index(mode)
        init_game(s, T, ev, mode_code, len(seats), seats, g % len(seats), 0, 77, g, 200, 0)
        n = advance(s, T, ev, opts)
        while n > 0:
            seat = s[CONTROL]
            if n >= 2:
                step += 1
                if step % every == 0 and len(out) < cap:
                    out.append(s.copy())
            k = choose(s, T, opts, n, codes[seat], params[seat], work, wopts, ev0, fwork)
            apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            n = advance(s, T, ev, opts)
    return np.array(out, np.int32).reshape(-1, STATE_SIZE)


def _queue(s, base, cap, head, cnt):
    return [base + (s[head] + i) % cap for i in range(s[cnt])]


def scramble(s, seat, rng):
    """A copy of ``s`` whose hidden cards (for ``seat``) lie elsewhere: every deck reordered,
    the other seats' hand cards swapped with deck cards of the same kind."""
    x = s.copy()
    for p in range(x[N_PLAYERS]):
        deck = _queue(x, DECK + p * DECK_CAP, DECK_CAP, DECK_HEAD + p, DECK_CNT + p)
        pools = [(deck, K.CK_BEING)]
        if p != seat:
            pools.append(
                (_queue(x, LDECK, SHARED_CAP, LDECK_HEAD, LDECK_CNT), K.CK_LEGEND),
            )
            pools.append((_queue(x, FDECK, SHARED_CAP, FDECK_HEAD, FDECK_CNT), K.CK_FLARE))
            for k in range(x[HAND_N + p]):  # swap each hidden hand card with a deck card
                i = HAND + p * HAND_CAP + k
                for places, kind in pools:
                    if T.card_kind[x[i]] == kind and places:
                        j = places[rng.integers(len(places))]
                        x[i], x[j] = x[j], x[i]
        cards = x[deck].copy()
        rng.shuffle(cards)
        x[deck] = cards
    for base, cap, head, cnt in (
        (LDECK, SHARED_CAP, LDECK_HEAD, LDECK_CNT),
        (FDECK, SHARED_CAP, FDECK_HEAD, FDECK_CNT),
        (TDECK, TASK_CAP, TDECK_HEAD, TDECK_CNT),
    ):
        idx = _queue(x, base, cap, head, cnt)
        cards = x[idx].copy()
        rng.shuffle(cards)
        x[idx] = cards
    return x


def decision_options(s, opts):
    """The options of decision ``s`` listed into ``opts`` (``s`` unchanged), their count."""
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    c = s.copy()
    n = advance(c, T, ev, opts)
    assert np.array_equal(c, s) and n >= 2
    return n
