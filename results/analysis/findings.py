"""The "key findings" block at the top of the report: what a designer looks at first, each
number with its 95% interval, taken from the summary of ``results.analysis.analyze``.

- per mode, the players' caveat: who played, how the games ended, and whether the decks'
  verdicts were checked under other players (``results.analysis.glance``);
- per group, the strongest and the weakest deck against the field (with the deck's
  stability), each named only when its interval says so (above 50% for the strongest,
  below for the weakest), else "no deck stands out"; then the other decks furthest from 50%
  (up to 3 in all over every group), and the most lopsided matchup of each group. A fact is
  said once: a finding resting on the same games as one before it is left out (with one
  player and two decks, the strongest deck's record is its one matchup, and the weakest
  deck's is the same games from the other side);
- the first-player edge of each group;
- the easiest and the hardest High Form task of each group (claim rate given shown when
  the display is recorded, else per game).

Each finding says whether its interval excludes the fair value (50%), its bounds printed so
that they never contradict it (results.shown).
"""

from results import shown
from results.analysis.glance import at_a_glance

N_DECKS = 3


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ci(r, fair=0.5) -> str:
    if not r or r.get("lo") is None:
        return ""
    return " " + shown.interval(r["lo"], r["hi"], fair)


def _finding(kind, group, text, rate, where, fair=0.5) -> dict:
    lo, hi = rate.get("lo"), rate.get("hi")
    clear = lo is not None and (lo > fair or hi < fair) if fair is not None else None
    return {
        "kind": kind,
        "group": group,
        "text": text,
        "rate": rate.get("rate"),
        "lo": lo,
        "hi": hi,
        "n": rate.get("n"),
        "excludes_fair": clear,
        "section": where,
    }


def _side(g) -> str:
    return "" if g["symmetric"] else f" (played by {g['policies'][0]})"


def _caveats(s: dict) -> tuple:
    """The players' caveat of each mode, and each deck's stability label per mode."""
    glance = s.get("at_a_glance") or at_a_glance(s)
    out, labels = [], {}
    for m in glance["modes"]:
        labels[m["mode"]] = {d: x["label"] for d, x in m["stability"]["by_deck"].items()}
        weak = " ⚠ Weak play: read the balance numbers below with care." if m["weak_play"] else ""
        text = (
            f"{m['label']}: players {'; '.join(m['players'])}. How the games ended: "
            f"{m['ended']}. {m['stability']['text'][:1].upper()}{m['stability']['text'][1:]}."
            + weak
        )
        out.append(
            {
                "kind": "players_caveat",
                "group": None,
                "mode": m["mode"],
                "text": text,
                "rate": None,
                "lo": None,
                "hi": None,
                "n": m["decisiveness"].get("games"),
                "excludes_fair": None,
                "section": "decisiveness",
                "weak_play": m["weak_play"],
                "stability_measured": m["stability"]["measured"],
            }
        )
    return out, labels


def _deck_text(word, deck, g, wr, stab) -> str:
    return (
        f"{word}{deck}{_side(g)} wins {_pct(wr['rate'])}{_ci(wr)} of its decisive games "
        f"against the other decks ({g['label']}, n={wr['n']:,}); {stab}"
    )


def _no_deck_stands_out(g, far) -> dict:
    """A group whose every deck's interval against the field holds 50%: no strongest or
    weakest deck to name; the deck furthest from 50% (``far``) shows how far the noise
    reaches."""
    wr = far["combined"]["win_rate"]
    text = (
        f"no deck stands out: every deck's win rate against the others holds 50% in its "
        f"interval; the furthest, {far['deck']}{_side(g)}, wins {_pct(wr['rate'])}{_ci(wr)} "
        f"({g['label']}, n={wr['n']:,})"
    )
    return _finding("no_deck_stands_out", g["id"], text, wr, "deck-vs-field")


def _pair(g, deck, opp):
    """One matchup's games: with one player in both seats A-B and B-A are the same games."""
    return frozenset((deck, opp)) if g["symmetric"] else (deck, opp)


def _covers(g, matchups: dict, deck: str) -> frozenset:
    """The matchups (their games) a deck's record against the field adds up."""
    return frozenset(
        _pair(g, c["deck"], c["opp_deck"])
        for c in matchups.get(g["id"], [])
        if c["deck"] == deck and not c["mirror"] and c["combined"]
    )


