"""What changed between two studies, named for the designer: the cards whose data differ
(pattern side by side, ops as a line diff: sim/content/diff.py), the decks, the players,
the modes, the seeds and the sizes; and the deck map (``--map variant=original``, plus the
``variant_of`` of B's deck files) that names B's decks in A's terms.
"""

import pathlib

from sim.content.diff import diff_records, format_diff, is_empty
from sim.study import canonical_spec


class MapError(ValueError):
    """A bad --map (one line, exit status 2)."""


def parse_map(items) -> dict:
    """``["imperial-v2=imperial", ...]`` (or one comma-separated string) -> {B deck: A deck}."""
    if isinstance(items, str):
        items = [items]
    out = {}
    for item in items or []:
        for part in str(item).split(","):
            part = part.strip()
            if not part:
                continue
            b, sep, a = part.partition("=")
            if not sep or not a.strip() or not b.strip():
                raise MapError(f"--map needs VARIANT=ORIGINAL deck names, got {part!r}")
            out[b.strip()] = a.strip()
    return out


def deck_map_of(mb: dict, explicit: dict) -> dict:
    """The deck map: B's declared variants (``variant_of``), overridden by ``--map``."""
    rec = (mb.get("content") or {}) if isinstance(mb.get("content"), dict) else {}
    out = dict(rec.get("variant_of") or {})
    out.update(explicit or {})
    return out


def map_decks(value, deck_map: dict):
    """``value`` (a summary, a list, a string) with B's deck names in A's terms: a deck name,
    a card id ``deck/slug``, a matchup ``A-vs-B``."""
    if not deck_map:
        return value
    if isinstance(value, dict):
        return {k: map_decks(v, deck_map) for k, v in value.items()}
    if isinstance(value, list):
        return [map_decks(v, deck_map) for v in value]
    if isinstance(value, tuple):
        return tuple(map_decks(v, deck_map) for v in value)
    if isinstance(value, str):
        if value in deck_map:
            return deck_map[value]
        deck, sep, rest = value.partition("/")
        if sep and deck in deck_map:
            return f"{deck_map[deck]}/{rest}"
        if "-vs-" in value:
            return "-vs-".join(deck_map.get(x, x) for x in value.split("-vs-"))
    return value


def _decks_of(study) -> list:
    return sorted({d for pair in study.get("decks", []) for d in pair})


def _content_record(manifest):
    rec = manifest.get("content")
    return rec if isinstance(rec, dict) and "cards" in rec else None


def _installed_record(manifest):
    """For a study made before manifests kept the card data: the installed content, when it
    is the one the study played."""
    try:
        from sim.content.copies import load_content_dir
        from sim.content.diff import content_record

        c = load_content_dir(manifest.get("content_dir"))
    except Exception:  # noqa: BLE001 - the card data are then unknown
        return None
    return content_record(c) if c.content_hash == manifest.get("content_hash") else None


def two_seat_players(study: dict) -> list:
    """The seat players of the two-seat games a study spec plays (what compare compares), one
    spelling for the same players: ``[["random"]]`` and ``[["random", "random"]]`` alike."""
    out = []
    for p in canonical_spec(study).get("policies") or []:
        if len(p) in (1, 2):
            pair = [p[0], p[-1]]
            if pair not in out:
                out.append(pair)
    return out


def changes(ma: dict, mb: dict, deck_map: dict) -> dict:
    """Everything that differs between the manifests of A and B (B's decks mapped)."""
    sa, sb = ma["study"], mb["study"]
    out = {"deck_map": deck_map}
    if ma.get("content_hash") != mb.get("content_hash"):
        ra = _content_record(ma) or _installed_record(ma)
        rb = _content_record(mb) or _installed_record(mb)
        if ra is not None and rb is not None:
            out["content"] = diff_records(ra, rb, deck_map)
        else:
            out["content"] = None  # the hashes differ, the card data of one are unknown
        out["content_hashes"] = [ma.get("content_hash"), mb.get("content_hash")]
    out["content_dirs"] = [ma.get("content_dir"), mb.get("content_dir")]
    if ma.get("engine_hash") != mb.get("engine_hash"):
        out["engine"] = [ma.get("engine_hash"), mb.get("engine_hash")]
    da, db = _decks_of(sa), _decks_of({"decks": map_decks(sb.get("decks", []), deck_map)})
    if da != db:
        out["decks"] = {"only_a": sorted(set(da) - set(db)), "only_b": sorted(set(db) - set(da))}
    pa_ = [list(p) for p in canonical_spec(sa).get("policies") or []]
    pb_ = [list(p) for p in canonical_spec(sb).get("policies") or []]
    if sorted(pa_) != sorted(pb_):
        out["players"] = [pa_, pb_]
    ma_, mb_ = list(sa.get("modes") or []), list(sb.get("modes") or [])
    if sorted(ma_) != sorted(mb_):
        out["modes"] = {
            "only_a": [m for m in ma_ if m not in mb_],
            "only_b": [m for m in mb_ if m not in ma_],
        }
    for key in ("seed", "games", "turn_cap"):
        if sa.get(key) != sb.get(key):
            out[key] = [sa.get(key), sb.get(key)]
    deals = [(s.get("deals") or "per-player") for s in (sa, sb)]
    if deals[0] != deals[1]:
        out["deals"] = deals
    return out


