"""The numbers of the balance report, from a study's dataset (results/README.md).

``analyze(run_dir)`` loads a finished study (DuckDB over the pyarrow datasets of
``results.store``), aggregates it and returns a JSON-ready dict: every number the report shows
(``summary.json`` is this dict). Intervals and tests come from ``results.stats`` (statsmodels,
scipy); ``results/REPORT.md`` says what each section means.

Conventions:

- A *group* is one game mode and one policy pairing (the players of the two seats, unordered:
  ``random``/``greedy`` and ``greedy``/``random`` are the same experiment since the first
  player alternates). Every section is computed per group.
- A pairing of two different policies P and Q is read from P's side (P = the seat-0 policy of
  the pairing's first entry in the spec): deck matrices give P's deck's results against Q's
  deck. A pairing of one policy with itself is read from each deck's side; its mirror match
  (a deck against itself) has no side, so its cell gives the first mover's results.
- A win rate is the share of *decisive* games won (draws, i.e. shared wins, are left out of it)
  and the draw rate is given beside it, over all games.
- Games with an engine error are left out of every table (their count is a warning); games
  whose event log overflowed (``log_lost > 0``) are left out of the task and card tables.
- Every section above is about two-seat games (``n_players = 2``: high-form, deathmatch,
  new-player). Games of three or four seats (melee, team-high-form, team-deathmatch) have
  their own section, ``multiplayer`` (``_multiplayer``): a group there is one mode, one seat
  count and one list of seat policies; the win rate of a deck, a turn position or a team
  composition is over decisive games (shared wins left out, shown as the shared rate) and is
  tested against the fair share (1/n in melee, 1/2 in team play).
"""

import json
import math
import pathlib

import duckdb
import pyarrow as pa

from results import stats
from results.decisiveness import decisiveness, weak_play_warnings
from results.schema import METADATA_PREFIX, PARTITION_COLUMNS, SCHEMAS, TABLES, TEAM_MODES
from results.sensitivity import sensitivity
from results.store import MANIFEST, open_table, read_manifest

FORMAT = 1
MODE_LABELS = {
    "high-form": "High Form",
    "deathmatch": "Deathmatch",
    "new-player": "New Player",
    "melee": "Melee",
    "team-high-form": "Team High Form",
    "team-deathmatch": "Team Deathmatch",
}
POSITION_LABELS = ("1st player", "2nd player", "3rd player", "4th player")
END_REASONS = ("score", "deck", "turn-cap")
END_LABELS = {"score": "score reached", "deck": "deck exhausted", "turn-cap": "turn cap"}
CARD_EVENTS = ("drawn", "summoned", "discarded", "returned", "flare-played")
POINT_SOURCES = ("pts_destruction", "pts_legend", "pts_flare", "pts_task")
SOURCE_LABELS = {
    "pts_destruction": "destruction",
    "pts_legend": "legends",
    "pts_flare": "opponent's flares",
    "pts_task": "tasks",
    "other": "other",
}
SHARED_DECKS = ("legends", "flares")  # cards any seat may hold whatever its deck
RARE_CLAIM = 0.01  # tasks claimed in fewer games than this are "rarely claimed"
TASK_DISPLAY_NOTE = (
    "The dataset records the tasks claimed, not the tasks on display (it was made before the "
    "games table had the tasks_shown column): how often each task was on display is not "
    "recorded, so a low claim rate cannot be split into 'rarely shown' and 'rarely claimed "
    "when shown'. Claim rates below are per game played."
)
TASK_SHOWN_NOTE = (
    "A task is shown in a game when it was on display at some point: one of the 3 available "
    "tasks or the face-up next task (games.tasks_shown). The claim rate given shown is the "
    "share of the games in which the task was shown in which it was claimed: a task shown "
    "often but rarely claimed when shown is hard to achieve (for these players); a high claim "
    "rate given shown marks an easy task. A low claim rate per game may also just mean the task "
    "is rarely shown."
)
HARD_GIVEN_SHOWN = 0.05  # "too hard": claimed in < 5% of the games shown (upper bound of CI)
EASY_GIVEN_SHOWN = 0.5  # "too easy": claimed in > 50% of the games shown (lower bound of CI)
CARD_NOTE = (
    "Win rate of the games in which the card was played (summoned, or played as a flare) vs "
    "those in which it was not, among the seat-games that could hold it. This is an "
    "association, not a causal effect: a card is played more often in games that go well (or "
    "last longer) for other reasons; flares, which may be played only when the opponent has "
    "more pieces on the board, are played in games that are going badly."
)


class DatasetError(ValueError):
    """A missing, unreadable or incomplete dataset: one line, exit status 2."""


# --- loading ---------------------------------------------------------------------------------


def _has_files(path: pathlib.Path) -> bool:
    return path.is_dir() and any(
        p.suffix == ".parquet" and not p.name.startswith(".") for p in path.rglob("*.parquet")
    )


def _empty_table(table: str) -> pa.Table:
    schema = SCHEMAS[table]
    for c in PARTITION_COLUMNS:
        schema = schema.append(pa.field(c, pa.string()))
    return schema.empty_table()


