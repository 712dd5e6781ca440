"""Numeric extremes for every place a user gives kalarite a number, and what became of each.

Issue 50: ``--policy planner:width=1e400`` was a 26-line traceback and HTTP 500. The places:
every number flag of every command (found in the parser itself, so a new flag is covered
without a change here), the flags that hold numbers in text (``--band``, ``--until``,
``--max-disk``, ...), every flag that names a player (its ``key=value`` settings and weights),
the numbers of a study spec, a goal spec, a position file and a profile file, and the service's
routes that take them (``specs/check``, ``studies``, ``suggestions`` as TOML and JSON bodies,
and ``GET /studies?limit=``). The values: ``MUST_REFUSE`` (NaN, the infinities, 1e400, an
integer of 41 digits and 2**64: no place takes them) and ``MAY_ACCEPT`` (-0, 0, -1, 0.5,
1e-400, 2**63: a place may take them).

Each case must end in one ``kalarite: error:`` line naming its place, exit status 2 (the
service: 4xx with a one-line JSON error), or, for a ``MAY_ACCEPT`` value, do what the command
does (exit status 0; the service 2xx); never a traceback, another status, a signal or HTTP 5xx.

Used by tests/test_fuzz_input.py (a sample, in process) and benchmarks/fuzz_input.py
(``make fuzz``: every case, each command in its own process with a timeout).
"""

import argparse
import json
import pathlib
import random
from dataclasses import dataclass, field

MUST_REFUSE = ("nan", "inf", "-inf", "1e400", "-1e400", "1" + "0" * 40, str(2**64))
MAY_ACCEPT = ("-0", "0", "-1", "0.5", "1e-400", str(2**63))
# commands whose accepted values would start Ray (ladder, tune need workers) or a server
# (serve): only values they must refuse are given to them
REFUSE_ONLY = ("ladder", "tune", "serve")
# the values as JSON (NaN and the infinities are no JSON numbers: json.dumps writes them so)
_JSON = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity", "-1e400": "-1e400"}


@dataclass
class Case:
    """One number in one place: a command line (``argv``, with ``files`` to write first) or a
    service request (``method``, ``path``, ``body``, ``content_type``)."""

    target: str  # the command, or the route
    place: str  # the flag, key or setting
    value: str  # the number as written
    names: tuple  # words one of which the refusal names (the flag, the key)
    argv: list = field(default_factory=list)
    files: dict = field(default_factory=dict)  # name -> text, written under the case's folder
    method: str = ""
    path: str = ""
    body: bytes = b""
    content_type: str = ""

    @property
    def must_refuse(self) -> bool:
        return self.value in MUST_REFUSE

    @property
    def service(self) -> bool:
        return bool(self.method)

    def label(self) -> str:
        return f"{self.target} {self.place}={self.value[:12]}"


# --- the command line -------------------------------------------------------------------------

RUN = "no-such-run"  # report, compare and learn: the margin is checked before the run is read
SPEC = 'decks = ["imperial", "highland"]\ngames = 2\npolicies = "random"\n'


