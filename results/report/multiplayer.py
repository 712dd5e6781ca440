"""Report section on melee and team play (three or four seats). A mixin of the report builder
(results.report): it writes through ``self.w`` and reads ``self.s``, the summary."""

from results import analysis
from results.report import plots
from results.report.html import (
    SMALL_MARK,
    esc,
    estimate_of,
    interval,
    mean_cell,
    num,
    pct,
    rate_cell,
    record_cells,
    rests_on,
    share_record_cells,
    table,
)
from results.stats import SMALL_SAMPLE


class MultiplayerSections:
    def multi_note(self):
        """The one line saying that a two-seat-only section leaves games of 3-4 seats out."""
        mp = self.s["multiplayer"]
        if mp["groups"]:
            self.w(f"<p class='note'>{esc(mp['cards_note'])}</p>")

    def multiplayer(self):
        self.h2("multiplayer")
        mp = self.s["multiplayer"]
        if not mp["groups"]:
            self.w("<p>This study has no games of three or four seats (melee, team play).</p>")
            self.end()
            return
        self.w(
            f"<p class='note'>{esc(mp['note'])} Each win rate has its 95% Wilson interval; "
            "<span class='flag'>*</span> the interval excludes the fair share; "
            "<span class='sig'>red</span>: the score test against the fair share is also "
            "significant after Holm's correction over the rows of the table; "
            f"{SMALL_MARK}: fewer than {SMALL_SAMPLE} decisive seat-games. W–L–S: wins, "
            "losses, shared wins.</p>",
            f"<p class='note'>{esc(mp['cards_note'])}</p>",
        )
        reasons = mp["reasons"]
        erows = []
        for g in mp["groups"]:
            er = g["end_reasons"]["reasons"]
            erows.append(
                [
                    g["label"],
                    *[rate_cell(er[r], show_n=False) for r in reasons],
                    rate_cell(g["shared"], show_n=False),
                    mean_cell(g["turns"], 1),
                    f"{g['games']:,}",
                ]
            )
        self.w(
            "<h3>End reasons, shared wins and game length</h3>",
            table(
                [
                    "multiplayer group",
                    *[analysis.END_LABELS.get(r, r) for r in reasons],
                    "shared win",
                    "turns: mean [95% CI]",
                    "games",
                ],
                erows,
                rests_on(mp["games"]),
            ),
        )
        self.img(
            "multiplayer-end-reasons",
            plots.end_reasons,
            "Multiplayer: end reasons",
            reasons,
            analysis.END_LABELS,
            [(g["label"], g["end_reasons"]["reasons"]) for g in mp["groups"]],
        )
        for g in mp["groups"]:
            share = g["fair_share"]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            facts = (
                f"{g['games']:,} games in {g['matchups']:,} matchups; seat policies "
                f"{' / '.join(g['seat_policies'])}; fair share of a "
                + ("team" if g["team"] else "seat")
                + f": {pct(share)}. Shared wins: {pct(g['shared']['rate'])}"
                + interval(g["shared"])
                + f". Turns: {num(g['turns']['mean'], 1)}"
                + (
                    f" [{num(g['turns']['lo'], 1)}, {num(g['turns']['hi'], 1)}]"
                    if g["turns"]["lo"] is not None
                    else ""
                )
                + "."
            )
            self.w(f"<p>{esc(facts)}</p>")
            self.fold("per deck, per turn position" + (" and per team" if g["team"] else ""))
            if g["melee"]:
                ml = g["melee"]
                self.w(
                    table(
                        ["final score (lowest colour column)", "mean [95% CI]", "n"],
                        [
                            ["winner", mean_cell(ml["winner_score"]), ml["winner_score"]["n"]],
                            ["all seats", mean_cell(ml["seat_score"]), ml["seat_score"]["n"]],
                        ],
                        rests_on(g["games"], extra="Winner: games with a single winner."),
                    )
                )
            uniform = g["uniform_policies"]
            if g["per_deck"]:
                rows = [
                    [
                        r["deck"] + ("" if uniform else f" ({r['policy']})"),
                        *share_record_cells(r["record"]),
                        mean_cell(r["score"]),
                        f"{r['seat_games']:,}",
                    ]
                    for r in g["per_deck"]
                ]
                self.w(
                    table(
                        [
                            "deck" + ("" if uniform else " (policy)"),
                            f"win rate [95% CI] vs fair share {pct(share)}",
                            "W–L–S",
                            "shared",
                            "final score: mean [95% CI]",
                            "seat-games",
                        ],
                        rows,
                        rests_on(
                            g["games"],
                            extra=f"Per deck: its seat-games; the {g['mirror_games']:,} games "
                            "in which every seat plays the same deck are left out.",
                        ),
                    )
                )
            else:
                self.w("<p>No games between different decks in this group.</p>")
            prow = [
                [r["label"], *share_record_cells(r["record"]), f"{r['record']['games']:,}"]
                for r in g["positions"]
            ]
            self.w(
                table(
                    [
                        "turn position",
                        f"win rate [95% CI] vs fair share {pct(share)}",
                        "W–L–S",
                        "shared",
                        "seat-games",
                    ],
                    prow,
                    rests_on(
                        g["games"],
                        extra="First-player edge: the seat moving 1st, 2nd... in turn order"
                        + (
                            " (in team play the 1st and 3rd players are teammates, as are the "
                            "2nd and 4th)."
                            if g["team"]
                            else "."
                        ),
                    ),
                )
            )
            forest = [
                (r["label"], *estimate_of(r["record"]["win_rate"]), plots.ORANGE, None)
                for r in g["positions"]
            ]
            forest += [
                (
                    r["deck"] + ("" if uniform else f" ({r['policy']})"),
                    *estimate_of(r["record"]["win_rate"]),
                    plots.BLUE,
                    f"n={r['record']['win_rate']['n']}",
                )
                for r in g["per_deck"]
            ]
            if g["team"]:
                ft = g["first_team"]
                self.w(
                    table(
                        ["", "win rate [95% CI] vs 50%", "W–L–S", "shared", "games"],
                        [["team of the first player", *record_cells(ft), f"{ft['games']:,}"]],
                        rests_on(g["games"]),
                    )
                )
                crows = [
                    [r["label"], *share_record_cells(r["record"]), f"{r['record']['games']:,}"]
                    for r in g["compositions"]
                ]
                if crows:
                    self.w(
                        table(
                            [
                                "team composition",
                                "win rate [95% CI] vs 50%",
                                "W–L–S",
                                "shared",
                                "team-games",
                            ],
                            crows,
                            rests_on(
                                g["games"],
                                extra="Per team composition (the two teammates' decks): its "
                                f"team-games; the {g['composition_mirror_team_games']:,} "
                                "team-games against the same composition are left out.",
                            ),
                        )
                    )
                else:
                    self.w("<p>No games between different team compositions in this group.</p>")
                forest.insert(
                    0, ("first player's team", *estimate_of(ft["win_rate"]), plots.RED, None)
                )
                forest += [
                    (r["label"], *estimate_of(r["record"]["win_rate"]), plots.GREEN, None)
                    for r in g["compositions"]
                ]
            self.img(
                f"multiplayer-{g['id']}",
                plots.forest,
                f"{g['label']}: win rates (turn positions, decks"
                + (", team compositions)" if g["team"] else ")"),
                forest,
                f"win rate (decisive games, 95% Wilson); dashed: fair share {pct(share)}",
                share,
            )
            self.unfold()
        self.end()
