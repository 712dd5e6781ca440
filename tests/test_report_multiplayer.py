"""The report on games of three and four seats, on real studies played by the engine.

One local Ray session (2 CPUs) plays three small studies (a few seconds once the kernel is
compiled; the first engine call of a cold numba cache compiles it, ~2.5 minutes):

- ``mp``: melee with 3 and 4 players, team Deathmatch and team High Form, random players;
- ``policies``: melee and team Deathmatch with a different policy per seat;
- ``hf`` and ``mixed``: High Form alone, and High Form + 3-player melee with the same study
  seed (a matchup's seed depends on the study seed, mode, decks and policies only, so their
  High Form games are the same games). ``mixed`` goes through the command line: a TOML spec,
  ``kalarite study`` (in-process, on the Ray session) and ``kalarite report`` (a subprocess).

The multiplayer numbers are recomputed here from the Parquet rows, by plain Python loops.
"""

import html.parser
import json
import math
import pathlib
import re
import subprocess
import sys

import pyarrow as pa
import pytest

from cluster.runner import run_study
from results import analysis
from results.compare import compare, format_text
from results.report import NAV, make_report
from results.store import read_table
from sim.app.cli import main
from sim.content import load_content
from sim.study import study_from_dict

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONTENT = load_content()
DECKS = ["imperial", "highland"]
MP_SPEC = {
    "name": "mp",
    "modes": ["melee", "team-deathmatch", "team-high-form"],
    "decks": DECKS,
    "melee_players": [3, 4],
    "policies": "random",
    "games": 5,
    "seed": 3,
    "beings_without_effects": True,
}
POLICIES_SPEC = {
    "name": "policies",
    "modes": ["melee", "team-deathmatch"],
    "decks": [
        ["imperial", "highland", "highland"],
        ["imperial", "highland", "imperial", "highland"],
        ["highland", "imperial", "highland", "imperial"],
    ],
    "policies": [["random", "greedy", "random"], ["random", "greedy", "random", "greedy"]],
    "games": 3,
    "seed": 5,
    "beings_without_effects": True,
}
HF_SPEC = {
    "name": "hf",
    "modes": ["high-form"],
    "decks": DECKS,
    "policies": "random",
    "games": 6,
    "seed": 11,
    "beings_without_effects": True,
}
MIXED_TOML = """
name = "mixed"
modes = ["high-form", "melee"]
decks = ["imperial", "highland"]
melee_players = [3]
policies = "random"
games = 6
seed = 11
beings_without_effects = true
"""
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
TWO_SEAT_HTML = (
    "matchups",
    "deck-vs-field",
    "first-player",
    "game-length",
    "end-reasons",
    "tasks",
    "cards",
    "deathmatch",
    "policies",
)
Z = 1.959963984540054  # 97.5% normal quantile


def wilson(k, n):
    """The Wilson score interval, by its textbook formula (independent of statsmodels)."""
    p = k / n
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2)) / (1 + Z**2 / n)
    return centre - half, centre + half


