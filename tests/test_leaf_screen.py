"""The planner's leaf screen (``leaf_top``, issue 46 item 4): of a position's options that
end the turn only the N best by the hand-set evaluation get the leaf value, each exactly
the value the full scoring gives it, the others are dropped; the beam is untouched, so the
screened search's best plan is one the full search found and is worth no more than its
best. Off (0) it is not used at all: tests/test_golden.py and ``benchmarks.same_games``."""

import functools

import numpy as np
import pytest

from core.kernel import workspace
from core.layout import CUR
from core.players.greedy import KEYS_ALL, ST_OVER, score_options
from core.players.params import PP_ENDGAME, PP_LEAF_TOP
from core.players.planner import F_FINALS, best_final, leaf_screen, search
from core.players.restrict import FORBIDDEN, NO_BAN
from core.players.weights import N_WEIGHTS
from tests.support.harness import player_rows
from tests.support.players import T, decision_options, positions

DUELS = [("high-form", ("imperial", "highland")), ("deathmatch", ("nethervoid", "everfrost"))]


@functools.cache
def _seer_positions(mode, decks):
    """Decisions of a seer self-play game (read-only: the tests copy what they change)."""
    return tuple(positions(mode, decks, specs=("seer", "seer"), games=1, every=2, cap=50))


def _scores(s, row, at_end, work, wopts, ev0, fwork):
    """(values, statuses) of every option of ``s`` by the seer's scoring."""
    n = decision_options(s, wopts[2])
    vals, stat = fwork[1], fwork[2]
    score_options(
        s, T, wopts[2], n, row[:N_WEIGHTS], s[CUR], vals, stat, fwork[3], KEYS_ALL, work, wopts,
        ev0, fwork, row, at_end, row[PP_ENDGAME] != 0,
    )  # fmt: skip
    return n, vals[:n].copy(), stat[:n].copy()


@pytest.mark.parametrize("mode,decks", DUELS)
@pytest.mark.parametrize("top", [1, 3])
def test_the_screen_keeps_the_n_best_finished_options_at_their_full_values(mode, decks, top):
    _, params = player_rows(["seer", "seer"])
    work, wopts, ev0, fwork = workspace()
    pruned = 0
    for s in _seer_positions(mode, decks):
        row = params[int(s[CUR])]
        n, full, stat = _scores(s, row, True, work, wopts, ev0, fwork)
        _, cheap, cheap_stat = _scores(s, row, False, work, wopts, ev0, fwork)
        assert np.array_equal(stat, cheap_stat)
        vals, st = fwork[1], fwork[2]
        leaf_screen(s, T, wopts[2], n, vals, st, top, s[CUR], row, row[PP_ENDGAME] != 0, work,
                    wopts, ev0, fwork)  # fmt: skip
        finished = [k for k in range(n) if stat[k] == ST_OVER]
        # the N best by the hand-set value, the first found among equals
        best = sorted(finished, key=lambda k: (-cheap[k], k))[:top]
        for k in range(n):
            if stat[k] != ST_OVER:
                assert vals[k] == cheap[k] == full[k] and st[k] == stat[k]
            elif k in best:
                assert vals[k] == full[k] and st[k] == ST_OVER  # the leaf, bit for bit
            else:
                assert vals[k] == FORBIDDEN and st[k] == ST_OVER
        pruned += len(finished) > top
    assert pruned >= 5  # positions where it dropped options


@pytest.mark.parametrize("mode,decks", DUELS)
def test_the_screened_search_picks_a_plan_of_the_full_search(mode, decks):
    _, params = player_rows(["seer", "seer"])
    states = _seer_positions(mode, decks)[::2]
    work, wopts, ev0, fwork = workspace()
    differ = 0
    for s in states:
        row = params[int(s[CUR])]
        n = decision_options(s, wopts[2])
        opts = wopts[2].copy()
        best = []
        for top in (0, 2):
            screened = row.copy()
            screened[PP_LEAF_TOP] = top
            count = search(s, T, opts, n, screened, work, wopts, ev0, fwork, 8, NO_BAN, 0, 1)
            pick = best_final(work, fwork, 0, count) if count else -1
            best.append(fwork[F_FINALS, pick] if pick >= 0 else None)
        if best[0] is None:
            assert best[1] is None
            continue
        assert best[1] <= best[0]  # the screen only drops finished plans
        differ += best[1] < best[0]
    print("decisions whose best plan the screen dropped:", differ, "of", len(states))
