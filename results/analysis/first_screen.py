"""The designer's first screen: per two-seat mode, one line per deck in plain words (is it
strong or weak under the strongest play measured, and does that move with the player?),
the players it rests on, how first move and High Form tasks weigh under the top player, and
the smallest move the study would have found. The statistics' names stay out of these lines;
``how_decided`` says them, for the part below ("how this was decided").

A deck's line carries its own verdict (results/analysis/stability.py ``deck_verdicts``, the
worst over the mode's comparisons), never its mode's: in a mode made player-sensitive by one
deck, a deck that did not move says so. A study with one player (the demo) takes each deck's
verdict from the credibility study's record (results/credibility.py) when that study played
its player, and its own win rates. Everything is taken from the rest of the summary; it is
kept under ``summary["at_a_glance"]["first_screen"]``."""

from results import shown
from results.analysis.labels import MODE_LABELS
from results.analysis.seat_edge import pair, seat_edge
from results.analysis.sensitivity import verdict as strength_verdict
from results.analysis.stability import (
    DETECT_POWER,
    SENSITIVE,
    STABLE,
    detectable_move,
)
from results.analysis.stability_text import ORDER, about, interval_levels, mode_text, move
from results.credibility import SPEC, answer_text, load_record

# words a first-screen line never holds (tests/test_first_screen.py checks every line)
JARGON = (
    "holm",
    "tost",
    "tau",
    "alpha",
    "wilson",
    "spending",
    "equivalence",
    "chi",
    "p-value",
    "kendall",
    "newcombe",
    "bonferroni",
    "lan-demets",
    "o'brien",
    "delta",
)
STRENGTH_WORDS = {"favoured": "strong", "disfavoured": "weak", "even": "about even"}
RECORD_PATH = "benchmarks/results/credibility.json"


def deck_name(deck: str) -> str:
    return deck[:1].upper() + deck[1:]


def share_text(wr) -> str:
    """A share with its interval in whole points: "27% [25, 29]"."""
    if not wr or wr.get("rate") is None:
        return "–"
    return f"{100 * wr['rate']:.0f}% " + shown.interval(
        wr["lo"], wr["hi"], fair=0.5, digits=0, unit=""
    )


def _the(player: str) -> str:
    return f"the {player}"


def verdict_clause(word, x, a, b, margin, more=None) -> str:
    """A move's verdict in plain words (``x``: delta, delta_lo, delta_hi in points)."""
    if word not in ORDER:
        return "whether it moves with the player is not measured"
    mv = move(x)
    if word == STABLE:
        return (
            f"the same under {_the(a)} and {_the(b)} (it moves {mv} points, less than {margin:g})"
        )
    if word == SENSITIVE:
        return f"moves with the player: {mv} points from {_the(a)} to {_the(b)}"
    text = (
        f"not yet known whether it moves with the player ({mv} points from {_the(a)} to {_the(b)}"
    )
    if more and more > 0:
        n = about(more)
        text += f"; {n if n.startswith('more') else 'about ' + n} more games a deck would tell"
    return text + ")"


def _own_rates(summary, mode, player) -> dict:
    """deck -> ``player``'s self-play win rate against the field in ``mode`` (else the mode's
    last group's)."""
    groups = [g for g in summary.get("groups", []) if g["mode"] == mode]
    group = next((g for g in groups if g["symmetric"] and g["policies"][0] == player), None)
    group = group or (groups[-1] if groups else None)
    field = next(
        (f for f in summary.get("deck_vs_field", []) if group and f["group"] == group["id"]), None
    )
    rows = (field or {}).get("rows", [])
    return {r["deck"]: r["combined"]["win_rate"] for r in rows if r["combined"]["decisive"]}


def _trace_clause(summary, mode, deck) -> str | None:
    t = summary.get("skill_trace") or {}
    x = ((t.get("modes") or {}).get(mode) or {}).get("decks", {}).get(deck)
    if not x or x.get("slope") is None:
        return None
    band = shown.interval(x["slope_lo"] / 100, x["slope_hi"] / 100, unit="", signed=True)
    s = f"{x['slope']:+.1f} {band}"
    if x["slope_lo"] > 0 or x["slope_hi"] < 0:
        return f"moves with strength: {s} points a doubling of the {t['player']}'s {t['setting']}"
    return (
        f"no move with strength shown ({s} points a doubling of the {t['player']}'s {t['setting']})"
    )


