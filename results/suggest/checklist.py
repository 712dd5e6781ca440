"""The trust checklist of a confirmed (or replayed) suggestion: what must be true before a
designer takes an edit to the table. Each item is {"item", "ok": True / False / None
(undetermined or not applicable), "text"}: every yes or no is decided with an interval.

1. content checked: the edit's card files passed a short `kalarite check`;
2. the player uses the deck's mechanics: for an edit to a frozen, warp or Gateway card, the
   `kalarite competence` gap of the deck's mechanic (when its results are given) is
   measurably positive; otherwise the deck's win rate says little about the mechanic;
3. the edited card came into play: the share of the replayed games in which the deck's seat
   summoned the card or ran its frozen or warp program (card_events: summoned, thawed,
   warped) is at least ``MIN_PLAYED`` (its Wilson 95% interval above it; below it: no;
   across it: undetermined), beside the share of deals whose result the edit changed;
4. the two strongest players agree: both effects' 95% intervals on the same side of 0, and
   the 90% interval of their difference inside the report's stability margin
   (results.analysis.stability.MARGIN_POINTS: an equivalence test at 5%); opposite signs
   or a difference surely beyond the margin: they disagree; otherwise undetermined;
5. not from the tie-breakers: without the deals in which either game was decided by the
   tie-breakers (equal scores) the effect's 95% interval still excludes 0 on the goal's side;
6. no collateral damage: no matchup of the deck moves against the goal (paired t-test,
   Holm over the matchups, 5%), and for a floor goal none is projected below the floor;
7. the label: a candidate for human playtesting, with its players and games.
"""

import math

import numpy as np
from scipy import stats as sps

from results import stats
from results.analysis.stability import MARGIN_POINTS
from results.shown import no_interval
from results.suggest.data import seat0_cards

MIN_PLAYED = 0.10
LABEL = "a candidate for human playtesting"
PROGRAM_EVENTS = ("summoned", "thawed", "warped")


def _item(item, ok, text):
    return {"item": item, "ok": ok, "text": text}


def card_played(datasets: dict, deck: str, slug: str) -> dict:
    """Over the edit's replayed games (all players): the share in which seat 0 summoned the
    card or ran its frozen or warp program, and in which it drew it."""
    n = played = drawn = 0
    from results.suggest.data import games

    for out in datasets.values():
        g = games(out)
        cards = seat0_cards(out, events=("drawn",) + PROGRAM_EVENTS)
        for key, rows in g.items():
            if key[1] != deck:
                continue
            ev = cards.get(key, {})
            for gi in rows:
                n += 1
                evs = ev.get(gi, {}).get(slug, set())
                played += bool(evs & set(PROGRAM_EVENTS))
                drawn += "drawn" in evs
    return {"games": n, "played": played / n if n else 0.0, "drawn": drawn / n if n else 0.0}


def checklist(goal, cand: dict, res: dict, check: dict, race: dict, base_dirs, players,
              competence=None) -> list:  # fmt: skip
    """The checklist of one replayed edit (``res``: its confirmation, ``check``: its short
    check, ``competence``: rows of `kalarite competence` for the deck, or None)."""
    out = []
    if check.get("result") == "clean":
        out.append(
            _item(
                "content checked",
                True,
                f"kalarite check: {check['games']} random games, every invariant held",
            )
        )
    elif check.get("result") == "broken":
        out.append(_item("content checked", False, "kalarite check broke an invariant: "
                         + "; ".join(check.get("broken", []))))  # fmt: skip
    else:
        out.append(_item("content checked", None, "not checked (budget.check_games = 0)"))
    out.append(_competence_item(goal, cand, competence, players))
    slug = cand["edit"]["card"].partition("/")[2]
    use = card_played(res["datasets"], goal.deck, slug)
    pairs = sum(r["pairs"] for r in res["cells"])
    changed = res["changed_pairs"] / pairs if pairs else 0.0
    k = round(use["played"] * use["games"])
    played = stats.proportion(k, use["games"])  # Wilson, inside [0, 1]
    lo, hi = (played["lo"], played["hi"]) if use["games"] else (0.0, 1.0)
    out.append(_item(
        "the edited card came into play",
        True if lo >= MIN_PLAYED else False if hi < MIN_PLAYED else None,
        f"summoned or its program run in {use['played']:.0%} [{lo:.0%}, {hi:.0%}] of "
        f"{use['games']:,} replayed games (drawn in {use['drawn']:.0%}; at least "
        f"{MIN_PLAYED:.0%} asked); the result changed in {changed:.0%} of the deals",
    ))  # fmt: skip
    out.append(_agreement(res["objective_by_player"], players))
    tb = res["tie_breaks"]
    w = tb["without_tie_breaks"]
    ok = None
    if w["lo"] is not None and np.isfinite(w["lo"]):
        ok = True if w["lo"] > 0 else False if w["hi"] < 0 else None
    out.append(_item(
        "not from the tie-breakers",
        ok,
        f"{tb['tie_break_share']:.0%} of the {tb['flipped_pairs']:,} changed deals had a game "
        f"decided by the tie-breakers; without those deals the effect on the goal is "
        f"{_with_interval(w)}"
        + ("" if ok else " (not distinguishable from 0)" if ok is None else " (reversed)"),
    ))  # fmt: skip
    out.append(_collateral(goal, res))
    games = res["games_per_player"]
    out.append(_item("label", None, f"{LABEL}: {' and '.join(players)}, {games:,} deals each on "
                     f"fresh seeds (seed {res['seed']}), paired with the base"))  # fmt: skip
    return out


