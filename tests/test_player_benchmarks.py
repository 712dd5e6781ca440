"""benchmarks.duel and benchmarks.pending on tiny runs: what they count adds up, a duel file
resumes, and a player against itself scores one half on mirrored deals."""

import json

from benchmarks import duel, pending


def test_a_duel_counts_every_deal_from_both_sides(tmp_path):
    out = tmp_path / "d.json"
    decks = ["imperial", "etherweave"]
    r = duel.run("planner:width=2", "greedy", 1, seed=3, decks=decks, out=out)
    for mode in duel.MODES:
        m = r["modes"][mode]
        assert m["pairings"] == 4 and m["games"] == 8  # 4 ordered pairings x 2 seats x 1 deal
        lo, hi = m["score_interval"]
        assert 0 <= lo <= m["score"] <= hi <= 1
        assert sum(m["end_reasons"].values()) == 8
        assert m["pending_end_player"]["games"] == m["pending_end_against"]["games"] == 4
        assert 0 <= m["tied_on_points"] <= 8
    saved = json.loads(out.read_text())
    assert saved["modes"] == r["modes"] and len(saved["cells"]) == 8
    again = duel.run("planner:width=2", "greedy", 1, seed=3, decks=decks, out=out)
    assert again["modes"] == r["modes"]  # resumed from the file: nothing played twice
    mirror = duel.run("greedy", "greedy", 1, seed=3, decks=["sylvan", "highland"])
    for mode in duel.MODES:  # each deal from both sides: exactly one half
        assert mirror["modes"][mode]["score"] == 0.5


def test_pending_beings_are_counted_by_when_they_were_warped(tmp_path):
    out = tmp_path / "p.json"
    r = pending.run("random", 1, seed=2, out=out)
    assert json.loads(out.read_text()) == r
    for mode in pending.MODES:
        m = r["modes"][mode]
        assert m["games"] == 10  # five other decks x two seats
        assert sum(m["own_turns_after_last_warp"].values()) <= m["pending_at_end"] <= 10
        lo, hi = m["pending_interval"]
        assert lo <= m["pending_share"] <= hi
