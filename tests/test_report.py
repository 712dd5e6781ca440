"""The balance report and `compare` on small synthetic datasets with known answers.

The datasets (tests/support/datasets.py) are written with the schemas of results/schema.py
(no engine involved): `hand_dataset` is small enough to compute every number by hand;
`random_dataset` draws games from known probabilities, for the HTML rendering and `compare`.
"""

import argparse
import html.parser
import json
import math
import pathlib

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from results import analysis
from results.compare import ComparisonError, compare, format_text
from results.parts import PARTS
from results.report import NAV, builder, make_report
from results.report.compare_page import write_compare_page
from results.report_dirs import report_dir
from sim.app.report_commands import add_report_commands
from tests.support.datasets import DECKS, hand_dataset, random_dataset

Z = 1.959963984540054  # 97.5% normal quantile


def wilson(k, n):
    """The Wilson score interval, by its textbook formula (independent of statsmodels)."""
    p = k / n
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2)) / (1 + Z**2 / n)
    return centre - half, centre + half


# --- analysis: known answers ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def hand(tmp_path_factory):
    root = hand_dataset(tmp_path_factory.mktemp("hand") / "run")
    return analysis.analyze(root)


def _group(summary, mode):
    return next(g for g in summary["groups"] if g["mode"] == mode)


def _cell(summary, mode, a, b):
    gid = _group(summary, mode)["id"]
    m = next(x for x in summary["matchups"] if x["group"] == gid)
    return next(c for c in m["cells"] if (c["deck"], c["opp_deck"]) == (a, b))


def test_matchup_win_rates_and_wilson_intervals(hand):
    c = _cell(hand, "high-form", "imperial", "highland")
    comb = c["combined"]
    assert (comb["wins"], comb["losses"], comb["draws"], comb["games"]) == (6, 2, 2, 10)
    wr = comb["win_rate"]
    assert wr["rate"] == pytest.approx(6 / 8)
    assert (wr["lo"], wr["hi"]) == pytest.approx(wilson(6, 8))
    assert wr["small"] and not wr["excludes_half"]  # [0.41, 0.93] contains 50%
    assert comb["draw_rate"]["rate"] == pytest.approx(0.2)
    assert (comb["draw_rate"]["lo"], comb["draw_rate"]["hi"]) == pytest.approx(wilson(2, 10))
    # imperial moved first in the even games: W 0,2,4  L 6  D 8; second: W 1,3,5  L 7  D 9
    for side in ("first", "second"):
        assert (c[side]["wins"], c[side]["losses"], c[side]["draws"]) == (3, 1, 1)
    back = _cell(hand, "high-form", "highland", "imperial")["combined"]
    assert (back["wins"], back["losses"], back["draws"]) == (2, 6, 2)
    # Deathmatch: seat 0 won all 4: 4/4, Wilson [0.51, 1] excludes 50%
    dm = _cell(hand, "deathmatch", "imperial", "highland")["combined"]["win_rate"]
    assert dm["rate"] == 1.0 and dm["excludes_half"]
    assert (dm["lo"], dm["hi"]) == pytest.approx(wilson(4, 4))


def test_first_player_field_length_and_end_reasons(hand):
    gid = _group(hand, "high-form")["id"]
    fp = next(f for f in hand["first_player"] if f["group"] == gid)
    # first mover won games 0, 2, 4, 7 and lost 1, 3, 5, 6
    assert (fp["first_mover"]["wins"], fp["first_mover"]["losses"]) == (4, 4)
    assert fp["first_mover"]["draws"] == 2
    field = next(f for f in hand["deck_vs_field"] if f["group"] == gid)
    imp = next(r for r in field["rows"] if r["deck"] == "imperial")
    assert imp["combined"]["win_rate"]["rate"] == pytest.approx(0.75)
    assert imp["first_minus_second"]["diff"] == pytest.approx(0.0)
    gl = next(x for x in hand["game_length"] if x["group"] == gid)
    assert gl["turns"]["mean"]["mean"] == pytest.approx(14.5)
    assert gl["turns"]["median"] == pytest.approx(14.5)
    assert (gl["turns"]["min"], gl["turns"]["max"]) == (10, 19)
    assert gl["actions"]["mean"]["mean"] == pytest.approx(29.0)
    assert sum(n for _, n in gl["histogram"]["turns"]) == 10
    er = next(x for x in hand["end_reasons"] if x["group"] == gid)["overall"]
    assert {k: v["k"] for k, v in er["reasons"].items()} == {"score": 5, "deck": 3, "turn-cap": 2}
    assert er["reasons"]["deck"]["rate"] == pytest.approx(0.3)


