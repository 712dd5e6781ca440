"""`kalarite suggest` end to end on a tiny goal (Everfrost against Imperial in two modes: 2
matchups, 8 candidates; the planner races, the planner and greedy confirm), as the README
example runs it: suggest.json as documented, the page, the compare pages, the replay command;
the same result with 2 Ray workers after an interruption as in one process; and the exact
skip checked against the games it did not play."""

import json
import pathlib
import subprocess
import sys

import pytest

from cluster.runner import run_study
from results.store import read_table
from results.suggest.data import games as games_of
from sim.app.cli import main
from sim.app.suggest import context as suggest_context
from sim.content.copies import load_content_dir
from sim.study import study_from_dict, with_game_lists
from sim.suggest.variants import variant_name

ARGS = [
    "suggest", "--deck", "everfrost", "--band", "0.45,0.55", "--opponents", "imperial",
    "--cards", "everfrost/war-sled,everfrost/polar-bear,everfrost/snow-fox",
    "--candidates", "8", "--first-round", "8", "--rounds", "3", "--confirm-games", "12",
    "--check-games", "4", "--policy", "planner", "--confirm-players", "planner,greedy",
    "--seed", "3",
]  # fmt: skip
MODES = ("high-form", "deathmatch")


def _strip(x, root):
    """The result without where it was written (paths) and which datasets it names."""
    if isinstance(x, dict):
        return {k: _strip(v, root) for k, v in x.items() if k not in ("datasets", "base_datasets")}
    if isinstance(x, list):
        return [_strip(v, root) for v in x]
    if isinstance(x, str):
        return x.replace(str(root), "OUT")
    return x


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("suggest") / "out"
    assert main([*ARGS, "--workers", "0", "--out", str(out)]) == 0
    return out


def test_suggest_json_as_documented(tiny):
    r = json.loads((tiny / "suggest.json").read_text())
    assert r["goal"]["deck"] == "everfrost" and r["status"]
    s = r["suggestions"]
    assert len(s) == 8 and [x["rank"] for x in s] == list(range(1, 9))
    for x in s:
        assert "\n" not in x["edit"] and x["edit"].startswith("everfrost/")
        assert set(x["effect"]) == set(MODES) == set(x["effect_lo"]) == set(x["effect_hi"])
        for m in MODES:
            lo, hi = x["effect_lo"][m], x["effect_hi"][m]
            if lo is None:  # no interval: every pair changed alike (the page says so)
                assert hi is None
                continue
            assert -1 <= lo <= x["effect"][m] <= hi <= 1
            for v in x["projected_lo"].values():
                assert v is None or 0 <= v <= 1
        assert x["status"]
        load_content_dir(x["content"])  # loadable with --content
    replayed = [x for x in s if x.get("confirmation")]
    assert 1 <= len(replayed) <= 3 and s[: len(replayed)] == replayed
    for x in replayed:
        assert x["status"] in ("confirmed", "not confirmed")
        items = [c["item"] for c in x["checklist"]]
        assert items[0] == "content checked" and items[-1] == "label"
        assert "a candidate for human playtesting" in x["checklist"][-1]["text"]
        for p in ("planner", "greedy"):
            assert (tiny / x["compare_pages"][p]).is_file()
    for x in s[len(replayed) :]:
        assert x["status"].startswith(("eliminated in round", "undecided"))
    step = r["steps"][0]
    assert step["race"]["rounds"][0]["alive"] == 8
    assert step["race"]["games_skipped"] > 0  # the planner's exact skip was used


def test_page(tiny):
    page = (tiny / "index.html").read_text()
    for needle in ("kalarite suggest", "Goal:", "Base", "edits in rank order", "race chart",
                   "Method and error rates", "compare (planner)"):  # fmt: skip
        assert needle in page, needle
    assert (tiny / "race-step-1.png").stat().st_size > 5000


