"""How far each deck's win rate against the field moves between two sets of self-play games
of one mode (two players, or one player on two seeds), with the covariance of those moves:
the estimates the stability rule (results/analysis/stability.py) decides on.

A *win table* is one player's self-play games of a mode, per deck pairing (mirror matches
left out): ``wins[i, j]`` the decisive games deck i won against deck j, ``draws[i, j]``
(= ``draws[j, i]``) their shared wins. Deck i's win rate against the field is
``r_i = W_i / D_i`` (W_i its wins, D_i its decisive games over its pairings), as in the
report's deck-vs-field table. Arrays may carry leading batch axes (``(..., K, K)``): the
simulation tests and the benchmark feed thousands of tables at once through these same
functions.

**The variance, stratified by pairing.** Every game counts for both of its decks (a win of
deck i against j is a loss of j), and the two players' games of a pairing are the strata.
By the delta method, a game of pairing (i, j) adds ``(w - r_i d) / D_i`` to deck i's rate
(w: deck i won, d: the game was decisive) and the matching term to deck j's. Within a
stratum its three outcomes (i wins, j wins, shared win) have the observed frequencies, so
the stratum adds their variance times its games to deck i's variance, and their covariance
to (i, j) — with no shared wins this is ``G p(1 - p) / D_i**2`` and ``-G p(1 - p) /
(D_i D_j)``. Unpaired, the move's covariance is the sum of the two players' (independent
deals).

**Paired, where the players share deals.** When the two sets hold the same games of a
pairing (same mode, matchup, game index and seed: ``shared_deals``), the stratum's pairs of
games are the units: each pair adds B's term minus A's, and the stratum adds the variance
and covariance of those differences over its pairs (the ``joint`` 3 x 3 table of outcome
under A by outcome under B holds everything needed). A pairing whose games only partly pair
is taken unpaired.

**At small counts** (``rule_se``, ``continuity``). The plug-in variance above uses each
player's own outcome frequencies per pairing; at a few games a pairing they are often
extreme (7 of 10 against 3 of 10), the variance is underestimated exactly where the move
looks large, and the normal tail of the rule's tests runs over its alpha (about 4x at 50
games a deck: the 2026-12-06 audit, F4). The rule therefore uses, per deck, the larger of
that variance and the *score-type* one: the same stratified formula with each pairing's
outcome frequencies pooled over the two players (the variance if the players did not
differ, which is what the tests' nulls are near), paired pairings keeping their measured
correlation (the pooled variance scaled by paired over unpaired), and a continuity
correction of half a step of the move, (1/D_a + 1/D_b) / 4 (the move's step is 1/D when
both players have D decisive games), because a deck's wins are counts. At thousands of
games a deck both are small (the pooled and the plug-in variance differ by about
(move / 2)^2, under 1% of the SE for a move of 8 points; the correction is 0.025 points at
4,000 games): the verdicts at large counts do not change beyond the edge cases
(benchmarks/results/stability_rule.json).
"""

import numpy as np

OUTCOMES = ("first deck wins", "second deck wins", "shared win")


def _rates(wins, draws):
    """(W, D, G, r): each deck's wins, decisive games, games and win rate (nan without
    decisive games) against the field."""
    w = wins.sum(axis=-1)
    d = w + wins.sum(axis=-2)
    g = d + draws.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(d > 0, w / np.maximum(d, 1), np.nan)
    return w, d, g, r


def _terms(wins, draws):
    """Per ordered pair (i, j): the delta-method term of each outcome of their games for
    deck i (``u``: i wins, j wins) and for deck j (``v``), and the outcome counts (the
    shared win adds nothing: its terms are 0)."""
    _, d, _, r = _rates(wins, draws)
    d_ = np.maximum(d, 1)[..., :, None]
    r_i = np.nan_to_num(r)[..., :, None]
    r_j = np.swapaxes(np.nan_to_num(r)[..., :, None], -1, -2)
    dj = np.swapaxes(d_, -1, -2)
    full = wins.shape
    u = ((1 - r_i) / d_, -r_i / d_)  # deck i's term when i wins / when j wins
    v = (-r_j / dj, (1 - r_j) / dj)  # deck j's term
    return tuple(np.broadcast_to(x, full) for x in u), tuple(np.broadcast_to(x, full) for x in v)


def _stratum_parts(wins, draws):
    """Per ordered pair (i, j): pairing (i, j)'s share of Var(r_i) (``var``) and of
    Cov(r_i, r_j) (``cov``), from the observed frequencies of its games' outcomes."""
    (u1, u2), (v1, v2) = _terms(wins, draws)
    c1, c2 = wins, np.swapaxes(wins, -1, -2)  # i wins, j wins
    n_ = np.maximum(c1 + c2 + draws, 1)
    su, sv = c1 * u1 + c2 * u2, c1 * v1 + c2 * v2
    var = c1 * u1**2 + c2 * u2**2 - su**2 / n_
    cov = c1 * u1 * v1 + c2 * u2 * v2 - su * sv / n_
    return var, cov


