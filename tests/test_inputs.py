"""The one validation layer (sim.inputs, sim.spec) and every reader of untrusted input through
it (issue 37 item 5, issue 38 items 1 and 8).

Every reader (study specs, card files, position files, profile files, the service's request
bodies, TOML and JSON) bounds nesting and size and reads odd encodings: a document nested
thousands of levels deep, or with a dotted key of thousands of parts, is refused in one line
(a JSON 400 in the service), never with a RecursionError, a plain-text 500, or the minutes
and gigabytes tomllib spends on such a key; a UTF-8 byte-order mark is read past; UTF-16,
bytes that are not UTF-8 and NUL bytes are refused naming what they are.
"""

import json
import shutil

import pytest

from sim.app.cli import main
from sim.app.service.specs import SpecError, parse_body
from sim.content import ContentError, load_content
from sim.inputs import (
    MAX_BYTES,
    MAX_DEPTH,
    InputError,
    data_depth,
    got,
    need_int,
    parse_document,
    read_document,
    text_depth,
)
from sim.players import load_profiles
from sim.position import PositionError, load_position
from sim.spec import SPEC, spec_schema
from sim.study import StudyError, load_study, study_from_dict
from tests.support.service import inprocess_service

CONTENT = load_content()
SPEC_TEXT = 'decks = ["imperial", "highland"]\ngames = 2\npolicies = "random"\n'
DEPTHS = (MAX_DEPTH + 1, 990, 3_000, 100_000)


