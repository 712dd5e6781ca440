"""What a content (a set of card files) holds, card by card, and what differs between two.

``content_record(content)`` is a JSON-ready description of every card (rank, pattern,
description, its ops in words), deck, task and file: a study's manifest keeps it, so
``kalarite compare`` can say which cards differ between two studies even when the card
files are gone. ``diff_records(a, b, deck_map)`` lists the cards whose data differ (a
pattern side by side, the ops as a line diff), the decks and tasks added or removed.
"""

import difflib
import hashlib

from core import constants as K
from sim.content.ops import describe_row

CARD_FIELDS = ("name", "rank", "pattern", "description", "ops", "ops_lower", "flare")


def _ops(T, start, end) -> list:
    return [describe_row(r) for r in T.ops[start:end]]


def card_record(content, i: int) -> dict:
    c = content.cards[i]
    T = content.tables
    rec = {"name": c.name, "deck": c.deck}
    if c.kind == K.CK_FLARE:
        rec["flare"] = f"upper half: {c.flare_x} upgraded; lower half: {c.flare_y} pieces"
        rec["description"] = c.description
        rec["ops"] = _ops(T, int(T.card_eff_start[i]), int(T.card_eff_end[i]))
        rec["ops_lower"] = _ops(T, int(T.card_eff2_start[i]), int(T.card_eff2_end[i]))
        return rec
    rec["rank"] = K.RANK_NAMES[c.rank]
    rec["pattern"] = list(c.pattern)
    rec["description"] = c.description
    rec["ops"] = _ops(T, int(T.card_eff_start[i]), int(T.card_eff_end[i])) if c.has_effect else None
    return rec


