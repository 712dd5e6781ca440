"""`kalarite suggest`: from a balance goal to ranked, confirmed card edits.

One step: the base's first games tell the goal's direction; the card grammar's edits in that
direction become candidates (each its own content copy, loaded, proved, de-duplicated,
checked); the paired race screens them (sim/app/suggest/race.py); the finalists are
replayed on fresh seeds under the two strongest players (sim/app/suggest/confirm.py); by
default the base and the race are played by the strongest (sim.suggest.goal.default_players).
With ``stack`` > 1 the best confirmed edit is accepted, becomes the base, and the next step
searches again, until the goal is met or no edit clears the smallest effect.

Everything is written under ``--out`` (``step-N/``: the candidates, the race's and the
confirmation's datasets); running the same command again resumes where it stopped and
reaches the same result. ``suggest.json`` and ``index.html`` come last
(sim/app/suggest/page.py).
"""

import json
import pathlib
import sys

from results.suggest import decision
from results.suggest.data import card_use, games
from sim.app.suggest.confirm import confirm_step
from sim.app.suggest.context import Context, derived_seed, saying, write_json
from sim.app.suggest.plan import (
    base_rates,
    cells,
    check_candidates,
    opponents,
    prior_order,
    window,
    write_step_candidates,
)
from sim.app.suggest.race import play_base_window, run_race
from sim.content.copies import load_content_dir


class SuggestError(ValueError):
    """--out cannot hold this suggestion (one line, exit status 2)."""


def prepare_out(goal, out) -> pathlib.Path:
    """``out`` for this goal: new, or holding the same goal (resume)."""
    out = pathlib.Path(out)
    record = out / "goal.json"
    if out.exists() and not out.is_dir():
        raise SuggestError(f"--out {str(out)!r} exists and is not a directory")
    if out.is_dir() and any(out.iterdir()):
        if not record.is_file():
            raise SuggestError(f"--out {str(out)!r} is not empty and holds no suggestion")
        try:
            old = json.loads(record.read_text())
        except (OSError, ValueError):
            raise SuggestError(f"{record} is unreadable: choose another --out") from None
        if old != json.loads(json.dumps(goal.to_dict())):
            raise SuggestError(
                f"--out {str(out)!r} holds a suggestion for another goal; choose another --out"
            )
    out.mkdir(parents=True, exist_ok=True)
    write_json(record, goal.to_dict())
    return out


