"""The report's first screen: the picture of each deck against the field per mode (with who
played, how the games ended and how stable each verdict is under other players), then a line
per mode saying the same in words. A mixin of the report builder (results.report): it writes
through ``self.w`` and reads ``self.s["at_a_glance"]`` (results.analysis.glance)."""

from results.analysis.labels import MODE_LABELS
from results.analysis.stability import SENSITIVE, UNDETERMINED
from results.report.html import esc
from results.report.plot_glance import deck_vs_field_overview
from results.report.plot_trace import deck_trace


def _stability(stab) -> str:
    """The stability line, its verdict word in bold (red when player-sensitive, amber when
    undetermined)."""
    text = stab["text"][:1].upper() + stab["text"][1:]
    if stab.get("verdict") is None:
        return esc(text)
    word, rest = text.split(" ", 1)
    cls = {SENSITIVE: " class='weak'", UNDETERMINED: " class='open'"}.get(stab["verdict"], "")
    return f"<b{cls}>{esc(word)}</b> {esc(rest)}"


class GlanceSection:
    def glance(self):
        self.w('<section id="at-a-glance">')
        g = self.s.get("at_a_glance") or {"modes": []}
        if not g["modes"]:
            self.w(
                "<h2>At a glance</h2><p>This study has no two-seat games with two different "
                "decks to set against each other: see the sections below"
                + (
                    " (<a href='#multiplayer'>Multiplayer</a> for games of three or four seats)"
                    if self.s["multiplayer"]["groups"]
                    else ""
                )
                + ".</p></section>"
            )
            return
        self.img(
            "at-a-glance",
            deck_vs_field_overview,
            g,
            alt="each deck's win rate against the field per mode, with 95% intervals",
            zoom=True,
        )
        trace = self.s.get("skill_trace")
        for mode, tm in (trace or {}).get("modes", {}).items():  # beside the three-way label
            self.img(
                f"at-a-glance-trace-{mode}",
                deck_trace,
                f"{MODE_LABELS.get(mode, mode)}: the deck trace",
                tm,
                trace["levels"],
                trace["setting"],
                True,
                alt=f"{mode}: each deck's win rate against the field at each budget",
            )
        lines = []
        for m in g["modes"]:
            weak = (
                " <b class='weak'>⚠ weak play: the tie-breakers or the deck count decided most "
                "games; the balance numbers describe the players more than the decks.</b>"
                if m["weak_play"]
                else ""
            )
            extra = "".join(
                f" {esc(x[:1].upper() + x[1:])}." for x in (m.get("trace"), m.get("looks")) if x
            )
            lines.append(
                f"<li><b>{esc(m['label'])}</b> — players: {esc('; '.join(m['players']))}. "
                f"How the games ended: {esc(m['ended'])}. {_stability(m['stability'])}."
                f"{extra}{weak}</li>"
            )
        # the per-deck labels are drawn only beside a panel whose stability was measured
        per_deck = any(m["stability"]["measured"] for m in g["modes"])
        self.w(  # the rule's words per mode, folded: the plain lines follow (first_screen)
            "<details class='glance-rule'><summary>Each mode's verdict in the stability "
            "rule's words</summary>",
            '<ul class="glance note">',
            *lines,
            "</ul>",
            "<p class='note'>Filled dot: the interval excludes 50%. Stability under stronger "
            "play compares the top two players of the study (and the top one with double its "
            "search budget where the study has it), deck by deck, with the margin M given in "
            "each line (3 points unless the spec's <code>stability_margin</code> or "
            "<code>--margin</code> says otherwise): <b>stable</b> when every deck's move lies "
            "within ±M with 90% confidence, <b>player-sensitive</b> when some deck's move is "
            "confidently beyond ±M (Holm over the decks), else <b>undetermined</b>, with the "
            "games a deck would need to decide it. Each line also says whether the players "
            "differ at all, and describes the rankings (tau with its interval, confident "
            "reversals, verdicts flipping between favoured and disfavoured). "
            + ("Per deck on the right: its own word. " if per_deck else "")
            + "See <a href='#sensitivity'>Policy sensitivity</a>, "
            "<a href='#decisiveness'>Decisiveness</a> and <a href='#deck-vs-field'>Deck vs "
            "field</a>. Click the picture to enlarge it.</p></details>",
            "</section>",
        )
