"""The shared statistics every caller uses: a game's win share (``results.stats.win_share``,
in Python and in SQL) and Holm's adjustment (``results.stats.holm``) as suggest's effects
read it."""

import duckdb
import numpy as np
import pytest

from results import stats
from results.suggest.effects import Pairs, per_cell

WINNERS = [-1, 0, 1, 0, -1, 1]


@pytest.mark.parametrize("seat", [0, 1])
def test_win_share_scores_a_win_one_a_shared_win_half_a_loss_zero(seat):
    expected = [0.5 if w < 0 else (1.0 if w == seat else 0.0) for w in WINNERS]
    assert [stats.win_share(w, seat) for w in WINNERS] == expected
    assert [stats.win_share(np.int32(w), seat) for w in WINNERS] == expected
    assert isinstance(stats.win_share(WINNERS[0], seat), float)
    assert stats.win_share(np.array(WINNERS), seat).tolist() == expected


def test_the_sql_win_share_agrees_with_the_python_one():
    con = duckdb.connect()
    con.execute("CREATE TABLE g (winner INTEGER, first_seat INTEGER)")
    firsts = [0, 1, 1, 0, 1, 0]
    con.executemany("INSERT INTO g VALUES (?, ?)", list(zip(WINNERS, firsts, strict=True)))
    got = con.execute(
        f"SELECT {stats.win_share_sql('0')}, {stats.win_share_sql('first_seat')} FROM g"
    ).fetchall()
    want = [
        (stats.win_share(w, 0), stats.win_share(w, f)) for w, f in zip(WINNERS, firsts, strict=True)
    ]
    assert got == want


def test_holm_is_the_step_down_adjustment():
    """Sorted p (0.01, 0.02, 0.04) of 3 tests: 3*0.01, max(that, 2*0.02), max(that, 1*0.04);
    capped at 1; None stays None."""
    assert stats.holm([0.04, 0.01, None, 0.02]) == pytest.approx([0.04, 0.03, None, 0.04])
    assert stats.holm([0.6, 0.5]) == [1.0, 1.0]


def test_suggest_effects_adjust_their_cells_with_holm():
    rng = np.random.default_rng(7)
    cells = [("high-form", f"deck{i}") for i in range(4)]
    base = {c: rng.choice([0.0, 0.5, 1.0], 30) for c in cells}
    cand = {
        c: np.clip(base[c] + rng.choice([0.0, 0.5, 1.0], 30) * (i % 2), 0, 1)
        for i, c in enumerate(cells)
    }
    rows = per_cell(Pairs(cells=cells, base=base, cand=cand))
    assert [r["p_holm"] for r in rows] == pytest.approx(stats.holm([r["p"] for r in rows]))
    assert all(r["p"] <= r["p_holm"] <= 1.0 for r in rows)