def _study_source(summary, mode) -> dict | None:
    """The mode's own verdicts where the study decides them: per deck (verdict, move, more
    games), the two players, games a deck, the power figure."""
    m = ((summary.get("stability") or {}).get("modes") or {}).get(mode)
    if not m or m.get("verdict") is None:
        return None
    comps = m["comparisons"]
    c0 = comps[0]
    decks = {}
    for d in dict.fromkeys(d for c in comps for d in c["decks"]):
        rows = [(c, c["decks"][d]) for c in comps if d in c["decks"]]
        c, x = max(rows, key=lambda r: (ORDER[r[1]["verdict"]], abs(r[1]["delta"])))
        need = x.get("games_needed")
        decks[d] = {
            "verdict": x["verdict"],
            "move": {k: x[k] for k in ("delta", "delta_lo", "delta_hi")},
            "players": list(c["from_to"]),
            "more": need - c["games"] if need else None,
        }
    se = max(x["se"] for x in c0["decks"].values())
    cc = max(x.get("continuity") or 0.0 for x in c0["decks"].values())
    return {
        "source": "this study",
        "players": list(c0["from_to"]),
        "games": c0["games"],
        "paired": c0["paired_pairings"] == c0["pairings"],
        "margin": c0["margin"],
        "decks": decks,
        "detectable": detectable_move(se, c0["margin"], c0["alpha"], len(c0["decks"]), cc),
    }


def _record_source(summary, mode, player) -> dict | None:
    """The credibility record's verdicts for ``mode`` where it played ``player``."""
    rec = load_record()
    rm = ((rec or {}).get("modes") or {}).get(mode)
    if not rm or rm.get("verdict") is None or player not in (rec.get("players") or []):
        return None
    decks = {
        d: {
            "verdict": x["verdict"],
            "move": {k: x[k] for k in ("delta", "delta_lo", "delta_hi")},
            "players": list(rm["players"]),
            "more": (x["games_needed"] - rm["games_per_deck"]) if x.get("games_needed") else None,
        }
        for d, x in (rm.get("decks") or {}).items()
    }
    content = (summary.get("run") or {}).get("content_hash")
    return {
        "source": "the credibility study",
        "players": list(rm["players"]),
        "games": rm["games_per_deck"],
        "paired": rec.get("deals") == "shared",
        "margin": rec.get("margin", 3.0),
        "decks": decks,
        "detectable": rm.get("detectable"),
        "other_content": bool(content and rec.get("content_hash") not in (None, content)),
        "seat_edge": rm.get("seat_edge"),
        "alpha": (rec.get("rule") or {}).get("alpha"),
    }


def _rests_on(src, player) -> str:
    if src is None:
        return (
            f"Rests on {_the(player)} alone: whether the answer moves with the player is not "
            f"measured here, and the credibility study ({SPEC}) has not played {_the(player)}"
        )
    a, b = src["players"]
    deals = ", on the same deals" if src["paired"] else ""
    if src["source"] == "this study":
        return (
            f"Rests on {_the(a)} and {_the(b)}, each in both seats of every deck pairing{deals}, "
            f"{src['games']:,} games a deck each (this study)"
        )
    other = " (played on other card files than this study's)" if src.get("other_content") else ""
    return (
        f"Rests on the credibility study ({_the(a)} and {_the(b)}{deals}, {src['games']:,} "
        f"games a deck each: {RECORD_PATH}){other}; the win rates are this study's, under "
        f"{_the(player)}"
    )


def _power_line(src) -> str | None:
    if src is None or src.get("detectable") is None:
        return None
    a, b = src["players"]
    where = "this study" if src["source"] == "this study" else "the credibility study"
    return (
        f"What {where} could not have seen: at {src['games']:,} games a deck and player, a "
        f"deck whose win rate moves {src['detectable']:.1f} points or more between {_the(a)} "
        f"and {_the(b)} is found {100 * DETECT_POWER:.0f}% of the time; a smaller move (above "
        f"{src['margin']:g} points) may have gone unseen"
    )