def player_covariance(wins, draws):
    """The covariance matrix of one player's deck win rates against the field, stratified
    by pairing (``(..., K, K)``)."""
    var, cov = _stratum_parts(np.asarray(wins, float), np.asarray(draws, float))
    k = var.shape[-1]
    off = ~np.eye(k, dtype=bool)
    out = np.where(off, cov, 0.0)
    idx = np.arange(k)
    out[..., idx, idx] = np.where(off, var, 0.0).sum(axis=-1)
    return out


def _paired_stratum(joint, u_a, v_a, u_b, v_b):
    """(var_i, var_j, cov_ij) that a fully paired stratum adds to the move's covariance:
    over its pairs, the variance and covariance of (B's term - A's term) for decks i, j.
    ``joint[oa, ob]``: pairs with outcome oa under A and ob under B (OUTCOMES order)."""
    ua, va = np.array([*u_a, 0.0]), np.array([*v_a, 0.0])
    ub, vb = np.array([*u_b, 0.0]), np.array([*v_b, 0.0])
    du = ub[None, :] - ua[:, None]
    dv = vb[None, :] - va[:, None]
    n = joint.sum()
    mu, mv = (joint * du).sum() / n, (joint * dv).sum() / n
    return (
        (joint * (du - mu) ** 2).sum(),
        (joint * (dv - mv) ** 2).sum(),
        (joint * (du - mu) * (dv - mv)).sum(),
    )