def bases() -> dict:
    """Per command, a small valid command line ({out}: a folder of the case's own)."""
    quick = ["--workers", "0"]
    return {
        "play": ["play", "--decks", "imperial,highland", "--policy", "random"],
        "moves": ["moves", "position.toml"],
        "cards": ["cards", "list"],
        "simulate": [
            "simulate",
            "--decks",
            "imperial,highland",
            "--games",
            "2",
            "--policy",
            "random",
            "--out",
            "{out}",
            *quick,
        ],  # fmt: skip
        "study": ["study", "spec.toml", "--out", "{out}", *quick],
        "trace": [
            "trace",
            "--player",
            "mc",
            "--games",
            "2",
            "--levels",
            "4",
            "--base",
            "1",
            "--decks",
            "imperial,highland",
            "--out",
            "{out}",
            *quick,
        ],  # fmt: skip
        "demo": ["demo", "--out", "{out}", "--games", "1", *quick],
        "report": ["report", RUN, "--out", "{out}"],
        "compare": ["compare", RUN, RUN],
        "serve": ["serve", "--data", "{out}"],
        "players": ["players"],
        "ladder": [
            "ladder",
            "--out",
            "{out}",
            "--games",
            "2",
            "--players",
            "random,greedy",
            "--workers",
            "1",
            "--speed-seconds",
            "0.1",
        ],  # fmt: skip
        "competence": [
            "competence",
            "--player",
            "greedy",
            "--games",
            "2",
            "--out",
            "{out}",
            *quick,
        ],  # fmt: skip
        "tune": [
            "tune",
            "--name",
            "fuzz",
            "--iterations",
            "1",
            "--population",
            "2",
            "--games",
            "2",
            "--validation",
            "2",
            "--workers",
            "1",
            "--profiles",
            "profiles.toml",
        ],  # fmt: skip
        "learn": ["learn", RUN, "--name", "fuzz", "--profiles", "profiles.toml"],
        "check": ["check", "--games", "2", "--policy", "random", *quick],
        "suggest": [
            "suggest",
            "--deck",
            "highland",
            "--band",
            "0.4,0.6",
            "--games",
            "50",
            "--out",
            "{out}",
            *quick,
        ],  # fmt: skip
        "bench": ["bench", "--rounds", "1"],
    }


# flags whose text holds a number: each template's {x} is the value
TEXT_FLAGS = {
    "--band": ("{x},0.6", "0.4,{x}"),
    "--floor": ("{x},0.9",),
    "--nerf": ("{x}",),
    "--until": ("width={x}",),
    "--max-disk": ("{x}G",),
}
# flags that name players: a setting or a weight of one is a number
PLAYER_FLAGS = {
    "--policy": ("planner:width={x}", "mc:playouts={x}", "greedy:points={x}"),
    "--player": ("planner:width={x}", "mc:horizon={x}"),
    "--opponent": ("greedy:material={x}",),
    "--players": ("random,planner:width={x}",),
    "--confirm-players": ("sage,planner:samples={x}",),
}
PLAYER_KEYS = ("width", "playouts", "points", "horizon", "material", "samples")


