"""Report section on High Form tasks. A mixin of the report builder (results.report): it writes
through ``self.w`` and reads ``self.s``, the summary."""

from results.report import plots
from results.report.html import Cell, esc, interval, mean_cell, num, pct, rate_cell, rests_on, table


class TaskSections:
    def tasks(self):
        self.h2("tasks")
        if self.no_two_seat():
            return
        t = self.s["tasks"]
        shown = t["display_recorded"]
        if shown:
            self.w(
                f"<p class='note'>{esc(t['note'])} Marked <i>hard</i>: shown, and claimed in "
                f"fewer than {pct(t['hard_threshold'], 0)} of the games it was shown (upper "
                "end of the 95% Wilson interval); <i>easy</i>: claimed in more than "
                f"{pct(t['easy_threshold'], 0)} of the games it was shown (lower end of the "
                "interval). Both are for the players of the group: weak players make every "
                "task look hard.</p>"
            )
        else:
            self.w(f'<div class="missing"><b>Task display not recorded.</b> {esc(t["note"])}</div>')
        if not t["groups"]:
            self.w("<p>This study has no High Form games.</p>")
        self.multi_note()
        for tg in t["groups"]:
            g = self.groups[tg["group"]]
            self.w(f"<h3>{esc(g['label'])}</h3>")
            extra = ""
            if shown:
                extra = (
                    f" Tasks shown per game: {esc(num(tg['shown_per_game']['mean']))} "
                    "(3 available and the next task, more when tasks are claimed)."
                )
            self.w(
                f"<p>{tg['claims']:,} tasks claimed in {tg['games']:,} games: "
                f"{esc(num(tg['claims_per_game']['mean']))} per game; "
                f"games without any claim: {esc(pct(tg['games_without_claim']['rate']))}"
                f"{esc(interval(tg['games_without_claim']))}.{extra}</p>"
            )
            lists = []
            if shown:
                lists += [
                    ("Never shown", tg["never_shown"]),
                    ("Shown but never claimed", tg["shown_never_claimed"]),
                    (
                        f"Hard (claimed in fewer than {pct(t['hard_threshold'], 0)} of the "
                        "games shown)",
                        tg["hard"],
                    ),
                    (
                        f"Easy (claimed in more than {pct(t['easy_threshold'], 0)} of the "
                        "games shown)",
                        tg["easy"],
                    ),
                ]
            else:
                lists += [
                    ("Never claimed", tg["never_claimed"]),
                    (
                        f"Claimed in fewer than {pct(t['rare_threshold'], 0)} of games",
                        tg["rarely_claimed"],
                    ),
                ]
            for label, names in lists:
                if names:
                    self.w(f"<p><b>{esc(label)}</b> ({len(names)}): {esc(', '.join(names))}.</p>")
            if shown and tg["easy"] == []:
                self.w(
                    f"<p>No task is claimed in more than {pct(t['easy_threshold'], 0)} of the "
                    "games it was shown.</p>"
                )
            if shown and tg["claimed_not_shown"]:
                self.w(
                    f'<div class="warn"><b>inconsistent data</b>: {tg["claimed_not_shown"]} '
                    "claims of a task that tasks_shown does not mark as shown.</div>"
                )
            if not tg["all_tasks_listed"]:
                self.w(
                    "<p class='note'>Only tasks claimed at least once are listed (the "
                    "content changed since the study).</p>"
                )
            self.fold(f"the table and the plot of the {len(tg['tasks'])} tasks")
            heads = ["task"]
            if shown:
                heads += ["games shown [95% CI]"]
            heads += ["claims", "claim rate per game [95% CI]"]
            if shown:
                heads += ["claim rate given shown [95% CI]"]
            per = "per {} seat-game" + ("; given shown" if shown else "")
            heads += [f"by {d} ({per.format(d)})" for d in tg["decks"]]
            heads += [f"by {p}" + ("; given shown" if shown else "") for p in tg["policies"]]
            heads += ["points", "claim turn: median (p10–p90)", "mean turn [95% CI]"]
            rows = []
            for r in tg["tasks"]:
                if shown:
                    flag = next(
                        (
                            f" ({w})"
                            for w, on in (
                                ("never shown", r["never_shown"]),
                                ("shown, never claimed", r["shown_never_claimed"]),
                                ("hard", r["hard"]),
                                ("easy", r["easy"]),
                            )
                            if on
                        ),
                        "",
                    )
                else:
                    flag = (
                        " (never claimed)"
                        if r["never_claimed"]
                        else (" (rare)" if r["rarely_claimed"] else "")
                    )
                row = [Cell(esc(r["task"] + flag), "flag" if flag else "")]
                if shown:
                    sh = r["shown"]
                    c = rate_cell(sh, show_n=False)
                    row.append(Cell(f"{sh['k']:,}: " + c.html, c.cls))
                row += [f"{r['claims']:,}", rate_cell(r["claim_rate"], show_n=False)]
                if shown:
                    row.append(rate_cell(r["claimed_given_shown"], show_n=False))

                def both(per_game, given):
                    c = rate_cell(per_game, show_n=False)
                    if given is None:
                        return c
                    gc_ = rate_cell(given, show_n=False)
                    return Cell(f"{c.html}<br><span class='note'>{gc_.html}</span>", c.cls)

                row += [
                    both(r["by_deck"][d], r["by_deck_given_shown"][d] if shown else None)
                    for d in tg["decks"]
                ]
                row += [
                    both(r["by_policy"][p], r["by_policy_given_shown"][p] if shown else None)
                    for p in tg["policies"]
                ]
                pts = r["points"]
                row.append(
                    "–"
                    if not pts
                    else (str(pts["min"]) if pts["min"] == pts["max"] else num(pts["mean"]))
                )
                tr = r["turn"]
                row.append(
                    "–"
                    if not tr
                    else f"{num(tr['median'], 1)} ({num(tr['p10'], 1)}–{num(tr['p90'], 1)})"
                )
                row.append(mean_cell(tr["mean"], 1) if tr else Cell("–", "small"))
                rows.append(row)
            seat_games = ", ".join(f"{d}: {n:,}" for d, n in tg["deck_seat_games"].items())
            self.w(table(heads, rows, rests_on(tg["games"], extra=f"Seat-games: {seat_games}.")))
            self.img(f"tasks-{g['id']}", plots.tasks, f"{g['label']}: tasks", tg["tasks"], shown)
            self.unfold()
        self.end()
