"""``kalarite compare A B``: two studies that differ in one thing (the content: a changed card
or task; the engine; the policies), compared matchup by matchup.

First it names what changed (results/compare/changes.py): the cards whose data differ, decks,
players, modes, seeds. B's decks can be read as A's (``deck_map``: ``--map
imperial-v2=imperial``, and every ``variant_of`` of B's deck files). Games that pair up (the
same seed: same study seed and matchup) are also compared game by game (results/compare/paired.py:
paired t-test, with how much narrower its intervals are than the unpaired ones). Two studies
that are the same (one dataset twice, or the same spec, seed, content and engine) have
nothing to compare.

For each matchup, task and card the difference B − A of the two rates, its 95% Newcombe
interval, the score test's p-value and Holm's correction within each table (a row is
*significant* when its Holm-adjusted p-value is below 0.05, so a table of 60 cards with no real
change reports no difference 95% of the time). The two studies' games are treated as
independent samples; games that pair up (dealt from the same seed) are positively
correlated, which only makes that test conservative. Whether games pair up is said once
(``pairing_note``, or the paired analysis's ``why_not``): the same study seed alone does not
make them pair, since a matchup's deals also depend on its mode and decks (and its players,
in a study dealt per player: the spec key ``deals``).

The turn cap and beings-without-effects must be the same. Modes and decks may differ: the
groups and matchups both studies hold are compared, the others are named. The number of
games and the study seed may differ.

Two studies that differ only in their players, or only in their seed or number of games (the
same player twice: an A/A check), also get the stability rule's verdict between them
(results/compare/stability.py): stable, player-sensitive or undetermined, each deck's move
with its interval (``stability``, shaped like a report's ``sensitivity``).

Only two-seat games (high-form, deathmatch, new-player) are compared: the games of three or
four seats (melee, team play) of either study are left out, and a note says how many.
"""

import pathlib

from results import analysis, parts, shown, stats
from results.compare.caveats import caveats, format_caveats
from results.compare.changes import (
    DIFFERENCES,
    changes,
    compare_title,
    deck_map_of,
    differences_named,
    format_changes,
    map_decks,
    two_seat_players,
)
from results.compare.paired_text import columns as _columns
from results.compare.paired_text import format_paired
from results.compare.same import game_overlap, relation, subset_note
from results.compare.stability import between
from results.compare.stability import format_lines as stability_lines
from results.compare.tables import Pair, group_key
from sim.study import canonical_spec

