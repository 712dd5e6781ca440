"""The player ladder: round-robin games between players, their Bradley-Terry ratings with
intervals, the head-to-head records, and each player's speed.

The games are an ordinary study (``ladder_study``: every pair of players, every ordered
pairing of the ladder's decks, both duel modes; the first player alternates within each
matchup), played on Ray into a dataset, so a ladder is reproducible from its command and
resumable. ``results.ratings.fit`` reads the dataset's games table. Two ladders are kept:
the base decks' (``--decks base``, the default: fixed, so its ratings stay comparable as
decks are added) and every deck's (``--decks all``: every deck the installed content deals),
each in its own file (sim.strength ``LADDER_FILES``); a player strong on the base decks may
not be on the expansions, whose mechanics its evaluation may not know.

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

LADDER_MODES = ("high-form", "deathmatch")
SPEED_DECKS = ("imperial", "highland")
DECK_SET_LABELS = {"base": "base decks", "all": "all decks"}


def all_decks(content) -> list:
    """Every deck the content deals as itself: every deck with all its effects built, less
    variant decks (a variant of a deck, ``kalarite cards copy``, is a what-if, not a deck)."""
    from sim.study import dealable_decks

    variants = getattr(content, "variant_of", {})
    return [d for d in dealable_decks(content, False) if d not in variants]


def ladder_decks(content, value: str | None) -> tuple:
    """(deck set, decks) of ``--decks``: ``base`` (the default: the base game's decks),
    ``all`` (``all_decks``) or a comma-separated list of deck names (deck set ``custom``,
    unless it names exactly the base or all decks). A bad name raises ValueError."""
    from sim.content import BASE_DECKS

    value = "base" if value is None else value.strip()
    full = all_decks(content)
    if value == "base":
        return "base", [d for d in BASE_DECKS if d in content.decks]
    if value == "all":
        return "all", full
    names = list(dict.fromkeys(x.strip() for x in value.split(",") if x.strip()))
    if not names:
        raise ValueError("--decks needs 'base', 'all' or a comma-separated list of deck names")
    bad = [n for n in names if n not in full]
    if bad:
        raise ValueError(
            f"--decks: unknown deck {bad[0]!r} (known decks: {', '.join(full)}; or 'base', 'all')"
        )
    for deck_set, decks in (("base", list(BASE_DECKS)), ("all", full)):
        if set(names) == set(decks):
            return deck_set, list(decks)
    return "custom", names


def ladder_study(content, players, games: int, seed: int, decks=None, name: str = "ladder"):
    """Every pair of ``players`` in both duel modes on every ordered pairing of ``decks``
    (default: the base decks)."""
    from sim.content import BASE_DECKS
    from sim.study import study_from_dict

    pairs = [list(p) for p in itertools.combinations(players, 2)]
    return study_from_dict(
        {
            "name": name,
            "decks": list(decks or BASE_DECKS),
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
    from core.kernel import play
    from sim.games import batch

    b = batch(content, "high-form", SPEED_DECKS, (spec, spec), 11)
    play(b, 0, 1)  # compile or load the kernel outside the timing
    games = 0
    t0 = time.process_time()
    n = 1
    while True:
        play(b, games, n)
        games += n
        dt = time.process_time() - t0
        if dt >= min_seconds or games >= max_games:
            break
        n = min(max_games - games, max(1, int(games / max(dt, 1e-3) * 0.5)))
    return {"games": games, "cpu_seconds": round(dt, 3), "games_per_s_per_core": games / dt}


def ladder_result(
    run_dir, players, content, command: str, speed_seconds: float, deck_set: str = "base"
) -> dict:
    """The checked-in ladder file's contents."""
    from results.ratings import fit
    from results.store import read_manifest

    m = read_manifest(run_dir)
    res = fit(run_dir, players, LADDER_MODES)
    speeds = {p: measure_speed(content, p, speed_seconds) for p in players}
    decks = list(dict.fromkeys(d for pair in m["study"]["decks"] for d in pair))
    out = {
        "command": command,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "deck_set": deck_set,
        "decks": decks,
        "games": sum(h["games"] for h in res["head_to_head"]),
        "end_reasons": end_reasons(run_dir, players),
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


def end_reasons(run_dir, players) -> dict:
    """How the ladder's games ended: per mode, and per mode without random in the pairing
    (random rarely reaches the goal), the count of each end reason (score, deck, turn-cap)."""
    from results.store import read_table

    t = read_table(
        run_dir, "games", columns=["mode", "seat0_policy", "seat1_policy", "end_reason", "error"]
    ).to_pydict()
    out = {"all_games": {}, "without_random": {}}
    for mode, a, b, why, err in zip(
        t["mode"], t["seat0_policy"], t["seat1_policy"], t["end_reason"], t["error"], strict=True
    ):
        if err or a not in players or b not in players:
            continue
        keys = ["all_games"] + ([] if "random" in (a, b) else ["without_random"])
        for k in keys:
            by = out[k].setdefault(mode, {})
            by[why] = by.get(why, 0) + 1
    return out


def write_json(result: dict, path):
    import pathlib

    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")
