"""The HTML of the key findings block (the findings themselves: results.analysis.findings)."""

import html


def findings_html(findings: list) -> str:
    """The block: one line per finding, linking to its section."""
    if not findings:
        return ""
    items = []
    for f in findings:
        if f["kind"] == "players_caveat":
            cls = ' class="caveat weak"' if f.get("weak_play") else ' class="caveat"'
            items.append(
                f"<li{cls}><b>{html.escape(f['text'])}</b> — "
                f'<a href="#{f["section"]}">details</a></li>'
            )
            continue
        mark = ""
        if f["excludes_fair"] is True:
            mark = " <b>(interval excludes 50%)</b>"
        elif f["excludes_fair"] is False:
            mark = " (within noise of 50%)"
        items.append(
            f'<li>{html.escape(f["text"])}{mark} — <a href="#{f["section"]}">details</a></li>'
        )
    return (
        '<div class="findings" id="key-findings"><h2>Key findings</h2>'
        "<p class='note'>Each with its 95% Wilson interval; a win rate's fair value is 50%. "
        "The players of the study drive every number (weak players make tasks look hard): "
        "the first lines say who played, how the games ended and whether the verdicts hold "
        "under other players.</p>"
        f"<ul>{''.join(items)}</ul></div>"
    )


class FindingsBlock:
    """The key findings block as a part of the report page (a mixin of the report builder)."""

    def findings(self):
        self.w(findings_html(self.s.get("key_findings") or []))
