"""Names shared by the report's sections: mode, seat, end-reason and point-source labels, and
a study's title."""

FORMAT = 1


MODE_LABELS = {
    "high-form": "High Form",
    "deathmatch": "Deathmatch",
    "new-player": "New Player",
    "melee": "Melee",
    "team-high-form": "Team High Form",
    "team-deathmatch": "Team Deathmatch",
}


POSITION_LABELS = ("1st player", "2nd player", "3rd player", "4th player")


END_REASONS = ("score", "deck", "turn-cap")


END_LABELS = {"score": "score reached", "deck": "deck exhausted", "turn-cap": "turn cap"}


CARD_EVENTS = ("drawn", "summoned", "discarded", "returned", "flare-played", "thawed", "warped")


POINT_SOURCES = ("pts_destruction", "pts_legend", "pts_flare", "pts_task")


SOURCE_LABELS = {
    "pts_destruction": "destruction",
    "pts_legend": "legends",
    "pts_flare": "opponent's flares",
    "pts_task": "tasks",
    "other": "other",
}


SHARED_DECKS = ("legends", "flares")  # cards any seat may hold whatever its deck


SIMULATE = "simulate"  # the name of every `kalarite simulate` study: one matchup


def players_title(policies, two_seats: bool = True) -> str:
    """A spec's policy lists as words: "planner (both seats)", "planner vs greedy"."""
    words = []
    for p in policies or []:
        if len(set(p)) == 1:
            words.append(f"{p[0]} ({'both seats' if two_seats else 'every seat'})")
        else:
            words.append(" vs ".join(p))
    return "; ".join(words)


def study_title(study: dict) -> str:
    """What a report or a comparison is titled by: the study's name, except for a study of
    ``kalarite simulate`` (all named "simulate"), which is titled by what it played: its
    decks, mode and players ("sylvan vs highland, Deathmatch, random (both seats)")."""
    name = (study or {}).get("name") or ""
    if name and name != SIMULATE:
        return name
    decks = study.get("decks") or []
    two = all(len(d) == 2 for d in decks)
    modes = ", ".join(MODE_LABELS.get(m, m) for m in study.get("modes") or [])
    words = ("; ".join(" vs ".join(d) for d in decks), modes)
    return ", ".join(x for x in (*words, players_title(study.get("policies"), two)) if x)