def nested_arrays(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


def nested_tables(depth: int, syntax: str = "TOML") -> str:
    key = '"a": ' if syntax == "JSON" else "a = "
    return ("{" + key) * depth + "1" + "}" * depth


def dotted_key(parts: int) -> str:
    return ".".join(["a"] * parts) + " = 1\n"


# --- the rules themselves ------------------------------------------------------------------


def test_an_integer_is_not_a_float_or_a_bool_and_says_what_it_got():
    assert need_int(7, "x", 0, 9) == 7
    for value, words in (
        (99.0, "got the float 99.0"),
        (True, "got the boolean true"),
        ("7", "got the string '7'"),
        ([7], "got the list [7]"),
        ({"a": 1}, "got the table {'a': 1}"),
        (None, "got null (leave the key out"),
        (10, "got 10"),
    ):
        with pytest.raises(InputError, match="x must be an integer in 0..9") as e:
            need_int(value, "x", 0, 9)
        assert words in str(e.value)
    assert got("x" * 10**6).endswith("...") and len(got(list(range(10**6)))) < 100


def test_the_spec_and_simulate_say_a_float_is_not_an_integer(tmp_path, capsys):
    """`got 99.0` for an integer (issue 38 item 8): the kind is the mistake, so it is named."""
    with pytest.raises(
        StudyError, match=r"'games' must be a positive integer .*got the float 99\.0"
    ):
        study_from_dict({"decks": ["imperial", "highland"], "games": 99.0}, CONTENT)
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC_TEXT.replace("games = 2", "games = 99.0"))
    assert main(["study", str(spec), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "s.toml: 'games' must be a positive integer" in err and "got the float 99.0" in err


@pytest.mark.parametrize("depth", DEPTHS)
def test_nesting_is_counted_before_parsing(depth):
    for text in (f"x = {nested_arrays(depth)}\n", f"x = {nested_tables(depth)}\n"):
        assert text_depth(text) > MAX_DEPTH
        with pytest.raises(InputError, match=f"f.toml: nested more than {MAX_DEPTH} levels"):
            parse_document(text, "f.toml")
    for text in (nested_arrays(depth), nested_tables(depth, "JSON")):
        with pytest.raises(InputError, match=f"b: nested more than {MAX_DEPTH} levels"):
            parse_document(text.encode(), "b", "JSON")


def test_dotted_keys_and_table_headers_count_as_nesting():
    """tomllib takes time and memory growing with the square of a dotted key's parts (20,000
    parts: 15 s and 1.5 GB), so the parts are counted before it sees them."""
    for text in (
        dotted_key(100_000),
        "[" + ".".join(["t"] * 40) + "]\nx = 1\n",
        '"a"."b".' * 20 + "c = 1\n",
        "[[" + ".".join(["t"] * 40) + "]]\n",
    ):
        with pytest.raises(InputError, match="nested more than"):
            parse_document(text, "f.toml")
    assert text_depth(dotted_key(MAX_DEPTH)) == MAX_DEPTH
    parse_document(dotted_key(MAX_DEPTH), "f.toml")  # the bound itself is read


def test_strings_comments_and_numbers_are_not_nesting():
    text = (
        'a = "[[[[{{{{a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g"\n'
        "b = '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['\n"
        'c = """\n[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n"""\n'
        "# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n"
        "d = 1.5\ne = 1979-05-27T07:32:00.999\n"
    )
    assert text_depth(text) <= 2
    assert parse_document(text, "f.toml")["d"] == 1.5
    doc = json.dumps({"a": '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[[['})
    assert parse_document(doc, "b", "JSON") == json.loads(doc)


def test_the_parsed_depth_is_measured_without_recursion():
    deep = []
    node = deep
    for _ in range(100_000):
        node.append([])
        node = node[0]
    assert data_depth(deep) == MAX_DEPTH + 1  # counted only to just past the bound
    assert data_depth({"a": [1, {"b": 2}]}) == 3


def test_size_encodings_and_numbers(tmp_path):
    with pytest.raises(InputError, match="f: 1.0 MiB, more than the 1.0 MiB allowed"):
        parse_document(b"#" * (MAX_BYTES + 1), "f")
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_BYTES + 10))
    with pytest.raises(InputError, match="more than the 1.0 MiB a file may hold"):
        read_document(big, "big.toml")
    assert parse_document(b"\xef\xbb\xbfx = 1\n", "f") == {"x": 1}  # a byte-order mark
    assert parse_document(b'\xef\xbb\xbf{"x": 1}', "f", "JSON") == {"x": 1}
    for data, words in (
        ("x = 1\n".encode("utf-16"), "the text is UTF-16; save it as UTF-8"),
        ("x = 1\n".encode("utf-32"), "the text is UTF-32"),
        (b"x = 1\ny = '\xff'\n", "not UTF-8 text (byte 11 is 0xff)"),
        (b"x = 1\ny = 2\x00\n", "a NUL byte on line 2"),
        (b"x = " + b"9" * 5000 + b"\n", "an integer of more than 4,300 digits"),
    ):
        with pytest.raises(InputError, match="f: not valid TOML: ") as e:
            parse_document(data, "f")
        assert words in str(e.value)
    with pytest.raises(InputError, match="no such file"):
        read_document(tmp_path / "none.toml", "none.toml")
    with pytest.raises(InputError, match="is a directory"):
        read_document(tmp_path, "d")


# --- every reader ------------------------------------------------------------------------------

NESTED_TOML = {
    "arrays": lambda d: f"decks = {nested_arrays(d)}\ngames = 2\n",
    "tables": lambda d: f'name = {nested_tables(d)}\ndecks = "all"\ngames = 2\n',
    "dotted": lambda d: 'decks = "all"\ngames = 2\n' + dotted_key(d),
}