class Dataset:
    """A study's manifest and its three tables, registered in an in-memory DuckDB."""

    def __init__(self, root, allow_incomplete: bool = False):
        self.root = pathlib.Path(root)
        root = self.root
        if not root.exists():
            raise DatasetError(f"no dataset at {str(root)!r}")
        if not root.is_dir():
            raise DatasetError(f"{str(root)!r} is not a dataset directory")
        if not (root / MANIFEST).is_file():
            raise DatasetError(
                f"{str(root)!r} holds no kalarite study ({MANIFEST} is missing); "
                "run `kalarite study` or `kalarite simulate` with --out there first"
            )
        try:
            m = read_manifest(root)
        except (OSError, ValueError) as e:
            raise DatasetError(f"cannot read {root / MANIFEST}: {e}") from None
        if not isinstance(m, dict) or m.get("format") != FORMAT or "study" not in m:
            raise DatasetError(f"{root / MANIFEST} is not a kalarite study manifest (format 1)")
        self.manifest = m
        self.complete = m.get("status") == "complete"
        if not self.complete and not allow_incomplete:
            raise DatasetError(
                f"the study in {str(root)!r} is incomplete (status {m.get('status')!r}); run "
                "the same study command again to finish it, or pass --allow-incomplete"
            )
        if not _has_files(root / "games"):
            raise DatasetError(f"the study in {str(root)!r} has no games (games/ is empty)")
        self.con = duckdb.connect()
        self.games_metadata = {}  # kalarite.* Parquet metadata of the games table
        for t in TABLES:
            if _has_files(root / t):
                try:
                    data = open_table(root, t)
                except (OSError, pa.ArrowException) as e:
                    raise DatasetError(f"cannot read {root / t}: {e}") from None
            elif t != "games" and not self.complete:
                data = _empty_table(t)
            else:
                raise DatasetError(f"the study in {str(root)!r} is incomplete: {t}/ is missing")
            self.con.register(f"{t}_raw", data)
            if t == "games":
                md = data.schema.metadata or {}
                self.games_metadata = {k.decode(): v.decode() for k, v in md.items()}
        self._check_counts(allow_incomplete)

    def rows(self, sql: str, params=None) -> list:
        """The rows of a query as dicts."""
        try:
            cur = self.con.execute(sql, params or [])
            names = [d[0] for d in cur.description]
            return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
        except duckdb.Error as e:
            raise DatasetError(f"cannot read the dataset in {str(self.root)!r}: {e}") from None

    def execute(self, sql: str):
        try:
            self.con.execute(sql).fetchall()
        except duckdb.Error as e:
            raise DatasetError(f"cannot read the dataset in {str(self.root)!r}: {e}") from None

    def _check_counts(self, allow_incomplete):
        have = {
            (r["mode"], r["matchup"], r["policies"]): (r["n"], r["distinct_n"])
            for r in self.rows(
                "SELECT mode, matchup, policies, count(*) AS n, "
                "count(DISTINCT game_index) AS distinct_n FROM games_raw GROUP BY ALL"
            )
        }
        self.games_present = sum(n for n, _ in have.values())
        self.games_expected = int(self.manifest.get("games") or 0)
        for key, (n, d) in have.items():
            if n != d:
                raise DatasetError(
                    f"the dataset in {str(self.root)!r} holds a game twice in {'/'.join(key)}"
                )
        if allow_incomplete:
            return
        for mu in self.manifest.get("matchups", []):
            key = (mu["mode"], mu["matchup"], mu["policies"])
            n = have.get(key, (0, 0))[0]
            if n != mu["games"]:
                raise DatasetError(
                    f"the dataset in {str(self.root)!r} is incomplete: {'/'.join(key)} has "
                    f"{n} of {mu['games']} games"
                )


# --- groups: mode x policy pairing -----------------------------------------------------------


def _spec_order(manifest) -> tuple:
    study = manifest["study"]
    decks = []
    for pair in study.get("decks", []):
        for d in pair:
            if d not in decks:
                decks.append(d)
    pairings = []  # (P, Q) oriented as first seen in the spec
    for pair in study.get("policies", []):
        if len(pair) > 2:  # a policy per seat of a game of 3 or 4 seats
            continue
        p, q = pair[0], pair[-1]
        if not any({p, q} == {a, b} for a, b in pairings):
            pairings.append((p, q))
    return decks, pairings


def _pairing_label(p, q) -> str:
    return f"{p} vs {q}"


def _two_seat(d: Dataset, alias: str = "") -> str:
    """SQL condition of the two-seat games (every game of a dataset made before the
    ``n_players`` column)."""
    return f"{alias}n_players = 2" if _has_column(d, "games_raw", "n_players") else "TRUE"


def _register_groups(d: Dataset) -> list:
    """The groups of the dataset's two-seat games, and the ``g`` (games) and ``sg``
    (seat-games) tables of those games."""
    decks_order, pairings = _spec_order(d.manifest)
    modes_order = list(d.manifest["study"].get("modes", []))
    two = _two_seat(d)
    seen = d.rows(
        f"SELECT DISTINCT mode, seat0_policy, seat1_policy FROM games_raw WHERE {two} ORDER BY ALL"
    )
    for r in seen:
        a, b = r["seat0_policy"], r["seat1_policy"]
        if not any({a, b} == {p, q} for p, q in pairings):
            pairings.append((a, b))
        if r["mode"] not in modes_order:
            modes_order.append(r["mode"])
    rows = []
    for i, (p, q) in enumerate(pairings):
        for a, b in {(p, q), (q, p)}:
            rows.append(
                {"seat0_policy": a, "seat1_policy": b, "pairing": i, "p_policy": p, "sym": p == q}
            )
    pairing_schema = pa.schema(
        [
            ("seat0_policy", pa.string()),
            ("seat1_policy", pa.string()),
            ("pairing", pa.int64()),
            ("p_policy", pa.string()),
            ("sym", pa.bool_()),
        ]
    )  # explicit: a study without two-seat games has no pairing
    d.con.register("pairings_raw", pa.Table.from_pylist(rows, schema=pairing_schema))
    d.execute(
        "CREATE TEMP TABLE g AS SELECT gr.*, p.pairing, p.p_policy, p.sym "
        "FROM games_raw gr JOIN pairings_raw p USING (seat0_policy, seat1_policy) "
        f"WHERE gr.error = 0 AND {_two_seat(d, 'gr.')}"
    )
    present_cols = _columns(d, "games_raw")
    seat_cols = [f.name[6:] for f in SCHEMAS["games"] if f.name.startswith("seat0_")]
    seat_cols = [
        c for c in seat_cols if c not in ("deck", "policy") and f"seat0_{c}" in present_cols
    ]
    selects = []
    for s in range(2):
        o = 1 - s
        cols = ", ".join(f"seat{s}_{c} AS {c}" for c in seat_cols)
        selects.append(
            f"SELECT mode, matchup, policies, game_index, {s}::TINYINT AS seat, pairing, sym, "
            f"seat{s}_deck AS deck, seat{o}_deck AS opp_deck, seat{s}_policy AS policy, "
            f"seat{o}_policy AS opp_policy, (sym OR seat{s}_policy = p_policy) AS persp, "
            f"first_seat = {s} AS first, "
            f"CASE WHEN winner < 0 THEN 'draw' WHEN winner = {s} THEN 'win' ELSE 'loss' END "
            f"AS result, turns, actions, end_reason, log_lost > 0 AS log_lost, {cols}, "
            f"seat{o}_score AS opp_score FROM g"
        )
    d.execute("CREATE TEMP TABLE sg AS " + " UNION ALL ".join(selects))

    groups = []
    present = d.rows(
        "SELECT mode, pairing, count(*) AS games, count(DISTINCT matchup || '/' || policies) "
        "AS matchups, list(DISTINCT seat0_deck) AS d0, list(DISTINCT seat1_deck) AS d1 "
        "FROM g GROUP BY ALL"
    )
    for r in present:
        p, q = pairings[r["pairing"]]
        decks = set(r["d0"]) | set(r["d1"])
        order = [x for x in decks_order if x in decks] + sorted(decks - set(decks_order))
        groups.append(
            {
                "id": f"{r['mode']}__{p}-vs-{q}".replace(":", ".").replace("=", "_"),
                "mode": r["mode"],
                "mode_label": MODE_LABELS.get(r["mode"], r["mode"]),
                "pairing": r["pairing"],
                "policies": [p, q],
                "symmetric": p == q,
                "label": f"{MODE_LABELS.get(r['mode'], r['mode'])} · {_pairing_label(p, q)}",
                "decks": order,
                "games": int(r["games"]),
                "matchups": int(r["matchups"]),
            }
        )
    mode_rank = {m: i for i, m in enumerate(modes_order)}
    groups.sort(key=lambda g: (mode_rank.get(g["mode"], 99), g["pairing"]))
    return groups