def number_flags(parser) -> dict:
    """{command: [(flag, kind)]}: every flag of every command that takes a number ("int",
    "float") or holds one in text ("text", "player"), read from the parser itself."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = {}
    for name, p in sub.choices.items():
        flags = []
        for a in p._actions:
            if not a.option_strings or a.nargs == 0 or a.option_strings[0] == "-h":
                continue
            flag = a.option_strings[-1]
            if a.type in (int, float):
                flags.append((flag, a.type.__name__))
            elif a.type is not None:  # a checking type of its own (--margin)
                flags.append((flag, "float"))
            elif flag in TEXT_FLAGS:
                flags.append((flag, "text"))
            elif flag in PLAYER_FLAGS:
                flags.append((flag, "player"))
        out[name] = flags
    return out


def _with(argv, flag, value) -> list:
    """``argv`` with ``flag`` set to ``value`` (``--flag=value``: ``-inf`` is no option)."""
    argv = list(argv)
    if flag in argv:
        i = argv.index(flag)
        del argv[i : i + 2]
    return argv + [f"{flag}={value}"]


def _files(command) -> dict:
    files = {"spec.toml": SPEC} if command == "study" else {}
    if command == "moves":
        from benchmarks.input_mutants import POSITIONS, to_toml

        files["position.toml"] = to_toml(POSITIONS["duel.toml"])
    return files


def cli_cases(values=MUST_REFUSE + MAY_ACCEPT) -> list:
    """Every number flag of every command with every value, then the numbers of the files
    the commands read (a study spec, a goal, a position, a profile file)."""
    from sim.app.cli import build_parser

    base = bases()
    out = []
    for command, flags in number_flags(build_parser()).items():
        for flag, kind in flags:
            templates = {"text": TEXT_FLAGS, "player": PLAYER_FLAGS}.get(kind, {}).get(
                flag, ("{x}",)
            )
            for template in templates:
                for x in values:
                    if command in REFUSE_ONLY and x not in MUST_REFUSE:
                        continue
                    names = (flag, flag.lstrip("-").replace("-", "_"))
                    if kind == "player":
                        names += PLAYER_KEYS + ("policy",)
                    if flag == "--nerf" or flag == "--band" or flag == "--floor":
                        names += ("goal.band", "goal.floor", "goal.ceiling")
                    argv = _with(base[command], flag, template.replace("{x}", x))
                    out.append(Case(command, flag, x, names, argv, _files(command)))
    return out + file_cases(values)


# the numbers of the files a command reads: (command, file, template of its text, names)
def _spec(extra: str) -> str:
    return SPEC.replace("games = 2\n", "") + extra


GOAL = '[goal]\ndeck = "highland"\nband = [0.4, 0.6]\n[budget]\ngames = 50\n'
PROFILE = '[profile.fuzz]\nplayer = "planner"\n'
FILE_PLACES = [
    ("study", "games", _spec("games = {x}\n")),
    ("study", "seed", _spec("games = 2\nseed = {x}\n")),
    ("study", "turn_cap", _spec("games = 2\nturn_cap = {x}\n")),
    ("study", "chunk_size", _spec("games = 2\nchunk_size = {x}\n")),
    ("study", "positions", _spec("games = 2\npositions = {x}\n")),
    ("study", "stability_margin", _spec("games = 2\nstability_margin = {x}\n")),
    ("study", "melee_players", _spec('games = 2\nmodes = "melee"\nmelee_players = {x}\n')),
    ("study", "until", _spec('games = 2\nuntil = "width={x}"\n')),
    ("study", "policies", SPEC.replace('"random"', '"planner:width={x}"')),
    ("study", "trace", _spec('games = 2\ntrace = {player = "mc", levels = [{x}, 2, 4, 8]}\n')),
    ("suggest", "goal.band", GOAL.replace("[0.4, 0.6]", "[{x}, 0.6]")),
    ("suggest", "goal.min_effect", GOAL.replace("[budget]", "min_effect = {x}\n[budget]")),
    ("suggest", "budget.games", GOAL.replace("games = 50", "games = {x}")),
    ("suggest", "budget.first_round", GOAL + "first_round = {x}\n"),
    ("suggest", "budget.rounds", GOAL + "rounds = {x}\n"),
    ("suggest", "budget.confirm_games", GOAL + "confirm_games = {x}\n"),
    ("suggest", "budget.confirm_count", GOAL + "confirm_count = {x}\n"),
    ("suggest", "budget.check_games", GOAL + "check_games = {x}\n"),
    ("suggest", "budget.alpha", GOAL + "alpha = {x}\n"),
    ("suggest", "run.seed", GOAL + "[run]\nseed = {x}\n"),
    ("suggest", "run.stack", GOAL + "[run]\nstack = {x}\n"),
    ("suggest", "edits.max_candidates", GOAL + "[edits]\nmax_candidates = {x}\n"),
    ("suggest", "players.screen", GOAL + '[players]\nscreen = "planner:width={x}"\n'),
    ("moves", "to_move", None),
    ("moves", "destroyed", None),
    ("learn", "weights", PROFILE + "[profile.fuzz.weights]\npoints = {x}\n"),
    ("learn", "settings", PROFILE + "[profile.fuzz.settings]\nwidth = {x}\n"),
    ("learn", "model", PROFILE + "[profile.fuzz.model.high-form]\nintercept = {x}\n"),
]


def _position(key, x) -> str:
    from benchmarks.input_mutants import POSITIONS, to_toml

    text = to_toml(POSITIONS["duel.toml"])
    if key == "to_move":
        return text.replace("to_move = 0", f"to_move = {x}")
    return text.replace('"common": 1', f'"common": {x}').replace("common = 1", f"common = {x}")


def file_cases(values=MUST_REFUSE + MAY_ACCEPT) -> list:
    base = bases()
    out = []
    for command, key, template in FILE_PLACES:
        for x in values:
            if command == "study":
                files = {"spec.toml": template.replace("{x}", x)}
                argv = base["study"]
            elif command == "suggest":
                files = {"goal.toml": template.replace("{x}", x)}
                argv = ["suggest", "goal.toml", "--out", "{out}", "--workers", "0"]
            elif command == "moves":
                files = {"position.toml": _position(key, x)}
                argv = base["moves"]
            else:
                files = {"profiles.toml": template.replace("{x}", x)}
                argv = base["learn"]
            names = (key, key.split(".")[-1], key.rstrip("s"))
            names += PLAYER_KEYS if "width" in (template or "") else ()
            out.append(Case(command, key, x, names, argv, files))
    return out


LOCAL_FILES = ("spec.toml", "goal.toml", "position.toml", "profiles.toml")


def write(case: Case, where: pathlib.Path) -> list:
    """Write the case's files under ``where``; its argv with the folder filled in (every
    file it names, written or not, lies there)."""
    for name, text in case.files.items():
        (where / name).write_text(text)
    argv = [a.replace("{out}", str(where / "out")) for a in case.argv]
    return [str(where / a) if a in LOCAL_FILES else a for a in argv]


def judge(case: Case, rc, out: str, err: str) -> tuple:
    """("accepted" | "refused" | "failure", detail) of one command's exit status and output."""
    lines = err.strip().splitlines()
    if "Traceback" in err:
        return "failure", f"a traceback: {err.strip()[-300:]}"
    if rc == 0:
        if case.must_refuse:
            return "failure", f"accepted {case.value[:20]} for {case.place}"
        return "accepted", ""
    if rc != 2:
        return "failure", f"exit status {rc}: {err.strip()[-300:]}"
    errors = [line for line in lines if line.startswith("kalarite: error: ")]
    if len(errors) != 1 or lines[-1] != errors[0]:
        return "failure", f"not one error line: {err.strip()[-300:]}"
    line = errors[0]
    if case.must_refuse and not any(n in line for n in case.names):
        return "failure", f"the refusal does not name {case.place}: {line}"
    return "refused", line