def _task(tg, name):
    return next(r for r in tg["tasks"] if r["task"] == name)


def test_tasks(hand):
    t = hand["tasks"]
    assert t["display_recorded"] is True and t["task_names_source"] == "parquet metadata"
    assert "claim rate given shown" in t["note"]
    assert not any(m["what"] == "task display" for m in hand["missing_data"])
    (tg,) = t["groups"]
    assert tg["games"] == 10 and tg["claims"] == 3
    assert tg["games_without_claim"]["k"] == 7
    line = next(r for r in tg["tasks"] if r["task"] == "Line Dominance")
    assert line["claims"] == 2
    assert line["claim_rate"]["rate"] == pytest.approx(0.2)
    assert (line["claim_rate"]["lo"], line["claim_rate"]["hi"]) == pytest.approx(wilson(2, 10))
    assert line["by_deck"]["imperial"]["k"] == 2 and line["by_deck"]["highland"]["k"] == 0
    assert line["by_deck"]["imperial"]["n"] == 10
    assert line["points"] == {"mean": 2.0, "min": 2, "max": 2}
    assert line["turn"]["median"] == pytest.approx(15.0)
    assert line["turn"]["mean"]["mean"] == pytest.approx(15.0)
    dest = next(r for r in tg["tasks"] if r["task"] == "Destruction")
    assert dest["by_deck"]["highland"]["k"] == 1


def test_task_display(hand):
    (tg,) = hand["tasks"]["groups"]
    assert [r["task"] for r in tg["tasks"]] == [  # by claim rate given shown, never shown last
        "Line Dominance",
        "Destruction",
        "Side Chain",
        "Imprisonment",
    ]
    # shown: Line Dominance in games 0-4, claimed in 0 and 1: 2 of 5 when shown
    line = _task(tg, "Line Dominance")
    assert (line["shown"]["k"], line["shown"]["n"]) == (5, 10)
    assert (line["shown"]["lo"], line["shown"]["hi"]) == pytest.approx(wilson(5, 10))
    given = line["claimed_given_shown"]
    assert (given["k"], given["n"], given["rate"]) == (2, 5, pytest.approx(0.4))
    assert (given["lo"], given["hi"]) == pytest.approx(wilson(2, 5))
    assert line["claim_rate"]["rate"] == pytest.approx(0.2)  # per game played, as before
    # by deck: both seats see the display; imperial claimed both, highland none
    assert (
        line["by_deck_given_shown"]["imperial"]["k"],
        line["by_deck_given_shown"]["imperial"]["n"],
    ) == (2, 5)
    assert line["by_deck_given_shown"]["highland"]["k"] == 0
    # Destruction: shown in all 10, claimed once (by highland)
    dest = _task(tg, "Destruction")
    assert dest["shown"]["rate"] == 1.0
    assert dest["claimed_given_shown"]["rate"] == pytest.approx(0.1)
    assert (
        dest["by_deck_given_shown"]["highland"]["k"],
        dest["by_deck_given_shown"]["highland"]["n"],
    ) == (1, 10)
    # Side Chain: shown in 3 games, never claimed; Imprisonment never shown
    side = _task(tg, "Side Chain")
    assert side["shown"]["k"] == 3 and side["shown_never_claimed"] and not side["never_shown"]
    assert side["claimed_given_shown"]["hi"] == pytest.approx(wilson(0, 3)[1])
    assert not side["hard"]  # 0 of 3: the interval reaches far above 5%
    imp = _task(tg, "Imprisonment")
    assert imp["never_shown"] and imp["shown"]["k"] == 0
    assert imp["claimed_given_shown"]["rate"] is None
    assert tg["never_shown"] == ["Imprisonment"]
    assert tg["shown_never_claimed"] == ["Side Chain"]
    assert tg["hard"] == [] and tg["easy"] == [] and tg["claimed_not_shown"] == 0
    # shown per game: 3 tasks in games 0-2, 2 in 3-4, 1 in 5-9
    assert tg["shown_per_game"]["mean"] == pytest.approx(1.8)


def test_task_names_from_the_manifest(tmp_path):
    s = analysis.analyze(hand_dataset(tmp_path / "run", names_in_manifest=True))
    assert s["tasks"]["task_names_source"] == "manifest"
    (tg,) = s["tasks"]["groups"]
    assert _task(tg, "Line Dominance")["shown"]["k"] == 5


