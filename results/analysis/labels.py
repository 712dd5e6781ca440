"""Names shared by the report's sections: mode, seat, end-reason and point-source labels."""

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
