"""The numbers of the report's first screen ("at a glance"): per two-seat mode, each deck's win
rate against the field with its interval for every pairing of players, whether the answer is
stable under stronger play (``results.analysis.stability`` decides it), who played and how the games
ended (``results.analysis.decisiveness``). Everything here is taken from the rest of the summary;
it is kept under ``summary["at_a_glance"]`` so the page and summary.json say the same."""

from results.analysis.first_screen import first_screen
from results.analysis.labels import MODE_LABELS
from results.analysis.stability import study_stability
from results.analysis.stability_text import deck_label, mode_short, mode_text
from results.credibility import answer_text

NOT_JUDGED_ONE = "stability cannot be judged: one player"


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"


def players_label(g) -> str:
    p, q = g["policies"]
    return f"{p} (both seats)" if p == q else f"{p} vs {q} (deck played by {p})"


def how_games_ended(e) -> str:
    """One line from a mode's decisiveness entry."""
    if not e or not e.get("games"):
        return "no games"
    return (
        f"{e['games']:,} games: {_pct(e['by_score'])} reached the score target, "
        f"{_pct(e['by_deck'])} ended when a deck ran out, {_pct(e['by_turn_cap'])} at the "
        f"turn cap; {_pct(e['tie_on_points'])} tied on points (decided by tie-breakers)"
    )


def stability(summary: dict, mode: str, players: list) -> dict:
    """The mode's stability verdict (decided by results.analysis.stability): ``measured``,
    ``verdict`` (stable, player-sensitive, undetermined; None when not measured), ``stable``
    (verdict == stable), ``text`` (one line), ``short`` (a few words, for the picture) and per
    deck a ``label`` and a ``level`` (its
    own verdict word, or unmeasured)."""
    sens = summary.get("stability") or study_stability(summary)
    m = sens["modes"].get(mode)
    if not m or m.get("verdict") is None:
        why = mode_text(m) if m else NOT_JUDGED_ONE
        # a study that cannot decide says so, and what the study that decides it says
        answer = answer_text(mode, (summary.get("run") or {}).get("content_hash"))
        return {
            "measured": False,
            "verdict": None,
            "stable": None,
            "text": f"undetermined by this study ({why}); {answer}",
            "short": "undetermined by this study",
            "players": players,
            "by_deck": {},
        }
    by_deck = {}
    for d in dict.fromkeys(d for c in m["comparisons"] for d in c["decks"]):
        label, level = deck_label(d, m["comparisons"])
        by_deck[d] = {"label": label, "level": level}
    return {
        "measured": True,
        "verdict": m["verdict"],
        "stable": m["verdict"] == "stable",
        "text": mode_text(m),
        "short": mode_short(m),
        "players": m["comparisons"][0]["players"],
        "by_deck": by_deck,
    }


def at_a_glance(summary: dict) -> dict:
    """``summary["at_a_glance"]``: ``modes`` (two-seat modes with a deck-vs-field table), each
    with its ``series`` (one per group: players, decks' win rates), ``decks`` (strongest first
    under the last series), ``stability``, ``players``, ``ended`` and ``weak_play``."""
    field = {f["group"]: f for f in summary.get("deck_vs_field", [])}
    weak = {w.get("mode") for w in summary.get("warnings", []) if w["kind"] == "weak_play"}
    dec = summary.get("decisiveness") or {}
    modes = []
    for mode in dict.fromkeys(g["mode"] for g in summary.get("groups", [])):
        series = []
        for g in (g for g in summary["groups"] if g["mode"] == mode):
            rows = [r for r in field.get(g["id"], {}).get("rows", []) if r["combined"]["decisive"]]
            if not rows:
                continue
            series.append(
                {
                    "group": g["id"],
                    "policies": g["policies"],
                    "players": players_label(g),
                    "games": field[g["id"]]["games"],
                    "decks": {
                        r["deck"]: {
                            k: r["combined"]["win_rate"][k]
                            for k in ("rate", "lo", "hi", "n", "excludes_half")
                        }
                        for r in rows
                    },
                }
            )
        if not series:
            continue
        last = series[-1]["decks"]
        decks = list(dict.fromkeys(d for s in series for d in s["decks"]))
        decks.sort(key=lambda d: -(last[d]["rate"] if d in last else -1))
        players = list(dict.fromkeys(p for s in series for p in s["policies"]))
        stab = stability(summary, mode, players)
        for d in decks:
            stab["by_deck"].setdefault(d, {"label": stab["text"], "level": "unmeasured"})
        modes.append(
            {
                "mode": mode,
                "label": MODE_LABELS.get(mode, mode),
                "trace": trace_line(summary, mode),
                "looks": looks_line(summary),
                "series": series,
                "decks": decks,
                "players": [s["players"] for s in series],
                "stability": stab,
                "ended": how_games_ended(dec.get(mode)),
                "decisiveness": {
                    k: (dec.get(mode) or {}).get(k)
                    for k in ("games", "by_score", "by_deck", "by_turn_cap", "tie_on_points")
                },
                "weak_play": mode in weak,
            }
        )
    return {"modes": modes, "first_screen": first_screen(summary)}


def trace_line(summary: dict, mode: str) -> str | None:
    """The deck trace in one line, for a study with a skill trace (None for another): the
    joint test and each deck's slope per doubling (results/analysis/skill_trace.py)."""
    t = summary.get("skill_trace")
    m = (t or {}).get("modes", {}).get(mode)
    if not m:
        return None
    joint = m["joint"]
    if joint is None:
        return "deck trace: too few games to fit the slopes"
    word = "balance depends on strength" if joint["depends"] else "no dependence on strength shown"
    slopes = ", ".join(
        f"{d} {x['slope']:+.1f} [{x['slope_lo']:+.1f}, {x['slope_hi']:+.1f}]"
        for d, x in m["decks"].items()
        if x["slope"] is not None
    )
    return (
        f"deck trace over {t['setting']} {', '.join(str(b) for b in t['levels'])}: {word} "
        f"(p {joint['p_value']:.2g}); points per doubling: {slopes}"
    )


def looks_line(summary: dict) -> str | None:
    """Where a study played --until stopped (None for another)."""
    lk = summary.get("looks")
    if not lk:
        return None
    stop = lk.get("stopped")
    if not stop:
        return "played until decided: not stopped yet (unfinished)"
    return (
        f"{stop['why']}; its verdict and intervals are at level {100 * lk['interval']:.2f}% "
        "(the error spent over the looks)"
    )
