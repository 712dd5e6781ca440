"""One contract for every deck and every mode: the configurations `kalarite check` plans
(sim.app.check ``plan``: every deck pairing or seating of each mode, melee with 3 and 4
seats, new-player with its Imperial decks), so a new deck or mode is covered the day it is
added, a small sample of random games each (the million-game check stays a command). Every
game must:

- keep every invariant (the checker after every applied option);
- end (an end reason, actions taken, the first seat rotating with the game index);
- lose no log event: the log did not overflow and every event has its line in the text log;
- leave the board the text log rebuilds from its events equal to the engine's own board;
- be the game the studies play: the kernel without the checker and without a log gives the
  same result rows.

``EXCLUDED`` holds the configurations left out of the contract. It is empty and must stay
empty: a configuration that breaks the contract is a bug to fix, not one to skip.
"""

import numpy as np
import pytest

from core import constants as K
from core.checks.invariants import INV_NAMES, check_state
from core.kernel import play
from core.layout import BOARD, EV_N, NSQ
from core.rows import (
    R_ACTIONS,
    R_DECISIONS,
    R_END_REASON,
    R_ERROR,
    R_FIRST,
    R_LOG_LOST,
    R_SEAT,
    R_SEAT_WIDTH,
    R_TASKS_SHOWN,
    R_TURNS,
    R_WINNER,
    S_COLUMN,
    S_LEGENDS_END,
    S_PENDING_END,
    S_PTS_DESTRUCTION,
    S_PTS_FLARE,
    S_PTS_LEGEND,
    S_PTS_TASK,
    S_SCORE,
)
from sim.app.check import group_of, plan
from sim.content import load_content
from sim.games import batch
from sim.position import seat_colours
from sim.render import event_text
from sim.single_game import replay_board

CONTENT = load_content()
T = CONTENT.tables
GAMES = 2  # per matchup: every pairing or seating of every deck in every mode
EV_ROWS = 20_000
SEED = 20260517
EXCLUDED = []  # (mode, seat decks) left out of the contract: must stay empty
POINT_SOURCES = (S_PTS_TASK, S_PTS_DESTRUCTION, S_PTS_LEGEND, S_PTS_FLARE)

STUDY, MATCHUPS = plan(CONTENT, games=1, seed=SEED)
GROUPS = {}
for _mu in MATCHUPS:
    GROUPS.setdefault(group_of(_mu), []).append(_mu)


def test_nothing_is_excluded():
    assert EXCLUDED == []


def test_the_contract_covers_every_deck_and_every_mode():
    assert {mu.mode for mu in MATCHUPS} == set(K.MODE_NAMES)
    assert {d for mu in MATCHUPS for d in mu.decks} == set(CONTENT.decks)
    assert set(GROUPS) == {*K.MODE_NAMES, "melee-3", "melee-4"} - {"melee"}


@pytest.mark.parametrize("deck", CONTENT.decks)
def test_every_deck_is_dealt_without_the_escape_hatch(deck):
    """Every being of every deck has its effect: the contract's games (and a study's) deal
    them all with ``beings_without_effects`` off."""
    assert CONTENT.missing_effects([deck]) == []
    CONTENT.require_playable([deck, "imperial"], allow_missing_effects=False)


def _error_name(code):
    return INV_NAMES[code] if 0 <= code < len(INV_NAMES) else f"engine error {code}"


def _game_columns(rows):
    """Every column of the result rows but what only a kept log records: the points by
    source, and the events that did not fit the log (the plain kernel of the comparison
    keeps none)."""
    kept = [*range(S_SCORE, S_LEGENDS_END + 1), *range(S_COLUMN, R_SEAT_WIDTH)]
    seats = [R_SEAT + p * R_SEAT_WIDTH + k for p in range(4) for k in kept]
    assert len(kept) == R_SEAT_WIDTH - len(POINT_SOURCES)
    head = [R_WINNER, R_FIRST, R_END_REASON, R_TURNS, R_ACTIONS, R_DECISIONS, R_ERROR]
    assert len(head) + 2 == R_SEAT and R_LOG_LOST not in head
    return rows[:, [*head, R_TASKS_SHOWN, *seats]]


def _sources_problem(mode, row, n) -> str | None:
    """Deathmatch: the points by source, less the causality penalty (2 for each seat of
    the side that held a pending being at the end), add up to each seat's score."""
    if mode not in ("deathmatch", "team-deathmatch"):
        return None  # High Form's score is derived from the board; melee's is a column
    seat = [R_SEAT + p * R_SEAT_WIDTH for p in range(n)]
    side = [[q for q in range(n) if q % 2 == p % 2] if mode == "team-deathmatch" else [p]
            for p in range(n)]  # fmt: skip
    for p in range(n):
        points = sum(int(row[seat[p] + c]) for c in POINT_SOURCES)
        penalty = 2 * sum(int(row[seat[q] + S_PENDING_END]) for q in side[p])
        if points - penalty != row[seat[p] + S_SCORE]:
            return f"seat {p}: sources {points} - penalty {penalty} != score {row[seat[p]]}"
    return None


