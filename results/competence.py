"""Mechanic competence: what a player gains from an expansion mechanic, measured against its
restricted twin (the same player never using it) on the same deals.

The full player's games and the twin's come from the same matchup seeds (sim.study
``seed_policy``: a twin plays its full player's deals), so game ``i`` of a matchup pairs
with game ``i`` of the twin's matchup (common random numbers). Per game the expansion deck's
seat scores 1 for a win, ½ for a shared win, 0 for a loss (its "win share", as in the paired
study comparison); the gap is the mean per-pair difference full − twin with its 95% paired t
interval (scipy.stats.ttest_rel for the p-value). A gap below MIN_GAP or whose interval
reaches 0 is flagged: the player extracts no measurable value from the mechanic.
"""

import math

import numpy as np
from scipy import stats as sps

from results import stats
from results.store import read_table

MIN_GAP = 0.05  # a mechanic worth less than 5 points of win share is flagged
MECHANIC_COLUMNS = ("thaws", "warps", "pending_at_end", "gateway_turns")
METHOD = (
    "win share of the expansion deck's seat (win 1, shared win 1/2, loss 0) with the full "
    "player minus with its restricted twin, game by game on the same deals (same study seed, "
    "matchup and game index); mean difference with its 95% paired t interval "
    "(scipy.stats.ttest_rel); flagged when the interval includes 0 or the gap is below "
    f"{MIN_GAP * 100:.0f} points"
)


def _columns(cols) -> list:
    base = ["mode", "game_index", "seed", "winner", "error", "seat0_deck", "seat1_deck"]
    return base + ["seat0_policy", "seat1_policy"] + list(cols)


def seat_games(out, deck: str, policy: str) -> dict:
    """Two-seat games of dataset ``out`` where ``deck`` sits in a seat played by ``policy``,
    keyed (mode, seat decks, game index) -> {seed, share, mechanic counts or None}."""
    table = read_table(out, "games")
    have = set(table.column_names)
    mech = [c for c in MECHANIC_COLUMNS if f"seat0_{c}" in have]
    seat_cols = [f"seat{s}_{c}" for s in (0, 1) for c in mech]
    rows = table.select(_columns(seat_cols)).to_pylist()
    games = {}
    for r in rows:
        if r["error"] != 0:
            continue
        seats = [s for s in (0, 1) if r[f"seat{s}_deck"] == deck and r[f"seat{s}_policy"] == policy]
        if len(seats) != 1:
            continue
        s = seats[0]
        w = r["winner"]
        share = stats.win_share(w, s)
        use = {c: r[f"seat{s}_{c}"] for c in mech} if mech else None
        key = (r["mode"], r["seat0_deck"], r["seat1_deck"], r["game_index"])
        games[key] = {"seed": int(r["seed"]), "share": share, "use": use}
    return games


def paired_gap(full: dict, twin: dict, min_gap: float = MIN_GAP) -> dict:
    """The gap full − twin over the games both hold with the same seed (``seat_games``):
    ``full_rate`` / ``twin_rate`` are the deck's mean win shares over those pairs."""
    keys = sorted(k for k in full if k in twin and twin[k]["seed"] == full[k]["seed"])
    unpaired = sum(1 for k in full if k not in twin) + sum(1 for k in twin if k not in full)
    a = np.array([full[k]["share"] for k in keys])
    b = np.array([twin[k]["share"] for k in keys])
    n = len(keys)
    out = {"pairs": n, "unpaired": unpaired}
    if n == 0:
        return out | {"full_rate": None, "twin_rate": None, "gap": None, "lo": None, "hi": None,
                      "p_value": None, "flagged": True, "identical": False}  # fmt: skip
    d = a - b
    ci = stats.mean_ci(d.mean(), d.std(ddof=1) if n >= 2 else None, n)
    p = None
    if n >= 2 and np.any(d != 0):
        p = float(sps.ttest_rel(a, b).pvalue)
    lo, hi, _ = stats.clip_difference(ci["lo"], ci["hi"])  # a gap of two win shares
    flagged = ci["mean"] < min_gap or lo is None or lo <= 0
    out |= {
        "full_rate": float(a.mean()),
        "twin_rate": float(b.mean()),
        "gap": ci["mean"],
        "lo": lo,
        "hi": hi,
        "p_value": None if p is None or math.isnan(p) else p,
        "flagged": bool(flagged),
        "identical": bool(np.all(d == 0)),  # every pair had the same result
    }
    return out


def mechanic_use(games: dict) -> dict | None:
    """Mean thaws, warps, pending-at-end share and Gateway turns per game (None for a
    dataset made before the mechanic telemetry)."""
    uses = [g["use"] for g in games.values() if g["use"] is not None]
    if not uses:
        return None
    return {c: float(np.mean([u[c] for u in uses])) for c in uses[0]} | {"games": len(uses)}
