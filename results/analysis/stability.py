"""Is the study's balance answer stable under stronger play? The one owner of the rule.

For a study that plays the same decks with two or more players, each in self-play
(``summary["policy_sensitivity"]``, results/analysis/sensitivity.py), per two-seat mode:

- **The players compared.** Players are grouped into *families*: the same player with the
  same weights and settings except its search budget (``BUDGET_SETTINGS``: the planner's
  ``width``, mc's ``playouts``), so ``planner`` and ``planner:width=12`` are one family. A
  family is represented by its smallest budget. The families are ranked by strength: by
  their mean head-to-head win rate against the other compared players where the study plays
  every one of them against another (pairings of two different players, all decks, both
  seats); otherwise in the order the study lists them, weakest first (as the ladder and
  sim/studies/sensitivity.toml list them). The comparisons are the top family against the
  second (``top_two``) and, where the study has it, the top player against its
  double-budget variant (``budget``: the smallest budget of its family at least
  ``BUDGET_FACTOR`` times its own).
- **Per comparison.** Each deck's win rate against the field (mirror matches left out) under
  the stronger minus under the weaker player (``delta``, in points: for ``top_two`` the top
  minus the second, for ``budget`` the variant minus the top player); its verdict under
  each (favoured, even, disfavoured: ``results.analysis.sensitivity.verdict``) and whether it
  changes (``flipped``); the Kendall tau (tau-b) of the two deck rankings by win rate.
- **The rule** (``is_stable``): stable when every deck moves at most ``MAX_MOVE_POINTS``,
  no verdict changes and tau >= ``MIN_TAU``; otherwise *player-sensitive*. A mode is
  stable when all its comparisons are, the study when all its modes are.

``kalarite compare`` (results/compare/caveats.py) and the first screen
(results/analysis/glance.py) read this verdict; neither decides it.
"""

import math

from scipy.stats import kendalltau

MAX_MOVE_POINTS = 3.0  # a deck's win rate may move this many points between the players
MIN_TAU = 0.86  # the least Kendall tau between the two deck rankings
BUDGET_SETTINGS = {"planner": "width", "mc": "playouts"}  # each player's search budget
BUDGET_FACTOR = 2  # the budget variant has at least this many times the top player's budget
STABLE, SENSITIVE = "stable", "player-sensitive"


def is_stable(deltas_points, flipped, tau) -> bool:
    """THE rule: every deck moves at most MAX_MOVE_POINTS, none changes its verdict, and the
    deck rankings agree (Kendall tau >= MIN_TAU; None, an undefined tau, does not count)."""
    return (
        all(abs(d) <= MAX_MOVE_POINTS + 1e-9 for d in deltas_points)
        and not any(flipped)
        and (tau is None or tau >= MIN_TAU)
    )


def family(spec: str) -> tuple:
    """(family key, budget) of a player spec: the same player with the same weights and
    settings but its budget has the same key; budget None for a player without one."""
    from sim.players import resolve

    try:
        player, weights, settings = resolve(spec)
    except ValueError:  # a player this build does not know (an older dataset): on its own
        return (spec,), None
    key = BUDGET_SETTINGS.get(player)
    rest = tuple(sorted((k, v) for k, v in settings.items() if k != key))
    return (player, tuple(sorted(weights.items())), rest), settings.get(key)


def _head_to_head(summary, mode, players) -> dict | None:
    """Each player's mean head-to-head win rate against the others of ``players`` (None when
    one of them meets none of the others)."""
    rates = {p: [] for p in players}
    for m in (summary.get("policies") or {}).get("modes", []):
        if m["mode"] != mode:
            continue
        for x in m["pairings"]:
            p, q, rec = x["policy"], x["opponent"], x.get("record")
            if x["self_play"] or p not in rates or q not in rates or not rec:
                continue
            rate = rec["win_rate"].get("rate")
            if rate is not None:
                rates[p].append(rate)
                rates[q].append(1 - rate)
    if any(not r for r in rates.values()):
        return None
    return {p: sum(r) / len(r) for p, r in rates.items()}


