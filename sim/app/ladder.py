"""The player ladder: round-robin games between players, their Bradley-Terry ratings with
intervals, the head-to-head records, and each player's speed.

The games are an ordinary study (``ladder_study``: every pair of players, every ordered
pairing of the base decks, both duel modes; the first player alternates within each
matchup), played on Ray into a dataset, so a ladder is reproducible from its command and
resumable. ``fit`` reads the dataset's games table.

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
import math
import time

import numpy as np
import pyarrow.compute as pc

from results import stats
from results.store import read_table

LADDER_PLAYERS = ("random", "greedy", "mc", "planner")
LADDER_MODES = ("high-form", "deathmatch")
ELO = 400 / math.log(10)
PRIOR_DRAWS = 1.0
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


def _games(run_dir):
    t = read_table(
        run_dir, "games", columns=["mode", "seat0_policy", "seat1_policy", "winner", "error"]
    )
    t = t.filter(pc.equal(t["error"], 0))
    return t.to_pydict()


def bradley_terry(players, results, anchor=0) -> dict:
    """``results``: (i, j, score of i) per game (1 win, 0.5 shared, 0 loss). Returns the
    ratings (Elo scale, players[anchor] at 0) with their 95% intervals and standard errors,
    and ``steps``: each player's rating minus the previous player's, with its interval."""
    k = len(players)
    wins = np.zeros((k, k))  # wins[i, j]: points i scored against j
    for i, j, sc in results:
        wins[i, j] += sc
        wins[j, i] += 1 - sc
    for i in range(k):
        for j in range(k):
            if i != j:
                wins[i, j] += PRIOR_DRAWS / 2
    n = wins + wins.T
    free = [i for i in range(k) if i != anchor]
    r = np.zeros(k)
    for _ in range(200):  # Newton's method on the free ratings
        p = 1 / (1 + np.exp(r[None, :] - r[:, None]))  # p[i, j]: i beats j
        grad = (wins - n * p).sum(axis=1)
        h = n * p * (1 - p)
        hess = -np.diag(h.sum(axis=1)) + h
        step = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        r[free] -= step
        if np.abs(step).max() < 1e-10:
            break
    p = 1 / (1 + np.exp(r[None, :] - r[:, None]))
    h = n * p * (1 - p)
    info = np.diag(h.sum(axis=1)) - h
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = np.linalg.inv(info[np.ix_(free, free)])
    out = {}
    for i, name in enumerate(players):
        se = math.sqrt(cov[i, i])
        out[name] = {
            "rating": float(ELO * r[i]),
            "rating_lo": float(ELO * (r[i] - 1.96 * se)),
            "rating_hi": float(ELO * (r[i] + 1.96 * se)),
            "rating_se": float(ELO * se),
        }
    steps = []
    for i in range(1, k):
        d = r[i] - r[i - 1]
        se = math.sqrt(max(0.0, cov[i, i] + cov[i - 1, i - 1] - 2 * cov[i, i - 1]))
        steps.append(
            {
                "player": players[i],
                "previous": players[i - 1],
                "difference": float(ELO * d),
                "difference_lo": float(ELO * (d - 1.96 * se)),
                "difference_hi": float(ELO * (d + 1.96 * se)),
            }
        )
    return {"ratings": out, "steps": steps}


def fit(run_dir, players) -> dict:
    """Ratings overall and per mode, and head-to-head records, from a ladder dataset."""
    g = _games(run_dir)
    index = {p: i for i, p in enumerate(players)}
    per_mode = {m: [] for m in LADDER_MODES}
    h2h = {}
    for mode, a, b, w in zip(
        g["mode"], g["seat0_policy"], g["seat1_policy"], g["winner"], strict=True
    ):
        if a not in index or b not in index or mode not in per_mode:
            continue
        sc = 0.5 if w < 0 else (1.0 if w == 0 else 0.0)
        per_mode[mode].append((index[a], index[b], sc))
        lo, hi = sorted((a, b), key=index.get)
        rec = h2h.setdefault((lo, hi, mode), [0, 0, 0])  # wins of lo, wins of hi, shared
        if w < 0:
            rec[2] += 1
        elif (w == 0) == (a == lo):
            rec[0] += 1
        else:
            rec[1] += 1
    anchor = players.index("greedy") if "greedy" in players else 0
    overall = bradley_terry(players, [x for m in LADDER_MODES for x in per_mode[m]], anchor)
    by_mode = {
        m: bradley_terry(players, per_mode[m], anchor)["ratings"]
        for m in LADDER_MODES
        if per_mode[m]
    }
    head = []
    for (a, b, mode), (wa, wb, d) in sorted(
        h2h.items(), key=lambda kv: (index[kv[0][0]], index[kv[0][1]], kv[0][2])
    ):
        rec = stats.win_record(wb, wa, d)  # from the side of b, listed later (stronger)
        head.append(
            {
                "player": b,
                "opponent": a,
                "mode": mode,
                "games": wa + wb + d,
                "wins": wb,
                "losses": wa,
                "shared": d,
                "won_share_of_games": wb / (wa + wb + d) if wa + wb + d else None,
                "win_rate": rec["win_rate"]["rate"],
                "win_rate_lo": rec["win_rate"]["lo"],
                "win_rate_hi": rec["win_rate"]["hi"],
                "excludes_half": rec["win_rate"].get("excludes_half"),
            }
        )
    return {
        "anchor": players[anchor],
        "ratings": overall["ratings"],
        "steps": overall["steps"],
        "ratings_by_mode": by_mode,
        "head_to_head": head,
    }


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
    res = fit(run_dir, players)
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
