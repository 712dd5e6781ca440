"""Command-line conventions: --version, usage without a command, every subcommand's help
(one-line description, defaults, the valid decks, modes and players), `cards show` explaining
the pattern symbols, suggestions for an unknown card, and a README that links nothing
outside the repository."""

import hashlib
import json
import pathlib
import re

import pytest

from sim.app.cli import build_parser, main
from sim.content import load_content
from tests.support.report_layout import layout_fingerprint

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONTENT = load_content()


def cli(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert re.match(r"^kalarite \d+\.\d+\.\d+\n$", capsys.readouterr().out)


def test_no_command_prints_the_usage(capsys):
    rc, out, err = cli(capsys)
    assert rc == 0 and err == ""
    assert out.startswith("usage: kalarite")
    for command in ("play", "simulate", "study", "report", "compare", "demo", "cards"):
        assert re.search(rf"^\s+{command}\s+\S", out, re.M), command


def _subcommands():
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    return sub.choices


LISTS = {
    "play": ("decks", "modes", "players"),
    "simulate": ("decks", "modes", "players"),
    "study": ("decks", "modes", "players"),
    "moves": ("decks", "modes"),
}


@pytest.mark.parametrize("name", list(_subcommands()))
def test_every_subcommand_help(capsys, name):
    with pytest.raises(SystemExit):
        main([name, "--help"])
    text = capsys.readouterr().out
    summary = _subcommands()[name].description.splitlines()[0]
    assert len(summary) > 20 and text.split("\n\n")[1].startswith(summary[:40])
    for action in _subcommands()[name]._actions:
        if action.option_strings and action.default not in (None, False, "==SUPPRESS=="):
            flag = action.option_strings[0]
            i = text.index(flag, text.index("options:"))
            assert "default" in " ".join(text[i:].split("\n  -")[0].split()), (name, flag)
    lists = LISTS.get(name, ())
    if "decks" in lists:
        for d in CONTENT.decks:
            missing = len(CONTENT.missing_effects([d]))  # a deck being built says so
            tail = rf" \({missing} not implemented yet: not dealt\)" if missing else ""
            assert re.search(rf"^  {d}\s+18 beings{tail}$", text, re.M)
    if "modes" in lists:
        assert re.search(r"^modes \(.+\):$", text, re.M) and "team-deathmatch" in text
    if "players" in lists:
        assert "random" in text and "greedy" in text and "mc" in text
        assert "points=10" in text and "playouts=8" in text


def test_cards_show_explains_the_pattern(capsys):
    rc, out, err = cli(capsys, "cards", "show", "imperial/swordmaster")
    assert rc == 0
    legend = out.split("pattern symbols:\n")[1].split("effect:")[0]
    assert "c         your piece of at least common rank" in legend
    assert "@         the target square" in legend
    assert "*         a marked square" in legend
    assert "heroic" not in legend  # only the symbols this pattern uses
    arrows = [
        c.id for c in CONTENT.cards if any(t in ("N", "E") for r in c.pattern for t in r.split())
    ]
    rc, out, err = cli(capsys, "cards", "show", arrows[0])
    assert "N NE E SE S SW W NW an arrow" in out


@pytest.mark.parametrize(
    "typed, expected",
    [
        ("imperial/swordmastr", "imperial/swordmaster"),
        ("swordmaster", "imperial/swordmaster"),
        ("titan", "legends/titan"),
        ("Assasin", "imperial/assassin"),
    ],
)
def test_unknown_card_suggests_the_closest(capsys, typed, expected):
    rc, out, err = cli(capsys, "cards", "show", typed)
    assert rc == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"kalarite: error: unknown card {typed!r}; did you mean {expected}")


def test_nothing_close_says_where_to_look(capsys):
    rc, out, err = cli(capsys, "cards", "show", "zzzzzz")
    assert rc == 2 and "kalarite cards lists them" in err


def _links(md: pathlib.Path):
    text = md.read_text()
    return re.findall(r"\]\(([^)]+)\)", text) + re.findall(r"<(https?://[^>]+)>", text)


def test_readme_links_nothing_outside_the_repository():
    readme = ROOT / "README.md"
    # The service's own address on this machine (`kalarite serve`) is no outside link.
    text = re.sub(r"http://(127\.0\.0\.1|localhost)[:/]", "", readme.read_text())
    assert "http://" not in text and "https://" not in text
    assert "../" not in text and "/work/" not in text
    for target in _links(readme):
        path = (ROOT / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), target
    assert "docs/rules.md" in text
    for target in _links(ROOT / "docs" / "rules.md"):
        path = (ROOT / "docs" / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), target


def test_demo_screenshot_matches_the_report():
    """docs/demo-report.png was taken (tests/test_browser.py: `screenshot_demo`) from a report
    of the current layout: its fingerprint (the report's CSS and section titles) is recorded
    beside it and must still be the report's."""
    from results.report import CSS, NAV

    shot = ROOT / "docs" / "demo-report.png"
    meta = json.loads((ROOT / "docs" / "demo-report.json").read_text())
    assert meta["png_sha256"] == hashlib.sha256(shot.read_bytes()).hexdigest()
    assert meta["layout"] == layout_fingerprint(CSS, NAV), (
        "the report's layout changed: retake docs/demo-report.png "
        "(python tests/test_browser.py screenshot)"
    )
    assert meta["width"] == 1280


def test_the_command_line_ends_at_once_after_a_compile(capsys, monkeypatch):
    """A process that compiled the engine took seconds to exit after its last line (issue
    50: 8.7 s at load 15): the command line's own process runs its exit handlers and ends at
    once; main([...]) in a process that goes on (tests, the service) never does."""
    import atexit
    import os

    import sim.app.cli as cli

    done = []

    class Ended(Exception):
        pass

    def end(rc):
        done.append(("exit", rc))
        raise Ended

    monkeypatch.setattr(os, "_exit", end)
    monkeypatch.setattr(atexit, "_run_exitfuncs", lambda: done.append("handlers"))
    monkeypatch.setattr(cli, "_compiled_here", lambda: True)
    monkeypatch.setattr("sys.argv", ["kalarite", "cards"])
    with pytest.raises(Ended):
        main()
    assert done == ["handlers", ("exit", 0)] and "imperial" in capsys.readouterr().out
    done.clear()
    assert main(["cards"]) == 0 and not done  # not the command line's process
    monkeypatch.setattr(cli, "_compiled_here", lambda: False)
    assert main() == 0 and not done  # nothing compiled: the usual exit
