"""Each card against its own deck's other cards: does a card's summoning go with winning more
(or less) than the summoning of its deck-mates?

"Win rate when played vs when not played" flags nearly every card: a seat that summons more
beings is usually winning, whatever the beings are. Set against the other cards of the same
deck that common part cancels. Per card c of a deck (legends and flares form a family each),
over the deck's decisive seat-games:

- ``a_c``: the win rate of the seat-games in which c was played;
- ``baseline``: the mean of ``a_c'`` over the deck's other cards c' (those played often enough
  to be compared);
- ``diff = a_c - baseline`` with a 95% normal interval whose variance is the sandwich
  (influence-function) variance clustered by game: the rates share seat-games (a seat plays
  several cards) and the two seats of a mirror match share a game, so no two of them are
  independent samples;
- the two-sided p-value of ``diff = 0``, Holm-corrected over the cards of the table.

When every card of a deck is summoned in the same way with respect to winning (whatever that
way is), ``diff`` is 0 for every card and Holm keeps false flags at 5% per table. A flag still
is no proof of strength: a card that can only come down late, or only when ahead, stands out
too. The numbers are in ``summary.json`` → ``cards`` → groups → cards → ``vs_deck``.
"""

import math

import numpy as np
from scipy import stats as sps

from results import stats

MIN_PLAYS = 30  # decisive seat-games with the card played: fewer, and the card is not compared
Z = float(sps.norm.ppf(0.5 + stats.LEVEL / 2))


def contrasts(played: np.ndarray, won: np.ndarray, cluster: np.ndarray) -> list:
    """``played``: (seat-games x cards) booleans, ``won``: the seat-games' results (decisive
    games only), ``cluster``: a game id per seat-game. Per card: ``None`` when it was played
    in fewer than MIN_PLAYS seat-games (or fewer than two cards qualify), else the dict of
    ``diff``, ``lo``, ``hi``, ``p_value``, ``baseline``, ``rate``, ``n``, ``compared_with``."""
    played = np.asarray(played, dtype=bool)
    y = np.asarray(won, dtype=float)
    n_cards = played.shape[1]
    n = played.sum(axis=0)
    ok = np.flatnonzero(n >= MIN_PLAYS)
    out = [None] * n_cards
    if len(ok) < 2:
        return out
    x = played[:, ok].astype(float)
    m = n[ok].astype(float)
    rate = (x * y[:, None]).sum(axis=0) / m
    k = len(ok)
    # contrast c: a_c - mean of the others = (M @ a)_c with M = I - (J - I) / (k - 1)
    weights = np.eye(k) * (1 + 1 / (k - 1)) - 1 / (k - 1)
    # influence of a seat-game on each rate, summed over the seat-games of one game
    infl = x * (y[:, None] - rate[None, :]) / m[None, :]
    _, game = np.unique(cluster, return_inverse=True)
    per_game = np.zeros((game.max() + 1, k))
    np.add.at(per_game, game, infl)
    cov = per_game.T @ per_game
    diff = weights @ rate
    var = np.einsum("ij,jk,ik->i", weights, cov, weights)
    for j, c in enumerate(ok):
        se = math.sqrt(max(var[j], 0.0))
        d = float(diff[j])
        if se > 0:
            p = float(2 * sps.norm.sf(abs(d) / se))
        else:  # no variation at all: no evidence of a difference
            p = 1.0 if abs(d) < 1e-12 else 0.0
        lo, hi, clipped = stats.clip_difference(d - Z * se, d + Z * se)
        out[c] = {
            "diff": d,
            "lo": lo,
            "hi": hi,
            "clipped": clipped,
            "se": se,
            "p_value": p,
            "rate": float(rate[j]),
            "baseline": float((rate.sum() - rate[j]) / (k - 1)),
            "n": int(m[j]),
            "compared_with": k - 1,
            "small": int(m[j]) < stats.SMALL_SAMPLE,
        }
    return out


def _fetch(d):
    """Decisive seat-games (a row each, ``i`` = position) and the cards played in them."""
    d.execute(
        "CREATE TEMP TABLE cs AS SELECT row_number() OVER (ORDER BY mode, pairing, matchup, "
        "policies, game_index, seat) - 1 AS i, mode, pairing, "
        "CASE WHEN sym THEN '' ELSE policy END AS side, deck, "
        "mode || '/' || matchup || '/' || policies || '/' || game_index AS game, "
        "result = 'win' AS won, matchup, policies, game_index, seat "
        "FROM sg WHERE NOT log_lost AND result <> 'draw'"
    )
    sg = d.con.execute(
        "SELECT i, mode, pairing, side, deck, game, won FROM cs ORDER BY i"
    ).fetchnumpy()
    cards = d.con.execute(
        "SELECT cs.i, c.card FROM cs JOIN ce c USING (mode, matchup, policies, game_index, "
        'seat) WHERE c.summoned > 0 OR c."flare-played" > 0'
    ).fetchnumpy()
    return sg, cards


def add_deck_contrasts(d, groups, tables) -> None:
    """Give each card row of ``tables`` (the groups of ``results.analysis.cards.card_stats``) its
    ``vs_deck`` (a dict of ``contrasts``, or None) and mark Holm over each table. Needs the
    ``sg`` and ``ce`` temp tables."""
    sg, cards = _fetch(d)
    n_sg = len(sg["i"])
    mode = np.asarray(sg["mode"], dtype=object)
    pairing = np.asarray(sg["pairing"])
    side = np.asarray(sg["side"], dtype=object)
    deck = np.asarray(sg["deck"], dtype=object)
    game = np.asarray(sg["game"], dtype=object)
    won = np.asarray(sg["won"], dtype=bool)
    pair_i = np.asarray(cards["i"], dtype=np.int64)
    names, pair_card = np.unique(np.asarray(cards["card"], dtype=object), return_inverse=True)
    name_code = {c: j for j, c in enumerate(names)}
    by_id = {g["id"]: g for g in groups}
    for t in tables:
        g = by_id[t["group"]]
        mine = (mode == g["mode"]) & (pairing == g["pairing"]) & (side == (t["side"] or ""))
        for r in t["cards"]:
            r["vs_deck"] = None
        for family in dict.fromkeys(r["deck"] for r in t["cards"]):
            rows = [r for r in t["cards"] if r["deck"] == family]
            elig = mine & (deck == family) if family in g["decks"] else mine
            idx = np.flatnonzero(elig)
            if not len(idx) or len(rows) < 2:
                continue
            pos = np.full(n_sg, -1, dtype=np.int64)
            pos[idx] = np.arange(len(idx))
            column = np.full(len(names) + 1, -1, dtype=np.int64)
            for j, r in enumerate(rows):
                column[name_code.get(r["card"], len(names))] = j
            column[len(names)] = -1  # cards never played
            col = column[pair_card]
            keep = (col >= 0) & (pos[pair_i] >= 0)
            x = np.zeros((len(idx), len(rows)), dtype=bool)
            x[pos[pair_i[keep]], col[keep]] = True
            for r, c in zip(rows, contrasts(x, won[idx], game[idx]), strict=True):
                r["vs_deck"] = c
        stats.mark_holm([r["vs_deck"] for r in t["cards"]])
