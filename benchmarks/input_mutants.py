"""Seeded mutations of kalarite's input files, and what became of each one.

The input a user (or a user of the service) hands kalarite: the card files of sim/data (or a
copy given with --content DIR), position files (``kalarite moves``) and study specs
(``kalarite study``, the service's request bodies). Each mutant changes ONE thing in one valid
file: a number (+1, -1, 0, negative, 2**31, 2**40, a float, true, a string), a string (a table,
an int, a list, true, empty, another string of the same file), a list (an item dropped, doubled,
emptied), a table (a key dropped, an unknown key), a pattern row, or the text itself (a line
dropped or doubled, a digit changed). Structural mutants change the document itself: nesting
thousands of levels deep (arrays, inline tables, dotted keys), huge values and files (a long
string or list, an integer of thousands of digits, a file over the size bound) and odd
encodings (a UTF-8 byte-order mark, UTF-16, bytes that are not UTF-8, a NUL byte). A mutant
must either load and play or be refused with one ``kalarite: error:`` line naming the file
(exit status 2): never a traceback, a signal or a hang.

Used by tests/test_fuzz_input.py (a fixed sample, in process) and benchmarks/fuzz_input.py (a
longer run, each mutant in its own process with a timeout).
"""

import contextlib
import io
import json
import pathlib
import random
import re
import shutil
import tomllib
from dataclasses import dataclass

from sim.content import DATA_DIR

DATA_FILES = tuple(sorted(p.name for p in DATA_DIR.glob("*.toml")))
PATTERN_TOKENS = (".", ".", "c", "h", "@", "*", "+", "*c", "@c", "@h", "N", "SE", "x", "cc")
HUGE = (2**31, 2**40, 2**63 - 1, -(2**63))
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


# --- a small TOML writer (tomllib only reads) -----------------------------------------------


def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) else json.dumps(k)


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML for {type(v).__name__}")


def to_toml(data: dict) -> str:
    """Every top-level key as ``key = <inline value>`` (arrays of tables become arrays of
    inline tables: the same document for tomllib)."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in data.items())


# --- mutations ---------------------------------------------------------------------------


def _paths(node, path=()):
    """Every (path, value) below ``node``, containers included (the root excluded)."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for k, v in items:
        yield path + (k,), v
        if isinstance(v, (dict, list)):
            yield from _paths(v, path + (k,))


def _strings(node) -> list:
    return sorted({v for _, v in _paths(node) if isinstance(v, str) and len(v) < 40})


def _get(node, path):
    for k in path:
        node = node[k]
    return node


def _ops(node) -> list:
    """Every op table of a document (for transplants between cards)."""
    return [v for _, v in _paths(node) if isinstance(v, dict) and "op" in v]


def _replace(rng, v, strings, ops=()):
    """(new value, what changed) for one value."""
    if isinstance(v, dict) and "op" in v and ops and rng.random() < 0.5:
        return json.loads(json.dumps(rng.choice(ops))), "op from another card"
    if isinstance(v, bool):
        return rng.choice([(not v, "flipped"), (1, "int"), ("true", "string")])
    if isinstance(v, int):
        return rng.choice(
            [
                (v + 1, "+1"),
                (v - 1, "-1"),
                (rng.randint(0, 9), "small int"),
                (0, "zero"),
                (-v - 1, "negative"),
                (rng.choice(HUGE), "huge"),
                (v + 0.5, "float"),
                (True, "bool"),
                (str(v), "string"),
                ([v], "list"),
            ]
        )
    if isinstance(v, str):
        if re.fullmatch(r"[.ch@*+A-Z ]+", v) and len(v.split()) > 1:  # a pattern row
            width = len(v.split()) + rng.choice([0, 0, 0, 1, -1])
            row = " ".join(rng.choice(PATTERN_TOKENS) for _ in range(max(width, 1)))
            return row, "pattern row"
        return rng.choice(
            [
                ({"a": 1}, "table"),
                (7, "int"),
                ([v], "list"),
                (True, "bool"),
                ("", "empty"),
                (rng.choice(strings) if strings else v + "x", "other string"),
                (rng.choice(strings) if strings else v + "x", "other string"),
                (v[:-1] if v else "x", "shortened"),
                (v * 40, "long"),
            ]
        )
    if isinstance(v, list):
        out = list(v)
        choice = rng.randrange(6)
        if choice == 0 and out:
            del out[rng.randrange(len(out))]
            return out, "item dropped"
        if choice == 1 and out:
            i = rng.randrange(len(out))
            out.insert(i, out[i])
            return out, "item doubled"
        if choice == 2:
            return [], "emptied"
        if choice == 3:
            return out + [rng.choice([1, "x", {"op": "gain-turn"}, [1, 2]])], "item added"
        if choice == 4:
            return list(reversed(out)), "reversed"
        return "x", "string"
    if isinstance(v, dict):
        out = dict(v)
        choice = rng.randrange(3)
        if choice == 0 and out:
            del out[rng.choice(sorted(out))]
            return out, "key dropped"
        if choice == 1:
            out["surprise"] = rng.choice([1, "x", True])
            return out, "unknown key"
        return "x", "string"
    return v, "unchanged"