def test_dataset_without_the_display_column_reports_with_the_note(tmp_path):
    run = hand_dataset(tmp_path / "run", display=False)
    r = make_report(run, tmp_path / "rep")
    s = r["summary"]
    t = s["tasks"]
    assert t["display_recorded"] is False and "not recorded" in t["note"]
    assert any(m["what"] == "task display" for m in s["missing_data"])
    (tg,) = t["groups"]
    line = _task(tg, "Line Dominance")
    assert line["claim_rate"]["rate"] == pytest.approx(0.2) and "shown" not in line
    assert "never_shown" not in tg
    page = r["index"].read_text(encoding="utf-8")
    assert "Task display not recorded" in page and "Missing data — task display" in page
    shown = make_report(hand_dataset(tmp_path / "run2"), tmp_path / "rep2")["index"]
    page = shown.read_text(encoding="utf-8")
    assert "Task display not recorded" not in page and "Missing data — task display" not in page
    assert "claim rate given shown" in page and "Shown but never claimed" in page
    # compare: only the claim rates per game when one study lacks the display
    c = compare(run, hand_dataset(tmp_path / "run3", engine_hash="e2"))
    assert "tasks_shown" not in c["tables"] and "tasks" in c["tables"]
    assert any("display is not recorded in A" in n for n in c["notes"])


def test_cards(hand):
    gid = _group(hand, "high-form")["id"]
    cg = next(c for c in hand["cards"]["groups"] if c["group"] == gid)
    sw = next(r for r in cg["cards"] if r["card"] == "imperial/swordmaster")
    assert sw["seat_games"] == 10
    assert sw["games_with"]["drawn"]["rate"] == 1.0
    assert sw["played"]["k"] == 5
    # played in games 0-4 (all won); not played in 5 (W), 6-7 (L), 8-9 (D)
    wp, wn = sw["when_played"], sw["when_not_played"]
    assert (wp["wins"], wp["losses"], wp["draws"]) == (5, 0, 0)
    assert (wn["wins"], wn["losses"], wn["draws"]) == (1, 2, 2)
    assert sw["played_minus_not"]["diff"] == pytest.approx(1 - 1 / 3)
    wolf = next(r for r in cg["cards"] if r["card"] == "highland/dire-wolf")
    assert wolf["when_played"]["wins"] == 2 and wolf["when_not_played"]["wins"] == 0
    assert "association" in hand["cards"]["note"]


def test_deathmatch_points(hand):
    (dg,) = hand["deathmatch"]["groups"]
    imp = next(r for r in dg["decks"] if r["deck"] == "imperial")
    hl = next(r for r in dg["decks"] if r["deck"] == "highland")
    assert imp["seat_games"] == 4
    assert imp["sources"]["pts_destruction"]["per_game"]["mean"] == 3.0
    assert imp["sources"]["pts_legend"]["per_game"]["mean"] == 2.0
    assert imp["sources"]["pts_destruction"]["share"] == pytest.approx(0.6)
    assert hl["sources"]["pts_flare"]["per_game"]["mean"] == 1.0
    assert dg["overall"]["score"]["mean"] == pytest.approx(3.0)


def test_no_warning_on_a_clean_dataset(hand):
    # the hand-made games score no points: the decisiveness warning (weak play) is right; their
    # made-up content hash was never played by `kalarite check` (tests/test_check.py)
    assert [w["kind"] for w in hand["warnings"]] == ["content_unchecked", "weak_play"]
    assert hand["data"]["beings_without_effects"] is False
    assert hand["data"]["games_analyzed"] == 14
    assert hand["data"]["games_two_seat"] == 14 and hand["data"]["games_multi_seat"] == 0
    assert hand["multiplayer"]["groups"] == [] and hand["multiplayer"]["games"] == 0


TWO_SEAT_SECTIONS = (
    "groups",
    "matchups",
    "deck_vs_field",
    "first_player",
    "game_length",
    "end_reasons",
    "tasks",
    "cards",
    "deathmatch",
    "policies",
)


def test_dataset_of_before_games_of_more_seats(hand, tmp_path):
    """A dataset without n_players, winning_team, seatN_won, seatN_col*, seat2_*, seat3_*:
    every game has two seats and every number is the same."""
    run = hand_dataset(tmp_path / "run", legacy=True)
    names = pq.read_schema(next((run / "games").rglob("*.parquet"))).names
    assert "n_players" not in names and "seat2_deck" not in names
    s = analysis.analyze(run)
    for section in TWO_SEAT_SECTIONS:
        assert s[section] == hand[section], section
    assert s["multiplayer"]["groups"] == [] and s["data"]["games_multi_seat"] == 0
    page = make_report(run, tmp_path / "rep")["index"].read_text(encoding="utf-8")
    assert "This study has no games of three or four seats" in page


# --- the HTML report -----------------------------------------------------------------------------


