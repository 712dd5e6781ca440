"""Every count of the report says what it counts and agrees with the Study table (issue 38):
a table over games counts each game once, a table whose rows are decks says how many
deck-games its rows add up to, and a matchup table counts the matchups the Study table
counts. Checked on a dataset small enough to count by hand."""

import html
import re

import pytest

from results import analysis
from results.report import make_report
from tests.support.datasets import game_row, write_dataset

# Deathmatch, random in both seats: games per deck pairing (seat 0, seat 1)
SELF_PLAY = {
    ("imperial", "highland"): 4,
    ("imperial", "sylvan"): 3,
    ("highland", "sylvan"): 2,
    ("imperial", "imperial"): 5,  # a mirror match
}
# Deathmatch, greedy (seat 0) against random: one game each way round of two decks
CROSS = {("imperial", "highland"): 6, ("highland", "imperial"): 4}


def _games():
    out = []
    for table, policies in ((SELF_PLAY, ("random", "random")), (CROSS, ("greedy", "random"))):
        for decks, n in table.items():
            for i in range(n):
                out.append(game_row("deathmatch", decks, policies, i, i % 3 - 1 if i % 3 else 0))
    return out


# the hand count
SELF_GAMES = sum(SELF_PLAY.values())  # 14 games
SELF_NON_MIRROR = SELF_GAMES - SELF_PLAY[("imperial", "imperial")]  # 9 games
SELF_DECK_GAMES = 2 * SELF_NON_MIRROR  # 18: each game in two deck rows
SELF_MATCHUPS = len(SELF_PLAY)  # 4, as the Study table counts them
SELF_ROWS = 2 * (len(SELF_PLAY) - 1) + 1  # 7: three matchups from both sides, one mirror
CROSS_GAMES = sum(CROSS.values())  # 10: each game in one row (greedy's deck)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = write_dataset(tmp_path_factory.mktemp("counts") / "run", _games())
    r = make_report(root, root / "report")
    return r["summary"], html.unescape(r["index"].read_text(encoding="utf-8"))


def _group(summary, policies):
    return next(g for g in summary["groups"] if g["policies"] == policies)


def _by_group(summary, section, g):
    return next(x for x in summary[section] if x["group"] == g["id"])


def test_the_summary_counts_games_once(report):
    s, _ = report
    self_play = _group(s, ["random", "random"])
    cross = _group(s, ["greedy", "random"])
    assert (self_play["games"], self_play["matchups"]) == (SELF_GAMES, SELF_MATCHUPS)
    assert (cross["games"], cross["matchups"]) == (CROSS_GAMES, len(CROSS))
    field = _by_group(s, "deck_vs_field", self_play)
    assert (field["games"], field["deck_games"]) == (SELF_NON_MIRROR, SELF_DECK_GAMES)
    assert sum(r["combined"]["games"] for r in field["rows"]) == SELF_DECK_GAMES
    field = _by_group(s, "deck_vs_field", cross)
    assert field["games"] == field["deck_games"] == CROSS_GAMES
    first = _by_group(s, "first_player", self_play)
    assert (first["games"], first["games_non_mirror"]) == (SELF_GAMES, SELF_NON_MIRROR)
    assert len(_by_group(s, "matchups", self_play)["cells"]) == SELF_ROWS
    glance = {x["group"]: x["games"] for m in s["at_a_glance"]["modes"] for x in m["series"]}
    assert glance[self_play["id"]] == SELF_NON_MIRROR
    assert s["data"]["games_analyzed"] == SELF_GAMES + CROSS_GAMES


def test_no_caption_counts_more_games_than_were_played(report):
    s, page = report
    counts = [int(n.replace(",", "")) for n in re.findall(r"Rests on ([\d,]+) games", page)]
    assert counts and max(counts) <= s["data"]["games_analyzed"]


def test_the_page_says_what_each_count_counts(report):
    _, page = report
    # deck vs field of the one-player group: 9 games, its rows adding up to 18 deck-games
    assert f"Rests on {SELF_NON_MIRROR} games" in page
    assert f"the rows add up to {SELF_DECK_GAMES} deck-games" in page
    # the matchup table counts the Study table's matchups, and says why it has more rows
    assert (
        f"the matchup table ({SELF_MATCHUPS} matchups; {SELF_ROWS} rows: each matchup of two "
        "different decks from both decks' sides)"
    ) in page
    assert f"the matchup table ({len(CROSS)} matchups)" in page
    # the Study table's row of the group says the same matchups and games
    assert re.search(rf"<td[^>]*>{SELF_MATCHUPS}</td>\s*<td[^>]*>{SELF_GAMES}</td>", page), (
        "the Study table's group row"
    )
    assert "deck-games (mirror matches left out)" not in page  # the old, double count


def test_analysis_agrees_with_the_page(report, tmp_path):
    s, _ = report
    again = analysis.analyze(s["run"]["path"])
    assert [f["games"] for f in again["deck_vs_field"]] == [f["games"] for f in s["deck_vs_field"]]