def _key(g) -> tuple:
    return (g["mode"], g["pairing"])


def _records(rows, *keys) -> dict:
    """Win records keyed by ``keys`` from rows with wins/losses/draws columns."""
    out = {}
    for r in rows:
        out[tuple(r[k] for k in keys)] = stats.win_record(r["wins"], r["losses"], r["draws"])
    return out


_COUNTS = (
    "count(*) FILTER (WHERE result = 'win') AS wins, "
    "count(*) FILTER (WHERE result = 'loss') AS losses, "
    "count(*) FILTER (WHERE result = 'draw') AS draws"
)


# --- sections --------------------------------------------------------------------------------


def _matchups(d: Dataset, groups) -> list:
    """Deck vs deck matrices with first/second/combined cells."""
    recs = _records(
        d.rows(
            f"SELECT mode, pairing, deck, opp_deck, first, {_COUNTS} "
            "FROM sg WHERE persp GROUP BY ALL"
        ),
        "mode",
        "pairing",
        "deck",
        "opp_deck",
        "first",
    )
    out = []
    for g in groups:
        cells = []
        for a in g["decks"]:
            for b in g["decks"]:
                first = recs.get((*_key(g), a, b, True))
                second = recs.get((*_key(g), a, b, False))
                if first is None and second is None:
                    continue
                mirror = g["symmetric"] and a == b
                cell = {
                    "deck": a,
                    "opp_deck": b,
                    "mirror": mirror,
                    "first": first,
                    "second": second,
                    # a same-policy mirror match has no side: its cell is the first mover's
                    "combined": first if mirror else stats.add_records(first, second),
                    "combined_is_first_mover": mirror,
                }
                cells.append(cell)
        # Holm over the cells that are separate experiments (each pair once)
        family, seen = [], set()
        for c in cells:
            pair = (
                frozenset((c["deck"], c["opp_deck"]))
                if g["symmetric"]
                else (c["deck"], c["opp_deck"])
            )
            if pair in seen:
                continue
            seen.add(pair)
            family.append(c["combined"]["win_rate"])
        stats.mark_holm(family)
        for c in cells:  # the mirrored cell of a symmetric pairing shares the decision
            wr = c["combined"]["win_rate"]
            if "p_holm" not in wr:
                twin = next(
                    x["combined"]["win_rate"]
                    for x in cells
                    if x["deck"] == c["opp_deck"] and x["opp_deck"] == c["deck"]
                )
                wr["p_holm"], wr["significant"] = twin.get("p_holm"), twin.get("significant")
        out.append(
            {
                "group": g["id"],
                "games": g["games"],
                "decks": g["decks"],
                "perspective": (
                    "row deck's results against the column deck"
                    if g["symmetric"]
                    else f"row deck played by {g['policies'][0]} against the column deck "
                    f"played by {g['policies'][1]}"
                ),
                "cells": cells,
            }
        )
    return out


def _deck_vs_field(d: Dataset, groups) -> list:
    recs = _records(
        d.rows(
            f"SELECT mode, pairing, deck, first, {_COUNTS} FROM sg "
            "WHERE persp AND deck <> opp_deck GROUP BY ALL"
        ),
        "mode",
        "pairing",
        "deck",
        "first",
    )
    out = []
    for g in groups:
        rows = []
        for deck in g["decks"]:
            first = recs.get((*_key(g), deck, True))
            second = recs.get((*_key(g), deck, False))
            if first is None and second is None:
                continue
            combined = stats.add_records(first, second)
            adv = None
            if first and second:
                adv = stats.difference(
                    first["wins"], first["decisive"], second["wins"], second["decisive"]
                )
            rows.append(
                {
                    "deck": deck,
                    "combined": combined,
                    "first": first,
                    "second": second,
                    "first_minus_second": adv,
                }
            )
        stats.mark_holm([r["combined"]["win_rate"] for r in rows])
        stats.mark_holm([r["first_minus_second"] for r in rows])
        out.append(
            {
                "group": g["id"],
                "games": sum(r["combined"]["games"] for r in rows),
                "note": "each deck against every other deck, mirror matches left out"
                + ("" if g["symmetric"] else f"; decks played by {g['policies'][0]}"),
                "rows": rows,
            }
        )
    return out


def _first_player(d: Dataset, groups, field) -> list:
    rows = d.rows(
        "SELECT mode, pairing, count(*) FILTER (WHERE winner = first_seat) AS wins, "
        "count(*) FILTER (WHERE winner >= 0 AND winner <> first_seat) AS losses, "
        "count(*) FILTER (WHERE winner < 0) AS draws FROM g GROUP BY ALL"
    )
    overall = _records(rows, "mode", "pairing")
    per_mu = _records(
        d.rows(
            "SELECT mode, pairing, matchup, policies, "
            "count(*) FILTER (WHERE winner = first_seat) AS wins, "
            "count(*) FILTER (WHERE winner >= 0 AND winner <> first_seat) AS losses, "
            "count(*) FILTER (WHERE winner < 0) AS draws FROM g GROUP BY ALL ORDER BY ALL"
        ),
        "mode",
        "pairing",
        "matchup",
        "policies",
    )
    out = []
    field_by = {f["group"]: f for f in field}
    for g in groups:
        matchups = [
            {"matchup": k[2], "policies": k[3], "first_mover": rec}
            for k, rec in per_mu.items()
            if k[:2] == _key(g)
        ]
        stats.mark_holm([m["first_mover"]["win_rate"] for m in matchups])
        per_deck = [
            {
                "deck": r["deck"],
                "first": r["first"],
                "second": r["second"],
                "first_minus_second": r["first_minus_second"],
            }
            for r in field_by[g["id"]]["rows"]
        ]
        out.append(
            {
                "group": g["id"],
                "games": g["games"],
                "first_mover": overall[_key(g)],
                "matchups": matchups,
                "per_deck": per_deck,
            }
        )
    return out


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


def _game_length(d: Dataset, groups) -> list:
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
        k = _key(g)
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


