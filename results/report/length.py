"""Report sections on game length and end reasons. A mixin of the report builder (results.report):
it writes through ``self.w`` and reads ``self.s``, the summary."""

from results import analysis
from results.report import plots
from results.report.html import esc, mean_cell, num, pct, rate_cell, rests_on, seats_label, table


class LengthSections:
    def game_length(self):
        self.h2("game-length")
        if self.no_two_seat():
            return
        for gl in self.s["game_length"]:
            g = self.groups[gl["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            t, a = gl["turns"], gl["actions"]
            self.w(
                f"<p>Turns per game: mean {esc(num(t['mean']['mean'], 1))}, median "
                f"{esc(num(t['median'], 1))}; actions: mean {esc(num(a['mean']['mean'], 1))}.</p>"
            )
            self.fold("the tables (per matchup) and the histograms")

            def qrow(label, q, extra=()):
                return [
                    label,
                    *extra,
                    mean_cell(q["mean"], 1),
                    num(q["sd"], 1),
                    q["min"],
                    num(q["p10"], 1),
                    num(q["median"], 1),
                    num(q["p90"], 1),
                    q["max"],
                    f"{q['games']:,}",
                ]

            heads = ["", "mean [95% CI]", "sd", "min", "p10", "median", "p90", "max", "games"]
            self.w(
                table(
                    heads,
                    [qrow("turns", gl["turns"]), qrow("actions", gl["actions"])],
                    rests_on(gl["games"]),
                )
            )
            mrows = []
            for m in gl["matchups"]:
                mrows.append(qrow(m["matchup"], m["turns"], (m["policies"], "turns")))
                mrows.append(qrow(m["matchup"], m["actions"], (m["policies"], "actions")))
            self.w(
                table(
                    ["matchup", "policies", "", *heads[1:]],
                    mrows,
                    rests_on(gl["games"], extra="Per matchup."),
                    left=3,
                )
            )
            self.img(
                f"length-{g['id']}", plots.histograms, f"{g['label']}: game length", gl["histogram"]
            )
            self.unfold()
        self.end()

    def end_reasons(self):
        self.h2("end-reasons")
        if self.no_two_seat():
            return
        self.w(
            "<p class='note'>Why games ended: <b>score reached</b> (a seat reached the target "
            "score), <b>deck exhausted</b> (a seat drew its last being card), <b>turn cap</b> "
            "(the study's turn limit). Shares with 95% Wilson intervals.</p>"
        )
        for e in self.s["end_reasons"]:
            g = self.groups[e["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            labels = [analysis.END_LABELS.get(r, r) for r in e["reasons"]]
            shares = ", ".join(
                f"{pct(e['overall']['reasons'][r]['rate'], 0)} {lab}"
                for r, lab in zip(e["reasons"], labels, strict=True)
            )
            self.w(f"<p>All matchups: {esc(shares)}.</p>")
            self.fold("per matchup, with the plot")
            rows = [
                [
                    "all matchups",
                    "",
                    *[rate_cell(e["overall"]["reasons"][r], show_n=False) for r in e["reasons"]],
                    f"{e['overall']['games']:,}",
                ]
            ]
            for m in e["matchups"]:
                rows.append(
                    [
                        m["matchup"],
                        m["policies"],
                        *[rate_cell(m["reasons"][r], show_n=False) for r in e["reasons"]],
                        f"{m['games']:,}",
                    ]
                )
            self.w(
                table(["matchup", "policies", *labels, "games"], rows, rests_on(e["games"]), left=2)
            )
            bars = [("all", e["overall"]["reasons"])] + [
                (seats_label(m["matchup"], m["policies"]), m["reasons"]) for m in e["matchups"]
            ]
            self.img(
                f"end-reasons-{g['id']}",
                plots.end_reasons,
                f"{g['label']}: end reasons",
                e["reasons"],
                analysis.END_LABELS,
                bars,
            )
            self.unfold()
        self.end()