class _Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.imgs, self.links, self.captions = [], [], [], []
        self.sections, self.banner = [], False
        self._caption, self._section = None, None
        self.tables_in = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "section":
            self._section = a.get("id")
            self.sections.append(self._section)
        if tag == "img":
            self.imgs.append(a.get("src", ""))
        if tag in ("a", "link", "script"):
            self.links.append(a.get("href") or a.get("src") or "")
        if tag == "caption":
            self._caption = ""
        if tag == "table":
            self.tables_in[self._section] = self.tables_in.get(self._section, 0) + 1
        if "banner" in (a.get("class") or ""):
            self.banner = True

    def handle_endtag(self, tag):
        if tag == "caption":
            self.captions.append((self._section, self._caption))
            self._caption = None

    def handle_data(self, data):
        if self._caption is not None:
            self._caption += data


def _parse(path):
    p = _Page()
    p.feed(pathlib.Path(path).read_text(encoding="utf-8"))
    p.close()
    return p


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("render")
    run = random_dataset(
        tmp / "run",
        seed=3,
        games=60,
        decks=("imperial", "highland"),
        policies=(("random", "greedy"), ("greedy", "greedy")),
        bwe=True,
    )
    r = make_report(run, tmp / "report")
    return r


def test_every_registered_section_renders_a_key_of_the_summary(hand, rendered):
    """The one PARTS registry: each drawn part's method exists on its class and on the
    builder, sections are unique, and each summary key is in analyze()'s output and in
    summary.json."""
    written = json.loads(rendered["summary_json"].read_text())
    drawn = [p for p in PARTS if p.html]
    assert len({p.section for p in drawn}) == len(drawn)
    page = builder()
    for p in drawn:
        mixin, method = p.mixin()
        assert callable(getattr(mixin, method, None)), p
        assert issubclass(page, mixin), p
    for p in PARTS:
        if p.key is not None:
            assert p.key in hand and p.key in written, p
    assert [sid for sid, _ in NAV] == [p.section for p in drawn if p.title]


def test_html_has_every_section_and_is_self_contained(rendered):
    page = _parse(rendered["index"])
    assert page.sections == [sid for sid, _ in NAV]
    assert page.imgs and all(src.startswith("data:image/png;base64,") for src in page.imgs)
    assert len(page.imgs) == len(rendered["plots"])
    assert all(link.startswith("#") for link in page.links)  # nothing outside the file
    for sid in (
        "matchups",
        "deck-vs-field",
        "first-player",
        "game-length",
        "end-reasons",
        "tasks",
        "cards",
        "deathmatch",
        "policies",
    ):
        assert page.tables_in.get(sid), sid
    for section, caption in page.captions:
        if section != "method":
            assert "Rests on" in caption, (section, caption)
    assert any("small sample" in c for _, c in page.captions)  # 60 games a matchup


def test_beings_without_effects_banner(rendered):
    page = _parse(rendered["index"])
    assert "banner-beings-without-effects" in page.ids and page.banner
    assert rendered["summary"]["warnings"][0]["kind"] == "beings_without_effects"


def test_plots_and_summary_written(rendered):
    out = rendered["index"].parent
    pngs = sorted(out.glob("*.png"))
    assert pngs and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    s = json.loads((out / "summary.json").read_text())
    assert s == json.loads(json.dumps(rendered["summary"]))
    assert s["methods"]["proportion"].startswith("Wilson")
    # a ladder study: the policy section has every pairing, with a policy-vs-policy matrix
    assert s["policies"]["several"]
    hf = next(m for m in s["policies"]["modes"] if m["mode"] == "high-form")
    assert hf["policies"] == ["random", "greedy"]
    assert len(hf["pairings"]) == 2
    rg = next(x for x in hf["pairings"] if not x["self_play"])
    assert rg["record"]["games"] == 3 * 60
    assert any(p.name.startswith("policies-") for p in pngs)