def rank_players(summary, mode, players) -> dict:
    """``families``: the representative of each family, strongest first; ``by``: how they
    were ranked (head-to-head or the study's order); ``variant``: the double-budget variant
    of the strongest, or None."""
    fams = {}
    for p in players:
        key, budget = family(p)
        fams.setdefault(key, []).append((budget, p))
    reps = {key: min(m, key=lambda x: (x[0] is None, x[0] or 0))[1] for key, m in fams.items()}
    order = list(reps.values())  # the study's order: weakest first
    h2h = _head_to_head(summary, mode, order) if len(order) > 1 else None
    if h2h:
        ranked = sorted(order, key=lambda p: (-h2h[p], -order.index(p)))
        by = "head-to-head"
    else:
        ranked = order[::-1]
        by = "the study's order (weakest listed first)"
    top = ranked[0]
    key, budget = family(top)
    variant = None
    if budget:
        bigger = sorted(
            (b, p) for b, p in fams[key] if b is not None and b >= BUDGET_FACTOR * budget
        )
        variant = bigger[0][1] if bigger else None
    return {"families": ranked, "by": by, "variant": variant, "head_to_head": h2h}


def _tau(a: list, b: list) -> float | None:
    if len(a) < 2:
        return None
    t = kendalltau(a, b).statistic
    return None if t is None or math.isnan(t) else float(t)


def compare_players(sens_mode: dict, weaker: str, stronger: str, kind: str) -> dict:
    """One comparison of a mode's policy sensitivity entry: per deck ``delta`` (points,
    stronger minus weaker), the two verdicts and ``flipped``; ``tau``; ``stable``."""
    decks = {}
    for r in sens_mode["decks"]:
        a, b = r["by_player"].get(weaker), r["by_player"].get(stronger)
        if a is None or b is None:
            continue
        decks[r["deck"]] = {
            "delta": round(100 * (b["win_rate"]["rate"] - a["win_rate"]["rate"]), 2),
            "verdicts": [a["verdict"], b["verdict"]],
            "flipped": a["verdict"] != b["verdict"],
            "rates": [a["win_rate"]["rate"], b["win_rate"]["rate"]],
        }
    names = list(decks)
    tau = _tau([decks[d]["rates"][0] for d in names], [decks[d]["rates"][1] for d in names])
    stable = is_stable(
        [x["delta"] for x in decks.values()], [x["flipped"] for x in decks.values()], tau
    )
    return {
        "kind": kind,
        "players": [stronger, weaker] if kind == "top_two" else [weaker, stronger],
        "decks": decks,
        "tau": tau,
        "stable": stable,
        "moved": [d for d, x in decks.items() if abs(x["delta"]) > MAX_MOVE_POINTS + 1e-9],
        "flipped": [d for d, x in decks.items() if x["flipped"]],
    }


