"""Summon search: which (orientation, target square) pairs of a card are legal summons now.

- ``orientations``: a card's pattern compiled to its orientations (plain Python, no numba:
  sim.content reads the cards through it).
- ``patterns``: the compiled searches the turn loop uses: anchored, on bitboards, and the wide
  search for borrowed pieces and melee improvisation.
- ``possessed``: Possessed Summoner's search, built from an enemy colour's pieces.
- ``detached``: detached patterns (Time Traveler): the being enters an empty colourless square
  while its pattern stands anywhere.
- ``void_cells``: Void Summoner's search, where empty squares may stand in for commons
  (Etherweave's void cells, not the board's void corners).

The plain full scans that these searches are tested against are in core.checks.
"""