def mutate_data(rng, data: dict) -> tuple:
    """(mutated copy, path, what changed) of a parsed TOML document."""
    data = json.loads(json.dumps(data))  # a deep copy (TOML here holds no dates)
    paths = [p for p, _ in _paths(data)]
    path = rng.choice(paths)
    parent = _get(data, path[:-1])
    new, what = _replace(rng, parent[path[-1]], _strings(data), _ops(data))
    parent[path[-1]] = new
    return data, path, what


def mutate_text(rng, text: str) -> tuple:
    """(mutated text, what changed): a line dropped or doubled, or one digit changed."""
    lines = text.splitlines(keepends=True)
    code = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    i = rng.choice(code)
    choice = rng.randrange(3)
    if choice == 0:
        return "".join(lines[:i] + lines[i + 1 :]), f"line {i + 1} dropped"
    if choice == 1:
        return "".join(lines[: i + 1] + lines[i:]), f"line {i + 1} doubled"
    digits = [m.start() for m in re.finditer(r"\d", text)]
    k = rng.choice(digits)
    return text[:k] + rng.choice("0123456789") + text[k + 1 :], f"digit at {k} changed"


# --- the inputs ---------------------------------------------------------------------------

EMPTY = [
    "## ## .. .. .. .. .. ## ##",
    "## .. .. .. .. .. .. .. ##",
    ".. .. .. .. .. .. .. .. ..",
    ".. .. .. c0 c0 .. .. .. ..",
    ".. .. .. c0 h0 c1 .. .. ..",
    ".. .. .. .. c0 h1 .. .. ..",
    ".. .. .. .. .. c1 .. .. ..",
    "## .. .. .. .. .. .. .. ##",
    "## ## .. .. .. .. .. ## ##",
]
POSITIONS = {
    "duel.toml": {
        "mode": "high-form",
        "to_move": 0,
        "board": EMPTY,
        "seat": [
            {"deck": "imperial", "hand": ["imperial/swordmaster", "legends/titan", "flares/f36"]},
            {"deck": "highland", "hand": ["highland/mountain-troll"]},
        ],
        "turn": {"destroyed": {"common": 1}, "summoned": [{"rank": "heroic", "square": [4, 4]}]},
    },
    "nethervoid.toml": {
        "mode": "deathmatch",
        "to_move": 1,
        "board": EMPTY,
        "seat": [
            {"deck": "imperial", "hand": ["imperial/herald"]},
            {"deck": "nethervoid", "hand": [], "gateway": [5, 5]},
        ],
        "turn": {"void-cells": 1, "first-round": False},
    },
    "melee.toml": {
        "mode": "melee",
        "to_move": 2,
        "board": [line.replace("h1", "c2") for line in EMPTY],
        "seat": [
            {"deck": "imperial", "hand": ["imperial/bomb"], "improvised": [1]},
            {"deck": "sylvan", "hand": []},
            {"deck": "everfrost", "hand": [], "improvised": [0, 1]},
        ],
        "turn": {"possessed": 0},
    },
}
SPEC = {
    "name": "fuzz",
    "decks": ["imperial", "highland"],
    "modes": ["high-form"],
    "policies": "random",
    "games": 2,
    "seed": 5,
    "turn_cap": 200,
    "beings_without_effects": False,
    "chunk_size": 2,
}


