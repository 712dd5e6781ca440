"""Random games of an expansion deck under the invariant checker: the configurations (the
deck against every other deck in every mode, mirror duels included) and the check, shared by
the expansion decks' game tests."""

import numpy as np

from core import constants as K
from core.checks.invariants import INV_NAMES
from core.kernel import R_END_REASON, R_ERROR, R_LOG_LOST, play_batch

GAMES = {2: 80, 3: 40, 4: 30}  # games per configuration, by seats (sample-sized)
EV_ROWS = 20_000


def expansion_configs(deck, others):
    """(mode, decks) pairs: ``deck`` in both seats of the duels against each of ``others``,
    in 3- and 4-seat melee and in both team modes, and the mirror duels."""
    configs = []
    for b in others:
        for mode in (K.MODE_HIGH_FORM, K.MODE_DEATHMATCH):
            configs += [(mode, (deck, b)), (mode, (b, deck))]
        rest = [d for d in others if d != b]
        configs += [
            (K.MODE_MELEE, (b, deck, rest[0])),
            (K.MODE_MELEE, (deck, b, deck, rest[1])),
            (K.MODE_TEAM_HIGH_FORM, (deck, b, deck, b)),
            (K.MODE_TEAM_DEATHMATCH, (b, deck, rest[0], deck)),
        ]
    return configs + [(K.MODE_HIGH_FORM, (deck, deck)), (K.MODE_DEATHMATCH, (deck, deck))]


def config_ids(configs):
    return [f"{K.MODE_NAMES[m]}-{'-'.join(d)}" for m, d in configs]


def random_batch(content, mode, decks, n, seed, check=1):
    """Result rows of ``n`` random games (the checker after every option when ``check``)."""
    d = np.array([content.deck_index(x) for x in decks], np.int32)
    pols = np.zeros(len(decks), np.int32)
    return play_batch(
        content.tables, mode, len(decks), d, pols, 0, seed, 0, n, 200, 0, check, EV_ROWS
    )


def assert_invariants_kept(content, mode, decks, seed):
    """Random games of one configuration: no invariant broken, every game ended, no log lost."""
    n = GAMES[len(decks)]
    rows = random_batch(content, mode, decks, n, seed)
    bad = [(g, int(rows[g, R_ERROR])) for g in range(n) if rows[g, R_ERROR]]
    assert not bad, "; ".join(
        f"{K.MODE_NAMES[mode]} {decks}, seed {seed}, game {g}: invariant {c} broken "
        f"({INV_NAMES[c] if 0 <= c < len(INV_NAMES) else c})"
        for g, c in bad[:10]
    )
    assert (rows[:, R_END_REASON] != K.END_NONE).all()
    assert (rows[:, R_LOG_LOST] == 0).all()
