"""The paired race of a suggestion step: every candidate plays the base's deals, round after
round, and the decision module (results/suggest/decision.py: ``after_round``) drops candidates
after each complete round and says when the race stops.

Round ``r`` plays games ``window(r)`` of every goal matchup: first the base (its own
dataset, ``race/base-R``), then every living candidate as a variant deck of one content
directory (``race/content``: ``<deck>-<cid>``, ``variant_of`` the deck, so dealt the base's
games) in one study of listed games (``race/round-R``): the window, less the deals in which
seat 0 never drew the edited card when the player's exact skip is proven (sim.suggest.skip;
those games are the base's). Decisions read only complete rounds, in a fixed candidate order,
so the race is the same for any number of workers, and a race started again replays nothing:
each round's datasets are resumed or found complete, and the decisions recomputed from them.
"""

import json
import pathlib

import numpy as np

from results.suggest.data import games, seat0_cards
from results.suggest.decision import Arm, Rules, after_round, arm_rows, effect95, share95
from sim.app.suggest.plan import make_study, study_dict, window
from sim.content.copies import load_content_dir
from sim.study import with_game_lists
from sim.suggest.skip import skip_exact
from sim.suggest.variants import variant_name, write_race_content


class _Cand:
    """A candidate as the race content writer needs it."""

    def __init__(self, c):
        from sim.suggest.grammar import Edit

        e = c["edit"]
        self.cid = c["cid"]
        self.card_table = c["card_table"]
        self.edit = Edit(e["kind"], e["card"], e["where"], e["before"], e["after"], 0,
                         c["card_index"])  # fmt: skip


def run_race(ctx, step_dir, content_dir, cands: list, cells: list, weights: dict,
             budget_left: int, seed: int) -> dict:  # fmt: skip
    """Race ``cands`` (candidate records in prior order); returns the race's record: the
    arms in rank order with their history, the rounds, the games."""
    goal = ctx.goal
    step_dir = pathlib.Path(step_dir)
    race_dir = step_dir / "race"
    race_dir.mkdir(parents=True, exist_ok=True)
    base_content = load_content_dir(content_dir)
    rc_dir = write_race_content(content_dir, goal.deck, [_Cand(c) for c in cands],
                                race_dir / "content")  # fmt: skip
    race_content = load_content_dir(rc_dir)
    opps = sorted({o for _, o in cells}, key=[o for _, o in cells].index)
    player = goal.screen_player
    skip = skip_exact(player)
    arms = [Arm(c["cid"], i) for i, c in enumerate(cands)]
    rules = Rules.of(goal)
    by_id = {c["cid"]: c for c in cands}
    slug = {c["cid"]: c["edit"]["card"].partition("/")[2] for c in cands}
    base_y = {cell: np.zeros(0) for cell in cells}  # base shares, game index order
    cand_y = {a.cid: {cell: np.zeros(0) for cell in cells} for a in arms}
    rounds, games_used, skipped_total, played_total = [], 0, 0, 0
    best = {}  # cid -> the race's deal where the edit moved the goal most
    stop = "rounds"
    target = [c for c in cells if weights.get(c)]
    for r in range(goal.rounds):
        alive = [a for a in arms if a.alive]
        lo, hi = window(goal, r)
        cost = (len(alive) + 1) * len(cells) * (hi - lo)
        if r > 0 and games_used + cost > budget_left:
            stop = "budget"
            break
        base_out, base_games = play_base_window(ctx, step_dir, content_dir, base_content,
                                                opps, seed, r)  # fmt: skip
        games_used += base_games
        bg = games(base_out)
        drawn = seat0_cards(base_out) if skip else {}
        lists, skipped = {}, {}
        vnames = [variant_name(goal.deck, a.cid) for a in alive]
        rspec = study_dict(goal, str(rc_dir), vnames, opps, player, hi, seed, "suggest race")
        rstudy = make_study(rspec, race_content)
        keyed = {(m.mode, m.decks): m for m in rstudy.matchups()}
        for a in alive:
            n_skip = 0
            for mode, opp in cells:
                rows = bg.get((mode, goal.deck, opp), {})
                dr = drawn.get((mode, goal.deck, opp), {})
                todo = []
                for g in range(lo, hi):
                    row = rows.get(g)
                    if (
                        skip
                        and row is not None
                        and not row["log_lost"]
                        and slug[a.cid] not in dr.get(g, {})
                    ):
                        n_skip += 1
                        continue
                    todo.append(g)
                if todo:
                    m = keyed[(mode, (variant_name(goal.deck, a.cid), opp))]
                    lists[(m.mode, m.decks, m.policies)] = todo
            skipped[a.cid] = n_skip
        round_out = race_dir / f"round-{r + 1}"
        played = 0
        if lists:
            rstudy = with_game_lists(rstudy, lists)
            ctx.play(rstudy, race_content, round_out, f"race round {r + 1}: {len(alive)} edits")
            played = rstudy.total_games
            cg = games(round_out)
        else:
            cg = {}
        games_used += played
        played_total += played
        errors = played - sum(len(v) for v in cg.values()) if lists else 0
        skipped_total += sum(skipped.values())
        for cell in cells:
            mode, opp = cell
            rows = bg.get((mode, goal.deck, opp), {})
            idx = [g for g in range(lo, hi) if g in rows]
            yb = np.array([rows[g]["share"] for g in idx])
            base_y[cell] = np.concatenate([base_y[cell], yb])
            for a in alive:
                crow = cg.get((mode, variant_name(goal.deck, a.cid), opp), {})
                yc = np.array([crow[g]["share"] if g in crow else rows[g]["share"] for g in idx])
                cand_y[a.cid][cell] = np.concatenate([cand_y[a.cid][cell], yc])
                d = (weights.get(cell) or 1) * (yc - yb)
                if len(d) and d.max() > best.get(a.cid, {"change": 0})["change"]:
                    i = int(d.argmax())
                    best[a.cid] = {"change": float(d[i]), "mode": mode, "opponent": opp,
                                   "game": int(idx[i]), "seed": rows[idx[i]]["seed"]}  # fmt: skip
        u = np.array([_objective(cand_y[a.cid], base_y, target, weights) for a in alive])
        modes = {a.cid: _modes(cand_y[a.cid], base_y, cells, goal.modes) for a in alive}
        decision = after_round(u, arms, r, rules, k0=len(arms), modes=modes)
        for a in alive:
            a.history[-1]["skipped"] = skipped[a.cid]
        rounds.append({
            "round": r + 1, "games": [lo, hi], "alive": len(alive), "base_games":
            base_games, "played": played, "skipped": sum(skipped.values()),
            "engine_errors": errors, "leader": decision["leader"], "dropped": decision["dropped"],
            "levels": decision["levels"],
        })  # fmt: skip
        left = [a for a in arms if a.alive]
        ctx.log(
            f"race round {r + 1}: {len(alive)} edits on games {lo}..{hi - 1}, leader "
            f"{decision['leader']}, {len(decision['dropped'])} dropped, {len(left)} left"
        )
        if errors:
            ctx.log(f"race round {r + 1}: {errors} edit games ended in an engine error (left "
                    "out: counted as the base's)")  # fmt: skip
        if decision["stop"]:
            stop = decision["stop"]
            break
    base_modes = _base_modes(base_y, cells, goal.modes)
    record = {
        "player": player,
        "skip": skip,
        "seed": seed,
        "cells": [list(c) for c in cells],
        "weights": {f"{m}|{o}": w for (m, o), w in weights.items()},
        "rounds": rounds,
        "stop": stop,
        "games": games_used,
        "games_played_candidates": played_total,
        "games_skipped": skipped_total,
        "base": base_modes,
        "arms": [
            row | {"edit": by_id[row["cid"]]["edit"], "most_mattered": best.get(row["cid"])}
            for row in arm_rows(arms)
        ],
    }
    (race_dir / "race.json").write_text(json.dumps(record, indent=1, default=_num))
    return record


