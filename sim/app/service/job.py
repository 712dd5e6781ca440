"""``python -m sim.app.service.job ARGS``: one ``kalarite ARGS`` command (``study``, ``report``,
``compare``) run for the service as its child process.

The command is the CLI's own (same checks, same dataset layout, same resume, Ctrl-C finishes
the chunks in flight), so a study run by the service is exactly one run by hand. Tied to the
service with SIGKILL: if the service dies, the study stops dead and its dataset stays
resumable (chunks are written atomically); the service resumes it when it starts again.
"""

import signal
import sys

from sim.app.service.children import tie_to_parent


def main(argv=None) -> int:
    tie_to_parent(signal.SIGKILL)
    from sim.app.cli import main as cli_main

    return cli_main(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