def test_random_dataset_recovers_known_rates(tmp_path):
    run = random_dataset(
        tmp_path / "run",
        seed=11,
        games=3000,
        modes=("high-form",),
        p_seat0={("imperial", "highland"): 0.7},
        task_rate={"Side Chain": 0.2, "Imprisonment": 0.8, "Destruction": 0.0},
        show_rate={"Side Chain": 0.4},
        play_rate={"imperial/card-0": 0.6},
    )
    s = analysis.analyze(run)
    wr = _cell(s, "high-form", "imperial", "highland")["combined"]["win_rate"]
    assert wr["lo"] < 0.7 < wr["hi"] and wr["excludes_half"] and wr["significant"]
    ok = _cell(s, "high-form", "imperial", "sylvan")["combined"]["win_rate"]
    assert ok["lo"] < 0.5 < ok["hi"]
    (tg,) = s["tasks"]["groups"]
    side = _task(tg, "Side Chain")
    # shown in 40% of games, claimed in 20% of those: 8% of games
    assert side["shown"]["lo"] < 0.4 < side["shown"]["hi"]
    assert side["claimed_given_shown"]["lo"] < 0.2 < side["claimed_given_shown"]["hi"]
    assert side["claim_rate"]["lo"] < 0.08 < side["claim_rate"]["hi"]
    assert tg["easy"] == ["Imprisonment"]  # claimed in 80% of the games shown
    assert "Destruction" in tg["hard"] and tg["shown_never_claimed"] == ["Destruction"]
    assert tg["never_shown"] == []
    (cg,) = s["cards"]["groups"]
    c0 = next(r for r in cg["cards"] if r["card"] == "imperial/card-0")["played"]
    assert c0["lo"] < 0.6 < c0["hi"]


# --- compare -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def studies(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare")
    kw = dict(games=1500, modes=("high-form",))
    base = random_dataset(tmp / "a", seed=21, **kw)
    same = random_dataset(tmp / "a2", seed=22, **kw)
    changed = random_dataset(
        tmp / "b",
        seed=24,
        content_hash="changed",
        p_seat0={("imperial", "highland"): 0.62},
        task_rate={"Side Chain": 0.12},
        show_rate={"Line Dominance": 0.7},
        play_rate={"sylvan/card-2": 0.45},
        **kw,
    )
    return {"base": base, "same": same, "changed": changed, "tmp": tmp, "kw": kw}


def _sig(result, table):
    return [r for r in result["tables"][table] if r["significant"]]


def test_compare_detects_a_planted_difference(studies):
    r = compare(studies["base"], studies["changed"])
    assert r["differs_in"] == ["content"]
    (m,) = _sig(r, "matchups")
    assert m["key"][2:] == ["imperial", "highland"]
    assert m["diff"]["diff"] > 0.05 and m["diff"]["lo"] > 0
    # Line Dominance shown less (70% of games): fewer claims per game, same rate given shown
    assert sorted(x["key"][2] for x in _sig(r, "tasks")) == ["Line Dominance", "Side Chain"]
    assert [x["key"][2] for x in _sig(r, "tasks_shown")] == ["Line Dominance"]
    assert [x["key"][2] for x in _sig(r, "tasks_given_shown")] == ["Side Chain"]
    assert [x["key"][3] for x in _sig(r, "cards_played")] == ["sylvan/card-2"]
    assert not _sig(r, "first_player")
    text = format_text(r)
    assert "imperial vs highland" in text and "YES" in text


def test_compare_reports_nothing_when_nothing_changed(studies):
    r = compare(studies["base"], studies["same"])
    assert r["differs_in"] == []
    assert all(n == 0 for n in r["significant"].values()), r["significant"]
    assert "false positive" in r["notes"][0]
    assert r["false_positives_only"] and r["part_of"] is None
    same = compare(studies["base"], studies["base"])
    assert same["nothing_to_compare"] is True
    assert same["reason"] == "A and B are the same dataset"
    assert "tables" not in same
    assert "nothing to compare: A and B are the same dataset" in format_text(same)


def first_games(src, dst, n, name=None):
    """A copy of the dataset ``src`` that holds only the first ``n`` games of each matchup
    (as a study of ``games = n`` with the same seed would), its Parquet metadata kept."""
    import shutil

    shutil.copytree(src, dst)
    for f in pathlib.Path(dst).rglob("*.parquet"):
        t = pq.read_table(f, partitioning=None)
        keep = pa.compute.less(t["game_index"], n)
        pq.write_table(t.filter(keep).replace_schema_metadata(t.schema.metadata), f)
    m = json.loads((pathlib.Path(dst) / "study.json").read_text())
    for mu in m["matchups"]:
        mu["games"] = min(mu["games"], n)
    m["games"] = sum(mu["games"] for mu in m["matchups"])
    m["study"]["games"] = n
    if name is not None:
        m["study"]["name"] = name
    (pathlib.Path(dst) / "study.json").write_text(json.dumps(m))
    return pathlib.Path(dst)


