"""Goals of `kalarite suggest`: the TOML spec and the command's shorthands give the same
checked goal; every bad value is one `kalarite: error:` line, exit status 2, nothing
written; an output folder holds one goal."""

import pytest

from sim.app.cli import main
from sim.content import load_content
from sim.suggest.goal import GoalError, goal_from_dict, load_goal

SPEC = """
[goal]
deck = "everfrost"
band = [0.45, 0.52]
modes = ["high-form"]
opponents = ["imperial", "sylvan"]
min_effect = 0.02
[players]
screen = "greedy"
confirm = ["planner", "greedy"]
[edits]
cards = ["everfrost/*"]
lock = ["everfrost/ice-queen"]
swaps = ["everfrost/snow-fox=imperial/swordmaster"]
[budget]
games = 5000
first_round = 10
rounds = 4
[run]
seed = 7
stack = 2
"""


def test_spec_and_shorthand_give_the_same_goal(tmp_path):
    path = tmp_path / "goal.toml"
    path.write_text(SPEC)
    g = load_goal(path)
    assert g.deck == "everfrost" and g.band == (0.45, 0.52) and g.modes == ("high-form",)
    assert g.opponents == ("imperial", "sylvan") and g.screen_player == "greedy"
    assert "everfrost/ice-queen" in g.lock and len(g.cards) == 18
    assert g.swaps == (("everfrost/snow-fox", "imperial/swordmaster"),) and "swap" in g.kinds
    assert (g.games, g.first_round, g.rounds, g.seed, g.stack) == (5000, 10, 4, 7, 2)
    assert "45%..52%" in g.text()
    import argparse

    from sim.suggest.goal import goal_from_flags

    args = argparse.Namespace(
        deck="everfrost", band="0.45,0.52", floor=None, nerf=None, modes="high-form",
        opponents="imperial,sylvan", min_effect=0.02, policy="greedy",
        confirm_players="planner,greedy", cards="everfrost/*", lock="everfrost/ice-queen",
        swap=["everfrost/snow-fox=imperial/swordmaster"], kinds=None, candidates=None,
        games=5000, first_round=10, rounds=4, confirm_games=None, check_games=None, seed=7,
        stack=2, competence=None, content=None,
    )  # fmt: skip
    assert goal_from_flags(args).to_dict() == g.to_dict()


@pytest.mark.parametrize(
    "change, message",
    [
        ({"goal": {"deck": "atlantis", "band": [0.4, 0.5]}}, "unknown deck 'atlantis'"),
        ({"goal": {"deck": "everfrost"}}, "needs band"),
        ({"goal": {"deck": "everfrost", "band": [0.6, 0.5]}}, "range is empty"),
        ({"goal": {"deck": "everfrost", "band": [0.4, 1.5]}}, "between 0 and 1"),
        ({"goal": {"deck": "everfrost", "band": ["a", 0.5]}}, "between 0 and 1"),
        ({"goal": {"deck": "everfrost", "band": [0.4, 0.5], "modes": ["melee"]}}, "two-seat"),
        ({"goal": {"deck": "everfrost", "band": [0.4, 0.5], "opponents": ["everfrost"]}}, "mirror"),
        ({"goal": {"deck": "everfrost", "kind": "nerf"}}, "needs ceiling"),
        ({"goal": {"deck": "everfrost", "kind": "x", "band": [0.4, 0.5]}}, "goal.kind"),
        ({"goal": {"deck": "everfrost", "band": [0.4, 0.5], "floor": 0.3}}, "not a key"),
        ({"goal": {"deck": "everfrost", "band": [0.4, 0.5], "min_effect": 0}}, "min_effect"),
        ({"players": {"screen": "nobody"}}, "players"),
        ({"players": {"confirm": ["planner"]}}, "two different players"),
        ({"edits": {"cards": ["imperial/swordmaster"]}}, "not a card of everfrost"),
        ({"edits": {"kinds": ["paint"]}}, "unknown kind"),
        ({"edits": {"swaps": ["everfrost/snow-fox"]}}, "must read"),
        ({"edits": {"swaps": ["everfrost/snow-fox=flares/x"]}}, "not a being or legend"),
        ({"budget": {"games": 0}}, "budget.games"),
        ({"budget": {"games": True}}, "budget.games"),
        ({"budget": {"alpha": 0.7}}, "budget.alpha"),
        ({"budget": {"rounds": 99}}, "budget.rounds"),
        ({"run": {"seed": -1}}, "run.seed"),
        ({"run": {"content": "/no/such/dir"}}, "not a directory"),
        ({"run": {"typo": 1}}, "has no key 'typo'"),
        ({"extra": {}}, "unknown table"),
    ],
)
def test_bad_values_are_one_line(change, message):
    data = {"goal": {"deck": "everfrost", "band": [0.4, 0.5]}}
    for k, v in change.items():
        data[k] = v if k == "goal" else {**data.get(k, {}), **v}
    with pytest.raises(GoalError) as e:
        goal_from_dict(data, load_content())
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--deck", "everfrost"], "--band"),
        (["--deck", "everfrost", "--band", "0.4"], "two win shares"),
        (["--deck", "everfrost", "--band", "a,b"], "two numbers"),
        (["--deck", "everfrost", "--band", "0.4,0.5", "--nerf", "0.5"], "one of"),
        (["--deck", "everfrost", "--nerf", "x"], "win share"),
        (["--deck", "nope", "--band", "0.4,0.5"], "unknown deck"),
        (["--band", "0.4,0.5"], "give a goal spec"),
        (["--deck", "everfrost", "--band", "0.4,0.5", "--workers", "-1"], "--workers"),
        (["--deck", "everfrost", "--band", "0.4,0.5", "--content", "/no/dir"], "not a directory"),
        (["missing.toml"], "no such file"),
    ],
)
def test_cli_bad_input(argv, message, tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(["suggest", *argv, "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("kalarite: error:") and message in err, err
    assert err.count("\n") == 1 and not out.exists()


def test_an_output_folder_holds_one_goal(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "x.txt").write_text("mine")
    rc = main(["suggest", "--deck", "everfrost", "--band", "0.4,0.5", "--out", str(out)])
    assert rc == 2 and "holds no suggestion" in capsys.readouterr().err
    from sim.app.suggest.run import SuggestError, prepare_out
    from sim.suggest.goal import Goal

    other = tmp_path / "o2"
    prepare_out(Goal("everfrost", band=(0.4, 0.5)), other)
    with pytest.raises(SuggestError, match="another goal"):
        prepare_out(Goal("everfrost", band=(0.4, 0.6)), other)


def test_the_documented_spec_is_a_valid_goal(tmp_path):
    """docs/suggest.md's goal spec, as written there."""
    import pathlib
    import re

    doc = (pathlib.Path(__file__).parents[1] / "docs" / "suggest.md").read_text()
    text = re.search(r"<!-- file: everfrost-goal.toml -->\n```toml\n(.*?)```", doc, re.S).group(1)
    path = tmp_path / "everfrost-goal.toml"
    path.write_text(text)
    g = load_goal(path)
    assert g.deck == "everfrost" and g.confirm_players == ("seer", "sage")
    assert g.screen_player == "seer"
    assert g.swaps and "everfrost/ice-queen" in g.lock


def test_the_same_goal_resumes_in_its_folder(tmp_path):
    from sim.app.suggest.run import prepare_out

    path = tmp_path / "goal.toml"
    path.write_text(SPEC)
    g = load_goal(path)
    prepare_out(g, tmp_path / "o")
    prepare_out(load_goal(path), tmp_path / "o")  # swaps and all: the same goal
