"""A step of a suggestion before its race: the goal's matchups, the studies of the base, the
base's first rates (the goal's direction from them is results/suggest/decision.py's), the
candidate edits (grammar, direction, loader, tables proof, de-duplication), their prior order
and their short invariant check."""

import json
import math
import pathlib
import tomllib

from sim.app.suggest.context import write_json
from sim.suggest.grammar import BUFF, deck_edits, in_direction
from sim.suggest.variants import deck_files, write_candidates


def opponents(goal, content) -> list:
    """The field: the goal's opponents, or every dealable deck but the goal's deck and the
    variant decks (copies of a deck, ``variant_of``)."""
    from sim.study import dealable_decks

    if goal.opponents:
        return list(goal.opponents)
    variants = set(getattr(content, "variant_of", {}))
    return [d for d in dealable_decks(content, False) if d != goal.deck and d not in variants]


def cells(goal, content) -> list:
    """[(mode, opponent)]: the goal's matchups, the goal deck always in seat 0 (the first
    mover alternates with the game index, so both seats are played)."""
    return [(m, o) for m in goal.modes for o in opponents(goal, content)]


def study_dict(goal, content_dir, deck_names, opps, player, games, seed, name) -> dict:
    d = {
        "name": name,
        "decks": [[d, o] for d in deck_names for o in opps],
        "modes": list(goal.modes),
        "policies": player,
        "games": games,
        "seed": seed,
    }
    if content_dir:
        d["content"] = str(content_dir)
    return d


def make_study(spec: dict, content):
    from sim.study import study_from_dict

    spec = dict(spec)
    spec.pop("content", None)
    return study_from_dict(spec, content, where="suggest")


def window(goal, r: int) -> tuple:
    """Games [lo, hi) of every matchup played in round ``r`` (0-based): round 1 plays the
    first ``first_round``, each later round as many again as all before it."""
    hi = goal.first_round * 2**r
    lo = 0 if r == 0 else goal.first_round * 2 ** (r - 1)
    return lo, hi


def base_rates(games_by_key: dict, deck: str, cells_, upto: int) -> dict:
    """The base deck's win share per cell and per mode (cells pooled: against the field)
    and over the goal's modes pooled, from games 0 .. upto - 1, with 95% intervals."""
    import numpy as np

    from results.suggest.decision import share95

    rows, by_mode, pooled = [], {}, []
    for mode, opp in cells_:
        g = games_by_key.get((mode, deck, opp), {})
        y = np.array([g[i]["share"] for i in sorted(g) if i < upto])
        m, lo, hi = share95(y)
        rows.append({"mode": mode, "opponent": opp, "mean": m, "lo": lo, "hi": hi,
                     "games": int(len(y))})  # fmt: skip
        by_mode.setdefault(mode, []).append(y)
        pooled.append(y)
    out = {"cells": rows, "modes": {}}
    for mode, ys in by_mode.items():
        m, lo, hi = share95(np.concatenate(ys))
        out["modes"][mode] = {"mean": m, "lo": lo, "hi": hi, "games": int(sum(map(len, ys)))}
    m, lo, hi = share95(np.concatenate(pooled))
    out["pooled"] = {"mean": m, "lo": lo, "hi": hi, "games": int(sum(map(len, pooled)))}
    return out


def candidate_edits(goal, content_dir, content, direction_: int) -> list:
    """(Edit, new card table) of the goal deck in the goal's direction (a matchup-floor goal
    with cells both ways: both directions)."""
    path = deck_files(_base_dir(content_dir))[goal.deck]
    data = tomllib.loads(path.read_text())
    others = {}
    for deck, p in deck_files(_base_dir(content_dir)).items():
        if deck == goal.deck:
            continue
        for card in tomllib.loads(p.read_text()).get("card", []):
            others[f"{deck}/{card.get('id')}"] = card
    cards = set(goal.cards) if goal.cards else None
    edits = deck_edits(
        data, cards=cards, lock=set(goal.lock), kinds=goal.kinds, swaps=goal.swaps,
        others=others,
    )  # fmt: skip
    both = goal.directions == "both" or direction_ == 0
    return [(e, c) for e, c in edits if in_direction(e, direction_ or BUFF, both)]


