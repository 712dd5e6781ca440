"""The numbers of the report's first screen ("at a glance"): per two-seat mode, each deck's win
rate against the field with its interval for every pairing of players, how stable each deck's
verdict is under other players (``results.analysis.sensitivity``), who played and how the games
ended (``results.analysis.decisiveness``). Everything here is taken from the rest of the summary;
it is kept under ``summary["at_a_glance"]`` so the page and summary.json say the same."""

from results.analysis.labels import MODE_LABELS

NOT_MEASURED_ONE = "stability not measured: one player"
NOT_MEASURED_SELF = "stability not measured: needs two or more players in self-play"


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
    """The mode's stability verdict: ``measured``, ``text`` and per deck a ``label`` and a
    ``level`` (stable, changes, flips, unmeasured)."""
    sens = (summary.get("policy_sensitivity") or {}).get(mode)
    if not sens:
        text = NOT_MEASURED_ONE if len(players) <= 1 else NOT_MEASURED_SELF
        return {"measured": False, "text": text, "players": players, "by_deck": {}}
    names = sens["players"]
    by_deck = {}
    for r in sens["decks"]:
        if r["flips"]:
            label, level = "flips: favoured under one player, disfavoured under another", "flips"
        elif r["verdict_changes"]:
            seen = " → ".join(r["by_player"][p]["verdict"] for p in names if p in r["by_player"])
            label, level = f"verdict changes ({seen})", "changes"
        else:
            verdict = next(iter(r["by_player"].values()))["verdict"]
            label, level = f"stable: {verdict} under every player", "stable"
        by_deck[r["deck"]] = {"label": label, "level": level}
    n_stable = sum(x["level"] == "stable" for x in by_deck.values())
    n_flips = sum(x["level"] == "flips" for x in by_deck.values())
    text = (
        f"stability over {', '.join(names)}: {n_stable} of {len(by_deck)} decks keep their "
        f"verdict" + (f", {n_flips} flip" if n_flips else "")
    )
    if sens.get("ranking_changes"):
        text += "; the deck ranking changes with the player"
    return {"measured": True, "text": text, "players": names, "by_deck": by_deck}


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
    return {"modes": modes}
