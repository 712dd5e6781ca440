"""``kalarite compare A B``: two studies that differ in one thing (the content: a changed card
or task; the engine; the policies), compared matchup by matchup.

For each matchup, task and card the difference B − A of the two rates, its 95% Newcombe
interval, the score test's p-value and Holm's correction within each table (a row is
*significant* when its Holm-adjusted p-value is below 0.05, so a table of 60 cards with no real
change reports no difference 95% of the time). The two studies' games are treated as
independent samples; with the same study seed they are positively correlated, which only
makes the test conservative.

Everything else must be the same: modes, deck pairings, turn cap, beings without effects.
The number of games and the study seed may differ.

Only two-seat games (high-form, deathmatch, new-player) are compared: the games of three or
four seats (melee, team play) of either study are left out, and a note says how many.
"""

from results import analysis, stats

FIXED = (
    ("modes", "modes"),
    ("decks", "deck pairings"),
    ("turn_cap", "turn cap"),
    ("beings_without_effects", "beings without effects"),
)
ONE_THING = ("content", "engine", "policies")
ALPHA = stats.ALPHA


class ComparisonError(ValueError):
    """Two studies that cannot be compared: one line, exit status 2."""


def _norm(key, value):
    if key == "decks":
        return sorted(tuple(p) for p in value or [])
    if key == "modes":
        return sorted(value or [])
    return value


def differences(ma: dict, mb: dict) -> list:
    """What differs between two manifests among the one-thing settings; raises
    ComparisonError when anything else that matters differs."""
    sa, sb = ma["study"], mb["study"]
    fixed = [
        f"{label} ({_show(sa.get(k))} vs {_show(sb.get(k))})"
        for k, label in FIXED
        if _norm(k, sa.get(k)) != _norm(k, sb.get(k))
    ]
    if fixed:
        raise ComparisonError(
            "refusing to compare: the studies' other settings differ: "
            + "; ".join(fixed)
            + ". Compare studies that differ in one thing only (content, engine or policies)"
        )
    diff = []
    if ma.get("content_hash") != mb.get("content_hash"):
        diff.append("content")
    if ma.get("engine_hash") != mb.get("engine_hash"):
        diff.append("engine")
    pa_, pb_ = sa.get("policies") or [], sb.get("policies") or []
    if [list(p) for p in pa_] != [list(p) for p in pb_]:
        diff.append("policies")
        if len(pa_) != len(pb_):
            raise ComparisonError(
                f"refusing to compare: the studies have {len(pa_)} and {len(pb_)} policy "
                "pairings, which cannot be matched one to one"
            )
    if len(diff) > 1:
        raise ComparisonError(
            "refusing to compare: the studies differ in more than one thing ("
            + ", ".join(diff)
            + "); compare studies that differ in one thing only"
        )
    return diff


def _show(v):
    if isinstance(v, list):
        return ",".join("-".join(x) if isinstance(x, list) else str(x) for x in v)
    return str(v)


def _row(label, key, ka, na, kb, nb, **extra) -> dict:
    """One comparison of a rate: A's and B's proportions and the difference B − A."""
    return {
        "label": label,
        "key": key,
        "a": stats.proportion(ka, na),
        "b": stats.proportion(kb, nb),
        "diff": stats.difference(kb, nb, ka, na),
        **extra,
    }


def _finish(rows):
    stats.mark_holm([r["diff"] for r in rows])
    for r in rows:
        r["significant"] = bool(r["diff"] and r["diff"].get("significant"))
    return rows


def _gkey(g):
    return (g["mode"], g["pairing"])