def key_findings(s: dict) -> list:
    """The findings: the players' caveats first, then the decks, matchups, first player and
    tasks, most telling first within each kind. A fact is said once: a finding resting on the
    very games of one before it (in a group of two decks, the weakest deck is the strongest
    one's opponent, and their one matchup is both) is left out."""
    groups = {g["id"]: g for g in s.get("groups", [])}
    matchups = {m["group"]: m["cells"] for m in s.get("matchups", [])}
    out, stability = _caveats(s)
    said = set()  # (group, the matchups a finding rests on)

    def add(finding, g, covers):
        if (g["id"], covers) not in said:
            said.add((g["id"], covers))
            out.append(finding)

    named = set()
    for f in s.get("deck_vs_field", []):
        g = groups[f["group"]]
        rows = [r for r in f["rows"] if r["combined"]["win_rate"].get("rate") is not None]
        if len(rows) < 2:
            continue
        rows.sort(key=lambda r: -r["combined"]["win_rate"]["rate"])
        top, bottom = rows[0], rows[-1]
        picks = []
        if top["combined"]["win_rate"]["lo"] > 0.5:  # its interval lies above 50%
            picks.append(("strongest_deck", "strongest deck: ", top))
        if bottom["combined"]["win_rate"]["hi"] < 0.5:
            picks.append(("weakest_deck", "weakest deck: ", bottom))
        if not picks:
            far = max(rows, key=lambda r: abs(r["combined"]["win_rate"]["rate"] - 0.5))
            add(_no_deck_stands_out(g, far), g, _covers(g, matchups, far["deck"]))
            named.update((g["id"], r["deck"]) for r in rows)
            continue
        for kind, word, r in picks:
            wr = r["combined"]["win_rate"]
            stab = stability.get(g["mode"], {}).get(r["deck"], "stability not measured")
            finding = _finding(
                kind, g["id"], _deck_text(word, r["deck"], g, wr, stab), wr, "deck-vs-field"
            )
            finding["deck"] = r["deck"]
            add(finding, g, _covers(g, matchups, r["deck"]))
            named.add((g["id"], r["deck"]))
    decks = []
    for f in s.get("deck_vs_field", []):
        g = groups[f["group"]]
        for r in f["rows"]:
            wr = r["combined"]["win_rate"]
            if wr.get("rate") is not None and (g["id"], r["deck"]) not in named:
                decks.append((abs(wr["rate"] - 0.5), g, r["deck"], wr))
    decks.sort(key=lambda x: -x[0])
    for _, g, deck, wr in decks[: max(0, N_DECKS - len(named))]:
        stab = stability.get(g["mode"], {}).get(deck, "stability not measured")
        finding = _finding(
            "deck_imbalance", g["id"], _deck_text("", deck, g, wr, stab), wr, "deck-vs-field"
        )
        finding["deck"] = deck
        add(finding, g, _covers(g, matchups, deck))
    for m in s.get("matchups", []):
        g = groups[m["group"]]
        best = None
        for c in m["cells"]:
            wr = c["combined"]["win_rate"] if c["combined"] else None
            if c["mirror"] or not wr or wr.get("rate") is None:
                continue
            if best is None or abs(wr["rate"] - 0.5) > abs(best[1]["rate"] - 0.5):
                best = (c, wr)
        if best:
            c, wr = best
            text = (
                f"most lopsided matchup: {c['deck']}{_side(g)} against {c['opp_deck']} wins "
                f"{_pct(wr['rate'])}{_ci(wr)} of decisive games ({g['label']}, n={wr['n']:,})"
            )
            finding = _finding("matchup_imbalance", g["id"], text, wr, "matchups")
            add(finding, g, frozenset([_pair(g, c["deck"], c["opp_deck"])]))
    for f in s.get("first_player", []):
        g = groups[f["group"]]
        wr = f["first_mover"]["win_rate"]
        if wr.get("rate") is None:
            continue
        text = (
            f"first-player edge: the first mover wins {_pct(wr['rate'])}{_ci(wr)} of "
            f"decisive games ({g['label']}, n={wr['n']:,})"
        )
        out.append(_finding("first_player", g["id"], text, wr, "first-player"))
    tasks = s.get("tasks") or {}
    display = tasks.get("display_recorded")
    for tg in tasks.get("groups", []):
        g = groups[tg["group"]]
        key = "claimed_given_shown" if display else "claim_rate"
        rows = [r for r in tg["tasks"] if (r.get(key) or {}).get("rate") is not None]
        if not rows:
            continue
        how = "of the games it was shown in" if display else "of the games"
        easy = max(rows, key=lambda r: r[key]["rate"])
        hard = min(rows, key=lambda r: r[key]["rate"])
        for kind, r in (("easiest_task", easy), ("hardest_task", hard)):
            word = "easiest" if kind == "easiest_task" else "hardest"
            rate = r[key]
            text = (
                f"{word} task: {r['task']}, claimed in {_pct(rate['rate'])}{_ci(rate, None)} {how} "
                f"({g['label']}, n={rate['n']:,})"
            )
            out.append(_finding(kind, g["id"], text, rate, "tasks", fair=None))
    return out
