"""Identifiers are ASCII slugs, names shown to people are NFC without bidi or zero-width
controls, and a JSON object gives each key once (issue 50, item 9).

A zero-width space in a card id, U+202E in names and a Cyrillic deck name were accepted, and
JSON bodies with a key given twice were read (the last value won) where TOML refuses them. The
rules are sim.inputs' (``need_slug``, ``need_display``, ``parse_document``); each reader uses
them: card files (sim.content), profile names (sim.players, ``tune``/``learn --name``), study
names (sim.spec) and every JSON body (the service)."""

import unicodedata

import pytest

from sim.app.cli import main
from sim.content import DATA_DIR, ContentError, load_content
from sim.inputs import HIDDEN, InputError, need_display, need_slug, parse_document, read_document
from sim.players import load_profiles
from tests.support.service import inprocess_service

ZWSP, RLO, CYRILLIC_A = "\u200b", "\u202e", "\u0430"


@pytest.mark.parametrize(
    "name", ["", "-x", "a b", "a.b", f"imperi{CYRILLIC_A}l", f"sword{ZWSP}master", "x\n", "é"]
)
def test_an_identifier_is_an_ascii_slug(name):
    with pytest.raises(InputError, match="must be an identifier of ASCII letters, digits"):
        need_slug(name, "id")


def test_slugs_that_are_fine():
    for name in ("imperial", "mountain-troll", "f36", "seer_r1", "A9"):
        assert need_slug(name, "id") == name
    with pytest.raises(InputError, match="at most 64 characters"):
        need_slug("a" * 65, "id")


@pytest.mark.parametrize("ch", sorted(HIDDEN))
def test_a_display_name_refuses_each_hidden_control(ch):
    with pytest.raises(InputError) as err:
        need_display(f"Sword{ch}master", "name")
    assert f"(U+{ord(ch):04X}) at character 6" in str(err.value), err.value


def test_a_display_name_is_read_in_nfc():
    decomposed = "Ce\u0301line"  # e + combining acute
    assert need_display(decomposed, "name") == "C\u00e9line"


def test_every_shipped_card_file_keeps_the_rules():
    content = load_content()
    for deck in content.decks:
        need_slug(deck, "deck")
    for card in content.cards:
        for part in card.id.split("/"):
            need_slug(part, card.id)
        assert need_display(card.name, card.id) == card.name  # NFC already, nothing hidden
        need_display(card.description, card.id, nonempty=False)
    for name in content.task_names:
        need_display(name, "task")
    for path in DATA_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        assert unicodedata.is_normalized("NFC", text), path.name
        assert not set(text) & set(HIDDEN), path.name