def test_play_command_replays_the_game_where_the_edit_mattered(tiny):
    r = json.loads((tiny / "suggest.json").read_text())
    assert all(x["play"] for x in r["suggestions"] if x.get("race_most_mattered"))
    x = next(
        (x for x in r["suggestions"] if (x.get("confirmation") or {}).get("most_mattered")), None
    )
    if x is None:
        pytest.skip("no replayed edit changed a game in the goal's direction")
    cmd = x["play"].split()
    assert cmd[:2] == ["kalarite", "play"] and "--content" in cmd
    mm = x["confirmation"]["most_mattered"]
    bin_ = pathlib.Path(sys.executable).parent / "kalarite"
    out = subprocess.run([str(bin_), *cmd[1:]], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    # the replayed game is the confirmation's game: the winner its dataset records
    games = games_of(x["confirmation"]["datasets"]["planner"])
    share = games[(mm["mode"], "everfrost", mm["opponent"])][mm["game"]]["share"]
    end = [line for line in out.stdout.splitlines() if line.startswith("game over")][-1]
    want = {1.0: "seat 0 wins", 0.0: "seat 1 wins", 0.5: ""}[share]
    assert want in end, end


def test_workers_and_resume_give_the_same_result(ray_session, tiny, tmp_path, monkeypatch):
    """Two Ray workers (the suite's shared Ray of 2 CPUs), interrupted in the race's first
    round and started again: the very result of the one-process run."""
    out = tmp_path / "ray"
    play = suggest_context.Context.play

    def interrupting(self, study, content, where, what):
        if what.startswith("race round 1: 8 edits"):
            monkeypatch.setenv("KALARITE_TEST_INTERRUPT_AFTER", "1")
        try:
            return play(self, study, content, where, what)
        finally:
            monkeypatch.delenv("KALARITE_TEST_INTERRUPT_AFTER", raising=False)

    monkeypatch.setattr(suggest_context.Context, "play", interrupting)
    assert main([*ARGS, "--workers", "2", "--out", str(out)]) == 130
    assert not (out / "suggest.json").exists()
    monkeypatch.setattr(suggest_context.Context, "play", play)
    assert main([*ARGS, "--workers", "2", "--out", str(out)]) == 0
    a = _strip(json.loads((tiny / "suggest.json").read_text()), tiny)
    b = _strip(json.loads((out / "suggest.json").read_text()), out)
    assert a == b


def test_skipped_games_are_the_base_games(tiny, tmp_path):
    """Every game the race recorded as unchanged (seat 0 never drew the edited card),
    played after all with the edit: identical to the base's game."""
    race_dir = tiny / "step-1" / "race"
    rc = load_content_dir(race_dir / "content")
    race = json.loads((race_dir / "race.json").read_text())
    base = games_of(race_dir / "base-1")
    played = games_of(race_dir / "round-1")
    spec = {"decks": [[variant_name("everfrost", a["cid"]), "imperial"] for a in race["arms"]],
            "modes": list(MODES), "policies": "planner", "games": 8,
            "seed": race["seed"]}  # fmt: skip
    study = study_from_dict(spec, rc)
    lists = {}
    for mu in study.matchups():
        have = played.get((mu.mode, mu.decks[0], "imperial"), {})
        rest = [g for g in range(8) if g not in have]
        if rest:
            lists[(mu.mode, mu.decks, mu.policies)] = rest
    assert lists, "the race skipped no game"
    out = tmp_path / "skipped"
    run_study(with_game_lists(study, lists), rc, out, workers=0, progress=False)
    t = read_table(out, "games").to_pylist()
    ref = read_table(race_dir / "base-1", "games").to_pylist()
    key = {(r["mode"], r["game_index"]): r for r in ref}
    cols = [c for c in t[0] if c.startswith(("winner", "turns", "seat0_", "seat1_"))
            and not c.endswith(("_deck", "_policy"))]  # fmt: skip
    assert len(t) == sum(len(v) for v in lists.values())
    for r in t:
        b = key[(r["mode"], r["game_index"])]
        assert {c: r[c] for c in cols} == {c: b[c] for c in cols}
    assert base  # the base played every game of the window
