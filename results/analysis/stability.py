"""Is the study's balance answer stable under stronger play? The one owner of the rule.

For a study that plays the same decks with two or more players, each in self-play
(``summary["player_sensitivity"]``, results/analysis/sensitivity.py), per two-seat mode and
comparison (the top two players, and the top one against its double budget:
results/analysis/player_families.py), and for ``kalarite compare`` of two studies that differ
only in their players or only in their seed (results/compare/stability.py):

- **Each deck's move** ``delta``: its win rate against the field (mirror matches left out)
  under the second set of games minus under the first, in points, with its standard error
  stratified by deck pairing, and paired game by game where the two share deals
  (results/analysis/deck_moves.py), never below its score-type value and with a continuity
  correction (``rule_inputs``: what holds the tests' alpha at small counts), and its
  1 - alpha interval (``delta_lo``, ``delta_hi``: 95%, or 95.6% at the last of four looks).
- **The decision** (``decide``), with the margin M (``MARGIN_POINTS`` = 3 points unless the
  study spec's ``stability_margin`` or ``--margin`` says otherwise) and alpha = 0.05 (or a
  look's share):

  - **stable** when every deck's 1 - 2 alpha interval (90%) lies inside [-M, +M]: an
    equivalence test (TOST) per deck; all of them must pass, and by the intersection-union
    principle that needs no correction for the number of decks;
  - **player-sensitive** when some deck's move is confidently beyond M: the one-sided test
    of |delta| <= M (p = P(|D| >= |d| at |delta| = M), normal) rejects after Holm over the
    decks;
  - **undetermined** otherwise, with the games a deck would need to decide
    (``games_needed``). From a deck's move d and standard error s at n games a deck, its SE
    at N games is s sqrt(n / N), so its own question is decided with power ``POWER`` at

        N = n * ((z_a + z_b) * s / |M - |d||) ** 2,

    z_b = z(POWER) (1.28), z_a = z(1 - alpha) (1.645) for a deck on its way to "within"
    (|d| < M), z(1 - alpha / K) for one on its way to "beyond" (|d| > M, Holm's first step
    over K decks). The comparison needs its limiting deck: the fewest N of the decks
    heading beyond M (one suffices), else the most N of the decks not yet within.
    Because a move seen near M makes that projection long and noisy, the comparison also
    says ``games_needed_no_move``: the games a deck at which, if no deck truly moves, every
    deck's 90% interval lies within +-M with joint power POWER (each deck POWER ** (1 / K),
    two-sided: N0 = n * ((z(1 - alpha) + z((1 + POWER ** (1 / K)) / 2)) * s / M) ** 2 for
    the deck with the widest s).

  No decision compares a point estimate with a threshold. Under two identical players the
  rule says player-sensitive at most 5% of the time (its tests are at alpha = 0.05; far
  less in practice, from 30 games a deck up: tests/test_stability_rule.py,
  tests/test_stability_corrections.py, benchmarks/stability_rule.py).
- **Each deck's own word** (``deck_verdicts``): player-sensitive when beyond (Holm), stable
  when its equivalence test passes Holm over the decks too (or the comparison is stable),
  else undetermined, so that the labels of either kind err for some deck at most alpha.
- **Do the players differ at all?** (``players_differ``) A Wald chi-square test of the
  moves on their K - 1 contrasts with their mean (the moves of a balanced study sum to
  zero, so their mean carries nothing), with the covariance of the games the decks share;
  shown beside the decision, not part of it. A difference smaller than M is possible.
- **Description only** (results/analysis/ranking_change.py): Kendall tau of the two deck
  rankings with a bootstrap interval, confident ranking reversals and verdicts flipping
  between favoured and disfavoured.

A mode is player-sensitive when one of its comparisons is, stable when all are, else
undetermined; the study likewise over its modes (each comparison's tests are at 5%, so the
study's chance of a false "player-sensitive" is at most 5% times its comparisons).
``kalarite compare`` (results/compare/), the first screen (results/analysis/glance.py) and
the sensitivity section read this verdict; none of them decides it.
"""

