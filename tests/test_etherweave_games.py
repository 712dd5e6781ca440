"""Etherweave in random games: proof that random play reaches the deck's mechanics with no
escape hatch (every deck and mode under the invariant checker: tests/test_contract.py)."""

from core import constants as K
from sim.content import load_content
from sim.single_game import GameConfig, play_logged

CONTENT = load_content()
EW = "etherweave"


def test_random_play_reaches_the_etherweave_mechanics():
    """Random play warps, swaps, discards the pending being, plays the extra count, pays the
    causality penalty, chooses a Singularity square, copies warps, takes a piece into stasis
    and brings it back (a Warpmaster returning a pending being
    is too rare here: tests/test_warp.py covers it)."""
    seen = set()
    penalties = 0
    for g in range(60):
        cfg = GameConfig(decks=[EW, "highland"], mode="deathmatch", seed=7, game_index=g)
        _, ev = play_logged(CONTENT, cfg)
        seen |= set(ev[:, 0].tolist())
        penalties += int(((ev[:, 0] == K.EV_SCORE) & (ev[:, 4] == K.SR_PENALTY)).sum())
    for kind in (
        K.EV_WARP,
        K.EV_SWAP,
        K.EV_DISCARD_PENDING,
        K.EV_EXTRA_COUNT,
        K.EV_SELECT_SQUARE,
        K.EV_EFFECT_DISCARD,
        K.EV_COPY_WARP,
        K.EV_CAPTURE,
        K.EV_RELEASE,
        K.EV_VOID_SUMMON,
        K.EV_TOP_CARD_TO_DECK,
    ):
        assert kind in seen, K.EV_NAMES[kind]
    assert penalties > 0


def test_all_decks_in_a_study_are_the_dealable_ones():
    from sim.study import dealable_decks

    assert EW in dealable_decks(CONTENT, False)
    assert dealable_decks(CONTENT, False) == list(CONTENT.decks)
    assert dealable_decks(CONTENT, True) == list(CONTENT.decks)
