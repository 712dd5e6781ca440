"""Play until decided (results/looks.py, cluster/until.py, ``kalarite study --until``): the
doubling looks and the error spent over them, the coverage of the reported intervals under
the looks (simulation, through the rule's own functions), and real studies that stop at the
same look with the same figures with 0, 1 and 2 workers and after a kill -9 and resume."""

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
from scipy.stats import norm

from cluster.runner import run_study
from results import looks
from results.analysis import analyze, deck_moves
from results.analysis import stability as st
from results.store import read_manifest
from sim.content import load_content
from sim.study import StudyError, study_from_dict
from tests.support.service import wait_for

CONTENT = load_content()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --- the plan and the spending ---------------------------------------------------------------


def test_looks_double_up_to_the_cap():
    assert looks.plan(1600) == [200, 400, 800, 1600]
    assert looks.plan(1000) == [125, 250, 500, 1000]
    assert looks.plan(999) == [125, 250, 500, 999]
    assert looks.plan(20) == [10, 20]  # the first look at least MIN_FIRST_LOOK games
    assert looks.plan(5) == [5]


def test_the_error_is_spent_obrien_fleming_shaped_and_sums_to_alpha():
    sizes = looks.plan(1600)
    a = looks.spent(sizes)
    assert sum(a) == pytest.approx(st.ALPHA, abs=1e-15)
    assert all(x > 0 for x in a) and a == sorted(a)  # little early, most at the cap
    half = 2 - 2 * norm.cdf(norm.ppf(1 - st.ALPHA / 2) / np.sqrt(0.5))  # Lan-DeMets at t = 1/2
    assert a[0] + a[1] + a[2] == pytest.approx(half)
    assert a[0] < 1e-6 and a[-1] > 0.04


# --- coverage of the reported intervals, in simulation --------------------------------------

PROBS = np.array(  # a six-deck matrix of win probabilities (row deck against column deck)
    [
        [0.5, 0.52, 0.48, 0.66, 0.70, 0.51],
        [0.48, 0.5, 0.49, 0.67, 0.69, 0.50],
        [0.52, 0.51, 0.5, 0.68, 0.72, 0.53],
        [0.34, 0.33, 0.32, 0.5, 0.52, 0.35],
        [0.30, 0.31, 0.28, 0.48, 0.5, 0.33],
        [0.49, 0.50, 0.47, 0.65, 0.67, 0.5],
    ]
)


def _field(p):
    """Each deck's true win rate against the field (equal games per pairing)."""
    k = len(p)
    return np.array([np.mean([p[i, j] for j in range(k) if j != i]) for i in range(k)])


def _games(p, n, rng, reps):
    """Win tables of ``reps`` studies of ``n`` games per pairing."""
    k = len(p)
    w = np.zeros((reps, k, k))
    for i in range(k):
        for j in range(i + 1, k):
            a = rng.binomial(n, p[i, j], size=reps)
            w[:, i, j], w[:, j, i] = a, n - a
    return w


def _sequential(pa, pb, cap, reps, seed):
    """``reps`` studies played --until decided: games of each look added to the last (the
    same games, contiguous), the rule at each look's share of the error, stopping at the
    first look that decides. Returns the moves and 95%-at-the-look intervals reported."""
    rng = np.random.default_rng(seed)
    sizes = looks.plan(cap)
    shares = looks.spent(sizes)
    wa, wb = np.zeros((reps, 6, 6)), np.zeros((reps, 6, 6))
    done = np.zeros(reps, bool)
    lo, hi, stop = np.zeros((reps, 6)), np.zeros((reps, 6)), np.zeros(reps, int)
    prev = 0
    for k, (g, alpha) in enumerate(zip(sizes, shares, strict=True)):
        wa += _games(pa, g - prev, rng, reps)
        wb += _games(pb, g - prev, rng, reps)
        prev = g
        t = np.zeros_like(wa)
        delta, se, games, cc = st.rule_inputs(deck_moves.moves(wa, t, wb, t))
        for r in np.flatnonzero(~done):
            rule = st.decide(delta[r], se[r], games[r], st.MARGIN_POINTS, alpha, cc[r])
            if rule["verdict"] != st.UNDETERMINED or k == len(sizes) - 1:
                done[r] = True
                lo[r], hi[r], stop[r] = rule["lo95"], rule["hi95"], k
    return lo, hi, stop


