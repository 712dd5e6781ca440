"""Is a chunk on disk really finished? A resumed study counts a chunk as done only when each of
its files (three; four with positions) is a readable Parquet file of its table and holds what
the chunk must hold; any other chunk is played again (a chunk file cut short by a full disk,
or damaged later, would otherwise leave the study stuck: "nothing to do", while report and
compare fail on it).

The checks read the files' footers, not their data (fast even for 100,000 chunks):

- every file: the Parquet footer parses and the file has its table's columns;
- ``games``: exactly one row per game of the chunk, and its ``game_index`` statistics span
  the chunk's game range;
- ``card_events``: at least one row (every game deals its opening hands);
- ``task_claims``: any number of rows (a game may claim no task);
- ``positions`` (a study that samples them): any number of rows, and its ``game_index``
  statistics within the chunk's game range.
"""

import pyarrow.parquet as pq

from results.schema import POSITIONS, SCHEMAS


def chunk_problem(paths: dict, first_game: int, n_games: int, last_game=None) -> str | None:
    """Why the chunk whose files are ``paths`` (path by table: the study's tables) does not
    count as done, or None when it does. The reason names the table and what is wrong with
    its file. ``last_game``: the chunk's last game when its games are listed (not a range)."""
    if last_game is None:
        last_game = first_game + n_games - 1
    for table in paths:
        path = paths[table]
        try:
            meta = pq.ParquetFile(path).metadata
            names = set(meta.schema.to_arrow_schema().names)
        except Exception as e:  # noqa: BLE001 - any failure to parse means unreadable
            text = " ".join(str(e).split()).split(". ")[0][:100] or type(e).__name__
            return f"{table} file unreadable ({text})"
        missing = [c for c in SCHEMAS[table].names if c not in names]
        if missing:
            return f"{table} file lacks the column {missing[0]!r}"
        rows = meta.num_rows
        if table == "games":
            if rows != n_games:
                return f"games file has {rows:,} rows, the chunk {n_games:,} games"
            span = _index_span(meta)
            if span is not None and span != (first_game, last_game):
                return (
                    f"games file holds games {span[0]:,}..{span[1]:,}, the chunk "
                    f"{first_game:,}..{last_game:,}"
                )
        elif table == "card_events" and n_games > 0 and rows == 0:
            return "card_events file has no rows"
        elif table == POSITIONS and rows > 0:
            span = _index_span(meta)
            last = last_game
            if span is not None and (span[0] < first_game or span[1] > last):
                return (
                    f"positions file holds games {span[0]:,}..{span[1]:,}, the chunk "
                    f"{first_game:,}..{last:,}"
                )
    return None


def _index_span(meta):
    """(min, max) of ``game_index`` from the footer's statistics; None where not recorded."""
    col = meta.schema.to_arrow_schema().names.index("game_index")
    lo = hi = None
    for g in range(meta.num_row_groups):
        stats = meta.row_group(g).column(col).statistics
        if stats is None or not stats.has_min_max:
            return None
        lo = stats.min if lo is None else min(lo, stats.min)
        hi = stats.max if hi is None else max(hi, stats.max)
    return None if lo is None else (int(lo), int(hi))