def test_compare_with_a_copy_or_a_part_of_itself(studies, tmp_path, capsys):
    """A copy of a study (the same games, another name) has nothing to compare; its first
    games against the whole run but every difference there is a false positive."""
    base = studies["base"]
    copy = first_games(base, tmp_path / "copy", 10**6, name="renamed")
    r = compare(base, copy)
    assert r["nothing_to_compare"] is True
    assert "the very same 9,000 games" in r["reason"]
    j = tmp_path / "aa.json"
    assert _cli("compare", str(base), str(copy), "--json-out", str(j)) == 0
    assert "nothing to compare: A and B hold the very same" in capsys.readouterr().out
    written = json.loads(j.read_text())
    assert written["nothing_to_compare"] is True and written["reason"] == r["reason"]
    assert not (copy / f"compare-vs-{base.name}").exists()  # no page unless --html asks
    # the first 500 games of each matchup against all 1,500
    part = first_games(base, tmp_path / "part", 500)
    for a, b, rel, small in ((part, base, "a_in_b", "A"), (base, part, "b_in_a", "B")):
        r = compare(a, b)
        assert not r["nothing_to_compare"] and r["part_of"] == rel
        assert r["false_positives_only"]
        note = r["false_positive_note"]
        assert note.startswith(f"{small} is a part of") and "false positive" in note
        assert note in r["notes"] and f"note: {note}" in format_text(r)
        assert not any(n.startswith("same study seed") for n in r["notes"])
    page = tmp_path / "page"
    assert _cli("compare", str(part), str(base), "--html", str(page)) == 0
    assert "false positive" in (page / "index.html").read_text().split("<nav>")[0]
    # a changed outcome: no longer the same games (the outcomes are checked, not only keys)
    other = first_games(base, tmp_path / "other", 500)
    f = next((other / "games").rglob("*.parquet"))
    t = pq.read_table(f, partitioning=None)
    w = t["winner"].to_pylist()
    w[0] = 1 if w[0] != 1 else 0
    i = t.schema.get_field_index("winner")
    t = t.set_column(i, t.schema.field(i), pa.array(w, t.schema.field(i).type))
    pq.write_table(t.replace_schema_metadata(t.schema.metadata), f)
    assert compare(other, base)["part_of"] is None


def test_compare_refuses_studies_whose_other_settings_differ(studies):
    tmp, kw = studies["tmp"], studies["kw"]
    capped = random_dataset(tmp / "capped", seed=24, turn_cap=100, modes=kw["modes"], games=50)
    with pytest.raises(ComparisonError, match="turn cap"):
        compare(studies["base"], capped)
    two = random_dataset(
        tmp / "two",
        seed=25,
        content_hash="other",
        policies=(("greedy", "greedy"),),
        modes=kw["modes"],
        games=50,
    )
    with pytest.raises(ComparisonError, match="more than one thing"):
        compare(studies["base"], two)
    # other modes: the groups both hold are compared, the others named
    modes = random_dataset(tmp / "modes", seed=26, games=50)
    r = compare(studies["base"], modes)
    assert r["changes"]["modes"] == {"only_a": [], "only_b": ["deathmatch"]}
    assert any("only in B: Deathmatch · random vs random" in n for n in r["notes"])
    assert {row["key"][0] for row in r["tables"]["matchups"]} == {"high-form"}
    assert "modes: only in A: -; only in B: deathmatch" in format_text(r)
    # nothing in common at all
    dm = random_dataset(tmp / "dm", seed=27, games=50, modes=("deathmatch",))
    with pytest.raises(ComparisonError, match="no group"):
        compare(studies["base"], dm)


def test_compare_another_policy(studies, tmp_path):
    greedy = random_dataset(
        tmp_path / "g", seed=27, policies=(("greedy", "greedy"),), **studies["kw"]
    )
    r = compare(studies["base"], greedy)
    assert r["differs_in"] == ["policies"]
    assert "random vs random → greedy vs greedy" in r["tables"]["matchups"][0]["label"]


# --- the commands --------------------------------------------------------------------------------


def _cli(*argv):
    p = argparse.ArgumentParser(prog="kalarite")
    sub = p.add_subparsers(dest="command", required=True)
    add_report_commands(sub)
    args = p.parse_args(argv)
    return args.func(args)


def test_report_command(tmp_path, capsys):
    run = hand_dataset(tmp_path / "run", bwe=True)
    assert _cli("report", str(run), "--out", str(tmp_path / "rep")) == 0
    out = capsys.readouterr().out
    assert "report of 14 games" in out and "warning" in out
    assert (tmp_path / "rep" / "index.html").is_file()
    assert (tmp_path / "rep" / "summary.json").is_file()
    assert report_dir(run, None) == run / "report"  # the default --out


def test_compare_command(studies, tmp_path, capsys):
    j = tmp_path / "c.json"
    assert _cli("compare", str(studies["base"]), str(studies["changed"]), "--json-out", str(j)) == 0
    out = capsys.readouterr().out
    assert "differs in: content" in out
    assert json.loads(j.read_text())["differs_in"] == ["content"]


