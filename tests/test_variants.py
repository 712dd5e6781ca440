"""A designer's card variants: a copy of the card files with one card changed (--content,
``content =`` in a spec), a variant deck beside the original (``variant_of``, --map), and
``compare`` naming what changed card by card, with the paired analysis of games dealt from
the same seeds and the compare page. Real games, in-process (``--workers 0``), a few hundred
per study."""

import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from scipy import stats as sps

from results.compare import compare, format_text
from results.store import read_manifest, read_table
from sim.app.cli import main
from sim.content import ContentError
from sim.content.copies import load_content_dir
from sim.study import load_study
from tests.support.content_edits import (
    stronger_swordmaster,
)

GAMES = 300
SIM = ["simulate", "--decks", "imperial,highland", "--mode", "high-form", "--workers", "0"]
SIM += ["--policy", "random"]


def cli(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture(scope="module")
def loop(tmp_path_factory):
    """The designer's loop: copy the card files, change one card, study the original and the
    change with the same seed."""
    tmp = tmp_path_factory.mktemp("loop")
    cards = tmp / "my-cards"
    assert main(["cards", "copy", str(cards)]) == 0
    stronger_swordmaster(cards)
    base, changed = tmp / "base", tmp / "changed"
    common = [*SIM, "--games", GAMES, "--seed", 11]
    assert main([str(a) for a in [*common, "--out", base]]) == 0
    assert main([str(a) for a in [*common, "--content", cards, "--out", changed]]) == 0
    return {"tmp": tmp, "cards": cards, "base": base, "changed": changed}


def test_content_is_recorded(loop):
    m = read_manifest(loop["changed"])
    assert m["content_dir"] == str(loop["cards"].resolve())
    assert m["content_changes"]["changed"] == ["imperial/swordmaster"]
    assert m["content_changes"]["added"] == [] and m["content_changes"]["removed"] == []
    assert m["content_hash"] != read_manifest(loop["base"])["content_hash"]
    assert m["content"]["cards"]["imperial/swordmaster"]["pattern"][2] == "* . *"
    assert m["study"]["content"] == str(loop["cards"].resolve())
    f = next((loop["changed"] / "games").rglob("*.parquet"))
    md = {k.decode(): v.decode() for k, v in pq.read_schema(f).metadata.items()}
    assert md["kalarite.content_dir"] == str(loop["cards"].resolve())
    assert json.loads(md["kalarite.content_changes"])["changed"] == ["imperial/swordmaster"]
    base = read_manifest(loop["base"])
    assert base["content_dir"] is None and base["content_changes"] is None


def test_the_changed_card_is_played(loop):
    """The same seeds, other games: the change reached the engine (and only the designer's
    copy changed: the installed files are untouched)."""
    a = read_table(loop["base"], "games").sort_by("game_index")
    b = read_table(loop["changed"], "games").sort_by("game_index")
    assert a.column("seed").to_pylist() == b.column("seed").to_pylist()
    assert a.column("winner").to_pylist() != b.column("winner").to_pylist()
    installed = load_content_dir(None)
    assert "* c *" in installed.cards[installed.card_index("imperial/swordmaster")].pattern[2]


def test_compare_names_the_card_and_pairs_the_games(loop, capsys):
    html_dir = loop["tmp"] / "page"
    rc, out, err = cli(capsys, "compare", loop["base"], loop["changed"], "--html", html_dir)
    assert rc == 0, err
    assert "card imperial/swordmaster: pattern, description, ops changed" not in out
    assert "card imperial/swordmaster: pattern, ops changed" in out
    assert "    * c * | * c *\n" in out and "    * c * | * . *   <- changed\n" in out
    assert "    - destroy (optional) enemy common in diagonal" in out
    assert "    + destroy (optional) enemy non-legendary in diagonal" in out
    assert f"{GAMES:,} pairs of games" in out and "width ratio" in out
    assert out.rstrip().endswith(f"compare page -> {html_dir / 'index.html'}")
    page = (html_dir / "index.html").read_text()
    for needle in ("What changed", "imperial/swordmaster", "Paired analysis", "width ratio"):
        assert needle in page
    assert (html_dir / "compare.json").is_file() and list(html_dir.glob("paired-*.png"))
    # the significant differences come first, the most significant on top
    sig = page.split('<section id="significant">')[1].split("</section>")[0]
    first_row = sig.split("<tbody>")[1].split("</tr>")[0]
    assert "imperial/swordmaster" in first_row and "card played" in first_row
    assert page.index('id="significant"') < page.index('id="paired"') < page.index('id="tables"')
    # the default page goes beside B, named after A
    assert main(["compare", str(loop["base"]), str(loop["changed"])]) == 0
    assert (loop["changed"] / "compare-vs-base" / "index.html").is_file()


def test_paired_numbers_by_hand(loop):
    """The paired row of the matchup, recomputed from the games tables: per game the score
    share of imperial (seat 0: win 1, draw 1/2), the t interval of the differences, and the
    Welch interval of the two samples."""
    r = compare(loop["base"], loop["changed"])
    p = r["paired"]
    assert p["paired"] and p["pairs"] == GAMES
    (row,) = p["tables"]["matchups"]
    ga = read_table(loop["base"], "games").sort_by("game_index").to_pydict()
    gb = read_table(loop["changed"], "games").sort_by("game_index").to_pydict()

    def share(w):
        return np.array([0.5 if x < 0 else 1.0 if x == 0 else 0.0 for x in w])

    ya, yb = share(ga["winner"]), share(gb["winner"])
    d = yb - ya
    half = sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    assert row["diff"]["diff"] == pytest.approx(d.mean())
    assert row["diff"]["lo"] == pytest.approx(d.mean() - half)
    assert row["diff"]["hi"] == pytest.approx(d.mean() + half)
    assert row["diff"]["p_value"] == pytest.approx(sps.ttest_rel(yb, ya).pvalue)
    welch = sps.ttest_ind(yb, ya, equal_var=False).confidence_interval(0.95)
    assert row["diff"]["unpaired_lo"] == pytest.approx(welch.low)
    assert row["diff"]["unpaired_hi"] == pytest.approx(welch.high)
    # the games start alike, so they are positively correlated and the pairing helps
    assert row["diff"]["correlation"] > 0
    assert row["diff"]["width_ratio"] < 1
    assert row["diff"]["width_ratio"] == pytest.approx(2 * half / (welch.high - welch.low))
    (turns,) = p["tables"]["turns"]
    assert turns["diff"]["diff"] == pytest.approx(np.mean(gb["turns"]) - np.mean(ga["turns"]))


def test_compare_a_study_with_itself(loop, capsys):
    rc, out, err = cli(capsys, "compare", loop["base"], loop["base"])
    assert rc == 0 and err == ""
    assert "nothing to compare: A and B are the same dataset" in out
    assert "compare page" not in out


def test_a_variant_deck_beside_its_original(loop, capsys):
    """imperial-v2 (variant_of = "imperial") plays with imperial's seeds: compare maps it onto
    imperial by itself and pairs the games; a renamed deck without variant_of is mapped
    with --map but its games do not pair."""
    tmp = loop["tmp"]
    for name, variant in (("v2-cards", True), ("v3-cards", False)):
        d = tmp / name
        assert main(["cards", "copy", str(d)]) == 0
        deck = "imperial-v2" if variant else "imperial-v3"
        text = (d / "imperial.toml").read_text().replace('deck = "imperial"', f'deck = "{deck}"')
        if variant:
            text = text.replace(f'deck = "{deck}"', f'deck = "{deck}"\nvariant_of = "imperial"')
        (d / f"{deck}.toml").write_text(text)
        stronger_swordmaster(d, f"{deck}.toml")
        args = [*SIM[:2], f"{deck},highland", *SIM[3:], "--games", GAMES, "--seed", 11]
        assert main([str(a) for a in [*args, "--content", d, "--out", tmp / deck]]) == 0
    a = read_table(loop["base"], "games").sort_by("game_index")
    v2 = read_table(tmp / "imperial-v2", "games").sort_by("game_index")
    v3 = read_table(tmp / "imperial-v3", "games").sort_by("game_index")
    assert a.column("seed")[0] == v2.column("seed")[0] != v3.column("seed")[0]
    # the variant plays exactly the changed study's games (same cards, same seeds)
    ch = read_table(loop["changed"], "games").sort_by("game_index")
    assert v2.column("winner").equals(ch.column("winner"))

    r = compare(loop["base"], tmp / "imperial-v2")
    assert r["changes"]["deck_map"] == {"imperial-v2": "imperial"}
    (card,) = r["changes"]["content"]["cards_changed"]
    assert (card["card"], card["card_b"]) == ("imperial/swordmaster", "imperial-v2/swordmaster")
    assert r["paired"]["pairs"] == GAMES
    assert [row["key"][2:] for row in r["tables"]["matchups"]] == [["imperial", "highland"]]
    text = format_text(r)
    assert "decks of B read as A's: imperial-v2 = imperial" in text
    assert "card imperial/swordmaster -> imperial-v2/swordmaster: pattern, ops changed" in text

    rc, out, err = cli(capsys, "compare", loop["base"], tmp / "imperial-v3")
    assert rc == 0 and "decks: only in A: imperial; only in B: imperial-v3" in out
    assert "no deck matchup in common" in out and "--map VARIANT=ORIGINAL" in out
    rc, out, err = cli(
        capsys, "compare", loop["base"], tmp / "imperial-v3", "--map", "imperial-v3=imperial"
    )
    assert rc == 0, err
    assert "not paired: no game of B was dealt from the same seed" in out
    rc, out, err = cli(capsys, "compare", loop["base"], tmp / "imperial-v3", "--map", "x=nope")
    assert rc == 2 and "A has no deck 'nope'" in err
    rc, out, err = cli(capsys, "compare", loop["base"], tmp / "imperial-v3", "--map", "oops")
    assert rc == 2 and "VARIANT=ORIGINAL" in err


def test_content_in_a_spec_and_bad_content(loop, tmp_path, capsys):
    spec = loop["tmp"] / "spec.toml"
    spec.write_text('decks = [["imperial", "highland"]]\ngames = 5\ncontent = "my-cards"\n')
    study = load_study(spec)
    assert study.content == str(loop["cards"].resolve())
    assert study.to_dict()["content"] == study.content
    out = tmp_path / "x"
    rc, o, e = cli(capsys, *SIM, "--games", 3, "--content", tmp_path / "nope", "--out", out)
    assert rc == 2 and "is not a directory of card files" in e and not out.exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ContentError, match="lacks board.toml"):
        load_content_dir(empty)
    rc, o, e = cli(capsys, "cards", "copy", loop["cards"])
    assert rc == 2 and "not an empty directory" in e
    bad = tmp_path / "bad"
    assert main(["cards", "copy", str(bad)]) == 0
    (bad / "x.toml").write_text(
        'deck = "x"\nvariant_of = "atlantis"\n'
        + ((bad / "imperial.toml").read_text().split('title = "Imperial"', 1)[1])
    )
    with pytest.raises(ContentError, match="'variant_of' must name another deck"):
        load_content_dir(bad)