def moves(wins_a, draws_a, wins_b, draws_b, joint=None) -> dict:
    """Each deck's move B - A of its win rate against the field (fractions, not points).

    ``joint``: {(i, j): 3 x 3 counts} of the pairings (i < j) whose games pair up between A
    and B (``joint_tables``); None or {} for independent deals. Returns ``delta`` (..., K),
    ``cov`` (..., K, K), ``rates_a``/``rates_b``, ``cov_a``/``cov_b`` (each player's own),
    ``games`` (..., K: the smaller of the two players' games per deck), ``paired`` (the
    number of pairings taken paired), ``var_null`` (..., K: each deck's score-type variance,
    ``null_variance`` scaled by the pairing) and ``continuity`` (..., K: half a step of the
    move, fractions)."""
    wins_a, draws_a = np.asarray(wins_a, float), np.asarray(draws_a, float)
    wins_b, draws_b = np.asarray(wins_b, float), np.asarray(draws_b, float)
    _, _, ga, ra = _rates(wins_a, draws_a)
    _, _, gb, rb = _rates(wins_b, draws_b)
    cov_a = player_covariance(wins_a, draws_a)
    cov_b = player_covariance(wins_b, draws_b)
    cov = cov_a + cov_b
    paired = 0
    if joint:
        if wins_a.ndim != 2:
            raise ValueError("paired tables are taken one comparison at a time")
        cov = cov.copy()
        ua, va = _terms(wins_a, draws_a)
        ub, vb = _terms(wins_b, draws_b)
        var_a, cv_a = _stratum_parts(wins_a, draws_a)
        var_b, cv_b = _stratum_parts(wins_b, draws_b)
        for (i, j), tab in joint.items():
            tab = np.asarray(tab, float)
            n_a = wins_a[i, j] + wins_a[j, i] + draws_a[i, j]
            n_b = wins_b[i, j] + wins_b[j, i] + draws_b[i, j]
            if not (tab.sum() == n_a == n_b and n_a > 0):
                continue  # only part of the pairing's games pair up: taken unpaired
            vi, vj, cij = _paired_stratum(
                tab,
                (ua[0][i, j], ua[1][i, j]),
                (va[0][i, j], va[1][i, j]),
                (ub[0][i, j], ub[1][i, j]),
                (vb[0][i, j], vb[1][i, j]),
            )
            # the pairs replace the two players' independent shares of this pairing
            cov[i, i] += vi - var_a[i, j] - var_b[i, j]
            cov[j, j] += vj - var_a[j, i] - var_b[j, i]
            cov[i, j] += cij - cv_a[i, j] - cv_b[i, j]
            cov[j, i] = cov[i, j]
            paired += 1
    unpaired = np.diagonal(cov_a + cov_b, axis1=-2, axis2=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        shrink = np.where(unpaired > 0, np.diagonal(cov, axis1=-2, axis2=-1) / unpaired, 1.0)
    _, da, _, _ = _rates(wins_a, draws_a)
    _, db, _, _ = _rates(wins_b, draws_b)
    return {
        "delta": rb - ra,
        "cov": cov,
        "rates_a": ra,
        "rates_b": rb,
        "cov_a": cov_a,
        "cov_b": cov_b,
        "games": np.minimum(ga, gb),
        "paired": paired,
        "var_null": null_variance(wins_a, draws_a, wins_b, draws_b) * shrink,
        "continuity": (1 / np.maximum(da, 1) + 1 / np.maximum(db, 1)) / 4,
    }


def null_variance(wins_a, draws_a, wins_b, draws_b):
    """Each deck's score-type variance of the move (..., K), unpaired: each player's
    stratified variance with every pairing's outcome frequencies pooled over the two
    players, at that player's own games of the pairing."""
    n_a = wins_a + np.swapaxes(wins_a, -1, -2) + draws_a
    n_b = wins_b + np.swapaxes(wins_b, -1, -2) + draws_b
    with np.errstate(invalid="ignore", divide="ignore"):
        share_a = np.where(n_a + n_b > 0, n_a / np.maximum(n_a + n_b, 1), 0.0)
    wins, draws = wins_a + wins_b, draws_a + draws_b
    var = 0.0
    for share in (share_a, 1 - share_a):
        cov = player_covariance(wins * share, draws * share)
        var = var + np.diagonal(cov, axis1=-2, axis2=-1)
    return var


def rule_se(m: dict):
    """Each deck's standard error of the move for the rule (fractions, (..., K)): the larger
    of the plug-in and the score-type one (module docstring, at small counts)."""
    plug_in = np.diagonal(m["cov"], axis1=-2, axis2=-1)
    return np.sqrt(np.maximum(np.maximum(plug_in, m["var_null"]), 0.0))


def table_from_cells(cells, decks) -> tuple:
    """(wins, draws) K x K of a self-play group from its matchup cells (the report's
    ``matchups`` section: each cell the row deck's record against the column deck)."""
    k = len(decks)
    pos = {d: i for i, d in enumerate(decks)}
    wins, draws = np.zeros((k, k)), np.zeros((k, k))
    for c in cells:
        i, j = pos.get(c["deck"]), pos.get(c["opp_deck"])
        if i is None or j is None or i == j or not c["combined"]:
            continue
        wins[i, j] = c["combined"]["wins"]
        draws[i, j] = c["combined"]["draws"]
    return wins, draws


def joint_tables(rows, decks) -> dict:
    """{(i, j): 3 x 3} from shared-deal rows (``shared_deals``: seat decks d0, d1, outcome
    under A ``oa`` and under B ``ob`` in OUTCOMES order from d0's side, count ``n``), in the
    deck order given (i < j; a pairing seated j, i is turned round)."""
    pos = {d: i for i, d in enumerate(decks)}
    out = {}
    swap = np.array([1, 0, 2])
    for r in rows:
        i, j = pos.get(r["d0"]), pos.get(r["d1"])
        if i is None or j is None or i == j:
            continue
        oa, ob = int(r["oa"]), int(r["ob"])
        if i > j:
            i, j, oa, ob = j, i, swap[oa], swap[ob]
        out.setdefault((i, j), np.zeros((3, 3)))[oa, ob] += r["n"]
    return out


def _outcome(alias: str) -> str:
    return f"CASE WHEN {alias}.winner < 0 THEN 2 ELSE {alias}.winner END"


def shared_deals_sql(table_a: str, table_b: str, where: str = "TRUE") -> str:
    """The query of the games two tables share (same mode, matchup, game index and seed:
    the same deal) among self-play games of two different decks, outcome by outcome:
    columns mode, d0, d1, pa, pb (the players), f (the seat that moved first, the same in
    both: it follows the game index; the seat edge pairs on it, results/analysis/seat_edge.py),
    oa, ob (OUTCOMES index), n."""
    return (
        f"SELECT a.mode, a.seat0_deck AS d0, a.seat1_deck AS d1, a.seat0_policy AS pa, "
        f"b.seat0_policy AS pb, a.first_seat AS f, {_outcome('a')} AS oa, {_outcome('b')} AS ob, "
        "count(*) AS n "
        f"FROM {table_a} a JOIN {table_b} b ON a.mode = b.mode "
        "AND a.seat0_deck = b.seat0_deck AND a.seat1_deck = b.seat1_deck "
        "AND a.game_index = b.game_index AND a.seed = b.seed "
        "WHERE a.seat0_policy = a.seat1_policy AND b.seat0_policy = b.seat1_policy "
        f"AND a.seat0_deck <> a.seat1_deck AND a.error = 0 AND b.error = 0 AND {where} "
        "GROUP BY ALL ORDER BY ALL"
    )
