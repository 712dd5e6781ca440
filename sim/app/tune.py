"""`kalarite tune`: search a player's evaluation weights by play against an opponent, with the
cross-entropy method on Ray (cluster.fanout); the best weights become a named profile with
their provenance.

Each iteration draws ``population`` weight vectors from a normal distribution (mean: the
base player's or profile's weights), plays each of them ``games`` games against the
opponent (half High Form, half Deathmatch; every ordered pairing of the base decks; seats
and first player alternating; every candidate of an iteration plays the same deals, so they
are compared on equal terms), and moves the distribution to the best quarter. The final mean
is played once more on fresh deals (``validation`` games) and stored with its win rate.
Weights are searched on their own scale: the spread starts at half the weight (at least
``MIN_SPREAD``); ``win`` stays fixed.
"""

import itertools

import numpy as np

from core.players.weights import WEIGHT_NAMES
from sim.games import resolve_players
from sim.players import Profile, load_profiles, resolve, save_profile

# `win` is a scale, not a preference; `pending` only matters for Etherweave, which the tuner
# (base decks) never plays
TUNED_WEIGHTS = tuple(w for w in WEIGHT_NAMES if w not in ("win", "pending"))
MODES = ("high-form", "deathmatch")
MIN_SPREAD = 0.5
ELITE = 0.25


def _spec(player, settings, weights) -> str:
    parts = [player]
    parts += [f"{k}={v}" for k, v in settings.items()]
    parts += [f"{k}={float(weights[k])!r}" for k in TUNED_WEIGHTS]
    return ":".join(parts)


def _deals(games, decks):
    """(mode, seat decks, candidate seat, game index) for ``games`` games."""
    pairs = list(itertools.product(decks, repeat=2))
    out = []
    for i in range(games):
        mode = MODES[i % 2]
        d = pairs[(i // 2) % len(pairs)]
        out.append((mode, d, (i // (2 * len(pairs))) % 2, i))
    return out


def play_deals(candidate, opponent, deals, seed) -> tuple:
    """(points of the candidate: 1 a win, 0.5 shared, games) over ``deals``; runs in a Ray
    worker (cluster.fanout) or here. ``candidate`` and ``opponent``: players resolved in the
    driver (sim.games.Player), so every worker plays the same rows whatever its profile
    file says."""
    from core.kernel import play
    from core.rows import R_WINNER
    from results.stats import win_share
    from sim.content import load_content
    from sim.games import batch

    content = load_content()
    players = {candidate.spec: candidate, opponent.spec: opponent}
    pts = 0.0
    for mode, decks, seat, gi in deals:
        specs = [candidate.spec, opponent.spec] if seat == 0 else [opponent.spec, candidate.spec]
        rows = play(batch(content, mode, decks, specs, seed, players), gi, 1).rows
        w = int(rows[0, R_WINNER])
        pts += win_share(w, seat)
    return pts, len(deals)


def tune(
    base: str,
    opponent: str,
    name: str,
    *,
    iterations: int = 6,
    population: int = 12,
    games: int = 72,
    validation: int = 400,
    seed: int = 1,
    workers: int | None = None,
    path=None,
    log=print,
) -> Profile:
    from cluster.fanout import fan_out
    from sim.content import BASE_DECKS

    profiles = load_profiles() | (load_profiles(path) if path else {})
    player, weights, settings = resolve(base, profiles)
    resolve(opponent, profiles)
    rng = np.random.default_rng(seed)
    mean = np.array([weights[k] for k in TUNED_WEIGHTS])
    spread = np.maximum(np.abs(mean) * 0.5, MIN_SPREAD)
    history = []
    opp = resolve_players([opponent], profiles)[opponent]  # the driver's profiles, not the workers'
    with fan_out(play_deals, workers) as run:
        for it in range(iterations):
            cands = [mean] + [
                mean + spread * rng.standard_normal(mean.size) for _ in range(population - 1)
            ]
            deals = _deals(games, BASE_DECKS)
            it_seed = seed * 1000 + it
            specs = [
                _spec(player, settings, weights | dict(zip(TUNED_WEIGHTS, c, strict=True)))
                for c in cands
            ]
            chunks = [deals[i::4] for i in range(4)]
            rows = resolve_players(specs, profiles)
            done = run([(rows[s], opp, ch, it_seed) for s in specs for ch in chunks])
            scores = [
                sum(p for p, _ in done[i * len(chunks) : (i + 1) * len(chunks)]) / games
                for i in range(len(specs))
            ]
            order = np.argsort(scores)[::-1]
            elite = np.array([cands[i] for i in order[: max(2, int(population * ELITE))]])
            mean = elite.mean(axis=0)
            spread = np.maximum(elite.std(axis=0), MIN_SPREAD * 0.25)
            history.append(
                {
                    "iteration": it,
                    "best": float(scores[order[0]]),
                    "mean_of_population": float(np.mean(scores)),
                }
            )
            log(
                f"tune: iteration {it + 1}/{iterations}: best {scores[order[0]]:.3f}, "
                f"population mean {np.mean(scores):.3f}"
            )
        final = weights | {k: round(float(v), 4) for k, v in zip(TUNED_WEIGHTS, mean, strict=True)}
        deals = _deals(validation, BASE_DECKS)
        spec = _spec(player, settings, final)
        vseed = seed * 1000 + 999
        final_rows = resolve_players([spec], profiles)[spec]
        res = run([(final_rows, opp, deals[i::8], vseed) for i in range(8)])
    win = sum(p for p, _ in res) / validation
    log(f"tune: validation: {win:.3f} of {validation} games against {opponent}")
    prof = Profile(
        name=name,
        player=player,
        about=f"{player} with weights tuned against {opponent} (kalarite tune)",
        weights={k: final[k] for k in TUNED_WEIGHTS},
        settings=dict(settings),
        provenance={
            "tuned_from": base,
            "opponent": opponent,
            "method": "cross-entropy method",
            "iterations": iterations,
            "population": population,
            "games_per_candidate": games,
            "seed": seed,
            "validation_games": validation,
            "validation_points_share": round(win, 4),
            "history_best": [round(h["best"], 4) for h in history],
        },
    )
    save_profile(prof, path)
    return prof
