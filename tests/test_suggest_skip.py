"""The exact skip of `kalarite suggest` (sim/suggest/skip.py), against played games: for
every player it is enabled for, an edit of each kind, played on the base's deals, leaves
every game in which seat 0 never drew the edited card exactly as the base played it; and the
pairing it rests on: a variant content directory is dealt the base's games (the deal seed
depends on the study seed, the matchup's deck names and seat players, and the game index,
never on card content), also as a variant deck beside the original."""

import numpy as np
import pytest

from core.kernel import play
from core.rows import CE_DRAWN
from sim.content import load_content
from sim.games import batch
from sim.study import study_from_dict
from sim.suggest.grammar import deck_edits
from sim.suggest.skip import SKIP_EXACT_PLAYERS, skip_exact
from sim.suggest.variants import write_candidates, write_race_content

GAMES = 24
DECKS = {"everfrost": "imperial", "etherweave": "sylvan"}


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    """One edit of every kind (and of both directions) of Everfrost and Etherweave."""
    out = {}
    for deck in DECKS:
        picked = {}
        for e, card in deck_edits(load_content_data(deck)):
            picked.setdefault((e.kind, e.direction), (e, card))
        cands, _ = write_candidates(None, deck, list(picked.values()),
                                    tmp_path_factory.mktemp(deck))  # fmt: skip
        out[deck] = cands
    return out


def load_content_data(deck):
    import tomllib

    from sim.content import DATA_DIR
    from sim.suggest.variants import deck_files

    return tomllib.loads(deck_files(DATA_DIR)[deck].read_text())


def _play(content, deck, opp, mode, player, seed=77, n=GAMES):
    """(rows, card events) of games 0 .. n - 1 of one matchup under ``content``."""
    out = play(batch(content, mode, (deck, opp), (player, player), seed), 0, n, ev_rows=4000)
    return out.rows, out.card_events


def _undrawn_identical(base, variants_, deck, player):
    """(games without the card, of them identical, edits tried) over both modes."""
    opp = DECKS[deck]
    undrawn = same = 0
    for mode in ("high-form", "deathmatch"):
        rb, cb = _play(base, deck, opp, mode, player)
        for c in variants_:
            load_content.cache_clear()
            vc = load_content(c.content_dir)
            load_content.cache_clear()
            rv, _ = _play(vc, deck, opp, mode, player)
            ci = base.card_index(c.edit.card)
            drawn = set(cb[(cb[:, 3] == CE_DRAWN) & (cb[:, 2] == ci) & (cb[:, 1] == 0), 0])
            for g in range(GAMES):
                if g not in drawn:
                    undrawn += 1
                    same += bool(np.array_equal(rb[g], rv[g]))
    return undrawn, same


@pytest.mark.parametrize("player", SKIP_EXACT_PLAYERS)
@pytest.mark.parametrize("deck", list(DECKS))
def test_games_without_the_edited_card_are_unchanged(variants, player, deck):
    assert skip_exact(player)
    base = load_content()
    undrawn, same = _undrawn_identical(base, variants[deck], deck, player)
    assert undrawn >= 20, "too few games without the card to test the rule"
    assert same == undrawn


def test_the_skip_is_off_where_it_does_not_hold(variants):
    """The sage's learned features count the opponent's summonable cards over hand and deck
    pooled: an undrawn card's pattern changes its play, so the rule is off for it (and for
    mc, which deals hidden hands from the unseen cards)."""
    assert not skip_exact("sage") and not skip_exact("mc") and not skip_exact("random")
    assert skip_exact("planner:width=4") and skip_exact("greedy-tuned")
    base = load_content()
    pattern = [c for c in variants["everfrost"] if c.edit.kind.startswith("pattern")]
    undrawn, same = _undrawn_identical(base, pattern, "everfrost", "sage")
    assert undrawn > 0 and same < undrawn


def test_a_variant_is_dealt_the_base_games(variants, tmp_path):
    """The same study over the base content, a variant content directory, and the variant
    as a deck of a race content (variant_of): the same matchup seeds; the variant deck plays
    the very games of its own directory."""
    base = load_content()
    c = variants["everfrost"][0]
    load_content.cache_clear()
    own = load_content(c.content_dir)
    rc_dir = write_race_content(None, "everfrost", [c], tmp_path / "race")
    race = load_content(str(rc_dir))
    load_content.cache_clear()
    spec = {"decks": [["everfrost", "imperial"]], "modes": ["high-form", "deathmatch"],
            "policies": "planner", "games": 10, "seed": 4}  # fmt: skip
    a = study_from_dict(dict(spec), base).matchups()
    b = study_from_dict(dict(spec), own).matchups()
    v = study_from_dict(spec | {"decks": [[f"everfrost-{c.cid}", "imperial"]]}, race).matchups()
    assert [m.seed for m in a] == [m.seed for m in b] == [m.seed for m in v]
    for mode in ("high-form", "deathmatch"):
        r_own = _play(own, "everfrost", "imperial", mode, "planner", n=8)[0]
        r_var = _play(race, f"everfrost-{c.cid}", "imperial", mode, "planner", n=8)[0]
        r_base_in_race = _play(race, "everfrost", "imperial", mode, "planner", n=8)[0]
        r_base = _play(base, "everfrost", "imperial", mode, "planner", n=8)[0]
        assert np.array_equal(r_own, r_var)
        assert np.array_equal(r_base, r_base_in_race)
