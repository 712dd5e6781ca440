"""Report section on games of three or four seats (melee and team play), each deck, turn
position and team tested against its fair share."""

from results import stats
from results.analysis.dataset import Dataset, has_column
from results.analysis.groups import records_by, spec_order
from results.analysis.labels import END_REASONS, MODE_LABELS, POSITION_LABELS
from results.schema import TEAM_MODES

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


def multiplayer_stats(d: Dataset) -> dict:
    """Games of three or four seats (melee, team play), per mode, seat count and seat
    policies: per deck, per turn position, per team composition; scores, shared wins, end
    reasons, turns."""
    out = {"note": MULTI_NOTE, "cards_note": MULTI_CARDS_NOTE, "games": 0, "groups": []}
    if not has_column(d, "games_raw", "n_players"):
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
    decks_order, _ = spec_order(d.manifest)
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
    first_team = records_by(
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