@dataclass
class Mutant:
    kind: str  # "content", "position" or "spec"
    file: str  # the mutated file's name
    text: str  # its mutated text
    what: str  # what changed, for a report
    card: str | None = None  # the card / task / seat whose value changed, when one did
    raw: bytes | None = None  # the file's bytes, when they are not ``text`` as UTF-8
    json_body: bytes | None = None  # a spec's request body as JSON, when not ``text`` read back

    def data(self) -> bytes:
        return self.raw if self.raw is not None else self.text.encode()


def _owner(data, path):
    """The card, flare or task a path lies in (its id or name), None outside one."""
    if len(path) >= 2 and path[0] in ("card", "flare", "task") and isinstance(path[1], int):
        item = data[path[0]][path[1]]
        return item.get("id", item.get("name")) if isinstance(item, dict) else None
    return None


def make_mutant(rng, kind: str) -> Mutant:
    if kind == "content":
        name = rng.choice(DATA_FILES)
        text = (DATA_DIR / name).read_text()
        if rng.random() < 0.25:
            new, what = mutate_text(rng, text)
            return Mutant(kind, name, new, what)
        data = tomllib.loads(text)
        new, path, what = mutate_data(rng, data)
        owner = _owner(data, path) if len(path) > 2 else None
        return Mutant(kind, name, to_toml(new), f"{'.'.join(map(str, path))}: {what}", owner)
    if kind == "position":
        name = rng.choice(sorted(POSITIONS))
        base = POSITIONS[name]
    else:
        name, base = "spec.toml", SPEC
    if rng.random() < 0.2:
        new, what = mutate_text(rng, to_toml(base))
        return Mutant(kind, name, new, what)
    new, path, what = mutate_data(rng, base)
    return Mutant(kind, name, to_toml(new), f"{'.'.join(map(str, path))}: {what}")


STRUCTURAL = (
    "nested-arrays",
    "nested-tables",
    "dotted-key",
    "long-string",
    "long-list",
    "huge-integer",
    "big-file",
    "utf-8-bom",
    "utf-16",
    "invalid-utf-8",
    "nul-byte",
)
DEPTHS = (33, 1_000, 100_000)  # just past the bound, past Python's recursion, far past
_SCALAR_LINE = re.compile(
    r'(?m)^([ \t]*[A-Za-z_][\w-]*[ \t]*=[ \t]*)("[^"\n]*"|-?\d+|true|false)[ \t]*$'
)


def _base(rng, kind) -> tuple:
    """(file name, text) of a valid input of ``kind``."""
    if kind == "content":
        name = rng.choice(DATA_FILES)
        return name, (DATA_DIR / name).read_text()
    if kind == "position":
        name = rng.choice(sorted(POSITIONS))
        return name, to_toml(POSITIONS[name])
    return "spec.toml", to_toml(SPEC)


def _at_a_value(rng, text, new) -> str:
    """``text`` with one ``key = scalar`` line's value replaced by the text ``new``."""
    lines = list(_SCALAR_LINE.finditer(text))
    if not lines:  # a file of arrays and tables only (board.toml): a new key at its top
        return f"deep = {new}\n" + text
    m = rng.choice(lines)
    return text[: m.start(2)] + new + text[m.end(2) :]


def _nest(what: str, depth: int, syntax: str = "TOML") -> str:
    if what == "nested-arrays":
        return "[" * depth + "1" + "]" * depth
    key = '"a": ' if syntax == "JSON" else "a = "
    return ("{" + key) * depth + "1" + "}" * depth


