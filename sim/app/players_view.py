"""`kalarite players`: every player and profile with its parameters, speed and strength.

Speed and strength come from the checked-in ladders (made by `kalarite ladder`, which names
the exact command in each): the base decks' (benchmarks/results/ladder.json) and every
deck's (benchmarks/results/ladder_all_decks.json, `kalarite ladder --decks all`), shown as
two rating columns, each ladder with its games, date and command. A player or profile that
is not on a ladder is listed with no rating there.
"""

from sim.app.ladder import DECK_SET_LABELS
from sim.player_kinds import BY_NAME, DEFAULT_WEIGHTS, KINDS, RESTRICT
from sim.players import load_profiles
from sim.strength import strength_key


def ladder_games(ladder) -> int:
    """The ladder's games (older files do not say: the sum of its head-to-head records)."""
    if "games" in ladder:
        return ladder["games"]
    return sum(h["games"] for h in ladder.get("head_to_head", []))


def player_rows(ladder=None, profiles=None, ladder_all=None) -> list:
    """One dict per kind of the player registry (sim.player_kinds) and per profile (the
    `--json` output), with its settings and search budget, the strongest first: ``rating`` and
    ``rating_interval`` from the base-deck ladder, ``rating_all_decks`` and
    ``rating_all_decks_interval`` from the all-deck ladder (None where not on it)."""
    profiles = load_profiles() if profiles is None else profiles
    measured = {p["name"]: p for p in (ladder or {}).get("players", [])}
    measured_all = {p["name"]: p for p in (ladder_all or {}).get("players", [])}
    rows = []
    for kind in KINDS:
        params = kind.defaults()
        if kind.weights:
            params["weights"] = "defaults"
        rows.append(_row(kind.name, "player", kind.name, kind.description, params, {}))
    for prof in profiles.values():
        params = BY_NAME[prof.player].defaults() | prof.settings
        changed = {k: v for k, v in prof.weights.items() if DEFAULT_WEIGHTS.get(k) != v}
        params["weights"] = changed or "defaults"
        if prof.models:  # a learned leaf value (kalarite learn) in these modes
            params["model"] = "+".join(prof.models)
        about = prof.about or f"a tuned {prof.player}"
        rows.append(_row(prof.name, "profile", prof.player, about, params, prof.provenance))
    for row in rows:
        m, a = measured.get(row["name"], {}), measured_all.get(row["name"], {})
        row["games_per_s_per_core"] = m.get("games_per_s_per_core", a.get("games_per_s_per_core"))
        row["rating"], row["rating_interval"] = _rating(m)
        row["rating_all_decks"], row["rating_all_decks_interval"] = _rating(a)
    # strongest first (sim.strength); unrated players last, in the order above (players,
    # then profiles)
    return sorted(rows, key=lambda r: strength_key(r["rating"], r["rating_all_decks"]))


def _rating(m) -> tuple:
    if "rating" not in m:
        return None, None
    return m["rating"], [m["rating_lo"], m["rating_hi"]]


def _row(name, kind, player, about, params, provenance) -> dict:
    row = {
        "name": name,
        "kind": kind,
        "player": player,
        "description": about,
        "parameters": params,
        "budget": BY_NAME[player].budget,  # the setting a skill trace doubles (None: none)
    }
    if provenance:
        row["provenance"] = provenance
    return row


def _rating_text(rating, interval) -> str:
    if rating is None:
        return "not on it"
    lo, hi = interval
    return f"{rating:+.0f} [{lo:+.0f}, {hi:+.0f}]"


def ladder_line(ladder, deck_set: str) -> str:
    """Where one ladder's ratings come from: its decks, games, date and command."""
    label = DECK_SET_LABELS[deck_set]
    if not ladder:
        flag = "" if deck_set == "base" else f" --decks {deck_set}"
        return (
            f"Ratings, {label}: no ladder yet (run `kalarite ladder{flag} --out "
            f"runs/ladder-{deck_set}` to measure the players)."
        )
    decks = ladder.get("decks") or list(
        dict.fromkeys(d for pair in ladder.get("study", {}).get("decks", []) for d in pair)
    )
    return (
        f"Ratings, {label} ({', '.join(decks)}): Bradley-Terry on the Elo scale "
        f"({ladder.get('rating_anchor', 'greedy')} = 0) from {ladder_games(ladder):,} ladder "
        f"games of {ladder.get('date', '?')} (every pair of players on every ordered deck "
        f"pairing, both duel modes). Reproduce: {ladder.get('command', 'kalarite ladder')}"
    )


def players_text(rows, ladder, ladder_all=None) -> str:
    head = (
        "name",
        "kind",
        "games/s/core",
        "rating, base decks [95%]",
        "rating, all decks [95%]",
        "parameters",
    )
    lines = []
    for r in rows:
        params = ", ".join(
            f"{k}={v}"
            if not isinstance(v, dict)
            else "weights: " + ", ".join(f"{a}={b:g}" for a, b in v.items())
            for k, v in r["parameters"].items()
        )
        speed = "–" if r["games_per_s_per_core"] is None else f"{r['games_per_s_per_core']:,.1f}"
        kind = r["kind"] if r["kind"] == "player" else f"profile of {r['player']}"
        lines.append(
            (
                r["name"],
                kind,
                speed,
                _rating_text(r["rating"], r["rating_interval"]),
                _rating_text(r["rating_all_decks"], r["rating_all_decks_interval"]),
                params or "–",
            )
        )
    n = len(head) - 1
    widths = [max(len(str(x[i])) for x in [head, *lines]) for i in range(n)]
    out = [
        "  ".join(str(x[i]).ljust(widths[i]) for i in range(n)) + "  " + x[n]
        for x in [head, *lines]
    ]
    out.insert(1, "-" * (sum(widths) + 2 * n + len(head[n])))
    out.append("")
    for r in rows:
        out.append(f"{r['name']}: {r['description']}")
    out.append("")
    takes = [k.name for k in KINDS if k.setting(RESTRICT.key)]
    out.append(f"{', '.join(takes)} take {RESTRICT.key}=NAME, {RESTRICT.about}.")
    budgets = [f"{k.name}'s {k.budget}" for k in KINDS if k.budget]
    out.append(f"Search budgets (the setting `kalarite trace` doubles): {', '.join(budgets)}.")
    out.append(ladder_line(ladder, "base"))
    out.append(ladder_line(ladder_all, "all"))
    out.append(
        "Speed: games per CPU-second, High Form self-play (measured by the base-deck ladder, "
        "else by the all-deck one)."
    )
    return "\n".join(out)