FIXED = (
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


def same_study(run_a, run_b, ma: dict, mb: dict, overlap=None) -> str | None:
    """Why A and B have nothing to compare, or None. ``overlap``: their common games
    (results/compare/same.py)."""
    if pathlib.Path(run_a).resolve() == pathlib.Path(run_b).resolve():
        return "A and B are the same dataset"
    keys = ("content_hash", "engine_hash", "players_hash")
    if all(ma.get(k) == mb.get(k) for k in keys) and canonical_spec(
        ma.get("study")
    ) == canonical_spec(mb.get("study")):
        if overlap is None or relation(overlap) == "same":
            return (
                "A and B hold the same study (the same spec, seed, content and engine), so "
                "their games are identical"
            )
    if relation(overlap) == "same":
        return (
            f"A and B hold the very same {overlap['games_a']:,} games (the same seeds, content "
            "and engine, the same outcomes), so nothing was changed between them"
        )
    return None


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
    pa_, pb_ = two_seat_players(sa), two_seat_players(sb)
    if sorted(pa_) != sorted(pb_):
        diff.append("policies")
        if len(pa_) != len(pb_):
            raise ComparisonError(
                f"refusing to compare: the studies have {len(pa_)} and {len(pb_)} policy "
                "pairings, which cannot be matched one to one"
            )
    elif changed_players(ma, mb):
        diff.append("policies")  # the same names, other parameters (a re-tuned profile)
    if len(diff) > 1:
        raise ComparisonError(
            "refusing to compare: the studies differ in more than one thing ("
            + ", ".join(diff)
            + "); compare studies that differ in one thing only"
        )
    return diff


def changed_players(ma: dict, mb: dict) -> list:
    """The players both studies name whose resolved parameters differ (the manifests'
    ``players`` digests, sim.games); [] when either study did not record them."""
    a, b = ma.get("players"), mb.get("players")
    if not isinstance(a, dict) or not isinstance(b, dict):
        return []
    return sorted(spec for spec in a.keys() & b.keys() if a[spec] != b[spec])


def _decks(m) -> list:
    return sorted({d for pair in m["study"].get("decks", []) for d in pair})


def _show(v):
    if isinstance(v, list):
        return ",".join("-".join(x) if isinstance(x, list) else str(x) for x in v)
    return str(v)


def _finish(rows):
    stats.mark_holm([r["diff"] for r in rows])
    for r in rows:
        r["significant"] = bool(r["diff"] and r["diff"].get("significant"))
    return rows


def _side(run, m, games) -> dict:
    st = m["study"]
    return {
        "path": str(run),
        "name": st.get("name", ""),
        "games": games,
        "content_hash": m.get("content_hash"),
        "content_dir": m.get("content_dir"),
        "engine_hash": m.get("engine_hash"),
        "policies": canonical_spec(st).get("policies"),
        "players_hash": m.get("players_hash"),
        "seed": st.get("seed"),
        "decks": _decks(m),
        "modes": list(st.get("modes") or []),
        "games_per_matchup": st.get("games"),
    }


def compare(run_a, run_b, allow_incomplete: bool = False, deck_map=None, margin=None) -> dict:
    """Compare study B with study A (the baseline); a JSON-ready dict. ``deck_map`` names
    B's decks in A's terms ({"imperial-v2": "imperial"}), added to B's declared variants;
    ``margin``: the stability margin in points (--margin; default A's spec's, else 3)."""
    from results.compare.paired import paired_analysis

    da = analysis.Dataset(run_a, allow_incomplete=allow_incomplete)
    db = analysis.Dataset(run_b, allow_incomplete=allow_incomplete)
    ma, mb = da.manifest, db.manifest
    na, nb = da.games_present, db.games_present
    da.con.close()
    db.con.close()
    same_path = pathlib.Path(run_a).resolve() == pathlib.Path(run_b).resolve()
    overlap = None if same_path else game_overlap(run_a, run_b, ma, mb)
    why = same_study(run_a, run_b, ma, mb, overlap)
    if why:
        return {
            "kalarite_compare": 1,
            "nothing_to_compare": True,
            "title": compare_title(ma, mb, changes(ma, mb, {})),
            "reason": why,
            "a": _side(run_a, ma, na),
            "b": _side(run_b, mb, nb),
        }
    part_of = relation(overlap)
    dmap = deck_map_of(mb, deck_map or {})
    unknown = [a for a in dmap.values() if a not in _decks(ma)]
    if unknown:
        raise ComparisonError(
            f"--map: A has no deck {unknown[0]!r} (A's decks: {', '.join(_decks(ma))})"
        )
    changed = changes(ma, mb, dmap)
    differs = differences(ma, mb)
    sa = analysis.analyze(run_a, allow_incomplete=allow_incomplete)
    sb = map_decks(analysis.analyze(run_b, allow_incomplete=allow_incomplete), dmap)
    ga_all = {group_key(g): g for g in sa["groups"]}
    gb_all = {group_key(g): g for g in sb["groups"]}
    common = [k for k in ga_all if k in gb_all]
    if not common and (ga_all or gb_all):  # (studies of 3-4 seats only: the note says so)
        raise ComparisonError(
            "nothing to compare: the studies have no group (mode and policy pairing of "
            "two-seat games) in common"
        )
    ga = {k: ga_all[k] for k in common}
    gb = {k: gb_all[k] for k in common}
    players = caveats(sa, sb, common)  # (a list: the modes in A's order, not a set's)
    pair = Pair(sa, sb, ga, gb)
    tables = {}
    for part in parts.PARTS:  # each compared part's tables, in the registry's order
        if part.compare:
            tables.update(part.function("compare")(pair))
    for rows in tables.values():
        _finish(rows)
    display = pair.both_display()
    wins = tables.get("matchups")
    notes = []
    sta, stb = ma["study"], mb["study"]
    named = differences_named(changed, changed_players(ma, mb))
    paired = paired_analysis(run_a, run_b, dmap, studies=(sta, stb))
    false_positives = None  # the note of a comparison in which nothing was changed
    if part_of:
        false_positives = subset_note(part_of, overlap)
    elif not differs:
        false_positives = no_change_note(named, paired)
    if false_positives:
        notes.append(false_positives)
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
    if not wins and "decks" in changed:
        notes.append(
            "no deck matchup in common (decks only in A: "
            + ", ".join(changed["decks"]["only_a"])
            + "; only in B: "
            + ", ".join(changed["decks"]["only_b"])
            + "): --map VARIANT=ORIGINAL reads a deck of B as one of A"
        )
    if wins and "decks" in changed:
        d = changed["decks"]
        notes.append(
            "compared: the matchups of the decks both studies hold; left out: those of "
            + "; ".join(
                f"{', '.join(x)} (only in {w})"
                for w, x in (("A", d["only_a"]), ("B", d["only_b"]))
                if x
            )
        )
    only_a = [ga_all[k]["label"] for k in ga_all if k not in gb_all]
    only_b = [gb_all[k]["label"] for k in gb_all if k not in ga_all]
    if only_a or only_b:
        notes.append(
            "compared: the groups both studies hold; left out: "
            + "; ".join(
                f"only in {w}: {', '.join(x)}" for w, x in (("A", only_a), ("B", only_b)) if x
            )
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
    if paired["paired"] and not part_of:  # (not paired: the paired section says why)
        notes.append(pairing_note(paired))
    return {
        "kalarite_compare": 1,
        "nothing_to_compare": False,
        "title": compare_title(ma, mb, changed),
        "a": _side(run_a, ma, sa["data"]["games_analyzed"]),
        "b": _side(run_b, mb, sb["data"]["games_analyzed"]),
        "part_of": part_of,
        "false_positives_only": false_positives is not None,
        "false_positive_note": false_positives,
        "changes": changed,
        "paired": paired,
        "differs_in": differs,
        "differences": named,
        "changed_players": changed_players(ma, mb),
        "methods": stats.METHODS,
        "players": players,
        "stability": between(run_a, run_b, sa, sb, differs, part_of, margin),
        "unchecked": _unchecked(sa, sb),
        "notes": notes,
        "tables": tables,
        "significant": {name: sum(r["significant"] for r in rows) for name, rows in tables.items()},
    }


def no_change_note(named: list, paired: dict) -> str:
    """The note of two studies played with the same content, engine and players: what
    they differ in, that every significant difference is a false positive, and what the
    games that pair (the same seed and deal index) show: identical outcomes, or not."""
    other = [d for d in named if d not in ("content", "engine version", "players")]
    text = (
        "A and B play with the same content, engine and players"
        + (f" (they differ in their {', '.join(other)})" if other else "")
        + ": every significant difference in the games both hold is a false positive"
    )
    n = paired.get("pairs") or 0
    if n:
        same = paired.get("same_outcome_pairs", 0)
        text += f"; {n:,} games pair (the same seed and deal index), " + (
            "every one with the same outcome" if same == n else f"{same:,} with the same outcome"
        )
    return text


def pairing_note(paired: dict) -> str:
    """What ``compare`` says of games that pair up: the one place it speaks of correlated
    games (common random numbers), since only games dealt from the same seed are."""
    return (
        f"{paired['pairs']:,} games of B pair up with a game of A (dealt from the same seed: "
        "common random numbers, so their outcomes are correlated): the paired analysis "
        "compares them game by game, and the independent-samples tests below, which ignore "
        "the correlation, are conservative"
    )


def _unchecked(sa: dict, sb: dict) -> list:
    """One warning per study whose content `kalarite check` never played clean
    (results/checked.py; the report's ``content_unchecked`` warning)."""
    return [
        f"{side}: {w['text']}"
        for side, s in (("A", sa), ("B", sb))
        for w in s["warnings"]
        if w["kind"] == "content_unchecked"
    ]


ALWAYS_LISTED = ("matchups", "first_player")


def _p(x):
    return "–" if x is None else f"{100 * x:.1f}%"


def _fmt_row(r) -> list:
    d = r["diff"]
    if d:
        ci = shown.interval(d["lo"], d["hi"], 0.0, unit="", signed=True)
        diff = f"{100 * d['diff']:+.1f} {ci}"
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


def _players_detail(result: dict) -> str:
    """What changed in the players: their names, or the same names with other parameters."""
    a, b = result["a"], result["b"]
    if a["policies"] != b["policies"] or not result.get("changed_players"):
        return f"{_show(a['policies'])} -> {_show(b['policies'])}"
    names = ", ".join(result["changed_players"])
    return (
        f"the same names, other parameters: {names}; players hash {a['players_hash']} -> "
        f"{b['players_hash']}"
    )


def format_text(result: dict, show_all: bool = False) -> str:
    a, b = result["a"], result["b"]
    lines = [
        f"A (baseline): {a['path']}  [{a['games']:,} games]",
        f"B:            {b['path']}  [{b['games']:,} games]",
    ]
    if result.get("nothing_to_compare"):
        lines.append(f"nothing to compare: {result['reason']}")
        return "\n".join(lines)
    what = format_changes(result.get("changes") or {})
    if what:
        lines.append("what changed:")
        lines += [f"  {x}" for x in what]
    named = result.get("differences") or []
    same = [label for _, label in DIFFERENCES if label not in named]
    lines.append(
        "differs in: "
        + (", ".join(named) if named else "nothing")
        + (f"; the same: {', '.join(same)}" if same else "")
    )
    if result["differs_in"]:
        what = result["differs_in"][0]
        detail = {
            "content": f"content hash {a['content_hash']} -> {b['content_hash']}",
            "engine": f"engine hash {a['engine_hash']} -> {b['engine_hash']}",
            "policies": _players_detail(result),
        }[what]
        lines.append(f"the change compared: {what} ({detail})")
    for w in result.get("unchecked", []):
        lines.append(f"warning: {w}")
    for n in result["notes"]:
        lines.append(f"note: {n}")
    if result.get("players"):
        lines += format_caveats(result["players"])
    lines += stability_lines(result.get("stability"))
    lines.append(
        "B - A in percentage points with its 95% Newcombe interval; p: score test; "
        "significant: Holm-adjusted p < 0.05 within each table"
    )
    if result.get("paired"):
        lines += format_paired(result["paired"], show_all)
        lines += ["", "Independent-samples tests (every game of A against every game of B)"]
    head = ["", "A", "B", "B - A [95% CI]", "p", "Holm p", "significant"]
    titles = parts.compare_tables()
    for name, rows in result["tables"].items():
        n_sig = result["significant"][name]
        lines.append("")
        lines.append(f"{titles[name][0]}: {n_sig} of {len(rows)} significant")
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