def play_base_window(ctx, step_dir, content_dir, base_content, opps, seed, r) -> tuple:
    """Play (or find played) the base's games of round ``r``: (dataset, games)."""
    goal = ctx.goal
    lo, hi = window(goal, r)
    spec = study_dict(goal, content_dir, [goal.deck], opps, goal.screen_player, hi, seed,
                      "suggest base")  # fmt: skip
    study = make_study(spec, base_content)
    study = with_game_lists(study, {
        (m.mode, m.decks, m.policies): range(lo, hi) for m in study.matchups()
    })  # fmt: skip
    out = pathlib.Path(step_dir) / "race" / f"base-{r + 1}"
    ctx.play(study, base_content, out, f"race round {r + 1}: the base")
    return out, study.total_games


def _num(x):
    if isinstance(x, np.integer | np.floating):
        return x.item()
    raise TypeError(type(x).__name__)


def _objective(cy, by, target, weights) -> np.ndarray:
    parts = [weights[c] * (cy[c] - by[c]) for c in target]
    return np.concatenate(parts) if parts else np.zeros(0)


def _modes(cy, by, cells, modes) -> dict:
    """Per mode: the edit's effect and the projected win share (95% intervals)."""
    out = {}
    for mode in modes:
        cs = [c for c in cells if c[0] == mode]
        d = np.concatenate([cy[c] - by[c] for c in cs])
        y = np.concatenate([cy[c] for c in cs])
        m, lo, hi = effect95(d)
        pm, plo, phi = share95(y)
        out[mode] = {"effect": m, "lo": lo, "hi": hi, "projected": pm, "projected_lo": plo,
                     "projected_hi": phi, "pairs": int(len(d))}  # fmt: skip
    return out


def _base_modes(by, cells, modes) -> dict:
    out = {}
    for mode in modes:
        y = np.concatenate([by[c] for c in cells if c[0] == mode])
        m, lo, hi = share95(y)
        out[mode] = {"mean": m, "lo": lo, "hi": hi, "games": int(len(y))}
    return out
