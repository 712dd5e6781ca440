"""Play a study ``--until`` a look decides (results/looks.py): the chunks that hold the games
below each look, then the look read from the dataset, in order, stopping at the first look
that decides (or the cap).

Each look reads the games of index below it in every matchup, all of them written before it
is read, so the stop depends only on the games, never on the workers or the chunks' order; a
resumed study reads the looks it had passed again from the same games (and plays nothing
there), then goes on. A chunk that straddles a look is played whole; its games past the look
wait for the next one (or, past the stop, are never read: results.analysis.dataset)."""

from results import looks
from results.analysis import look_decision


def play_looks(study, store, done: set, play, say) -> dict:
    """Play ``study``'s chunks look by look through ``play(chunks)`` (the runner's scheduler
    call), recording each look and the stop in the manifest (``store.record_look``); ``done``:
    the chunks already on disk (updated). Returns the ``stopped`` record; ``say(text)``
    prints a line."""
    from results.analysis import analyze

    sizes = looks.plan(study.games)
    shares = looks.spent(sizes)
    layout = store.layout
    chunks = layout.chunks()
    for k, (games, alpha) in enumerate(zip(sizes, shares, strict=True)):
        need = [c for c in chunks if c.first_game < games and (c.matchup, c.index) not in done]
        if need:
            play(need)
            done.update((c.matchup, c.index) for c in need)
        summary = analyze(store.root, allow_incomplete=True, max_games=games, alpha=alpha)
        rec = look_decision.evaluate(summary, study.until, k, games, alpha)
        stop = looks.stop_record(rec, study.games, k == len(sizes) - 1)
        store.record_look(rec, stop)
        say(f"look {k + 1} of {len(sizes)} ({games:,} games a matchup): {rec['why']}")
        if stop is not None:
            return stop
    raise AssertionError("the last look always stops")  # stop_record(last=True) is never None
