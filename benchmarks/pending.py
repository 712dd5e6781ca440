"""When does a player leave an Etherweave being pending at the end, and was it stuck?

    python -m benchmarks.pending --player seer-r1 --games 6 \
        --out benchmarks/results/pending_seer-r1.json

Etherweave plays each other deck in both seats and both duel modes, ``--games`` games each,
the player in both seats (the games' full logs: sim.single_game). For the Etherweave seat:
its warps a game, the share of games it ends holding a pending being (charged 2 points),
and for those, how many of its own turns followed the warp that made that being pending. A
careful player may warp on its last turn (the warp's effect is worth more than the 2-point
charge that no later turn can avoid); a being left pending through many later turns was
never completed. Also the games lost by at most 2 points while holding one (the charge
decided them).
"""

import argparse
import json
import pathlib

from statsmodels.stats.proportion import proportion_confint

MODES = ("high-form", "deathmatch")
AFTER_CAP = 5  # "5": five or more own turns after the last warp


def analyse_game(s, ev, seat) -> dict:
    """The Etherweave seat's warps and pending being in one finished game."""
    from core import constants as K
    from core.layout import COLOUR, PENDING, SCORE, WINNER

    warps = [int(r[1]) for r in ev if r[0] == K.EV_WARP and r[2] == seat]
    own_turns = sorted({int(r[1]) for r in ev if r[0] == K.EV_TURN and r[2] == seat})
    pending = bool(s[PENDING + seat] >= 0)
    out = {"warps": len(warps), "pending": pending, "after": None, "lost_by_charge": False}
    if pending and warps:
        out["after"] = min(AFTER_CAP, sum(1 for t in own_turns if t > warps[-1]))
        me, them = int(s[SCORE + s[COLOUR + seat]]), int(s[SCORE + s[COLOUR + 1 - seat]])
        lost = int(s[WINNER]) != int(s[COLOUR + seat])
        out["lost_by_charge"] = bool(lost and them - me <= 2)
    return out


def run(player, games, seed=7, out=None) -> dict:
    from sim.content import load_content
    from sim.single_game import GameConfig, play_logged

    content = load_content()
    others = [d for d in content.decks if d != "etherweave"]
    result = {"player": player, "games_per_matchup": games, "seed": seed, "modes": {}}
    for mode in MODES:
        rows = []
        for other in others:
            for seat in (0, 1):
                decks = ["etherweave", other] if seat == 0 else [other, "etherweave"]
                for g in range(games):
                    cfg = GameConfig(decks, mode, seed, g, (player, player))
                    s, ev = play_logged(content, cfg)
                    rows.append(analyse_game(s, ev, seat))
        n = len(rows)
        held = [r for r in rows if r["pending"]]
        lo, hi = proportion_confint(len(held), n, method="wilson")
        after = {str(k): sum(1 for r in held if r["after"] == k) for k in range(AFTER_CAP + 1)}
        result["modes"][mode] = {
            "games": n,
            "warps_per_game": round(sum(r["warps"] for r in rows) / n, 3),
            "pending_at_end": len(held),
            "pending_share": round(len(held) / n, 4),
            "pending_interval": [round(lo, 4), round(hi, 4)],
            "own_turns_after_last_warp": after,
            "lost_by_at_most_2_while_pending": sum(r["lost_by_charge"] for r in held),
        }
    if out:
        pathlib.Path(out).write_text(json.dumps(result, indent=1) + "\n")
    return result


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--player", default="seer-r1")
    p.add_argument("--games", type=int, default=6, help="games per opponent deck, seat, mode")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--out")
    a = p.parse_args(argv)
    print(json.dumps(run(a.player, a.games, a.seed, a.out), indent=1))


if __name__ == "__main__":
    main()
