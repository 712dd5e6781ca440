"""The event table (core.constants EVENTS): every event code has a row with a name, a board
effect and a text, and the text log (sim.render.event_text) and the board it rebuilds
(sim.single_game) read that row, so an event cannot vanish from the log or leave the board
unchanged by omission."""

import pytest

from core import constants as K
from sim.content import load_content
from sim.render import event_text
from sim.single_game import replay_board

CONTENT = load_content()
EV_CODES = {
    name: v
    for name, v in vars(K).items()
    if name.startswith("EV_") and name != "EV_WIDTH" and isinstance(v, int)
}


def test_every_event_code_has_one_row_in_code_order():
    assert sorted(EV_CODES.values()) == list(range(len(K.EVENTS)))
    assert [e.code for e in K.EVENTS] == list(range(len(K.EVENTS)))
    assert len(set(K.EV_NAMES)) == len(K.EVENTS)
    for name, code in EV_CODES.items():  # EV_GAIN_ACTION is "gain-action"
        assert K.EVENTS[code].name == name[3:].lower().replace("_", "-"), name


@pytest.mark.parametrize("event", K.EVENTS, ids=K.EV_NAMES)
def test_every_event_has_a_board_effect_and_a_text(event):
    assert event.board in K.BOARD_EFFECTS
    assert event.text.strip()


@pytest.mark.parametrize("mode", K.MODE_NAMES)
@pytest.mark.parametrize("event", K.EVENTS, ids=K.EV_NAMES)
def test_every_event_text_renders_in_every_mode(event, mode):
    """Every field a template names is one event_text knows (a row of small valid values:
    card 0 and 1, task 0, the upper half, a destruction, reason 'none')."""
    row = (event.code, 3, 1, 0, 1, 1)
    text = event_text(row, CONTENT, mode, decks=["imperial", "highland"])
    assert text and "{" not in text


def test_texts_read_the_row():
    cards = CONTENT.cards
    assert event_text((K.EV_SWAP, 4, 1, 54, 6, 0), CONTENT) == (
        "seat 1 swaps the pieces on [6,0] and [0,6]"
    )
    assert event_text((K.EV_SCORE, 4, 1, 2, K.SR_DESTRUCTION, 0), CONTENT, "team-deathmatch") == (
        "team 1 scores 2 (destruction)"
    )
    assert event_text((K.EV_SCORE, 4, 1, 2, K.SR_TASK, 2), CONTENT, "melee") == (
        "seat 1 scores 2 in colour 2's column (task)"
    )
    assert event_text((K.EV_TURN, 7, 1, 2, 1, 0), CONTENT, decks=["imperial", "sylvan"]) == (
        "Turn 7: seat 1 (sylvan), 2 action(s) (extra turn)"
    )
    assert event_text((K.EV_GATEWAY_LOST, 4, 0, -1, 0, 0), CONTENT) == (
        "seat 0's Gateway, held in stasis, is gone (its piece went back to stock)"
    )
    assert event_text((K.EV_GATEWAY_LOST, 4, 0, 40, 0, 0), CONTENT) == (
        "seat 0's Gateway on [4,4] is gone"
    )
    assert event_text((K.EV_CARD_TO_FROZEN, 4, 0, 2, -1, 0), CONTENT) == (
        f"seat 0 takes {cards[2].name} from its discard pile as its frozen effect"
    )


# what each board effect does to a board holding a piece of code 5 on square 10 and code 6
# on square 20: (a, b, c) of the row, and the squares that change to what
EFFECTS = {
    K.BOARD_PLACE: ((30, K.COMMON, 0), {30: 1 * 4 + K.COMMON}),
    K.BOARD_CLEAR: ((10, 5, 0), {10: 0}),
    K.BOARD_SET: ((10, 7, 0), {10: 7}),
    K.BOARD_CONVERT: ((10, 5, 9), {10: 9}),
    K.BOARD_MOVE: ((10, 30, 5), {10: 0, 30: 5}),
    K.BOARD_SWAP: ((10, 20, 0), {10: 6, 20: 5}),
}


@pytest.mark.parametrize("event", K.EVENTS, ids=K.EV_NAMES)
def test_the_rebuilt_board_follows_each_events_effect(event):
    before = [0] * 81
    before[10], before[20] = 5, 6
    if event.board == K.BOARD_SUMMON:
        card = 0
        row = (event.code, 1, 1, card, 30, 0)
        want = {30: 1 * 4 + int(CONTENT.tables.card_rank[card])}
    elif event.board == K.BOARD_NONE:
        row, want = (event.code, 1, 1, 10, 20, 0), {}
    else:
        (a, b, c), want = EFFECTS[event.board]
        row = (event.code, 1, 1, a, b, c)
    # replay_board starts from an empty board: two set-up events lay the pieces first
    setup = [(K.EV_SETUP_PIECE, 0, 0, 10, 5, 0), (K.EV_SETUP_PIECE, 0, 0, 20, 6, 0)]
    board = replay_board([*setup, row], CONTENT.tables)
    after = dict(enumerate(before)) | want
    assert board == [after[q] for q in range(81)]