# every setting a comparison names when it differs, in this order (``changes``' keys)
DIFFERENCES = (
    ("decks", "decks"),
    ("modes", "modes"),
    ("games", "games per matchup"),
    ("players", "players"),
    ("content_hashes", "content"),
    ("engine", "engine version"),
    ("seed", "seed"),
    ("deals", "deals"),
)


def differences_named(ch: dict, changed_players=()) -> list:
    """The name of every setting in which A and B differ (``changes``), in one order:
    decks, modes, games per matchup, players (also the same names with other parameters),
    content, engine version, seed, deals."""
    out = [label for key, label in DIFFERENCES if key in ch]
    if changed_players and "players" not in out:
        out.insert(sum(k in ch for k in ("decks", "modes", "games")), "players")
    return out


def _setting(study: dict) -> str:
    """A study by what it plays, its players left out: its name, or for a study of
    ``kalarite simulate`` its decks and mode."""
    from results.analysis.labels import study_title

    return study_title({**study, "policies": None})


def compare_title(ma: dict, mb: dict, ch: dict) -> str:
    """A comparison titled by what differs between A and B ("highland vs imperial, High Form:
    installed cards → my-cards"; "... : planner (both seats) → greedy (both seats)"), not by
    the studies' names, which a simulate study shares with every other."""
    from results.analysis.labels import players_title

    sa, sb = ma["study"], mb["study"]
    base = _setting(sa) if _setting(sa) == _setting(sb) else f"{_setting(sa)} / {_setting(sb)}"
    parts = []
    if "content_hashes" in ch:
        a, b = (pathlib.Path(d).name if d else "installed cards" for d in ch["content_dirs"])
        parts.append(f"{a} → {b}" if a != b else "content " + " → ".join(ch["content_hashes"]))
    if "engine" in ch:
        parts.append("engine " + " → ".join(ch["engine"]))
    if "players" in ch:
        parts.append(" → ".join(players_title(p) for p in ch["players"]))
    for key in ("seed", "games"):
        if key in ch and not parts:
            parts.append(f"{key} " + " → ".join(f"{v:,}" for v in ch[key]))
    return f"{base}: {'; '.join(parts)}" if parts else base


def format_changes(ch: dict) -> list:
    """Text lines naming every difference; the card diff in full."""
    lines = []
    if ch.get("deck_map"):
        lines.append(
            "decks of B read as A's: " + ", ".join(f"{b} = {a}" for b, a in ch["deck_map"].items())
        )
    if "content_hashes" in ch:
        a, b = ch["content_hashes"]
        dirs = ch.get("content_dirs") or [None, None]
        where = "; ".join(
            f"{w}: {d or 'installed card files'}" for w, d in zip("AB", dirs, strict=True)
        )
        lines.append(f"content: {a} -> {b} ({where})")
        if ch.get("content") is None:
            lines.append("  the card data of one study are not recorded: cannot list the cards")
        elif is_empty(ch["content"]):
            lines.append("  no card, deck or task differs (the files differ in comments only)")
        else:
            lines += format_diff(ch["content"])
    if "engine" in ch:
        lines.append(f"engine: {ch['engine'][0]} -> {ch['engine'][1]}")
    if "decks" in ch:
        d = ch["decks"]
        lines.append(
            f"decks: only in A: {', '.join(d['only_a']) or '-'}; "
            f"only in B: {', '.join(d['only_b']) or '-'}"
        )
    if "players" in ch:
        a, b = ch["players"]
        lines.append(f"players: {_pols(a)} -> {_pols(b)}")
    if "modes" in ch:
        m = ch["modes"]
        lines.append(
            f"modes: only in A: {', '.join(m['only_a']) or '-'}; "
            f"only in B: {', '.join(m['only_b']) or '-'}"
        )
    for key, label in (
        ("seed", "study seed"),
        ("games", "games per matchup"),
        ("turn_cap", "turn cap"),
        ("deals", "deals"),
    ):
        if key in ch:
            lines.append(f"{label}: {ch[key][0]} -> {ch[key][1]}")
    return lines


def _pols(lists) -> str:
    return "; ".join(" vs ".join(p) if len(p) > 1 else f"{p[0]} (every seat)" for p in lists)
