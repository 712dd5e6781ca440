"""The "key findings" block at the top of the report: what a designer looks at first, each
number with its 95% interval, taken from the summary of ``results.analysis.analyze``.

- per mode, the players' caveat: who played, how the games ended, and whether the decks'
  verdicts were checked under other players (``results.analysis.glance``);
- per group, the strongest and the weakest deck against the field (with the deck's
  stability), then the other decks furthest from 50% (up to 3 in all over every group), and
  the most lopsided matchup of each group;
- the first-player edge of each group;
- the easiest and the hardest High Form task of each group (claim rate given shown when
  the display is recorded, else per game).

Each finding says whether its interval excludes the fair value (50%).
"""

from results.analysis.glance import at_a_glance

N_DECKS = 3


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ci(r) -> str:
    if not r or r.get("lo") is None:
        return ""
    return f" [{_pct(r['lo'])}, {_pct(r['hi'])}]"


def _finding(kind, group, text, rate, where, fair=0.5) -> dict:
    lo, hi = rate.get("lo"), rate.get("hi")
    clear = lo is not None and (lo > fair or hi < fair) if fair is not None else None
    return {
        "kind": kind,
        "group": group,
        "text": text,
        "rate": rate.get("rate"),
        "lo": lo,
        "hi": hi,
        "n": rate.get("n"),
        "excludes_fair": clear,
        "section": where,
    }


def _side(g) -> str:
    return "" if g["symmetric"] else f" (played by {g['policies'][0]})"


def _caveats(s: dict) -> tuple:
    """The players' caveat of each mode, and each deck's stability label per mode."""
    glance = s.get("at_a_glance") or at_a_glance(s)
    out, labels = [], {}
    for m in glance["modes"]:
        labels[m["mode"]] = {d: x["label"] for d, x in m["stability"]["by_deck"].items()}
        weak = " ⚠ Weak play: read the balance numbers below with care." if m["weak_play"] else ""
        text = (
            f"{m['label']}: players {'; '.join(m['players'])}. How the games ended: "
            f"{m['ended']}. {m['stability']['text'][:1].upper()}{m['stability']['text'][1:]}."
            + weak
        )
        out.append(
            {
                "kind": "players_caveat",
                "group": None,
                "mode": m["mode"],
                "text": text,
                "rate": None,
                "lo": None,
                "hi": None,
                "n": m["decisiveness"].get("games"),
                "excludes_fair": None,
                "section": "decisiveness",
                "weak_play": m["weak_play"],
                "stability_measured": m["stability"]["measured"],
            }
        )
    return out, labels


def _deck_text(word, deck, g, wr, stab) -> str:
    return (
        f"{word}{deck}{_side(g)} wins {_pct(wr['rate'])}{_ci(wr)} of its decisive games "
        f"against the other decks ({g['label']}, n={wr['n']:,}); {stab}"
    )


def key_findings(s: dict) -> list:
    """The findings: the players' caveats first, then the decks, matchups, first player and
    tasks, most telling first within each kind."""
    groups = {g["id"]: g for g in s.get("groups", [])}
    out, stability = _caveats(s)
    named = set()
    for f in s.get("deck_vs_field", []):
        g = groups[f["group"]]
        rows = [r for r in f["rows"] if r["combined"]["win_rate"].get("rate") is not None]
        if len(rows) < 2:
            continue
        rows.sort(key=lambda r: -r["combined"]["win_rate"]["rate"])
        for kind, word, r in (
            ("strongest_deck", "strongest deck: ", rows[0]),
            ("weakest_deck", "weakest deck: ", rows[-1]),
        ):
            wr = r["combined"]["win_rate"]
            stab = stability.get(g["mode"], {}).get(r["deck"], "stability not measured")
            finding = _finding(
                kind, g["id"], _deck_text(word, r["deck"], g, wr, stab), wr, "deck-vs-field"
            )
            finding["deck"] = r["deck"]
            out.append(finding)
            named.add((g["id"], r["deck"]))
    decks = []
    for f in s.get("deck_vs_field", []):
        g = groups[f["group"]]
        for r in f["rows"]:
            wr = r["combined"]["win_rate"]
            if wr.get("rate") is not None and (g["id"], r["deck"]) not in named:
                decks.append((abs(wr["rate"] - 0.5), g, r["deck"], wr))
    decks.sort(key=lambda x: -x[0])
    for _, g, deck, wr in decks[: max(0, N_DECKS - len(named))]:
        stab = stability.get(g["mode"], {}).get(deck, "stability not measured")
        finding = _finding(
            "deck_imbalance", g["id"], _deck_text("", deck, g, wr, stab), wr, "deck-vs-field"
        )
        finding["deck"] = deck
        out.append(finding)
    for m in s.get("matchups", []):
        g = groups[m["group"]]
        best = None
        for c in m["cells"]:
            wr = c["combined"]["win_rate"] if c["combined"] else None
            if c["mirror"] or not wr or wr.get("rate") is None:
                continue
            if best is None or abs(wr["rate"] - 0.5) > abs(best[1]["rate"] - 0.5):
                best = (c, wr)
        if best:
            c, wr = best
            text = (
                f"most lopsided matchup: {c['deck']}{_side(g)} against {c['opp_deck']} wins "
                f"{_pct(wr['rate'])}{_ci(wr)} of decisive games ({g['label']}, n={wr['n']:,})"
            )
            out.append(_finding("matchup_imbalance", g["id"], text, wr, "matchups"))
    for f in s.get("first_player", []):
        g = groups[f["group"]]
        wr = f["first_mover"]["win_rate"]
        if wr.get("rate") is None:
            continue
        text = (
            f"first-player edge: the first mover wins {_pct(wr['rate'])}{_ci(wr)} of "
            f"decisive games ({g['label']}, n={wr['n']:,})"
        )
        out.append(_finding("first_player", g["id"], text, wr, "first-player"))
    tasks = s.get("tasks") or {}
    shown = tasks.get("display_recorded")
    for tg in tasks.get("groups", []):
        g = groups[tg["group"]]
        key = "claimed_given_shown" if shown else "claim_rate"
        rows = [r for r in tg["tasks"] if (r.get(key) or {}).get("rate") is not None]
        if not rows:
            continue
        how = "of the games it was shown in" if shown else "of the games"
        easy = max(rows, key=lambda r: r[key]["rate"])
        hard = min(rows, key=lambda r: r[key]["rate"])
        for kind, r in (("easiest_task", easy), ("hardest_task", hard)):
            word = "easiest" if kind == "easiest_task" else "hardest"
            rate = r[key]
            text = (
                f"{word} task: {r['task']}, claimed in {_pct(rate['rate'])}{_ci(rate)} {how} "
                f"({g['label']}, n={rate['n']:,})"
            )
            out.append(_finding(kind, g["id"], text, rate, "tasks", fair=None))
    return out