def content_record(content) -> dict:
    """Every card, deck, task and file of ``content`` (for the dataset manifest)."""
    import pathlib

    files = {}
    if content.data_dir:
        for p in sorted(pathlib.Path(content.data_dir).glob("*.toml")):
            files[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()[:12]
    return {
        "hash": content.content_hash,
        "cards": {c.id: card_record(content, i) for i, c in enumerate(content.cards)},
        "decks": {d: [c.id for c in content.cards if c.deck == d] for d in content.decks},
        "tasks": dict(zip(content.task_names, content.task_descriptions, strict=True)),
        "variant_of": dict(getattr(content, "variant_of", {})),
        "files": files,
    }


def _mapped(card_id: str, deck_map: dict) -> str:
    """B's card id in A's terms: imperial-v2/x -> imperial/x with {imperial-v2: imperial}."""
    deck, _, slug = card_id.partition("/")
    return f"{deck_map.get(deck, deck)}/{slug}"


def diff_records(a: dict, b: dict, deck_map: dict | None = None) -> dict:
    """The differences from content record ``a`` to ``b``; ``deck_map`` names B's decks in
    A's terms ({variant: original})."""
    deck_map = deck_map or {}
    cards_a = a.get("cards", {})
    cards_b = {_mapped(k, deck_map): v for k, v in b.get("cards", {}).items()}
    b_ids = {_mapped(k, deck_map): k for k in b.get("cards", {})}
    changed, added, removed = [], [], []
    for cid, ra in cards_a.items():
        rb = cards_b.get(cid)
        if rb is None:
            removed.append(cid)
            continue
        fields = [f for f in CARD_FIELDS if ra.get(f) != rb.get(f)]
        if fields:
            changed.append(_card_change(cid, b_ids[cid], ra, rb, fields))
    for cid in cards_b:
        if cid not in cards_a:
            added.append(b_ids[cid])
    decks_a = set(a.get("decks", {}))
    decks_b = {deck_map.get(d, d) for d in b.get("decks", {})}
    tasks_a, tasks_b = a.get("tasks", {}), b.get("tasks", {})
    files_a, files_b = a.get("files", {}), b.get("files", {})
    return {
        "cards_changed": changed,
        "cards_added": added,
        "cards_removed": removed,
        "decks_added": sorted(decks_b - decks_a),
        "decks_removed": sorted(decks_a - decks_b),
        "tasks_changed": sorted(t for t in tasks_a if t in tasks_b and tasks_a[t] != tasks_b[t]),
        "tasks_added": sorted(set(tasks_b) - set(tasks_a)),
        "tasks_removed": sorted(set(tasks_a) - set(tasks_b)),
        "files_changed": sorted(
            f for f in set(files_a) | set(files_b) if files_a.get(f) != files_b.get(f)
        )
        if files_a and files_b
        else [],
    }


def _card_change(cid, cid_b, ra, rb, fields) -> dict:
    out = {"card": cid, "card_b": cid_b, "fields": fields}
    if "pattern" in fields:
        out["pattern"] = {"a": ra.get("pattern"), "b": rb.get("pattern")}
    for key in ("ops", "ops_lower"):
        if key in fields:
            out[key] = op_diff(ra.get(key) or [], rb.get(key) or [])
    for key in ("name", "rank", "description", "flare"):
        if key in fields:
            out[key] = {"a": ra.get(key), "b": rb.get(key)}
    return out


def op_diff(a: list, b: list) -> list:
    """Every op line, each marked "- " (only in A), "+ " (only in B) or "  " (in both)."""
    lines = difflib.unified_diff(a, b, lineterm="", n=max(len(a), len(b)))
    return [f"{x[0]} {x[1:]}" for x in lines if x[:1] in "-+ " and not x.startswith(("---", "+++"))]


def is_empty(diff: dict) -> bool:
    return not any(diff.values())


def summary_of(diff: dict) -> dict:
    """The short form kept in a dataset's manifest: card ids only."""
    return {
        "changed": [c["card_b"] for c in diff["cards_changed"]],
        "added": diff["cards_added"],
        "removed": diff["cards_removed"],
        "tasks_changed": diff["tasks_changed"],
        "files_changed": diff["files_changed"],
    }


def format_diff(diff: dict, indent: str = "  ") -> list:
    """Text lines: one block per changed card (fields, the pattern side by side, the ops as
    a line diff), then the cards, decks and tasks added or removed."""
    lines = []
    for c in diff["cards_changed"]:
        name = c["card"] if c["card"] == c["card_b"] else f"{c['card']} -> {c['card_b']}"
        lines.append(f"{indent}card {name}: {', '.join(c['fields'])} changed")
        if "pattern" in c:
            a, b = c["pattern"]["a"] or [], c["pattern"]["b"] or []
            width = max((len(r) for r in a), default=0)
            lines.append(f"{indent}  pattern (A | B):")
            for k in range(max(len(a), len(b))):
                ra = a[k] if k < len(a) else ""
                rb = b[k] if k < len(b) else ""
                mark = "" if ra == rb else "   <- changed"
                lines.append(f"{indent}    {ra.ljust(width)} | {rb}{mark}")
        for key, label in (("ops", "ops"), ("ops_lower", "ops, lower half")):
            if c.get(key):
                lines.append(f"{indent}  {label} (- A, + B):")
                lines += [f"{indent}    {row}" for row in c[key]]
        for key in ("name", "rank", "description", "flare"):
            if key in c:
                lines.append(f"{indent}  {key}: {c[key]['a']!r} -> {c[key]['b']!r}")
    for key, label in (
        ("cards_added", "cards only in B"),
        ("cards_removed", "cards only in A"),
        ("decks_added", "decks only in B"),
        ("decks_removed", "decks only in A"),
        ("tasks_changed", "tasks changed"),
        ("tasks_added", "tasks only in B"),
        ("tasks_removed", "tasks only in A"),
    ):
        if diff[key]:
            lines.append(f"{indent}{label}: {', '.join(diff[key])}")
    if not any(diff[k] for k in diff if k != "files_changed") and diff["files_changed"]:
        lines.append(
            f"{indent}files changed (comments or layout only: no card, deck or task differs): "
            + ", ".join(diff["files_changed"])
        )
    return lines