def compare(run_a, run_b, allow_incomplete: bool = False) -> dict:
    """Compare study B with study A (the baseline); a JSON-ready dict."""
    da = analysis.Dataset(run_a, allow_incomplete=allow_incomplete)
    db = analysis.Dataset(run_b, allow_incomplete=allow_incomplete)
    ma, mb = da.manifest, db.manifest
    da.con.close()
    db.con.close()
    differs = differences(ma, mb)
    sa = analysis.analyze(run_a, allow_incomplete=allow_incomplete)
    sb = analysis.analyze(run_b, allow_incomplete=allow_incomplete)
    ga = {_gkey(g): g for g in sa["groups"]}
    gb = {_gkey(g): g for g in sb["groups"]}
    if set(ga) != set(gb):
        raise ComparisonError(
            "refusing to compare: the studies' groups (mode and policy pairing) do not match"
        )

    def glabel(k):
        a, b = ga[k], gb[k]
        if a["policies"] == b["policies"]:
            return a["label"]
        return f"{a['mode_label']} · {' vs '.join(a['policies'])} → {' vs '.join(b['policies'])}"

    def by_group(section, a_or_b):
        src = sa if a_or_b == "a" else sb
        gi = analysis.group_index(src)
        return {_gkey(gi[x["group"]]): x for x in src[section]}

    # --- matchups: win rate and draw rate of the row deck, each experiment once
    wins, draws = [], []
    ma_, mb_ = by_group("matchups", "a"), by_group("matchups", "b")
    for k in ga:
        if k not in ma_ or k not in mb_:
            continue
        cells_b = {(c["deck"], c["opp_deck"]): c for c in mb_[k]["cells"]}
        order = ma_[k]["decks"]
        for c in ma_[k]["cells"]:
            a_, b_ = c["deck"], c["opp_deck"]
            if ga[k]["symmetric"] and order.index(a_) > order.index(b_):
                continue
            cb = cells_b.get((a_, b_))
            if cb is None:
                continue
            ra, rb = c["combined"], cb["combined"]
            what = f"{a_} vs {b_}" + (" (mirror: first mover)" if c["mirror"] else "")
            key = [k[0], k[1], a_, b_]
            wins.append(
                _row(
                    f"{glabel(k)}: {what}",
                    key,
                    ra["wins"],
                    ra["decisive"],
                    rb["wins"],
                    rb["decisive"],
                    metric="win rate (decisive games)",
                )
            )
            draws.append(
                _row(
                    f"{glabel(k)}: {what}",
                    key,
                    ra["draws"],
                    ra["games"],
                    rb["draws"],
                    rb["games"],
                    metric="draw rate",
                )
            )

    # --- first mover
    first = []
    fa, fb = by_group("first_player", "a"), by_group("first_player", "b")
    for k in ga:
        ra, rb = fa[k]["first_mover"], fb[k]["first_mover"]
        first.append(
            _row(
                glabel(k),
                list(k),
                ra["wins"],
                ra["decisive"],
                rb["wins"],
                rb["decisive"],
                metric="first mover win rate",
            )
        )

    # --- tasks: claim rate per game; with the display recorded in both studies, also the
    # share of games in which the task was shown and the claim rate given shown
    tasks, shown, given = [], [], []
    display = sa["tasks"]["display_recorded"] and sb["tasks"]["display_recorded"]
    ta = {_gkey(analysis.group_index(sa)[x["group"]]): x for x in sa["tasks"]["groups"]}
    tb = {_gkey(analysis.group_index(sb)[x["group"]]): x for x in sb["tasks"]["groups"]}
    for k in ga:
        if k not in ta or k not in tb:
            continue
        rows_b = {r["task"]: r for r in tb[k]["tasks"]}
        names = [r["task"] for r in ta[k]["tasks"]]
        names += [t for t in rows_b if t not in names]
        rows_a = {r["task"]: r for r in ta[k]["tasks"]}
        for t in names:
            a_, b_ = rows_a.get(t), rows_b.get(t)
            tasks.append(
                _row(
                    f"{glabel(k)}: {t}",
                    [k[0], k[1], t],
                    a_["claim_rate"]["k"] if a_ else 0,
                    ta[k]["games"] if a_ else 0,
                    b_["claim_rate"]["k"] if b_ else 0,
                    tb[k]["games"] if b_ else 0,
                    metric="claim rate per game",
                    only_in=None if (a_ and b_) else ("A" if a_ else "B"),
                )
            )
            if not display:
                continue
            none = {"k": 0, "n": 0}
            for out, field, metric in (
                (shown, "shown", "share of games in which the task was shown"),
                (given, "claimed_given_shown", "claim rate given shown"),
            ):
                ra = a_[field] if a_ else none
                rb = b_[field] if b_ else none
                out.append(
                    _row(
                        f"{glabel(k)}: {t}",
                        [k[0], k[1], t],
                        ra["k"],
                        ra["n"],
                        rb["k"],
                        rb["n"],
                        metric=metric,
                        only_in=None if (a_ and b_) else ("A" if a_ else "B"),
                    )
                )

    # --- cards: played rate, and win rate when played
    played, win_played = [], []
    gia, gib = analysis.group_index(sa), analysis.group_index(sb)
    ca = {(_gkey(gia[x["group"]]), x["side"]): x for x in sa["cards"]["groups"]}
    cb = {(_gkey(gib[x["group"]]), x["side"]): x for x in sb["cards"]["groups"]}
    for key in ca:
        k, side = key
        # sides are policies: matched by position when the policies differ
        other = cb.get(key)
        if other is None and side is not None:
            pos = ga[k]["policies"].index(side)
            other = cb.get((k, gb[k]["policies"][pos]))
        if other is None:
            continue
        rows_b = {r["card"]: r for r in other["cards"]}
        rows_a = {r["card"]: r for r in ca[key]["cards"]}
        names = list(rows_a) + [c for c in rows_b if c not in rows_a]
        lab = glabel(k) + (f" · cards of {side}" if side else "")
        for card in names:
            a_, b_ = rows_a.get(card), rows_b.get(card)
            only = None if (a_ and b_) else ("A" if a_ else "B")
            pa_ = a_["played"] if a_ else {"k": 0, "n": 0}
            pb_ = b_["played"] if b_ else {"k": 0, "n": 0}
            played.append(
                _row(
                    f"{lab}: {card}",
                    [k[0], k[1], side, card],
                    pa_["k"],
                    pa_["n"],
                    pb_["k"],
                    pb_["n"],
                    metric="played rate per seat-game",
                    only_in=only,
                )
            )
            wa = a_["when_played"] if a_ else {"wins": 0, "decisive": 0}
            wb = b_["when_played"] if b_ else {"wins": 0, "decisive": 0}
            win_played.append(
                _row(
                    f"{lab}: {card}",
                    [k[0], k[1], side, card],
                    wa["wins"],
                    wa["decisive"],
                    wb["wins"],
                    wb["decisive"],
                    metric="win rate when played",
                    only_in=only,
                )
            )

    tables = {
        "matchups": _finish(wins),
        "draws": _finish(draws),
        "first_player": _finish(first),
        "tasks": _finish(tasks),
        **({"tasks_shown": _finish(shown), "tasks_given_shown": _finish(given)} if display else {}),
        "cards_played": _finish(played),
        "cards_win_when_played": _finish(win_played),
    }
    notes = []
    sta, stb = ma["study"], mb["study"]
    if not differs:
        notes.append(
            "the studies differ in no setting that changes the games (only the seed or the "
            "number of games): every significant difference is a false positive"
            + (
                "; they even have the same seed, so their common games are identical"
                if sta.get("seed") == stb.get("seed")
                else ""
            )
        )
    elif sta.get("seed") == stb.get("seed"):
        notes.append(
            "same study seed: the games of A and B are correlated (common random numbers), "
            "which makes the independent-samples test conservative"
        )
    if not display:
        notes.append(
            "the task display is not recorded in "
            + (
                "either study"
                if not (sa["tasks"]["display_recorded"] or sb["tasks"]["display_recorded"])
                else ("A" if not sa["tasks"]["display_recorded"] else "B")
            )
            + ": only the claim rates per game are compared"
        )
    multi_a = sa["data"].get("games_multi_seat", 0)
    multi_b = sb["data"].get("games_multi_seat", 0)
    if multi_a or multi_b:
        notes.append(
            "only two-seat games are compared: the games of three or four seats (melee, team "
            f"play) are left out ({multi_a:,} in A, {multi_b:,} in B)"
        )
    if sa["data"]["beings_without_effects"] or sb["data"]["beings_without_effects"]:
        notes.append("beings without effects: these results are not those of the real game")
    return {
        "kalarite_compare": 1,
        "a": {
            "path": str(run_a),
            "name": sta.get("name", ""),
            "games": sa["data"]["games_analyzed"],
            "content_hash": ma.get("content_hash"),
            "engine_hash": ma.get("engine_hash"),
            "policies": sta.get("policies"),
            "seed": sta.get("seed"),
        },
        "b": {
            "path": str(run_b),
            "name": stb.get("name", ""),
            "games": sb["data"]["games_analyzed"],
            "content_hash": mb.get("content_hash"),
            "engine_hash": mb.get("engine_hash"),
            "policies": stb.get("policies"),
            "seed": stb.get("seed"),
        },
        "differs_in": differs,
        "methods": stats.METHODS,
        "notes": notes,
        "tables": tables,
        "significant": {name: sum(r["significant"] for r in rows) for name, rows in tables.items()},
    }


