"""The Deathmatch section: points by source, per group and per deck. A mixin of the report builder
(results.report): it writes through ``self.w`` and reads ``self.s``, the summary."""

from results.report import plots
from results.report.html import esc, mean_cell, pct, rests_on, table


class DeathmatchSection:
    def deathmatch(self):
        self.h2("deathmatch")
        if self.no_two_seat():
            return
        dm = self.s["deathmatch"]
        if not dm["groups"]:
            self.w("<p>This study has no Deathmatch games.</p>")
        labels = dm["labels"]
        for dg in dm["groups"]:
            g = self.groups[dg["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            self.fold("points by source: the table and the plot")
            self.w(
                "<p class='note'>Mean points per game of a deck (seat-game) by source, with "
                "95% t intervals, and each source's share of all points scored.</p>",
            )
            heads = ["deck", "score"] + [labels[s] for s in dm["sources"]] + ["seat-games"]
            rows = []
            for r in [{"deck": "all decks", "policy": None} | dg["overall"], *dg["decks"]]:
                label = r["deck"] + (f" ({r['policy']})" if r.get("policy") else "")
                row = [label, mean_cell(r["score"])]
                for s in dm["sources"]:
                    src = r["sources"][s]
                    cell = mean_cell(src["per_game"])
                    cell.html += (
                        esc(f" · {pct(src['share'], 0)}") if src["share"] is not None else ""
                    )
                    row.append(cell)
                row.append(f"{r['seat_games']:,}")
                rows.append(row)
            self.w(table(heads, rows, rests_on(dg["games"])))
            bars = [("all decks", dg["overall"])] + [
                (r["deck"] + (f" ({r['policy']})" if r.get("policy") else ""), r)
                for r in dg["decks"]
            ]
            self.img(
                f"deathmatch-{g['id']}",
                plots.points_by_source,
                f"{g['label']}: points by source",
                dm["sources"],
                labels,
                bars,
            )
            self.unfold()
        self.end()
