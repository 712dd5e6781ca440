"""The rules of the game as a state machine over one int32 state row (core.layout).

- ``turn``: the turn loop: runs to the next decision (``advance``) and applies one option
  (``apply_option``); everything else here serves it.
- ``options``: the legal options of the pending decision (actions, free rows, claims, the
  choices inside an effect, melee set-up); listing only, it changes nothing.
- ``setup``: a new game: stocks, shuffled decks, opening hands, tasks or starting pieces.
- ``scoring``: scores, end triggers and the winner, for every mode.
- ``modes``: which rule family a mode follows (tasks, destruction points, teams).
- ``events``: the game log, one row per event, which the kernel turns into dataset rows.
- ``rng``: per-game random numbers kept in the state row, so a game depends on its seed only.
- ``piles``: card piles: decks, hands, discard piles, the shared legend and flare decks.
- ``tasks``: High Form task conditions, one compiled check driven by the task tables;
  ``task_codes``: the criteria and task types as codes (no numba: sim.content reads them).
- ``task_display``: the High Form display of available and next tasks.
- ``frozen``: Everfrost's frozen effects and the lost action, on the turn's side.
- ``gateway``: Nethervoid's Gateway: which piece of a seat it is and what moves it.
- ``warp``: Etherweave's warp effects and the pending being, on the turn's side.
- ``stasis``: Etherweave's stasis: a piece held off the board on a card.
"""
