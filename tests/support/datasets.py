"""Synthetic datasets written with the schemas of results/schema.py (no engine involved),
for the report, compare and analysis tests: ``hand_dataset`` is small enough to compute
every number by hand; ``random_dataset`` draws games from known probabilities; ``game_row``
and ``write_dataset`` build any other."""

import json
import pathlib

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from results.schema import SCHEMAS, TABLES, file_metadata


def game_row(mode, decks, policies, i, winner, **kw):
    """A two-seat game row: the columns of seats 2 and 3 (and winning_team) are null."""
    row = {
        c: None if c.startswith(("seat2_", "seat3_")) or c == "winning_team" else 0
        for c in SCHEMAS["games"].names
    }
    row.update(
        game_index=i,
        seed=12345,
        n_players=2,
        first_seat=i % 2,
        winner=winner,
        turns=30,
        end_reason="deck",
        actions=60,
        decisions=100,
        turn_cap=200,
        beings_without_effects=False,
        seat0_deck=decks[0],
        seat1_deck=decks[1],
        seat0_policy=policies[0],
        seat1_policy=policies[1],
    )
    row.update(kw)
    row["seat0_won"], row["seat1_won"] = row["winner"] == 0, row["winner"] == 1
    row["_mode"] = mode
    return row


# the games columns added with games of 3 and 4 seats: a dataset made before has none of them
MULTI_SEAT_COLUMNS = {
    c
    for c in SCHEMAS["games"].names
    if c in ("n_players", "winning_team")
    or c.startswith(("seat2_", "seat3_"))
    or c.endswith("_won")
    or (c.startswith(("seat0_col", "seat1_col")))
}


def write_dataset(
    root,
    games,
    card_events=(),
    task_claims=(),
    *,
    study=None,
    status="complete",
    content_hash="c0ffee",
    engine_hash="e1",
    bwe=False,
    task_names=None,
    display=True,
    names_in_manifest=False,
    legacy=False,
):
    """Write ``games`` (dicts from ``game_row``), card events and task claims (dicts with the
    table's columns plus ``_mode``/``_matchup``/``_policies`` or a ``game`` key) as a study.

    ``task_names`` (the bit order of ``tasks_shown``) go to the Parquet metadata, as the
    simulator writes them, and with ``names_in_manifest`` to study.json too. ``display=False``
    writes a dataset of before the ``tasks_shown`` column (no column, no task names);
    ``legacy=True`` one of before games of 3 and 4 seats (no ``MULTI_SEAT_COLUMNS``)."""
    root = pathlib.Path(root)
    parts = {}
    for g in games:
        key = (
            g["_mode"],
            f"{g['seat0_deck']}-vs-{g['seat1_deck']}",
            f"{g['seat0_policy']}-vs-{g['seat1_policy']}",
        )
        parts.setdefault(key, {"games": [], "card_events": [], "task_claims": []})
        parts[key]["games"].append({k: v for k, v in g.items() if not k.startswith("_")})
    for table, rows in (("card_events", card_events), ("task_claims", task_claims)):
        for r in rows:
            key = r["_key"]
            parts[key][table].append({k: v for k, v in r.items() if not k.startswith("_")})
    modes, decks, pols = [], [], []
    for mode, mu, po in parts:
        d, p = mu.split("-vs-"), po.split("-vs-")
        if mode not in modes:
            modes.append(mode)
        if d not in decks:
            decks.append(d)
        if p not in pols:
            pols.append(p)
    n_games = max(len(v["games"]) for v in parts.values())
    study = study or {
        "name": "synthetic",
        "decks": decks,
        "modes": modes,
        "policies": pols,
        "games": n_games,
        "seed": 1,
        "turn_cap": 200,
        "beings_without_effects": bwe,
    }
    info = {
        "engine_hash": engine_hash,
        "engine_version": "0.1.0",
        "content_hash": content_hash,
        "beings_without_effects": bwe,
        "study": study,
    }
    if display and task_names is not None:
        info["task_names"] = list(task_names)
    schemas = {t: SCHEMAS[t] for t in TABLES}
    if not display:
        g = schemas["games"]
        schemas["games"] = g.remove(g.get_field_index("tasks_shown"))
        for gr in games:
            gr.pop("tasks_shown", None)
    if legacy:
        g = schemas["games"]
        schemas["games"] = pa.schema([f for f in g if f.name not in MULTI_SEAT_COLUMNS])
        for gr in games:
            for c in MULTI_SEAT_COLUMNS:
                gr.pop(c, None)
    matchups = []
    for (mode, mu, po), tables in parts.items():
        part = f"mode={mode}/matchup={mu}/policies={po}"
        for t in TABLES:
            d = root / t / part
            d.mkdir(parents=True, exist_ok=True)
            schema = schemas[t].with_metadata(file_metadata(t, info))
            for r in tables[t]:
                r.setdefault("beings_without_effects", bwe)
                if not display:
                    r.pop("tasks_shown", None)
            pq.write_table(pa.Table.from_pylist(tables[t], schema=schema), d / "part-00000.parquet")
        matchups.append(
            {
                "mode": mode,
                "matchup": mu,
                "policies": po,
                "seat_decks": mu.split("-vs-"),
                "seat_policies": po.split("-vs-"),
                "seed": 12345,
                "games": len(tables["games"]),
                "chunks": 1,
            }
        )
    manifest = {
        "format": 1,
        "status": status,
        **{k: info[k] for k in ("engine_hash", "engine_version", "content_hash")},
        "beings_without_effects": bwe,
        "study": study,
        "chunk_size": 2000,
        "tables": list(TABLES),
        "partitioning": ["mode", "matchup", "policies"],
        "matchups": matchups,
        "games": sum(m["games"] for m in matchups),
        "created": "2026-01-01T00:00:00+00:00",
        "completed": "2026-01-01T00:01:00+00:00" if status == "complete" else None,
        "runs": [],
    }
    if display and task_names is not None and names_in_manifest:
        manifest["task_names"] = list(task_names)
    (root / "study.json").write_text(json.dumps(manifest, indent=1))
    return root


