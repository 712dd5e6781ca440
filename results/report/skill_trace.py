"""The skill trace section (results/analysis/skill_trace.py) and the looks of a study played
``--until`` (results/looks.py). A mixin of the report builder (results.report): it writes
through ``self.w`` and reads ``self.s``, the summary."""

from results.analysis.labels import MODE_LABELS
from results.report.html import esc, pct, rests_on, table
from results.report.plot_trace import deck_trace, strength_trace


def slope_text(d) -> str:
    if d["slope"] is None:
        return "–"
    return f"{d['slope']:+.1f} [{d['slope_lo']:+.1f}, {d['slope_hi']:+.1f}]"


def joint_text(joint) -> str:
    """The joint test in words."""
    if joint is None:
        return (
            "balance against strength cannot be fitted: too few games (a pairing's games all "
            "went one way)"
        )
    verdict = (
        "balance depends on strength"
        if joint["depends"]
        else "no dependence of balance on strength shown"
    )
    test = f"likelihood-ratio χ² {joint['chi2']:.1f} on {joint['df']} df"
    return f"{verdict} ({test}, p {joint['p_value']:.3g})"


def strength_text(strength) -> str:
    """The strength trace in words: does doubling still win, at each level?"""
    parts = []
    for r in strength:
        if r["rate"] is None:
            parts.append(f"{r['to']} vs {r['from']}: no games")
            continue
        word = "wins" if r["edge"] else "no edge shown"
        parts.append(
            f"{r['to']} vs {r['from']} {pct(r['rate'])} [{pct(r['lo'])}, {pct(r['hi'])}] ({word})"
        )
    return "; ".join(parts)


class TraceSection:
    def skill_trace(self):
        self.h2("skill-trace")
        t = self.s.get("skill_trace")
        if not t:
            self.w(
                "<p>This study has no skill trace (a player's budget doubled level by level: "
                "<code>kalarite trace</code>, or a spec's <code>trace</code> key).</p>"
            )
            self.end()
            return
        levels = ", ".join(str(b) for b in t["levels"])
        self.w(
            f"<p>{esc(t['player'])} at {esc(t['setting'])} {esc(levels)}: self-play at each "
            "level (every pairing of different decks), and each two adjacent levels against "
            "each other with every deck against itself, in both seats. The <b>strength "
            "trace</b>: does the larger budget still win? The <b>deck trace</b>: each deck's "
            "win rate against the field at each level (95% bands), and its slope in points "
            "per doubling of the budget (95%), from a logistic regression of every self-play "
            "game on its pairing, the first mover and deck × log2(budget); the joint test "
            "asks whether balance depends on strength at all.</p>"
        )
        for mode, m in t["modes"].items():
            label = MODE_LABELS.get(mode, mode)
            self.w(f"<h3>{esc(label)}</h3>")
            self.w(
                f"<p><b>Strength trace</b>: {esc(strength_text(m['strength']))}.</p>",
                f"<p><b>Deck trace</b>: {esc(joint_text(m['joint']))}.</p>",
            )
            self.img(
                f"strength-trace-{mode}",
                strength_trace,
                f"{label}: does doubling {t['setting']} still win?",
                m["strength"],
                t["setting"],
                alt=f"{label}: the larger budget's win rate against the smaller, per level",
            )
            self.img(
                f"deck-trace-{mode}",
                deck_trace,
                f"{label}: each deck against the field, by {t['setting']}",
                m,
                t["levels"],
                t["setting"],
                alt=f"{label}: each deck's win rate against the field at each budget",
            )
            rows = []
            for deck, d in m["decks"].items():
                rates = {r["budget"]: r for r in d["rates"]}
                rows.append(
                    [deck, slope_text(d)]
                    + [pct(rates[b]["rate"]) if b in rates else "–" for b in t["levels"]]
                )
            n = sum(r["decisive"] for d in m["decks"].values() for r in d["rates"]) // 2
            self.w(
                table(
                    ["deck", "slope, points per doubling [95%]"]
                    + [f"{t['setting']} {b}" for b in t["levels"]],
                    rows,
                    rests_on(n, "decisive self-play games"),
                    left=1,
                )
            )
        self.end()

    def looks(self):
        self.h2("looks")
        lk = self.s.get("looks")
        if not lk:
            self.w(
                "<p>This study played all its games (no <code>--until</code>: see "
                "<code>kalarite study --until</code>).</p>"
            )
            self.end()
            return
        stop = lk.get("stopped")
        head = (
            f"Stopped at look {stop['look']} of {len(lk['looks'])}: {stop['why']}."
            if stop
            else "The study has not stopped yet (it is unfinished)."
        )
        self.w(
            f"<p>Played until {esc(lk['means'] or lk['rule'])}: looks after "
            f"{esc(', '.join(f'{g:,}' for g in lk['looks']))} games a matchup (the last the "
            f"cap), {esc(lk['spending'] or '')}. {esc(head)} This report reads the games of "
            f"look {lk['look']} ({lk['games']:,} a matchup), and its stability rule runs every "
            f"test at alpha {lk['alpha']:.3g} (intervals at {100 * lk['interval']:.2f}%), so "
            "its verdicts and their intervals hold whatever look the study stopped at. The "
            "other sections' intervals are the usual 95% ones.</p>"
        )
        rows = [
            [
                str(r["look"]),
                f"{r['games']:,}",
                f"{r['alpha']:.3g}",
                "yes" if r["decided"] else "no",
                r["why"],
            ]
            for r in lk["results"]
        ]
        self.w(
            table(
                ["look", "games a matchup", "alpha", "decided", "why"],
                rows,
                "Each look as the run read it.",
                left=0,
            )
        )
        self.end()
