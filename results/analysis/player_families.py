"""Which players a stability comparison sets side by side (results/analysis/stability.py).

Players are grouped into *families*: the same player with the same weights and settings
except its search budget (the setting its kind's ``budget`` names in the player registry,
sim.player_kinds: the planner's ``width``, mc's ``playouts``), so ``planner`` and
``planner:width=12`` are one family, represented by its smallest budget. The families are
ranked by strength: by their mean head-to-head win rate against the other compared players
where the study plays every one of them against another (pairings of two different players,
all decks, both seats); otherwise in the order the study lists them, weakest first (as the
ladder and sim/studies/sensitivity.toml list them). The comparisons are the top family
against the second (``top_two``) and, where the study has it, the top player against its
double-budget variant (``budget``: the smallest budget of its family at least
``BUDGET_FACTOR`` times its own).
"""

BUDGET_FACTOR = 2  # the budget variant has at least this many times the top player's budget


def family(spec: str) -> tuple:
    """(family key, budget) of a player spec: the same player with the same weights and
    settings but its budget has the same key; budget None for a player without one."""
    from sim.player_kinds import BY_NAME
    from sim.players import resolve

    try:
        player, weights, settings = resolve(spec)
    except ValueError:  # a player this build does not know (an older dataset): on its own
        return (spec,), None
    key = BY_NAME[player].budget
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
    of the strongest, or None. A skill trace (its spec's ``trace``) compares its two top
    levels: the one below the top, and the top as its budget variant."""
    levels = trace_levels(summary)
    if levels and all(p in players for p in levels[-2:]):
        return {
            "families": [levels[-2]],
            "by": "the trace's two top levels",
            "variant": levels[-1],
            "head_to_head": None,
        }
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


def trace_levels(summary) -> list:
    """The player spec of each level of the study's skill trace, lowest budget first ([]
    for a study without one): its self-play policies, in the spec's order."""
    spec = (summary.get("run") or {}).get("study") or {}
    if not spec.get("trace"):
        return []
    return [p[0] for p in spec.get("policies", []) if len(p) == 1]