import math

import numpy as np
from scipy.linalg import helmert
from scipy.stats import chi2, norm

from results import stats
from results.analysis import deck_moves, ranking_change
from results.analysis.player_families import (  # noqa: F401 (the rule's players)
    BUDGET_FACTOR,
    family,
    rank_players,
)
from results.analysis.sensitivity import verdict as deck_verdict
from sim.study import DEFAULT_STABILITY_MARGIN, MAX_STABILITY_MARGIN, check_stability_margin

MARGIN_POINTS = DEFAULT_STABILITY_MARGIN  # a deck's move that matters, in points
MAX_MARGIN_POINTS = MAX_STABILITY_MARGIN
ALPHA = stats.ALPHA  # every test of the rule
POWER = 0.90  # the power games_needed plans for
DETECT_POWER = 0.80  # the power of the smallest move a study is said to find (detectable_move)
MAX_GAMES_NEEDED = 10**9  # a projection beyond this says only "more than"
STABLE, SENSITIVE, UNDETERMINED = "stable", "player-sensitive", "undetermined"
VERDICTS = (STABLE, SENSITIVE, UNDETERMINED)
Z_EQUIVALENCE = float(norm.ppf(1 - ALPHA))  # the 90% interval of the equivalence test
Z_INTERVAL = float(norm.ppf(1 - ALPHA / 2))  # the 95% interval shown
Z_POWER = float(norm.ppf(POWER))


def check_margin(value, what: str = "stability_margin") -> float:
    """A margin in points (spec key ``stability_margin``, ``--margin``): a number above 0
    and at most MAX_MARGIN_POINTS; raises ValueError (sim.study.StudyError) with one line."""
    return check_stability_margin(value, what)


def games_needed(delta, se, games, margin: float, k: int, alpha: float = ALPHA):
    """Per deck, the games a deck (per player) at which its own question (within or beyond
    the margin) is decided with POWER at the observed move and SE (module docstring); nan
    where it cannot be projected (a move of exactly M, or no spread)."""
    a = np.abs(np.asarray(delta, float))
    se = np.asarray(se, float)
    z_eq = float(norm.ppf(1 - alpha))
    z_a = np.where(a < margin, z_eq, float(norm.ppf(1 - alpha / max(k, 1))))
    gap = np.abs(margin - a)
    with np.errstate(divide="ignore", invalid="ignore"):
        n = np.asarray(games, float) * ((z_a + Z_POWER) * se / gap) ** 2
    return np.where((gap > 0) & (se > 0), np.minimum(n, MAX_GAMES_NEEDED), np.nan)


def detectable_move(
    se, margin: float = MARGIN_POINTS, alpha: float = ALPHA, k: int = 1, continuity=0.0
) -> float:
    """The smallest true move (points) of one deck, the others not moving, that the rule
    calls player-sensitive with probability DETECT_POWER at standard error ``se`` (points):
    its beyond test rejects when (|d| - continuity - M) / se > z(1 - alpha / k) (Holm's
    first step over ``k`` decks; the test's other tail is negligible there), so
    M + continuity + (z(1 - alpha / k) + z(DETECT_POWER)) * se. At 8,000 games a deck (se
    about 0.67, six decks, the last of four looks) about 5.2 points: a 4-point move is found
    about 17% of the time (the 2026-12-06 audit simulated 13-16%)."""
    z = float(norm.ppf(1 - alpha / max(int(k), 1))) + float(norm.ppf(DETECT_POWER))
    return float(margin) + float(continuity) + z * float(se)