@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("how", sorted(NESTED_TOML))
def test_a_nested_spec_is_one_line(tmp_path, capsys, how, depth):
    spec = tmp_path / "deep.toml"
    spec.write_text(NESTED_TOML[how](depth))
    with pytest.raises(StudyError, match="deep.toml: nested more than"):
        load_study(spec, CONTENT)
    out = tmp_path / "out"
    assert main(["study", str(spec), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kalarite: error: deep.toml: nested") and err.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_nested_card_file_is_one_line(data_copy, capsys, depth):
    path = data_copy / "imperial.toml"
    text = path.read_text()
    path.write_text(text.replace('rank = "common"', f"rank = {nested_arrays(depth)}", 1))
    with pytest.raises(ContentError, match="imperial.toml: nested more than"):
        load_content(str(data_copy))
    rc = main(["play", "--content", str(data_copy), "--decks", "imperial,highland"])
    err = capsys.readouterr().err
    assert (
        rc == 2
        and err.startswith("kalarite: error: imperial.toml: nested")
        and err.count("\n") == 1
    )


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_nested_position_file_is_one_line(tmp_path, capsys, depth):
    path = tmp_path / "p.toml"
    path.write_text(f'mode = "high-form"\nto_move = {nested_tables(depth)}\n')
    with pytest.raises(PositionError, match="p.toml: nested more than"):
        load_position(path, CONTENT)
    assert main(["moves", str(path)]) == 2
    err = capsys.readouterr().err
    assert "p.toml: nested more than" in err and err.count("\n") == 1


def test_a_nested_profile_file_is_one_line(tmp_path):
    path = tmp_path / "players.toml"
    path.write_text("[profile.x]\n" + dotted_key(5_000))
    with pytest.raises(ValueError, match="players.toml: nested more than"):
        load_profiles(path)


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_nested_body_is_one_line(depth):
    for body, kind in (
        (f"decks = {nested_arrays(depth)}\n".encode(), "application/toml"),
        (dotted_key(depth).encode(), "application/toml"),
        (('{"decks": ' + nested_arrays(depth) + "}").encode(), "application/json"),
        (nested_tables(depth, "JSON").encode(), "application/json"),
    ):
        with pytest.raises(SpecError, match="request body: nested more than") as e:
            parse_body(body, kind)
        assert e.value.status == 400


def test_a_byte_order_mark_is_read_past_and_utf16_is_named(tmp_path, capsys):
    """A UTF-8 BOM was "Invalid statement" (issue 38 item 8): it is read past everywhere."""
    spec = tmp_path / "bom.toml"
    spec.write_bytes(b"\xef\xbb\xbf" + SPEC_TEXT.encode())
    assert load_study(spec, CONTENT).games == 2
    card_dir = tmp_path / "cards"
    shutil.copytree(CONTENT.data_dir, card_dir)
    path = card_dir / "imperial.toml"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_content(str(card_dir)).tables.ops.shape == CONTENT.tables.ops.shape
    assert parse_body(b"\xef\xbb\xbf" + SPEC_TEXT.encode(), "application/toml")[0]["games"] == 2
    spec.write_text(SPEC_TEXT, encoding="utf-16")
    assert main(["study", str(spec), "--out", str(tmp_path / "o")]) == 2
    assert (
        "bom.toml: not valid TOML: the text is UTF-16; save it as UTF-8" in capsys.readouterr().err
    )


# --- the service: every route, any body -----------------------------------------------------

TOKEN = "inputs-token-0123"


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with inprocess_service(tmp_path_factory.mktemp("inputs") / "data", TOKEN) as c:
        yield c


def _bodies():
    for depth in (990, 3_000, 100_000):
        yield f"json-arrays-{depth}", nested_arrays(depth).encode(), "application/json"
        yield f"json-objects-{depth}", nested_tables(depth, "JSON").encode(), "application/json"
        yield f"toml-arrays-{depth}", f"x = {nested_arrays(depth)}\n".encode(), "application/toml"
        yield f"toml-dotted-{depth}", dotted_key(depth).encode(), "application/toml"
    yield "bom", b"\xef\xbb\xbf" + b"x = 1\n", "application/toml"
    yield "utf-16", "x = 1\n".encode("utf-16"), "application/toml"
    yield "invalid-utf-8", b'{"x": "\xff"}', "application/json"
    yield "nul", b'{"x": 1}\x00', "application/json"
    yield "huge-integer", b'{"games": ' + b"9" * 5000 + b"}", "application/json"


def _routes(app):
    """(method, path) of every route of the OpenAPI document and the pages outside it, path
    parameters filled with an id of no study."""
    routes = [("GET", "/"), ("GET", "/docs"), ("GET", "/redoc")]
    for path, ops in app.openapi()["paths"].items():
        for name in ("sid", "a", "b"):
            path = path.replace("{" + name + "}", "20200101-000000-abcdef")
        path = path.replace("{table}", "games")
        routes += [(method.upper(), path) for method in ops]
    return routes


def test_every_route_answers_any_body_without_a_500(service):
    """A nested, huge or oddly encoded body to every route and method: 4xx (or the route's
    own answer), never a 500; the spec routes answer 400 in JSON with one line."""
    routes = list(_routes(service.app))
    assert ("POST", "/api/v1/studies") in routes and ("POST", "/api/v1/specs/check") in routes
    for name, body, kind in _bodies():
        for method, path in routes:
            if path == "/api/v1/events":
                continue  # the list's event stream never ends by itself; it reads no body
            r = service.request(method, path, content=body, headers={"content-type": kind})
            assert r.status_code < 500, (name, method, path, r.status_code, r.text[:200])
            if path in ("/api/v1/studies", "/api/v1/specs/check") and method == "POST":
                if name == "bom":  # read past: the spec's own check speaks
                    assert r.status_code == 400 and "unknown key 'x'" in r.json()["error"]
                    continue
                assert r.status_code in (400, 413), (name, r.text[:200])  # 413: over the limit
                error = r.json()["error"]
                assert error.startswith("request body") and "\n" not in error, error


def test_an_unexpected_error_is_json_without_its_words(service, monkeypatch):
    """Not bad input (that is a 4xx), but should anything else fail, the answer is JSON and
    does not carry the exception's text (which may name the server's files)."""
    import sim.app.service.routes_api as routes

    def boom(*a, **k):
        raise RuntimeError("/secret/server/path exploded")

    monkeypatch.setattr(routes, "check_spec", boom)
    r = service.post(
        "/api/v1/specs/check", content=SPEC_TEXT, headers={"content-type": "application/toml"}
    )
    assert r.status_code == 500 and r.headers["content-type"] == "application/json"
    assert "secret" not in r.text and "internal error" in r.json()["error"]


def test_docs_publish_the_spec_schema(service):
    """/docs (the OpenAPI document) shows a spec body with the spec's own keys and ranges."""
    api = service.get("/openapi.json").json()
    for path in ("/api/v1/studies", "/api/v1/specs/check"):
        body = api["paths"][path]["post"]["requestBody"]["content"]
        schema = body["application/json"]["schema"]
        assert schema == json.loads(json.dumps(spec_schema()))
        assert "application/toml" in body
    props = spec_schema()["properties"]
    assert set(SPEC.keys()) <= set(props) and {"mode", "policy"} <= set(props)
    assert props["games"]["minimum"] == 1 and props["turn_cap"]["maximum"] == 100_000
    assert spec_schema()["required"] == ["decks", "games"]
    assert spec_schema()["additionalProperties"] is False


def test_the_schema_agrees_with_the_rules():
    """Valid by the rules means valid by the schema, for the checked-in specs and a few more
    (the schema is what a client builds requests from)."""
    import pathlib
    import tomllib

    import jsonschema

    schema = spec_schema()
    specs = [
        tomllib.loads(p.read_text())
        for p in sorted(pathlib.Path(CONTENT.data_dir).parent.joinpath("studies").glob("*.toml"))
    ]
    specs += [
        {"decks": "all", "games": 1, "modes": "all", "policy": "random"},
        {"decks": [["imperial", "highland", "sylvan"]], "games": 5, "melee_players": 3},
    ]
    for spec in specs:
        spec.pop("content", None)
        jsonschema.validate(spec, schema)
    for bad in (
        {"decks": "all"},
        {"decks": "all", "games": 0},
        {"decks": 3, "games": 1},
        {"decks": "all", "games": 1, "seed": True},
        {"decks": "all", "games": 1, "x": 1},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
