"""What every comparison says about its players, for each of the two studies: how their games
ended (results/decisiveness.py: decided by the score target, or by deck exhaustion and
tie-breakers, as random play ends nearly every game) and whether its answer is stable under
stronger play (results/analysis/stability.py decides it, as for the report's first screen).
A difference between two studies of weak play describes the players stumbling to the end
more than the cards.
"""

from results.analysis.decisiveness import STRONG_PLAYER, weakness
from results.analysis.labels import MODE_LABELS
from results.analysis.stability import study_stability, why_not_judged
from results.analysis.stability_text import mode_text, sensitive_decks

STABILITY_HINT = (
    'a study with policies = [["random"], ["greedy"], ["planner"]] measures it '
    "(sim/studies/sensitivity.toml)"
)


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"


def _ended(mode, players, e) -> dict:
    weak = weakness(e)
    target, mean = e.get("score_target"), e.get("mean_winning_score")
    score = "–" if mean is None else f"{mean:.1f}" + (f" of the {target} needed" if target else "")
    return {
        "mode": mode,
        "players": players,
        "games": e["games"],
        "by_score": e["by_score"],
        "by_deck": e["by_deck"],
        "tie_on_points": e["tie_on_points"],
        "mean_winning_score": mean,
        "score_target": target,
        "weak": weak == "weak",
        "text": (
            f"{MODE_LABELS.get(mode, mode)} · {players.replace('-vs-', ' vs ')}: "
            f"{_pct(e['by_score'])} reached the score target, {_pct(e['by_deck'])} ended because "
            f"a deck ran out, {_pct(e['tie_on_points'])} were tied on points (tie-breakers "
            f"decided); the winners scored {score}" + (" — weak play" if weak == "weak" else "")
        ),
    }


def decisiveness_of(summary: dict, keys) -> list:
    """How the compared games of a study ended: one entry per (mode, seat players) of the
    compared groups ``keys`` ((mode, pairing) of summary["groups"])."""
    dec = summary.get("decisiveness") or {}
    out = []
    for g in summary.get("groups", []):
        if (g["mode"], g["pairing"]) not in keys or g["mode"] not in dec:
            continue
        by = dec[g["mode"]]["by_policies"]
        p, q = g["policies"]
        for label in dict.fromkeys((f"{p}-vs-{q}", f"{q}-vs-{p}")):
            if label in by:
                out.append(_ended(g["mode"], label, by[label]))
    return out


def stability_of(summary: dict, modes) -> list:
    """Per compared mode, is the study's answer stable under stronger play? The verdict of
    ``results.analysis.stability`` (the one owner of the rule): ``stable``,
    ``player-sensitive`` (naming the decks beyond the margin), ``undetermined``, or ``not
    measured`` (and why, e.g. one player)."""
    sens = summary.get("stability") or study_stability(summary)
    out = []
    for mode in modes:
        label = MODE_LABELS.get(mode, mode)
        m = sens["modes"].get(mode) or {"verdict": None, "why": why_not_judged(summary, mode)}
        if m.get("verdict") is None:
            groups = [g for g in summary.get("groups", []) if g["mode"] == mode]
            out.append(
                {
                    "mode": mode,
                    "verdict": "not measured",
                    "players": list(dict.fromkeys(p for g in groups for p in g["policies"])),
                    "text": f"{label}: not measured: {m['why']}; {STABILITY_HINT}",
                }
            )
            continue
        out.append(
            {
                "mode": mode,
                "verdict": m["verdict"],
                "players": m["comparisons"][0]["players"],
                "decks": sensitive_decks(m),
                "text": f"{label}: {mode_text(m)}",
            }
        )
    return out


def caveats(sa: dict, sb: dict, keys) -> dict:
    """``result["players"]``: for A and B how their compared games ended and their player
    stability, and ``warning``: one line when either played weakly (or None)."""
    modes = list(dict.fromkeys(k[0] for k in keys))
    out = {}
    for side, s in (("a", sa), ("b", sb)):
        out[side] = {
            "decisiveness": decisiveness_of(s, keys),
            "stability": stability_of(s, modes),
        }
    weak = [side.upper() for side in "ab" if any(e["weak"] for e in out[side]["decisiveness"])]
    out["warning"] = None
    if weak:
        who = "both studies" if len(weak) == 2 else f"study {weak[0]}"
        out["warning"] = (
            f"weak play: most games of {who} were not won by reaching the score target but "
            "ended when a deck ran out, or tied on points and went to the tie-breakers; a "
            "difference between the studies then says more about how these players reach the "
            "end than about the cards. Play both again with a stronger player, e.g. --policy "
            f"{STRONG_PLAYER} (`kalarite players` lists the players with their strength and speed)"
        )
    return out


def format_caveats(players: dict) -> list:
    """The text lines of ``kalarite compare``."""
    lines = []
    if players.get("warning"):
        lines.append(f"warning: {players['warning']}")
    lines.append("how the games ended:")
    for side in "ab":
        for e in players[side]["decisiveness"]:
            lines.append(f"  {side.upper()}: {e['text']}")
    lines.append("player stability (do the deck verdicts hold under stronger play?):")
    for side in "ab":
        for e in players[side]["stability"]:
            lines.append(f"  {side.upper()}: {e['text']}")
    return lines
