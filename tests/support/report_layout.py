"""The report page's layout fingerprint: what the screenshot in docs/ records, so a change of
the page's CSS, sections or findings markup asks for a new screenshot."""

import hashlib
import json


def layout_fingerprint(css, sections) -> str:
    from results.report.findings import findings_html

    key = json.dumps([css, list(sections), findings_html.__doc__], sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:16]
