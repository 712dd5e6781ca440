"""The progress a run shows, on a fake clock (no sleeps): games/s and the time left from
playing time only (start-up shown apart), "estimating" until the first chunks land, a time
left that counts down and never climbs between landings; and the steps before play
(compiling, starting Ray) counted from their first moment."""

import io

import pytest

from cluster import progress
from cluster.progress import Estimate, Step
from tests.support.service import wait_for


class Clock:
    def __init__(self, now=0.0):
        self.now = now

    def __call__(self):
        return self.now


def _simulate(workers, chunks, games, play_s, start_up_s):
    """A run of ``chunks`` equal chunks on ``workers`` workers that start after
    ``start_up_s``: (clock, estimate, [(time, chunks landed)]) with every landing in order.
    Each worker plays one chunk after another, ``play_s`` each."""
    clock = Clock()
    est = Estimate(chunks * games, 0, start=0.0, workers=workers, chunks=chunks, clock=clock)
    landings = sorted(
        (start_up_s + (k // workers + 1) * play_s, k) for k in range(chunks)
    )  # chunk k runs on worker k % workers as its (k // workers)-th chunk
    return clock, est, landings


def test_the_workers_start_up_is_shown_apart_not_counted_in_the_rate():
    """The demo's case: 48 s of Ray and worker start-up before any chunk. The time left is
    the real one once the first wave landed (the old rate counted the start-up: 3-8x too
    long)."""
    workers, chunks, games, play_s, start_up = 2, 40, 100, 10.0, 48.0
    clock, est, landings = _simulate(workers, chunks, games, play_s, start_up)
    clock.now = 30.0
    assert est.status() == "starting workers (0:30)" and est.rate() is None
    end = landings[-1][0]
    for i, (t, _) in enumerate(landings):
        clock.now = t
        est.advance(games, play_s)
        if i == 0:
            assert est.status() == "estimating (1 of 2 first chunks in)"
            assert est.left_s() is None
        elif i < len(landings) - 1:  # after the first wave: within a chunk of the real time
            assert est.rate() == pytest.approx(workers * games / play_s)
            assert abs(est.left_s() - (end - t)) <= play_s, (t, est.left_s(), end - t)
    assert est.done == est.total and est.status() == "20 games/s"
    # the old rate, games over the time since play started, said 5.8x the real time left
    old = workers * games / landings[1][0]
    assert (chunks - workers) * games / old > 5 * (end - landings[1][0])


def test_the_time_left_counts_down_between_landings_and_never_climbs():
    clock = Clock()
    est = Estimate(10_000, 0, start=0.0, workers=2, chunks=20, clock=clock)
    clock.now = 40.0
    est.advance(500, 10.0)
    clock.now = 41.0
    est.advance(500, 10.0)  # first wave in: 100 games/s, 9,000 left: 90 s
    shown = []
    for t in range(41, 80, 3):  # no chunk lands for a while
        clock.now = float(t)
        shown.append(est.left_s())
    assert shown[0] == pytest.approx(90.0)
    assert all(b <= a for a, b in zip(shown, shown[1:], strict=False))  # never climbs
    assert shown[-1] == pytest.approx(90.0 - (77 - 41))
    clock.now = 200.0  # long past the estimate, the last chunks still out
    assert est.left_s() == 0.0 and "finishing the last chunks" in est.status()


def test_a_run_of_fewer_chunks_than_workers_estimates_after_its_own_chunks():
    clock = Clock()
    est = Estimate(300, 0, start=0.0, workers=8, chunks=2, clock=clock)
    clock.now = 5.0
    est.advance(150, 2.0)
    assert est.rate() is None and "1 of 2 first chunks" in est.status()
    est.advance(150, 2.0)
    assert est.rate() == pytest.approx(8 * 300 / 4.0)


def test_an_earlier_runs_games_count_as_done_not_in_the_rate():
    clock = Clock()
    est = Estimate(1000, 600, start=0.0, workers=1, clock=clock)
    assert est.text().startswith("600 of 1,000 games (60%), starting workers")
    clock.now = 20.0
    est.advance(100, 4.0)  # 25 games/s, 300 left: 12 s
    assert est.rate() == pytest.approx(25.0) and est.left_s() == pytest.approx(12.0)
    assert est.text() == "700 of 1,000 games (70%), 25 games/s, about 0:12 left"


def test_the_terminal_bar_shows_the_same_status():
    clock = Clock()
    bar = progress.RichProgress(100, 0, start=0.0, workers=1, clock=clock)
    clock.now = 7.0
    assert bar.counter.status() == "starting workers (0:07)"
    bar.advance(50, 5.0)
    assert bar.counter.status() == "10 games/s, about 0:05 left"


# --- steps before play -----------------------------------------------------------------------


def test_a_step_speaks_at_once_and_counts_while_it_lasts():
    clock, said = Clock(), []
    with Step("starting Ray", lambda t, f: said.append((t, f)), every=5.0, clock=clock,
              thread=False) as step:  # fmt: skip
        assert said == [("starting Ray...", False)]
        clock.now = 4.0
        step.tick()
        assert len(said) == 1  # not yet 5 s
        clock.now = 5.5
        step.tick()
        clock.now = 11.0
        step.tick()
        step.done("started Ray in 11.0 s")
    assert said[1:] == [
        ("starting Ray: 0:05 elapsed", False),
        ("starting Ray: 0:11 elapsed", False),
        ("started Ray in 11.0 s", True),
    ]


def test_a_quick_quiet_step_says_nothing_and_a_slow_one_says_it_is_over():
    clock, said = Clock(), []
    with Step("loading", lambda t, f: said.append((t, f)), quiet_s=2.0, clock=clock,
              thread=False) as step:  # fmt: skip
        clock.now = 1.5
        step.tick()
    assert said == []
    with Step("loading", lambda t, f: said.append((t, f)), quiet_s=2.0, every=5.0,
              clock=clock, thread=False) as step:  # fmt: skip
        clock.now += 2.5
        step.tick()
        step.retitle("compiling")
        clock.now += 5.0
        step.tick()
    assert said == [
        ("loading...", False),
        ("compiling...", False),
        ("compiling: 0:07 elapsed", False),
        ("compiling: done in 0:07", True),
    ]


def test_a_failed_step_ends_a_redrawn_line_before_the_error():
    out = io.StringIO()
    out.isatty = lambda: True
    say = progress.step_printer(out)
    with pytest.raises(RuntimeError), Step("starting Ray", say, clock=Clock(), thread=False):
        raise RuntimeError("no Ray")
    assert out.getvalue().endswith("starting Ray: stopped after 0:00\n")
    plain = io.StringIO()
    with pytest.raises(RuntimeError), Step("starting Ray", progress.step_printer(plain)):
        raise RuntimeError("no Ray")
    assert plain.getvalue() == "kalarite: starting Ray...\n"  # lines: nothing to end


def test_the_step_thread_ticks_on_its_own():
    said = []
    with Step("compiling", lambda t, f: said.append(t), every=0.01) as step:
        wait_for(lambda: any("elapsed" in t for t in said), 60, "an elapsed line")
        step.done("compiled")
    assert said[0] == "compiling..." and said[-1] == "compiled"
