"""`kalarite check`: the invariant checker over many games, for designers' variants.

- on the installed content a small check passes (exit 0) and writes its record;
- a broken variant (a melee start square on a cut corner: the last seat's setup piece lands
  on a void square whenever it picks that square, so some games break and others do not) is
  reported game by game (the board loader and core.checks.tables_proof refuse such a square,
  so the fixture lets exactly that one value past both: a stand-in for a defect that no
  input check foresaw), each with a `kalarite play --check` command that replays exactly that
  game (exit 1 and the same invariant at the same turn; an unreported game of the same matchup
  replays clean), with the same verdicts whatever the workers and the chunking;
- bad input is one `kalarite: error:` line and exit status 2;
- `kalarite report` and `kalarite compare` warn about a dataset whose content hash no clean
  check recorded, and not once a record names it; the installed content has its checked-in
  record (sim/data/checked/).
"""

import json
import shlex

import pytest

from results.checked import find_records, user_dir, write_record
from sim.app.cli import main
from sim.content import ContentError, load_content
from sim.content.copies import copy_content, load_content_dir

VOID_START = "melee_start = [[[1, 5], [0, 0]]"  # [0, 0] is a cut corner of the board


def _run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _past_the_guards(mp):
    """Let a melee start square on a void square through the board loader and the tables
    proof (only that: every other value is still checked and proved)."""
    import sim.content as content_module

    real_need, real_prove = content_module.need_squares, content_module.prove_tables
    valid_start = load_content().tables.melee_start

    def need_squares(value, key, where, on_board=None, n=None):
        return real_need(value, key, where, None if key == "melee_start" else on_board, n)

    def prove_tables(T):
        return real_prove(T._replace(melee_start=valid_start))

    mp.setattr(content_module, "need_squares", need_squares)
    mp.setattr(content_module, "prove_tables", prove_tables)


@pytest.fixture(scope="module")
def broken_variant(tmp_path_factory):
    d = tmp_path_factory.mktemp("variant") / "cards"
    copy_content(d)
    board = d / "board.toml"
    text = board.read_text()
    old = "melee_start = [[[1, 5], [1, 6]]"
    assert old in text
    board.write_text(text.replace(old, VOID_START, 1))
    with pytest.MonkeyPatch.context() as mp:
        with pytest.raises(ContentError, match="melee_start"):
            load_content_dir(d)  # the guards refuse it...
        _past_the_guards(mp)  # ...so this test lets it past them
        yield d


