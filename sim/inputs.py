"""The one validation layer for untrusted input: reading a document, and the rules its values
are checked by, each written once.

Everything a user (or a user of the service) hands kalarite goes through here: study specs
(``kalarite study``, ``api.run``, the service's request bodies, and ``kalarite simulate``'s
flags, which become a spec), card files, position files and profile files.

- Reading (``read_document``, ``parse_document``): a size bound, a nesting bound (on the text
  before the parser sees it, so no parser recurses past it, and on the parsed data, which
  dotted keys and table headers can nest too), the encoding (a UTF-8 byte-order mark is read
  past; UTF-16 and UTF-32 text, bytes that are not UTF-8 and NUL bytes are refused, naming
  where), and the parser's own errors. TOML or JSON.
- Values: ``need_int`` (an integer that is not a bool or a float, in a range),
  ``need_number`` (a finite number in a range: never NaN, an infinity or an integer too big
  for a float), ``number_text`` and ``int_text`` (the same rules for a number written as text:
  a command-line flag, a player's ``key=value``), ``need_bool``, ``need_str``, ``need_name``
  (one of a list of names), ``need_keys`` (required and known keys), ``need_table``,
  ``need_list``, ``need_squares``, ``need_path``, ``need_slug`` (an identifier: ASCII letters,
  digits, ``-`` and ``_``) and ``need_display`` (a name shown to people: NFC, without bidi or
  zero-width controls).
- JSON objects naming a key twice are refused, as TOML refuses them.

Each refusal is one line that names the document and the place in it (the caller's ``what``)
and says what was found (``got``), raised as the caller's own error class (``error=``): the
CLI prints it as ``kalarite: error: ...`` (exit status 2), the service answers a JSON 400.
"""

import json
import math
import re
import tomllib
import unicodedata

MAX_DEPTH = 32  # arrays and tables inside each other: a card file needs 8, a spec 3
MAX_BYTES = 1 << 20  # a card file is under 20 kB, a spec or position under 2 kB
_BOMS = (  # longest first: UTF-32's little-endian mark starts like UTF-16's
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)
_UTF8_BOM = b"\xef\xbb\xbf"
# the tokens the nesting count reads: TOML's dotted keys (a.b.c nests a table per part; tomllib
# takes time and memory growing with the square of the parts), and brackets, with strings and
# comments skipped so that no bracket or dot inside them counts
_KEY_PART = r'(?:[A-Za-z0-9_-]+|"(?:\\.|[^"\\\n])*"|\'[^\'\n]*\')'
_TOML_SKIP = re.compile(
    rf"(?P<dotted>{_KEY_PART}(?:[ \t]*\.[ \t]*{_KEY_PART})+)"  # a dotted key (a float: 2 parts)
    r'|"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]',
    re.DOTALL,
)
_DOT_OUTSIDE_QUOTES = re.compile(r'"(?:\\.|[^"\\\n])*"|\'[^\'\n]*\'|(\.)')
_JSON_SKIP = re.compile(r'"(?:\\.|[^"\\])*"|[\[\]{}]', re.DOTALL)


class InputError(ValueError):
    """Bad input, in one line (the readers' own errors, such as StudyError, are raised in its
    place through ``error=``)."""


# --- how a refusal shows a value ---------------------------------------------------------------


def show(value) -> str:
    """A value for an error message: short, one line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and len(value) > 80:  # repr of a prefix only: values may be huge
        value = value[:80]
    elif isinstance(value, list) and len(value) > 30:
        value = value[:30]
    elif isinstance(value, dict) and len(value) > 30:
        value = dict(list(value.items())[:30])
    try:
        text = " ".join(repr(value).split())
    except (RecursionError, ValueError):  # nested past repr's reach, or an int of 4,300 digits
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def got(value) -> str:
    """What was found, naming its kind where the kind is the mistake: ``got the float 99.0``."""
    for kind, name in ((bool, "boolean"), (float, "float"), (dict, "table"), (list, "list")):
        if isinstance(value, kind):
            return f"got the {name} {show(value)}"
    if isinstance(value, str):
        return f"got the string {show(value)}"
    if value is None:  # JSON's null
        return "got null (leave the key out for its default)"
    return f"got {show(value)}"


# --- values ------------------------------------------------------------------------------------


def is_int(value) -> bool:
    """An integer, not a bool (TOML true is no number) and not a float (99.0)."""
    return type(value) is int


def int_range(lo: int, hi: int) -> str:
    """How an integer's range reads in a message."""
    if lo == 0 and hi == 2**64 - 1:
        return "an integer in [0, 2**64)"
    return f"an integer in {lo:,}..{hi:,}"


