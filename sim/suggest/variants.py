"""Candidate edits as real content: each edit written into its own copy of the card files
(``--content`` loads it), judged by the loader and the tables proof (sim.content), and told
apart by its compiled tables; and the race content, one directory holding every candidate as
a variant deck beside the original (``variant_of``), so that one study plays them all on the
original's deals.

Only the edited card's ``[[card]]`` table is rewritten; the rest of the deck file (comments
included) is kept byte for byte.
"""

import hashlib
import pathlib
import re
import shutil
import tomllib
from dataclasses import dataclass

from sim.content import DATA_DIR, ContentError, load_content
from sim.content.copies import copy_content
from sim.suggest.grammar import toml_value

_CARD_HEADER = re.compile(r"^\[\[card\]\][ \t]*(#.*)?$", re.M)
_DECK_LINE = re.compile(r"^deck[ \t]*=.*$", re.M)
_VARIANT_LINE = re.compile(r"^variant_of[ \t]*=.*\n?", re.M)
PROGRAM_KEYS = ("effect", "frozen", "warp")


@dataclass
class Candidate:
    """An edit that loads: its id (c001...), the edit, its content directory and compiled
    tables' hash."""

    cid: str
    edit: object  # sim.suggest.grammar.Edit
    content_dir: str
    tables_hash: str
    card_table: dict  # the edited card's TOML table


def deck_files(content_dir) -> dict:
    """{deck name: file path} of the deck files in ``content_dir``."""
    out = {}
    for p in sorted(pathlib.Path(content_dir).glob("*.toml")):
        if p.stem in ("board", "flares", "tasks"):
            continue
        try:
            data = tomllib.loads(p.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(data.get("deck"), str):
            out[data["deck"]] = p
    return out


def split_cards(text: str) -> tuple:
    """(the file's head, [each ``[[card]]`` block's text]) of a deck file."""
    starts = [m.start() for m in _CARD_HEADER.finditer(text)]
    if not starts:
        return text, []
    blocks = [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)], strict=True)]
    return text[: starts[0]], blocks


def card_block(card: dict) -> str:
    """A card table as the ``[[card]]`` block of a deck file (a blank line after it)."""
    lines = ["[[card]]"]
    for key, value in card.items():
        if key == "pattern" and isinstance(value, list):
            lines.append("pattern = [")
            lines.extend(f"  {toml_value(row)}," for row in value)
            lines.append("]")
        elif key in PROGRAM_KEYS and isinstance(value, list) and value:
            lines.append(f"{key} = [")
            lines.extend(f"  {toml_value(op)}," for op in value)
            lines.append("]")
        else:
            lines.append(f"{key} = {toml_value(value)}")
    return "\n".join(lines) + "\n\n"


def edited_deck_text(text: str, card_index: int, card: dict, rename=None, variant_of=None):
    """The deck file ``text`` with card ``card_index`` replaced by ``card``; ``rename``: a new
    deck name, declared a variant of ``variant_of``."""
    head, blocks = split_cards(text)
    if not 0 <= card_index < len(blocks):
        raise ContentError(f"the deck file has no card #{card_index + 1}")
    old = blocks[card_index]
    # keep a comment that closes the block (it belongs to the next card) where it was
    tail = re.search(r"(\n(?:[ \t]*#[^\n]*\n)+)\s*$", old)
    blocks[card_index] = card_block(card) + (tail.group(1).lstrip("\n") if tail else "")
    if rename is not None:
        head = _VARIANT_LINE.sub("", head)
        line = f"deck = {toml_value(rename)}"
        if variant_of:
            line += f"\nvariant_of = {toml_value(variant_of)}"
        head, n = _DECK_LINE.subn(line, head, count=1)
        if n != 1:
            raise ContentError("the deck file has no 'deck = ...' line before its first card")
    return head + "".join(blocks)


def tables_hash(content) -> str:
    """A hash of every compiled table: two contents with the same hash play the same games."""
    h = hashlib.sha256()
    for name, arr in content.tables._asdict().items():
        h.update(name.encode())
        h.update(str(arr.dtype).encode() + str(arr.shape).encode())
        h.update(arr.tobytes())
    return h.hexdigest()[:16]


def _load(path):
    load_content.cache_clear()  # a new directory each time: keep the cache small
    try:
        return load_content(str(path))
    finally:
        load_content.cache_clear()


def base_dir(content_dir) -> pathlib.Path:
    return pathlib.Path(content_dir) if content_dir else DATA_DIR


def write_candidates(content_dir, deck: str, edits, dest_root, log=None) -> tuple:
    """Write every edit ``(Edit, new card table)`` of ``deck`` into its own content copy
    under ``dest_root`` (``c001``, ...) and judge it. Returns (candidates, refused): each
    refused edit as (Edit, one-line reason): the loader's or the tables proof's refusal, "no
    change the engine plays" (the same compiled tables as the base), or "the same compiled
    tables as cNNN". An existing ``dest_root`` holding the same candidates is reused."""
    src = base_dir(content_dir)
    path = deck_files(src).get(deck)
    if path is None:
        raise ContentError(f"no deck file of {deck!r} in {str(src)!r}")
    text = path.read_text()
    base_hash = tables_hash(_load(src))
    dest_root = pathlib.Path(dest_root)
    dest_root.mkdir(parents=True, exist_ok=True)
    seen = {}
    cands, refused = [], []
    tmp = dest_root / ".trial"
    for edit, card in edits:
        if tmp.exists():
            shutil.rmtree(tmp)
        d = copy_content(tmp, src)
        try:
            (d / path.name).write_text(edited_deck_text(text, edit.card_index, card))
            h = tables_hash(_load(d))
        except ContentError as e:
            refused.append((edit, " ".join(str(e).split())))
            continue
        if h == base_hash:
            refused.append((edit, "no change the engine plays (the same compiled tables)"))
            continue
        if h in seen:
            refused.append((edit, f"the same compiled tables as {seen[h]}"))
            continue
        cid = f"c{len(cands) + 1:03d}"
        seen[h] = cid
        final = dest_root / cid / "content"
        if final.exists():
            shutil.rmtree(final)
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp.rename(final)
        cands.append(Candidate(cid, edit, str(final.resolve()), h, card))
        if log:
            log(f"{cid} {edit.line()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    return cands, refused


def variant_name(deck: str, cid: str) -> str:
    return f"{deck}-{cid}"


def write_race_content(content_dir, deck: str, candidates, dest) -> pathlib.Path:
    """One content directory: the base files and every candidate's deck as a variant deck
    (``<deck>-<cid>``, ``variant_of`` the original, so it is dealt the original's games)."""
    src = base_dir(content_dir)
    path = deck_files(src)[deck]
    text = path.read_text()
    base = load_content_variant_of(src, deck)
    d = pathlib.Path(dest)
    if d.exists():
        shutil.rmtree(d)
    copy_content(d, src)
    for c in candidates:
        out = edited_deck_text(
            text, c.edit.card_index, c.card_table, rename=variant_name(deck, c.cid), variant_of=base
        )
        (d / f"{variant_name(deck, c.cid)}.toml").write_text(out)
    return d


def load_content_variant_of(src, deck: str) -> str:
    """The deck whose seeds ``deck`` plays with (itself, or its ``variant_of``)."""
    data = tomllib.loads(deck_files(src)[deck].read_text())
    return data.get("variant_of") or deck
