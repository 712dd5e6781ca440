"""The designer's first screen: per mode one line per deck in plain words, the players it rests
on, the seat edge, the High Form tasks under the top player and what the study could not have
seen, then, folded below, how this was decided (the statistics' names). A mixin of the report
builder (results.report): it writes through ``self.w`` and reads
``self.s["at_a_glance"]["first_screen"]`` (results/analysis/first_screen.py)."""

from results.analysis.first_screen import first_screen
from results.analysis.stability import SENSITIVE, STABLE, UNDETERMINED
from results.report.html import esc

# the deck line's mark: the verdict it carries, by colour (the glance's classes)
MARKS = {SENSITIVE: "weak", UNDETERMINED: "open", STABLE: ""}


def _line(text: str, verdict=None) -> str:
    cls = MARKS.get(verdict, "")
    return f"<li{f' class={cls!r}' if cls else ''}>{esc(text)}</li>"


class FirstScreenPart:
    def first_screen_part(self):
        """The plain lines, then the folded "how this was decided" part."""
        glance = self.s.get("at_a_glance") or {}
        fs = glance.get("first_screen") or first_screen(self.s)
        self.w('<div id="first-screen"><h2>In plain words</h2>')
        if not fs["modes"]:
            self.w("<p>This study has no two-seat games with two decks to set side by side.</p>")
        for m in fs["modes"]:
            self.w(
                f"<h3>{esc(m['label'])}</h3>",
                f"<p class='note rests-on'>{esc(m['rests_on'])}.</p>",
                '<ul class="glance plain">',
                *(_line(d["line"], d["verdict"]) for d in m["decks"]),
                "</ul>",
            )
            for key in ("seat_edge", "power"):
                if m.get(key):
                    self.w(f"<p class='{key.replace('_', '-')}'>{esc(m[key])}.</p>")
            if m["tasks"]:
                self.w(
                    f"<details class='tasks-plain'><summary>High Form tasks under the "
                    f"{esc(m['top'])}: how often each is claimed and what claiming it is "
                    "worth</summary><ul class='glance'>",
                    *(_line(t["text"]) for t in m["tasks"]),
                    "</ul></details>",
                )
        self.w('<details id="how-this-was-decided"><summary>How this was decided</summary>')
        for m in fs["modes"]:
            self.w(
                f"<h4>{esc(m['label'])}</h4><ul class='note'>",
                *(f"<li>{esc(x)}</li>" for x in m["how_decided"]),
                "</ul>",
            )
        self.w("</details></div>")
