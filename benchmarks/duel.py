"""One player against another on every ordered pairing of the decks, seats alternated, in
the duel modes: its score with a 95% interval, and how the games ended.

    python -m benchmarks.duel --player seer-r1 --against sage --games 14 \
        --out benchmarks/results/duel_seer-r1_vs_sage.json

For each mode and each ordered pairing (deck of seat 0, deck of seat 1), ``--games`` deals are
played twice: the player in seat 0, then in seat 1, on the same deals (the same seed and game
indices), the first mover alternating by game index. So every deal is played from both sides
and the player meets every deck in both seats. Score: a win 1, a shared win ½, a loss 0; its
interval is Wilson's on the score total (statsmodels). Also per mode: the games tied on points
(decided by the tie-breakers), the end reasons, and for each player the share of its
Etherweave games it ended holding a pending being (charged 2 points). Played in this
process, one pairing after another; with ``--out`` the file is rewritten after every pairing
and a run resumes from it (a result depends only on the players, seed and deal, never on
where a run stopped).
"""

import argparse
import itertools
import json
import pathlib
import shlex
import sys
import time

MODES = ("high-form", "deathmatch")


def _interval(x, n):
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(x, n, alpha=0.05, method="wilson")
    return [round(float(lo), 4), round(float(hi), 4)]


def play_pairing(content, a, b, mode, pair, games, seed, players=None) -> dict:
    """Counts of one pairing: ``a`` in seat 0 then in seat 1 on the same deals (``players``:
    the resolved players, sim.games.resolve_players)."""
    from core import constants as K
    from core.kernel import play
    from core.rows import R_END_REASON, R_SEAT, R_SEAT_WIDTH, R_WINNER, S_PENDING_END, S_SCORE
    from results.stats import win_share
    from sim.games import batch

    out = {"games": 0, "score": 0.0, "shared": 0, "tied_on_points": 0, "end": {}, "cpu_s": 0.0}
    out["pending"] = {"player": [0, 0], "against": [0, 0]}  # [pending at the end, games]
    for seat_a in (0, 1):
        specs = [a, b] if seat_a == 0 else [b, a]
        t0 = time.process_time()
        rows = play(batch(content, mode, pair, specs, seed, players), 0, games).rows
        out["cpu_s"] += time.process_time() - t0
        for r in rows:
            w = int(r[R_WINNER])
            out["games"] += 1
            out["score"] += win_share(w, seat_a)
            out["shared"] += int(w < 0)
            s0, s1 = (int(r[R_SEAT + p * R_SEAT_WIDTH + S_SCORE]) for p in (0, 1))
            out["tied_on_points"] += int(s0 == s1)
            why = K.END_NAMES[int(r[R_END_REASON])]
            out["end"][why] = out["end"].get(why, 0) + 1
            for p in (0, 1):
                if pair[p] == "etherweave":
                    who = "player" if p == seat_a else "against"
                    out["pending"][who][0] += int(r[R_SEAT + p * R_SEAT_WIDTH + S_PENDING_END])
                    out["pending"][who][1] += 1
    return out


def summary(cells: dict) -> dict:
    """Per mode: the player's score with its interval, ties, end reasons, pending beings."""
    out = {}
    for mode in MODES:
        rows = [v for k, v in cells.items() if k.startswith(mode + "|")]
        if not rows:
            continue
        n = sum(r["games"] for r in rows)
        score = sum(r["score"] for r in rows)
        ties = sum(r["tied_on_points"] for r in rows)
        end = {}
        for r in rows:
            for k, v in r["end"].items():
                end[k] = end.get(k, 0) + v
        m = {
            "pairings": len(rows),
            "games": n,
            "score": round(score / n, 4),
            "score_interval": _interval(score, n),
            "shared": sum(r["shared"] for r in rows),
            "tied_on_points": ties,
            "tied_on_points_share": round(ties / n, 4),
            "tied_on_points_interval": _interval(ties, n),
            "end_reasons": end,
            "cpu_s": round(sum(r["cpu_s"] for r in rows), 2),
        }
        for who in ("player", "against"):
            held = sum(r["pending"][who][0] for r in rows)
            games = sum(r["pending"][who][1] for r in rows)
            if games:
                m[f"pending_end_{who}"] = {
                    "games": games,
                    "share": round(held / games, 4),
                    "interval": _interval(held, games),
                }
        out[mode] = m
    return out


def run(
    player, against, games, seed=1, modes=MODES, decks=None, out=None, log=print, command=None
) -> dict:
    """Play (or resume) the duel; ``command``: the command line the file records."""
    from sim.content import load_content
    from sim.games import resolve_players

    players = resolve_players([player, against])  # once: every pairing plays the same rows
    content = load_content()
    decks = list(decks or content.decks)
    pairs = list(itertools.product(decks, repeat=2))
    path = pathlib.Path(out) if out else None
    head = {"player": player, "against": against, "games": games, "seed": seed, "decks": decks}
    cells = {}
    if path and path.exists():
        old = json.loads(path.read_text())
        if {k: old.get(k) for k in head} == head:
            cells = old.get("cells", {})
    for mode in modes:
        for i, pair in enumerate(pairs):
            key = f"{mode}|{pair[0]}|{pair[1]}"
            if key in cells:
                continue
            cells[key] = play_pairing(
                content, player, against, mode, pair, games, seed * 1000 + i, players
            )
            if path:
                _write(path, head, cells, command)
        if log:
            s = summary(cells).get(mode)
            if s:
                lo, hi = s["score_interval"]
                log(f"{player} vs {against} {mode}: {s['score']:.1%} [{lo:.1%}, {hi:.1%}] "
                    f"of {s['games']} games")  # fmt: skip
    result = _write(path, head, cells, command) if path else {**head, "modes": summary(cells)}
    return result


def _write(path, head, cells, command=None) -> dict:
    from core import ENGINE_HASH

    cmd = {"command": command} if command else {}
    result = {**cmd, **head, "engine_hash": ENGINE_HASH, "modes": summary(cells), "cells": cells}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(result, indent=1) + "\n")
    tmp.replace(path)
    return result


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--player", required=True)
    p.add_argument("--against", default="sage")
    p.add_argument("--games", type=int, default=14, help="deals per pairing, mode and seat")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--modes", default=",".join(MODES))
    p.add_argument("--out", help="JSON file (rewritten after every pairing; resumes)")
    a = p.parse_args(argv)
    command = " ".join(["python -m benchmarks.duel", *map(shlex.quote, argv or sys.argv[1:])])
    r = run(
        a.player, a.against, a.games, a.seed, tuple(a.modes.split(",")), out=a.out,
        command=command,
    )  # fmt: skip
    print(json.dumps(r["modes"], indent=1))


if __name__ == "__main__":
    main()
