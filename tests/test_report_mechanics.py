"""Mechanic use beside each expansion deck's win rate: summary.json's ``mechanics`` (deck ->
mean thaws, warps, pending-at-end share and Gateway turns per game of its deck-vs-field
games) and the deck-vs-field table's column; a dataset made before the telemetry columns
still reports, without the figures."""

import pyarrow.parquet as pq
import pytest

from results import analysis
from results.analysis.mechanics import MECHANIC_COLUMNS
from results.frames import summary_frames
from results.report import make_report
from tests.support.datasets import game_row, write_dataset

P = ("planner", "planner")


def _games():
    games = []
    for i in range(4):  # everfrost in seat 0, then in seat 1: its own seat's counters count
        games.append(
            game_row("high-form", ("everfrost", "imperial"), P, i, i % 2,
                  seat0_thaws=i, seat1_thaws=9, seat1_gateway_turns=4)
        )  # fmt: skip
        games.append(
            game_row("high-form", ("imperial", "everfrost"), P, i, 0, seat1_thaws=2, seat0_thaws=7)
        )
    for i in range(5):
        games.append(
            game_row("high-form", ("etherweave", "imperial"), P, i, 1,
                  seat0_warps=1 + i, seat0_pending_at_end=int(i < 2))
        )  # fmt: skip
        games.append(
            game_row("high-form", ("nethervoid", "imperial"), P, i, 0, seat0_gateway_turns=3 * i)
        )
    return games


def _drop_mechanic_columns(run):
    """The dataset as made before the mechanic telemetry: no seatN_thaws ... columns."""
    drop = [f"seat{s}_{c}" for s in range(4) for c in MECHANIC_COLUMNS]
    for f in (run / "games").rglob("*.parquet"):
        t = pq.read_table(f)
        t = t.drop_columns(drop).replace_schema_metadata(t.schema.metadata)
        pq.write_table(t, f)


def test_mechanic_use_per_expansion_deck(tmp_path):
    run = write_dataset(tmp_path / "run", _games())
    s = analysis.analyze(run)
    m = s["mechanics"]
    assert list(m) == ["everfrost", "etherweave", "nethervoid"]  # base decks have no mechanic
    # everfrost's own seat: thaws 0, 1, 2, 3 (seat 0) and 2, 2, 2, 2 (seat 1): mean 1.75
    assert m["everfrost"]["thaws"] == pytest.approx((0 + 1 + 2 + 3 + 8) / 8)
    assert m["everfrost"]["gateway_turns"] == 0 and m["everfrost"]["seat_games"] == 8
    assert m["etherweave"]["warps"] == pytest.approx(3.0)
    assert m["etherweave"]["pending_at_end"] == pytest.approx(0.4)
    assert m["nethervoid"]["gateway_turns"] == pytest.approx(6.0)
    gid = next(g["id"] for g in s["groups"] if g["mode"] == "high-form")
    assert m["everfrost"]["by_group"][gid]["thaws"] == pytest.approx(1.75)
    frame = summary_frames(s)["mechanics"]  # the notebook view: one row per deck and group
    assert list(frame["deck"]) == ["everfrost", "etherweave", "nethervoid"]
    assert list(frame["thaws"])[0] == pytest.approx(1.75)
    page = make_report(run, tmp_path / "rep")["index"].read_text(encoding="utf-8")
    assert "mechanic use per game" in page
    assert "thaws 1.75" in page and "warps 3.00 · pending at end 40%" in page
    assert "Gateway turns 6.00" in page


def test_a_dataset_without_the_telemetry_still_reports(tmp_path):
    run = tmp_path / "run"
    write_dataset(run, _games())
    full = analysis.analyze(run)
    _drop_mechanic_columns(run)
    names = pq.read_schema(next((run / "games").rglob("*.parquet"))).names
    assert "seat0_thaws" not in names and "seat0_score" in names
    old = analysis.analyze(run)
    assert old["mechanics"] == {}
    assert old["deck_vs_field"] == full["deck_vs_field"]
    page = make_report(run, tmp_path / "rep")["index"].read_text(encoding="utf-8")
    assert "mechanic use per game" not in page and "Deck vs field" in page
