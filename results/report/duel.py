"""Report sections on two-seat results: the matchup matrix, deck vs field, first player. A mixin of
the report builder (results.report): it writes through ``self.w`` and reads ``self.s``, the
summary."""

from results.report import plots
from results.report.html import (
    SMALL_MARK,
    diff_cell,
    esc,
    estimate_of,
    pct,
    played_by,
    rate_cell,
    record_cells,
    rests_on,
    table,
    win_rate_of,
)
from results.stats import SMALL_SAMPLE


class DuelSections:
    def matchups(self):
        self.h2("matchups")
        if self.no_two_seat():
            return
        self.w(
            "<p class='note'>Win rate of the row deck over decisive games (draws — shared wins "
            "— are left out of it and shown as the draw rate), with its 95% Wilson interval. "
            "<span class='flag'>*</span> the interval excludes 50%; "
            "<span class='sig'>red</span>: also significant after Holm's correction over the "
            f"matchups of the group; {SMALL_MARK}: fewer than {SMALL_SAMPLE} decisive games. A "
            "mirror match of one policy against itself has no side: it shows the first mover's "
            "results.</p>"
        )
        for m in self.s["matchups"]:
            g = self.groups[m["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>", f"<p class='note'>{esc(m['perspective'])}.</p>")
            for key in ("combined", "first", "second"):
                if key == "first":
                    self.fold("the same matrix for each seat order (row deck first, second)")
                self.img(
                    f"matchups-{g['id']}" + ("" if key == "combined" else f"-{key}"),
                    plots.matchup_matrix,
                    g["label"],
                    m["decks"],
                    m["cells"],
                    key,
                    alt=f"{g['label']}: matchup matrix, {plots.PANELS[key]}",
                    zoom=True,
                )
            self.unfold()
            self.fold(matchup_table_title(g["matchups"], len(m["cells"])))
            rows = []
            for c in m["cells"]:
                label = f"{c['deck']} vs {c['opp_deck']}"
                if c["mirror"]:
                    label += " (mirror: first mover)"
                comb = c["combined"]
                rows.append(
                    [label, *record_cells(comb)]
                    + [
                        rate_cell(win_rate_of(c["first"]), True),
                        rate_cell(win_rate_of(c["second"]), True),
                    ]
                    + [f"{comb['games']:,}"]
                )
            self.w(
                table(
                    [
                        "matchup (row vs column)",
                        "win rate, both orders [95% CI]",
                        "W–L–D",
                        "draw rate",
                        "row deck first",
                        "row deck second",
                        "games",
                    ],
                    rows,
                    rests_on(m["games"]),
                )
            )
            self.unfold()
        self.end()

    def field(self):
        self.h2("deck-vs-field")
        if self.no_two_seat():
            return
        for f in self.s["deck_vs_field"]:
            g = self.groups[f["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>", f"<p class='note'>{esc(f['note'])}.</p>")
            if not f["rows"]:
                self.w("<p>No matches between different decks in this group.</p>")
                continue
            rows = [
                [r["deck"], *record_cells(r["combined"]), f"{r['combined']['games']:,}"]
                for r in f["rows"]
            ]
            heads = ["deck", "win rate vs field [95% CI]", "W–L–D", "draw rate", "games"]
            use = mechanic_cells(self.s.get("mechanics") or {}, f["rows"], f["group"])
            if use:
                heads.append("mechanic use per game")
                for row, cell in zip(rows, use, strict=True):
                    row.append(cell)
            self.w(table(heads, rows, rests_on(f["games"], extra=deck_games_note(f))))
            if use:
                self.w(
                    "<p class='note'>Mechanic use: the deck's own seat in the same games, mean "
                    "per game: frozen effects thawed (Everfrost), warps played and the share of "
                    "games ending with a pending being (Etherweave, -2 points each), turn ends "
                    "holding a Gateway (Nethervoid).</p>"
                )
            self.fold("the forest plot (the first screen shows every group of the mode)")
            self.img(
                f"field-{g['id']}",
                plots.forest,
                f"{g['label']}: deck vs field",
                [
                    (
                        r["deck"] + played_by(g),
                        *estimate_of(r["combined"]["win_rate"]),
                        None,
                        f"n={r['combined']['win_rate']['n']}",
                    )
                    for r in f["rows"]
                ],
                "win rate against the other decks (95% Wilson)",
            )
            self.unfold()
        self.end()

    def first_player(self):
        self.h2("first-player")
        if self.no_two_seat():
            return
        self.w(
            "<p class='note'>The first player alternates between the seats (game index "
            "parity). First-mover win rate over decisive games; per deck: the deck's win rate "
            "against the other decks when it moves first and when it moves second, and the "
            "difference (95% Newcombe interval, score test, Holm over the decks).</p>"
        )
        rows = []
        for f in self.s["first_player"]:
            rows.append(
                [self.glabel(f["group"]), *record_cells(f["first_mover"]), f"{f['games']:,}"]
            )
        total = sum(f["games"] for f in self.s["first_player"])
        self.w(
            table(
                ["group", "first mover win rate [95% CI]", "W–L–D", "draw rate", "games"],
                rows,
                rests_on(total),
            )
        )
        for f in self.s["first_player"]:
            g = self.groups[f["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            self.fold("per matchup and per deck, with the plot")
            mrows = [
                [
                    m["matchup"],
                    m["policies"],
                    *record_cells(m["first_mover"]),
                    f"{m['first_mover']['games']:,}",
                ]
                for m in f["matchups"]
            ]
            self.w(
                table(
                    [
                        "matchup",
                        "policies",
                        "first mover win rate [95% CI]",
                        "W–L–D",
                        "draw rate",
                        "games",
                    ],
                    mrows,
                    rests_on(f["games"]),
                    left=2,
                )
            )
            if f["per_deck"]:
                drows = [
                    [
                        r["deck"],
                        rate_cell(win_rate_of(r["first"]), True),
                        rate_cell(win_rate_of(r["second"]), True),
                        diff_cell(r["first_minus_second"]),
                    ]
                    for r in f["per_deck"]
                ]
                self.w(
                    table(
                        [
                            "deck (vs field)",
                            "win rate moving first",
                            "win rate moving second",
                            "first minus second",
                        ],
                        drows,
                        rests_on(
                            f["games_non_mirror"],
                            extra="Mirror matches left out. " + deck_games_note(f),
                        ),
                    )
                )
                prow = []
                for r in f["per_deck"]:
                    deck = r["deck"] + played_by(g)
                    prow.append(
                        (f"{deck} first", *estimate_of(win_rate_of(r["first"])), plots.BLUE, None)
                    )
                    prow.append(
                        (
                            f"{deck} second",
                            *estimate_of(win_rate_of(r["second"])),
                            plots.ORANGE,
                            None,
                        )
                    )
                prow.insert(
                    0,
                    (
                        "all: first mover",
                        *estimate_of(f["first_mover"]["win_rate"]),
                        plots.RED,
                        None,
                    ),
                )
                self.img(
                    f"first-player-{g['id']}",
                    plots.forest,
                    f"{g['label']}: win rate moving first vs second",
                    prow,
                    "win rate (decisive games, 95% Wilson)",
                )
            self.unfold()
        self.end()


def matchup_table_title(matchups: int, rows: int) -> str:
    """The fold of a group's matchup table: its matchups as the Study table counts them, and
    why there are more rows (a matchup of two decks played by one player reads from both)."""
    title = f"the matchup table ({matchups:,} matchup{'s' * (matchups != 1)}"
    if rows > matchups:
        title += f"; {rows:,} rows: each matchup of two different decks from both decks' sides"
    return title + ")"


def deck_games_note(f: dict) -> str:
    """What a per-deck table's rows add up to when a game is in two of them."""
    if f["deck_games"] == f["games"]:
        return ""
    return (
        f"Each game counts once for each of its two decks: the rows add up to "
        f"{f['deck_games']:,} deck-games."
    )


def mechanic_cells(mechanics: dict, rows, group: str) -> list:
    """One cell per deck-vs-field row: its own mechanic's use in this group ("–" for a deck
    without one); [] when no expansion deck of the group has figures (an older dataset)."""
    from results.analysis.mechanics import DECK_MECHANICS

    cells = []
    for r in rows:
        m = (mechanics.get(r["deck"]) or {}).get("by_group", {}).get(group)
        if m is None:
            cells.append("–")
            continue
        parts = []
        for col, label in DECK_MECHANICS[r["deck"]]:
            v = m[col]
            parts.append(f"{label} {pct(v, 0)}" if col == "pending_at_end" else f"{label} {v:.2f}")
        cells.append(" · ".join(parts))
    return cells if any(c != "–" for c in cells) else []
