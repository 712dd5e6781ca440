"""Per-user tokens: who a request is and what its role lets it do.

A token is 32 bytes from the OS's random source (``klr_`` + URL-safe base64); the registry
keeps only its SHA-256 (a salt or a slow hash buys nothing for a random secret of 256 bits),
and a request's token is hashed and compared with every stored hash in constant time. The
token itself is printed once, by ``kalarite serve tokens add``, and never stored or logged.

Roles, each including the one before: ``read`` (list and read studies, their reports and
tables, compare, check a spec), ``submit`` (also submit studies, and cancel, resume and delete
its own), ``admin`` (also cancel, resume and delete anyone's).
"""

import hashlib
import re
import secrets
from dataclasses import dataclass

ROLES = ("read", "submit", "admin")
PREFIX = "klr_"
# names the service gives the two principals that are not registry tokens
SHARED = "shared-token"  # the --token / KALARITE_TOKEN of a single-token service
LOCAL = "local"  # anyone on loopback while the service has no token at all
RESERVED = (SHARED, LOCAL)
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")


class TokenError(ValueError):
    """A bad ``kalarite serve tokens`` request: one line, exit status 2."""


@dataclass(frozen=True)
class Principal:
    """Who sent a request (a token's name) and its role."""

    name: str
    role: str

    def can(self, role: str) -> bool:
        return ROLES.index(self.role) >= ROLES.index(role)


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):  # $ would allow "\n"
        raise TokenError(
            f"a token name is 1 to 64 letters, digits and _ . @ - (starting with a letter or "
            f"digit), got {name!r}"
        )
    if name in RESERVED:
        raise TokenError(f"{name!r} is a name the service uses itself; choose another")
    return name


def check_role(role: str) -> str:
    if role not in ROLES:
        raise TokenError(f"unknown role {role!r} (roles: {', '.join(ROLES)})")
    return role


def match(given: str, stored: list) -> Principal | None:
    """The principal whose stored hash is the hash of ``given``; ``stored``: (name, role,
    hash) rows. Every hash is compared (in constant time), so the answer's timing does not
    depend on which row matched."""
    digest = hash_token(given).encode()
    found = None
    for name, role, h in stored:
        if secrets.compare_digest(digest, h.encode()):
            found = Principal(name, role)
    return found
