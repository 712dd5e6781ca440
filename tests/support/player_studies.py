"""Synthetic studies of several players over the same deck pairings with known win rates
(``study``), for the stability, compare and wording tests: ``BASE`` is the pairing rates of
a field with one favoured deck, ``with_rates`` changes some of them."""

import zlib

from tests.support.datasets import game_row, write_dataset

N = 300  # games per deck pairing and player: 900 per deck against the field


# seat-0 deck's chance to win each pairing (the other deck wins the rest). Against the field:
# imperial 75.0% (favoured), highland 48.3% (even), sylvan 38.3%, everfrost 38.3% (disfavoured)
BASE = {
    ("imperial", "highland"): 0.75,
    ("imperial", "sylvan"): 0.75,
    ("imperial", "everfrost"): 0.75,
    ("highland", "sylvan"): 0.60,
    ("highland", "everfrost"): 0.60,
    ("sylvan", "everfrost"): 0.50,
}


def matchup_seed(player, a, b, shared) -> int:
    """A matchup's seed: the same for every player when ``shared`` (the same deals)."""
    key = f"{a}-{b}" if shared else f"{player}/{a}-{b}"
    return zlib.crc32(key.encode())


def player_games(player, rates, n, opponent=None, shared=False):
    """n games of every deck pairing, seat 0's deck winning the first rate * n of them."""
    games = []
    for (a, b), p in rates.items():
        for k in range(n):
            w = 0 if k < round(p * n) else 1
            games.append(
                game_row(
                    "high-form",
                    (a, b),
                    (player, opponent or player),
                    k,
                    w,
                    seed=matchup_seed(f"{player}/{opponent}", a, b, shared),
                    end_reason="score",
                    seat0_score=9 if w == 0 else 4,
                    seat1_score=9 if w else 4,
                )
            )
    return games


def study(root, per_player: dict, cross=None, n=N, shared=False):
    """A self-play study of each player (in the order given: weakest first) with its deck
    pairing rates; ``cross``: (player, opponent, rate of the player) head-to-head games;
    ``shared``: every player is dealt the same games (equal seeds)."""
    games = []
    for player, rates in per_player.items():
        games += player_games(player, rates, n, shared=shared)
    if cross:
        p, q, rate = cross
        games += player_games(p, dict.fromkeys(BASE, rate), n, opponent=q)
    return write_dataset(root, games)


def with_rates(**changes):
    """BASE with some pairings changed (keys 'a__b')."""
    out = dict(BASE)
    for k, v in changes.items():
        out[tuple(k.split("__"))] = v
    return out


IMPERIAL_UP_12 = with_rates(
    imperial__highland=0.87, imperial__sylvan=0.87, imperial__everfrost=0.87
)


def with_rates(**changes):
    """BASE with some pairings changed (keys 'a__b')."""
    out = dict(BASE)
    for k, v in changes.items():
        out[tuple(k.split("__"))] = v
    return out
