"""The board layer that the rules, the summon search and the effects share.

- ``geometry``: the board's tables (neighbours, distances, edges, corners), computed once from
  the board description.
- ``bits``: sets of squares as bitboards (two int64 words), for the searches that test many
  squares at once.
- ``pieces``: pieces on the board and in stock; every change of a square goes through it, so
  the counters and bitboards stay in step with the board.
"""
