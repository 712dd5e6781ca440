"""Names of the codes a checked game can end with: a broken invariant of
core.checks.invariants (INV_NAMES, short names INV_*), or one of the two engine errors of the
result rows (core.rows ERR_*). The commands that report them (`kalarite check`, `kalarite play
--check`) name them the same way."""

from core.checks import invariants as _inv
from core.checks.invariants import INV_NAMES
from core.rows import ERR_LOG, ERR_POLICY

# code -> "INV_POOL" etc., read from the module so a new invariant is named without a change here
_SHORT = {
    getattr(_inv, k): k for k in dir(_inv) if k.startswith("INV_") and k not in ("INV_NAMES",)
}
_SHORT[ERR_POLICY] = "ERR_POLICY"
_SHORT[ERR_LOG] = "ERR_LOG"
_LONG = {ERR_POLICY: "a player chose no legal option", ERR_LOG: "the event log overflowed"}


def short_name(code: int) -> str:
    """``INV_POOL``, ``ERR_LOG``...; ``code N`` for a code nobody named."""
    return _SHORT.get(int(code), f"code {int(code)}")


def error_text(code: int) -> str:
    """``INV_POOL (common/heroic pieces: board + stock != total)``."""
    code = int(code)
    if 0 < code < len(INV_NAMES):
        return f"{short_name(code)} ({INV_NAMES[code]})"
    return f"{short_name(code)} ({_LONG.get(code, 'unknown error code')})"