def mode_stability(summary: dict, mode: str) -> dict | None:
    """The verdict of one mode (None where its stability cannot be judged)."""
    sens = (summary.get("policy_sensitivity") or {}).get(mode)
    if not sens:
        return None
    rank = rank_players(summary, mode, sens["players"])
    comparisons = []
    if len(rank["families"]) >= 2:
        top, second = rank["families"][:2]
        comparisons.append(compare_players(sens, second, top, "top_two"))
    if rank["variant"]:
        comparisons.append(compare_players(sens, rank["families"][0], rank["variant"], "budget"))
    comparisons = [c for c in comparisons if len(c["decks"]) >= 2]
    if not comparisons:
        return None
    return {
        "stable": all(c["stable"] for c in comparisons),
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


def study_stability(summary: dict) -> dict:
    """``summary["sensitivity"]``: ``judged``; ``stable`` (None when not judged); ``tau``
    (the least over the comparisons); ``players`` (the first comparison's two, stronger
    first); ``variant``; ``decks`` -> deck -> ``delta`` (the largest move over the modes and
    comparisons, in points) and ``flipped`` (in any); ``modes`` -> mode -> the details, or
    ``why`` it cannot be judged; the thresholds."""
    modes = list(dict.fromkeys(g["mode"] for g in summary.get("groups", [])))
    per_mode = {}
    for mode in modes:
        per_mode[mode] = mode_stability(summary, mode) or {
            "stable": None,
            "why": why_not_judged(summary, mode),
        }
    judged = [m for m in per_mode.values() if m["stable"] is not None]
    decks, taus = {}, []
    for m in judged:
        for c in m["comparisons"]:
            if c["tau"] is not None:
                taus.append(c["tau"])
            for d, x in c["decks"].items():
                e = decks.setdefault(d, {"delta": 0.0, "flipped": False})
                if abs(x["delta"]) > abs(e["delta"]):
                    e["delta"] = x["delta"]
                e["flipped"] = e["flipped"] or x["flipped"]
    first = judged[0]["comparisons"][0] if judged else None
    return {
        "judged": bool(judged),
        "stable": all(m["stable"] for m in judged) if judged else None,
        "verdict": (STABLE if all(m["stable"] for m in judged) else SENSITIVE) if judged else None,
        "tau": min(taus) if taus else None,
        "players": first["players"] if first else [],
        "variant": judged[0]["variant"] if judged else None,
        "decks": decks,
        "modes": per_mode,
        "thresholds": {"max_move_points": MAX_MOVE_POINTS, "min_tau": MIN_TAU},
    }


def _who(c) -> str:
    a, b = c["players"]
    return f"{a} vs {b}" if c["kind"] == "top_two" else f"{a} vs double budget {b}"


def _tau_text(tau) -> str:
    return "–" if tau is None else f"{tau:.2f}"


def comparison_text(c: dict) -> str:
    """One comparison in words: who, and what moved, flipped or reordered."""
    if c["stable"]:
        worst = max((abs(x["delta"]) for x in c["decks"].values()), default=0.0)
        return (
            f"{_who(c)}: largest move {worst:.1f} points, no verdict changes, "
            f"tau {_tau_text(c['tau'])}"
        )
    parts = []
    for d, x in c["decks"].items():
        if x["flipped"]:
            parts.append(f"{d} {x['delta']:+.1f} pts, {x['verdicts'][0]} → {x['verdicts'][1]}")
        elif abs(x["delta"]) > MAX_MOVE_POINTS + 1e-9:
            parts.append(f"{d} {x['delta']:+.1f} pts")
    low = c["tau"] is not None and c["tau"] < MIN_TAU
    parts.append(f"tau {_tau_text(c['tau'])}" + (f" < {MIN_TAU}" if low else ""))
    return f"{_who(c)}: " + ", ".join(parts)


def sensitive_decks(m: dict) -> list:
    """The decks that moved more than MAX_MOVE_POINTS or changed their verdict in any of the
    mode's comparisons, in the study's deck order."""
    out = []
    for c in m["comparisons"]:
        out += [d for d in c["decks"] if d in c["moved"] or d in c["flipped"]]
    return list(dict.fromkeys(out))


def mode_text(m: dict | None) -> str:
    """A mode's verdict in one short line (the first screen, ``kalarite compare``): stable,
    or player-sensitive naming the decks, or why it cannot be judged."""
    if not m or m.get("stable") is None:
        return f"stability cannot be judged: {(m or {}).get('why', 'one player')}"
    who = ", ".join(_who(c) for c in m["comparisons"])
    taus = [c["tau"] for c in m["comparisons"] if c["tau"] is not None]
    tau = f"tau {_tau_text(min(taus))}" if taus else "tau –"
    if m["stable"]:
        return (
            f"stable ({who}): every deck within {MAX_MOVE_POINTS:g} points, no verdict "
            f"changes, {tau}"
        )
    moved, flipped = {}, {}
    for c in m["comparisons"]:
        for d, x in c["decks"].items():
            if x["flipped"]:
                flipped.setdefault(d, f"{d} ({x['verdicts'][0]} → {x['verdicts'][1]})")
            elif d in c["moved"] and abs(x["delta"]) > abs(moved.get(d, 0.0)):
                moved[d] = x["delta"]
    moved = {d: v for d, v in moved.items() if d not in flipped}
    what = []
    if moved:
        what.append("moved: " + ", ".join(f"{d} {v:+.1f} pts" for d, v in moved.items()))
    if flipped:
        what.append("verdict changed: " + ", ".join(flipped.values()))
    what = "; ".join(what) or "no deck moved or changed its verdict"
    low = taus and min(taus) < MIN_TAU
    return f"player-sensitive ({who}): {what}; {tau}" + (f" < {MIN_TAU}" if low else "")


def mode_detail(m: dict | None) -> str:
    """A mode's verdict with every comparison's figures (the report's sensitivity section)."""
    if not m or m.get("stable") is None:
        return mode_text(m)
    word = STABLE if m["stable"] else SENSITIVE
    return f"{word}: " + "; ".join(comparison_text(c) for c in m["comparisons"])
