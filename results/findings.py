"""The "key findings" block at the top of the report: what a designer looks at first, each
number with its 95% interval, taken from the summary of ``results.analysis.analyze``.

- the largest deck imbalances: the decks whose win rate against the field is furthest from
  50% (up to 3 over every group), and the most lopsided matchup of each group;
- the first-player edge of each group;
- the easiest and the hardest High Form task of each group (claim rate given shown when
  the display is recorded, else per game).

Each finding says whether its interval excludes the fair value (50%).
"""

import html

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


def key_findings(s: dict) -> list:
    """The findings, most telling first within each kind."""
    groups = {g["id"]: g for g in s.get("groups", [])}
    out = []
    decks = []
    for f in s.get("deck_vs_field", []):
        g = groups[f["group"]]
        for r in f["rows"]:
            wr = r["combined"]["win_rate"]
            if wr.get("rate") is not None:
                decks.append((abs(wr["rate"] - 0.5), g, r["deck"], wr))
    decks.sort(key=lambda x: -x[0])
    for _, g, deck, wr in decks[:N_DECKS]:
        text = (
            f"{deck}{_side(g)} wins {_pct(wr['rate'])}{_ci(wr)} of its decisive games against "
            f"the other decks ({g['label']}, n={wr['n']:,})"
        )
        out.append(_finding("deck_imbalance", g["id"], text, wr, "deck-vs-field"))
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


def findings_html(findings: list) -> str:
    """The block: one line per finding, linking to its section."""
    if not findings:
        return ""
    items = []
    for f in findings:
        mark = ""
        if f["excludes_fair"] is True:
            mark = " <b>(interval excludes 50%)</b>"
        elif f["excludes_fair"] is False:
            mark = " (within noise of 50%)"
        items.append(
            f'<li>{html.escape(f["text"])}{mark} — <a href="#{f["section"]}">details</a></li>'
        )
    return (
        '<div class="findings" id="key-findings"><h2>Key findings</h2>'
        "<p class='note'>Each with its 95% Wilson interval; a win rate's fair value is 50%. "
        "The players of the study drive every number (weak players make tasks look hard).</p>"
        f"<ul>{''.join(items)}</ul></div>"
    )
