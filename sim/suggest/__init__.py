"""`kalarite suggest` (the library side): goals, the card grammar and its variant content.

- ``goal``: the goal spec (TOML) and the command's shorthands, checked value by value.
- ``grammar``: every single edit of a deck's cards, with its likely direction.
- ``variants``: an edit as its own content copy (loader, tables proof, compiled-tables
  hash), and the race content (every candidate as a variant deck).
- ``skip``: the players for which a deal without the edited card is provably unchanged.

The application (sim/app/suggest) plays and decides; results/suggest holds the statistics.
"""
