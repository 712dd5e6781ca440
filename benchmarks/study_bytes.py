"""Measures the Parquet bytes per game the player registry stores (sim/player_kinds.py, each
kind's game_bytes, read by sim/study_size.py): a small study per player and mode, written to
a temporary directory. Run by hand when the schema or the players change:
``python -m benchmarks.study_bytes``."""

import pathlib
import tempfile

from cluster.runner import run_study
from sim.content import load_content
from sim.study import study_from_dict


def main():
    content = load_content()
    for player, games in (("random", 2000), ("greedy", 200), ("planner", 200)):
        for mode in ("high-form", "deathmatch"):
            spec = {"decks": [["imperial", "highland"]], "modes": mode, "policies": player}
            study = study_from_dict({**spec, "games": games, "seed": 1}, content)
            with tempfile.TemporaryDirectory() as d:
                run_study(study, content, d, workers=0, progress=False)
                size = sum(p.stat().st_size for p in pathlib.Path(d).rglob("*.parquet"))
            print(f'("{player}", "{mode}"): {size / games:.0f},')


if __name__ == "__main__":
    main()
