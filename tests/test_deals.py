"""Same deals for every player (sim.study ``deals``): a new study deals game i of a matchup
alike whatever the players; a dataset started before the key resumes with the seeds it was
started with; mirror matches are optional; and the stability rule pairs the games of a study
whose players share deals."""

import json

import pytest

from cluster.runner import run_study
from results import analysis
from results.store import MANIFEST, read_table, stored_deals
from sim.content import load_content
from sim.study import canonical_spec, matchup_seed, seed_policy, study_from_dict

CONTENT = load_content()
SPEC = {
    "decks": ["imperial", "highland", "sylvan"],
    "modes": ["high-form"],
    "policies": [["random"], ["greedy"]],
    "games": 6,
    "seed": 11,
}


def study(**changes):
    return study_from_dict({**SPEC, **changes}, CONTENT)


def seeds(s) -> dict:
    return {(m.mode, m.decks, m.policies): m.seed for m in s.matchups()}


def test_shared_deals_name_no_player():
    """Game i of a matchup is dealt alike for every player: the matchup seed is a hash of
    (study seed, mode, seat decks) alone, so the random and the greedy player's games of one
    pairing share seeds; per player (every study before the key) they differ."""
    new = seeds(study())
    by_decks = {}
    for (mode, decks, _), seed in new.items():
        by_decks.setdefault((mode, decks), set()).add(seed)
    assert all(len(s) == 1 for s in by_decks.values()) and len(by_decks) == 6
    assert len(set(new.values())) == 6  # each pairing its own deals
    for (mode, decks, _), seed in new.items():
        assert seed == matchup_seed(11, mode, list(decks))
    old = seeds(study(deals="per-player"))
    for (mode, decks, pols), seed in old.items():
        assert seed == matchup_seed(11, mode, list(decks), [seed_policy(p) for p in pols])
    assert set(old.values()).isdisjoint(new.values())


def test_the_scheme_is_in_the_spec_identity():
    """to_dict names the scheme; a stored spec without it (before the key) reads as
    per-player, so an old dataset and a per-player spec are the same study."""
    assert study().to_dict()["deals"] == "shared"
    old = study(deals="per-player").to_dict()
    assert old["deals"] == "per-player"
    before_the_key = {k: v for k, v in old.items() if k != "deals"}
    assert canonical_spec(before_the_key) == old
    assert canonical_spec(before_the_key) != study().to_dict()
    assert study().deals_given is False and study(deals="shared").deals_given is True


def test_content_variants_are_dealt_alike():
    """A variant deck of a designer's copy seeds as its original (``seed_names``; kalarite
    suggest relies on it, tests/test_variants.py plays it): the deal never names the
    content."""
    s = study()
    s.seed_names = {"imperial": "imperial-v2"}
    moved = {k for k, v in seeds(s).items() if v != seeds(study())[k]}
    assert moved and all("imperial" in decks for _, decks, _ in moved)
    s.seed_names = {"imperial": "imperial"}
    assert seeds(s) == seeds(study())


def test_mirrors_false_leaves_out_a_deck_against_itself():
    both = study_from_dict({**SPEC, "policies": "random"}, CONTENT)
    none = study_from_dict({**SPEC, "policies": "random", "mirrors": False}, CONTENT)
    assert any(len(set(d)) == 1 for d in both.decks)
    assert none.decks == [d for d in both.decks if len(set(d)) > 1]
    assert none.to_dict()["mirrors"] is False and "mirrors" not in both.to_dict()
    # the new-player rules keep their two Imperial decks: they are that mode
    np_ = study_from_dict(
        {**SPEC, "policies": "random", "mirrors": False, "modes": ["new-player"]}, CONTENT
    )
    assert np_.decks == [("imperial", "imperial")]


def _rows(out):
    t = read_table(out, "games").to_pandas()
    t = t.drop(columns=[c for c in t.columns if c in ("matchup", "policies", "mode")])
    return t.sort_values(list(t.columns)).reset_index(drop=True)


def test_an_old_dataset_resumes_with_its_own_seeds(tmp_path):
    """A dataset started per player (its manifest from before the key: no ``deals``) and
    interrupted resumes per player when the spec names no scheme: the same rows as the study
    played per player in one go, not the shared deals a new study gets."""
    ref = tmp_path / "ref"
    run_study(study(deals="per-player"), CONTENT, ref, workers=0, chunk_size=2, progress=False)
    old = tmp_path / "old"
    run_study(study(deals="per-player"), CONTENT, old, workers=0, chunk_size=2, progress=False)
    m = json.loads((old / MANIFEST).read_text())
    del m["study"]["deals"], m["deals"]
    m["status"] = "interrupted"
    (old / MANIFEST).write_text(json.dumps(m))
    lost = sorted((old / "games").rglob("part-*.parquet"))[:3]
    for p in lost:  # three chunks never played
        for t in ("games", "card_events", "task_claims"):
            q = old / t / p.relative_to(old / "games")
            q.unlink(missing_ok=True)
    assert stored_deals(old) == "per-player"
    summary = run_study(study(), CONTENT, old, workers=0, chunk_size=2, progress=False)
    assert summary.games_played == 6 and summary.games_skipped == 66
    assert _rows(old).equals(_rows(ref))
    assert json.loads((old / MANIFEST).read_text())["deals"] == "per-player"
    # a spec that names the new scheme is another study: refused, nothing changed
    from results.store import StoreError

    with pytest.raises(StoreError, match="study spec differs"):
        run_study(study(deals="shared"), CONTENT, old, workers=0, progress=False)
    # a new dataset of the same spec is dealt alike for both players
    new = tmp_path / "new"
    run_study(study(), CONTENT, new, workers=0, progress=False)
    assert json.loads((new / MANIFEST).read_text())["deals"] == "shared"
    g = read_table(new, "games").to_pandas()
    per = g.groupby(["seat0_deck", "seat1_deck", "game_index"])["seed"].nunique()
    assert (per == 1).all() and set(g["seed"]).isdisjoint(set(_rows(ref)["seed"]))


def test_two_players_on_shared_deals_are_compared_game_by_game(tmp_path):
    """One study of two players in self-play, dealt alike: the stability rule pairs every
    pairing's games (same mode, seat decks, game index and seed)."""
    out = tmp_path / "s"
    s = study(mirrors=False)
    run_study(s, CONTENT, out, workers=0, progress=False)
    summary = analysis.analyze(out)
    (c,) = summary["stability"]["modes"]["high-form"]["comparisons"]
    assert c["paired_pairings"] == c["pairings"] == 3
    per_player = tmp_path / "p"
    run_study(study(mirrors=False, deals="per-player"), CONTENT, per_player, workers=0)
    (c,) = analysis.analyze(per_player)["stability"]["modes"]["high-form"]["comparisons"]
    assert c["paired_pairings"] == 0