def need_int(value, what: str, lo: int, hi: int, error=InputError, text: str = "") -> int:
    """An integer in lo..hi; ``text`` replaces the range's words (``int_range``)."""
    if not is_int(value) or not lo <= value <= hi:
        raise error(f"{what} must be {text or int_range(lo, hi)}, {got(value)}")
    return value


def is_number(value) -> bool:
    """An int or a float, not a bool (TOML true is no number)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _figure(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() and abs(x) < 1e15 else f"{x:g}"


def number_range(lo, hi, lo_open: bool = False, hi_open: bool = False) -> str:
    """How a number's range reads in a message: ``a number in [0, 1)``."""
    if lo == -math.inf and hi == math.inf:
        return "a finite number"
    if hi == math.inf:
        return f"a finite number {'above' if lo_open else 'at least'} {_figure(lo)}"
    if lo == -math.inf:
        return f"a finite number {'below' if hi_open else 'at most'} {_figure(hi)}"
    left, right = "(" if lo_open else "[", ")" if hi_open else "]"
    return f"a finite number in {left}{_figure(lo)}, {_figure(hi)}{right}"


def need_number(
    value,
    what: str,
    lo: float = -math.inf,
    hi: float = math.inf,
    error=InputError,
    text: str = "",
    lo_open: bool = False,
    hi_open: bool = False,
) -> float:
    """A finite number (an int or a float, not a bool; never NaN or an infinity) in lo..hi
    (``lo_open``, ``hi_open``: the bound itself excluded), as a float, -0.0 read as 0.0 (so
    equal values name equal players); ``text`` replaces the range's words."""
    number = None
    if is_number(value):
        try:
            number = float(value)  # an int past a float's range raises (10**400)
        except OverflowError:
            number = None
    if (
        number is None
        or not math.isfinite(number)
        or number < lo
        or number > hi
        or (lo_open and number == lo)
        or (hi_open and number == hi)
    ):
        raise error(
            f"{what} must be {text or number_range(lo, hi, lo_open, hi_open)}, {got(value)}"
        )
    return number + 0.0


def number_text(text: str, what: str, lo=-math.inf, hi=math.inf, error=InputError, **kw) -> float:
    """A number written as text (a flag, a player's ``key=value``): ``need_number``'s rule
    (``nan``, ``inf`` and ``1e400``, an infinity once read, refused), the refusal showing the
    text as given."""
    try:
        value = float(str(text).strip())
    except ValueError:
        raise error(f"{what} needs a number, got {show(text)}") from None
    try:
        return need_number(value, what, lo, hi, InputError, **kw)
    except InputError:
        words = kw.get("text") or number_range(lo, hi, kw.get("lo_open"), kw.get("hi_open"))
        raise error(f"{what} must be {words}, got {show(text)}") from None


def int_text(text: str, what: str, lo: int, hi: int, error=InputError, words: str = "") -> int:
    """An integer written as text, in lo..hi (``8``, ``-0``, also ``8.0`` and ``1e1``, whose
    value is a whole number); anything else, a fraction, NaN, an infinity or a number of
    hundreds of digits, one line: ``{what} must be an integer from lo to hi``."""
    words = words or f"an integer from {lo:,} to {hi:,}"
    raw = str(text).strip()
    try:
        number = float(raw)
    except ValueError:
        raise error(f"{what} needs a number, got {show(text)}") from None
    value = None
    if len(raw) <= 40:  # longer is past every range here (and int() of 4,300 digits raises)
        try:
            value = int(raw)
        except ValueError:
            if math.isfinite(number) and number.is_integer():
                value = int(number)
    if value is None or not lo <= value <= hi:
        raise error(f"{what} must be {words}, got {show(text)}")
    return value