def _json_spec(rng, what, depth) -> bytes:
    """The spec as a JSON body with the same structural change (the service reads JSON too)."""
    doc = json.dumps(SPEC)
    if what in ("nested-arrays", "nested-tables", "dotted-key"):
        nest = _nest("nested-tables" if what == "dotted-key" else what, depth, "JSON")
        return doc.replace('"seed": 5', f'"seed": {nest}').encode()
    if what == "long-string":
        return doc.replace('"fuzz"', json.dumps("x" * 600_000)).encode()
    if what == "long-list":
        return doc.replace(
            '"chunk_size": 2', f'"chunk_size": [{", ".join(["2"] * 200_000)}]'
        ).encode()
    if what == "huge-integer":
        return doc.replace('"seed": 5', '"seed": ' + "9" * 5_000).encode()
    if what == "big-file":
        return (doc[:-1] + ', "name": ' + json.dumps("x" * 2_000_000) + "}").encode()
    return _encode(rng, what, doc)


def _encode(rng, what, text) -> bytes:
    data = text.encode()
    if what == "utf-8-bom":
        return b"\xef\xbb\xbf" + data
    if what == "utf-16":
        return text.encode("utf-16")
    k = rng.randrange(len(data))
    return data[:k] + (b"\xff" if what == "invalid-utf-8" else b"\x00") + data[k:]


def structural_mutant(rng, kind: str, what: str) -> Mutant:
    """One structural mutant (``STRUCTURAL``) of an input of ``kind``."""
    name, text = _base(rng, kind)
    depth = rng.choice(DEPTHS)
    label = what
    raw = None
    if what in ("nested-arrays", "nested-tables"):
        text = _at_a_value(rng, text, _nest(what, depth))
        label = f"{what} {depth:,} deep"
    elif what == "dotted-key":
        text = text.rstrip("\n") + "\n" + ".".join(["a"] * depth) + " = 1\n"
        label = f"dotted key of {depth:,} parts"
    elif what == "long-string":
        text = _at_a_value(rng, text, json.dumps("x" * rng.choice((600_000, 3_000_000))))
    elif what == "long-list":
        text = _at_a_value(rng, text, "[" + ", ".join(["1"] * 200_000) + "]")
    elif what == "huge-integer":
        text = _at_a_value(rng, text, "9" * rng.choice((1_000, 5_000)))
    elif what == "big-file":
        text = text + ("# " + "x" * 98 + "\n") * 21_000  # 2.1 MB of comments
    else:
        raw = _encode(rng, what, text)
    body = _json_spec(rng, what, depth) if kind == "spec" else None
    return Mutant(kind, name, text, label, raw=raw, json_body=body)


