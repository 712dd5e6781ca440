"""Study specs: which games a study plays, parsed from TOML (``kalarite study``) or built from
``kalarite simulate`` flags, validated against the content, and expanded into matchups (their
chunks of games: results.layout).

A matchup is (mode, seat decks, seat policies). Its 64-bit seed is a SHA-256 of the study
seed, the mode and the seat decks (``deals = "shared"``, the default of a new study: game ``i``
of a matchup is dealt alike whatever the players, so two players' games pair up deal by deal),
or of those and the seat players (``deals = "per-player"``: every study before the key, where
a restricted twin, ``planner:restrict=frozen``, counts as its full player: ``seed_policy``).
A variant deck of a designer's content seeds as its original (``seed_names``), so content
variants are dealt alike too. Game ``i`` of a matchup is played with (matchup seed, game index
``i``) alone (the first seat is ``i % 2``), so the games do not depend on how the work is split
into chunks or workers. ``kalarite play --decks A,B
--mode M --seed SEED --game I`` replays any game of a study from its ``seed`` and
``game_index`` columns.

Spec keys (TOML, top level)::

    name = "example"                 # optional, free text
    decks = "all"                    # "all", a list of deck names, or a list of seat lists
    modes = ["high-form", "deathmatch"]   # "all", one mode name, or a list (key "mode" too)
    melee_players = [3]              # melee seat counts: default 3 with deck names, else 3, 4
    policies = "planner"             # one spec for every seat, [seat0, seat1...], or a list
                                     # (default: planner; see DEFAULT_POLICY)
    games = 1000                     # games per matchup (and mode), > 0
    seed = 1                         # study seed, 0 <= seed < 2**64 (default 0)
    turn_cap = 200                   # default 200
    beings_without_effects = false   # play beings whose effect is not implemented yet
    chunk_size = 2000                # optional: games per chunk (default: sized to the
                                     # players' speed; never changes a result)
    content = "my-cards"             # optional: a copy of sim/data with changed cards or
                                     # decks, relative to the spec file (--content overrides)
    positions = 4                    # optional: write the positions table, sampling about
                                     # one turn end in 4 (0 or absent: off; at most 1000)
    stability_margin = 3             # optional: the report's stability rule's margin, in
                                     # points (a deck's move that matters; default 3)
    deals = "shared"                 # optional: "shared" (default: every player is dealt
                                     # game i of a matchup alike) or "per-player" (the seed
                                     # names the players, as before the key; see above)
    mirrors = false                  # optional: leave out mirror matches (default true)
    trace = {player = "planner", levels = [1, 2, 4, 8]}   # optional: a skill trace (below)
    until = "decided"                # optional: stop at the first doubling look that decides
                                     # ("decided", or "width=W"), games being the cap

``trace`` plays ``player`` at each budget of ``levels`` (the setting sim.player_kinds names
for it: the planner's width, mc's playouts) in self-play over the study's deck pairings, and
each two adjacent levels against each other with each deck against itself, in both seats
(so the stronger budget's edge is not a deck's); it takes the place of ``policies``, and only
the duel modes (high-form, deathmatch). ``until``: sim/looks.py (the looks and the error spent
over them).

A policy is a player spec of ``sim.players`` (``random``, ``greedy``, ``mc:playouts=32``...);
in directory names ``:`` becomes ``.`` and ``=`` becomes ``_`` (``mc.playouts_32``). One name
for every seat and the same name once per seat are the same players: a study stores, compares
and shows them as the one name (``same_players``), so ``policies = ["random", "random"]`` and
no ``policies`` key at all make the same study.

``decks = "all"`` (every deck the engine deals: a deck with a card whose effect is not built
yet only with ``beings_without_effects``; or a list of names) means every pairing of those
decks including
mirror matches: unordered pairs when both seats use the same policy (the first player alternates, so
A-vs-B and B-vs-A are the same experiment), ordered pairs when the seat policies differ.
Modes with more seats get their deck lists from the same names: melee every multiset of 3
(``melee_players``: 3 and/or 4) decks; four seats (team play, 4-player melee) every pair of
team decks against every pair, seated A1, B1, A2, B2 (teams are seats 0+2 and 1+3). The
new-player rules always use two Imperial decks.

Explicit seat lists (``decks = [["imperial", "highland", "sylvan"]]``) go to every chosen
mode that takes that many seats: 2 (high-form, deathmatch, new-player), 3-4 (melee), 4
(team-high-form, team-deathmatch). A policy list must have one spec or one per seat.

The package: ``model`` (the Study, its matchups, seeds, deals, listed games and traces),
``load`` (a spec dict, file or `kalarite simulate` flags read into a Study, checked last by
``checks``) and ``checks`` (``validate``: the checks across keys and against the card files).
Everything callers use is importable from ``sim.study`` itself.
"""

from sim.study.load import (
    check_positions,
    check_stability_margin,
    load_study,
    simulate_study,
    study_from_dict,
)
from sim.study.model import (
    DEFAULT_POLICY,
    DEFAULT_STABILITY_MARGIN,
    FLAGS,
    MAX_STABILITY_MARGIN,
    SPEC_KEYS,
    TRACE_MODES,
    WHY_DEFAULT_POLICY,
    Matchup,
    Study,
    StudyError,
    canonical_spec,
    dealable_decks,
    fits,
    matchup_seed,
    policy_label,
    same_players,
    seed_policy,
    with_game_lists,
)

__all__ = [
    "DEFAULT_POLICY",
    "DEFAULT_STABILITY_MARGIN",
    "FLAGS",
    "MAX_STABILITY_MARGIN",
    "SPEC_KEYS",
    "TRACE_MODES",
    "WHY_DEFAULT_POLICY",
    "Matchup",
    "Study",
    "StudyError",
    "canonical_spec",
    "check_positions",
    "check_stability_margin",
    "dealable_decks",
    "fits",
    "load_study",
    "matchup_seed",
    "policy_label",
    "same_players",
    "seed_policy",
    "simulate_study",
    "study_from_dict",
    "with_game_lists",
]