def need_bool(value, what: str, error=InputError) -> bool:
    if not isinstance(value, bool):
        raise error(f"{what} must be true or false, {got(value)}")
    return value


def need_str(value, what: str, error=InputError, nonempty: bool = True, max_len=None) -> str:
    if not isinstance(value, str) or (nonempty and not value.strip()):
        kind = "a non-empty string" if nonempty else "a string"
        raise error(f"{what} must be {kind}, {got(value)}")
    if max_len is not None and len(value) > max_len:
        raise error(f"{what} must be at most {max_len:,} characters, got {len(value):,}")
    return value


def need_name(value, what: str, names, error=InputError, kind: str = "name"):
    """One of ``names`` (a string): ``unknown <kind> 'x' (expected one of a, b)``."""
    if not isinstance(value, str) or value not in names:
        known = ", ".join(str(n) for n in names)
        raise error(f"{what}: unknown {kind} {show(value)} (expected one of {known})")
    return value


def need_keys(d: dict, required, allowed, what: str, error=InputError, order=None) -> dict:
    """Every key in ``required`` present, none outside ``allowed`` (listed in ``order`` when
    given, else sorted)."""
    for key in required:
        if key not in d:
            raise error(f"{what}: missing {key!r}")
    extra = [k for k in d if k not in allowed]
    if extra:
        known = ", ".join(order if order is not None else sorted(allowed))
        raise error(f"{what}: unknown key {show(sorted(map(str, extra))[0])} (known keys: {known})")
    return d


def need_table(value, what: str, error=InputError) -> dict:
    if not isinstance(value, dict):
        raise error(f"{what} must be a table of keys, {got(value)}")
    return value


def need_list(value, what: str, error=InputError, lo: int = 0, hi: int = 10_000) -> list:
    """A list of lo..hi items."""
    if not isinstance(value, list) or not lo <= len(value) <= hi:
        size = f"at most {hi:,}" if lo == 0 else f"{lo} to {hi:,}"
        raise error(f"{what} must be a list of {size} items, {got(value)}")
    return value


