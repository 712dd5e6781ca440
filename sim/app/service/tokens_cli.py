"""``kalarite serve tokens add|list|revoke``: the users' tokens of a service's registry.

They work on the registry file directly (SQLite, safe alongside a running service, which
reads the tokens on every request: a token added or revoked counts at once, no restart).
``add`` prints the new token once, on stdout alone (so ``TOKEN=$(kalarite serve tokens add
...)`` works); only its SHA-256 is kept.
"""

import argparse
import datetime
import pathlib

from sim.app.service.config import ServiceConfig
from sim.app.service.tokens import ROLES, TokenError, check_name, check_role, hash_token, new_token


def _registry(args, create: bool):
    from sim.app.service.registry import Registry

    config = ServiceConfig(data=args.data)
    if not config.registry_path.is_file():
        if not create:
            return None
        config.prepare()
    return Registry(config.registry_path)


def cmd_add(args) -> int:
    name, role = check_name(args.name), check_role(args.role)
    registry = _registry(args, create=True)
    try:
        token = new_token()
        if not registry.add_token(name, role, hash_token(token)):
            raise TokenError(f"a token named {name!r} exists already (revoke it first)")
    finally:
        registry.close()
    print(token, flush=True)
    return 0


def cmd_list(args) -> int:
    registry = _registry(args, create=False)
    rows = [] if registry is None else registry.tokens()
    if registry is not None:
        registry.close()
    if not rows:
        print(f"no tokens in {pathlib.Path(args.data)}: the service is open on loopback")
        return 0
    width = max(len(r[0]) for r in rows)
    for name, role, _hash, created in rows:
        when = datetime.datetime.fromtimestamp(created, datetime.UTC).isoformat(timespec="seconds")
        print(f"{name:<{width}}  {role:<6}  created {when}")
    return 0


def cmd_revoke(args) -> int:
    registry = _registry(args, create=False)
    try:
        if registry is None or not registry.revoke_token(args.name):
            raise TokenError(f"no token named {args.name!r} in {args.data}")
    finally:
        if registry is not None:
            registry.close()
    print(f"revoked {args.name}")
    return 0


def add_parser(serve, data_default: str):
    """``tokens`` under the ``serve`` parser (its own --data, after the subcommand too)."""
    sub = serve.add_subparsers(dest="serve_command", metavar="{tokens}")
    tokens = sub.add_parser(
        "tokens",
        help="manage users' tokens (add, list, revoke)",
        description="Users' tokens of a service, each with a role: read (only read), submit "
        "(also submit, and cancel/resume/delete its own studies), admin (anything).",
    )
    actions = tokens.add_subparsers(dest="tokens_command", metavar="{add,list,revoke}")
    actions.required = True

    def data(p):
        p.add_argument(
            "--data",
            default=argparse.SUPPRESS,
            help=f"the service's data directory (default {data_default})",
        )

    add = actions.add_parser("add", help="add a token and print it (once)")
    add.add_argument("name", help="who the token is for (letters, digits, _ . @ -)")
    add.add_argument("--role", required=True, choices=ROLES, help="read, submit or admin")
    data(add)
    add.set_defaults(func=cmd_add)
    lst = actions.add_parser("list", help="list the tokens (names and roles, never tokens)")
    data(lst)
    lst.set_defaults(func=cmd_list)
    revoke = actions.add_parser("revoke", help="revoke a token (at once)")
    revoke.add_argument("name")
    data(revoke)
    revoke.set_defaults(func=cmd_revoke)