TITLES = {
    "matchups": "Matchups: win rate of the first-named deck (decisive games)",
    "draws": "Matchups: draw rate",
    "first_player": "First mover win rate",
    "tasks": "Task claim rate per game",
    "tasks_shown": "Task display: share of games in which the task was shown",
    "tasks_given_shown": "Task claim rate given shown",
    "cards_played": "Cards: share of seat-games in which the card was played",
    "cards_win_when_played": "Cards: win rate of the seat-games in which the card was played",
}
ALWAYS_LISTED = ("matchups", "first_player")


def _p(x):
    return "–" if x is None else f"{100 * x:.1f}%"


def _fmt_row(r) -> list:
    d = r["diff"]
    if d:
        diff = f"{100 * d['diff']:+.1f} [{100 * d['lo']:+.1f}, {100 * d['hi']:+.1f}]"
        p = f"{d['p_value']:.3g}"
        ph = f"{d['p_holm']:.3g}" if d.get("p_holm") is not None else "–"
    else:
        diff, p, ph = "–", "–", "–"
    label = r["label"] + (f" (only in {r['only_in']})" if r.get("only_in") else "")
    return [
        label,
        f"{_p(r['a']['rate'])} (n={r['a']['n']:,})",
        f"{_p(r['b']['rate'])} (n={r['b']['n']:,})",
        diff,
        p,
        ph,
        "YES" if r["significant"] else "no",
    ]


