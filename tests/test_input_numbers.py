"""Every number a user gives is a finite number in its range before it is used (issue 50).

``--policy planner:width=1e400`` was a 26-line traceback (OverflowError in
sim.players._check_setting) and HTTP 500 from the service's ``specs/check``, ``studies`` and
``suggestions``. The rules are sim.inputs' (``need_number``, ``number_text``, ``int_text``);
these tests hold each user-visible path to one ``kalarite: error:`` line and exit status 2, or
a one-line JSON 400. The wide sweep over every flag and route is tests/test_fuzz_input.py.
"""

import math

import pytest

from sim.app.cli import main
from sim.inputs import InputError, int_text, need_number, number_text
from sim.players import load_profiles, parse_policy
from tests.support.service import inprocess_service

BIG = "1" + "0" * 40


# --- the rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 10**400, True, "1", None])
def test_a_number_is_finite_and_no_bool_or_string(value):
    with pytest.raises(InputError, match=r"^x must be a finite number in \[0, 1\], got "):
        need_number(value, "x", 0, 1)


def test_minus_zero_is_zero_and_open_bounds_are_open():
    assert math.copysign(1, need_number(-0.0, "x")) == 1.0  # equal players get equal rows
    assert need_number(10**20, "x") == 1e20
    with pytest.raises(InputError, match=r"x must be a finite number in \(0, 50\], got 0"):
        need_number(0, "x", 0, 50, lo_open=True)


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e400", "-1e400", "1" * 500])
def test_a_number_written_as_text_is_shown_as_written(text):
    with pytest.raises(InputError) as err:
        number_text(text, "--x", 0, 10)
    assert str(err.value).startswith(f"--x must be a finite number in [0, 10], got '{text[:20]}")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "text,value",
    [("8", 8), ("-0", 0), (" 8 ", 8), ("8.0", 8), ("1e1", 10), ("+3", 3)],
)
def test_an_integer_written_as_text(text, value):
    assert int_text(text, "w", 0, 32) == value


@pytest.mark.parametrize("text", ["2.5", "nan", "inf", "1e400", BIG, "9" * 5000, "-1", "33"])
def test_an_integer_written_as_text_is_refused_in_one_line(text):
    with pytest.raises(InputError, match=r"^w must be an integer from 0 to 32, got '"):
        int_text(text, "w", 0, 32)
    with pytest.raises(InputError, match="w needs a number, got 'frozen'"):
        int_text("frozen", "w", 0, 32)


# --- players -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec,message",
    [
        ("planner:width=1e400", "width must be an integer from 1 to 32, got '1e400'"),
        ("planner:width=nan", "width must be an integer from 1 to 32, got 'nan'"),
        ("planner:width=-inf", "width must be an integer from 1 to 32, got '-inf'"),
        (f"planner:width={BIG}", "width must be an integer from 1 to 32, got '1000000000"),
        ("planner:width=-0", "width must be an integer from 1 to 32, got '-0'"),
        ("mc:playouts=1e400", "playouts must be an integer from 1 to 10,000, got '1e400'"),
        ("greedy:points=1e400", "points must be a finite number in [-1,000,000, 1,000,000]"),
        ("greedy:points=nan", "points must be a finite number in [-1,000,000, 1,000,000]"),
        (f"greedy:points={BIG}", "points must be a finite number in [-1,000,000, 1,000,000]"),
    ],
)
def test_a_player_setting_or_weight_beyond_its_range_is_one_line(spec, message):
    with pytest.raises(ValueError) as err:
        parse_policy(spec)
    assert str(err.value).startswith(f"policy {spec!r}: {message}"), err.value


def test_minus_zero_weights_name_the_same_player():
    a, b = parse_policy("greedy:centre=-0")[1], parse_policy("greedy:centre=0")[1]
    assert a.tobytes() == b.tobytes()  # the players' digests are of these bytes


@pytest.mark.parametrize(
    "table,message",
    [
        ("[profile.p.settings]\nwidth = inf\n", "p.toml: profile 'p': width must be an integer"),
        ("[profile.p.settings]\nwidth = 1e400\n", "width must be an integer from 1 to 32"),
        ("[profile.p.settings]\nwidth = 8.0\n", "width must be an integer from 1 to 32"),
        ("[profile.p.weights]\npoints = nan\n", "weight points must be a finite number"),
        (f"[profile.p.weights]\npoints = {BIG}\n", "weight points must be a finite number"),
        ('[profile.p.weights]\npoints = "3"\n', "weight points must be a finite number"),
        ("[profile.p.model.high-form]\nintercept = 1e300\n", "intercept must be a finite"),
        ('weights = "a"\n', "p.toml: profile 'p': weights must be a table of keys, got the"),
        ("settings = [1]\n", "p.toml: profile 'p': settings must be a table of keys, got the"),
    ],
)
def test_a_profile_number_beyond_its_range_is_one_line(tmp_path, table, message):
    path = tmp_path / "p.toml"
    path.write_text('[profile.p]\nplayer = "planner"\n' + table)
    with pytest.raises(ValueError) as err:
        load_profiles(path)
    assert message in str(err.value) and "\n" not in str(err.value), err.value