def _end_reasons(d: Dataset, groups) -> list:
    rows = d.rows(
        "SELECT mode, pairing, matchup, policies, end_reason, count(*) AS n FROM g GROUP BY ALL"
    )
    extra = sorted({r["end_reason"] for r in rows} - set(END_REASONS))
    reasons = list(END_REASONS) + extra
    out = []
    for g in groups:
        mine = [r for r in rows if (r["mode"], r["pairing"]) == _key(g)]

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


def _content(manifest):
    """The current game content if it is the content the study was played with, else None."""
    try:
        from sim.content import load_content

        c = load_content()
    except Exception:  # content that does not load is only a missing list of names
        return None
    return c if c.content_hash == manifest.get("content_hash") else None


def _columns(d: Dataset, table: str) -> set:
    return {r["column_name"] for r in d.rows(f"DESCRIBE SELECT * FROM {table}")}


def _has_column(d: Dataset, table: str, column: str) -> bool:
    return column in _columns(d, table)


def _task_names(d: Dataset, content) -> tuple:
    """The task names in bit order of ``games.tasks_shown``, and where they came from: the
    manifest or the Parquet metadata (written with the study), else the current content."""
    names = d.manifest.get("task_names")
    source = "manifest"
    if not names and f"{METADATA_PREFIX}task_names" in d.games_metadata:
        try:
            names = json.loads(d.games_metadata[f"{METADATA_PREFIX}task_names"])
        except ValueError:
            names = None
        source = "parquet metadata"
    if isinstance(names, list) and names and all(isinstance(x, str) for x in names):
        return list(names), source
    if content is not None:
        return list(content.task_names), "content"
    try:
        from sim.content import load_content

        return list(load_content().task_names), "current content (changed since the study)"
    except Exception:
        return [], None