def decide(
    delta, se, games, margin: float = MARGIN_POINTS, alpha: float = ALPHA, continuity=None
) -> dict:
    """THE rule for one comparison of K decks: moves ``delta`` and standard errors ``se`` in
    points, ``games`` a deck; ``alpha`` the error of each of its tests (less than ALPHA at a
    look of ``kalarite study --until``: results/looks.py); ``continuity`` (points per deck,
    default 0): each test's statistic is moved that much toward its null and each interval
    widened by it (``rule_inputs``: half a step of the move, which matters at small counts).
    ``verdict``; per deck (arrays/lists in the decks' order) ``within`` (its own
    1 - 2 alpha interval inside +-M), ``beyond`` (Holm), their p-values and intervals,
    ``p_move`` (two-sided against 0, Holm-adjusted beside it), ``deck_verdicts`` (each deck's
    own word, ``deck_verdicts``); ``games_needed`` (the comparison's, None unless
    undetermined) and ``deck_needed`` (per deck, None where that deck is decided)."""
    d = np.asarray(delta, float)
    s = np.asarray(se, float)
    k = len(d)
    cc = np.zeros(k) if continuity is None else np.broadcast_to(np.asarray(continuity, float), k)
    a = np.abs(d)
    far = np.maximum(a - cc, 0.0)  # |d| moved toward 0: the beyond and the move tests
    z_eq, z_int = float(norm.ppf(1 - alpha)), float(norm.ppf(1 - alpha / 2))
    lo90, hi90 = d - z_eq * s - cc, d + z_eq * s + cc
    within = (lo90 > -margin) & (hi90 < margin)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_beyond = np.where(
            s > 0,
            norm.sf((far - margin) / s) + norm.sf((far + margin) / s),
            np.where(far > margin, 0.0, 1.0),
        )
        p_within = np.where(
            s > 0,
            np.maximum(norm.sf((d - cc + margin) / s), norm.sf((margin - d - cc) / s)),
            np.where(a + cc < margin, 0.0, 1.0),
        )
        p_move = np.where(s > 0, 2 * norm.sf(far / s), np.where(far > 0, 0.0, 1.0))
    holm_beyond = stats.holm([float(p) for p in p_beyond])
    beyond = np.array([p is not None and p < alpha for p in holm_beyond], bool)
    if beyond.any():
        verdict = SENSITIVE
    elif within.all():
        verdict = STABLE
    else:
        verdict = UNDETERMINED
    holm_within = stats.holm([float(p) for p in p_within])
    need = games_needed(d, s, games, margin, k, alpha)
    open_ = ~within & ~beyond
    deck_needed = [
        int(math.ceil(n)) if o and np.isfinite(n) else None
        for o, n in zip(open_, need, strict=True)
    ]
    needed = no_move = None
    if verdict == UNDETERMINED:
        z_all = float(norm.ppf((1 + POWER ** (1 / max(k, 1))) / 2))
        n0 = np.asarray(games, float) * ((z_eq + z_all) * s / margin) ** 2
        no_move = int(math.ceil(min(float(n0.max()), MAX_GAMES_NEEDED))) if k else None
        heading_out = open_ & (a > margin) & np.isfinite(need)
        heading_in = open_ & (a < margin) & np.isfinite(need)
        if heading_out.any():
            needed = int(math.ceil(need[heading_out].min()))
        elif heading_in.any() and not (open_ & ~np.isfinite(need)).any():
            needed = int(math.ceil(need[heading_in].max()))
    return {
        "verdict": verdict,
        "margin": float(margin),
        "within": within,
        "beyond": beyond,
        "p_beyond": p_beyond,
        "p_beyond_holm": holm_beyond,
        "p_within": p_within,
        "p_within_holm": holm_within,
        "deck_verdicts": deck_verdicts(verdict, beyond, holm_within, alpha),
        "p_move": p_move,
        "p_move_holm": stats.holm([float(p) for p in p_move]),
        "lo90": lo90,
        "hi90": hi90,
        "lo95": d - z_int * s - cc,
        "hi95": d + z_int * s + cc,
        "alpha": float(alpha),
        "games_needed": needed,
        "games_needed_no_move": no_move,
        "deck_needed": deck_needed,
    }


