"""`kalarite players`: every player and profile with its parameters, speed and strength.

Speed and strength come from the checked-in ladder (benchmarks/results/ladder.json, made by
`kalarite ladder`, which names the exact command); a player or profile that is not on it
is listed with no rating.
"""

import json
import pathlib

from sim.players import DEFAULT_WEIGHTS, DESCRIPTIONS, POLICIES, SETTINGS, load_profiles

REPO = pathlib.Path(__file__).parents[2]
LADDER_PATH = REPO / "benchmarks" / "results" / "ladder.json"


def load_ladder(path=None) -> dict | None:
    path = pathlib.Path(path or LADDER_PATH)
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read the ladder {str(path)!r}: {e}") from None


def player_rows(ladder=None, profiles=None) -> list:
    """One dict per player and profile (the `--json` output)."""
    profiles = load_profiles() if profiles is None else profiles
    measured = {p["name"]: p for p in (ladder or {}).get("players", [])}
    rows = []
    for name in POLICIES:
        params = {k: v[0] for k, v in SETTINGS[name].items()}
        if name != "random":
            params["weights"] = "defaults"
        rows.append(_row(name, "player", name, DESCRIPTIONS[name], params, {}, measured))
    for prof in profiles.values():
        params = {k: v[0] for k, v in SETTINGS[prof.player].items()} | prof.settings
        changed = {k: v for k, v in prof.weights.items() if DEFAULT_WEIGHTS.get(k) != v}
        params["weights"] = changed or "defaults"
        if prof.models:  # a learned leaf value (kalarite learn) in these modes
            params["model"] = "+".join(prof.models)
        about = prof.about or f"a tuned {prof.player}"
        rows.append(
            _row(prof.name, "profile", prof.player, about, params, prof.provenance, measured)
        )
    return rows


def _row(name, kind, player, about, params, provenance, measured) -> dict:
    m = measured.get(name, {})
    row = {
        "name": name,
        "kind": kind,
        "player": player,
        "description": about,
        "parameters": params,
        "games_per_s_per_core": m.get("games_per_s_per_core"),
        "rating": m.get("rating"),
        "rating_interval": [m["rating_lo"], m["rating_hi"]] if "rating_lo" in m else None,
    }
    if provenance:
        row["provenance"] = provenance
    return row


def players_text(rows, ladder) -> str:
    head = ("name", "kind", "games/s/core", "rating [95%]", "parameters")
    lines = []
    for r in rows:
        params = ", ".join(
            f"{k}={v}"
            if not isinstance(v, dict)
            else "weights: " + ", ".join(f"{a}={b:g}" for a, b in v.items())
            for k, v in r["parameters"].items()
        )
        speed = "–" if r["games_per_s_per_core"] is None else f"{r['games_per_s_per_core']:,.1f}"
        if r["rating"] is None:
            rating = "not on the ladder"
        else:
            lo, hi = r["rating_interval"]
            rating = f"{r['rating']:+.0f} [{lo:+.0f}, {hi:+.0f}]"
        kind = r["kind"] if r["kind"] == "player" else f"profile of {r['player']}"
        lines.append((r["name"], kind, speed, rating, params or "–"))
    widths = [max(len(str(x[i])) for x in [head, *lines]) for i in range(4)]
    out = [
        "  ".join(str(x[i]).ljust(widths[i]) for i in range(4)) + "  " + x[4]
        for x in [head, *lines]
    ]
    out.insert(1, "-" * (sum(widths) + 8 + len(head[4])))
    out.append("")
    for r in rows:
        out.append(f"{r['name']}: {r['description']}")
    out.append("")
    if ladder:
        out.append(
            "Ratings: Bradley-Terry on the Elo scale "
            f"({ladder.get('rating_anchor', 'greedy')} = 0) from the ladder of "
            f"{ladder.get('date', '?')}; speed: games per CPU-second, High Form self-play. "
            f"Reproduce: {ladder.get('command', 'kalarite ladder')}"
        )
    else:
        out.append("No ladder yet: run `kalarite ladder --out runs/ladder` to measure the players.")
    return "\n".join(out)