def _board_problem(mu, s, events) -> str | None:
    rebuilt = replay_board(events, T, colours=seat_colours(mu.mode, len(mu.decks)))
    engine = [int(x) for x in s[BOARD : BOARD + NSQ]]
    diff = [(q // 9, q % 9, rebuilt[q], engine[q]) for q in range(NSQ) if rebuilt[q] != engine[q]]
    return f"(row, col, rebuilt, engine) {diff[:6]}" if diff else None


def _play_matchup(mu) -> list:
    """Problems of the matchup's sample, one line each (empty: the contract holds)."""
    where = f"{mu.mode} {'-'.join(mu.decks)} (seed {mu.seed})"
    b = batch(CONTENT, mu.mode, mu.decks, mu.policies, mu.seed)
    n = len(mu.decks)
    problems, rows = [], []
    for g in range(GAMES):
        out = play(b, g, 1, ev_rows=EV_ROWS, checked=True)
        row, s = out.rows[0], out.state
        rows.append(row)
        game = f"{where} game {g}"
        if row[R_ERROR]:
            problems.append(f"{game}: {_error_name(int(row[R_ERROR]))}")
            continue
        if row[R_LOG_LOST]:
            problems.append(f"{game}: the event log overflowed")
            continue
        if row[R_END_REASON] == K.END_NONE or row[R_ACTIONS] <= 0 or row[R_FIRST] != g % n:
            problems.append(f"{game}: did not end properly ({row[R_END_REASON]=})")
        events = np.ascontiguousarray(out.log[: s[EV_N]])
        lost = [e for e in events if not event_text(e, CONTENT, mu.mode, mu.decks)]
        if lost:
            problems.append(f"{game}: events without a text: {lost[:3]}")
        bad_board = _board_problem(mu, s, events)
        if bad_board:
            problems.append(f"{game}: the log's board differs from the engine's: {bad_board}")
        if check_state(s, T, events) != 0:
            problems.append(f"{game}: the final state fails the checker with its own log")
        bad_sources = _sources_problem(mu.mode, row, n)
        if bad_sources:
            problems.append(f"{game}: {bad_sources}")
        if n == 2 and mu.mode in ("high-form", "deathmatch", "new-player"):
            scores = [row[R_SEAT + p * R_SEAT_WIDTH + S_SCORE] for p in range(2)]
            w = int(row[R_WINNER])
            if (w < 0 and scores[0] != scores[1]) or (w >= 0 and scores[w] < scores[1 - w]):
                problems.append(f"{game}: winner {w} with scores {scores}")
    plain = play(b, 0, GAMES).rows  # the studies' kernel: no checker, no log
    if not np.array_equal(_game_columns(np.array(rows)), _game_columns(plain)):
        problems.append(f"{where}: the checked and the plain kernel played different games")
    return problems


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_configuration_keeps_the_contract(group):
    problems = []
    for mu in GROUPS[group]:
        if (mu.mode, mu.decks) in EXCLUDED:
            continue
        problems += _play_matchup(mu)
    assert not problems, f"{len(problems)} problems, the first: " + "; ".join(problems[:8])


def test_col0_holds_no_penalty_points():
    """col0 is melee's colour-0 column (0 in other modes), the same with or without a log:
    the causality penalty is not a source of points (core.kernel ``_extract``), so it never
    lands in a points column; a deathmatch game whose Etherweave seat paid it shows it."""
    mu = next(m for m in GROUPS["deathmatch"] if m.decks == ("etherweave", "etherweave"))
    b = batch(CONTENT, mu.mode, mu.decks, mu.policies, mu.seed)
    games = 40
    logged, plain = play(b, 0, games, ev_rows=EV_ROWS).rows, play(b, 0, games).rows
    pending = [R_SEAT + p * R_SEAT_WIDTH + S_PENDING_END for p in range(2)]
    assert plain[:, pending].sum() > 0  # the sample holds games that paid the penalty
    col0 = [R_SEAT + p * R_SEAT_WIDTH + S_COLUMN for p in range(2)]
    assert (plain[:, col0] == 0).all()
    assert np.array_equal(logged[:, col0], plain[:, col0])
    assert np.array_equal(_game_columns(logged), _game_columns(plain))


def test_every_score_reason_is_a_source_or_the_penalty():
    """A score event's reason is its points-by-source column (S_PTS_TASK + reason), but for
    the causality penalty, which has none: a new reason needs its column."""
    reasons = {v for k, v in vars(K).items() if k.startswith("SR_")}
    sources = {c - S_PTS_TASK for c in POINT_SOURCES}
    assert reasons == sources | {K.SR_PENALTY}
    assert K.SR_PENALTY not in sources
