"""``python -m sim.app.service.rayhost ADDRESS_FILE CPUS``: the service's own local Ray, when it
runs without ``--address``.

One Ray for the service's whole life, instead of one started and stopped by every study:
each study connects to it (under a second, where starting Ray takes 5 to 15 s). This process
starts Ray, writes the GCS address to ADDRESS_FILE, and sleeps; on SIGTERM or SIGINT (the
service stopping) and on the service's death (parent-death signal SIGTERM) it shuts Ray
down cleanly, which stops every Ray process it started.

Ray's token authentication is on (``RAY_AUTH_MODE=token``, Ray's default for a new local
cluster): the service gives the studies the same environment.
"""

import json
import os
import pathlib
import signal
import sys
import threading

from cluster.session import start_local_ray
from sim.app.service.children import tie_to_parent


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    address_file, cpus = pathlib.Path(argv[0]), int(argv[1])
    stop = threading.Event()

    def on_signal(*_):
        stop.set()

    tie_to_parent(signal.SIGTERM)
    os.environ.setdefault("RAY_AUTH_MODE", "token")  # before Ray is imported
    import ray
    import ray.dag  # noqa: F401 - imported by ray.shutdown; not in the middle of a signal

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        start_local_ray(cpus)
        # ray.init installs its own SIGTERM handler (exit at once): take the signals back,
        # so a stop request shuts Ray down in order
        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        info = {"address": ray.get_runtime_context().gcs_address, "cpus": cpus}
        tmp = address_file.with_name(address_file.name + ".tmp")
        tmp.write_text(json.dumps(info))
        os.replace(tmp, address_file)
        while not stop.wait(1.0):
            pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        address_file.unlink(missing_ok=True)
        ray.shutdown()
        # Ray's agents have been seen to outlive a shutdown; this process leads their
        # process group (the service starts it in a session of its own): end them all
        sys.stdout.flush()
        if os.getpgid(0) == os.getpid():
            os.killpg(os.getpid(), signal.SIGKILL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