HF_KEY = ("high-form", "imperial-vs-highland", "random-vs-random")
DM_KEY = ("deathmatch", "imperial-vs-highland", "random-vs-random")


def task_bits(*bits):
    return sum(1 << b for b in bits)


def hand_dataset(
    root,
    bwe=False,
    status="complete",
    display=True,
    names_in_manifest=False,
    legacy=False,
    engine_hash="e1",
):
    """10 High Form games of imperial (seat 0) vs highland (seat 1) and 4 Deathmatch games.

    High Form: imperial wins games 0-5, highland 6-7, 8-9 are draws; the first seat is
    ``i % 2``. Turns 10 + i; end reasons: 0-4 score, 5-7 deck, 8-9 turn cap. Line Dominance
    claimed by seat 0 in games 0 and 1 (2 points, turns 10 and 20), Destruction by seat 1 in
    game 2 (1 point, turn 5). imperial/swordmaster is drawn by seat 0 in every game and summoned
    in games 0-4; highland/dire-wolf is summoned by seat 1 in games 6 and 7.

    Task display (``tasks_shown``, bit order ``TASKS``: Line Dominance, Destruction, Side Chain,
    Imprisonment): Line Dominance shown in games 0-4, Destruction in every game, Side Chain in
    games 0-2, Imprisonment never.

    Deathmatch: 4 games, seat 0 wins all; seat 0 scores 3 by destruction + 2 by legends, seat 1
    scores 1 from seat 0's flares.
    """
    games, ce, tc = [], [], []
    winners = [0, 0, 0, 0, 0, 0, 1, 1, -1, -1]
    ends = ["score"] * 5 + ["deck"] * 3 + ["turn-cap"] * 2
    for i, w in enumerate(winners):
        games.append(
            game_row(
                "high-form",
                ("imperial", "highland"),
                ("random", "random"),
                i,
                w,
                turns=10 + i,
                actions=20 + 2 * i,
                end_reason=ends[i],
                seat0_tasks=int(i < 2),
                seat1_tasks=int(i == 2),
                seat0_pts_task=2 * int(i < 2),
                seat1_pts_task=int(i == 2),
                tasks_shown=task_bits(1, *([0] if i < 5 else []), *([2] if i < 3 else [])),
                beings_without_effects=bwe,
            )
        )
        ce.append(
            {
                "_key": HF_KEY,
                "game_index": i,
                "seat": 0,
                "card": "imperial/swordmaster",
                "event": "drawn",
                "turn": 0,
            }
        )
        if i < 5:
            ce.append(
                {
                    "_key": HF_KEY,
                    "game_index": i,
                    "seat": 0,
                    "card": "imperial/swordmaster",
                    "event": "summoned",
                    "turn": 3,
                }
            )
        if i in (6, 7):
            ce.append(
                {
                    "_key": HF_KEY,
                    "game_index": i,
                    "seat": 1,
                    "card": "highland/dire-wolf",
                    "event": "summoned",
                    "turn": 4,
                }
            )
    tc += [
        {
            "_key": HF_KEY,
            "game_index": 0,
            "seat": 0,
            "task": "Line Dominance",
            "turn": 10,
            "points": 2,
        },
        {
            "_key": HF_KEY,
            "game_index": 1,
            "seat": 0,
            "task": "Line Dominance",
            "turn": 20,
            "points": 2,
        },
        {"_key": HF_KEY, "game_index": 2, "seat": 1, "task": "Destruction", "turn": 5, "points": 1},
    ]
    for i in range(4):
        games.append(
            game_row(
                "deathmatch",
                ("imperial", "highland"),
                ("random", "random"),
                i,
                0,
                seat0_score=5,
                seat0_pts_destruction=3,
                seat0_pts_legend=2,
                seat1_score=1,
                seat1_pts_flare=1,
                end_reason="score",
                beings_without_effects=bwe,
            )
        )
    return write_dataset(
        root,
        games,
        ce,
        tc,
        status=status,
        bwe=bwe,
        content_hash="synthetic",
        task_names=TASKS,
        display=display,
        names_in_manifest=names_in_manifest,
        legacy=legacy,
        engine_hash=engine_hash,
    )


