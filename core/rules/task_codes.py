"""The High Form task codes: each criterion of tasks.toml's ``check`` and each task type as a
small integer (core.rules.tasks checks them in the kernel). No numba here: sim.content reads
the task file through this module without loading the compiler."""

# --- criteria (tasks.toml `check`); the tuple order defines the codes -------------------------
TK_DESTROYED = 0  # [min destroyed, min upgraded destroyed]
TK_END_OF_LEGENDS = 1  # [min legendary destroyed, min heroic destroyed] (either suffices)
TK_CONQUEST = 2  # [colour mask, min pieces, min upgraded, min legendary] on coloured squares
TK_RAINBOW = 3  # more upgraded pieces than the enemies on red and on green squares
TK_SUMMONED = 4  # [min beings, colour mask, min summonings onto that colour, min legends]
TK_CENTRAL_DOMINANCE = 5  # [min pieces, min upgraded] on the central squares
TK_CENTER_CROSS = 6  # the centre and its 4 orthogonal or its 4 diagonal neighbours
TK_LINE_DOMINANCE = 7  # [min margin] own minus enemy pieces on a row/column through the centre
TK_DIAGONALS = 8  # [min pieces, min upgraded] on each long diagonal
TK_SIDE_CHAIN = 9  # connected own pieces joining opposite straight sides
TK_CORNER_CHAIN = 10  # connected own pieces joining opposite cut corners
TK_SURROUND = 11  # [min own neighbours] around one enemy piece
TK_ISOLATION = 12  # [ring distance, max moves] an enemy piece cut off from its fellows
TASK_CHECK_NAMES = (
    "destroyed", "end-of-legends", "conquest", "rainbow", "summoned", "central-dominance",
    "center-cross", "line-dominance", "diagonals", "side-chain", "corner-chain", "surround",
    "isolation",
)  # fmt: skip

# --- task types (BGA's five groups, used by the display rule) ---------------------------------
TT_DESTRUCTION = 0
TT_COLORED = 1
TT_SUMMONING = 2
TT_PATTERN = 3
TT_ENEMY = 4
TASK_TYPE_NAMES = ("destruction", "colored", "summoning", "pattern", "enemy")

# colour mask bits used by conquest and summoned arguments
CM_RED = 1
CM_GREEN = 2