def need_tables(value, key: str, what: str, error=InputError) -> list:
    """An array of tables (``[[key]]``)."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise error(f"{what}: {key} must be an array of tables ([[{key}]]), {got(value)}")
    return value


def need_square(value, key: str, what: str, error=InputError, on_board=None) -> tuple:
    """[row, col] of the 9x9 grid (``on_board``: a predicate on row, col for playable)."""
    if not (
        isinstance(value, list) and len(value) == 2 and all(is_int(x) and 0 <= x < 9 for x in value)
    ):
        raise error(f"{what}: {key} must hold [row, col] pairs in 0..8, {got(value)}")
    if on_board is not None and not on_board(*value):
        raise error(f"{what}: {key}: {value} is not a square of the board")
    return value[0], value[1]


def need_squares(value, key: str, what: str, error=InputError, on_board=None, n=None) -> list:
    """A list of [row, col] pairs (exactly ``n`` when given), no square twice."""
    if not isinstance(value, list) or (n is not None and len(value) != n) or not value:
        count = f"{n}" if n is not None else "a non-empty list of"
        raise error(f"{what}: {key} must be {count} [row, col] pairs, {got(value)}")
    out = [need_square(v, key, what, error, on_board) for v in value]
    if len(set(out)) != len(out):
        raise error(f"{what}: {key} names a square twice")
    return out


def need_path(value, what: str, error=InputError) -> str:
    """A file or directory name from a document: a non-empty string without NUL bytes."""
    if not isinstance(value, str) or not value or "\x00" in value:
        raise error(f"{what} must be a directory name, {got(value)}")
    return value


# --- names ---------------------------------------------------------------------------------

SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
MAX_SLUG = 64
# characters that make a name read other than it is: the bidi embeddings, overrides and
# isolates and the two marks (U+202E shows "invoice<U+202E>fdp.exe" as "invoiceexe.pdf"), and the
# zero-width characters (two names that look alike but differ)
HIDDEN = {
    **{chr(c): "a bidi control" for c in range(0x202A, 0x202F)},
    **{chr(c): "a bidi control" for c in range(0x2066, 0x206A)},
    "\u200e": "a bidi mark",
    "\u200f": "a bidi mark",
    **{chr(c): "a zero-width character" for c in range(0x200B, 0x200E)},
    "\u2060": "a zero-width character",
    "\ufeff": "a zero-width character",
}


def need_slug(value, what: str, error=InputError, max_len: int = MAX_SLUG) -> str:
    """An identifier (a deck, card or profile name): ASCII letters, digits, ``-`` and ``_``,
    starting with a letter or digit, at most ``max_len`` characters: one spelling per name
    (a Cyrillic ``а`` or a zero-width space cannot make a second ``imperial``), and safe in
    a file name, a URL and a TOML key."""
    if not isinstance(value, str) or len(value) > max_len or not SLUG.fullmatch(value):
        raise error(
            f"{what} must be an identifier of ASCII letters, digits, '-' and '_' (starting "
            f"with a letter or digit, at most {max_len} characters), {got(value)}"
        )
    return value


def need_display(value, what: str, error=InputError, nonempty: bool = True, max_len=None) -> str:
    """A name shown to people (a card's name, a study's title): a string (``need_str``),
    returned in Unicode's composed form (NFC, so one name has one spelling), without bidi
    controls or zero-width characters, which would make it read other than it is."""
    text = unicodedata.normalize("NFC", need_str(value, what, error, nonempty, max_len))
    for i, ch in enumerate(text):
        if ch in HIDDEN:
            raise error(
                f"{what} holds {HIDDEN[ch]} (U+{ord(ch):04X}) at character {i + 1}: "
                "write the name without it"
            )
    return text


# --- documents ---------------------------------------------------------------------------------


def _size(n: int) -> str:
    return f"{n / (1 << 20):,.1f} MiB" if n >= 1 << 20 else f"{n:,} bytes"


def decode_text(data: bytes, what: str, syntax: str = "TOML", error=InputError) -> str:
    """The bytes as text: UTF-8, a byte-order mark read past; anything else one line."""
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    for bom, name in _BOMS:
        if data.startswith(bom):
            raise error(f"{what}: not valid {syntax}: the text is {name}; save it as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(
            f"{what}: not valid {syntax}: not UTF-8 text (byte {e.start:,} is "
            f"0x{data[e.start]:02x}); save it as UTF-8"
        ) from None
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise error(f"{what}: not valid {syntax}: a NUL byte on line {line:,} (not a text file?)")
    return text


def text_depth(text: str, syntax: str = "TOML", limit: int = MAX_DEPTH) -> int:
    """How deep the text's brackets nest (strings and comments skipped), counted up to just
    past ``limit``: what a recursive parser would descend."""
    depth = deepest = 0
    pattern = _TOML_SKIP if syntax == "TOML" else _JSON_SKIP
    for m in pattern.finditer(text):
        tok = m.group()
        if syntax == "TOML" and m.group("dotted"):  # a dotted key: one table per part
            parts = 1 + sum(1 for d in _DOT_OUTSIDE_QUOTES.finditer(tok) if d.group(1))
            if depth + parts > deepest:
                deepest = depth + parts
                if deepest > limit:
                    break
        elif tok in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif tok in "]}":
            depth = max(0, depth - 1)
    return deepest


def data_depth(data, limit: int = MAX_DEPTH) -> int:
    """How deep lists and tables nest in parsed data (counted up to just past ``limit``),
    without recursion."""
    deepest = 0
    stack = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
            stack.extend((v, depth) for v in (node.values() if isinstance(node, dict) else node))
    return deepest


def _too_deep(what, syntax):
    return (
        f"{what}: nested more than {MAX_DEPTH} levels deep (arrays, tables or dotted keys "
        f"inside each other); no {syntax} that kalarite reads goes deeper"
    )


class _KeyTwice(ValueError):
    pass


class _NotJson(ValueError):
    pass


def _no_constant(name):
    """NaN, Infinity and -Infinity: Python's json reads them, JSON (RFC 8259) has none."""
    raise _NotJson(name)


