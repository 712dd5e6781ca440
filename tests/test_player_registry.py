"""The player registry (sim.player_kinds) is the one place a kind of player is declared: every
setting of every kind is accepted in its range and refused outside it with one line, its
default reaches the parameter row's column, each budget knob is what a trace doubles, help
and the service's /options list exactly the registry, and the players' identities (the
digests a dataset records) are the ones datasets written before the registry hold."""

import pytest

from core import constants as K
from core.players.params import PP_LEAF_TOP, PP_MODEL, PP_TAIL, PP_WIDTH
from core.players.weights import N_WEIGHTS
from sim.app.cli_help import valid_names
from sim.app.trace import budgets
from sim.games import changed_parts, players_digests, players_hash, resolve_players
from sim.player_kinds import BY_NAME, DEFAULT_WEIGHTS, KINDS, setting_columns
from sim.players import load_profiles, parse_policy, resolve
from sim.spec import MIN_TRACE_LEVELS

SETTINGS = [(k, s) for k in KINDS for s in k.settings]


def _id(value):
    return value.name if hasattr(value, "code") else getattr(value, "key", None)


def _refused(spec: str) -> str:
    with pytest.raises(ValueError) as e:
        resolve(spec)
    text = str(e.value)
    assert "\n" not in text and "Traceback" not in text
    return text


def test_registry_is_the_engines_players():
    assert tuple(sorted(BY_NAME, key=lambda n: BY_NAME[n].code)) == K.POLICY_NAMES
    tail = list(range(PP_TAIL, PP_WIDTH))  # settings added after the identities were pinned
    assert list(setting_columns()) == list(range(N_WEIGHTS, PP_MODEL)) + tail


@pytest.mark.parametrize("kind,setting", SETTINGS, ids=[f"{k.name}-{s.key}" for k, s in SETTINGS])
def test_each_setting_in_range_is_accepted_and_reaches_its_column(kind, setting):
    values = setting.choices if setting.named else (setting.lo, setting.default, setting.hi)
    for value in values:
        player, _, settings = resolve(f"{kind.name}:{setting.key}={value}")
        assert player == kind.name
        # a named setting at its default is left out of the name; an integer one is kept
        assert settings.get(setting.key, setting.default) == value
        code, row = parse_policy(f"{kind.name}:{setting.key}={value}")
        assert code == kind.code and row[setting.column] == setting.encode(value)


@pytest.mark.parametrize("kind,setting", SETTINGS, ids=[f"{k.name}-{s.key}" for k, s in SETTINGS])
def test_each_setting_out_of_range_is_refused_in_one_line(kind, setting):
    bad = ["nonsense"] if setting.named else [setting.lo - 1, setting.hi + 1, "x"]
    for value in bad:
        text = _refused(f"{kind.name}:{setting.key}={value}")
        assert setting.key in text
        if setting.named:
            assert ", ".join(setting.choices) in text
        elif value != "x":
            assert f"from {setting.lo:,} to {setting.hi:,}" in text


@pytest.mark.parametrize("kind", KINDS, ids=_id)
def test_defaults_fill_the_row_and_unknown_keys_are_refused(kind):
    player, weights, settings = resolve(kind.name)
    assert player == kind.name and weights == DEFAULT_WEIGHTS
    assert settings == {s.key: s.default for s in kind.settings if not s.named}
    code, row = parse_policy(kind.name)
    assert code == kind.code
    for column, setting in setting_columns().items():
        assert row[column] == setting.encode(setting.default)
    text = _refused(f"{kind.name}:no_such_setting=1")
    if kind.weights or kind.settings:
        assert "unknown parameter 'no_such_setting'" in text
        assert all(s.key in text for s in kind.settings)
    else:
        assert f"{kind.name} takes no parameters" in text


@pytest.mark.parametrize("kind", KINDS, ids=_id)
def test_budget_knob_is_what_a_trace_doubles(kind):
    knob, n = kind.budget_setting(), MIN_TRACE_LEVELS
    if knob is None:
        with pytest.raises(ValueError, match="has no search budget"):
            budgets(kind.name, n, None)
        return
    assert not knob.named and knob.lo <= knob.default <= knob.hi
    levels = budgets(kind.name, n, None)
    assert levels == [levels[0] * 2**i for i in range(n)] and levels[-1] <= knob.hi
    with pytest.raises(ValueError, match=f"outside {kind.name}'s range {knob.lo} to {knob.hi}"):
        budgets(kind.name, n, knob.hi)


