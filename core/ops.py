"""The effect op vocabulary: instruction layout and codes.

A card effect is a short program: rows of ``tables.ops`` (int32, ``I_WIDTH`` columns). The
content loader (sim.content) turns the TOML op lists into these rows; the interpreter
(core.effects) runs them. Adding a mechanic means adding an op or a selector here, never a
card-name branch in the turn loop.
"""

# --- instruction columns ----------------------------------------------------------------------
I_OP = 0  # opcode
I_COND = 1  # condition on earlier results (C_*)
I_OPTIONAL = 2  # 1: the player may skip this part
I_WHO = 3  # whose pieces the selector takes (W_*)
I_RANKS = 4  # rank mask of selected pieces (constants.RM_*)
I_REGION = 5  # where (RG_*)
I_PARAM = 6  # op parameter: rank to place, distance limit...
I_MOVE_KIND = 7  # MK_*
I_MOVE_TYPE = 8  # MT_*
I_ALTS = 9  # OP_CHOOSE: number of alternative instructions that follow
I_WIDTH = 12

# --- opcodes ----------------------------------------------------------------------------------
OP_PLACE = 0  # place a piece of yours (rank I_PARAM) on an empty square in I_REGION
OP_GAIN_ACTION = 1  # gain I_PARAM actions
OP_MOVE = 2  # a piece chosen by the selector does one move/leap of kind I_MOVE_KIND
OP_UPGRADE = 3  # upgrade one selected piece
OP_CONVERT = 4  # replace one selected enemy piece by yours of the same rank
OP_CHOOSE = 5  # pick one of the next I_ALTS instructions (each must have a legal target)
OP_DESTROY = 6  # destroy one selected piece
OP_DOWNGRADE = 7  # downgrade one selected piece
N_OPS = 8
OP_NAMES = ("place", "gain-action", "move", "upgrade", "convert", "choose", "destroy", "downgrade")
# ops that need a target chosen on the board
OP_TARGETED = (OP_PLACE, OP_MOVE, OP_UPGRADE, OP_CONVERT, OP_DESTROY, OP_DOWNGRADE)

# --- conditions ------------------------------------------------------------------------------
C_NONE = 0  # always run
C_DONE = 1  # the previous instruction was carried out
C_DONE_NOT_EQUAL = 2  # ... and its move did not destroy a piece of the mover's rank
COND_NAMES = ("always", "if-done", "if-done-no-equal-capture")

# --- owner selectors --------------------------------------------------------------------------
W_ANY = 0
W_SELF = 1
W_ENEMY = 2
WHO_NAMES = ("any", "own", "enemy")

# --- regions ------------------------------------------------------------------------------------
RG_ANYWHERE = 0
N_REGIONS = 1
REGION_NAMES = ("anywhere",)

# --- moves ----------------------------------------------------------------------------------
MK_STANDARD = 0  # destination empty or holding a lower-rank piece
MK_COMBAT = 1  # destination empty or holding a piece of equal or lower rank
MK_COMBAT_IF_PREV_NOT_EQUAL = 2  # combat unless the previous move took an equal-rank piece
MOVE_KIND_NAMES = ("standard", "combat", "combat-unless-previous-was")

MT_MOVE = 0  # one step to an adjacent square
MT_LEAP = 1  # to any other square of the board
MOVE_TYPE_NAMES = ("move", "leap")
