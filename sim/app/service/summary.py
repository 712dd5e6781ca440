"""What a study spec plays, in the words the web page shows: before a submission (``POST
/api/v1/specs/check``, from the spec the page is about to send) and after it (every study's
view, from the spec the service stored), so the designer can see that the two are the same.

Computed from the normalised spec (``Study.to_dict()``, which the registry stores) alone.
"""

from sim.player_kinds import KINDS
from sim.study import Study

# games decided by deck exhaustion and tie-breakers, not by play (the player registry's)
WEAK_PLAYERS = tuple(k.name for k in KINDS if k.weak)
SUGGEST_KIND = "suggest"  # a suggestion's row spec: {"kind": SUGGEST_KIND, "goal": ...}


def is_suggestion(spec) -> bool:
    """Is a registry row's spec a suggestion's (sim/app/service/suggestions.py), not a study's?"""
    return isinstance(spec, dict) and spec.get("kind") == SUGGEST_KIND


def suggestion_summary(spec: dict) -> dict:
    """What the page shows of a suggestion's goal."""
    g = spec["goal"]
    return {"kind": SUGGEST_KIND, "deck": g["deck"], "goal": g["kind"], "band": g["band"],
            "modes": g["modes"], "games_budget": g["games"]}  # fmt: skip


def _study(spec: dict) -> Study:
    return Study(
        decks=[tuple(d) for d in spec["decks"]],
        modes=list(spec["modes"]),
        policies=[tuple(p) for p in spec["policies"]],
        games=spec["games"],
        seed=spec.get("seed", 0),
        melee_players=tuple(spec.get("melee_players", (3, 4))),
    )


def players_label(policies) -> str:
    """One policy list in words: ``planner in every seat`` or ``greedy vs random``."""
    if len(set(policies)) == 1:
        return f"{policies[0]} in every seat"
    return " vs ".join(policies)


def _player_name(spec: str) -> str:
    return spec.split(":", 1)[0]


def spec_summary(spec: dict) -> dict:
    """Decks, modes (with their matchups), players, games per matchup and in all."""
    study = _study(spec)
    per_mode = []
    for mode in study.modes:
        n = sum(study.plays(mode, d, p) for p in study.policies for d in study.decks)
        per_mode.append({"mode": mode, "matchups": n})
    matchups = sum(m["matchups"] for m in per_mode)
    decks = list(dict.fromkeys(d for seats in study.decks for d in seats))
    players = [players_label(p) for p in study.policies]
    weak = sorted(
        {_player_name(x) for p in study.policies for x in p if _player_name(x) in WEAK_PLAYERS}
    )
    total = matchups * study.games
    text = " · ".join(
        [
            ", ".join(decks),
            ", ".join(study.modes),
            "; ".join(players),
            f"{matchups:,} matchup{'s' * (matchups != 1)} × {study.games:,} games "
            f"= {total:,} games",
            f"seed {study.seed}",
        ]
    )
    return {
        "name": spec.get("name", ""),
        "decks": decks,
        "seat_lists": len(study.decks),
        "modes": per_mode,
        "players": players,
        "weak_players": weak,
        "games_per_matchup": study.games,
        "matchups": matchups,
        "total_games": total,
        "seed": study.seed,
        "turn_cap": spec.get("turn_cap"),
        "beings_without_effects": spec.get("beings_without_effects", False),
        "content": spec.get("content"),
        "text": text,
    }