def _columns(rows) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


def format_text(result: dict, show_all: bool = False) -> str:
    a, b = result["a"], result["b"]
    lines = [
        f"A (baseline): {a['path']}  [{a['games']:,} games]",
        f"B:            {b['path']}  [{b['games']:,} games]",
    ]
    if result["differs_in"]:
        what = result["differs_in"][0]
        detail = {
            "content": f"content hash {a['content_hash']} -> {b['content_hash']}",
            "engine": f"engine hash {a['engine_hash']} -> {b['engine_hash']}",
            "policies": f"{_show(a['policies'])} -> {_show(b['policies'])}",
        }[what]
        lines.append(f"differs in: {what} ({detail})")
    else:
        lines.append("differs in: nothing but the seed or the number of games")
    for n in result["notes"]:
        lines.append(f"note: {n}")
    lines.append(
        "B - A in percentage points with its 95% Newcombe interval; p: score test; "
        "significant: Holm-adjusted p < 0.05 within each table"
    )
    head = ["", "A", "B", "B - A [95% CI]", "p", "Holm p", "significant"]
    for name, rows in result["tables"].items():
        n_sig = result["significant"][name]
        lines.append("")
        lines.append(f"{TITLES[name]}: {n_sig} of {len(rows)} significant")
        shown = (
            rows if (show_all or name in ALWAYS_LISTED) else [r for r in rows if r["significant"]]
        )
        if shown:
            lines.append(_columns([head] + [_fmt_row(r) for r in shown]))
        if len(shown) < len(rows):
            lines.append(
                f"  ({len(rows) - len(shown)} rows without a significant difference; "
                "--all lists them)"
            )
    return "\n".join(lines)