def mutants(seed: int, n: int, kinds=("content", "position", "spec"), structural=None) -> list:
    """``n`` mutants of each kind from one seed (the same list on every machine), then
    ``structural`` structural ones of each kind (default: every STRUCTURAL change once, or
    n // 4 when that is more), cycling through STRUCTURAL; 0: none."""
    rng = random.Random(seed)
    out = [make_mutant(rng, kind) for kind in kinds for _ in range(n)]
    if structural is None:
        structural = max(len(STRUCTURAL), n // 4)
    srng = random.Random(seed + 1)  # its own stream: the mutants above stay as they were
    for kind in kinds:
        out += [
            structural_mutant(srng, kind, STRUCTURAL[i % len(STRUCTURAL)])
            for i in range(structural)
        ]
    return out


# --- what became of a mutant -------------------------------------------------------------

CONTENT_GAMES = {  # per mutated file: (mode, decks) of the games it plays
    "board.toml": [("high-form", "imperial,highland"), ("melee", "imperial,highland,sylvan")],
    "tasks.toml": [("high-form", "imperial,highland"), ("high-form", "sylvan,imperial")],
    "flares.toml": [("deathmatch", "imperial,highland"), ("high-form", "highland,sylvan")],
    "legends.toml": [("high-form", "imperial,highland"), ("deathmatch", "sylvan,imperial")],
}


def commands(m: Mutant, where: pathlib.Path) -> list:
    """Write the mutant under ``where`` and return the kalarite argument lists it runs."""
    if m.kind == "content":
        d = where / "content"
        shutil.copytree(DATA_DIR, d, ignore=shutil.ignore_patterns("*.md"))
        (d / m.file).write_bytes(m.data())
        deck = m.file.removesuffix(".toml")
        other = "highland" if deck == "imperial" else "imperial"
        games = CONTENT_GAMES.get(
            m.file, [("high-form", f"{deck},{other}"), ("deathmatch", f"{other},{deck}")]
        )
        return [
            ["play", "--content", str(d), "--mode", mode, "--decks", decks, "--seed", str(i)]
            + ["--game", str(i), "--beings-without-effects"]
            for i, (mode, decks) in enumerate(games)
        ]
    path = where / m.file
    path.write_bytes(m.data())
    if m.kind == "position":
        return [["moves", str(path)]]
    return [["study", str(path), "--out", str(where / "out"), "--workers", "0"]]


REFUSED_WITHOUT_FILE = ("unknown deck",)  # a request the changed content cannot serve
NAMES_A_CARD = ("card '", "task '")
WHOLE_FILE = ("cards, found", "legends, found", "flares, found", "tasks, found", "not valid TOML")
WHOLE_FILE += ("same name", "compiled tables", "first display", "deck name")


def judge(m: Mutant, rc, out: str, err: str) -> tuple:
    """("played" | "refused" | "failure", detail) for one command's exit status and output."""
    if rc == 0:
        return ("played", "") if out.strip() or m.kind == "spec" else ("failure", "no output")
    lines = err.strip().splitlines()
    if rc != 2:
        return "failure", f"exit status {rc}: {err.strip()[-300:]}"
    if len(lines) != 1 or not lines[0].startswith("kalarite: error: "):
        return "failure", f"not one error line: {err.strip()[-300:]}"
    line = lines[0]
    if "Traceback" in line or "Error:" in line.split("kalarite: error: ", 1)[1][:40]:
        return "failure", f"an exception's text: {line}"
    if m.file not in line and not any(w in line for w in REFUSED_WITHOUT_FILE):
        return "failure", f"the error does not name {m.file}: {line}"
    if m.card and not any(w in line for w in NAMES_A_CARD + WHOLE_FILE):
        return "failure", f"a change to {m.card!r} refused without naming a card: {line}"
    return "refused", line


def check_service(m: Mutant, content_root: pathlib.Path) -> tuple:
    """A spec mutant as the service's request body (TOML, and JSON when it parses): a
    CheckedSpec or one SpecError line, nothing else."""
    from sim.app.service.specs import SpecError, check_spec

    bodies = [(m.data(), "application/toml")]
    if m.json_body is not None:
        bodies.append((m.json_body, "application/json"))
    else:
        try:
            bodies.append((json.dumps(tomllib.loads(m.text)).encode(), "application/json"))
        except (tomllib.TOMLDecodeError, TypeError, ValueError, RecursionError):
            pass
    outcome = ("played", "")
    for body, kind in bodies:
        try:
            check_spec(body, kind, content_root)
        except SpecError as e:
            if "\n" in str(e) or not str(e).startswith("request body"):
                return "failure", f"service ({kind}): not one line naming the body: {e}"
            outcome = ("refused", str(e))
        except Exception as e:
            return "failure", f"service ({kind}): {type(e).__name__}: {e}"
    return outcome


def cli_in_process(argv: list) -> tuple:
    """``argv`` through sim.app.cli.main in this process: (exit status, stdout, stderr), or
    (None, the exception, "") where the real command line would print a traceback."""
    from sim.app.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 2
    except Exception as e:
        return None, f"{type(e).__name__}: {e}", ""
    return rc, out.getvalue(), err.getvalue()


def run_in_process(m: Mutant, where: pathlib.Path) -> tuple:
    """Run the mutant through sim.app.cli.main in this process: (outcome, detail)."""
    outcome = ("played", "")
    for argv in commands(m, where):
        rc, out, err = cli_in_process(argv)
        if rc is None:
            return "failure", out
        outcome = judge(m, rc, out, err)
        if outcome[0] != "played":
            return outcome
    return outcome
