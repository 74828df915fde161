"""What the command line shows people: --version, --help, JSON, warnings and errors that
name what is wrong (issue: every front end as people use it)."""
import json
import re
from importlib.metadata import version

import pytest

import nardy_fast as nf
from nardy_fast.app.cli import build_parser, main

from helpers import run_cli


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    want = getattr(nf, "__version__", None) or version("nardy_fast")
    assert capsys.readouterr().out.strip() == f"nardy-fast {want}"


def _helps(parser):
    yield parser.format_help()
    for action in parser._actions:
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict):                 # the subcommands
            for sub in choices.values():
                yield from _helps(sub)


def test_no_markup_in_help():
    texts = list(_helps(build_parser()))
    assert len(texts) > 15
    assert not [t.splitlines()[0] for t in texts if "``" in t]


def test_no_help_names_a_file_of_the_source_repository():
    """The help of ``bearoff build`` sent people to ``benchmarks/RESULTS.md`` and that of
    ``train-net --exclude`` to ``benchmarks/data/``: folders of the source repository, which
    an installed package does not have."""
    texts = list(_helps(build_parser()))
    folders = re.compile(r"\b(benchmarks|tests|docs|experiments|notebooks|tools)/")
    assert [(t.splitlines()[0], m.group(0)) for t in texts
            for m in [folders.search(" ".join(t.split()))] if m] == []


def test_json_does_not_escape_slashes(capsys):
    code, out, err = run_cli(capsys, "hint", "start", "63", "--json", "--top", "3")
    assert code == 0 and "\\/" not in out
    rows = json.loads(out)
    assert all("/" in r["move"] for r in rows)
    code, out, err = run_cli(capsys, "met", "--length", "3", "--json")
    m = json.loads(out)
    assert {"columns", "index", "data"} <= set(m) and len(m["data"]) == 3


@pytest.mark.parametrize("kw, name", [({"mars_points": 0.5}, "mars_points"),
                                      ({"oin_points": 0}, "oin_points"),
                                      ({"mars_points": -2}, "mars_points"),
                                      ({"scoring": "extended", "koks_points": 0.5},
                                       "koks_points")])
def test_rules_points_refused_at_construction(kw, name):
    with pytest.raises(ValueError, match=name):
        nf.Rules(**kw)


def test_a_repeated_rules_key_is_an_error():
    with pytest.raises(ValueError, match="scoring is given twice"):
        nf.Rules.from_text("scoring=extended scoring=classic")


def test_bad_rules_option_names_it_once(capsys):
    with pytest.raises(SystemExit) as e:
        main(["moves", "start", "64", "--rules", "bogus"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]       # after the usage line
    assert err.count("--rules") == 1 and "rules item 'bogus'" in err


@pytest.mark.parametrize("argv, command, unknown", [
    (["cube", "start", "--cube", "3"], "cube", "--cube 3"),
    (["show", "start", "--width", "3"], "show", "--width 3"),
    (["bearoff", "query", "start", "--x"], "bearoff query", "--x"),
    (["study", "show", "store", "--bad"], "study show", "--bad"),
    (["analyze", "game.txt", "--zz"], "analyse", "--zz"),
])
def test_an_unknown_option_is_named_by_its_command(capsys, argv, command, unknown):
    """Not the top level's usage ("nardy-fast [-h] [--version] COMMAND ..."), which says
    nothing of the command's own options."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert f"usage: nardy-fast {command} " in err
    assert f"nardy-fast {command}: error: unrecognized arguments: {unknown}\n" in err