# --- the command line: one line, exit status 2 ---------------------------------------------


def _cli(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize(
    "argv,line",
    [
        (
            ["play", "--decks", "imperial,highland", "--policy", "planner:width=1e400"],
            "policy 'planner:width=1e400': width must be an integer from 1 to 32, got '1e400'",
        ),
        (
            ["check", "--games", "2", "--policy", "planner:width=nan", "--workers", "0"],
            "policy 'planner:width=nan': width must be an integer from 1 to 32, got 'nan'",
        ),
        (
            [
                "suggest",
                "--deck",
                "highland",
                "--band",
                "0.4,0.6",
                "--policy",
                "planner:width=1e400",
                "--out",
                "{tmp}/s",
                "--workers",
                "0",
            ],
            "suggest: players: policy 'planner:width=1e400': width must be an integer from 1 "
            "to 32, got '1e400'",
        ),  # fmt: skip
        (
            ["suggest", "--deck", "highland", "--band", "nan,0.6", "--out", "{tmp}/s"],
            "suggest: goal.band must be a win share between 0 and 1, got the float nan",
        ),
        (
            ["play", "--decks", "imperial,highland", "--game", BIG],
            f"play: argument --game: must be an integer of at most 20 digits, got '{BIG}'",
        ),
        (
            ["play", "--decks", "imperial,highland", "--game", str(2**63)],
            "--game must be a game index from 0 to 999,999,999, got 9223372036854775808",
        ),
        (["learn", "x", "--l2=nan"], "learn: argument --l2: must be a finite number, got 'nan'"),
        (["learn", "x", "--l2=-inf"], "learn: argument --l2: must be a finite number, got '-inf'"),
        (
            ["learn", "{tmp}/none", "--l2=1e40", "--profiles", "{tmp}/p.toml"],
            "--l2 must be a finite number from 0 to 1,000,000, got 1e+40",
        ),
        (
            ["learn", "{tmp}/none", "--seed=-1", "--profiles", "{tmp}/p.toml"],
            "--seed must be an integer in [0, 2**64), got -1",
        ),
        (
            ["report", "x", "--margin=1e400"],
            "report: argument --margin: must be a number of points above 0 and at most 50, "
            "got the float inf",
        ),
        (
            [
                "trace",
                "--player",
                "planner",
                "--levels",
                str(2**63),
                "--games",
                "2",
                "--out",
                "{tmp}/t",
            ],
            "--levels must be 4 to 12 budgets, got 9223372036854775808",
        ),  # fmt: skip
        (
            [
                "simulate",
                "--decks",
                "imperial,highland",
                "--games",
                "2",
                "--workers",
                str(2**63),
                "--out",
                "{tmp}/o",
            ],
            "--workers must be 0 (in this process, without Ray) to 1,000,000,000, got "
            "9223372036854775808",
        ),  # fmt: skip
        (
            ["ladder", "--out", "{tmp}/l", "--speed-seconds=inf"],
            "ladder: argument --speed-seconds: must be a finite number, got 'inf'",
        ),
        (
            ["ladder", "--out", "{tmp}/l", "--players", "random,greedy", "--speed-seconds=-0"],
            "--speed-seconds must be a finite number in (0, 3,600], got the float 0.0",
        ),
        (
            ["tune", "--name", "t", "--seed", str(2**63), "--workers", "1"],
            "--seed must be an integer in 0..1,000,000,000,000,000, got 9223372036854775808",
        ),
        (
            ["serve", "--data", "{tmp}/d", "--max-disk", "9" * 400 + "G"],
            "--max-disk must be at most 8 EiB (or 0: no quota), got '99999999999999999999999",
        ),
        (
            ["serve", "--data", "{tmp}/d", "--max-running", str(2**63)],
            "--max-running must be 1 to 256, got 9223372036854775808",
        ),
        (
            ["serve", "--data", "{tmp}/d", "--max-games-per-study", str(2**63)],
            "--max-games-per-study must be 0 (no limit) to 2**63 - 1",
        ),
        (["bench", "--rounds", "100000"], "--rounds must be a positive integer up to 1,000"),
    ],
)
def test_a_number_flag_beyond_its_range_is_one_line(capsys, tmp_path, argv, line):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    rc, out, err = _cli(capsys, *argv)
    assert rc == 2 and out == "", (rc, out, err)
    assert err.startswith(f"kalarite: error: {line}") and err.count("\n") == 1, err
    assert not (tmp_path / "p.toml").exists()


@pytest.mark.parametrize(
    "key,value,line",
    [
        ("policies", '"planner:width=1e400"', "spec.toml: policy 'planner:width=1e400': width"),
        (
            "games",
            "inf",
            "spec.toml: 'games' must be a positive integer up to 1,000,000,000, got the float inf",
        ),  # fmt: skip
        ("seed", BIG, "spec.toml: 'seed' must be an integer in [0, 2**64), got 1000000000"),
        (
            "stability_margin",
            "nan",
            "spec.toml: 'stability_margin' must be a number of points "
            "above 0 and at most 50, got the float nan",
        ),  # fmt: skip
        ("until", '"width=1e400"', "spec.toml: 'until' must be decided or width=W"),
    ],
)
def test_a_spec_number_beyond_its_range_is_one_line(capsys, tmp_path, key, value, line):
    spec = tmp_path / "spec.toml"
    base = {"decks": '["imperial", "highland"]', "games": "2", "policies": '"random"'}
    base[key] = value
    spec.write_text("".join(f"{k} = {v}\n" for k, v in base.items()))
    rc, out, err = _cli(capsys, "study", spec, "--out", tmp_path / "out", "--workers", "0")
    assert rc == 2 and err.startswith(f"kalarite: error: {line}") and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()


# --- the service: 400 JSON -------------------------------------------------------------------

TOKEN = "numbers-token-0123"


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with inprocess_service(tmp_path_factory.mktemp("numbers") / "data", TOKEN) as c:
        yield c


SPEC_TOML = 'decks = [["imperial", "highland"]]\ngames = 2\npolicies = "planner:width=1e400"\n'
SPEC_JSON = '{"decks": [["imperial", "highland"]], "games": 2, "policies": "planner:width=1e400"}'
GOAL_TOML = (
    '[goal]\ndeck = "highland"\nband = [0.4, 0.6]\n[players]\nscreen = "planner:width=1e400"\n'
)
WIDTH = "policy 'planner:width=1e400': width must be an integer from 1 to 32, got '1e400'"


@pytest.mark.parametrize(
    "route,body,kind,error",
    [
        ("/api/v1/specs/check", SPEC_TOML, "application/toml", f"request body: {WIDTH}"),
        ("/api/v1/specs/check", SPEC_JSON, "application/json", f"request body: {WIDTH}"),
        ("/api/v1/studies", SPEC_TOML, "application/toml", f"request body: {WIDTH}"),
        ("/api/v1/studies", SPEC_JSON, "application/json", f"request body: {WIDTH}"),
        ("/api/v1/suggestions", GOAL_TOML, "application/toml", f"request body: players: {WIDTH}"),
        (
            "/api/v1/specs/check",
            '{"decks": [["imperial", "highland"]], "games": NaN}',
            "application/json",
            "request body: not valid JSON: NaN is no JSON number",
        ),
        (
            "/api/v1/specs/check",
            '{"decks": [["imperial", "highland"]], "games": 1e400}',
            "application/json",
            "request body: 'games' must be a positive integer up to 1,000,000,000, got the "
            "float inf",
        ),
        (
            "/api/v1/specs/check",
            'decks = [["imperial", "highland"]]\ngames = 2\nstability_margin = -inf\n',
            "application/toml",
            "request body: 'stability_margin' must be a number of points above 0 and at most "
            "50, got the float -inf",
        ),
    ],
)
def test_the_service_answers_400_json_for_a_number_beyond_its_range(
    service, route, body, kind, error
):
    r = service.post(route, content=body.encode(), headers={"content-type": kind})
    assert r.status_code == 400, (r.status_code, r.text)
    assert r.json() == {"error": error}


def test_the_list_limit_is_range_checked(service):
    for limit in (str(2**64), BIG, "-0"):
        r = service.get(f"/api/v1/studies?limit={limit}")
        assert r.status_code == 400 and r.json() == {"error": "limit must be in 1..1000"}
    r = service.get("/api/v1/studies?limit=nan")  # FastAPI's own check, answered as JSON
    assert r.status_code == 400 and "limit" in r.json()["error"], r.text
