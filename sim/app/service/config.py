"""The service's settings and the layout of its data directory.

``--data DIR``::

    registry.sqlite            the study registry (sim.app.service.registry)
    studies/<id>/spec.toml     the spec as submitted (TOML), what the study child reads
    studies/<id>/dataset/      the study's Parquet dataset (same layout as ``kalarite study``)
    studies/<id>/report/       its report (index.html, PNG plots, summary.json)
    studies/<id>/downloads/    one Parquet file per table, made on the first download
    studies/<id>/run.log       the output of the study and report children
    compares/<a>-<b>/          ``kalarite compare`` output (compare.json, compare.txt)
    content/<name>/            content variants a spec may name (``content = "<name>"``)

Every path comes from a generated id or a fixed name, never from a request; and no answer
names one (``ServiceConfig.public``): a study's dataset is named by the study's id, a
content variant by its name, anything else by its path inside the data directory.
"""

import functools
import ipaddress
import os
import pathlib
import re
from dataclasses import dataclass

ID_PATTERN = re.compile(r"^[0-9a-f]{12}$")
MAX_BODY_BYTES = 256 * 1024
# limits on what submissions may cost (kalarite serve --max-...; 0 turns one off)
MAX_GAMES_STUDY = 1_000_000
MAX_GAMES_MATCHUP = 100_000
MAX_ACTIVE_PER_USER = 10  # studies one token may have queued or running
DISK_QUOTA_BYTES = 20 * 1024**3  # what the data directory may hold before submissions stop
LIMIT_OPTIONS = {
    "max_games_study": "--max-games-per-study",
    "max_games_matchup": "--max-games-per-matchup",
    "max_active_per_user": "--max-active-per-user",
    "disk_quota": "--max-disk",
}
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
MAX_LIMIT = 2**63 - 1  # a limit's most: what SQLite's integers hold
MAX_RUNNING = 256  # studies played at once: each is a process with its own workers
# every table a study may have: the first three always, positions when its spec samples them
TABLES = ("games", "card_events", "task_claims", "positions")


def study_tables(spec: dict) -> tuple:
    """The tables of the study whose normalized spec is ``spec`` (results.schema)."""
    from results.schema import dataset_tables

    return dataset_tables(spec)


class ConfigError(ValueError):
    """Bad ``kalarite serve`` options: one line, exit status 2."""