def run_in_process(case: Case, where: pathlib.Path) -> tuple:
    """The case through sim.app.cli.main in this process: (outcome, detail)."""
    from benchmarks.input_mutants import cli_in_process

    rc, out, err = cli_in_process(write(case, where))
    if rc is None:
        return "failure", out
    return judge(case, rc, out, err)


# --- the service ------------------------------------------------------------------------------

SERVICE_SPEC = {"decks": [["imperial", "highland"]], "games": 2, "policies": "random"}
SPEC_KEYS = {  # key -> the value's place in the spec ({x}: the number)
    "games": "{x}",
    "seed": "{x}",
    "turn_cap": "{x}",
    "chunk_size": "{x}",
    "positions": "{x}",
    "stability_margin": "{x}",
    "melee_players": "{x}",
    "until": '"width={x}"',
    "policies": '"planner:width={x}"',
}
GOAL_KEYS = {  # table.key -> the value ({x}: the number)
    "goal.band": "[{x}, 0.6]",
    "goal.min_effect": "{x}",
    "budget.games": "{x}",
    "budget.rounds": "{x}",
    "budget.alpha": "{x}",
    "budget.confirm_games": "{x}",
    "run.seed": "{x}",
    "run.stack": "{x}",
    "edits.max_candidates": "{x}",
    "players.screen": '"planner:width={x}"',
}
STUDY_ROUTES = ("/api/v1/specs/check", "/api/v1/studies")


def _spec_body(key, template, x, syntax) -> bytes:
    value = template.replace("{x}", _JSON.get(x, x) if syntax == "JSON" else x)
    if syntax == "JSON":
        parts = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in SERVICE_SPEC.items() if k != key]
        return ("{" + ", ".join(parts + [f"{json.dumps(key)}: {value}"]) + "}").encode()
    lines = [f"{k} = {json.dumps(v)}" for k, v in SERVICE_SPEC.items() if k != key]
    return "\n".join(lines + [f"{key} = {value}"]).encode() + b"\n"


