"""The `kalarite` command line: play, moves, cards, and one-line errors for bad input.

Most calls run in-process through ``sim.app.cli.main``; two go through a real subprocess so the
exit status and the absence of tracebacks are seen as a shell would see them.
"""

import dataclasses
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

import sim.content
from sim.app.cli import main
from sim.content import BASE_DECKS
from tests.support.cli import assert_one_line_error, run

ROOT = pathlib.Path(__file__).resolve().parents[1]
FINAL = re.compile(r"^final score: seat 0 (\d+), seat 1 (\d+)$")


def _subprocess_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


# --- play ------------------------------------------------------------------------------------


def test_play_prints_the_whole_log(capsys):
    """`kalarite play`: the header, the note of the escape hatch, the turns, the end and the
    final score (every deck and mode's games themselves: tests/test_contract.py)."""
    rc, out, err = run(
        capsys, "play", "--decks", "sylvan,imperial", "--mode", "deathmatch", "--seed", 42,
        "--beings-without-effects",
    )  # fmt: skip
    assert rc == 0, err
    assert err == ""
    lines = out.splitlines()
    assert lines[0].startswith("kalarite game: deathmatch, seat 0 = sylvan, seat 1 = imperial")
    assert "NOTE: beings without an implemented effect" in lines[1]
    assert any(line.startswith("Turn 1: ") for line in lines)
    assert lines[-2].startswith("game over (")
    m = FINAL.match(lines[-1])
    assert m, f"log does not end with the final score: {lines[-1]!r}"
    s0, s1 = int(m[1]), int(m[2])
    if "seat 0 wins" in lines[-2]:
        assert s0 >= s1
    elif "seat 1 wins" in lines[-2]:
        assert s1 >= s0
    else:
        assert "shared" in lines[-2] and s0 == s1


def test_play_is_reproducible_and_game_index_changes_the_game(capsys):
    args = ["play", "--decks", "sylvan,highland", "--seed", 5, "--beings-without-effects"]
    rc, first, _ = run(capsys, *args)
    rc2, again, _ = run(capsys, *args)
    rc3, other, _ = run(capsys, *args, "--game", 1)
    assert rc == rc2 == rc3 == 0
    assert first == again
    assert other != first
    turn1 = next(line for line in other.splitlines() if line.startswith("Turn 1: "))
    assert turn1.startswith("Turn 1: seat 1 (highland)")


def test_play_policy_per_seat(capsys):
    rc, out, _ = run(
        capsys, "play", "--decks", "imperial,sylvan", "--policy", "random,random",
        "--turn-cap", 6, "--beings-without-effects",
    )  # fmt: skip
    assert rc == 0
    assert "game over (turn-cap)" in out


def test_play_refuses_beings_without_effects(capsys, monkeypatch):
    """A deck with a being whose effect is not implemented is only dealt with the flag."""
    real = sim.content.load_content()
    cards = [
        dataclasses.replace(c, has_effect=False) if c.id == "imperial/swordmaster" else c
        for c in real.cards
    ]
    fake = dataclasses.replace(real, cards=cards)
    monkeypatch.setattr(sim.content, "load_content", lambda *a, **k: fake)
    rc, out, err = run(capsys, "play", "--decks", "imperial,highland")
    assert_one_line_error(
        rc, out, err, "no implemented effect", "imperial/swordmaster", "--beings-without-effects"
    )
    if not real.missing_effects(["highland", "sylvan"]):
        rc, out, _ = run(capsys, "play", "--decks", "highland,sylvan")  # imperial not dealt
        assert rc == 0
    rc, out, _ = run(capsys, "play", "--decks", "imperial,highland", "--beings-without-effects")
    assert rc == 0
    assert "NOTE: beings without an implemented effect" in out


def test_play_without_flag_on_the_real_content(capsys):
    missing = sim.content.load_content().missing_effects(["sylvan", "imperial"])
    rc, out, err = run(capsys, "play", "--decks", "sylvan,imperial", "--seed", 1)
    if missing:
        assert_one_line_error(rc, out, err, "no implemented effect")
    else:
        assert rc == 0, err
        assert FINAL.match(out.splitlines()[-1])
        assert "NOTE" not in out