def parse_size(text: str) -> int:
    """``500M``, ``20G``, ``1.5T`` or a number of bytes (``0``: no quota)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", str(text), re.IGNORECASE)
    if not m:
        raise ConfigError(f"--max-disk must be a size such as 500M or 20G, got {text!r}")
    from sim.inputs import show

    size = float(m.group(1)) * _UNITS[m.group(2).upper()]  # 400 digits: an infinity
    if not size <= MAX_LIMIT:
        raise ConfigError(f"--max-disk must be at most 8 EiB (or 0: no quota), got {show(text)}")
    return int(size)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass
class ServiceConfig:
    data: pathlib.Path
    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None
    address: str | None = None  # Ray cluster address passed to each study (else local Ray)
    # Ray workers per study (default: all local cores); 0: each study plays in its own child
    # process, without Ray (no Ray is started: a small machine, or tests)
    workers: int | None = None
    max_running: int = 1  # studies played at once
    max_body: int = MAX_BODY_BYTES
    poll_s: float = 0.25  # how often the executor looks at its children
    max_games_study: int = MAX_GAMES_STUDY
    max_games_matchup: int = MAX_GAMES_MATCHUP
    max_active_per_user: int = MAX_ACTIVE_PER_USER
    disk_quota: int = DISK_QUOTA_BYTES

    def __post_init__(self):
        self.data = pathlib.Path(self.data).absolute()
        if self.token is None:
            self.token = os.environ.get("KALARITE_TOKEN") or None
        if not is_loopback(self.host) and not self.token and not self.has_user_tokens():
            raise ConfigError(
                f"binding to {self.host} needs a token (--token or KALARITE_TOKEN, or users' "
                "tokens from kalarite serve tokens add); without one the service only binds "
                "to 127.0.0.1"
            )
        if self.token is not None and len(self.token) < 8:
            raise ConfigError("the token must be at least 8 characters long")
        if not 1 <= self.max_running <= MAX_RUNNING:
            raise ConfigError(f"--max-running must be 1 to {MAX_RUNNING}, got {self.max_running}")
        if self.workers is not None and not 0 <= self.workers <= 1_000_000:
            raise ConfigError(f"--workers must be 0 (no Ray) to 1,000,000, got {self.workers}")
        if not 0 <= self.port < 65536:
            raise ConfigError(f"--port must be in 0..65535, got {self.port}")
        for name, option in LIMIT_OPTIONS.items():
            if not 0 <= getattr(self, name) <= MAX_LIMIT:
                raise ConfigError(f"{option} must be 0 (no limit) to 2**63 - 1")

    def has_user_tokens(self) -> bool:
        from sim.app.service.registry import has_tokens

        return has_tokens(self.registry_path)

    def limits(self) -> dict:
        """What /info says of the limits (None: no limit)."""
        return {
            "max_games_per_study": self.max_games_study or None,
            "max_games_per_matchup": self.max_games_matchup or None,
            "max_active_studies_per_user": self.max_active_per_user or None,
            "disk_quota_bytes": self.disk_quota or None,
        }

    # --- what answers may say ------------------------------------------------------------

    @functools.cached_property
    def _public_rules(self) -> list:
        """(pattern, replacement) pairs over the data directory's spellings (as given and
        resolved), most specific first; text rules and the same as bytes."""
        rules = []
        for d in dict.fromkeys((str(self.data), str(self.data.resolve()))):
            root = re.escape(d)
            # the whole path, not the start of a longer one (a full stop may follow it)
            end = r"(?![\w/-])(?!\.[\w/])"
            rules += [
                (rf"{root}/studies/([0-9a-f]{{12}})/dataset{end}", r"\1"),
                (rf"{root}/content/([\w.-]+){end}", r"\1"),
                (rf"{root}/", ""),
                (rf"{root}{end}", "."),
            ]
        return [(re.compile(p), r, re.compile(p.encode()), r.encode()) for p, r in rules]

    def public(self, value):
        """``value`` (text, bytes, or dicts and lists of them) as the service may answer it:
        no path of this server. The children write the server's paths into what they make
        (a report names its dataset, a manifest its content directory, a log its output), so
        every answer read from the data directory goes through here."""
        if isinstance(value, str):
            for pattern, repl, _, _ in self._public_rules:
                value = pattern.sub(repl, value)
            return value
        if isinstance(value, bytes):
            for _, _, pattern, repl in self._public_rules:
                value = pattern.sub(repl, value)
            return value
        if isinstance(value, dict):
            return {k: self.public(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.public(v) for v in value]
        return value

    # --- layout ----------------------------------------------------------------------------

    @property
    def registry_path(self) -> pathlib.Path:
        return self.data / "registry.sqlite"

    @property
    def content_root(self) -> pathlib.Path:
        return self.data / "content"

    def study_dir(self, study_id: str) -> pathlib.Path:
        """The directory of a study; ``study_id`` must be a generated id."""
        if not ID_PATTERN.match(study_id):
            raise ValueError(f"not a study id: {study_id!r}")
        return self.data / "studies" / study_id

    def dataset_dir(self, study_id: str) -> pathlib.Path:
        return self.study_dir(study_id) / "dataset"

    def report_dir(self, study_id: str) -> pathlib.Path:
        return self.study_dir(study_id) / "report"

    def compare_dir(self, a: str, b: str) -> pathlib.Path:
        for i in (a, b):
            if not ID_PATTERN.match(i):
                raise ValueError(f"not a study id: {i!r}")
        return self.data / "compares" / f"{a}-{b}"

    def prepare(self):
        """Create the data directory (or say in one line why it cannot be used)."""
        try:
            for d in (self.data, self.data / "studies", self.data / "compares"):
                d.mkdir(parents=True, exist_ok=True)
            probe = self.data / ".write-test"
            probe.write_bytes(b"ok")
            probe.unlink()
        except OSError as e:
            raise ConfigError(f"cannot use --data {str(self.data)!r}: {e.strerror or e}") from None