@pytest.mark.parametrize(
    "setup, needle",
    [
        ("missing", "no dataset"),
        ("no-manifest", "study.json is missing"),
        ("running", "incomplete"),
        ("short", "incomplete"),
        ("no-card-events", "card_events"),
    ],
)
def test_bad_dataset_is_one_clear_error(tmp_path, setup, needle):
    run = tmp_path / "run"
    if setup == "no-manifest":
        run.mkdir()
        (run / "x").write_text("")
    elif setup == "running":
        hand_dataset(run, status="running")
    elif setup == "short":
        hand_dataset(run)
        m = json.loads((run / "study.json").read_text())
        m["matchups"][0]["games"] = 11
        (run / "study.json").write_text(json.dumps(m))
    elif setup == "no-card-events":
        hand_dataset(run)
        for p in (run / "card_events").rglob("*.parquet"):
            p.unlink()
    with pytest.raises(ValueError, match=needle) as e:
        _cli("report", str(run), "--out", str(tmp_path / "rep"))
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match=needle):
        _cli("compare", str(run), str(run))


def test_incomplete_dataset_with_flag(tmp_path):
    run = hand_dataset(tmp_path / "run", status="running")
    r = make_report(run, tmp_path / "rep", allow_incomplete=True)
    assert any(w["kind"] == "incomplete" for w in r["summary"]["warnings"])
    assert _parse(r["index"]).banner


def test_report_refuses_to_write_into_the_dataset(tmp_path):
    run = hand_dataset(tmp_path / "run")
    with pytest.raises(ValueError, match="is a study dataset"):
        _cli("report", str(run), "--out", str(run))


def test_cards_against_their_deck_mates_flag_rarely_when_cards_are_equal(tmp_path):
    """Every card is summoned far more in won games (30% vs 70%): the raw "played vs not"
    difference flags every card, the comparison with the deck's other cards almost none."""
    run = random_dataset(tmp_path / "run", seed=5, games=600, modes=("high-form",), win_boost=0.4)
    s = analysis.analyze(run)
    (cg,) = s["cards"]["groups"]
    raw = [r["played_minus_not"]["significant"] for r in cg["cards"]]
    vs = [r["vs_deck"] for r in cg["cards"]]
    assert len(raw) == 12 and sum(raw) >= 11  # the old reading: nearly every card "strong"
    assert all(v is not None for v in vs)
    assert sum(v["significant"] for v in vs) <= 1
    for v in vs:
        assert v["lo"] < v["diff"] < v["hi"] and v["compared_with"] == 3
    page = make_report(run, tmp_path / "rep")["index"].read_text(encoding="utf-8")
    assert "No card stands out from its deck-mates" in page or "Stand out from" in page
    assert "summoning goes with winning" in page


def test_a_card_that_wins_more_than_its_deck_mates_is_flagged(tmp_path):
    run = random_dataset(
        tmp_path / "run",
        seed=6,
        games=600,
        modes=("high-form",),
        win_boost=0.2,
        play_rate={"imperial/card-2": 0.05},  # rarely played but for its wins: +0.2
    )
    (cg,) = analysis.analyze(run)["cards"]["groups"]
    rows = {r["card"]: r["vs_deck"] for r in cg["cards"]}
    assert rows["imperial/card-2"]["significant"] and rows["imperial/card-2"]["diff"] > 0.1
    # the others are compared with a mean holding card-2: only imperial's can look weaker
    for card, v in rows.items():
        if card != "imperial/card-2" and v["significant"]:
            assert card.startswith("imperial/") and v["diff"] < 0


def test_card_contrast_of_two_disjoint_cards_is_the_wald_difference():
    from results.analysis.card_contrast import contrasts

    rng = np.random.default_rng(1)
    x = np.zeros((2000, 2), bool)
    x[:1000, 0], x[1000:, 1] = True, True
    y = np.r_[rng.random(1000) < 0.6, rng.random(1000) < 0.5]
    a, b = y[:1000].mean(), y[1000:].mean()
    c = contrasts(x, y, np.arange(2000))
    assert c[0]["diff"] == pytest.approx(a - b) and c[1]["diff"] == pytest.approx(b - a)
    assert c[0]["se"] == pytest.approx(math.sqrt(a * (1 - a) / 1000 + b * (1 - b) / 1000))
    few = np.zeros((50, 3), bool)
    few[:10, 0] = True
    few[:, 1:] = True
    assert contrasts(few, np.ones(50, bool), np.arange(50))[0] is None  # under MIN_PLAYS