def deck_verdicts(verdict: str, beyond, p_within_holm, alpha: float = ALPHA) -> list:
    """Each deck's own word, corrected for the number of decks alike in both directions.

    *player-sensitive*: its move is beyond the margin after Holm over the decks (as the
    comparison's verdict). *stable*: its equivalence (TOST) p-value passes Holm over the
    decks too, or the comparison itself is stable (every deck within: the intersection-union
    claim, whose error is at most alpha and which names every deck). Uncorrected, each deck
    alone errs with probability alpha, but with four decks truly at the margin some deck is
    called stable about 3-4 alpha of the time (the 2026-12-06 audit, F2); with Holm the
    chance that any deck truly outside the margin is called stable stays at alpha (exactly
    when one deck is outside; with two or more, plus the chance that every one of them looks
    within on its own, second order: tests/test_stability_corrections.py simulates four
    decks at the margin, 0.048 against 0.17 uncorrected). Holm rather than labels only in
    stable comparisons: a deck that clearly did not move keeps its word in a comparison that
    another deck made player-sensitive. Otherwise *undetermined*."""
    stable_all = verdict == STABLE
    return [
        SENSITIVE if b else STABLE if stable_all or (p is not None and p < alpha) else UNDETERMINED
        for b, p in zip(beyond, p_within_holm, strict=True)
    ]


def rule_inputs(m: dict, keep=None) -> tuple:
    """(moves, standard errors, games a deck, continuity) in points, as the rule takes them,
    from ``deck_moves.moves`` (the decks ``keep``, all by default): the score-type standard
    error and the continuity correction that hold at small counts (deck_moves)."""
    keep = slice(None) if keep is None else keep
    se = deck_moves.rule_se(m)
    return (
        100 * m["delta"][..., keep],
        100 * se[..., keep],
        m["games"][..., keep],
        100 * m["continuity"][..., keep],
    )


def players_differ(delta, cov, alpha: float = ALPHA) -> dict | None:
    """Do the two sets of games differ at all? The Wald chi-square of the moves (fractions)
    on their K - 1 Helmert contrasts (orthogonal to their mean), with the moves' covariance:
    ``chi2``, ``df``, ``p_value``, ``differ`` (p < alpha). None for fewer than two decks."""
    d = np.asarray(delta, float)
    if len(d) < 2 or not np.all(np.isfinite(d)):
        return None
    h = helmert(len(d))  # (K - 1) x K, orthonormal rows orthogonal to the ones vector
    x = h @ d
    v = h @ np.asarray(cov, float) @ h.T
    df = int(np.linalg.matrix_rank(v))
    if df == 0:
        return None
    stat = float(x @ np.linalg.pinv(v) @ x)
    p = float(chi2.sf(stat, df))
    return {"chi2": stat, "df": df, "p_value": p, "differ": p < alpha}


def _num(x, digits=2):
    return None if x is None or not np.isfinite(x) else round(float(x), digits)