def test_a_profile_resolves_through_its_kind():
    for name, prof in load_profiles().items():
        player, _, settings = resolve(name)
        kind = BY_NAME[player]
        assert player == prof.player and set(settings) <= set(kind.keys())
        assert kind.seconds_per_game(settings) > 0


def test_help_lists_exactly_the_registry_and_the_profiles():
    lines = valid_names(["players"]).splitlines()
    named = {line.split()[0] for line in lines if line.startswith("  ") and line[2] != " "}
    named = {n for n in named if not n.endswith(":") and n != "parameters"}
    assert named == set(BY_NAME) | set(load_profiles())
    text = " ".join(" ".join(lines).split())
    for kind in KINDS:
        assert f"{kind.name} {kind.description}" in text
        for s in kind.settings:
            assert f"{s.key}={s.default} ({s.allowed()})" in text
        if kind.budget:
            assert f"search budget: {kind.budget}" in text


def test_options_list_exactly_the_registry():
    from sim.app.service.routes_api import options

    listed = options()
    players = {p["name"]: p for p in listed["players"]}
    assert set(players) == set(BY_NAME) | set(load_profiles())
    assert listed["weak_players"] == [k.name for k in KINDS if k.weak] == ["random"]
    for kind in KINDS:
        p = players[kind.name]
        weights = list(DEFAULT_WEIGHTS) if kind.weights else []
        assert p["parameters"] == weights + kind.keys() and p["budget"] == kind.budget
        assert p["description"] == kind.description
        for s in kind.settings:
            got = p["settings"][s.key]
            assert got["default"] == s.default
            if s.named:
                assert got["choices"] == list(s.choices)
            else:
                assert (got["min"], got["max"]) == (s.lo, s.hi)
    for name, prof in load_profiles().items():
        assert players[name]["profile_of"] == prof.player


# The digest of each player's parameter row (sim.games.Player.digest) as the code before the
# registry wrote it: a dataset records these, and resuming, reading and comparing it need the
# same digests from this code. sage and seer are the checked-in profiles: these are the
# digests /work/main/runs/credibility-top's study.json recorded (seer:width=32: the trace's).
PINNED = {
    "random": "fca4273fb38e84d7",
    "greedy": "132747716d82e43d",
    "mc": "8dbf511175f5baba",
    "planner": "bfd25ea32337bcf2",
    "planner:width=8": "efbfa9a1b361db4b",
    "mc:playouts=32:horizon=4": "82702e984088f1a4",
    "planner:restrict=frozen": "fd580f0299719df0",
    "planner:peek=on:endgame=exact": "fe569cda327c8bf7",
    "greedy:points=12:material=1": "b96c8c77e9464102",
    "planner:samples=2:plans=4": "422dd6b10641ff58",
    "sage": "4720e4c8d219798b",
    "seer": "04941679c2d76d31",
    "seer:width=32": "5ef542e838946743",
}


def test_player_identities_are_unchanged():
    digests = players_digests(resolve_players(PINNED))
    assert digests == PINNED
    assert players_hash(digests) == "d85a9d32eef18770"


def test_a_tail_setting_at_its_default_keeps_the_identity():
    """A setting of the row's tail (the planner's leaf_top) at its default leaves a player's
    digest as it was before the tail; off its default it is another player, and an old
    record of the row (no tail) reads as that setting changed, not as another layout."""
    specs = ["planner", "planner:leaf_top=0", "seer", "seer:leaf_top=0", "seer:leaf_top=3"]
    got = players_digests(resolve_players(specs))
    assert got["planner"] == got["planner:leaf_top=0"] == PINNED["planner"]
    assert got["seer"] == got["seer:leaf_top=0"] == PINNED["seer"]
    assert got["seer:leaf_top=3"] != PINNED["seer"]
    players = resolve_players(["seer", "seer:leaf_top=3"])
    old = players["seer"].to_json()
    old["params"] = old["params"][:PP_TAIL]
    assert changed_parts(old, players["seer:leaf_top=3"].to_json()) == ["leaf_top"]
    assert players["seer:leaf_top=3"].params[PP_LEAF_TOP] == 3
