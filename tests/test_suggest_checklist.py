"""The trust checklist's decisions (results/suggest/checklist.py), each made with an interval:
the players' agreement (same sign, their difference inside the stability margin by an
equivalence test), the tie-breakers, collateral damage and the mechanic's competence gap; and
the two strongest players the confirmation uses."""

from results.suggest import checklist as cl
from sim.suggest.goal import Goal

GOAL = Goal("everfrost", band=(0.45, 0.55))


def _eff(e, half):
    return {"effect": e, "lo": e - half, "hi": e + half}


def test_agreement_is_an_equivalence_test():
    players = ["sage", "planner"]
    ok = cl._agreement({"sage": _eff(0.04, 0.01), "planner": _eff(0.045, 0.01)}, players)
    assert ok["ok"] is True and "they agree" in ok["text"]
    wide = cl._agreement({"sage": _eff(0.04, 0.03), "planner": _eff(0.045, 0.035)}, players)
    assert wide["ok"] is None and "undetermined" in wide["text"]  # same points, wide intervals
    far = cl._agreement({"sage": _eff(0.02, 0.005), "planner": _eff(0.12, 0.005)}, players)
    assert far["ok"] is False
    opposite = cl._agreement({"sage": _eff(0.03, 0.01), "planner": _eff(-0.03, 0.01)}, players)
    assert opposite["ok"] is False and "they disagree" in opposite["text"]


def _cell(mode, opp, effect, p_holm, weight=1, projected=0.5):
    return {"mode": mode, "opponent": opp, "effect": effect, "lo": effect - 0.02,
            "hi": effect + 0.02, "p_holm": p_holm, "weight": weight, "projected": projected,
            "projected_lo": projected - 0.03, "projected_hi": projected + 0.03}  # fmt: skip


def test_collateral_damage():
    res = {"cells": [_cell("high-form", "imperial", 0.05, 0.01),
                     _cell("high-form", "sylvan", -0.01, 0.6)]}  # fmt: skip
    assert cl._collateral(GOAL, res)["ok"] is True
    res["cells"].append(_cell("deathmatch", "sylvan", -0.06, 0.01))
    bad = cl._collateral(GOAL, res)
    assert bad["ok"] is False and "deathmatch against sylvan" in bad["text"]
    floor = Goal("everfrost", kind="matchup-floor", band=(0.4, 0.6))
    res = {"cells": [_cell("high-form", "imperial", 0.0, 1.0, weight=0, projected=0.3)]}
    assert cl._collateral(floor, res)["ok"] is False  # a matchup left alone fell below it


def test_competence_item():
    frozen = {"card_table": {"frozen": [{"op": "upgrade"}]}}
    plain = {"card_table": {"effect": []}}
    assert cl._competence_item(GOAL, plain, None, [])["ok"] is None
    assert "no `kalarite competence`" in cl._competence_item(GOAL, frozen, None, [])["text"]
    rows = [{"player": "sage", "mode": "high-form", "gap": 0.15, "lo": 0.08, "hi": 0.22,
             "flagged": False}]  # fmt: skip
    assert cl._competence_item(GOAL, frozen, rows, [])["ok"] is True
    rows[0] |= {"gap": 0.01, "lo": -0.05, "hi": 0.07, "flagged": True}
    item = cl._competence_item(GOAL, frozen, rows, [])
    assert item["ok"] is False and "player problem" in item["text"]