def compare_tables(
    names, table_a, table_b, joint=None, margin: float = MARGIN_POINTS, alpha: float = ALPHA
) -> dict:
    """One comparison from two win tables ((wins, draws) K x K each, A then B, decks in
    ``names`` order; ``joint``: the paired pairings, results.analysis.deck_moves). Moves are
    B minus A. The comparison's ``verdict``, ``decks`` -> deck -> figures, ``differ`` (the
    global test), ``games_needed``, and the description: ``tau`` [``tau_lo``, ``tau_hi``],
    ``reversals``, ``flipped``."""
    (wa, da), (wb, db) = table_a, table_b
    m = deck_moves.moves(wa, da, wb, db, joint)
    keep = [
        i
        for i in range(len(names))
        if np.isfinite(m["rates_a"][i]) and np.isfinite(m["rates_b"][i])
    ]
    names = [names[i] for i in keep]
    cov = m["cov"][np.ix_(keep, keep)]
    delta, se, games, cc = rule_inputs(m, keep)
    rule = decide(delta, se, games, margin, alpha, cc)
    wins_a, dec_a = wa.sum(axis=1), wa.sum(axis=1) + wa.sum(axis=0)
    wins_b, dec_b = wb.sum(axis=1), wb.sum(axis=1) + wb.sum(axis=0)
    decks, verdicts = {}, {}
    for n, (i, name) in enumerate(zip(keep, names, strict=True)):
        va = deck_verdict(stats.proportion(wins_a[i], dec_a[i]))
        vb = deck_verdict(stats.proportion(wins_b[i], dec_b[i]))
        verdicts[name] = [va, vb]
        own = rule["deck_verdicts"][n]
        # a move of a win rate lies within +-100 points: the normal intervals are shown
        # clipped there (the decision above is made on the rule's own bounds)
        lo95, hi95, clip95 = stats.clip_difference(rule["lo95"][n] / 100, rule["hi95"][n] / 100)
        lo90, hi90, clip90 = stats.clip_difference(rule["lo90"][n] / 100, rule["hi90"][n] / 100)
        decks[name] = {
            "delta": _num(delta[n]),
            "se": _num(se[n], 3),
            # (4 decimals: printed rounded outward like the tables' bounds, results.shown)
            "delta_lo": _num(None if lo95 is None else 100 * lo95, 4),
            "delta_hi": _num(None if hi95 is None else 100 * hi95, 4),
            "within_lo": _num(None if lo90 is None else 100 * lo90, 4),
            "within_hi": _num(None if hi90 is None else 100 * hi90, 4),
            "clipped": clip95 or clip90,
            "continuity": _num(cc[n], 4),
            "verdict": own,
            "p_beyond": float(rule["p_beyond"][n]),
            "p_beyond_holm": rule["p_beyond_holm"][n],
            "p_within": float(rule["p_within"][n]),
            "p_within_holm": rule["p_within_holm"][n],
            "within": bool(rule["within"][n]),
            "p_move": float(rule["p_move"][n]),
            "p_move_holm": rule["p_move_holm"][n],
            "moved": bool(rule["p_move_holm"][n] < alpha),
            "games": int(games[n]),
            "rates": [float(m["rates_a"][i]), float(m["rates_b"][i])],
            "verdicts": [va, vb],
            "flipped": {"favoured", "disfavoured"} == {va, vb},
        }
        if rule["deck_needed"][n] is not None:  # an undetermined deck, whatever the others
            decks[name]["games_needed"] = rule["deck_needed"][n]
    sub = np.ix_(keep, keep)
    tau, tau_lo, tau_hi = ranking_change.bootstrap_tau(
        wa[sub], da[sub], wb[sub], db[sub], _sub_joint(joint, keep)
    )
    ra, rb = m["rates_a"][keep], m["rates_b"][keep]
    return {
        "verdict": rule["verdict"],
        "margin": rule["margin"],
        "alpha": rule["alpha"],
        "decks": decks,
        "games": int(games.min()) if len(games) else 0,
        "games_needed": rule["games_needed"],
        "games_needed_no_move": rule["games_needed_no_move"],
        "beyond": [x for x, d in decks.items() if d["verdict"] == SENSITIVE],
        "paired_pairings": m["paired"],
        "pairings": len(names) * (len(names) - 1) // 2,
        "differ": players_differ(m["delta"][keep], cov, alpha),
        "tau": _num(tau, 3),
        "tau_lo": _num(tau_lo, 3),
        "tau_hi": _num(tau_hi, 3),
        "reversals": ranking_change.reversals(
            names,
            ra,
            m["cov_a"][np.ix_(keep, keep)],
            rb,
            m["cov_b"][np.ix_(keep, keep)],
        ),
        "flipped": ranking_change.flips(verdicts),
    }


def _sub_joint(joint, keep):
    if not joint:
        return None
    pos = {i: n for n, i in enumerate(keep)}
    return {(pos[i], pos[j]): t for (i, j), t in joint.items() if i in pos and j in pos}