@pytest.mark.parametrize("planted", [0.0, 8.0])
def test_intervals_cover_under_the_looks(planted):
    """Identical players, and one deck moved +8 points: at whichever look the study stops,
    each deck's reported interval covers its true move at least 95% of the time."""
    pb = PROBS.copy()
    if planted:  # deck 3 gains about 8 points against every other deck
        pb[3, :] = np.where(np.arange(6) == 3, 0.5, PROBS[3, :] + planted / 100)
        pb[:, 3] = 1 - pb[3, :]
    truth = 100 * (_field(pb) - _field(PROBS))
    lo, hi, stop = _sequential(PROBS, pb, 400, 1500, 17 + int(planted))
    covered = (lo <= truth) & (truth <= hi)
    # 1,500 studies: a coverage of 95% is measured to within about +-1.1 points (2 SE)
    assert covered.mean(axis=0).min() >= 0.95 - 0.011, covered.mean(axis=0)
    if planted:  # the early looks are exercised: a fifth of the studies stop before the cap
        assert (stop < len(looks.plan(400)) - 1).mean() > 0.1


def test_width_intervals_cover_under_the_looks():
    """--until width=W: each deck's win rate against the field, its interval at the look's
    share of the error, covers the true rate at least 95% of the time at the stop."""
    rng = np.random.default_rng(3)
    reps, cap, w_stop = 1500, 400, 14.0
    sizes, shares = looks.plan(cap), looks.spent(looks.plan(cap))
    truth = _field(PROBS)
    wins = np.zeros((reps, 6, 6))
    done, covered = np.zeros(reps, bool), np.zeros((reps, 6), bool)
    prev = 0
    for k, (g, alpha) in enumerate(zip(sizes, shares, strict=True)):
        wins += _games(PROBS, g - prev, rng, reps)
        prev = g
        cov = deck_moves.player_covariance(wins, np.zeros_like(wins))
        se = np.sqrt(np.diagonal(cov, axis1=-2, axis2=-1))
        rate = wins.sum(axis=2) / (wins.sum(axis=2) + wins.sum(axis=1))
        z = norm.ppf(1 - alpha / 2)
        width = 200 * z * se.max(axis=1)
        now = ~done & ((width < w_stop) | (k == len(sizes) - 1))
        covered[now] = np.abs(rate[now] - truth) <= z * se[now]
        done |= now
    assert covered.mean(axis=0).min() >= 0.95 - 0.011


# --- real studies -----------------------------------------------------------------------------

SPEC = {
    "name": "until",
    "decks": ["imperial", "highland", "sylvan"],
    "modes": ["high-form"],
    "policies": [["random"], ["greedy:points=40"]],
    "mirrors": False,
    "games": 800,  # imperial moves about 13 points: decided at look 3 (400), not at 200
    "seed": 5,
    "until": "decided",
}


def study(**changes):
    return study_from_dict({**SPEC, **changes}, CONTENT)