def seat_line(e, rec_edge=None) -> str | None:
    """The first mover's share under the top player and whether it moves with the player
    (``rec_edge``: the credibility record's, for a study with one player)."""
    if not e:
        return None
    wr = e["shares"][e["top"]]
    if wr["lo"] > 0.5:
        lead = "moving first helps"
    elif wr["hi"] < 0.5:
        lead = "moving second helps"
    else:
        lead = "neither seat is shown to have the edge"
    text = (
        f"Seat edge: {lead}: the first mover wins {share_text(wr)} of the decisive games "
        f"under {_the(e['top'])}"
    )
    src = e if e.get("verdict") else rec_edge
    if src and src.get("verdict"):
        a, b = src["players"]
        more = src["games_needed"] - src["games"] if src.get("games_needed") else None
        clause = verdict_clause(src["verdict"], src, a, b, src["margin"], more)
        where = "" if src is e else " (the credibility study)"
        text += f"; {clause.replace('it moves', 'the edge moves')}{where}; a move of "
        text += f"{src['detectable']:.1f} points or more would be found "
        text += f"{100 * DETECT_POWER:.0f}% of the time"
    return text


def task_lines(summary, mode, player) -> list:
    """High Form tasks under ``player`` (its self-play group): each task's claim rate (when
    shown, where the display is recorded) and what claiming it is worth (the claimer's win
    rate), flagged easy or hard only where its interval says so."""
    if mode != "high-form":
        return []
    t = summary.get("tasks") or {}
    group = next(
        (
            g
            for g in summary.get("groups", [])
            if g["mode"] == mode and g["symmetric"] and g["policies"][0] == player
        ),
        None,
    )
    tg = next((x for x in t.get("groups", []) if group and x["group"] == group["id"]), None)
    if not tg:
        return []
    out = []
    for row in tg["tasks"]:
        claimer = (row.get("claimer") or {}).get("win_rate")
        if t.get("display_recorded"):
            if row.get("never_shown"):
                continue
            claimed = (
                f"claimed in {share_text(row['claimed_given_shown'])} of the games it was shown"
            )
        else:
            claimed = f"claimed in {share_text(row['claim_rate'])} of the games"
        worth = (
            f"its claimer won {share_text(claimer)} of those games"
            if claimer and claimer.get("rate") is not None
            else "never claimed"
        )
        flag = "easy" if row.get("easy") else "hard" if row.get("hard") else None
        out.append(
            {
                "task": row["task"],
                "claimed": claimed,
                "worth": worth,
                "flag": flag,
                "text": f"{row['task']}: {claimed}; {worth}" + (f" ({flag})" if flag else ""),
            }
        )
    return out