def test_first_screen_numbers(tmp_path):
    run = random_dataset(tmp_path / "run", seed=8, games=120, modes=("high-form",))
    s = analysis.analyze(run)
    (m,) = s["at_a_glance"]["modes"]
    assert m["stability"]["text"].startswith(
        "undetermined by this study (stability cannot be judged: one player (random))"
    )
    assert m["players"] == ["random (both seats)"] and "tied on points" in m["ended"]
    assert sorted(m["decks"]) == sorted(DECKS)
    rates = [m["series"][0]["decks"][d]["rate"] for d in m["decks"]]
    assert rates == sorted(rates, reverse=True)  # strongest first
    kinds = [
        f["kind"]
        for f in s.get("key_findings")
        or make_report(run, tmp_path / "r")["summary"]["key_findings"]
    ]
    assert kinds[0] == "players_caveat"
    # a deck is named strongest (weakest) only when its interval lies above (below) 50%
    (field,) = s["deck_vs_field"]
    rates = sorted((r["combined"]["win_rate"] for r in field["rows"]), key=lambda w: w["rate"])
    assert ("strongest_deck" in kinds) == (rates[-1]["lo"] > 0.5)
    assert ("weakest_deck" in kinds) == (rates[0]["hi"] < 0.5)
    stands_out = "strongest_deck" in kinds or "weakest_deck" in kinds
    assert ("no_deck_stands_out" in kinds) == (not stands_out)


def _respell_players(run, policies):
    """The study spec of ``run`` with its policy lists written as ``policies``."""
    m = json.loads((run / "study.json").read_text())
    m["study"]["policies"] = policies
    (run / "study.json").write_text(json.dumps(m))
    return run


def test_compare_reads_one_name_for_every_seat_as_those_players(studies, tmp_path):
    """``[["random"]]`` (api.run without policies) and ``[["random", "random"]]`` (a spec
    file) are the same players: a content change between them is one change."""
    one = _respell_players(
        random_dataset(tmp_path / "one", seed=31, content_hash="new", **studies["kw"]),
        [["random"]],
    )
    r = compare(studies["base"], one)
    assert r["differs_in"] == ["content"] and "players" not in r["changes"]
    assert r["a"]["policies"] == r["b"]["policies"] == [["random"]]
    page = write_compare_page(r, tmp_path / "page")["index"].read_text()
    assert "random (every seat)" in page
    # and the report shows the one spelling too
    assert analysis.analyze(studies["base"])["run"]["study"]["policies"] == [["random"]]


def test_compare_names_how_the_games_ended_and_the_player_stability(studies, tmp_path, capsys):
    """Random players' games all end by deck exhaustion tied on points: compare warns, in its
    text, JSON and page; one player: stability not measured; two self-play players: measured."""
    r = compare(studies["base"], studies["changed"])
    pl = r["players"]
    assert pl["warning"].startswith("weak play: most games of both studies")
    assert "--policy planner" in pl["warning"]
    (e,) = pl["a"]["decisiveness"]
    assert e["mode"] == "high-form" and e["players"] == "random-vs-random" and e["weak"]
    assert e["games"] == 9000 and e["tie_on_points"] + e["by_deck"] > 0.5
    (st,) = pl["b"]["stability"]
    assert st["verdict"] == "not measured"
    assert st["text"].startswith("High Form: not measured: one player (random)")
    text = format_text(r)
    assert "warning: weak play" in text and "how the games ended:" in text
    assert "B: High Form: not measured: one player (random)" in text
    page = tmp_path / "page"
    assert _cli("compare", str(studies["base"]), str(studies["changed"]), "--html", str(page)) == 0
    capsys.readouterr()
    html_text = (page / "index.html").read_text()
    assert "⚠ weak play" in html_text.split("<nav>")[0]
    assert "How the games ended · player stability" in html_text
    assert "not measured: one player (random)" in html_text
    # two players each against themselves: the verdicts are measured
    kw = dict(studies["kw"], games=300)
    two = (("random", "random"), ("greedy", "greedy"))
    a = random_dataset(tmp_path / "two-a", seed=41, policies=two, **kw)
    b = random_dataset(
        tmp_path / "two-b",
        seed=42,
        policies=two,
        content_hash="other",
        p_seat0={("imperial", "highland"): 0.9},
        **kw,
    )
    (sa,) = compare(a, b)["players"]["a"]["stability"]
    assert sa["verdict"] in ("stable", "player-sensitive", "undetermined")  # the rule's words
    assert sa["players"] == ["greedy", "random"] and "(greedy vs random)" in sa["text"]
