"""HTML building blocks of the balance report: escaping, number formats, table cells and tables,
and shared labels (the section titles: ``SECTIONS`` in results/report/__init__.py)."""

import html
import re

from results import shown
from results.stats import SMALL_SAMPLE

SMALL_MARK = "†"


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:0 auto;
max-width:1500px;padding:0 1.2em 3em;color:#1a202c;line-height:1.4;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%;margin:.6em 0 1.2em}.scroll>table{margin:0}
.scroll td:first-child,.scroll th:first-child{position:sticky;left:0;z-index:1;
background:#fff;box-shadow:1px 0 0 #cbd5e0}.scroll th:first-child{background:#edf2f7}
.scroll td.flag:first-child{background:#fefcbf}.scroll td.sig:first-child{background:#fed7d7}
td,th{overflow-wrap:normal}pre{margin:0}
.findings{background:#f0fff4;border-left:5px solid #2f855a;padding:.4em 1.2em;margin:1em 0}
.findings li{margin:.2em 0}
h1{margin-top:.8em}h2{border-bottom:2px solid #cbd5e0;padding-bottom:.2em;margin-top:2em}
h3{margin-top:1.4em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.86em}
th,td{border:1px solid #cbd5e0;padding:.25em .5em;text-align:right;vertical-align:top;
white-space:nowrap}th{white-space:normal}
th{background:#edf2f7}td.l,th.l{text-align:left}
caption{caption-side:top;text-align:left;font-size:.92em;color:#4a5568;padding:.2em 0}
.flag{background:#fefcbf;font-weight:600}.sig{background:#fed7d7;font-weight:600}
.small{color:#4a5568}.note{color:#4a5568;font-size:.92em}
.banner{background:#c53030;color:#fff;padding:1em 1.2em;font-size:1.15em;font-weight:700;
border-radius:6px;margin:1em 0}
.warn{background:#fefcbf;border-left:5px solid #d69e2e;padding:.6em 1em;margin:.6em 0}
.missing{background:#ebf8ff;border-left:5px solid #3182ce;padding:.6em 1em;margin:.6em 0}
img{max-width:100%;height:auto;display:block;margin:.6em 0}
nav ul{columns:3;font-size:.92em}code{background:#edf2f7;padding:0 .2em}
.banner code{background:#9b2c2c;color:#fff}
.banner.compact{font-size:.95em;padding:.45em .9em;margin:.4em 0}
h1.top{margin:.5em 0 .2em;font-size:1.6em}#at-a-glance h2{margin-top:.4em}
.zoombox{overflow-x:auto;max-width:100%}img.zoomable{cursor:zoom-in}
img.zoomed{max-width:none;width:auto;height:auto;cursor:zoom-out}
details{margin:.5em 0 1em}details>summary{cursor:pointer;color:#2b6cb0;font-weight:600}
details[open]>summary{margin-bottom:.4em}
.findings li.weak,b.weak{color:#c53030}b.open{color:#975a16}
ul.glance{margin:.3em 0;padding-left:1.2em}
"""


# --- formatting ------------------------------------------------------------------------------


def esc(x) -> str:
    return html.escape(str(x), quote=True)


def pct(x, digits=1) -> str:
    """A share in percent; small shares get more decimals (0.04%, not 0.0%)."""
    if x is None:
        return "–"
    if abs(x) < 5e-9:
        return "0%"
    if abs(x) < 0.01:
        digits = max(digits, 2 if abs(x) >= 0.001 else 3)
    return f"{100 * x:.{digits}f}%"


def prose(text) -> str:
    """A sentence written for the terminal as HTML: escaped, its `commands` set as code
    (a banner shows ``kalarite players``, not literal backticks)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", esc(text))


def num(x, digits=2) -> str:
    if x is None:
        return "–"
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:.{digits}f}"


def interval(r, digits=1) -> str:
    """A rate's interval, its bounds never contradicting the flag beside it (results.shown)."""
    if not r or r.get("lo") is None:
        return ""
    return " " + shown.interval(r["lo"], r["hi"], shown.rate_fair(r), digits)


class Cell:
    """A table cell: escaped html and an optional css class."""

    def __init__(self, text="", cls=""):
        self.html = text
        self.cls = cls


def rate_cell(r, flag_half=False, show_n=True, flag_key="excludes_half") -> Cell:
    """A proportion with its interval and n; ``flag_half`` highlights an interval that
    excludes 50% (with ``flag_key="excludes_share"``: that excludes the fair share)."""
    if not r or r.get("rate") is None:
        return Cell("–" + (" (n=0)" if show_n else ""), "small")
    txt = pct(r["rate"]) + interval(r)
    if show_n:
        txt += f" n={r['n']:,}"
    cls = ""
    if r.get("small"):
        txt += " " + SMALL_MARK
        cls = "small"
    if flag_half and r.get(flag_key):
        txt += " *"
        cls = "flag"
    if r.get("significant") and flag_half:
        cls = "sig"
    return Cell(esc(txt), cls)


def diff_cell(d) -> Cell:
    if not d:
        return Cell("–", "small")
    txt = f"{100 * d['diff']:+.1f} pts"
    if d.get("lo") is not None:
        txt += " " + shown.interval(d["lo"], d["hi"], 0.0, unit="", signed=True)
    cls = "small" if d.get("small") else ""
    if d.get("small"):
        txt += " " + SMALL_MARK
    if d.get("significant"):
        cls = "sig"
        ph = d.get("p_holm")
        txt += " (Holm p" + ("=?" if ph is None else " < 1e-300" if ph == 0 else f"={ph:.2g}") + ")"
    return Cell(esc(txt), cls)


def mean_cell(m, digits=2) -> Cell:
    if not m or m.get("mean") is None:
        return Cell("–", "small")
    txt = num(m["mean"], digits)
    if m.get("lo") is not None:
        txt += f" [{num(m['lo'], digits)}, {num(m['hi'], digits)}]"
    return Cell(esc(txt), "small" if m.get("small") else "")


def record_cells(rec, flag=True) -> list:
    """Win rate [CI], W-L-D, draw rate."""
    if not rec:
        return [Cell("–", "small"), Cell("–", "small"), Cell("–", "small")]
    return [
        rate_cell(rec["win_rate"], flag_half=flag),
        Cell(esc(f"{rec['wins']:,}–{rec['losses']:,}–{rec['draws']:,}")),
        rate_cell(rec["draw_rate"], show_n=False),
    ]


def share_record_cells(rec) -> list:
    """A multiplayer record: win rate [CI] flagged against the fair share, W–L–shared, shared
    rate."""
    if not rec:
        return [Cell("–", "small"), Cell("–", "small"), Cell("–", "small")]
    return [
        rate_cell(rec["win_rate"], flag_half=True, flag_key="excludes_share"),
        Cell(esc(f"{rec['wins']:,}–{rec['losses']:,}–{rec['draws']:,}")),
        rate_cell(rec["draw_rate"], show_n=False),
    ]


def policy_list(p) -> str:
    """A study's policy list: one spec for every seat, or one per seat."""
    return f"{p[0]} (every seat)" if len(p) == 1 else " vs ".join(p)


def table(headers, rows, caption, left=1) -> str:
    """``rows``: lists of Cell or str (escaped here); the first ``left`` columns align left."""
    cells = [c for row in rows for c in row if isinstance(c, Cell)]
    if any("small" in c.cls.split() or SMALL_MARK in c.html for c in cells):
        caption += (
            f" {SMALL_MARK} marks a small sample: a number resting on fewer than "
            f"{SMALL_SAMPLE} trials."
        )
    out = ['<div class="scroll"><table>', f"<caption>{caption}</caption>"]
    if any(headers):
        out.append("<thead><tr>")
        for i, h in enumerate(headers):
            out.append(f'<th class="{"l" if i < left else ""}">{esc(h)}</th>')
        out.append("</tr></thead>")
    out.append("<tbody>")
    for row in rows:
        out.append("<tr>")
        for i, c in enumerate(row):
            if not isinstance(c, Cell):
                c = Cell(esc(c))
            cls = " ".join(x for x in (c.cls, "l" if i < left else "") if x)
            out.append(f'<td class="{cls}">{c.html}</td>' if cls else f"<td>{c.html}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")  # wide tables scroll in their box, not the page
    return "\n".join(out)


def rests_on(games, what="games", extra="") -> str:
    small = f" — <b>small sample</b> (fewer than {SMALL_SAMPLE})" if games < SMALL_SAMPLE else ""
    return f"Rests on {games:,} {esc(what)}{small}.{(' ' + esc(extra)) if extra else ''}"


def slug_of(text) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")


# --- the report ------------------------------------------------------------------------------


def played_by(g) -> str:
    """A plot label's suffix naming the player of a deck in a group of two policies."""
    return "" if g["symmetric"] else f" ({g['policies'][0]})"


def seats_label(matchup: str, policies: str) -> str:
    """imperial-vs-highland + greedy-vs-random -> "imperial (greedy) vs highland (random)";
    with one policy for both seats just "imperial vs highland"."""
    decks, pols = matchup.split("-vs-"), policies.split("-vs-")
    if len(set(pols)) == 1 or len(pols) != len(decks):
        return " vs ".join(decks)
    return " vs ".join(f"{d} ({p})" for d, p in zip(decks, pols, strict=True))


def win_rate_of(rec):
    return rec["win_rate"] if rec else None


def estimate_of(wr):
    if not wr or wr.get("rate") is None:
        return (None, None, None)
    return (wr["rate"], wr["lo"], wr["hi"])