def _goal_body(place, template, x, syntax) -> bytes:
    table, key = place.split(".")
    value = template.replace("{x}", _JSON.get(x, x) if syntax == "JSON" else x)
    tables = {"goal": {"deck": "highland", "band": "[0.4, 0.6]"}, "budget": {"games": "50"}}
    tables.setdefault(table, {})[key] = value
    if syntax == "JSON":
        return (
            "{"
            + ", ".join(
                f'"{t}": {{' + ", ".join(f'"{k}": {v}' for k, v in keys.items()) + "}"
                for t, keys in tables.items()
            )
            + "}"
        ).encode()
    return "".join(
        f"[{t}]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items()) for t, keys in tables.items()
    ).encode()


def service_cases(values=MUST_REFUSE + MAY_ACCEPT) -> list:
    """Every number of a study spec on the spec routes and of a goal on the suggestion route,
    as TOML and as JSON, and the list's ``limit``. Only ``specs/check`` (which stores and runs
    nothing) takes the values a place may accept."""
    out = []
    types = {"TOML": "application/toml", "JSON": "application/json"}
    for x in values:
        routes = STUDY_ROUTES if x in MUST_REFUSE else STUDY_ROUTES[:1]
        for route in routes:
            for key, template in SPEC_KEYS.items():
                for syntax, kind in types.items():
                    body = _spec_body(key, template, x, syntax)
                    names = (key, "width", "request body")
                    out.append(Case(route, key, x, names, method="POST", path=route, body=body,
                                    content_type=kind))  # fmt: skip
        if x in MUST_REFUSE:
            for place, template in GOAL_KEYS.items():
                for syntax, kind in types.items():
                    body = _goal_body(place, template, x, syntax)
                    names = (place, "width", "request body")
                    route = "/api/v1/suggestions"
                    out.append(Case(route, place, x, names, method="POST", path=route,
                                    body=body, content_type=kind))  # fmt: skip
        out.append(
            Case(
                "/api/v1/studies",
                "limit",
                x,
                ("limit",),
                method="GET",
                path=f"/api/v1/studies?limit={x}",
            )  # fmt: skip
        )
    return out


def run_service(case: Case, client) -> tuple:
    """One request through a FastAPI TestClient (``raise_server_exceptions=False``, so an
    exception is the 500 a user would get): (outcome, detail)."""
    headers = {"content-type": case.content_type} if case.content_type else {}
    r = client.request(case.method, case.path, content=case.body or None, headers=headers)
    if r.status_code >= 500:
        return "failure", f"HTTP {r.status_code}: {r.text[:300]}"
    try:
        answer = r.json()
    except ValueError:
        return "failure", f"HTTP {r.status_code}, not JSON: {r.text[:200]}"
    if r.status_code < 300:
        if case.must_refuse:
            return "failure", f"HTTP {r.status_code}: accepted {case.value[:20]} for {case.place}"
        return "accepted", ""
    if r.status_code not in (400, 422):
        return "failure", f"HTTP {r.status_code}: {r.text[:300]}"
    message = answer.get("error") or answer.get("detail")
    if r.status_code == 400 and (not isinstance(message, str) or "\n" in message):
        return "failure", f"HTTP 400 without a one-line error: {r.text[:300]}"
    return "refused", str(message)[:300]


def sample(cases: list, n: int, seed: int, keep=()) -> list:
    """``n`` of ``cases`` chosen by ``seed`` (the same on every machine), with every case
    whose label starts with one of ``keep``."""
    rng = random.Random(seed)
    kept = [c for c in cases if c.label().startswith(tuple(keep))] if keep else []
    rest = [c for c in cases if c not in kept]
    return kept + rng.sample(rest, min(n, len(rest)))
