"""What ``compare`` says about pairing comes from one place and agrees with itself (issue 38):
games that pair up (dealt from the same seed) are said to, and are the only games called
correlated; games that do not are said not to, with the reason, and nothing calls them
correlated. Checked on the README's own API example (planner against greedy, same seed and
deals: they pair up), on the same with per-player deals (they do not) and on two studies
whose games do pair up."""

import contextlib
import io
import pathlib

from results.compare import compare, format_text
from results.report.compare_page import write_compare_page
from tests.support.datasets import game_row, write_dataset
from tests.support.snippets import blocks

ROOT = pathlib.Path(__file__).resolve().parents[1]
CORRELATED = ("correlated", "common random numbers")


def _readme_api_example() -> str:
    """The README's Python block that compares two studies, as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = [b for b in blocks(text) if b.lang == "python" and "api.compare" in b.text]
    return block.text


def _statements_agree(text: str, paired: bool):
    pair_up = "pair up with a game of A" in text
    not_paired = "not paired:" in text
    assert not (pair_up and not_paired), text
    assert pair_up == paired and not_paired == (not paired), text
    if not paired:
        assert not any(w in text for w in CORRELATED), text


def test_the_readme_api_example_pairs_up_and_per_player_deals_do_not(tmp_path, monkeypatch):
    """The README's example (planner, then greedy, same seed: shared deals) pairs every game
    of B and says so; the same B dealt per player pairs none, says why, and calls nothing
    correlated."""
    from sim import api

    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(_readme_api_example(), "README.md", "exec"), {})
    printed = out.getvalue()
    _statements_agree(printed[printed.index("A (baseline):") :], paired=True)
    r = compare("runs/a", "runs/b")
    assert r["paired"]["paired"] is True and r["paired"]["pairs"] == r["paired"]["games_b"] == 20
    spec_c = {"decks": [["imperial", "highland"]], "games": 20, "seed": 1}
    api.run({**spec_c, "policies": ["greedy"], "deals": "per-player"}, out="runs/c")
    r = compare("runs/a", "runs/c")
    text = format_text(r)
    _statements_agree(text, paired=False)
    # the reason names what differs: the deals scheme, not the seed
    assert "both have study seed 1, but A is dealt shared and B per-player" in text
    assert r["paired"]["paired"] is False
    assert not any(w in n for n in r["notes"] for w in CORRELATED)
    page = write_compare_page(r, tmp_path / "page")["index"].read_text(encoding="utf-8")
    assert "Not paired: no game of B was dealt from the same seed" in page
    assert not any(w in page for w in CORRELATED)


def test_per_player_deals_of_other_players_do_not_pair_and_say_why():
    from results.compare.paired import why_not_paired

    a = {"seed": 1, "policies": [["planner"]]}  # stored before the deals key: per player
    b = {"seed": 1, "policies": [["greedy"]], "deals": "per-player"}
    why = why_not_paired(a, b)
    assert "a matchup's deals depend on its players (deals = per-player;" in why
    shared = why_not_paired({**a, "deals": "shared"}, {**b, "deals": "shared"})
    assert "their matchups differ" in shared  # shared deals of other players would pair


def _study(root, content_hash, winners):
    games = [
        game_row("high-form", ("imperial", "highland"), ("random", "random"), i, w)
        for i, w in enumerate(winners)
    ]
    return write_dataset(root, games, content_hash=content_hash)


def test_games_that_pair_up_are_said_to_once(tmp_path):
    """The same seeds and players, another content: every game pairs up."""
    a = _study(tmp_path / "a", "c-a", [0, 1] * 30)
    b = _study(tmp_path / "b", "c-b", [0, 0, 1] * 20)
    r = compare(a, b)
    assert r["paired"]["paired"] is True and r["paired"]["pairs"] == 60
    text = format_text(r)
    _statements_agree(text, paired=True)
    assert sum("pair up with a game of A" in n for n in r["notes"]) == 1
    assert text.count("common random numbers") == 1


def test_other_seeds_say_so(tmp_path):
    a = _study(tmp_path / "a", "c-a", [0, 1] * 10)
    b_games = [
        game_row("high-form", ("imperial", "highland"), ("random", "random"), i, i % 2, seed=999)
        for i in range(20)
    ]
    study = {
        "name": "other seed",
        "decks": [["imperial", "highland"]],
        "modes": ["high-form"],
        "policies": [["random", "random"]],
        "games": 20,
        "seed": 2,
        "turn_cap": 200,
        "beings_without_effects": False,
    }
    b = write_dataset(tmp_path / "b", b_games, content_hash="c-b", study=study)
    text = format_text(compare(a, b))
    _statements_agree(text, paired=False)
    assert "A and B have other study seeds (1 and 2)" in text