def how_decided(summary, mode, src, edge) -> list:
    """The part below the first screen, jargon allowed: the rule, its levels, the tests."""
    lines = []
    m = ((summary.get("stability") or {}).get("modes") or {}).get(mode)
    if src and src["source"] == "this study":
        shown_level, eq_level = interval_levels(m["comparisons"][0]["alpha"])
        lines.append(
            f"Each deck's move between the two players is its win rate against the field "
            "(mirror matches left out) under the stronger minus under the weaker, "
            f"{'paired game by game on shared deals' if src['paired'] else 'unpaired'}, with "
            f"its {shown_level} interval. A deck is the same "
            f"under both when its {eq_level} interval lies within ±{src['margin']:g} points "
            "(an equivalence test, TOST, Holm over the decks); it moves with the player when "
            f"its move is beyond ±{src['margin']:g} (Holm over the decks); else it is not yet "
            f"known. The rule's line: {mode_text(m)}"
        )
    else:
        content = (summary.get("run") or {}).get("content_hash")
        lines.append(f"This study cannot decide it: {answer_text(mode, content)}")
        if src and src.get("alpha"):
            shown_level, eq_level = interval_levels(src["alpha"])
            lines.append(
                f"The credibility study's deck moves carry {shown_level} intervals: a deck is "
                f"the same under both players when its {eq_level} interval lies within "
                f"±{src['margin']:g} points (TOST, Holm over the decks), moves with the player "
                f"when beyond (Holm over the decks); each test at alpha {src['alpha']:.3g}, its "
                "5% shared over its looks (alpha spending)."
            )
    lk = summary.get("looks") or {}
    if lk.get("stopped"):
        lines.append(
            f"Played until decided: {lk['stopped']['why']}; each test at alpha "
            f"{lk['alpha']:.3g}, the study's 5% shared over its looks (alpha spending)."
        )
    if src and src.get("detectable") is not None:
        lines.append(
            f"The smallest move found with {100 * DETECT_POWER:.0f}% power: margin + "
            "continuity + (z(1 - alpha / K) + z(0.8)) x the largest deck's standard error "
            "(Holm's first step over K decks, one deck moved)."
        )
    if edge and edge.get("verdict"):
        lines.append(
            f"Seat edge: the first mover's share per player (95% Wilson interval), its move "
            f"{move(edge, edge['alpha'])} points "
            f"({'paired on shared deals' if edge['paired'] else 'unpaired'}) decided by the "
            f"same rule with one deck: beyond ±{edge['margin']:g} p {edge['p_beyond']:.2g}, "
            f"within (TOST) p {edge['p_within']:.2g}, each at alpha {edge['alpha']:.3g}."
        )
    if mode == "high-form":
        lines.append(
            "Tasks: 95% Wilson intervals; easy when the interval of its claim rate when shown "
            "lies above 50%, hard when below 5%; the claimer's win rate is an association (the "
            "side ahead claims more), not what the task alone is worth."
        )
    return lines


def mode_screen(summary, mode, edges) -> dict | None:
    players = pair(summary, mode)
    if not players:
        return None
    src = _study_source(summary, mode)
    top = src["players"][1] if src else players[-1]
    rec_src = None if src else _record_source(summary, mode, top)
    use = src or rec_src
    rates = (summary.get("player_sensitivity") or {}).get(mode)
    by_player = {}
    if rates and src:
        by_player = {r["deck"]: r["by_player"].get(top, {}).get("win_rate") for r in rates["decks"]}
    own = _own_rates(summary, mode, top)
    decks = []
    for d in own if not by_player else by_player:
        wr = by_player.get(d) or own.get(d)
        if not wr or wr.get("rate") is None:
            continue
        x = (use or {}).get("decks", {}).get(d)
        word = STRENGTH_WORDS[strength_verdict(wr)]
        line = f"{deck_name(d)} is {word} under {_the(top)}: {share_text(wr)} against the field"
        if x:
            a, b = x["players"]
            line += "; " + verdict_clause(x["verdict"], x["move"], a, b, use["margin"], x["more"])
            if use is rec_src:
                line += " (the credibility study)"
        else:
            line += "; " + verdict_clause(None, None, None, None, None)
        trace = _trace_clause(summary, mode, d)
        if trace:
            line += "; " + trace
        decks.append({"deck": d, "rate": wr, "verdict": x["verdict"] if x else None, "line": line})
    decks.sort(key=lambda r: -r["rate"]["rate"])
    edge = edges.get(mode)
    return {
        "mode": mode,
        "label": MODE_LABELS.get(mode, mode),
        "top": top,
        "rests_on": _rests_on(use, top),
        "decks": decks,
        "power": _power_line(use),
        "seat_edge": seat_line(edge, (rec_src or {}).get("seat_edge")),
        "tasks": task_lines(summary, mode, top),
        "how_decided": how_decided(summary, mode, use, edge),
    }


def first_screen(summary: dict) -> dict:
    """``{"modes": [...]}``: per two-seat mode its ``label``, ``top`` (the player the lines
    are said under), ``rests_on``, ``decks`` (strongest first: ``deck``, ``rate``, its own
    ``verdict``, ``line``), ``power``, ``seat_edge``, ``tasks`` and ``how_decided`` (the
    lines below, with the statistics' names)."""
    edges = seat_edge(summary)
    modes = []
    for mode in dict.fromkeys(g["mode"] for g in summary.get("groups", [])):
        m = mode_screen(summary, mode, edges)
        if m and m["decks"]:
            modes.append(m)
    return {"modes": modes, "seat_edge": edges}