@pytest.fixture(scope="module")
def broken_check(broken_variant):
    """The JSON result of a small check of the broken variant (melee, one deck)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(
            ["check", "--content", str(broken_variant), "--modes", "melee", "--decks",
             "imperial", "--games", "24", "--workers", "0", "--json"]
        )  # fmt: skip
    return rc, json.loads(out.getvalue())


def test_a_small_check_of_the_installed_content_passes_and_is_recorded(capsys):
    rc, out, _ = _run(
        capsys, "check", "--games", "12", "--workers", "0", "--modes", "high-form,melee",
        "--decks", "imperial,sylvan", "--seed", "5",
    )  # fmt: skip
    assert rc == 0, out
    assert "every invariant held after every option" in out
    assert "high-form 6" in out and "melee-3 " in out and "melee-4 " in out
    content = load_content()
    (rec,) = [
        r for r in find_records(content.content_hash) if r["path"].startswith(str(user_dir()))
    ]
    assert rec["result"] == "clean" and rec["config"]["seed"] == 5
    assert rec["command"].startswith("kalarite check --games 12 --policy random --seed 5")
    assert rec["games_per_deck"]["sylvan"] > 0 and rec["games"] == sum(
        rec["games_per_mode"].values()
    )


def test_a_broken_variant_is_reported_with_commands_that_replay_each_game(
    broken_check, broken_variant, capsys
):
    rc, res = broken_check
    assert rc == 1 and res["result"] == "broken"
    broken = res["broken"]
    assert broken and {b["invariant"] for b in broken} == {"INV_VOID"}
    assert len(broken) < res["games"]  # only the games whose setup picked the void square
    assert not find_records(res["content_hash"], str(broken_variant))  # no record when broken
    # the first broken game, replayed by its printed command: the same invariant, same turn
    b = broken[0]
    argv = shlex.split(b["replay"])
    assert argv[:2] == ["kalarite", "play"] and "--check" in argv
    assert argv[argv.index("--content") + 1] == str(broken_variant.resolve())
    rc, out, _ = _run(capsys, *argv[1:])
    assert rc == 1
    assert f"invariant broken: {b['text']} in turn {b['turn']}" in out
    assert f"seed {b['matchup_seed']}, game {b['game']}" in out.splitlines()[0]
    # a game of the same matchup that the check did not report replays clean
    bad = {(x["matchup_seed"], x["game"]) for x in broken}
    g = next(i for i in range(100) if (b["matchup_seed"], i) not in bad)
    argv[argv.index("--game") + 1] = str(g)
    rc, out, _ = _run(capsys, *argv[1:])
    assert rc == 0 and "every invariant held after every option" in out


def test_the_text_report_lists_each_broken_game_and_the_counts(broken_variant, capsys):
    rc, out, _ = _run(
        capsys, "check", "--content", str(broken_variant), "--modes", "melee", "--decks",
        "imperial", "--games", "24", "--workers", "0", "--show", "2",
    )  # fmt: skip
    assert rc == 1
    lines = out.splitlines()
    assert "games broke an invariant" in lines[0]
    assert lines[1].startswith("  INV_VOID (piece on a void square): melee imperial vs imperial")
    assert (
        lines[2].startswith("    kalarite play --decks imperial,imperial") and "--check" in lines[2]
    )
    assert lines[-1].startswith("kalarite: broken: INV_VOID x")


def test_verdicts_do_not_depend_on_workers_or_chunking(broken_check, broken_variant, ray_session):
    from sim.app.check import run_check

    _, res = broken_check
    content = load_content_dir(str(broken_variant))
    kw = dict(decks=["imperial"], modes=["melee"], games=24, progress=False)
    small = run_check(content, workers=0, chunk_size=5, **kw)
    assert small["chunks"] > res["chunks"]
    assert small["broken"] == res["broken"]
    # on Ray (whose workers load the content themselves, without this module's patch: so the
    # installed content) the same games as in this process
    kw = dict(decks=["imperial", "sylvan"], modes=["melee"], games=24, progress=False)
    ray = run_check(load_content(), workers=2, **kw)
    here = run_check(load_content(), workers=0, chunk_size=1, **kw)
    assert ray["workers"] == 2 and here["chunks"] > ray["chunks"]
    same = ("result", "broken", "games", "matchups", "games_per_mode", "games_per_deck")
    assert {k: ray[k] for k in same} == {k: here[k] for k in same}


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--games", "0"], "--games must be a positive integer"),
        (["--modes", "duel"], "unknown mode 'duel'"),
        (["--decks", "nosuch"], "nosuch"),
        (["--policy", "nosuch"], "nosuch"),
        (["--policy", "random,greedy"], "--policy takes one player"),
        (["--content", "/nonexistent/cards"], "is not a directory of card files"),
        (["--workers", "-1"], "--workers must be 0 or more"),
        (["--games", "many"], "invalid int value"),
        (["--modes", "new-player", "--decks", "sylvan", "--games", "3"], None),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(argv, needle, capsys):
    rc, out, err = _run(capsys, "check", "--workers", "0", *argv)
    if needle is None:  # new-player is always two imperial decks: that is a valid check
        assert rc == 0, err
        return
    assert rc == 2 and out == ""
    assert err.startswith("kalarite: error:") and err.count("\n") == 1, err
    assert needle in err


# --- the record and the warnings of report and compare ---------------------------------------


def test_the_installed_content_has_its_checked_in_record():
    content = load_content()
    recs = [r for r in find_records(content.content_hash) if "sim/data/checked" in r["path"]]
    assert recs, (
        f"no checked-in record of the installed content {content.content_hash}: run "
        "kalarite check --games 1000000 and copy its record into sim/data/checked/"
    )
    assert all(r["result"] == "clean" for r in recs)


def test_report_and_compare_warn_about_content_never_checked(tmp_path):
    from results.analysis import analyze
    from results.compare import compare, format_text
    from results.report.compare_page import write_compare_page
    from tests.support.datasets import random_dataset

    a = random_dataset(tmp_path / "a", seed=41, games=40, content_hash="feedc0de00000001")
    b = random_dataset(tmp_path / "b", seed=42, games=40, content_hash="feedc0de00000002")
    kinds = [w["kind"] for w in analyze(a)["warnings"]]
    assert "content_unchecked" in kinds
    # a clean check of A's content: A's warning goes, B's stays
    write_record(
        {"content_hash": "feedc0de00000001", "engine_hash": "e1", "result": "clean", "config": {}}
    )
    s = analyze(a)
    assert "content_unchecked" not in [w["kind"] for w in s["warnings"]]
    r = compare(a, b)
    assert len(r["unchecked"]) == 1 and r["unchecked"][0].startswith("B: content feedc0de00000002")
    text = format_text(r)
    assert "warning: B: content feedc0de00000002 was never checked" in text
    assert "feedc0de00000001 was never checked" not in text
    page = write_compare_page(r, tmp_path / "cmp")["index"]
    html = open(page).read()
    assert 'id="banner-unchecked"' in html and "feedc0de00000002" in html
    # the report: a banner at the top of the page and the warnings section
    from results.report import make_report

    index = make_report(b, tmp_path / "rep")["index"]
    html = open(index).read()
    top = html.split("<nav>")[0]
    assert "⚠ content feedc0de00000002 was never checked" in top
    # a record of a broken check does not count
    write_record(
        {"content_hash": "feedc0de00000002", "engine_hash": "e1", "result": "broken", "config": {}}
    )
    assert compare(a, b)["unchecked"]
