"""The cards section: each card's plays, wins and contrasts. A mixin of the report builder
(results.report): it writes through ``self.w`` and reads ``self.s``, the summary."""

from results.report import plots
from results.report.html import Cell, diff_cell, esc, pct, rate_cell, rests_on, table


class CardSections:
    def cards(self):
        self.h2("cards")
        if self.no_two_seat():
            return
        c = self.s["cards"]
        self.w(
            "<p class='note'><b>What these numbers can and cannot say.</b> "
            f"{esc(c['vs_deck_note'])}</p>",
            "<p class='note'>Per card, in the table: the share of the seat-games that could "
            "hold it (a deck's cards: the seat-games of that deck; legends and flares: every "
            "seat-game) in which it was drawn, played, discarded (discard action) or returned "
            "(to the bottom of its deck after a discard action). The raw comparison of the "
            "games in which a card was played with those in which it was not is in "
            "summary.json (<code>played_minus_not</code>) and is not shown: nearly every card "
            "looks strong on it, because summoning goes with winning.</p>",
        )
        self.multi_note()
        for cg in c["groups"]:
            self.w(f"<h3>{esc(cg['label'])}</h3>")
            flagged = [r for r in cg["cards"] if (r.get("vs_deck") or {}).get("significant")]
            tested = sum(1 for r in cg["cards"] if r.get("vs_deck"))
            if flagged:
                names = ", ".join(
                    f"{r['card']} ({100 * r['vs_deck']['diff']:+.1f} pts)" for r in flagged
                )
                self.w(
                    f"<p><b>Stand out from their deck-mates</b> ({len(flagged)} of {tested} "
                    f"cards compared, Holm p &lt; 0.05): {esc(names)}.</p>"
                )
            else:
                self.w(
                    f"<p>No card stands out from its deck-mates after Holm's correction "
                    f"({tested} of {len(cg['cards'])} cards played often enough to compare)."
                    "</p>"
                )
            self.fold(f"the plot and the table of the {len(cg['cards'])} cards")
            if cg["cards"]:
                self.img(
                    f"cards-{cg['group']}" + (f"-{cg['side']}" if cg["side"] else ""),
                    plots.cards,
                    cg["label"],
                    cg["cards"],
                )
            rows = []
            for r in cg["cards"]:
                gw = r["games_with"]
                vd = r.get("vs_deck")
                rows.append(
                    [
                        Cell(
                            esc(r["card"])
                            + (
                                f"<br><span class='note'>{esc(r['name'])}</span>"
                                if r["name"] != r["card"]
                                else ""
                            )
                        ),
                        f"{r['seat_games']:,}",
                        pct(gw["drawn"]["rate"]),
                        pct(r["played"]["rate"]),
                        pct(gw["discarded"]["rate"]),
                        pct(gw["returned"]["rate"]),
                        rate_cell(r["when_played"]["win_rate"]),
                        pct(vd["baseline"]) if vd else Cell("–", "small"),
                        diff_cell(vd) if vd else Cell("– (too few plays)", "small"),
                    ]
                )
            self.w(
                table(
                    [
                        "card",
                        "seat-games",
                        "drawn",
                        "played",
                        "discarded",
                        "returned",
                        "win rate when played",
                        "deck's other cards",
                        "vs its deck-mates [95% CI]",
                    ],
                    rows,
                    rests_on(cg["games"], extra=f"{cg['seat_games']:,} seat-games."),
                )
            )
            self.unfold()
        self.end()
