"""A look of ``kalarite study --until`` decided from the study's report at that look: the
rule (``decided`` or ``width=W``) applied to the analysis (results/looks.py holds the looks'
plan and the error spent over them, and reads no report)."""

import math

from scipy.stats import norm

from results import stats
from results.analysis import deck_moves
from results.analysis.stability import player_table
from results.looks import width_of


def deck_intervals(summary: dict, alpha: float) -> list:
    """Each deck's win rate against the field at level 1 - ``alpha``, in every duel mode and
    for every player in self-play: {mode, player, deck, rate, lo, hi, width} (points), the
    standard error stratified by pairing (results.analysis.deck_moves)."""
    z = float(norm.ppf(1 - alpha / 2))
    out = []
    for g in summary.get("groups", []):
        if not g["symmetric"] or g["mode"] == "new-player":
            continue
        names = list(g["decks"])
        table = player_table(summary, g["mode"], g["policies"][0], names)
        if table is None or len(names) < 2:
            continue
        wins, draws = table
        cov = deck_moves.player_covariance(wins, draws)
        w = wins.sum(axis=1)
        d = w + wins.sum(axis=0)
        for i, deck in enumerate(names):
            if d[i] <= 0:
                continue
            rate, se = w[i] / d[i], math.sqrt(max(cov[i, i], 0.0))
            # a win rate's bounds stay in [0, 100] (results.stats); the width is the rule's
            lo, hi, _ = stats.clip_share(rate - z * se, rate + z * se)
            out.append(
                {
                    "mode": g["mode"],
                    "player": g["policies"][0],
                    "deck": deck,
                    "rate": round(100 * rate, 2),
                    "lo": round(100 * lo, 2),
                    "hi": round(100 * hi, 2),
                    "width": round(200 * z * se, 2),
                    "games": int(d[i]),
                }
            )
    return out


def evaluate(summary: dict, until: str, look: int, games: int, alpha: float) -> dict:
    """Look ``look`` (0-based) of a study, from its report at that look (``analyze`` with
    ``max_games`` = ``games`` and ``alpha``): ``decided`` and why, with the figures it
    decided on."""
    w = width_of(until)
    rec = {"look": look + 1, "games": games, "alpha": alpha}
    if w is None:
        modes = (summary.get("stability") or {}).get("modes") or {}
        verdicts = {m: x["verdict"] for m, x in modes.items() if x.get("verdict") is not None}
        open_ = [m for m, v in verdicts.items() if v == "undetermined"]
        rec["verdicts"] = verdicts
        rec["decided"] = bool(verdicts) and not open_
        rec["why"] = (
            "every mode decided: " + ", ".join(f"{m} {v}" for m, v in verdicts.items())
            if rec["decided"]
            else "undetermined: " + ", ".join(open_)
            if open_
            else "no mode's stability can be judged"
        )
        return rec
    decks = deck_intervals(summary, alpha)
    widest = max(decks, key=lambda x: x["width"]) if decks else None
    rec["widest"] = widest
    rec["decided"] = bool(decks) and widest["width"] < w
    rec["why"] = (
        "no deck's win rate against the field to measure"
        if not decks
        else f"every deck's interval narrower than {w:g} points (widest {widest['width']:.1f}: "
        f"{widest['deck']}, {widest['mode']}, {widest['player']})"
        if rec["decided"]
        else f"{widest['deck']} ({widest['mode']}, {widest['player']}) still "
        f"{widest['width']:.1f} points wide"
    )
    return rec