def _once(pairs) -> dict:
    """A JSON object whose keys are each given once (TOML refuses a key given twice; JSON's
    parsers keep the last, so two readers of one body could see two different specs)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _KeyTwice(key)
            seen.add(key)
    return out


def parse_document(
    data, what: str, syntax: str = "TOML", error=InputError, max_bytes: int = MAX_BYTES
):
    """Parse TOML or JSON text or bytes (data only, never evaluated), bounded in size and
    nesting; every problem one line naming ``what``."""
    if isinstance(data, bytes | bytearray):
        if len(data) > max_bytes:
            raise error(f"{what}: {_size(len(data))}, more than the {_size(max_bytes)} allowed")
        text = decode_text(bytes(data), what, syntax, error)
    else:
        text = data.removeprefix("\ufeff")
        if len(text) > max_bytes:
            raise error(f"{what}: {_size(len(text))}, more than the {_size(max_bytes)} allowed")
    if text_depth(text, syntax) > MAX_DEPTH:
        raise error(_too_deep(what, syntax))
    try:
        parsed = (
            tomllib.loads(text)
            if syntax == "TOML"
            else json.loads(text, object_pairs_hook=_once, parse_constant=_no_constant)
        )
    except RecursionError:  # the text count above should make this unreachable
        raise error(_too_deep(what, syntax)) from None
    except _NotJson as e:
        raise error(f"{what}: not valid JSON: {e.args[0]} is no JSON number") from None
    except _KeyTwice as e:
        raise error(
            f"{what}: not valid JSON: the key {show(e.args[0])} is given twice in one object"
        ) from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{what}: not valid TOML: {e}") from None
    except ValueError as e:  # JSON's errors, and an integer of thousands of digits in either
        text = str(e)
        if "integer string conversion" in text:
            text = "an integer of more than 4,300 digits"
        raise error(f"{what}: not valid {syntax}: {text}") from None
    if data_depth(parsed) > MAX_DEPTH:  # dotted keys and table headers nest without brackets
        raise error(_too_deep(what, syntax))
    return parsed


def read_document(
    path, what: str, syntax: str = "TOML", error=InputError, max_bytes: int = MAX_BYTES
):
    """Read and parse the file ``path`` (``parse_document``); a file that cannot be read is
    one line too, naming the path as given (the parser's messages name ``what``)."""
    name = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except IsADirectoryError:
        raise error(f"{name}: is a directory, not a file") from None
    except NotADirectoryError:
        raise error(f"{name}: no such file (a part of the path is a file)") from None
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        reason = getattr(e, "strerror", None) or str(e)
        raise error(f"{name}: cannot read it: {reason}") from None
    if len(data) > max_bytes:
        raise error(f"{what}: more than the {_size(max_bytes)} a file may hold here")
    return parse_document(data, what, syntax, error, max_bytes)


# --- declared fields: a table's keys, each with its rule, checked and described once ---------

REQUIRED = object()  # a Field without a default


class Rule:
    """What one value may be: ``check`` returns it as used (or raises one line), ``schema``
    describes it as JSON Schema (the service's /docs publishes it)."""

    def check(self, value, what: str, error=InputError):
        raise NotImplementedError

    def schema(self) -> dict:
        raise NotImplementedError


class Int(Rule):
    """An integer (not a bool, not a float) in lo..hi."""

    def __init__(self, lo: int, hi: int, text: str = ""):
        self.lo, self.hi, self.text = lo, hi, text

    def check(self, value, what, error=InputError):
        return need_int(value, what, self.lo, self.hi, error, self.text)

    def schema(self):
        if self.hi >= 2**53:  # past a double's integers: 2**64 itself survives as a float
            return {"type": "integer", "minimum": self.lo, "exclusiveMaximum": self.hi + 1}
        return {"type": "integer", "minimum": self.lo, "maximum": self.hi}


class Number(Rule):
    """A finite number (an int or a float, not a bool) in lo..hi (``need_number``)."""

    def __init__(self, lo=-math.inf, hi=math.inf, text="", lo_open=False, hi_open=False):
        self.lo, self.hi, self.text = lo, hi, text
        self.lo_open, self.hi_open = lo_open, hi_open

    def check(self, value, what, error=InputError):
        return need_number(
            value, what, self.lo, self.hi, error, self.text, self.lo_open, self.hi_open
        )

    def schema(self):
        out = {"type": "number"}
        for bound, is_open, word in (
            (self.lo, self.lo_open, "minimum"),
            (self.hi, self.hi_open, "maximum"),
        ):
            if math.isfinite(bound):
                out["exclusive" + word.title() if is_open else word] = bound
        return out


class Bool(Rule):
    def check(self, value, what, error=InputError):
        return need_bool(value, what, error)

    def schema(self):
        return {"type": "boolean"}


class Text(Rule):
    """A string; ``display``: a name shown to people (``need_display``: NFC, no bidi or
    zero-width controls)."""

    def __init__(self, nonempty: bool = False, max_len: int | None = None, display=False):
        self.nonempty, self.max_len, self.display = nonempty, max_len, display

    def check(self, value, what, error=InputError):
        check = need_display if self.display else need_str
        return check(value, what, error, self.nonempty, self.max_len)

    def schema(self):
        out = {"type": "string", **({"minLength": 1} if self.nonempty else {})}
        return {**out, **({"maxLength": self.max_len} if self.max_len else {})}


class Directory(Rule):
    def check(self, value, what, error=InputError):
        return need_path(value, what, error)

    def schema(self):
        return {"type": "string", "minLength": 1}


class Field:
    """One key of a table: its rule, what it means, its default (a value, a function of the
    whole table, or REQUIRED), the command-line flag that gives it, and another spelling."""

    def __init__(self, key, rule, doc, default=REQUIRED, flag=None, alias=None):
        self.key, self.rule, self.doc = key, rule, doc
        self.default, self.flag, self.alias = default, flag, alias

    def label(self, where: str, flags=None) -> str:
        """How a message names the value: its flag when it came from one, else the key."""
        flag = (flags or {}).get(self.key)
        return flag if flag else f"{where}: {self.key!r}"

    def check(self, value, where: str, error=InputError, flags=None):
        return self.rule.check(value, self.label(where, flags), error)

    def schema(self) -> dict:
        out = {**self.rule.schema(), "description": self.doc}
        if self.default is not REQUIRED and not callable(self.default):
            if self.default is not None:
                out["default"] = self.default
        return out


class Fields:
    """The fields of one kind of table (a study spec): unknown keys, spellings given twice and
    missing keys are refused, each value checked by its field's rule."""

    def __init__(self, *fields: Field):
        self.fields = {f.key: f for f in fields}
        self.aliases = {f.alias: f.key for f in fields if f.alias}

    def __getitem__(self, key) -> Field:
        return self.fields[key]

    def keys(self) -> tuple:
        """The keys in their documented order (without the other spellings)."""
        return tuple(self.fields)

    def known(self) -> tuple:
        return self.keys() + tuple(self.aliases)

    def check(self, data: dict, where: str, error=InputError, flags=None) -> dict:
        """{key: checked value} of every field (defaults filled in; an alias read as its key),
        in the fields' order; one line for the first problem."""
        known = self.known()
        unknown = [k for k in data if k not in known]
        if unknown:
            raise error(
                f"{where}: unknown key {show(unknown[0])} (known keys: {', '.join(self.keys())})"
            )
        for alias, key in self.aliases.items():
            if alias in data and key in data:
                raise error(f"{where}: give {key!r} or {alias!r}, not both")
        raw = {self.aliases.get(k, k): v for k, v in data.items()}
        for f in self.fields.values():
            if f.default is REQUIRED and f.key not in raw:
                raise error(f"{where}: missing key {f.key!r}")
        out = {}
        for f in self.fields.values():
            if f.key in raw:
                out[f.key] = f.check(raw[f.key], where, error, flags)
            elif f.default is None:
                out[f.key] = None
            else:  # a default goes through the rule too: the value as used
                default = f.default(raw) if callable(f.default) else f.default
                out[f.key] = f.check(default, where, error, flags)
        return out

    def schema(self, title: str, description: str) -> dict:
        properties = {k: f.schema() for k, f in self.fields.items()}
        for alias, key in self.aliases.items():
            properties[alias] = {**properties[key], "description": f"another spelling of {key!r}"}
        return {
            "title": title,
            "description": description,
            "type": "object",
            "properties": properties,
            "required": [k for k, f in self.fields.items() if f.default is REQUIRED],
            "additionalProperties": False,
        }
