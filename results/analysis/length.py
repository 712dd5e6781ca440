"""Report sections on how long two-seat games last and why they ended."""

import math

from results import stats
from results.analysis.dataset import Dataset
from results.analysis.groups import group_key
from results.analysis.labels import END_REASONS


def _quantiles(d: Dataset, col: str, by: str) -> dict:
    rows = d.rows(
        f"SELECT {by}, count(*) AS n, avg({col}) AS mean, stddev_samp({col}) AS sd, "
        f"min({col}) AS min, max({col}) AS max, "
        f"quantile_cont({col}, [0.1, 0.25, 0.5, 0.75, 0.9]) AS q FROM g GROUP BY ALL"
    )
    keys = [k.strip() for k in by.split(",")]
    out = {}
    for r in rows:
        q = [float(x) for x in r["q"]]
        out[tuple(r[k] for k in keys)] = {
            "games": int(r["n"]),
            "mean": stats.mean_ci(r["mean"], r["sd"], r["n"]),
            "sd": None if r["sd"] is None or math.isnan(r["sd"]) else float(r["sd"]),
            "min": int(r["min"]),
            "p10": q[0],
            "p25": q[1],
            "median": q[2],
            "p75": q[3],
            "p90": q[4],
            "max": int(r["max"]),
        }
    return out


def game_length_stats(d: Dataset, groups) -> list:
    out = []
    q = {c: _quantiles(d, c, "mode, pairing") for c in ("turns", "actions")}
    qm = {c: _quantiles(d, c, "mode, pairing, matchup, policies") for c in ("turns", "actions")}
    hist = {}
    for c in ("turns", "actions"):
        for r in d.rows(
            f"SELECT mode, pairing, {c} AS v, count(*) AS n FROM g GROUP BY ALL ORDER BY ALL"
        ):
            hist.setdefault((c, r["mode"], r["pairing"]), []).append([int(r["v"]), int(r["n"])])
    for g in groups:
        k = group_key(g)
        mus = sorted({km[2:] for km in qm["turns"] if km[:2] == k})
        out.append(
            {
                "group": g["id"],
                "games": g["games"],
                "turns": q["turns"][k],
                "actions": q["actions"][k],
                "histogram": {c: hist.get((c, *k), []) for c in ("turns", "actions")},
                "matchups": [
                    {
                        "matchup": m,
                        "policies": p,
                        "turns": qm["turns"][(*k, m, p)],
                        "actions": qm["actions"][(*k, m, p)],
                    }
                    for m, p in mus
                ],
            }
        )
    return out


def end_reason_stats(d: Dataset, groups) -> list:
    rows = d.rows(
        "SELECT mode, pairing, matchup, policies, end_reason, count(*) AS n FROM g GROUP BY ALL"
    )
    extra = sorted({r["end_reason"] for r in rows} - set(END_REASONS))
    reasons = list(END_REASONS) + extra
    out = []
    for g in groups:
        mine = [r for r in rows if (r["mode"], r["pairing"]) == group_key(g)]

        def table(rs):
            n = sum(r["n"] for r in rs)
            by = {}
            for r in rs:
                by[r["end_reason"]] = by.get(r["end_reason"], 0) + r["n"]
            return {"games": n, "reasons": {e: stats.proportion(by.get(e, 0), n) for e in reasons}}

        mus = sorted({(r["matchup"], r["policies"]) for r in mine})
        out.append(
            {
                "group": g["id"],
                "games": g["games"],
                "reasons": reasons,
                "overall": table(mine),
                "matchups": [
                    {"matchup": m, "policies": p}
                    | table([r for r in mine if (r["matchup"], r["policies"]) == (m, p)])
                    for m, p in mus
                ],
            }
        )
    return out
