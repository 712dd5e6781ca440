"""Report sections on where Deathmatch points come from and how the players (policies) fare."""

from results import stats
from results.dataset import Dataset
from results.groups import group_key, records_by
from results.labels import POINT_SOURCES, SOURCE_LABELS
from results.section_duel import RESULT_COUNTS


def deathmatch_points(d: Dataset, groups) -> dict:
    dm = [g for g in groups if g["mode"] == "deathmatch"]
    cols = list(POINT_SOURCES) + ["score"]
    sel = ", ".join(
        f'avg({c}) AS "m_{c}", stddev_samp({c}) AS "s_{c}", sum({c}) AS "t_{c}"' for c in cols
    )
    other = "score - " + " - ".join(POINT_SOURCES)
    sel += f", avg({other}) AS m_other, stddev_samp({other}) AS s_other, sum({other}) AS t_other"
    by_deck = d.rows(
        f"SELECT mode, pairing, deck, policy, count(*) AS n, {sel} FROM sg "
        "WHERE mode = 'deathmatch' GROUP BY ALL"
    )
    overall = d.rows(
        f"SELECT mode, pairing, count(*) AS n, {sel} FROM sg WHERE mode = 'deathmatch' GROUP BY ALL"
    )
    sources = list(POINT_SOURCES) + ["other"]

    def summarize(r):
        tot = r["t_score"] or 0
        return {
            "seat_games": int(r["n"]),
            "score": stats.mean_ci(r["m_score"], r["s_score"], r["n"]),
            "sources": {
                s: {
                    "per_game": stats.mean_ci(r[f"m_{s}"], r[f"s_{s}"], r["n"]),
                    "total": int(r[f"t_{s}"] or 0),
                    "share": (r[f"t_{s}"] or 0) / tot if tot else None,
                }
                for s in sources
            },
        }

    out = []
    for g in dm:
        k = group_key(g)
        rows = []
        for deck in g["decks"]:
            for pol in g["policies"] if not g["symmetric"] else [g["policies"][0]]:
                r = next(
                    (
                        x
                        for x in by_deck
                        if (x["mode"], x["pairing"], x["deck"], x["policy"]) == (*k, deck, pol)
                    ),
                    None,
                )
                if r:
                    rows.append(
                        {"deck": deck, "policy": None if g["symmetric"] else pol} | summarize(r)
                    )
        ov = next(x for x in overall if (x["mode"], x["pairing"]) == k)
        out.append({"group": g["id"], "games": g["games"], "overall": summarize(ov), "decks": rows})
    return {"sources": sources, "labels": SOURCE_LABELS, "groups": out}


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


# --- games of three or four seats ------------------------------------------------------------
