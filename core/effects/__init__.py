"""The effect interpreter: it runs a card's op program (core.ops) one instruction at a time.
Role files first, then one file per expansion family of ops.

- ``interpreter``: runs a program: conditions, registers, the next decision of an effect.
- ``targets``: the legal targets of an instruction, written as option rows.
- ``apply``: applies one chosen target, and runs the instructions that need no choice.
- ``where``: where an instruction may act: its selectors' square, owner and rank tests.
- ``emit``: writing one effect-target option row (shared by the op families).
- ``primitives``: destroying, touching and selecting, shared without an import cycle.
- ``select``: selectors and conditions beyond the base game, usable by any deck file.
- ``mirror``: the mirror-place op.
- ``card_ops``: ops on cards rather than pieces (frozen effect from the discard, a flare).
- ``etherweave``: Etherweave ops that need no warp machinery (select-square, Dark Sphere's
  owner rule, discarding legend cards).
- ``etherweave_pending``: ops around the pending being and the hand, swap, extra count.
- ``etherweave_copy``: copy-warp: a being's effect runs another card's warp program.
- ``etherweave_linked``: the opposed pair, all of it or none of it.
- ``etherweave_void``: void cells for the next summon, the discard pile's top card to the deck.
- ``nethervoid``: Nethervoid ops that are not selectors (legend-summoned, lose-action,
  card-to-bottom, possess, next-to-same-colour).
- ``nethervoid_select``: selectors and conditions about the Gateway.
"""
