"""One --json convention for every command (issue 50): `--json` prints the command's result
on stdout as one strict JSON document and nothing else, `--json-out FILE` writes the same
document to FILE beside the usual text, `--json-out -` is `--json`. Checked over every
command that takes --json (the list is taken from the parser, so a new one must be added
here). `players` runs for real; the others have their long computation (games, a fit, a
comparison) replaced by a result holding a NaN, so what is checked is the CLI's printing."""

import json
import types

import pytest

from sim.app.cli import build_parser, main

NAN = float("nan")


def strict(text: str):
    """JSON as the standard has it: one document, no NaN or Infinity."""

    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


def _stub_check(mp):
    import sim.app.check as check

    mp.setattr(check, "run_check", lambda content, **k: {"result": "broken", "broken": [],
                                                         "games_per_s": NAN})  # fmt: skip
    mp.setattr(check, "result_text", lambda res, show: "TEXT of check")


def _stub_compare(mp):
    import results.compare as compare

    mp.setattr(compare, "compare", lambda a, b, **k: {"nothing_to_compare": "why", "d": NAN})
    mp.setattr(compare, "format_text", lambda result, show_all: "TEXT of compare")


def _stub_competence(mp):
    import sim.app.competence as competence

    mp.setattr(competence, "run_competence", lambda args, content, log: {"gap": NAN})
    mp.setattr(competence, "competence_text", lambda result: "TEXT of competence")


def _stub_learn(mp):
    import results.learn
    import sim.players

    fit = types.SimpleNamespace(fits=[], provenance={}, to_dict=lambda: {"log_loss": NAN})
    mp.setattr(results.learn, "learn", lambda *a, **k: fit)
    mp.setattr(results.learn, "report_text", lambda result: "TEXT of learn")
    mp.setattr(sim.players, "save_profile", lambda prof, path: None)


def _stub_suggest(mp):
    import sim.app.suggest.command as command
    import sim.app.suggest.run as run

    edit = {"rank": 1, "edit": "e", "content": "c", "effect": {"high-form": NAN}}
    result = {"goal": {}, "status": "met", "stack": [], "games": 0, "suggestions": [edit]}
    mp.setattr(run, "run_suggest", lambda goal, out, **k: result)
    mp.setattr(command, "summary_lines", lambda result: ["TEXT of suggest"])


def _stub_bench(mp):
    import sim.app.bench.suite as bench

    mp.setattr(bench, "run", lambda quick: {"games_per_s": NAN})
    mp.setattr(bench, "markdown_table", lambda res: "TEXT of bench")


RUNS = {  # command: (its arguments, the stub of its computation)
    "players": ([], None),
    "check": (["--games", "1", "--workers", "0"], _stub_check),
    "compare": (["runs/a", "runs/b"], _stub_compare),
    "competence": (["--workers", "0"], _stub_competence),
    "learn": (["runs/positions", "--name", "json-test"], _stub_learn),
    "suggest": (["--deck", "everfrost", "--band", "0.45,0.55", "--out", "OUT"], _stub_suggest),
    "bench": (["--quick"], _stub_bench),
}


def _taking(option):
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    return {name for name, p in sub.choices.items() if option in p._option_string_actions}


def test_every_command_with_json_is_checked_here():
    assert _taking("--json") == set(RUNS)
    assert _taking("--json-out") == set(RUNS)


@pytest.mark.parametrize("name", list(RUNS))
def test_json_on_stdout_and_json_out_file(name, capsys, monkeypatch, tmp_path):
    args, stub = RUNS[name]
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    if stub:
        stub(monkeypatch)

    def run(*extra):
        rc = main([name, *args, *extra])
        out, err = capsys.readouterr()
        assert rc in (0, 1), err  # check: 1 when an invariant broke
        return out

    doc = strict(run("--json"))  # the whole of stdout is the one document
    assert doc
    text = run("--json-out", str(tmp_path / "r.json"))
    assert strict((tmp_path / "r.json").read_text()) == doc
    with pytest.raises(ValueError):
        strict(text)  # the text, as without the option
    assert strict(run("--json-out", "-")) == doc
    both = tmp_path / "both.json"
    assert strict(run("--json", "--json-out", str(both))) == doc == strict(both.read_text())


def test_json_out_into_a_missing_directory_is_refused_before_the_work(capsys, tmp_path):
    rc = main(["players", "--json-out", str(tmp_path / "no" / "r.json")])
    assert rc == 2
    err = capsys.readouterr().err
    assert err.startswith("kalarite: error: --json-out") and err.count("\n") == 1


@pytest.mark.parametrize("old", [["--json", "x.json"], ["--json=x.json"], ["--json", "-"]])
def test_compares_old_json_file_spelling_says_what_replaced_it(capsys, tmp_path, old, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = main(["compare", "runs/a", "runs/b", *old])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--json-out FILE" in err
    assert not list(tmp_path.iterdir())  # no file named x.json or -
