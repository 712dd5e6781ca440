"""The credibility study's decided answer (sim/studies/credibility.toml: the top two players
on the same deals, no mirror matches, played until every duel mode is decided), as its
checked-in record ``benchmarks/results/credibility.json`` holds it (written by
``python -m benchmarks.credibility``). The first screen of a study that cannot decide its
own stability (one player, as the demo) names it, or says it is not yet run."""

import json
import os
import pathlib

RECORD = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "results"
RECORD = RECORD / "credibility.json"
SPEC = "sim/studies/credibility.toml"
KIND = "kalarite-credibility"


def record_path() -> pathlib.Path:
    """The record's path (``$KALARITE_CREDIBILITY_RECORD`` overrides it, for tests)."""
    env = os.environ.get("KALARITE_CREDIBILITY_RECORD")
    return pathlib.Path(env) if env else RECORD


def load_record() -> dict | None:
    """The checked-in record, or None where there is none (not yet run) or it is unreadable."""
    path = record_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        return None
    return data


def answer_text(mode: str, content_hash: str | None = None) -> str:
    """One line: the credibility study's verdict for ``mode`` with its players and size, or
    that it is not yet run."""
    rec = load_record()
    if rec is None:
        return f"the credibility study that decides it ({SPEC}) is not yet run"
    m = (rec.get("modes") or {}).get(mode)
    players = " vs ".join(rec.get("players") or [])
    if not m:
        return f"the credibility study ({players}) did not play this mode"
    other = (
        " (of other card files than this study's)"
        if content_hash and rec.get("content_hash") not in (None, content_hash)
        else ""
    )
    games = m.get("games_per_deck")
    size = f", {games:,} games a deck" if isinstance(games, int) else ""
    return (
        f"the credibility study ({players}, same deals{size}; "
        f"benchmarks/results/credibility.json){other} says {m.get('verdict')}"
    )