def run_step(ctx, step: int, content_dir) -> dict:
    goal = ctx.goal
    sdir = ctx.out / f"step-{step}"
    sdir.mkdir(parents=True, exist_ok=True)
    content = load_content_dir(content_dir)
    cs = cells(goal, content)
    opps = opponents(goal, content)
    seed = derived_seed(goal.seed, "race", step)
    start_games = ctx.games_played
    b0, _ = play_base_window(ctx, sdir, content_dir, content, opps, seed, 0)
    rates = base_rates(games(b0), goal.deck, cs, window(goal, 0)[1])
    dirn = decision.direction(decision.Rules.of(goal), rates, rates["cells"])
    res = {"step": step, "content": content_dir, "cells": [list(c) for c in cs],
           "base_first_round": rates, "direction": dirn["direction"], "why": dirn["why"],
           "seed": seed}  # fmt: skip
    ctx.log(f"step {step}: {dirn['why']}")
    if dirn["met"]:
        return res | {"status": "met", "suggestions": [], "refused": []}
    made = write_step_candidates(ctx, sdir, content_dir, content, dirn["direction"])
    cands = made["candidates"]
    refused = list(made["refused"])
    ctx.log(
        f"step {step}: {made['generated']} edits in the goal's direction, {len(cands)} "
        f"candidates, {len(refused)} refused (each as a one-line card diff in "
        f"{ctx.out / 'suggest.log'})"
    )
    by_id = {c["cid"]: c for c in cands}
    order = prior_order(cands, card_use(b0, goal.deck))
    if goal.max_candidates is not None and len(order) > goal.max_candidates:
        for i, c in enumerate(order[goal.max_candidates :], start=goal.max_candidates + 1):
            refused.append({"edit": c["edit"], "reason": f"not raced: prior rank {i} beyond "
                            f"max_candidates = {goal.max_candidates}"})  # fmt: skip
        order = order[: goal.max_candidates]
    checks = check_candidates(ctx, order, opps, sdir)
    broken = [c for c in order if checks.get(c["cid"], {}).get("result") == "broken"]
    for c in broken:
        refused.append({"edit": c["edit"], "reason": "kalarite check broke an invariant: "
                        + "; ".join(checks[c["cid"]]["broken"])})  # fmt: skip
    order = [c for c in order if c not in broken]
    res |= {"candidates": len(order), "generated": made["generated"], "refused": refused,
            "checks": checks}  # fmt: skip
    if not order:
        return res | {"status": "no edits", "suggestions": []}
    weights = dirn["weights"]
    reserve = _confirm_cost(goal, len(cs))
    budget = goal.games - start_games - reserve
    race = run_race(ctx, sdir, content_dir, order, cs, weights, budget, seed)
    per_replay = 2 * goal.confirm_games * len(cs)  # one edit (or the base), both players
    room = max(goal.confirm_count, (goal.games - ctx.games_played) // per_replay - 1)
    finalists = [by_id[c] for c in decision.finalists(decision.Rules.of(goal), race["arms"], room)]
    conf = confirm_step(ctx, sdir, content_dir, finalists, cs, weights, race, checks, step)
    res |= {"race": race, "confirm": {k: v for k, v in conf.items() if k != "results"}}
    res["suggestions"] = _suggestions(goal, race, conf["results"], by_id, weights)
    res["status"] = "searched"
    return res


def _confirm_cost(goal, n_cells) -> int:
    return (goal.confirm_count + 1) * 2 * goal.confirm_games * n_cells


def _suggestions(goal, race, confirmed: dict, by_id, weights) -> list:
    """Every raced candidate in rank order: the replayed ones by their confirmed effect on
    the goal (both players pooled), then the others in the race's order."""
    arms = {a["cid"]: a for a in race["arms"]}
    replayed = decision.replay_order(confirmed)
    rest = [a["cid"] for a in race["arms"] if a["cid"] not in confirmed]
    out = []
    for rank, cid in enumerate(replayed + rest, start=1):
        a = arms[cid]
        last = a["history"][-1] if a["history"] else {}
        screen = last.get("modes", {})
        row = {
            "rank": rank,
            "cid": cid,
            "edit": by_id[cid]["edit"]["line"],
            "edit_detail": by_id[cid]["edit"],
            "content": by_id[cid]["content"],
            "screen_effect": {m: v["effect"] for m, v in screen.items()},
            "screen_effect_lo": {m: v["lo"] for m, v in screen.items()},
            "screen_effect_hi": {m: v["hi"] for m, v in screen.items()},
            "screen_pairs": last.get("n", 0),
            "race_rounds": len(a["history"]),
            "race_most_mattered": a.get("most_mattered"),
        }
        if cid in confirmed:
            c = confirmed[cid]
            row |= {
                "effect": {m: v["effect"] for m, v in c["modes"].items()},
                "effect_lo": {m: v["lo"] for m, v in c["modes"].items()},
                "effect_hi": {m: v["hi"] for m, v in c["modes"].items()},
                "projected": {m: v["projected"] for m, v in c["modes"].items()},
                "projected_lo": {m: v["projected_lo"] for m, v in c["modes"].items()},
                "projected_hi": {m: v["projected_hi"] for m, v in c["modes"].items()},
                "effect_source": "confirmation (fresh seeds, both players)",
                "status": "confirmed" if c["confirmed"] else "not confirmed",
                "confirmation": c,
                "checklist": c["checklist"],
                "label": "a candidate for human playtesting" if c["confirmed"] else None,
            }
        else:
            row |= {
                "effect": row["screen_effect"],
                "effect_lo": row["screen_effect_lo"],
                "effect_hi": row["screen_effect_hi"],
                "projected": {m: v["projected"] for m, v in screen.items()},
                "projected_lo": {m: v["projected_lo"] for m, v in screen.items()},
                "projected_hi": {m: v["projected_hi"] for m, v in screen.items()},
                "effect_source": "screening (race games)",
                "status": (
                    f"eliminated in round {a['dropped_round']}: {a['reason']}"
                    if not a["alive"]
                    else f"undecided: the race stopped ({race['stop']}) before it was replayed"
                ),
                "checklist": None,
                "label": None,
            }
        out.append(row)
    return out


def accepted_edit(goal, step_res) -> dict | None:
    """The step's accepted edit (results.suggest.decision.accept): its best confirmed one,
    if it moves the goal by at least ``min_effect``."""
    replayed = {
        s["cid"]: {
            "confirmed": s["status"] == "confirmed",
            "objective_by_player": s["confirmation"]["objective_by_player"],
        }
        for s in step_res.get("suggestions", [])
        if s.get("confirmation")
    }
    cid = decision.accept(decision.Rules.of(goal), replayed)
    return next((s for s in step_res["suggestions"] if s["cid"] == cid), None) if cid else None


def reached(goal, s) -> bool:
    """Does the accepted edit's confirmed projection meet the goal
    (results.suggest.decision.reached)?"""
    return decision.reached(decision.Rules.of(goal), s["projected"], s["confirmation"]["cells"])


def players_text(goal) -> str:
    """Which players the suggestion rests on, and whether they are the default top two."""
    from sim.strength import strongest_players

    top = list(strongest_players(2))
    screen, confirm = goal.screen_player, list(goal.confirm_players)
    where = (
        "the top two players of `kalarite players` (the default)"
        if screen == top[0] and sorted(confirm) == sorted(top)
        else f"players chosen for this goal (the top two are {top[0]} and {top[1]})"
    )
    return (
        f"the base and the race under {screen}, the confirmation under {confirm[0]} and "
        f"{confirm[1]}: {where}"
    )


def run_suggest(goal, out, *, workers=None, address=None, progress=False, quiet=False) -> dict:
    """Run the suggestion (resuming what ``out`` holds); returns the suggest.json dict and
    writes it with the page."""
    out = prepare_out(goal, out)
    if not quiet:  # at once, before Ray's import and start (seconds on a loaded machine)
        print(f"kalarite: suggest: {goal.text()} -> {out}", file=sys.stderr, flush=True)
        print(f"kalarite: suggest: {players_text(goal)}", file=sys.stderr, flush=True)
    from cluster.progress import step_printer
    from cluster.session import open_session

    # one session (Ray, or this process with workers=0) lent to every study and check
    session = open_session(workers, address, None if quiet else step_printer())
    try:
        return _run(goal, out, workers, address, progress, quiet, session)
    finally:
        with saying("stopping the Ray workers", quiet or workers == 0, after_s=2.0):
            session.close()


def _run(goal, out, workers, address, progress, quiet, session) -> dict:
    from sim.app.suggest.page import write_outputs

    with open(out / "suggest.log", "a") as log:
        ctx = Context(goal, out, workers=workers, address=address, progress=progress,
                      log_file=log, quiet=quiet, session=session)  # fmt: skip
        steps, stack = [], []
        content_dir = goal.content
        status = None
        for step in range(1, goal.stack + 1):
            res = run_step(ctx, step, content_dir)
            steps.append(res)
            if res["status"] == "met":
                status = "met" if step == 1 else "reached"
                break
            if res["status"] == "no edits":
                status = "no edits"
                break
            best = accepted_edit(goal, res)
            if best is None:
                status = "no edit clears the smallest effect"
                break
            if reached(goal, best) or step < goal.stack:
                stack.append({"step": step, "cid": best["cid"], "edit": best["edit"],
                              "content": best["content"], "effect": best["effect"],
                              "projected": best["projected"]})  # fmt: skip
                ctx.log(f"step {step}: accepted {best['cid']}: {best['edit']}")
            if reached(goal, best):
                status = "reached"
                break
            content_dir = best["content"]
        else:
            status = "stack limit"
        result = {
            "kalarite_suggest": 1,
            "goal": goal.to_dict(),
            "goal_text": goal.text(),
            "players_text": players_text(goal),
            "status": status,
            "stack": stack,
            "steps": steps,
            "suggestions": steps[0].get("suggestions", []),
            "games": ctx.games_played,
            "datasets": {p: {"what": w, "games": g} for p, (w, g) in ctx.datasets.items()},
        }
        part = ["the compare pages"]
        with ctx.saying(lambda: f"writing {part[0]}"):
            write_outputs(result, out, say=lambda text: part.__setitem__(0, text))
        return result
