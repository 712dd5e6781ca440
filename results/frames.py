"""The report's numbers (``results.analysis.analyze``) and a comparison's tables as
DataFrames, one row per thing counted, for notebooks (``sim.api``).

Each part of the report (results/parts.py) names its tidy frames, with short column names
(``win_rate``, ``lo``, ``hi``, ``n``...); any other list-valued part is flattened
generically, its nested keys joined with ``.``.
"""

from results import parts

POLARS_MISSING = (
    "backend='polars' needs polars, an optional extra of kalarite: "
    "pip install 'kalarite[polars]' (or pip install polars)"
)


def polars():
    """The polars module, which kalarite does not require (the ``polars`` extra): missing, an
    ImportError that says how to install it instead of a bare ModuleNotFoundError."""
    try:
        import polars as pl
    except ImportError as e:
        raise ImportError(POLARS_MISSING) from e
    return pl


def _rate(prefix: str, r) -> dict:
    r = r or {}
    return {
        f"{prefix}": r.get("rate"),
        f"{prefix}_lo": r.get("lo"),
        f"{prefix}_hi": r.get("hi"),
        f"{prefix}_n": r.get("n"),
    }


def _record(prefix: str, rec) -> dict:
    rec = rec or {}
    out = {
        f"{prefix}games": rec.get("games"),
        f"{prefix}wins": rec.get("wins"),
        f"{prefix}losses": rec.get("losses"),
        f"{prefix}draws": rec.get("draws"),
    }
    out.update(_rate(f"{prefix}win_rate", rec.get("win_rate")))
    return out


def _groups(s) -> dict:
    return {g["id"]: g for g in s.get("groups", [])}


def _gcols(g) -> dict:
    return {"group": g["label"], "mode": g["mode"], "policies": " vs ".join(g["policies"])}


def matchups_rows(s) -> list:
    gi = _groups(s)
    rows = []
    for m in s.get("matchups", []):
        g = gi[m["group"]]
        for c in m["cells"]:
            row = {**_gcols(g), "deck": c["deck"], "opp_deck": c["opp_deck"]}
            row["mirror"] = c["mirror"]
            row.update(_record("", c["combined"]))
            row.update(_rate("first_win_rate", (c["first"] or {}).get("win_rate")))
            row.update(_rate("second_win_rate", (c["second"] or {}).get("win_rate")))
            rows.append(row)
    return rows


def field_rows(s) -> list:
    gi = _groups(s)
    rows = []
    for f in s.get("deck_vs_field", []):
        g = gi[f["group"]]
        for r in f["rows"]:
            row = {**_gcols(g), "deck": r["deck"], **_record("", r["combined"])}
            row["significant"] = bool(r["combined"]["win_rate"].get("significant"))
            rows.append(row)
    return rows


def first_player_rows(s) -> list:
    gi = _groups(s)
    return [
        {**_gcols(gi[f["group"]]), **_record("first_mover_", f["first_mover"])}
        for f in s.get("first_player", [])
    ]


def task_rows(s) -> list:
    gi = _groups(s)
    rows = []
    for tg in (s.get("tasks") or {}).get("groups", []):
        g = gi[tg["group"]]
        for t in tg["tasks"]:
            row = {**_gcols(g), "task": t["task"], "claims": t["claims"]}
            row.update(_rate("claim_rate", t["claim_rate"]))
            if "shown" in t:
                row.update(_rate("shown", t["shown"]))
                row.update(_rate("claimed_given_shown", t["claimed_given_shown"]))
                row["hard"], row["easy"] = t["hard"], t["easy"]
            rows.append(row)
    return rows


def card_rows(s) -> list:
    gi = _groups(s)
    rows = []
    for cg in (s.get("cards") or {}).get("groups", []):
        g = gi[cg["group"]]
        for c in cg["cards"]:
            row = {**_gcols(g), "side": cg.get("side"), "card": c["card"], "deck": c["deck"]}
            row["seat_games"] = c["seat_games"]
            row.update(_rate("played", c.get("played")))
            row.update(_rate("win_when_played", (c.get("when_played") or {}).get("win_rate")))
            row.update(
                _rate("win_when_not_played", (c.get("when_not_played") or {}).get("win_rate"))
            )
            rows.append(row)
    return rows


def mechanic_rows(s) -> list:
    """One row per expansion deck and group: its mechanic use per game (summary ``mechanics``;
    none for a dataset made before the telemetry)."""
    g = _groups(s)
    rows = []
    for deck, m in (s.get("mechanics") or {}).items():
        for gid, v in m.get("by_group", {}).items():
            rows.append({**_gcols(g[gid]), "deck": deck, **v})
    return rows


def multiplayer_rows(s) -> list:
    """One row per multiplayer group (summary ``multiplayer``)."""
    return (s.get("multiplayer") or {}).get("groups") or []


SKIP = {"run", "methods", "data", "groups", "warnings", "missing_data"}  # not parts


def _to(rows: list, backend: str):
    import pandas as pd

    df = pd.json_normalize(rows, sep=".") if rows else pd.DataFrame()
    if backend == "pandas":
        return df
    if backend == "polars":
        return polars().from_pandas(df)
    raise ValueError(f"backend must be pandas or polars, got {backend!r}")


def summary_frames(s: dict, backend: str = "pandas", registry=None) -> dict:
    """A frame per part of the report (results/parts.py): its tidy tables, else the part's
    rows flattened (a list of records, or a dict's ``groups``)."""
    s = parts.current(s)
    out = {}
    for part in registry or parts.PARTS:
        if part.tidy:
            for name, _ in part.tidy:
                out[name] = _to(part.function(name)(s), backend)
            continue
        value = s.get(part.key) if part.key not in SKIP else None
        if part.key == "key_findings":
            value = value or []
        if isinstance(value, list) and all(isinstance(x, dict) for x in value):
            out[part.key] = _to(value, backend)
        elif isinstance(value, dict) and isinstance(value.get("groups"), list):
            out[part.key] = _to(value["groups"], backend)
    return out


def compare_frames(result: dict, backend: str = "pandas") -> dict:
    """The comparison's tables: every independent-samples table and, where games pair up,
    ``paired_matchups``, ``paired_first_player``, ``paired_turns``."""
    out = {}
    for name, rows in (result.get("tables") or {}).items():
        flat = []
        for r in rows:
            d = r.get("diff") or {}
            flat.append(
                {
                    "label": r["label"],
                    "metric": r.get("metric"),
                    **_rate("a", r["a"]),
                    **_rate("b", r["b"]),
                    "diff": d.get("diff"),
                    "diff_lo": d.get("lo"),
                    "diff_hi": d.get("hi"),
                    "p": d.get("p_value"),
                    "p_holm": d.get("p_holm"),
                    "significant": r["significant"],
                }
            )
        out[name] = _to(flat, backend)
    paired = result.get("paired") or {}
    for name, rows in (paired.get("tables") or {}).items() if paired.get("paired") else ():
        flat = []
        for r in rows:
            d = r.get("diff") or {}
            flat.append(
                {
                    "label": r["label"],
                    "metric": r["metric"],
                    "pairs": r["pairs"],
                    "a_mean": r["a_mean"],
                    "b_mean": r["b_mean"],
                    **{k: d.get(k) for k in ("diff", "lo", "hi", "p_value", "p_holm")},
                    "unpaired_lo": d.get("unpaired_lo"),
                    "unpaired_hi": d.get("unpaired_hi"),
                    "width_ratio": d.get("width_ratio"),
                    "significant": r["significant"],
                }
            )
        out[f"paired_{name}"] = _to(flat, backend)
    return out
