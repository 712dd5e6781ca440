"""Connecting to an existing Ray cluster the stock way: a cluster started with ``ray start``
may or may not ask for Ray's token (Ray turns token authentication on for a head that finds
a token, and for every cluster ``ray.init`` starts), and the driver must follow it with no
setting of the user's.

Ray itself follows the token only for a cluster it finds on its own (``address="auto"``);
with an explicit address (``--address``, ``RAY_ADDRESS``) a driver without
``RAY_AUTH_MODE=token`` retries for 20 s, printing a page of ``InvalidAuthToken`` warnings,
and then fails with "cannot connect". So before ``ray.init`` the driver asks the cluster
once, in a short-lived child process (``python -m cluster.connect ADDRESS``: its warnings are
swallowed, its wait bounded):

- ``RAY_AUTH_MODE`` set by the user: used as it is.
- Otherwise, when Ray finds a token on this machine (``RAY_AUTH_TOKEN``,
  ``RAY_AUTH_TOKEN_PATH``, ``~/.ray/auth_token``), the driver sends it (token mode): a
  cluster without authentication ignores it, one with authentication checks it.
- A cluster that refuses (no token, or another one) is one line naming what to set.
"""

import json
import os
import socket
import subprocess
import sys

PROBE_S = 15.0  # the child's whole life: Ray's import, and its bounded wait for the GCS
GCS_WAIT_S = 3  # how long the child's GCS client waits for an answer


class ClusterRefused(ValueError):
    """The cluster refused this driver, or could not be reached (one line, exit status 2)."""


class ClusterUnreachable(ClusterRefused):
    """Nobody answered at the address (a cluster not up yet, or a wrong address): a service
    starts all the same, its studies fail until the cluster is up."""


def token_source() -> str:
    """Where Ray reads this machine's token from, in its own order, in words."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return "RAY_AUTH_TOKEN"
    if os.environ.get("RAY_AUTH_TOKEN_PATH"):
        return f"RAY_AUTH_TOKEN_PATH ({os.environ['RAY_AUTH_TOKEN_PATH']})"
    return "~/.ray/auth_token"


def is_host_port(address: str) -> bool:
    """A GCS address (host:port): the only kind asked first; ``ray://``, ``auto`` and the
    like are left to Ray."""
    host, _, port = address.rpartition(":")
    return "://" not in address and bool(host) and port.isdigit()


def follow_cluster_auth(address: str) -> None:
    """Make this process's Ray follow the authentication of the cluster at ``address``
    (before ``ray.init``): token mode where the user set nothing and this machine has a
    token. Raises ClusterRefused (one line) when the cluster refuses this driver, and its
    kind ClusterUnreachable when nobody answers at ``address`` (within PROBE_S)."""
    if not is_host_port(address):
        return
    host, _, port = address.rpartition(":")
    try:  # nobody listening: at once, without a child (ray.init would retry for minutes)
        socket.create_connection((host, int(port)), timeout=5.0).close()
    except OSError as e:
        raise ClusterUnreachable(f"cannot reach Ray at {address}: {e.strerror or e}") from None
    env = dict(os.environ)
    env["RAY_py_gcs_connect_timeout_s"] = str(GCS_WAIT_S)
    env["RAY_gcs_rpc_server_connect_timeout_s"] = str(GCS_WAIT_S)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # cluster's parent
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))
    env.setdefault("RAY_BACKEND_LOG_LEVEL", "error")
    try:
        p = subprocess.run(
            [sys.executable, "-m", "cluster.connect", address],
            env=env,
            capture_output=True,
            text=True,
            timeout=PROBE_S,
        )
    except subprocess.TimeoutExpired:
        raise ClusterUnreachable(
            f"no Ray answered at {address} within {PROBE_S:.0f} s (is it the head's GCS "
            "port, as `ray start --head` printed it?)"
        ) from None
    lines = [x for x in p.stdout.splitlines() if x.startswith("{")]
    if not lines:
        text = " ".join((p.stderr.strip().splitlines() or ["no answer"])[-1].split())[:300]
        raise ClusterRefused(f"cannot ask Ray at {address}: {text}")
    answer = json.loads(lines[-1])
    if answer["result"] == "auth":
        raise ClusterRefused(refused_text(address, answer["mode"], answer["token"]))
    if answer["result"] != "ok":
        raise ClusterUnreachable(f"cannot reach Ray at {address}: {answer['error']}")
    if answer["mode"] == "token" and os.environ.get("RAY_AUTH_MODE") is None:
        use_token_mode()


def refused_text(address: str, mode: str | None, token: bool) -> str:
    """The one line of a cluster that refused this driver: what to set, and where."""
    get = "`ray get-auth-token` on the head prints it"
    if mode is not None and mode != "token":
        return (
            f"Ray at {address} asks for its token, but RAY_AUTH_MODE={mode} here: unset "
            f"RAY_AUTH_MODE (or set it to token) and put the cluster's token in "
            f"~/.ray/auth_token or RAY_AUTH_TOKEN ({get})"
        )
    if token:
        return (
            f"Ray at {address} refused this machine's token (from {token_source()}): put "
            f"the cluster's token there ({get})"
        )
    return (
        f"Ray at {address} asks for its token and this machine has none: put the cluster's "
        f"token in ~/.ray/auth_token or RAY_AUTH_TOKEN ({get})"
    )


def use_token_mode() -> None:
    """Token mode for this process and its children (Ray reads its mode from the
    environment, cached in its config: refreshed here as Ray does it)."""
    os.environ["RAY_AUTH_MODE"] = "token"
    try:
        from ray._raylet import Config

        Config.initialize("")
    except (ImportError, AttributeError):  # an older Ray: the environment is enough
        pass


def _ask(address: str) -> dict:
    """In the child: the mode it used, whether a token was found, and what the cluster
    said ("ok", "auth" or "error" with its text)."""
    mode = os.environ.get("RAY_AUTH_MODE")
    from ray._raylet import AuthenticationTokenLoader

    token = bool(AuthenticationTokenLoader.instance().has_token(ignore_auth_mode=True))
    if mode is None and token:
        os.environ["RAY_AUTH_MODE"] = "token"  # before the GCS client reads its config
    from ray._raylet import Config, GcsClient
    from ray.exceptions import AuthenticationError

    Config.initialize("")
    used = os.environ.get("RAY_AUTH_MODE")
    try:
        GcsClient(address=address).internal_kv_get(b"kalarite-probe", None)
    except AuthenticationError:
        return {"result": "auth", "mode": mode, "token": token}
    except Exception as e:  # noqa: BLE001 - any other failure is reported in one line
        text = " ".join(str(e).split())[:300] or type(e).__name__
        return {"result": "error", "mode": used, "token": token, "error": text}
    return {"result": "ok", "mode": used, "token": token}


if __name__ == "__main__":
    print(json.dumps(_ask(sys.argv[1])), flush=True)
