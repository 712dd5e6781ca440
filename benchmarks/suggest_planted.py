"""A planted nerf, found again by `kalarite suggest`: weaken one of a deck's most summoned
cards by one grammar step in a copy of the card files, then ask suggest to bring the copy back
to the original's win share against the field. The target: the reverse edit (the step that
undoes the plant) ranks in the top 3, or a top-3 edit's confirmed effect interval holds the
plant's confirmed cost.

    python -m benchmarks.suggest_planted --out runs/planted              # defaults: minutes
    python -m benchmarks.suggest_planted --deck everfrost --kind pattern-rank \\
        --opponents imperial,highland --cards 4 --workers 1 --out runs/planted

Steps (each a resumable dataset under ``--out``): a probe study of the original finds the
deck's most summoned card; its first nerf of ``--kind`` (sim/suggest/grammar.py) is planted
in a copy (``planted-content``); a study of the original gives its win share (the goal's
band: that share +- ``--band-half``); suggest runs on the copy with the planted card and the
next most summoned ones editable. ``planted.json`` records the plant, the reverse edit's rank
and status, and the top 3.
"""

import argparse
import json
import pathlib
import shutil
import sys

import numpy as np


def _study(goal_like, content_dir, content, games, seed, player, opps, modes):
    from sim.study import study_from_dict

    spec = {"decks": [[goal_like, o] for o in opps], "modes": list(modes), "policies": player,
            "games": games, "seed": seed}  # fmt: skip
    return study_from_dict(spec, content)


def main(argv=None) -> int:
    from cluster.runner import run_study
    from results.suggest.data import card_use, games
    from sim.app.suggest.run import run_suggest
    from sim.content import DATA_DIR
    from sim.content.copies import load_content_dir
    from sim.suggest.goal import goal_from_dict
    from sim.suggest.grammar import NERF, deck_edits
    from sim.suggest.variants import deck_files, write_candidates

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deck", default="everfrost")
    ap.add_argument("--kind", default="pattern-rank", help="the grammar kind of the plant")
    ap.add_argument("--opponents", default="imperial,highland")
    ap.add_argument("--modes", default="high-form,deathmatch")
    ap.add_argument("--player", default="planner")
    ap.add_argument("--confirm-players", default="planner,greedy")
    ap.add_argument("--cards", type=int, default=4, help="editable cards (the planted first)")
    ap.add_argument("--probe-games", type=int, default=40, help="per matchup and mode")
    ap.add_argument("--target-games", type=int, default=400, help="per matchup and mode")
    ap.add_argument("--band-half", type=float, default=0.02)
    ap.add_argument("--games", type=int, default=60000, help="suggest's budget")
    ap.add_argument("--first-round", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--confirm-games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    opps, modes = a.opponents.split(","), a.modes.split(",")
    original = load_content_dir(None)

    def log(text):
        print(f"planted: {text}", file=sys.stderr, flush=True)

    # 1. the most summoned cards of the deck
    probe = out / "probe"
    run_study(_study(a.deck, None, original, a.probe_games, a.seed + 1, a.player, opps, modes),
              original, probe, workers=a.workers, progress=False)  # fmt: skip
    use = card_use(probe, a.deck)
    ranked = sorted(use, key=lambda s: (-use[s]["summoned"], s))
    card = f"{a.deck}/{ranked[0]}"
    log(f"most summoned: {card} ({use[ranked[0]]['summoned']:.0%} of the games)")
    # 2. the plant: its first nerf of the kind
    import tomllib

    data = tomllib.loads(deck_files(DATA_DIR)[a.deck].read_text())
    plants = [(e, c) for e, c in deck_edits(data, cards={card}, kinds=(a.kind,))
              if e.direction == NERF]  # fmt: skip
    if not plants:
        raise SystemExit(f"planted: {card} has no nerf of kind {a.kind}")
    plant = plants[0]
    pdir = out / "planted"
    if pdir.exists():
        shutil.rmtree(pdir)
    (c,), refused = write_candidates(None, a.deck, [plant], pdir)
    content_dir = pathlib.Path(c.content_dir)
    log(f"planted: {plant[0].line()}")
    # 3. the original's win share: the goal's band
    target = out / "original"
    run_study(_study(a.deck, None, original, a.target_games, a.seed + 2, a.player, opps, modes),
              original, target, workers=a.workers, progress=False)  # fmt: skip
    g = games(target)
    by_mode = {
        m: float(np.mean([r["share"] for o in opps for r in g[(m, a.deck, o)].values()]))
        for m in modes
    }
    p = float(np.mean(list(by_mode.values())))
    y = [r for m in modes for o in opps for r in g[(m, a.deck, o)].values()]
    band = [max(0.0, p - a.band_half), min(1.0, p + a.band_half)]
    log(f"original: {p:.1%} over {len(y)} games; band {band[0]:.1%}..{band[1]:.1%}")
    # 4. suggest on the planted copy
    cards = [card] + [f"{a.deck}/{s}" for s in ranked[1 : a.cards]]
    goal = goal_from_dict({
        "goal": {"deck": a.deck, "band": band, "opponents": opps, "modes": modes},
        "players": {"screen": a.player, "confirm": a.confirm_players.split(",")},
        "edits": {"cards": cards},
        "budget": {"games": a.games, "first_round": a.first_round, "rounds": a.rounds,
                   "confirm_games": a.confirm_games, "check_games": 20},
        "run": {"seed": a.seed, "content": str(content_dir)},
    }, load_content_dir(content_dir))  # fmt: skip
    res = run_suggest(goal, out / "suggest", workers=a.workers)
    e = plant[0]
    rev = None
    for s in res["suggestions"]:
        d = s["edit_detail"]
        if (
            d["card"] == e.card
            and d["kind"] == e.kind
            and d["where"] == e.where
            and (d["after"] == e.before)
        ):
            rev = s
    top = res["suggestions"][:3]
    # the plant's cost per mode: the original's share less the planted copy's (the race base)
    planted = res["steps"][0]["race"]["base"]
    cost = {m: by_mode[m] - planted[m]["mean"] for m in modes}
    within = [
        s["rank"]
        for s in top
        if s["status"] == "confirmed"
        and all(s["effect_lo"][m] <= cost[m] <= s["effect_hi"][m] for m in modes)
    ]
    record = {
        "plant": e.to_dict(),
        "original_share": p,
        "band": band,
        "reverse_rank": rev["rank"] if rev else None,
        "reverse_status": rev["status"] if rev else "not generated",
        "reverse_confirmed_effect": rev["effect"] if rev and rev.get("confirmation") else None,
        "plant_cost": cost,
        "top3_confirmed_holding_the_cost": within,
        "top3": [
            {
                "rank": s["rank"],
                "edit": s["edit"],
                "status": s["status"],
                "effect": s["effect"],
                "effect_lo": s["effect_lo"],
                "effect_hi": s["effect_hi"],
            }
            for s in top
        ],  # fmt: skip
        "found": bool((rev and rev["rank"] <= 3) or within),
        "games": res["games"],
        "command": "python -m benchmarks.suggest_planted " + " ".join(argv or sys.argv[1:]),
    }
    (out / "planted.json").write_text(json.dumps(record, indent=1, default=float))
    print(json.dumps(record, indent=1, default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main())