def test_play_via_subprocess():
    script = pathlib.Path(sys.executable).with_name("kalarite")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "sim.app.cli"]
    args = ["play", "--decks", "highland,sylvan", "--mode", "deathmatch", "--seed", "3"]
    p = subprocess.run(
        cmd + args + ["--beings-without-effects"],
        capture_output=True, text=True, cwd=ROOT, env=_subprocess_env(), timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert FINAL.match(p.stdout.splitlines()[-1])
    bad = subprocess.run(
        [sys.executable, "-m", "sim.app.cli", "play", "--decks", "highland,dwarves"],
        capture_output=True, text=True, cwd=ROOT, env=_subprocess_env(), timeout=300,
    )  # fmt: skip
    assert_one_line_error(bad.returncode, bad.stdout, bad.stderr, "unknown deck 'dwarves'")


# --- moves -----------------------------------------------------------------------------------

# Seat 0 (imperial) holds the centre cross: commons on [4,3], [4,4], [5,4], heroics on [3,4]
# and [4,5] -> Central Dominance (5 of the middle squares, 2 upgraded) and Center Cross.
# Seat 1 has 9 pieces, 4 of them heroic: 4 more pieces and 2 more upgraded ones than seat 0.
CROSS_BOARD = [
    "## ## c1 c1 c1 c1 c1 ## ##",
    "## .. .. .. .. .. .. .. ##",
    ".. .. .. .. .. .. .. .. ..",
    ".. .. .. .. h0 .. .. .. ..",
    ".. .. .. c0 c0 h0 .. .. ..",
    ".. .. .. .. c0 .. .. .. ..",
    ".. .. .. .. .. .. .. .. ..",
    "## .. .. .. .. .. .. .. ##",
    "## ## h1 h1 h1 h1 .. ## ##",
]


def position_text(
    mode="high-form",
    to_move=0,
    board=CROSS_BOARD,
    hands=(("imperial/swordmaster", "flares/f34", "flares/f25"), ("highland/wild-eagle",)),
    decks=("imperial", "highland"),
    turn="",
    top="",
):
    """A position file; ``turn`` goes at the end (a [turn] table), ``top`` before the seats."""
    lines = [f"mode = {json.dumps(mode)}", f"to_move = {to_move}", top, "board = ["]
    lines += [f"  {json.dumps(row)}," for row in board]
    lines.append("]")
    for deck, hand in zip(decks, hands, strict=True):
        lines += ["", "[[seat]]", f"deck = {json.dumps(deck)}", f"hand = {json.dumps(hand)}"]
    if turn:
        lines += ["", turn]
    return "\n".join(lines) + "\n"


def write(tmp_path, text, name="position.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def moves_json(capsys, path):
    rc, out, err = run(capsys, "moves", path)
    assert rc == 0, err
    # nothing on stderr but, the first time an engine answers it, the compile it says
    compile_lines = "kalarite: compiling the position query: "
    assert all(line.startswith(compile_lines) for line in err.splitlines()), err
    return json.loads(out)


def test_moves_lists_places_summons_flares_and_tasks(capsys, tmp_path):
    path = write(tmp_path, position_text(turn="[turn]\ndestroyed = { common = 3 }"))
    m = moves_json(capsys, path)
    assert m["to_move"] == 0
    # 69 playable squares, 14 occupied
    assert len(m["place"]) == 55
    assert [4, 4] not in m["place"] and [0, 2] not in m["place"] and [1, 1] in m["place"]
    # Swordmaster needs two of your pieces on opposite sides of the target, straight; only the
    # centre qualifies (its own common there may be oversummoned), in two orientations
    summons = sorted(
        (s["card"], s["target"], s["pattern"], s["orientation"]["rotation"] % 180)
        for s in m["summons"]
    )
    assert summons == [
        ("imperial/swordmaster", [4, 4], [[3, 4], [5, 4]], 0),
        ("imperial/swordmaster", [4, 4], [[4, 3], [4, 5]], 90),
    ]
    for s in m["summons"]:
        assert s["orientation"]["mirrored"] is False
        assert s["orientation"]["symmetry"] in range(8)
    assert m["discard"] == ["imperial/swordmaster"]
    # flare 3/4: seat 1 has 2 more upgraded (< 3) and 4 more pieces (>= 4): lower half only;
    # flare 2/5: upper half only
    flares = {f["card"]: (f["opponent"], f["upper"], f["lower"]) for f in m["flares"]}
    assert flares == {"flares/f34": (1, False, True), "flares/f25": (1, True, False)}
    assert sorted(m["claimable_tasks"]) == ["Center Cross", "Central Dominance", "Destruction"]


def test_moves_without_turn_table_has_no_turn_tasks(capsys, tmp_path):
    m = moves_json(capsys, write(tmp_path, position_text()))
    assert sorted(m["claimable_tasks"]) == ["Center Cross", "Central Dominance"]


def test_moves_for_the_other_seat(capsys, tmp_path):
    """Seat 1 to move: no pattern for the wild eagle necessarily, but places and no flare."""
    m = moves_json(capsys, write(tmp_path, position_text(to_move=1)))
    assert m["to_move"] == 1
    assert len(m["place"]) == 55
    assert m["flares"] == []
    assert m["discard"] == ["highland/wild-eagle"]
    assert m["claimable_tasks"] == []


def test_moves_deathmatch_has_no_tasks(capsys, tmp_path):
    m = moves_json(capsys, write(tmp_path, position_text(mode="deathmatch")))
    assert "claimable_tasks" not in m
    assert len(m["summons"]) == 2


# --- cards -----------------------------------------------------------------------------------


def test_cards_lists_the_decks(capsys):
    rc, out, err = run(capsys, "cards")
    assert rc == 0 and err == ""
    for deck in BASE_DECKS:
        assert f"{deck} (18 cards)" in out
    assert "legends (" in out
    assert "flares (12 cards)" in out
    assert "imperial/swordmaster" in out


def test_cards_show_prints_the_pattern(capsys):
    rc, out, err = run(capsys, "cards", "show", "imperial/swordmaster")
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Swordmaster (imperial/swordmaster)"
    i = next(k for k, line in enumerate(lines) if line.startswith("pattern"))
    assert [line.strip() for line in lines[i + 1 : i + 4]] == ["* c *", ". @ .", "* c *"]


def test_cards_show_a_flare(capsys):
    rc, out, _ = run(capsys, "cards", "show", "flares/f34")
    assert rc == 0
    assert "3 more upgraded" in out and "4 more pieces" in out


# --- bad input: one line on stderr, exit status 2 ---------------------------------------------


def _replace_row(board, r, row):
    return [row if k == r else line for k, line in enumerate(board)]


BAD_POSITIONS = {
    "not-toml": ("mode = \n[[seat", "not valid TOML"),
    "not-utf8": (None, "not valid TOML"),
    "missing-mode": (position_text().replace('mode = "high-form"\n', ""), "'mode'"),
    "missing-to-move": (position_text().replace("to_move = 0\n", ""), "'to_move'"),
    "missing-board": (
        position_text().split("board = [")[0] + position_text().split("]\n", 1)[1],
        "'board'",
    ),
    "missing-seats": (position_text().split("[[seat]]")[0], "'seat'"),
    "missing-hand": (position_text().replace('hand = ["highland/wild-eagle"]', ""), "'hand'"),
    "missing-deck": (position_text().replace('deck = "highland"', ""), "'deck'"),
    "bad-token": (
        position_text(board=_replace_row(CROSS_BOARD, 2, ".. .. x0 .. .. .. .. .. ..")),
        "unknown token",
    ),
    "absent-seat-piece": (
        position_text(board=_replace_row(CROSS_BOARD, 2, ".. .. c2 .. .. .. .. .. ..")),
        "not playing",
    ),
    "short-line": (
        position_text(board=_replace_row(CROSS_BOARD, 2, ".. .. .. .. .. .. .. ..")),
        "9 tokens",
    ),
    "eight-lines": (position_text(board=CROSS_BOARD[:8]), "9 lines"),
    "ten-lines": (position_text(board=CROSS_BOARD + [CROSS_BOARD[-1]]), "9 lines"),
    "void-on-playable": (
        position_text(board=_replace_row(CROSS_BOARD, 2, "## .. .. .. .. .. .. .. ..")),
        "'##'",
    ),
    "piece-on-void": (
        position_text(board=_replace_row(CROSS_BOARD, 1, "c0 .. .. .. .. .. .. .. ##")),
        "void",
    ),
    "unknown-card": (
        position_text(hands=(["imperial/no-such-card"], [])),
        "unknown card 'imperial/no-such-card'",
    ),
    "foreign-being": (
        position_text(hands=(["highland/wild-eagle"], [])),
        "not a card of the imperial deck",
    ),
    "unknown-deck": (position_text(decks=("imperial", "dwarves")), "unknown deck 'dwarves'"),
    "unknown-mode": (position_text(mode="chess"), "unknown mode 'chess'"),
    "mode-not-a-string": (position_text().replace('"high-form"', '["high-form"]', 1), "mode"),
    "to-move-out-of-range": (position_text(to_move=2), "to_move"),
    "one-seat": (position_text().rsplit("[[seat]]", 1)[0], "2 [[seat]]"),
    "seat-not-a-table": (
        position_text().split("[[seat]]")[0] + "seat = [1, 2]\n",
        "must be a [[seat]] table",
    ),
    "board-not-strings": (
        position_text().split("board = [")[0]
        + "board = [1, 2, 3]\n"
        + "[[seat]]"
        + position_text().split("[[seat]]", 1)[1],
        "board",
    ),  # fmt: skip
    "hand-not-a-list": (position_text().replace('["highland/wild-eagle"]', '"x"'), "hand"),
    "too-many-pieces": (
        position_text(board=["## ## l0 l0 l0 l0 .. ## ##"] + CROSS_BOARD[1:]),
        "more pieces",
    ),
    "turn-not-a-table": (position_text(top="turn = 3"), "[turn]"),
    "turn-destroyed-not-a-table": (position_text(turn="[turn]\ndestroyed = 3"), "destroyed"),
    "turn-destroyed-bad-rank": (
        position_text(turn="[turn]\ndestroyed = { epic = 1 }"),
        "destroyed",
    ),
    "turn-summoned-not-a-list": (position_text(turn="[turn]\nsummoned = 2"), "summoned"),
    "turn-summoned-void-square": (
        position_text(turn='[turn]\nsummoned = [{ rank = "common", square = [0, 0] }]'),
        "playable square",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_POSITIONS))
def test_moves_rejects_bad_position(capsys, tmp_path, case):
    text, needle = BAD_POSITIONS[case]
    path = tmp_path / "bad.toml"
    if text is None:
        path.write_bytes(b"mode = \xff\xfe\n")
    else:
        path.write_text(text)
    rc, out, err = run(capsys, "moves", path)
    assert_one_line_error(rc, out, err, needle)


def test_moves_rejects_missing_file(capsys, tmp_path):
    rc, out, err = run(capsys, "moves", tmp_path / "nope.toml")
    assert_one_line_error(rc, out, err, "no such file")


def test_moves_rejects_a_directory(capsys, tmp_path):
    rc, out, err = run(capsys, "moves", tmp_path)
    assert_one_line_error(rc, out, err)


BAD_ARGS = {
    "unknown-deck": (["play", "--decks", "imperial,dwarves"], "unknown deck 'dwarves'"),
    "one-deck": (["play", "--decks", "imperial", "--beings-without-effects"], "2 decks"),
    "three-decks": (
        ["play", "--decks", "imperial,highland,sylvan", "--beings-without-effects"],
        "2 decks",
    ),
    "no-decks": (["play", "--decks", ","], "--decks"),
    "unknown-mode": (["play", "--decks", "imperial,highland", "--mode", "chess"], "--mode"),
    "too-few-melee-decks": (
        ["play", "--decks", "imperial,highland", "--mode", "melee"],
        "melee needs 3 or 4 decks",
    ),
    "new-player-decks": (
        ["play", "--decks", "imperial,sylvan", "--mode", "new-player"],
        "two imperial decks",
    ),
    "unknown-policy": (
        ["play", "--decks", "imperial,highland", "--policy", "genius", "--beings-without-effects"],
        "unknown policy 'genius'",
    ),
    "policy-count": (
        ["play", "--decks", "imperial,highland", "--policy", "random,random,random"],
        "--policy",
    ),
    "seed-not-a-number": (["play", "--decks", "imperial,highland", "--seed", "abc"], "--seed"),
    "negative-seed": (
        ["play", "--decks", "imperial,highland", "--seed", "-1", "--beings-without-effects"],
        "seed",
    ),
    "zero-turn-cap": (
        ["play", "--decks", "imperial,highland", "--turn-cap", "0", "--beings-without-effects"],
        "--turn-cap must be",
    ),
    "negative-game": (
        ["play", "--decks", "imperial,highland", "--game", "-1", "--beings-without-effects"],
        "--game",
    ),
    "play-without-decks": (["play"], "--decks"),
    "unknown-command": (["fly"], "fly"),
    "unknown-option": (["play", "--decks", "imperial,highland", "--fast"], "--fast"),
    "cards-show-without-id": (["cards", "show"], "card id"),
    "cards-show-unknown": (["cards", "show", "imperial/nobody"], "unknown card"),
    "cards-bad-action": (["cards", "list"], "invalid choice"),
    "moves-without-file": (["moves"], "position"),
}


@pytest.mark.parametrize("case", sorted(BAD_ARGS))
def test_bad_arguments(capsys, case):
    argv, needle = BAD_ARGS[case]
    rc, out, err = run(capsys, *argv)
    assert_one_line_error(rc, out, err, needle)


def test_readme_position_example_runs(capsys, tmp_path):
    """The position file shown in docs/cli.md is valid as written."""
    text = (ROOT / "docs" / "cli.md").read_text()
    block = re.search(r"## Position files.*?```toml\n(.*?)```", text, re.S).group(1)
    path = tmp_path / "readme.toml"
    path.write_text(block)
    code, out, err = run(capsys, "moves", str(path))
    assert code == 0, err
    moves = json.loads(out)
    assert moves["to_move"] == 0 and moves["place"] and "claimable_tasks" in moves


# --- the default player of simulate, study and api.run ----------------------------------------


def test_simulate_study_and_the_api_default_to_the_planner(capsys, tmp_path):
    """Random players' games all end by deck exhaustion (the tie-breakers decide them), so a
    study that names no player is played by the planner; the help says why and how to get
    random players back."""
    from sim import api
    from sim.app.cli import build_parser
    from sim.study import DEFAULT_POLICY, study_from_dict

    assert DEFAULT_POLICY == "planner"
    args = build_parser().parse_args(["simulate", "--decks", "imperial,highland", "--out", "x"])
    assert args.policy == "planner"
    for command in ("simulate", "study"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "planner" in text and "tie-breakers" in text, command
        assert "random" in text and "speed work" in text, command
    spec = {"decks": [["imperial", "highland"]], "games": 2}
    assert study_from_dict(spec, sim.content.load_content()).policies == [("planner",)]
    assert api._study(spec).policies == [("planner",)]
    out = tmp_path / "s"
    rc, o, e = run(capsys, "simulate", "--decks", "imperial,highland", "--games", 2, "--workers", 0,
                   "--out", out)  # fmt: skip
    assert rc == 0, e
    from results.store import read_manifest, read_table

    assert read_manifest(out)["study"]["policies"] == [["planner"]]  # one name, every seat
    games = read_table(out, "games", columns=["seat0_policy", "seat1_policy"])
    assert {str(v) for c in games.columns for v in c.to_pylist()} == {"planner"}


def test_make_says_it_is_installing_and_hides_only_the_editable_notice():
    """`make` prints what it is doing before pip starts (pip then runs under its status line,
    tests/test_pip_progress.py), and filters setuptools' editable-install notice by its
    message (pip's own warnings and errors still show)."""
    p = subprocess.run(
        ["make", "-n", "-B", ".venv/.installed-stamp"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    say = next(i for i, line in enumerate(lines) if "installing kalarite into .venv" in line)
    pip = [i for i, line in enumerate(lines) if "pip install" in line]
    assert pip and say < min(pip)
    (editable,) = [line for line in lines if "pip install" in line and "-e " in line]
    assert 'PYTHONWARNINGS="ignore:Editable installation"' in editable
    assert "2>" not in editable and "| " not in editable  # nothing else of pip is hidden


def test_a_reader_that_stops_early_is_not_an_error():
    """`kalarite cards | head -1`: the closed pipe ends the command quietly, exit 0."""
    import subprocess
    import sys

    cmd = f"'{sys.executable}' -m sim.app.cli cards | head -1"
    run = subprocess.run(
        ["bash", "-c", cmd + "; echo rc=${PIPESTATUS[0]} >&2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.stdout.count("\n") == 1
    assert "error" not in run.stderr and "Broken pipe" not in run.stderr
    assert "rc=0" in run.stderr