def _with_interval(x) -> str:
    """An effect in points with its 95% interval, or what stands for a missing one
    (results.shown.no_interval)."""
    lo, hi, m = x.get("lo"), x.get("hi"), x.get("effect")
    if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
        ok = m is not None and math.isfinite(m)
        return f"{_pts(m)} ({no_interval(m if ok else None)})"
    return f"{_pts(m)} [{_pts(lo)}, {_pts(hi)}]"


def _pts(x) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{x * 100:+.1f}"


def _agreement(ob: dict, players) -> dict:
    """Do the two players agree? In sign: both effects' 95% intervals on the same side of 0
    (opposite sides: they disagree). Within the stability margin M: the 90% interval of the
    difference between them inside [-M, M] (an equivalence test at 5%), beyond it: they
    differ; otherwise undetermined."""
    # a missing bound (no interval: every pair alike, results.stats.paired_difference) decides
    # nothing
    a, b = ({k: math.nan if v is None else v for k, v in ob[p].items()} for p in players[:2])
    m = MARGIN_POINTS / 100
    sign = (a["lo"] > 0 and b["lo"] > 0) or (a["hi"] < 0 and b["hi"] < 0)
    opposite = (a["lo"] > 0 and b["hi"] < 0) or (a["hi"] < 0 and b["lo"] > 0)
    se = math.hypot(*(_se(x) for x in (a, b)))
    diff = a["effect"] - b["effect"]
    z = sps.norm.ppf(0.95)
    dlo, dhi = diff - z * se, diff + z * se
    within = -m <= dlo and dhi <= m
    beyond = dlo > m or dhi < -m
    ok = True if sign and within else False if opposite or beyond else None
    text = ", ".join(f"{p}: {_with_interval(ob[p])}" for p in players[:2])
    text += (
        f"; difference {_pts(diff)} points, "
        + (
            f"90% [{_pts(dlo)}, {_pts(dhi)}]"
            if math.isfinite(dlo) and math.isfinite(dhi)
            else "no interval (an effect above has none)"
        )
        + f" against the margin ±{MARGIN_POINTS:g}: "
        + ("they agree" if ok else "they disagree" if ok is False else "undetermined")
    )
    return _item("the two strongest players agree", ok, text)


def _se(x) -> float:
    """The standard error behind a 95% t interval (normal approximation)."""
    if x["lo"] is None or not math.isfinite(x["lo"]):
        return math.inf
    return (x["hi"] - x["lo"]) / (2 * sps.norm.ppf(0.975))


def _competence_item(goal, cand, rows, players):
    card = cand.get("card_table", {})
    mech = "frozen" if "frozen" in card else "warp" if "warp" in card else None
    if mech is None and goal.deck == "nethervoid":
        mech = "gateway"
    if mech is None:
        return _item("the player uses the deck's mechanics", None,
                     "not applicable: the edited card has no expansion mechanic")  # fmt: skip
    if not rows:
        return _item(
            "the player uses the deck's mechanics", None,
            f"unknown: no `kalarite competence` results for {goal.deck} given (run.competence): "
            f"the {mech} program may be worth nothing to the player",
        )  # fmt: skip
    flagged = [r for r in rows if r["flagged"]]
    text = "; ".join(
        f"{r['player']} {r['mode']}: {r['gap'] * 100:+.1f} points [{r['lo'] * 100:+.1f}, "
        f"{r['hi'] * 100:+.1f}]"
        for r in rows
        if r["gap"] is not None
    )
    return _item("the player uses the deck's mechanics", not flagged,
                 f"competence gap of {mech}: {text}"
                 + ("; may be a player problem" if flagged else ""))  # fmt: skip


def _collateral(goal, res):
    """No matchup moves against the goal (its weight's sign; significant after Holm), and a
    matchup the goal leaves alone (weight 0) stays inside the floor and ceiling."""
    lo, hi = goal.band
    bad = []
    worst = None
    for r in res["cells"]:
        w = r.get("weight", 0)
        if r["effect"] is None:
            continue
        if w and r["effect"] * w < 0 and r["p_holm"] < 0.05:
            bad.append(r)
        elif (
            not w
            and r["projected_hi"] is not None
            and (r["projected_hi"] < lo or r["projected_lo"] > hi)
        ):
            bad.append(r)
        if w and (worst is None or r["effect"] * w < worst["effect"] * worst.get("weight", 1)):
            worst = r
    if bad:
        r = bad[0]
        return _item("no collateral damage", False,
                     f"{r['mode']} against {r['opponent']}: {r['effect'] * 100:+.1f} points "
                     f"[{r['lo'] * 100:+.1f}, {r['hi'] * 100:+.1f}], projected "
                     f"{r['projected']:.1%}")  # fmt: skip
    text = "no matchup moves against the goal (paired t-tests, Holm over the matchups, 5%)"
    if worst is not None:
        text += (f"; the least helped: {worst['mode']} against {worst['opponent']} "
                 f"{worst['effect'] * 100:+.1f} points")  # fmt: skip
    return _item("no collateral damage", True, text)