def _base_dir(content_dir):
    from sim.suggest.variants import base_dir

    return base_dir(content_dir)


def prior_order(candidates: list, use: dict) -> list:
    """Candidate records ordered by how often the base deck's seat played the edited card
    (summoned, thawed or warped, then drew it) in the base's first games: the work goes first
    where an edit can matter; the games decide."""

    def key(c):
        u = use.get(c["edit"]["card"].partition("/")[2], {})
        played = max(u.get("summoned", 0), u.get("thawed", 0), u.get("warped", 0))
        return (-round(played, 6), -round(u.get("drawn", 0), 6), c["cid"])

    return sorted(candidates, key=key)


def write_step_candidates(ctx, step_dir, content_dir, content, direction_) -> dict:
    """The step's candidates (written once; a resumed step reads ``candidates.json``)."""
    step_dir = pathlib.Path(step_dir)
    record = step_dir / "candidates.json"
    edits = candidate_edits(ctx.goal, content_dir, content, direction_)
    keys = [e.key for e, _ in edits]
    if record.is_file():
        old = json.loads(record.read_text())
        if old.get("edit_keys") == keys:
            return old
    cands, refused = write_candidates(
        content_dir, ctx.goal.deck, edits, step_dir / "candidates", log=ctx.note
    )
    for e, why in refused:
        ctx.note(f"refused {e.line()}: {why}")
    data = {
        "edit_keys": keys,
        "generated": len(edits),
        "candidates": [
            {
                "cid": c.cid,
                "edit": c.edit.to_dict(),
                "card_index": c.edit.card_index,
                "content": c.content_dir,
                "tables_hash": c.tables_hash,
                "card_table": c.card_table,
            }
            for c in cands
        ],
        "refused": [{"edit": e.to_dict(), "reason": why} for e, why in refused],
    }
    write_json(record, data)
    return data


def _check(c, content, goal, ctx, opps, per) -> dict:
    from sim.app.check import run_check

    return run_check(
        content,
        decks=[[goal.deck, o] for o in opps],
        modes=list(goal.modes),
        games=per * len(opps) * len(goal.modes),
        seed=goal.seed,
        workers=ctx.workers,
        address=ctx.address,
        progress=False,
        command=f"kalarite suggest (check of {c['cid']})",
        session=ctx.session,
    )


def check_candidates(ctx, cands: list, opps: list, step_dir) -> dict:
    """A short `kalarite check` of each candidate (random players, the invariant checker
    after every option, ``check_games`` over the goal's matchups); clean ones get the
    check's record. Returns {cid: {"games", "result", "broken"}} (resumed from
    ``checks.json``)."""
    from results.checked import write_record
    from sim.app.check import ChunkFailed
    from sim.app.suggest.context import SuggestFailed
    from sim.content.copies import load_content_dir

    goal = ctx.goal
    path = pathlib.Path(step_dir) / "checks.json"
    done = json.loads(path.read_text()) if path.is_file() else {}
    if goal.check_games <= 0:
        return {c["cid"]: {"games": 0, "result": "not checked"} for c in cands}
    per = max(1, math.ceil(goal.check_games / max(1, len(opps) * len(goal.modes))))
    todo = [c for c in cands if c["cid"] not in done]
    if not todo:
        return done
    if not ctx.quiet:
        # the checked kernel's first compile, said with its elapsed time (the warm-up of
        # each check below is silent and then loads the cache)
        from cluster.warmup import warm_up

        warm_up(checked=True)
    checked = [0]  # edits checked so far, for the progress line
    with ctx.saying(lambda: f"invariant checks of the edits: {checked[0]} of {len(todo)} done"):
        for i, c in enumerate(todo):
            checked[0] = i
            try:
                res = _check(c, load_content_dir(c["content"]), goal, ctx, opps, per)
            except ChunkFailed as e:
                raise SuggestFailed(f"check of {c['cid']}: {e}") from None
            if res["result"] == "clean":
                try:
                    write_record(res, c["content"])
                except OSError:
                    pass
            done[c["cid"]] = {
                "games": res["games"],
                "result": res["result"],
                "broken": [b["invariant"] + ": " + b["replay"] for b in res["broken"][:3]],
            }
            write_json(path, done)
    return done
