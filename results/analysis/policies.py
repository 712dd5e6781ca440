"""The policies section's numbers: per mode, each pairing of policies (players), its record
over all deck matchups, as first and as second mover."""

from results import stats
from results.analysis.dataset import Dataset
from results.analysis.duel import RESULT_COUNTS
from results.analysis.groups import group_key, records_by


def policy_stats(d: Dataset, groups, first_player) -> dict:
    recs = records_by(
        d.rows(
            f"SELECT mode, pairing, first, {RESULT_COUNTS} "
            "FROM sg WHERE persp AND NOT sym GROUP BY ALL"
        ),
        "mode",
        "pairing",
        "first",
    )
    fp = {f["group"]: f for f in first_player}
    out = []
    modes = []
    for g in groups:
        if g["mode"] not in modes:
            modes.append(g["mode"])
    for mode in modes:
        pairs = []
        names = []
        for g in groups:
            if g["mode"] != mode:
                continue
            p, q = g["policies"]
            for x in (p, q):
                if x not in names:
                    names.append(x)
            if g["symmetric"]:
                first_mover = fp[g["id"]]["first_mover"]
                pairs.append(
                    {
                        "group": g["id"],
                        "policy": p,
                        "opponent": q,
                        "games": g["games"],
                        "self_play": True,
                        "record": None,
                        "first": first_mover,
                        "second": stats.flip(first_mover),
                    }
                )
            else:
                first = recs.get((*group_key(g), True))
                second = recs.get((*group_key(g), False))
                pairs.append(
                    {
                        "group": g["id"],
                        "policy": p,
                        "opponent": q,
                        "games": g["games"],
                        "self_play": False,
                        "record": stats.add_records(first, second),
                        "first": first,
                        "second": second,
                    }
                )
        stats.mark_holm([x["record"]["win_rate"] if x["record"] else None for x in pairs])
        out.append({"mode": mode, "policies": names, "pairings": pairs})
    return {
        "several": any(len(m["policies"]) > 1 for m in out),
        "note": "win rates over all deck matchups of the pairing; a policy against itself shows "
        "the first mover's results",
        "modes": out,
    }