@pytest.fixture(scope="module")
def runs(ray_session, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mp")
    out = {}
    for name, spec in (("mp", MP_SPEC), ("policies", POLICIES_SPEC), ("hf", HF_SPEC)):
        out[name] = tmp / name
        study = study_from_dict(spec, CONTENT)
        summary = run_study(study, CONTENT, out[name], workers=2, progress=False)
        assert summary.errors == 0
    toml = tmp / "mixed.toml"
    toml.write_text(MIXED_TOML)
    out["mixed"] = tmp / "mixed"
    assert main(["study", str(toml), "--out", str(out["mixed"]), "--workers", "2"]) == 0
    return out


@pytest.fixture(scope="module")
def mp(runs):
    return analysis.analyze(runs["mp"])


def _rows(run):
    return read_table(run, "games").to_pylist()


def _group(summary, mode, n):
    (g,) = [
        g for g in summary["multiplayer"]["groups"] if g["mode"] == mode and g["n_players"] == n
    ]
    return g


def _counts(rec):
    return (rec["wins"], rec["losses"], rec["draws"])


def _check_wilson(rate):
    assert (rate["lo"], rate["hi"]) == pytest.approx(wilson(rate["k"], rate["n"]))
    share = rate["share"]
    assert rate["excludes_share"] == (rate["lo"] > share or rate["hi"] < share)


def _shared(r):
    return (r["winner"] if r["winning_team"] is None else r["winning_team"]) == -1


def _mean(xs):
    return sum(xs) / len(xs)


def _same(a, b, path):
    """Equal JSON values; floats up to rounding (DuckDB sums in no fixed order)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), path
        for k in a:
            _same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (path, a, b)
    else:
        assert a == b, (path, a, b)


# --- the numbers, recomputed from the rows -------------------------------------------------------


def test_groups_and_game_counts(mp, runs):
    rows = _rows(runs["mp"])
    assert mp["data"]["games_two_seat"] == 0 and mp["groups"] == []
    assert mp["data"]["games_multi_seat"] == len(rows) == mp["multiplayer"]["games"]
    labels = [g["label"] for g in mp["multiplayer"]["groups"]]
    assert labels == [
        "Melee (3 players) · random",
        "Melee (4 players) · random",
        "Team Deathmatch · random",
        "Team High Form · random",
    ]
    for g in mp["multiplayer"]["groups"]:
        mine = [r for r in rows if (r["mode"], r["n_players"]) == (g["mode"], g["n_players"])]
        assert g["games"] == len(mine)
        assert g["fair_share"] == pytest.approx(0.5 if g["team"] else 1 / g["n_players"])
        assert g["shared"]["k"] == sum(_shared(r) for r in mine)
        assert g["turns"]["mean"] == pytest.approx(_mean([r["turns"] for r in mine]))
        for reason, p in g["end_reasons"]["reasons"].items():
            assert p["k"] == sum(r["end_reason"] == reason for r in mine), reason
        for r in mine:  # the columns the section rests on
            n = r["n_players"]
            assert r["first_seat"] == r["game_index"] % n
            assert all(r[f"seat{s}_deck"] is None for s in range(n, 4))
            if g["team"]:
                assert r["winner"] is None and r["winning_team"] in (-1, 0, 1)
            else:
                assert r["winning_team"] is None and r["winner"] in range(-1, n)


def test_deck_win_counts(mp, runs):
    rows = _rows(runs["mp"])
    for g in mp["multiplayer"]["groups"]:
        n = g["n_players"]
        mine = [r for r in rows if (r["mode"], r["n_players"]) == (g["mode"], n)]
        mixed = [r for r in mine if len({r[f"seat{s}_deck"] for s in range(n)}) > 1]
        assert g["mirror_games"] == len(mine) - len(mixed)
        assert [x["deck"] for x in g["per_deck"]] == DECKS
        for x in g["per_deck"]:
            seats = [(r, s) for r in mixed for s in range(n) if r[f"seat{s}_deck"] == x["deck"]]
            won = sum(r[f"seat{s}_won"] for r, s in seats)
            shared = sum(_shared(r) for r, _ in seats)
            assert x["seat_games"] == len(seats)
            assert _counts(x["record"]) == (won, len(seats) - won - shared, shared)
            rate = x["record"]["win_rate"]
            assert (rate["k"], rate["n"]) == (won, len(seats) - shared)
            assert rate["share"] == pytest.approx(g["fair_share"])
            _check_wilson(rate)
            scores = [r[f"seat{s}_score"] for r, s in seats]
            assert x["score"]["mean"] == pytest.approx(_mean(scores))


def test_turn_positions(mp, runs):
    rows = _rows(runs["mp"])
    for g in mp["multiplayer"]["groups"]:
        n = g["n_players"]
        mine = [r for r in rows if (r["mode"], r["n_players"]) == (g["mode"], n)]
        assert [p["label"] for p in g["positions"]] == [
            "1st player",
            "2nd player",
            "3rd player",
            "4th player",
        ][:n]
        for p in g["positions"]:
            # the seat moving at this position: first_seat, then the next seats in turn order
            seat = [(r["first_seat"] + p["position"] - 1) % n for r in mine]
            won = sum(r[f"seat{s}_won"] for r, s in zip(mine, seat, strict=True))
            shared = sum(_shared(r) for r in mine)
            assert _counts(p["record"]) == (won, len(mine) - won - shared, shared)
            _check_wilson(p["record"]["win_rate"])
        if g["team"]:  # teammates move 1st and 3rd, 2nd and 4th
            pos = g["positions"]
            assert _counts(pos[0]["record"]) == _counts(pos[2]["record"])
            assert _counts(pos[1]["record"]) == _counts(pos[3]["record"])


def test_first_team_and_team_compositions(mp, runs):
    rows = _rows(runs["mp"])
    for mode in ("team-deathmatch", "team-high-form"):
        g = _group(mp, mode, 4)
        mine = [r for r in rows if r["mode"] == mode]
        first = sum(r["winning_team"] == r["first_seat"] % 2 for r in mine)
        shared = sum(r["winning_team"] == -1 for r in mine)
        ft = g["first_team"]
        assert _counts(ft) == (first, len(mine) - first - shared, shared)
        assert (ft["win_rate"]["lo"], ft["win_rate"]["hi"]) == pytest.approx(
            wilson(first, len(mine) - shared)
        )
        expect, mirror = {}, 0
        for r in mine:
            for t in (0, 1):
                comp = tuple(sorted((r[f"seat{t}_deck"], r[f"seat{t + 2}_deck"])))
                opp = tuple(sorted((r[f"seat{1 - t}_deck"], r[f"seat{3 - t}_deck"])))
                if comp == opp:
                    mirror += 1
                    continue
                w, lo_, d = expect.get(comp, (0, 0, 0))
                res = r["winning_team"]
                expect[comp] = (w + (res == t), lo_ + (res == 1 - t), d + (res == -1))
        assert g["composition_mirror_team_games"] == mirror
        got = {tuple(sorted(c["decks"])): _counts(c["record"]) for c in g["compositions"]}
        assert got == expect
        for c in g["compositions"]:
            _check_wilson(c["record"]["win_rate"])
            assert c["label"] == " + ".join(c["decks"])
        assert g["melee"] is None


def test_melee_scores(mp, runs):
    rows = _rows(runs["mp"])
    for n in (3, 4):
        g = _group(mp, "melee", n)
        mine = [r for r in rows if r["mode"] == "melee" and r["n_players"] == n]
        for r in mine:  # a melee seat's score is its lowest column (the other seats' colours)
            for s in range(n):
                cols = [r[f"seat{s}_col{c}"] for c in range(n) if c != s]
                assert r[f"seat{s}_score"] == min(cols)
        winners = [r[f"seat{r['winner']}_score"] for r in mine if r["winner"] >= 0]
        seats = [r[f"seat{s}_score"] for r in mine for s in range(n)]
        assert g["melee"]["winner_score"]["n"] == len(winners)
        assert g["melee"]["winner_score"]["mean"] == pytest.approx(_mean(winners))
        assert g["melee"]["seat_score"]["n"] == len(seats)
        assert g["melee"]["seat_score"]["mean"] == pytest.approx(_mean(seats))
        assert g["first_team"] is None and g["compositions"] is None


def test_a_policy_per_seat(runs):
    s = analysis.analyze(runs["policies"])
    assert s["groups"] == []  # no two-seat pairing in a spec of 3- and 4-seat policy lists
    rows = _rows(runs["policies"])
    labels = [g["label"] for g in s["multiplayer"]["groups"]]
    assert labels == [
        "Melee (3 players) · random / greedy / random",
        "Melee (4 players) · random / greedy / random / greedy",
        "Team Deathmatch · random / greedy / random / greedy",
    ]
    for g in s["multiplayer"]["groups"]:
        n = g["n_players"]
        assert not g["uniform_policies"] and g["seat_policies"] == list(
            ("random", "greedy", "random", "greedy")[:n]
        )
        mine = [r for r in rows if (r["mode"], r["n_players"]) == (g["mode"], n)]
        for x in g["per_deck"]:  # a row per deck and policy
            seats = [
                (r, i)
                for r in mine
                for i in range(n)
                if (r[f"seat{i}_deck"], r[f"seat{i}_policy"]) == (x["deck"], x["policy"])
            ]
            assert x["seat_games"] == len(seats) > 0
            assert x["record"]["wins"] == sum(r[f"seat{i}_won"] for r, i in seats)
        if g["team"]:
            for c in g["compositions"]:
                assert c["policies"] is not None and len(c["policies"]) == 2
                assert "(" in c["label"]
    page = make_report(runs["policies"], runs["policies"] / "report")["index"]
    text = page.read_text(encoding="utf-8")
    assert "deck (policy)" in text and "random vs greedy vs random" in text


# --- the report ----------------------------------------------------------------------------------


class _Sections(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.tables, self.imgs, self.links = [], {}, [], []
        self._section = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self._section = a.get("id")
            self.sections.append(self._section)
        if tag == "table":
            self.tables[self._section] = self.tables.get(self._section, 0) + 1
        if tag == "img":
            self.imgs.append(a.get("src", ""))
        if tag in ("a", "link", "script"):
            self.links.append(a.get("href") or a.get("src") or "")


def _parse(path):
    p = _Sections()
    p.feed(pathlib.Path(path).read_text(encoding="utf-8"))
    p.close()
    return p


def _twin(run, where) -> pathlib.Path:
    """A copy of a dataset labelled with another study seed: the same games, but not "the
    same study" (``compare`` of a study with itself has nothing to compare)."""
    import shutil

    twin = pathlib.Path(where) / f"{pathlib.Path(run).name}-twin"
    shutil.copytree(run, twin)
    m = json.loads((twin / "study.json").read_text())
    m["study"]["seed"] += 1
    (twin / "study.json").write_text(json.dumps(m))
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    for f in (twin / "games").rglob("*.parquet"):  # other game seeds: not the same games
        t = pq.read_table(f, partitioning=None)
        i = t.schema.get_field_index("seed")
        seeds = pc.add(t.column(i), pa.scalar(1, t.schema.field(i).type))
        meta = pq.read_metadata(f).metadata
        pq.write_table(t.set_column(i, t.schema.field(i), seeds).replace_schema_metadata(meta), f)
    return twin


def _section_html(page: str, sid: str) -> str:
    (m,) = re.findall(rf'<section id="{sid}">(.*?)</section>', page, flags=re.S)
    return m


def test_report_of_multi_seat_games_only(runs, tmp_path):
    r = make_report(runs["mp"], tmp_path / "rep")
    page = r["index"].read_text(encoding="utf-8")
    p = _parse(r["index"])
    assert p.sections == [sid for sid, _ in NAV]
    assert all(link.startswith("#") for link in p.links)
    assert p.imgs and all(src.startswith("data:image/png;base64,") for src in p.imgs)
    assert len(p.imgs) == len(r["plots"]) == 1 + len(r["summary"]["multiplayer"]["groups"])
    for sid in TWO_SEAT_HTML:
        assert "This study has no two-seat games" in _section_html(page, sid), sid
        assert not p.tables.get(sid), sid
    mp_html = _section_html(page, "multiplayer")
    # end reasons; per group: decks and positions (+ melee scores, + first team + compositions)
    assert p.tables["multiplayer"] == 1 + 2 * 4 + 2 + 2 * 2
    for needle in (
        "Melee (3 players) · random",
        "Team High Form · random",
        "team of the first player",
        "team composition",
        "1st player",
        "4th player",
        "lowest colour column",
        "vs fair share 33.3%",
        "vs fair share 25.0%",
        "cover two-seat games only",
    ):
        assert html.unescape(needle) in html.unescape(mp_html), needle
    s = json.loads((tmp_path / "rep" / "summary.json").read_text())
    assert s == json.loads(json.dumps(r["summary"]))
    assert s["multiplayer"]["groups"][0]["per_deck"][0]["record"]["win_rate"]["share"] == (
        pytest.approx(1 / 3)
    )
    assert compare(runs["mp"], runs["mp"])["nothing_to_compare"]
    c = compare(runs["mp"], _twin(runs["mp"], tmp_path))  # two-seat games only: no crash
    assert all(rows == [] for rows in c["tables"].values())
    assert any("only two-seat games are compared" in n for n in c["notes"])
    assert "only two-seat games" in format_text(c)


def test_mixed_study_through_the_command_line(runs):
    """High Form + melee: the report has both, and its High Form numbers are those of the
    High Form-only study with the same seed (the melee games are not mixed in)."""
    mixed, hf = runs["mixed"], runs["hf"]
    rows = {(r["mode"], r["matchup"], r["game_index"]): r for r in _rows(mixed)}
    hf_rows = _rows(hf)
    assert {r["mode"] for r in rows.values()} == {"high-form", "melee"}
    for r in hf_rows:  # the premise: the same High Form games
        other = rows[(r["mode"], r["matchup"], r["game_index"])]
        assert {k: other[k] for k in r if k != "seed"} == {k: r[k] for k in r if k != "seed"}
    proc = subprocess.run(
        [sys.executable, "-m", "sim.app.cli", "report", str(mixed)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    n_mixed = len(rows)
    assert f"report of {n_mixed} games in 2 group(s)" in proc.stdout
    s = json.loads((mixed / "report" / "summary.json").read_text())
    assert s["data"]["games_two_seat"] == len(hf_rows)
    assert s["data"]["games_multi_seat"] == n_mixed - len(hf_rows)
    assert [g["label"] for g in s["groups"]] == ["High Form · random vs random"]
    assert [g["label"] for g in s["multiplayer"]["groups"]] == ["Melee (3 players) · random"]
    (g,) = s["multiplayer"]["groups"]
    melee = [r for r in rows.values() if r["mode"] == "melee"]
    assert g["games"] == len(melee)
    imp = next(x for x in g["per_deck"] if x["deck"] == "imperial")
    assert imp["record"]["wins"] == sum(
        r[f"seat{i}_won"] and r[f"seat{i}_deck"] == "imperial"
        for r in melee
        if len({r["seat0_deck"], r["seat1_deck"], r["seat2_deck"]}) > 1
        for i in range(3)
    )
    alone = make_report(hf, hf / "report")
    only = json.loads(json.dumps(alone["summary"]))
    for section in TWO_SEAT_SECTIONS:
        _same(s[section], only[section], section)
    assert only["multiplayer"]["groups"] == [] and only["data"]["games_multi_seat"] == 0
    page_m = (mixed / "report" / "index.html").read_text(encoding="utf-8")
    page_h = alone["index"].read_text(encoding="utf-8")
    note = f"<p class='note'>{s['multiplayer']['cards_note']}</p>\n"
    for sid in TWO_SEAT_HTML:
        a = _section_html(page_m, sid).replace(note, "")
        b = _section_html(page_h, sid)
        strip = re.compile(r'src="data:image/png;base64,[^"]*"')
        assert strip.sub("", a) == strip.sub("", b), sid
    assert "Melee (3 players) · random" in html.unescape(_section_html(page_m, "multiplayer"))
    assert "This study has no games of three or four seats" in _section_html(page_h, "multiplayer")
    c = compare(mixed, _twin(mixed, mixed.parent))
    assert c["tables"]["matchups"] and any("left out" in n for n in c["notes"])
