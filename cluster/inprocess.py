"""Play a study's chunks in this process, one after the other, without Ray (``workers=0``):
for tiny studies, notebooks and tests, where starting Ray costs more than the games.

``InProcessSession`` offers the few calls of the Ray API that the runner makes (``remote``,
``wait``, ``get``, ``exceptions.RayError``), so the runner's loop, the dataset store and the
summary are the same whichever way the chunks are played.
"""

import os
import types


class ChunkError(Exception):
    """A chunk that failed in this process (the runner reports it like a failed Ray task)."""

    def __init__(self, cause: BaseException):
        super().__init__(str(cause))
        self.cause = cause


class _Ref:
    def __init__(self, fn, job):
        self.fn, self.job = fn, job
        self.done = False
        self.value = None
        self.error = None

    def run(self):
        try:
            self.value = self.fn(self.job, ignore_sigint=False)
        except Exception as e:  # noqa: BLE001 - handed to the runner as a failed chunk
            self.error = ChunkError(e)
        self.done = True


class _Remote:
    def __init__(self, fn):
        self.fn = fn

    def remote(self, job):
        return _Ref(self.fn, job)


class _RayLike:
    exceptions = types.SimpleNamespace(RayError=ChunkError)

    def remote(self, **_options):
        return _Remote

    def wait(self, refs, num_returns=1, timeout=None):
        """Play the oldest chunk now; it is the one ready."""
        ref = refs[0]
        if not ref.done:
            ref.run()
        return [ref], refs[1:]

    def get(self, ref):
        if ref.error is not None:
            raise ref.error
        return ref.value


class InProcessSession:
    """The runner's session when ``workers=0``: one chunk at a time in this process."""

    workers = 1
    cpus = 1
    window = 1

    def __init__(self):
        self.ray = _RayLike()
        self.pid = os.getpid()

    def close(self):
        pass
