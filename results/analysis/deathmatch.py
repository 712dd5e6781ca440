"""The Deathmatch section's numbers: where the points come from, per group and per deck."""

from results import stats
from results.analysis.dataset import Dataset
from results.analysis.groups import group_key
from results.analysis.labels import POINT_SOURCES, SOURCE_LABELS


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
