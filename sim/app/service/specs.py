"""A submitted study spec (a request body, TOML or JSON) checked into the TOML file that the
study's child process (``kalarite study spec.toml``) reads.

The spec is parsed as data only (tomllib or json, never evaluated) and validated exactly as
``kalarite study`` validates a spec file, so a bad spec gets the CLI's one-line message, with
the body named as what it is (``request body: missing key 'decks'``) instead of a file name
the client never saw. A ``content`` key may only name a directory under the service's
``DATA/content/`` (no paths); it is rewritten to that directory.
"""

import functools
import json
import re
import tomllib
from dataclasses import dataclass

SPEC_FILE = "spec.toml"  # studies/<id>/spec.toml: what the study's child process reads
WHERE = "request body"  # how every validation message names the spec
TOML_TYPES = ("application/toml", "text/toml", "application/x-toml", "text/x-toml")
JSON_TYPES = ("application/json",)
_CONTENT_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")


class SpecError(ValueError):
    """A spec the service refuses: 400 with this one line (``status`` 415 for a body that is
    neither TOML nor JSON)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass
class CheckedSpec:
    toml_text: str  # written to studies/<id>/spec.toml
    study: object  # sim.study.Study
    name: str


@functools.lru_cache(maxsize=1)
def _default_content():
    from sim.content import load_content

    return load_content()


def media_type(content_type: str | None) -> str:
    return (content_type or "").split(";")[0].strip().lower()


def parse_body(body: bytes, content_type: str | None) -> tuple[dict, bool]:
    """The body as a spec dict; also whether it was TOML. Read by sim.inputs (the one reader
    of untrusted documents): bounded in size and nesting, a UTF-8 byte-order mark read past,
    every problem one line."""
    from sim.inputs import parse_document

    kind = media_type(content_type)
    if kind not in TOML_TYPES + JSON_TYPES:
        raise SpecError(
            f"send the spec as TOML (Content-Type: application/toml) or JSON "
            f"(Content-Type: application/json), not {kind or 'no content type'!r}",
            status=415,
        )
    was_toml = kind in TOML_TYPES
    data = parse_document(body, WHERE, "TOML" if was_toml else "JSON", SpecError)
    if not isinstance(data, dict):
        raise SpecError(f"{WHERE}: a study spec is a JSON object of keys")
    return data, was_toml


def _content_dir(value, content_root):
    """The content variant a spec names: only a plain name of a directory under
    ``content_root``; never a path from the request."""
    if not isinstance(value, str) or not _CONTENT_NAME.match(value):
        raise SpecError(
            f"{WHERE}: 'content' must be the name of a content directory under the "
            f"service's data directory (content/NAME), got {value!r}"
        )
    d = (content_root / value).resolve()
    if d.parent != content_root.resolve() or not d.is_dir():
        raise SpecError(
            f"{WHERE}: no content directory {value!r} under the service's data directory "
            "(content/NAME)"
        )
    return d


def load_variant(variant):
    """The content variant's card files, read as the study's child reads them (every file it
    needs there: sim.content.copies); SpecError naming it by its name, not its path."""
    from sim.content import ContentError
    from sim.content.copies import load_content_dir

    try:
        return load_content_dir(variant, what=f"content {variant.name!r}")
    except (ContentError, OSError) as e:
        text = str(e).replace(f"{str(variant)!r}", "it").replace(str(variant), variant.name)
        raise SpecError(f"{WHERE}: {text}") from None


def check_spec(body: bytes, content_type: str | None, content_root) -> CheckedSpec:
    """Parse, validate and render a submitted spec; raises SpecError."""
    from sim.content import ContentError
    from sim.study import StudyError, study_from_dict

    data, was_toml = parse_body(body, content_type)
    content = _default_content()
    rewritten = False
    if "content" in data:
        variant = _content_dir(data["content"], content_root)
        data["content"] = str(variant)
        rewritten = True
        content = load_variant(variant)
    try:
        study = study_from_dict(dict(data), content, where=WHERE)
    except (StudyError, ContentError, ValueError) as e:
        raise SpecError(" ".join(str(e).split())) from None
    if was_toml and not rewritten:
        text = body.decode("utf-8").removeprefix("\ufeff")
    else:
        text = to_toml(data)
    return CheckedSpec(toml_text=text, study=study, name=study.name)


def _toml_value(key, v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(key, x) for x in v) + "]"
    raise SpecError(f"{WHERE}: {key!r} cannot be {json.dumps(v)} (leave the key out)")


def to_toml(data: dict) -> str:
    """A validated spec dict as TOML (its values are strings, integers, booleans and lists);
    checked by reading it back."""
    lines = ["# submitted to kalarite serve as JSON"]
    lines += [f"{k} = {_toml_value(k, v)}" for k, v in data.items()]
    text = "\n".join(lines) + "\n"
    try:
        text.encode("utf-8")
        same = tomllib.loads(text) == data
    except (UnicodeError, tomllib.TOMLDecodeError):
        same = False
    if not same:
        raise SpecError(f"{WHERE}: the spec cannot be written as TOML")
    return text