DECKS = ("imperial", "highland", "sylvan")
CARDS = {d: [f"{d}/card-{k}" for k in range(4)] for d in DECKS}
TASKS = ["Line Dominance", "Destruction", "Side Chain", "Imprisonment"]


def random_dataset(
    root,
    seed,
    *,
    decks=DECKS,
    games=400,
    p_seat0=None,
    policies=(("random", "random"),),
    modes=("high-form", "deathmatch"),
    task_rate=None,
    show_rate=None,
    play_rate=None,
    win_boost=0.0,
    content_hash="c0ffee",
    turn_cap=200,
    bwe=False,
):
    """Games of every pairing of ``decks`` (mirrors included) drawn from known probabilities:
    seat 0 wins with ``p_seat0[(deck0, deck1)]`` (default 0.5) of the decisive games, 5% draws;
    each task is shown in ``show_rate[task]`` of the High Form games (default 100%) and claimed
    in ``task_rate[task]`` of the games it is shown in (default 5%); each card of a seat's deck
    is drawn, and played with ``play_rate[card]`` (default 30%), plus ``win_boost`` in the
    seat-games the seat wins (summoning goes with winning, the same for every card)."""
    rng = np.random.default_rng(seed)
    rng_show = np.random.default_rng(seed + 1000)  # the display: its own stream
    show_rate = show_rate or {}
    p_seat0 = p_seat0 or {}
    task_rate = task_rate or {}
    play_rate = play_rate or {}
    pairs = [(a, b) for i, a in enumerate(decks) for b in decks[i:]]
    rows, ce, tc = [], [], []
    for mode in modes:
        for pols in policies:
            for decks in pairs:
                key = (mode, f"{decks[0]}-vs-{decks[1]}", f"{pols[0]}-vs-{pols[1]}")
                p = p_seat0.get(decks, 0.5)
                for i in range(games):
                    u = rng.random()
                    w = -1 if u < 0.05 else (0 if rng.random() < p else 1)
                    turns = int(rng.integers(20, 40))
                    ntask = [0, 0]
                    shown = 0
                    if mode == "high-form":
                        for b, t in enumerate(TASKS):
                            if rng_show.random() >= show_rate.get(t, 1.0):
                                continue
                            shown |= 1 << b
                            if rng.random() < task_rate.get(t, 0.05):
                                s = int(rng.integers(0, 2))
                                ntask[s] += 1
                                tc.append(
                                    {
                                        "_key": key,
                                        "game_index": i,
                                        "seat": s,
                                        "task": t,
                                        "turn": int(rng.integers(5, turns + 1)),
                                        "points": 2,
                                    }
                                )
                    for s in range(2):
                        for card in CARDS[decks[s]]:
                            ce.append(
                                {
                                    "_key": key,
                                    "game_index": i,
                                    "seat": s,
                                    "card": card,
                                    "event": "drawn",
                                    "turn": 0,
                                }
                            )
                            boost = win_boost if w == s else 0.0
                            if rng.random() < play_rate.get(card, 0.3) + boost:
                                ce.append(
                                    {
                                        "_key": key,
                                        "game_index": i,
                                        "seat": s,
                                        "card": card,
                                        "event": "summoned",
                                        "turn": 5,
                                    }
                                )
                    d0, d1 = (int(x) for x in rng.integers(0, 4, 2))
                    rows.append(
                        game_row(
                            mode,
                            decks,
                            pols,
                            i,
                            w,
                            turns=turns,
                            actions=2 * turns,
                            end_reason="score" if rng.random() < 0.3 else "deck",
                            seat0_tasks=ntask[0],
                            seat1_tasks=ntask[1],
                            tasks_shown=shown,
                            seat0_pts_destruction=d0,
                            seat1_pts_destruction=d1,
                            seat0_score=d0,
                            seat1_score=d1,
                            beings_without_effects=bwe,
                            turn_cap=turn_cap,
                        )
                    )
    study = {
        "name": f"random-{seed}",
        "decks": [list(p) for p in pairs],
        "modes": list(modes),
        "policies": [list(p) for p in policies],
        "games": games,
        "seed": seed,
        "turn_cap": turn_cap,
        "beings_without_effects": bwe,
    }
    return write_dataset(
        root, rows, ce, tc, study=study, content_hash=content_hash, bwe=bwe, task_names=TASKS
    )
