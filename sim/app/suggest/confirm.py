"""Confirmation of a step's finalists: each is replayed on fresh seeds under the two
strongest players, beside the base on the same fresh deals (ordinary studies, one per player
and edit, under ``confirm/<player>/``), compared through the paired `kalarite compare`, and
judged (results.suggest.decision.confirm); the trust checklist of each (results.suggest.checklist).
"""

import pathlib

from results.suggest.checklist import checklist
from results.suggest.decision import confirm, effect95
from results.suggest.effects import objective, paired, per_cell, per_mode, tie_break_check
from sim.app.suggest.context import derived_seed, player_dir
from sim.app.suggest.plan import make_study, study_dict
from sim.content.copies import load_content_dir


def confirm_step(ctx, step_dir, content_dir, finalists: list, cells: list, weights: dict,
                 race: dict, checks: dict, step: int) -> dict:  # fmt: skip
    """Replay ``finalists`` (candidate records) on fresh seeds; returns {cid: result} and
    the base's confirmed rates."""
    goal = ctx.goal
    players = list(goal.confirm_players)  # the top two by default (sim.suggest.goal)
    seed = derived_seed(goal.seed, "confirm", step)
    opps = sorted({o for _, o in cells}, key=[o for _, o in cells].index)
    base_content = load_content_dir(content_dir)
    root = pathlib.Path(step_dir) / "confirm"
    pairs = {}  # player -> cid -> Pairs
    base_dirs = {}
    for p in players:
        pdir = root / player_dir(p)
        spec = study_dict(goal, content_dir, [goal.deck], opps, p, goal.confirm_games, seed,
                          f"suggest confirm: base ({p})")  # fmt: skip
        base_out = pdir / "base"
        ctx.play(make_study(spec, base_content), base_content, base_out, f"confirm {p}: the base")
        base_dirs[p] = base_out
        for c in finalists:
            cc = load_content_dir(c["content"])
            spec = study_dict(goal, c["content"], [goal.deck], opps, p, goal.confirm_games,
                              seed, f"suggest confirm: {c['cid']} ({p})")  # fmt: skip
            out = pdir / c["cid"]
            ctx.play(make_study(spec, cc), cc, out, f"confirm {p}: {c['cid']}")
            pairs.setdefault(p, {})[c["cid"]] = paired(base_out, out, goal.deck, cells)
    decided = confirm(
        {p: {cid: objective(pr, weights) for cid, pr in v.items()} for p, v in pairs.items()},
        goal.alpha,
    )
    base = {p: per_mode(paired(b, b, goal.deck, cells), goal.modes) for p, b in base_dirs.items()}
    comp = competence_rows(goal)
    out = {}
    for c in finalists:
        cid = c["cid"]
        pooled = _pooled(pairs, cid, players, cells)
        res = {
            "players": players,
            "seed": seed,
            "games_per_player": int(pairs[players[0]][cid].n()),
            "confirmed": decided[cid]["confirmed"],
            "p": decided[cid]["p"],
            "level": decided[cid]["level"],
            "modes": per_mode(pooled, goal.modes),
            "by_player": {p: per_mode(pairs[p][cid], goal.modes) for p in players},
            "objective_by_player": {
                p: dict(
                    zip(
                        ("effect", "lo", "hi"),
                        effect95(objective(pairs[p][cid], weights)),
                        strict=True,
                    )
                )
                for p in players
            },  # fmt: skip
            "cells": [
                r | {"weight": weights.get((r["mode"], r["opponent"]), 0)} for r in per_cell(pooled)
            ],
            "changed_pairs": int(sum((pooled.d(c) != 0).sum() for c in cells)),
            "tie_breaks": tie_break_check(pooled, weights),
            "datasets": {p: str(root / player_dir(p) / cid) for p in players},
            "base_datasets": {p: str(base_dirs[p]) for p in players},
            "most_mattered": _most_mattered(pairs[players[0]][cid], weights),
        }
        res["checklist"] = checklist(
            goal, c, res, checks.get(cid, {}), race, base_dirs, players, competence=comp
        )
        out[cid] = res
    return {"results": out, "base": base, "players": players, "seed": seed}


def competence_rows(goal) -> list | None:
    """`kalarite competence` results of the goal's deck from ``run.competence`` (its
    ``--out``: the datasets ``<deck>-seat0`` and ``<deck>-seat1``), or None."""
    from results.store import read_manifest
    from sim.app.competence import MECHANICS, analyse

    if not goal.competence or goal.deck not in MECHANICS:
        return None
    root = pathlib.Path(goal.competence)
    dirs = {f"{goal.deck}-seat{s}": str(root / f"{goal.deck}-seat{s}") for s in (0, 1)}
    try:
        pols = read_manifest(dirs[f"{goal.deck}-seat0"])["study"]["policies"]
    except (OSError, ValueError, KeyError):
        return None
    full = next((p[0] for p in pols if len(p) == 1), None)
    if full is None:
        return None
    return analyse(dirs, [goal.deck], full, list(goal.modes))


def _pooled(pairs, cid, players, cells):
    """The two players' pairs of one edit as one set (both players' games, per cell)."""
    import numpy as np

    from results.suggest.effects import Pairs

    p = Pairs(list(cells))
    for cell in cells:
        for attr in ("base", "cand", "tie", "index"):
            getattr(p, attr)[cell] = np.concatenate(
                [getattr(pairs[pl][cid], attr)[cell] for pl in players]
            )
    return p


def _most_mattered(pr, weights) -> dict | None:
    """The deal where the edit moved the goal most (the first of the largest change in the
    goal's direction): its cell, game index and matchup seed."""
    best = None
    for cell in pr.cells:
        w = weights.get(cell) or 1
        d = w * pr.d(cell)
        if not len(d):
            continue
        i = int(d.argmax())
        if best is None or d[i] > best[0]:
            best = (float(d[i]), cell, int(pr.index[cell][i]), pr.seed[cell])
    if best is None or best[0] <= 0:
        return None
    return {"change": best[0], "mode": best[1][0], "opponent": best[1][1], "game": best[2],
            "seed": best[3]}  # fmt: skip