# --- card files ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "file,old,new,message",
    [
        (
            "imperial.toml",
            'id = "swordmaster"',
            f'id = "sword{ZWSP}master"',
            "imperial.toml: card 'sword\\u200bmaster': id must be an identifier of ASCII",
        ),
        (
            "imperial.toml",
            'name = "Swordmaster"',
            f'name = "Sword{RLO}master"',
            "imperial.toml: card 'swordmaster': name holds a bidi control (U+202E) at "
            "character 6: write the name without it",
        ),
        (
            "imperial.toml",
            'deck = "imperial"',
            f'deck = "imperi{CYRILLIC_A}l"',
            "imperial.toml: deck must be an identifier of ASCII letters",
        ),
        (
            "flares.toml",
            'id = "f36"',
            f'id = "f36{ZWSP}"',
            "flares.toml: card 'f36\\u200b': id must be an identifier of ASCII",
        ),
        (
            "tasks.toml",
            'name = "Destruction"',
            'name = "Destruction\u2066"',
            "tasks.toml: task 'Destruction\\u2066': name holds a bidi control (U+2066)",
        ),
    ],
)
def test_a_card_file_with_a_bad_id_or_name_is_one_line(data_copy, capsys, file, old, new, message):
    path = data_copy / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ContentError):
        load_content(str(data_copy))
    rc = main(["play", "--content", str(data_copy), "--decks", "imperial,highland"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"kalarite: error: {message}"), err


def test_a_card_name_in_nfd_is_kept_in_nfc(data_copy):
    path = data_copy / "imperial.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name = "Swordmaster"', 'name = "Swordmaste\u0301r"', 1))
    cards = {c.id: c for c in load_content(str(data_copy)).cards}
    name = cards["imperial/swordmaster"].name
    assert name == unicodedata.normalize("NFC", "Swordmaste\u0301r")


# --- profiles and study names ---------------------------------------------------------------


@pytest.mark.parametrize("name", [f"s{CYRILLIC_A}ge", f"sage{ZWSP}", "my profile"])
def test_a_profile_name_is_a_slug(tmp_path, capsys, name):
    path = tmp_path / "p.toml"
    path.write_text(f'[profile."{name}"]\nplayer = "planner"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="p.toml: profile name must be an identifier of ASCII"):
        load_profiles(path)
    rc = main(["tune", "--name", name, "--workers", "1", "--profiles", str(tmp_path / "q.toml")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert err.startswith("kalarite: error: --name must be an identifier of ASCII"), err


def test_a_study_name_with_a_bidi_override_is_one_line(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        f'name = "my {RLO}study"\ndecks = ["imperial", "highland"]\ngames = 2\n',
        encoding="utf-8",
    )
    rc = main(["study", str(spec), "--out", str(tmp_path / "out"), "--workers", "0"])
    err = capsys.readouterr().err
    assert rc == 2 and err == (
        "kalarite: error: spec.toml: 'name' holds a bidi control (U+202E) at character 4: "
        "write the name without it\n"
    )
    assert not (tmp_path / "out").exists()


# --- JSON: each key once, as TOML ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text,syntax,message",
    [
        ('{"games": 2, "games": 9}', "JSON", "the key 'games' is given twice in one object"),
        ('{"a": {"b": 1, "b": 1}}', "JSON", "the key 'b' is given twice in one object"),
        ("games = 2\ngames = 9\n", "TOML", "not valid TOML"),
    ],
)
def test_a_key_given_twice_is_refused_in_json_as_in_toml(tmp_path, text, syntax, message):
    with pytest.raises(InputError, match=message):
        parse_document(text, "body", syntax)
    path = tmp_path / "doc"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        read_document(path, "doc", syntax)


TOKEN = "names-token-0123"


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with inprocess_service(tmp_path_factory.mktemp("names") / "data", TOKEN) as c:
        yield c


@pytest.mark.parametrize(
    "route,body,error",
    [
        (
            "/api/v1/specs/check",
            '{"decks": [["imperial", "highland"]], "games": 2, "games": 900000}',
            "request body: not valid JSON: the key 'games' is given twice in one object",
        ),
        (
            "/api/v1/studies",
            '{"decks": [["imperial", "highland"]], "games": 2, "policies": "random", '
            '"policies": "planner"}',
            "request body: not valid JSON: the key 'policies' is given twice in one object",
        ),
        (
            "/api/v1/suggestions",
            '{"goal": {"deck": "highland", "deck": "imperial", "band": [0.4, 0.6]}}',
            "request body: not valid JSON: the key 'deck' is given twice in one object",
        ),
        (
            "/api/v1/specs/check",
            f'{{"name": "a{RLO}b", "decks": [["imperial", "highland"]], "games": 2}}',
            "request body: 'name' holds a bidi control (U+202E) at character 2: write the name "
            "without it",
        ),
    ],
)
def test_the_service_refuses_keys_given_twice_and_hidden_controls(service, route, body, error):
    r = service.post(route, content=body.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json() == {"error": error}, r.text


def test_a_token_name_ending_in_a_newline_is_refused():
    from sim.app.service.tokens import TokenError, check_name

    assert check_name("ann@example.org") == "ann@example.org"
    for name in ("ann\n", f"ann{ZWSP}", f"{CYRILLIC_A}nn"):
        with pytest.raises(TokenError, match="a token name is 1 to 64 letters"):
            check_name(name)


def test_a_ladder_file_with_a_key_given_twice_is_one_line(tmp_path, capsys):
    path = tmp_path / "ladder.json"
    path.write_text('{"games": 1, "games": 2}')
    rc = main(["players", "--ladder", str(path)])
    out, err = capsys.readouterr()
    assert (
        rc == 2
        and out == ""
        and err
        == (
            f"kalarite: error: cannot read the ladder {str(path)!r}: ladder.json: not valid JSON: "
            "the key 'games' is given twice in one object\n"
        )
    )
