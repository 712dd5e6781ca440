"""Each command's --help lists exactly the options it takes (issue 50): every option the
help names (in its usage, its options and the lists of valid decks, modes and players at its
end) is one the command's parser accepts, and every option the parser accepts is in the help.
The description is prose and may name another command's options (`learn`: "play it with
--positions N"), so it is left out. The parsers take no abbreviations, so "accepts" is
exactly the parser's own option strings."""

import re

import pytest

from sim.app.cli import build_parser
from sim.app.cli_args import CliError

OPTION = re.compile(r"(?<![\w/.+-])--?[A-Za-z][A-Za-z0-9-]*")


def _commands(parser, path=()):
    """(words, parser) of the top level and every subcommand, nested ones included."""
    yield path, parser
    for action in parser._actions:
        if action.choices and hasattr(action, "_name_parser_map"):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))


COMMANDS = dict(_commands(build_parser()))


def _parsed_action(parser, option):
    """The action the parser's own option parsing finds for ``option`` (None: unknown)."""
    found = parser._parse_optional(option)
    found = found[0] if isinstance(found, list) else found  # Python 3.12 returns a list
    return found[0] if found else None


def test_every_command_is_seen():
    words = {w[0] for w in COMMANDS if w}
    assert {"play", "study", "trace", "compare", "suggest", "serve", "bench"} <= words
    assert ("serve", "tokens", "add") in COMMANDS


@pytest.mark.parametrize("words", list(COMMANDS), ids=lambda w: " ".join(w) or "kalarite")
def test_help_lists_exactly_the_options_taken(words):
    parser = COMMANDS[words]
    text = parser.format_help()
    if parser.description:
        text = text.replace(parser.description, "")
    named = set(OPTION.findall(text))
    refused = sorted(o for o in named if _parsed_action(parser, o) is None)
    assert not refused, f"help names options it does not take: {refused}"
    accepted = set(parser._option_string_actions)
    assert accepted <= named, f"takes options its help leaves out: {sorted(accepted - named)}"
    assert parser.allow_abbrev is False


def test_no_abbreviations():
    with pytest.raises(CliError, match="unrecognized arguments: --overwr"):
        build_parser().parse_args(["study", "spec.toml", "--out", "x", "--overwr"])
    assert _parsed_action(COMMANDS[("study",)], "--overwrite").dest == "overwrite"
    assert _parsed_action(COMMANDS[("study",)], "--overwr") is None
