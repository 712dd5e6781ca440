"""Report section on High Form tasks: how often each is claimed, given that it was shown,
which look too easy or too hard, and what claiming one is worth (the claimer's win rate in the
games it claimed it, with its interval)."""

import json

import pyarrow as pa

from results import stats
from results.analysis.dataset import Dataset, has_column
from results.analysis.groups import group_key
from results.schema import METADATA_PREFIX

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


def task_stats(d: Dataset, groups, content) -> dict:
    hf = [g for g in groups if g["mode"] == "high-form"]
    bit_names, names_source = _task_names(d, content)
    display = has_column(d, "games_raw", "tasks_shown") and bool(bit_names)
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
        "count(*) FILTER (WHERE g.winner = t.seat) AS claimer_wins, "
        "count(*) FILTER (WHERE g.winner >= 0 AND g.winner <> t.seat) AS claimer_losses, "
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
        k = group_key(g)
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
                # what claiming it is worth: the claimer's record in the games it claimed it
                # (an association: the side that claims is often the side ahead)
                "claimer": stats.win_record(
                    r["claimer_wins"],
                    r["claimer_losses"],
                    r["claims"] - r["claimer_wins"] - r["claimer_losses"],
                )
                if r
                else None,
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