def _tasks(d: Dataset, groups, content) -> dict:
    hf = [g for g in groups if g["mode"] == "high-form"]
    bit_names, names_source = _task_names(d, content)
    display = _has_column(d, "games_raw", "tasks_shown") and bool(bit_names)
    if display:
        d.con.register(
            "task_bits",
            pa.Table.from_pylist([{"task": t, "bit": i} for i, t in enumerate(bit_names)]),
        )
        shown_bit = "((g.tasks_shown >> b.bit) & 1) = 1"
        claimed_shown = (
            "count(DISTINCT (t.matchup, t.policies, t.game_index)) "
            f"FILTER (WHERE {shown_bit}) AS games_claimed_shown"
        )
        side_shown = f"count(*) FILTER (WHERE {shown_bit}) AS claims_shown"
        join_bits = " LEFT JOIN task_bits b ON b.task = t.task"
    else:
        claimed_shown = "NULL AS games_claimed_shown"
        side_shown = "NULL AS claims_shown"
        join_bits = ""
    per_task = d.rows(
        "SELECT g.mode, g.pairing, t.task, count(*) AS claims, "
        "count(DISTINCT (t.matchup, t.policies, t.game_index)) AS games_claimed, "
        f"{claimed_shown}, "
        "avg(t.points) AS points_mean, min(t.points) AS points_min, max(t.points) AS points_max, "
        "avg(t.turn) AS turn_mean, stddev_samp(t.turn) AS turn_sd, "
        "quantile_cont(t.turn, [0.1, 0.5, 0.9]) AS turn_q, min(t.turn) AS turn_min, "
        "max(t.turn) AS turn_max "
        f"FROM task_claims_raw t JOIN g USING (mode, matchup, policies, game_index){join_bits} "
        "WHERE g.log_lost = 0 GROUP BY ALL"
    )
    by_side = d.rows(
        f"SELECT s.mode, s.pairing, t.task, s.deck, s.policy, count(*) AS claims, {side_shown} "
        "FROM task_claims_raw t JOIN sg s USING (mode, matchup, policies, game_index, seat) "
        + (
            "JOIN g USING (mode, matchup, policies, game_index) LEFT JOIN task_bits b "
            "ON b.task = t.task "
            if display
            else ""
        )
        + "WHERE NOT s.log_lost GROUP BY ALL"
    )
    side_n = d.rows(
        "SELECT mode, pairing, deck, policy, count(*) AS n FROM sg WHERE NOT log_lost GROUP BY ALL"
    )
    shown_n, side_shown_n = {}, {}
    if display:
        for r in d.rows(
            "SELECT g.mode, g.pairing, b.task, count(*) AS n FROM g JOIN task_bits b "
            f"ON {shown_bit} WHERE g.log_lost = 0 GROUP BY ALL"
        ):
            shown_n[(r["mode"], r["pairing"], r["task"])] = int(r["n"])
        for r in d.rows(
            "SELECT s.mode, s.pairing, b.task, s.deck, s.policy, count(*) AS n FROM sg s "
            "JOIN g USING (mode, matchup, policies, game_index) JOIN task_bits b "
            f"ON {shown_bit} WHERE NOT s.log_lost GROUP BY ALL"
        ):
            side_shown_n[(r["mode"], r["pairing"], r["task"], r["deck"], r["policy"])] = int(r["n"])
    games_n = {
        (r["mode"], r["pairing"]): r
        for r in d.rows(
            "SELECT mode, pairing, count(*) AS n, sum(seat0_tasks + seat1_tasks) AS claims, "
            "count(*) FILTER (WHERE seat0_tasks + seat1_tasks = 0) AS no_claim, "
            "avg(seat0_tasks + seat1_tasks) AS claims_mean, "
            "stddev_samp(seat0_tasks + seat1_tasks) AS claims_sd, "
            + (
                "avg(bit_count(tasks_shown)) AS shown_mean, "
                "stddev_samp(bit_count(tasks_shown)) AS shown_sd "
                if display
                else "NULL AS shown_mean, NULL AS shown_sd "
            )
            + "FROM g WHERE log_lost = 0 GROUP BY ALL"
        )
    }
    out = []
    for g in hf:
        k = _key(g)
        gn = games_n.get(
            k,
            {
                "n": 0,
                "claims": 0,
                "no_claim": 0,
                "claims_mean": None,
                "claims_sd": None,
                "shown_mean": None,
                "shown_sd": None,
            },
        )
        n = int(gn["n"])
        decks = g["decks"]
        pols = [] if g["symmetric"] else list(g["policies"])
        deck_n = {}
        pol_n = {}
        for r in side_n:
            if (r["mode"], r["pairing"]) == k:
                deck_n[r["deck"]] = deck_n.get(r["deck"], 0) + r["n"]
                pol_n[r["policy"]] = pol_n.get(r["policy"], 0) + r["n"]
        mine = {r["task"]: r for r in per_task if (r["mode"], r["pairing"]) == k}
        names = list(bit_names) if (display or content is not None) else []
        names += sorted(set(mine) - set(names))
        rows = []
        for task in names:
            r = mine.get(task)
            claims_deck, claims_pol = {}, {}
            cs_deck, cs_pol, sh_deck, sh_pol = {}, {}, {}, {}
            for s in by_side:
                if (s["mode"], s["pairing"], s["task"]) == (*k, task):
                    claims_deck[s["deck"]] = claims_deck.get(s["deck"], 0) + s["claims"]
                    claims_pol[s["policy"]] = claims_pol.get(s["policy"], 0) + s["claims"]
                    if display:
                        cs = int(s["claims_shown"] or 0)
                        cs_deck[s["deck"]] = cs_deck.get(s["deck"], 0) + cs
                        cs_pol[s["policy"]] = cs_pol.get(s["policy"], 0) + cs
            for (mo, pa_, t_, dk, po), m in side_shown_n.items():
                if (mo, pa_, t_) == (*k, task):
                    sh_deck[dk] = sh_deck.get(dk, 0) + m
                    sh_pol[po] = sh_pol.get(po, 0) + m
            claimed = int(r["games_claimed"]) if r else 0
            rate = stats.proportion(claimed, n)
            row = {
                "task": task,
                "claims": int(r["claims"]) if r else 0,
                "claim_rate": rate,
                "never_claimed": claimed == 0,
                "rarely_claimed": rate["rate"] is not None and 0 < rate["rate"] < RARE_CLAIM,
                "by_deck": {
                    dk: stats.proportion(claims_deck.get(dk, 0), deck_n.get(dk, 0)) for dk in decks
                },
                "by_policy": {
                    p: stats.proportion(claims_pol.get(p, 0), pol_n.get(p, 0)) for p in pols
                },
                "points": None,
                "turn": None,
            }
            if display:
                shown = shown_n.get((*k, task), 0)
                cs = int(r["games_claimed_shown"] or 0) if r else 0
                given = stats.proportion(cs, shown)
                in_bits = task in bit_names
                row.update(
                    {
                        "shown": stats.proportion(shown, n),
                        "claimed_given_shown": given,
                        # claims of a task the display does not have (inconsistent data)
                        "claimed_not_shown": claimed - cs,
                        "never_shown": in_bits and shown == 0,
                        "shown_never_claimed": shown > 0 and cs == 0,
                        "hard": shown > 0
                        and given["hi"] is not None
                        and given["hi"] < HARD_GIVEN_SHOWN,
                        "easy": shown > 0
                        and given["lo"] is not None
                        and given["lo"] > EASY_GIVEN_SHOWN,
                        "by_deck_given_shown": {
                            dk: stats.proportion(cs_deck.get(dk, 0), sh_deck.get(dk, 0))
                            for dk in decks
                        },
                        "by_policy_given_shown": {
                            p: stats.proportion(cs_pol.get(p, 0), sh_pol.get(p, 0)) for p in pols
                        },
                    }
                )
            if r:
                tq = [float(x) for x in r["turn_q"]]
                row["points"] = {
                    "mean": float(r["points_mean"]),
                    "min": int(r["points_min"]),
                    "max": int(r["points_max"]),
                }
                row["turn"] = {
                    "mean": stats.mean_ci(r["turn_mean"], r["turn_sd"], r["claims"]),
                    "min": int(r["turn_min"]),
                    "p10": tq[0],
                    "median": tq[1],
                    "p90": tq[2],
                    "max": int(r["turn_max"]),
                }
            rows.append(row)
        if display:  # by claim rate given shown, never shown last
            rows.sort(
                key=lambda x: (
                    x["never_shown"],
                    -(x["claimed_given_shown"]["rate"] or 0),
                    -x["claim_rate"]["k"],
                    x["task"],
                )
            )
        else:
            rows.sort(key=lambda x: (-(x["claim_rate"]["k"]), x["task"]))
        grp = {
            "group": g["id"],
            "games": n,
            "decks": decks,
            "policies": pols,
            "deck_seat_games": {dk: int(deck_n.get(dk, 0)) for dk in decks},
            "claims": int(gn["claims"] or 0),
            "claims_per_game": stats.mean_ci(gn["claims_mean"], gn["claims_sd"], n),
            "games_without_claim": stats.proportion(gn["no_claim"], n),
            "tasks": rows,
            "never_claimed": [x["task"] for x in rows if x["never_claimed"]],
            "rarely_claimed": [x["task"] for x in rows if x["rarely_claimed"]],
            "all_tasks_listed": display or content is not None,
        }
        if display:
            grp.update(
                {
                    "shown_per_game": stats.mean_ci(gn["shown_mean"], gn["shown_sd"], n),
                    "never_shown": [x["task"] for x in rows if x["never_shown"]],
                    "shown_never_claimed": [x["task"] for x in rows if x["shown_never_claimed"]],
                    "hard": [x["task"] for x in rows if x["hard"]],
                    "easy": [x["task"] for x in rows if x["easy"]],
                    "claimed_not_shown": sum(x["claimed_not_shown"] for x in rows),
                }
            )
        out.append(grp)
    return {
        "display_recorded": display,
        "note": TASK_SHOWN_NOTE if display else TASK_DISPLAY_NOTE,
        "task_names_source": names_source if display else None,
        "rare_threshold": RARE_CLAIM,
        "hard_threshold": HARD_GIVEN_SHOWN,
        "easy_threshold": EASY_GIVEN_SHOWN,
        "groups": out,
    }


