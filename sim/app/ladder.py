"""The player ladder: round-robin games between players, their Bradley-Terry ratings with
intervals, the head-to-head records, and each player's speed.

The games are an ordinary study (``ladder_study``: every pair of players, every ordered
pairing of the base decks, both duel modes; the first player alternates within each
matchup), played on Ray into a dataset, so a ladder is reproducible from its command and
resumable. ``results.ratings.fit`` reads the dataset's games table.

Ratings are on the Elo scale (400 points = 10:1 odds) with greedy at 0 (the reference
every stronger player is measured against; the first player listed when greedy is not
there). The Bradley-Terry model is fitted by maximum likelihood, a shared win counting half
a win to each side, with a weak prior (one virtual shared win between every two players,
so a player that never lost still has a finite rating); intervals are 95% Wald intervals
from the observed information, for each rating and for the step from each player to the
one listed before it. Head-to-head win rates are over decisive games with Wilson intervals
(results.stats).
"""

import itertools
import json
import time

import numpy as np

from results.ratings import fit

LADDER_PLAYERS = ("random", "greedy", "mc", "planner")
LADDER_MODES = ("high-form", "deathmatch")
SPEED_DECKS = ("imperial", "highland")


def ladder_study(content, players, games: int, seed: int, name: str = "ladder"):
    """Every pair of ``players`` in both duel modes on every ordered deck pairing."""
    from sim.content import BASE_DECKS
    from sim.study import study_from_dict

    pairs = [list(p) for p in itertools.combinations(players, 2)]
    return study_from_dict(
        {
            "name": name,
            "decks": list(BASE_DECKS),  # fixed, so a ladder stays comparable as decks are added
            "modes": list(LADDER_MODES),
            "policies": pairs,
            "games": games,
            "seed": seed,
            "chunk_size": max(1, min(games, 25)),
        },
        content,
        where="ladder",
    )


def measure_speed(content, spec: str, min_seconds: float = 5.0, max_games: int = 4000) -> dict:
    """Games per second of CPU time of ``spec`` playing itself in High Form on one core
    (Imperial vs Highland, as ``kalarite bench``), after a warm-up game."""
    from core import constants as K
    from core.kernel import play_chunk
    from sim.players import policy_codes, policy_params

    specs = [spec, spec]
    args = (
        content.tables,
        K.MODE_NAMES.index("high-form"),
        2,
        np.array([content.deck_index(d) for d in SPEED_DECKS], np.int32),
        policy_codes(specs),
        policy_params(specs),
        0,
        11,
    )
    play_chunk(*args, 0, 1, 200, 0, 0, 0)
    games = 0
    t0 = time.process_time()
    batch = 1
    while True:
        play_chunk(*args, games, batch, 200, 0, 0, 0)
        games += batch
        dt = time.process_time() - t0
        if dt >= min_seconds or games >= max_games:
            break
        batch = min(max_games - games, max(1, int(games / max(dt, 1e-3) * 0.5)))
    return {"games": games, "cpu_seconds": round(dt, 3), "games_per_s_per_core": games / dt}


def ladder_result(run_dir, players, content, command: str, speed_seconds: float) -> dict:
    """The checked-in ladder file's contents."""
    from results.store import read_manifest

    m = read_manifest(run_dir)
    res = fit(run_dir, players, LADDER_MODES)
    speeds = {p: measure_speed(content, p, speed_seconds) for p in players}
    out = {
        "command": command,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "engine_hash": m.get("engine_hash"),
        "content_hash": m.get("content_hash"),
        "study": m["study"],
        "method": __doc__.split("\n\n", 2)[2].strip().replace("\n", " "),
        "players": [
            {
                "name": p,
                **res["ratings"][p],
                "by_mode": {mode: r[p] for mode, r in res["ratings_by_mode"].items()},
                "games_per_s_per_core": round(speeds[p]["games_per_s_per_core"], 2),
                "speed": speeds[p],
            }
            for p in players
        ],
        "rating_anchor": res["anchor"],
        "steps": res["steps"],
        "head_to_head": res["head_to_head"],
    }
    return out


def write_json(result: dict, path):
    import pathlib

    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")