def figures(out) -> dict:
    """What a run decided and reported: the stop, each look, the verdicts and moves."""
    s = analyze(out)
    lk = s["looks"]
    sens = s["stability"]
    return {
        "stopped": lk["stopped"],
        "results": lk["results"],
        "games": s["data"]["games"],
        "verdict": sens["verdict"],
        "decks": sens["decks"],
        "rule": sens["rule"],
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("until") / "ref"
    summary = run_study(study(), CONTENT, out, workers=0, progress=False)
    assert summary.stopped and summary.stopped["decided"]
    return out, figures(out)


def test_a_study_stops_at_the_first_look_that_decides(reference):
    out, fig = reference
    stop = fig["stopped"]
    assert stop["decided"] and 1 < stop["look"] < 4  # decided before the cap, not at once
    assert [r["decided"] for r in fig["results"]] == [False] * (stop["look"] - 1) + [True]
    assert fig["verdict"] == st.SENSITIVE
    assert fig["games"] == 6 * stop["games"]  # the games below the stop, nothing past it
    share = looks.spent(looks.plan(800))[stop["look"] - 1]
    assert fig["rule"]["alpha"] == pytest.approx(share, abs=1e-6)
    m = read_manifest(out)
    assert m["status"] == "complete" and m["until"]["looks"] == [100, 200, 400, 800]
    assert "decided at look" in stop["why"]
    played = {len(list((out / "games").rglob("part-*.parquet")))}
    assert played == {6 * stop["games"] // 100}  # chunks of the first look's size: none past it
    # run again: nothing to do, the same stop
    again = run_study(study(), CONTENT, out, workers=0, progress=False)
    assert again.nothing_to_do and again.games_played == 0 and again.stopped == stop
    assert figures(out) == fig


def test_chunks_end_on_the_looks_where_a_size_near_the_automatic_one_allows():
    assert looks.chunk_size_for_looks(110, 1600) == 100  # looks 200, 400, 800: 100 ends on each
    assert looks.chunk_size_for_looks(300, 1600) == 200  # never past the first look
    assert looks.chunk_size_for_looks(97, 800) == 50  # looks 100, 200, 400
    assert looks.chunk_size_for_looks(110, 1000) == 110  # looks 125, 250, 500: only 25 ends
    assert looks.chunk_size_for_looks(50, 60) == 8  # looks 8, 15, 30: the first look's size
    assert looks.chunk_size_for_looks(1, 800) == 1
    for size in range(1, 260, 7):
        for cap in (20, 60, 800, 1000, 1600, 3001):
            got = looks.chunk_size_for_looks(size, cap)
            first = looks.plan(cap)[0]
            assert 1 <= got <= min(size, first)
            ends = all(n % got == 0 for n in looks.plan(cap)[:-1])
            assert ends or got == min(size, first)


def test_a_study_whose_automatic_chunk_straddles_a_look_plays_nothing_past_the_stop(
    reference, tmp_path, monkeypatch
):
    import cluster.runner as runner

    monkeypatch.setattr(runner, "choose_chunk_size", lambda *a, **k: 60)  # looks of 100, 200...
    out = tmp_path / "aligned"
    summary = run_study(study(), CONTENT, out, workers=0, progress=False)
    stop = reference[1]["stopped"]
    assert summary.stopped == stop
    assert read_manifest(out)["chunk_size"] == 50
    assert summary.games_played == 6 * stop["games"]  # no game past the stop (60: 6 x 20 more)
    assert figures(out) == reference[1]


def test_until_is_checked_before_anything_is_played(tmp_path):
    with pytest.raises(StudyError, match="needs two players each in self-play"):
        study(policies="random")
    with pytest.raises(StudyError, match="needs a duel mode"):
        study(modes=["melee"], decks=[["imperial", "highland", "sylvan"]], mirrors=True)
    study(policies="random", until="width=20")  # one player suffices for a width


@pytest.mark.parametrize("workers", [1, 2])
def test_the_same_stop_and_figures_with_any_workers(ray_session, reference, tmp_path, workers):
    out = tmp_path / f"w{workers}"
    summary = run_study(study(), CONTENT, out, workers=workers, chunk_size=37, progress=False)
    assert summary.stopped == reference[1]["stopped"]
    assert figures(out) == reference[1]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("RAY_ADDRESS", None)
    return env


def test_kill_9_then_resume_reaches_the_same_stop(reference, tmp_path):
    """The driver killed (SIGKILL) after its first look, held by the test hook mid-way
    through the second; the same command resumes it to the same stop and figures."""
    spec = tmp_path / "until.toml"
    body = {k: v for k, v in SPEC.items() if k != "until"}
    spec.write_text("\n".join(f"{k} = {json.dumps(v)}" for k, v in body.items()))  # TOML too
    out = tmp_path / "killed"
    hold = tmp_path / "hold"
    cmd = [sys.executable, "-m", "sim.app.cli", "study", str(spec), "--until", "decided"]
    cmd += ["--out", str(out), "--workers", "0"]
    hold.touch()  # held after its first chunk
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env={**_env(), "KALARITE_TEST_HOLD_FILE": str(hold)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )

    def parts():
        return len(list((out / "games").rglob("part-*.parquet"))) if out.exists() else 0

    def looked():
        assert proc.poll() is None, proc.communicate()
        m = read_manifest(out) if (out / "study.json").exists() else {}
        return len((m.get("until") or {}).get("results") or []) >= 1

    try:
        wait_for(lambda: parts() >= 1, 600, "the first chunk")
        hold.unlink()  # on to the first look
        wait_for(looked, 600, "the first look")
        n = parts()
        hold.touch()  # held again at its next chunk, in the second look
        wait_for(lambda: parts() > n, 600, "a chunk of the second look")
        assert proc.poll() is None
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    assert read_manifest(out)["status"] == "running"
    hold.unlink(missing_ok=True)
    p = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    assert "decided at look" in p.stdout
    assert figures(out) == reference[1]