def _cards(d: Dataset, groups, content) -> dict:
    d.execute(
        "CREATE TEMP TABLE ce AS SELECT mode, matchup, policies, game_index, seat, card, "
        + ", ".join(f"count(*) FILTER (WHERE event = '{e}') AS \"{e}\"" for e in CARD_EVENTS)
        + " FROM card_events_raw GROUP BY ALL"
    )
    side = "CASE WHEN s.sym THEN NULL ELSE s.policy END"
    played = '(c.summoned > 0 OR c."flare-played" > 0)'
    agg = d.rows(
        f"SELECT s.mode, s.pairing, {side} AS side, c.card, "
        + ", ".join(f'count(*) FILTER (WHERE c."{e}" > 0) AS "g_{e}"' for e in CARD_EVENTS)
        + ", "
        + ", ".join(f'sum(c."{e}") AS "n_{e}"' for e in CARD_EVENTS)
        + f", count(*) FILTER (WHERE {played} AND s.result = 'win') AS p_wins, "
        f"count(*) FILTER (WHERE {played} AND s.result = 'loss') AS p_losses, "
        f"count(*) FILTER (WHERE {played} AND s.result = 'draw') AS p_draws "
        "FROM ce c JOIN sg s USING (mode, matchup, policies, game_index, seat) "
        "WHERE NOT s.log_lost GROUP BY ALL"
    )
    base = d.rows(
        f"SELECT s.mode, s.pairing, {side} AS side, s.deck, "
        + _COUNTS.replace("result", "s.result")
        + " FROM sg s WHERE NOT s.log_lost GROUP BY ALL"
    )
    out = []
    for g in groups:
        k = _key(g)
        sides = [None] if g["symmetric"] else list(g["policies"])
        for sd in sides:
            deck_res = {
                r["deck"]: r for r in base if (r["mode"], r["pairing"], r["side"]) == (*k, sd)
            }
            all_res = {x: sum(r[x] for r in deck_res.values()) for x in ("wins", "losses", "draws")}
            mine = {r["card"]: r for r in agg if (r["mode"], r["pairing"], r["side"]) == (*k, sd)}
            names = list(mine)
            if content is not None:
                prefixes = {c.split("/")[0] for c in mine} | set(g["decks"])
                names += [c.id for c in content.cards if c.deck in prefixes and c.id not in mine]
            rows = []
            for card in names:
                prefix = card.split("/")[0]
                if prefix in g["decks"]:
                    elig = deck_res.get(prefix, {"wins": 0, "losses": 0, "draws": 0})
                else:  # legends, flares: any seat may hold them
                    elig = all_res
                n_elig = elig["wins"] + elig["losses"] + elig["draws"]
                r = mine.get(card) or {}
                played_rec = stats.win_record(
                    r.get("p_wins", 0), r.get("p_losses", 0), r.get("p_draws", 0)
                )
                not_rec = stats.win_record(
                    elig["wins"] - played_rec["wins"],
                    elig["losses"] - played_rec["losses"],
                    elig["draws"] - played_rec["draws"],
                )
                diff = stats.difference(
                    played_rec["wins"],
                    played_rec["decisive"],
                    not_rec["wins"],
                    not_rec["decisive"],
                )
                name = card
                if content is not None:
                    name = next((c.name for c in content.cards if c.id == card), card)
                rows.append(
                    {
                        "card": card,
                        "name": name,
                        "deck": prefix,
                        "seat_games": int(n_elig),
                        "games_with": {
                            e: stats.proportion(r.get(f"g_{e}", 0) or 0, n_elig)
                            for e in CARD_EVENTS
                        },
                        "events": {e: int(r.get(f"n_{e}", 0) or 0) for e in CARD_EVENTS},
                        "played": stats.proportion(played_rec["games"], n_elig),
                        "when_played": played_rec,
                        "when_not_played": not_rec,
                        "played_minus_not": diff,
                    }
                )
            stats.mark_holm([r["played_minus_not"] for r in rows])
            rows.sort(key=lambda x: (x["deck"], x["card"]))
            out.append(
                {
                    "group": g["id"],
                    "side": sd,
                    "label": g["label"] + (f" · cards of {sd}" if sd else ""),
                    "seat_games": int(sum(all_res.values())),
                    "games": g["games"],
                    "cards": rows,
                }
            )
    return {"note": CARD_NOTE, "all_cards_listed": content is not None, "groups": out}


def _deathmatch(d: Dataset, groups) -> dict:
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
        k = _key(g)
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


