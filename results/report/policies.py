"""The policies section: how each player (policy) fares. A mixin of the
report builder (results.report): it writes through ``self.w`` and reads ``self.s``, the summary."""

from results import analysis
from results.report import plots
from results.report.html import Cell, esc, rate_cell, record_cells, rests_on, table, win_rate_of
from results.stats import flip


class PolicySection:
    def policies(self):
        self.h2("policies")
        if self.no_two_seat():
            return
        p = self.s["policies"]
        self.w(
            f"<p class='note'>{esc(p['note'])}. Win rate of the first-named policy over "
            "decisive games with its 95% Wilson interval; Holm over the pairings of a mode."
            "</p>"
        )
        if not p["several"]:
            self.w(
                "<p>This study has a single policy per mode: see the first-player section "
                "for its self-play.</p>"
            )
        for m in p["modes"]:
            self.w(f"<h3>{esc(analysis.MODE_LABELS.get(m['mode'], m['mode']))}</h3>")
            rows = []
            for x in m["pairings"]:
                if x["self_play"]:
                    rec = [
                        Cell(
                            "self-play: first mover " + rate_cell(x["first"]["win_rate"], True).html
                        ),
                        "",
                        "",
                    ]
                else:
                    rec = record_cells(x["record"])
                rows.append(
                    [
                        x["policy"],
                        x["opponent"],
                        *rec,
                        rate_cell(win_rate_of(x["first"]), True),
                        rate_cell(win_rate_of(x["second"]), True),
                        f"{x['games']:,}",
                    ]
                )
            n = sum(x["games"] for x in m["pairings"])
            self.w(
                table(
                    [
                        "policy",
                        "opponent",
                        "win rate [95% CI]",
                        "W–L–D",
                        "draw rate",
                        "moving first",
                        "moving second",
                        "games",
                    ],
                    rows,
                    rests_on(n),
                    left=2,
                )
            )
            if len(m["policies"]) > 1:
                cells = {}
                for x in m["pairings"]:
                    if x["self_play"]:
                        cells[(x["policy"], x["policy"])] = x["first"]["win_rate"]
                    else:
                        cells[(x["policy"], x["opponent"])] = x["record"]["win_rate"]
                        cells[(x["opponent"], x["policy"])] = flip(x["record"])["win_rate"]
                self.img(
                    f"policies-{m['mode']}",
                    plots.policy_matrix,
                    f"{analysis.MODE_LABELS.get(m['mode'], m['mode'])}: policy vs policy",
                    m["policies"],
                    cells,
                )
        self.end()