def combine(verdicts) -> str | None:
    """Several comparisons' (or modes') verdicts as one: player-sensitive when one is,
    stable when all are, else undetermined (None for none)."""
    verdicts = list(verdicts)
    if not verdicts:
        return None
    if SENSITIVE in verdicts:
        return SENSITIVE
    return STABLE if all(v == STABLE for v in verdicts) else UNDETERMINED


# --- a study's comparisons -------------------------------------------------------------------


def study_margin(summary: dict, margin=None) -> float:
    """The margin: ``margin`` (--margin) if given, else the study spec's
    ``stability_margin``, else MARGIN_POINTS."""
    if margin is not None:
        return check_margin(margin, "--margin")
    spec = ((summary.get("run") or {}).get("study")) or {}
    value = spec.get("stability_margin")
    return MARGIN_POINTS if value is None else check_margin(value)


def player_table(summary: dict, mode: str, player: str, names) -> tuple | None:
    """(wins, draws) of ``player``'s self-play games of ``mode`` over the decks ``names``,
    from the report's matchup cells; None when the study has no such group."""
    group = next(
        (
            g
            for g in summary.get("groups", [])
            if g["mode"] == mode and g["symmetric"] and g["policies"][0] == player
        ),
        None,
    )
    cells = next(
        (m for m in summary.get("matchups", []) if group and m["group"] == group["id"]), None
    )
    if cells is None:
        return None
    return deck_moves.table_from_cells(cells["cells"], names)


def _comparison(summary, mode, sens, first, second, kind, margin, alpha=ALPHA) -> dict | None:
    """``second`` against ``first`` (moves: second minus first) in ``mode``."""
    names = [
        r["deck"] for r in sens["decks"] if first in r["by_player"] and second in r["by_player"]
    ]
    ta, tb = player_table(summary, mode, first, names), player_table(summary, mode, second, names)
    if len(names) < 2 or ta is None or tb is None:
        return None
    rows = [r for r in sens.get("shared_deals", []) if r["pa"] == first and r["pb"] == second]
    c = compare_tables(names, ta, tb, deck_moves.joint_tables(rows, names), margin, alpha)
    if len(c["decks"]) < 2:
        return None
    c["kind"] = kind
    c["players"] = [second, first] if kind == "top_two" else [first, second]
    c["from_to"] = [first, second]
    return c


def mode_stability(
    summary: dict, mode: str, margin: float = MARGIN_POINTS, alpha: float = ALPHA
) -> dict | None:
    """The verdict of one mode (None where its stability cannot be judged)."""
    sens = (summary.get("player_sensitivity") or {}).get(mode)
    if not sens:
        return None
    rank = rank_players(summary, mode, sens["players"])
    comparisons = []
    if len(rank["families"]) >= 2:
        top, second = rank["families"][:2]
        comparisons.append(_comparison(summary, mode, sens, second, top, "top_two", margin, alpha))
    if rank["variant"]:
        top = rank["families"][0]
        comparisons.append(
            _comparison(summary, mode, sens, top, rank["variant"], "budget", margin, alpha)
        )
    comparisons = [c for c in comparisons if c]
    if not comparisons:
        return None
    verdict = combine(c["verdict"] for c in comparisons)
    return {
        "verdict": verdict,
        "stable": verdict == STABLE,
        "ranked_by": rank["by"],
        "ranking": rank["families"],
        "variant": rank["variant"],
        "comparisons": comparisons,
    }


def why_not_judged(summary: dict, mode: str) -> str:
    """Why a mode's stability cannot be judged, in a few words."""
    groups = [g for g in summary.get("groups", []) if g["mode"] == mode]
    players = list(dict.fromkeys(p for g in groups for p in g["policies"]))
    selfplay = list(dict.fromkeys(g["policies"][0] for g in groups if g["symmetric"]))
    if len(players) <= 1:
        return f"one player ({players[0]})" if players else "no two-seat games"
    if len(selfplay) < 2:
        return "no two players each play against themselves with the same decks"
    return "fewer than two decks are played by two players"