def _policies(d: Dataset, groups, first_player) -> dict:
    recs = _records(
        d.rows(
            f"SELECT mode, pairing, first, {_COUNTS} FROM sg WHERE persp AND NOT sym GROUP BY ALL"
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
                first = recs.get((*_key(g), True))
                second = recs.get((*_key(g), False))
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

MULTI_NOTE = (
    "Games of three or four seats: melee (each for themself; a seat's score is its lowest "
    "colour column) and team play (seats 0+2 against 1+3; a seat wins when its team wins). A "
    "group is one mode, one seat count and one list of seat policies. Win rates are over "
    "decisive games: a shared win is left out of them and shown as the shared rate. Under the "
    "hypothesis 'no advantage' a seat's win rate is its fair share: 1/n in melee of n players, "
    "1/2 in team play. The turn position is (seat - first_seat) mod n: the first player "
    "rotates through the seats with the game index."
)
MULTI_CARDS_NOTE = (
    "Card and task statistics (the Cards and High Form tasks sections) cover two-seat games only."
)
_SEP = "\x01"  # between a deck and a policy in SQL keys (in neither name)


def _fair_share(mode, n_players) -> float:
    return 0.5 if mode in TEAM_MODES else 1.0 / n_players


def _counts(won, shared):
    return (
        f"count(*) FILTER (WHERE {won}) AS wins, "
        f"count(*) FILTER (WHERE NOT ({won}) AND NOT ({shared})) AS losses, "
        f"count(*) FILTER (WHERE {shared}) AS draws"
    )


def _ordinal(n) -> str:
    return POSITION_LABELS[n - 1] if 0 < n <= len(POSITION_LABELS) else f"player {n}"


def _multiplayer(d: Dataset) -> dict:
    """Games of three or four seats (melee, team play), per mode, seat count and seat
    policies: per deck, per turn position, per team composition; scores, shared wins, end
    reasons, turns."""
    out = {"note": MULTI_NOTE, "cards_note": MULTI_CARDS_NOTE, "games": 0, "groups": []}
    if not _has_column(d, "games_raw", "n_players"):
        return out  # a dataset made before games of more than two seats
    d.execute(
        "CREATE TEMP TABLE mg AS SELECT *, coalesce(winner, winning_team) < 0 AS shared, "
        "seat0_policy = seat1_policy AND seat1_policy = seat2_policy "
        "AND coalesce(seat3_policy, seat0_policy) = seat0_policy AS uniform, "
        "seat0_deck = seat1_deck AND seat1_deck = seat2_deck "
        "AND coalesce(seat3_deck, seat0_deck) = seat0_deck AS mirror "
        "FROM games_raw WHERE error = 0 AND n_players > 2"
    )
    if not d.rows("SELECT count(*) AS n FROM mg")[0]["n"]:
        return out
    selects = []
    for s in range(4):
        selects.append(
            f"SELECT mode, n_players, policies, matchup, game_index, {s}::TINYINT AS seat, "
            f"seat{s}_deck AS deck, seat{s}_policy AS policy, seat{s}_won AS won, shared, "
            f"mirror, seat{s}_score AS score, "
            f"(({s} - first_seat::INTEGER + n_players) % n_players) + 1 AS pos "
            f"FROM mg WHERE n_players > {s}"
        )
    d.execute("CREATE TEMP TABLE msg AS " + " UNION ALL ".join(selects))
    key = "mode, n_players, policies"
    decks_order, _ = _spec_order(d.manifest)
    study = d.manifest["study"]
    modes_order = list(study.get("modes", []))
    spec_pols = [list(p) for p in study.get("policies", [])]

    def pol_rank(seat_pols):
        for i, p in enumerate(spec_pols):
            if p == seat_pols or (len(p) == 1 and all(x == p[0] for x in seat_pols)):
                return (i, "")
        return (len(spec_pols), "/".join(seat_pols))

    games = d.rows(
        f"SELECT {key}, count(*) AS games, count(DISTINCT matchup) AS matchups, "
        "count(*) FILTER (WHERE shared) AS shared, count(*) FILTER (WHERE mirror) AS mirror, "
        "avg(turns) AS turns_mean, stddev_samp(turns) AS turns_sd, "
        + ", ".join(f"any_value(seat{s}_policy) AS p{s}" for s in range(4))
        + ", bool_and(uniform) AS uniform FROM mg GROUP BY ALL"
    )
    decks_in = {}
    for r in d.rows(f"SELECT DISTINCT {key}, deck FROM msg"):
        decks_in.setdefault((r["mode"], r["n_players"], r["policies"]), set()).add(r["deck"])
    ends = d.rows(f"SELECT {key}, end_reason, count(*) AS n FROM mg GROUP BY ALL")
    reasons = list(END_REASONS) + sorted({r["end_reason"] for r in ends} - set(END_REASONS))
    per_deck = d.rows(
        f"SELECT {key}, deck, policy, count(*) AS n, {_counts('won', 'shared')}, "
        "avg(score) AS score_mean, stddev_samp(score) AS score_sd "
        "FROM msg WHERE NOT mirror GROUP BY ALL"
    )
    per_pos = d.rows(f"SELECT {key}, pos, {_counts('won', 'shared')} FROM msg GROUP BY ALL")
    seat_score = {
        (r["mode"], r["n_players"], r["policies"]): r
        for r in d.rows(
            f"SELECT {key}, count(*) AS n, avg(score) AS m, stddev_samp(score) AS sd "
            "FROM msg GROUP BY ALL"
        )
    }
    win_score = {
        (r["mode"], r["n_players"], r["policies"]): r
        for r in d.rows(
            f"SELECT {key}, count(ws) AS n, avg(ws) AS m, stddev_samp(ws) AS sd FROM ("
            "SELECT *, CASE winner "
            + " ".join(f"WHEN {s} THEN seat{s}_score" for s in range(4))
            + " END AS ws FROM mg WHERE winner IS NOT NULL) GROUP BY ALL"
        )
    }
    first_team = _records(
        d.rows(
            f"SELECT {key}, {_counts('winning_team = first_seat % 2', 'shared')} "
            "FROM mg WHERE winning_team IS NOT NULL GROUP BY ALL"
        ),
        "mode",
        "n_players",
        "policies",
    )
    teams = []
    for t in (0, 1):
        mine = [
            f"seat{s}_deck || '{_SEP}' || CASE WHEN uniform THEN '' ELSE seat{s}_policy END"
            for s in (t, t + 2)
        ]
        theirs = [
            f"seat{s}_deck || '{_SEP}' || CASE WHEN uniform THEN '' ELSE seat{s}_policy END"
            for s in (1 - t, 3 - t)
        ]
        teams.append(
            f"SELECT {key}, least({mine[0]}, {mine[1]}) AS a, greatest({mine[0]}, {mine[1]}) "
            f"AS b, least({theirs[0]}, {theirs[1]}) AS oa, "
            f"greatest({theirs[0]}, {theirs[1]}) AS ob, winning_team = {t} AS won, shared "
            "FROM mg WHERE winning_team IS NOT NULL"
        )
    comps = d.rows(
        f"SELECT {key}, a, b, {_counts('won', 'shared')} FROM ("
        + " UNION ALL ".join(teams)
        + ") WHERE NOT (a = oa AND b = ob) GROUP BY ALL"
    )
    comp_mirror = {
        (r["mode"], r["n_players"], r["policies"]): int(r["n"])
        for r in d.rows(
            f"SELECT {key}, count(*) AS n FROM ("
            + " UNION ALL ".join(teams)
            + ") WHERE a = oa AND b = ob GROUP BY ALL"
        )
    }

    def rank(order, x):
        return (order.index(x), "") if x in order else (len(order), str(x))

    groups = []
    for r in games:
        k = (r["mode"], r["n_players"], r["policies"])
        mode, n = r["mode"], int(r["n_players"])
        team = mode in TEAM_MODES
        share = _fair_share(mode, n)
        seat_pols = [r[f"p{s}"] for s in range(n)]
        uniform = bool(r["uniform"])
        present = decks_in.get(k, set())
        order = [x for x in decks_order if x in present] + sorted(present - set(decks_order))
        pols_label = seat_pols[0] if uniform else " / ".join(seat_pols)
        mode_label = MODE_LABELS.get(mode, mode)
        if mode == "melee":
            mode_label += f" ({n} players)"
        g = {
            "id": f"{mode}{n}__{r['policies']}".replace(":", ".").replace("=", "_"),
            "mode": mode,
            "mode_label": mode_label,
            "n_players": n,
            "team": team,
            "policies": r["policies"],
            "seat_policies": seat_pols,
            "uniform_policies": uniform,
            "label": f"{mode_label} · {pols_label}",
            "fair_share": share,
            "decks": order,
            "games": int(r["games"]),
            "matchups": int(r["matchups"]),
            "shared": stats.proportion(r["shared"], r["games"]),
            "turns": stats.mean_ci(r["turns_mean"], r["turns_sd"], r["games"]),
        }
        by_reason = {
            x["end_reason"]: x["n"] for x in ends if (x["mode"], x["n_players"], x["policies"]) == k
        }
        g["end_reasons"] = {
            "games": g["games"],
            "reasons": {e: stats.proportion(by_reason.get(e, 0), g["games"]) for e in reasons},
        }
        rows = []
        for x in per_deck:
            if (x["mode"], x["n_players"], x["policies"]) != k:
                continue
            rows.append(
                {
                    "deck": x["deck"],
                    "policy": None if uniform else x["policy"],
                    "seat_games": int(x["n"]),
                    "record": stats.share_record(x["wins"], x["losses"], x["draws"], share),
                    "score": stats.mean_ci(x["score_mean"], x["score_sd"], x["n"]),
                }
            )
        rows.sort(key=lambda x: (rank(order, x["deck"]), rank(seat_pols, x["policy"])))
        stats.mark_holm([x["record"]["win_rate"] for x in rows])
        g["per_deck"] = rows
        g["mirror_games"] = int(r["mirror"])
        pos = []
        for x in sorted(
            (x for x in per_pos if (x["mode"], x["n_players"], x["policies"]) == k),
            key=lambda x: x["pos"],
        ):
            pos.append(
                {
                    "position": int(x["pos"]),
                    "label": _ordinal(int(x["pos"])),
                    "record": stats.share_record(x["wins"], x["losses"], x["draws"], share),
                }
            )
        stats.mark_holm([x["record"]["win_rate"] for x in pos])
        g["positions"] = pos
        g["first_team"] = first_team.get(k) if team else None
        g["compositions"] = None
        g["composition_mirror_team_games"] = None
        if team:
            crows = []
            for x in comps:
                if (x["mode"], x["n_players"], x["policies"]) != k:
                    continue
                members = sorted(
                    (x["a"].split(_SEP), x["b"].split(_SEP)),
                    key=lambda m: (rank(order, m[0]), rank(seat_pols, m[1])),
                )
                decks = [m[0] for m in members]
                pols = None if uniform else [m[1] for m in members]
                label = " + ".join(m[0] + ("" if uniform else f" ({m[1]})") for m in members)
                crows.append(
                    {
                        "decks": decks,
                        "policies": pols,
                        "label": label,
                        "record": stats.share_record(x["wins"], x["losses"], x["draws"], 0.5),
                    }
                )
            crows.sort(
                key=lambda x: (
                    [rank(order, dk) for dk in x["decks"]],
                    [rank(seat_pols, pk) for pk in x["policies"] or []],
                    x["label"],
                )
            )
            stats.mark_holm([x["record"]["win_rate"] for x in crows])
            g["compositions"] = crows
            g["composition_mirror_team_games"] = comp_mirror.get(k, 0)
        g["melee"] = None
        if mode == "melee":
            ws, ss = win_score.get(k), seat_score[k]
            g["melee"] = {
                "winner_score": stats.mean_ci(ws["m"], ws["sd"], ws["n"])
                if ws
                else stats.mean_ci(None, None, 0),
                "seat_score": stats.mean_ci(ss["m"], ss["sd"], ss["n"]),
            }
        groups.append(g)
    mode_rank = {m: i for i, m in enumerate(modes_order)}
    groups.sort(
        key=lambda g: (
            mode_rank.get(g["mode"], 99),
            g["mode"],
            g["n_players"],
            pol_rank(g["seat_policies"]),
        )
    )
    out["games"] = sum(g["games"] for g in groups)
    out["reasons"] = reasons
    out["groups"] = groups
    return out


def _warnings(d: Dataset, data) -> list:
    w = []
    if data["beings_without_effects"]:
        w.append(
            {
                "kind": "beings_without_effects",
                "severe": True,
                "text": f"{data['beings_without_effects_games']} of {data['games']} games were "
                "played with beings whose effect is not implemented yet, dealt as beings with no "
                "effect (--beings-without-effects): these results are NOT those of the real game.",
            }
        )
    if not d.complete:
        w.append(
            {
                "kind": "incomplete",
                "severe": True,
                "text": f"the study is incomplete (status {d.manifest.get('status')!r}): "
                f"{d.games_present} of {d.games_expected} games present.",
            }
        )
    if data["games_error"]:
        w.append(
            {
                "kind": "engine_errors",
                "severe": True,
                "text": f"{data['games_error']} games stopped on an engine error and are left "
                "out of every table.",
            }
        )
    if data["games_log_lost"]:
        w.append(
            {
                "kind": "log_lost",
                "severe": False,
                "text": f"{data['games_log_lost']} games overflowed the event log and are left "
                "out of the task and card tables.",
            }
        )
    return w


def analyze(run_dir, allow_incomplete: bool = False) -> dict:
    """Every number of the balance report of the study in ``run_dir``."""
    d = Dataset(run_dir, allow_incomplete=allow_incomplete)
    m = d.manifest
    totals = d.rows(
        "SELECT count(*) AS games, count(*) FILTER (WHERE error <> 0) AS err, "
        "count(*) FILTER (WHERE log_lost > 0 AND error = 0) AS lost, "
        "count(*) FILTER (WHERE beings_without_effects) AS bwe FROM games_raw"
    )[0]
    bwe_events = d.rows(
        "SELECT (SELECT count(*) FILTER (WHERE beings_without_effects) FROM card_events_raw) + "
        "(SELECT count(*) FILTER (WHERE beings_without_effects) FROM task_claims_raw) AS n"
    )[0]["n"]
    data = {
        "games": int(totals["games"]),
        "games_expected": d.games_expected,
        "games_analyzed": int(totals["games"] - totals["err"]),
        "games_error": int(totals["err"]),
        "games_log_lost": int(totals["lost"]),
        "beings_without_effects_games": int(totals["bwe"]),
        "beings_without_effects": bool(
            totals["bwe"] or bwe_events or m.get("beings_without_effects")
        ),
    }
    groups = _register_groups(d)
    multiplayer = _multiplayer(d)
    data["games_two_seat"] = int(d.rows("SELECT count(*) AS n FROM g")[0]["n"])
    data["games_multi_seat"] = multiplayer["games"]
    content = _content(m)
    matchups = _matchups(d, groups)
    field = _deck_vs_field(d, groups)
    first_player = _first_player(d, groups, field)
    tasks = _tasks(d, groups, content)
    dec = decisiveness(d)
    summary = {
        "kalarite_report": 1,
        "run": {
            "path": str(d.root),
            "name": m["study"].get("name", ""),
            "status": m.get("status"),
            "engine_hash": m.get("engine_hash"),
            "engine_version": m.get("engine_version"),
            "content_hash": m.get("content_hash"),
            "created": m.get("created"),
            "completed": m.get("completed"),
            "study": m["study"],
        },
        "methods": stats.METHODS,
        "data": data,
        "warnings": _warnings(d, data) + weak_play_warnings(dec, MODE_LABELS),
        "decisiveness": dec,
        "missing_data": [],
        "groups": groups,
        "matchups": matchups,
        "deck_vs_field": field,
        "first_player": first_player,
        "game_length": _game_length(d, groups),
        "end_reasons": _end_reasons(d, groups),
        "tasks": tasks,
        "cards": _cards(d, groups, content),
        "deathmatch": _deathmatch(d, groups),
        "policies": _policies(d, groups, first_player),
        "multiplayer": multiplayer,
    }
    summary["policy_sensitivity"] = sensitivity(summary)
    if not tasks["display_recorded"]:
        summary["missing_data"].append({"what": "task display", "text": TASK_DISPLAY_NOTE})
    if content is None:
        summary["missing_data"].append(
            {
                "what": "content names",
                "text": "the game content has changed since the study (content hash differs) "
                "or cannot be loaded: tasks and cards never seen in the data are not listed.",
            }
        )
    d.con.close()
    return summary


def group_index(summary) -> dict:
    return {g["id"]: g for g in summary["groups"]}