def rule_settings(margin: float, alpha: float = ALPHA) -> dict:
    """The rule's settings, as summary.json and ``compare --json`` state them."""
    return {
        "margin_points": margin,
        "alpha": round(alpha, 6),
        "equivalence_interval": round(1 - 2 * alpha, 6),
        "interval": round(1 - alpha, 6),
        "power": POWER,
        "bootstrap": ranking_change.BOOTSTRAP,
        "bootstrap_seed": ranking_change.BOOTSTRAP_SEED,
    }


def summarize(per_mode: dict, margin: float, alpha: float = ALPHA) -> dict:
    """The study-level block of ``summary["stability"]`` (and of ``compare``'s
    ``stability``) from its modes (mode -> ``mode_stability`` or {"verdict": None, "why"})."""
    judged = [m for m in per_mode.values() if m.get("verdict") is not None]
    verdict = combine(m["verdict"] for m in judged)
    decks, taus, needed, no_move = {}, [], [], []
    for mode, m in per_mode.items():
        for c in m.get("comparisons", []) if m.get("verdict") else []:
            if c["tau"] is not None:
                taus.append(c["tau"])
            if c["verdict"] == UNDETERMINED:
                needed += [c["games_needed"]] if c["games_needed"] is not None else []
                no_move += [c["games_needed_no_move"]] if c["games_needed_no_move"] else []
            for d, x in c["decks"].items():
                e = decks.get(d)
                if e is None or abs(x["delta"]) > abs(e["delta"]):
                    decks[d] = {
                        k: x[k]
                        for k in ("delta", "delta_lo", "delta_hi", "verdict", "games_needed")
                        if k in x
                    } | {"mode": mode, "flipped": bool(e and e["flipped"]) or x["flipped"]}
                else:
                    e["flipped"] = e["flipped"] or x["flipped"]
    first = judged[0]["comparisons"][0] if judged else None
    return {
        "judged": bool(judged),
        "verdict": verdict,
        "stable": (verdict == STABLE) if judged else None,
        "margin": margin,
        "tau": min(taus) if taus else None,
        "players": first["players"] if first else [],
        "variant": judged[0].get("variant") if judged else None,
        "games_needed": max(needed) if needed and verdict == UNDETERMINED else None,
        "games_needed_no_move": max(no_move) if no_move and verdict == UNDETERMINED else None,
        "decks": decks,
        "modes": per_mode,
        "rule": rule_settings(margin, alpha),
    }


def study_stability(summary: dict, margin=None, alpha: float = ALPHA) -> dict:
    """``summary["stability"]``: ``judged``; ``verdict`` (stable, player-sensitive,
    undetermined; None when not judged) and ``stable`` (verdict == stable; None when not
    judged); ``margin``; ``tau`` (the least over the comparisons); ``players`` (the first
    comparison's two); ``variant``; ``games_needed`` (a deck, for every undetermined
    comparison to be decided at the moves seen) and ``games_needed_no_move`` (for every
    deck to show within the margin if none truly moves); ``decks`` -> deck -> ``delta``,
    ``delta_lo``, ``delta_hi`` (points, 95%: the comparison where it moved most), its own
    ``verdict``, ``games_needed`` (when undetermined), ``mode``, ``flipped`` (favoured <->
    disfavoured anywhere); ``modes`` -> mode -> the details, or ``why`` it cannot be judged;
    ``rule`` (the settings). ``alpha``: each test's error (a look's share of ALPHA for a
    study played ``--until``: results/looks.py)."""
    margin = study_margin(summary, margin)
    modes = list(dict.fromkeys(g["mode"] for g in summary.get("groups", [])))
    per_mode = {}
    for mode in modes:
        per_mode[mode] = mode_stability(summary, mode, margin, alpha) or {
            "verdict": None,
            "stable": None,
            "why": why_not_judged(summary, mode),
        }
    return summarize(per_mode, margin, alpha)
