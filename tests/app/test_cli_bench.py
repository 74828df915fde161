"""``nardy-fast benchmark score``: players by name, external engines through the engine
protocol, and the refusals (``app.cli_bench``), on a small hand-made benchmark file."""
import json
import shlex
import sys

import pytest

import nardy_fast as nf
from nardy_fast.analysis import decisionbench as db
from nardy_fast.app import cli
from nardy_fast.app.cli_bench import engine_player
from nardy_fast.app.duel import EngineFault

ENGINE = f"{shlex.quote(sys.executable)} -m nardy_fast.app.cli engine"
NAN = float("nan")


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    """Three checker decisions of a greedy game, every legal move a candidate, each
    valued by its position's pip count (a made-up but fixed yardstick)."""
    rows = []
    rec = nf.random_game(seed=11, policy="greedy", max_turns=30)
    for k, dice in enumerate([(6, 5), (4, 1), (3, 3)]):
        pos = rec.final
        moves = pos.legal_moves(dice)
        eq = [-0.01 * pos.play(m).pips[1] for m in moves]
        order = sorted(range(len(moves)), key=lambda i: -eq[i])
        rows.append({"decision": k, "type": "checker", "part": "public",
                     "source": "net-greedy", "player": "greedy", "game": 0, "ply": 30,
                     "phase": "middle", "kind": "plain", "position": pos.id,
                     "dice1": dice[0], "dice2": dice[1],
                     "moves": [str(moves[i]) for i in order],
                     "ids_after": [pos.play(moves[i]).id for i in order],
                     "equities": [eq[i] for i in order], "ses": [0.0] * len(order),
                     "prior": [eq[i] for i in order], "cube_stake": 1, "cube_owner": "",
                     "no_double": NAN, "double_take": NAN, "double_pass": NAN,
                     "se_no_double": NAN, "se_double_take": NAN, "games": 1,
                     "seed": "0"})
    return db.write_bench(tmp_path_factory.mktemp("b") / "b.parquet", rows, {})


def _rows(capsys, *argv):
    assert cli.main(["benchmark", "score", *argv, "--json", "--no-progress"]) == 0
    return json.loads(capsys.readouterr().out)["rows"]


def test_external_engine_scores_as_the_net(bench, capsys):
    ours = _rows(capsys, bench, "--player", "net", "--no-cube")
    theirs = _rows(capsys, bench, "--player", f"{ENGINE} --plies 0", "--no-cube")
    assert ours == theirs
    assert [r["decisions"] for r in ours if r["phase"] == "all"] == [3]


def test_json_names_the_unit_of_the_error_rates(bench, capsys):
    """The text says the error rate is in millipoints per decision; the JSON's
    ``error_rate`` and ``se`` came without their unit."""
    assert cli.main(["benchmark", "score", bench, "--player", "greedy", "--json",
                     "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unit"] == "millipoints per decision"
    assert list(out) == ["file", "player", "part", "unit", "rows"]


def test_text_says_one_decision_has_no_se(bench, tmp_path, capsys):
    """A row of one decision printed its SE as 'NaN', unexplained."""
    one = db.write_bench(tmp_path / "one.parquet",
                         db.read_bench(bench).head(1).to_dict("records"), {})
    assert cli.main(["benchmark", "score", one, "--player", "greedy", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "NaN" not in out and "nan" not in out
    assert out.splitlines()[-1] == "se -: one decision, too few for a standard error"


@pytest.mark.parametrize("player", ["net:7", "gredy", "no-such-program-xyz"])
def test_bad_player_refused_by_name(bench, capsys, player):
    assert cli.main(["benchmark", "score", bench, "--player", player]) == 1
    err = capsys.readouterr().err
    assert f"--player {player!r}" in err and "net, net:1, net:2, greedy" in err


@pytest.mark.parametrize("seconds", ["0", "-1", "inf", "nan"])
def test_bad_timeout_refused_by_name(bench, capsys, seconds):
    """The same check as the duel's (one shared option): a positive, finite number."""
    assert cli.main(["benchmark", "score", bench, "--timeout", seconds]) == 1
    assert (f"--timeout {float(seconds):g}: expected a positive number of seconds"
            in capsys.readouterr().err)


def test_not_a_benchmark_refused_by_name(tmp_path, capsys):
    bad = tmp_path / "notes.parquet"
    bad.write_text("not parquet")
    assert cli.main(["benchmark", "score", str(bad)]) == 1
    assert "notes.parquet: not a Parquet file" in capsys.readouterr().err
    assert cli.main(["benchmark", "score", str(tmp_path / "missing.parquet")]) == 1
    assert "missing.parquet: no such benchmark file" in capsys.readouterr().err


class _FakeEngine:
    """The duel client's face (``greet``, ``send``, ``expect``, ``best_move``) answering
    ``cube`` with ``reply``; records the lines sent."""

    def __init__(self, reply):
        self.reply, self.sent = reply, []

    def __str__(self):
        return "engine under test ('fake')"

    def greet(self, rules):
        pass

    def send(self, line):
        self.sent.append(line)

    def expect(self, word, waiting_for):
        assert word == "cube"
        return self.reply


@pytest.mark.parametrize("reply, choice", [
    ("action=double/take nd=+0.1 dt=+0.2 dp=+1.0", (True, True)),
    ("action=no-double/pass nd=+0.9 dt=+1.4 dp=+1.0", (False, False)),
    ("action=too-good/pass nd=+1.1 dt=+1.4 dp=+1.0", (False, False)),
    ("action=no-double/beaver", (False, True))])
def test_engine_cube_answer_read(reply, choice):
    fake = _FakeEngine(reply)
    _, cube = engine_player(fake)
    pos = nf.random_game(seed=11, policy="greedy", max_turns=30).final
    assert cube(pos, nf.CubeState(2, "mover")) == choice
    assert fake.sent == [f"setoption name cube value 2 {pos.side}", f"position {pos.id}",
                         "cube"]


def test_engine_cube_answer_unreadable_refused_by_name():
    _, cube = engine_player(_FakeEngine("action=maybe"))
    pos = nf.random_game(seed=11, policy="greedy", max_turns=30).final
    with pytest.raises(EngineFault, match=r"engine under test \('fake'\) answered 'cube'.*"
                                          r"action=maybe"):
        cube(pos, nf.CubeState())


class _RefusingEngine(_FakeEngine):
    """An engine answering ``go`` and ``cube`` with an ``error`` line (the duel client's
    ``expect`` raises it as a ``ValueError``), or not at all (``hangs``)."""

    def __init__(self, hangs=False):
        super().__init__(None)
        self.hangs = hangs

    def expect(self, word, waiting_for):
        if self.hangs:
            raise EngineFault(f"{self} hung: no answer to {waiting_for!r} within 1 s")
        raise ValueError(f"it answered {waiting_for!r} with 'error unknown command "
                         f"{waiting_for!r}'")

    def best_move(self, position, dice):
        return self.expect("bestmove", "go")


def test_engine_error_line_refused_naming_the_engine_and_the_decision():
    """An engine answering 'go' or 'cube' by an error line ended the run with 'it
    answered 'go' with ...', naming neither the engine nor the position; an engine that
    hung on 'cube' was not told of --no-cube."""
    pos = nf.random_game(seed=11, policy="greedy", max_turns=30).final
    move, cube = engine_player(_RefusingEngine())
    with pytest.raises(EngineFault, match=rf"engine under test \('fake'\), in {pos.id} "
                                          r"with dice 65: it answered 'go' with 'error"):
        move(pos, (6, 5))
    with pytest.raises(EngineFault, match=rf"engine under test \('fake'\), in {pos.id} "
                                          r"with the cube 1 centre: it answered 'cube'.*"
                                          r"scored with --no-cube"):
        cube(pos, nf.CubeState())
    _, cube = engine_player(_RefusingEngine(hangs=True))
    with pytest.raises(EngineFault, match=rf"hung: no answer to 'cube' within 1 s, in "
                                          rf"{pos.id} with the cube 2 {pos.side}; .*"
                                          r"scored with --no-cube"):
        cube(pos, nf.CubeState(2, "mover"))


def test_build_refuses_a_file_of_other_settings(bench, capsys):
    assert cli.main(["benchmark", "build", bench, "--checker", "3", "--cube", "0",
                     "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "b.parquet: built with other settings" in err and "n_checker: None there, 3" in err


def test_timeout_with_a_player_of_the_toolkit_is_named(bench, capsys):
    """``--timeout`` is for a program answering the engine protocol; with ``greedy`` it
    changed nothing without a word."""
    assert cli.main(["benchmark", "score", bench, "--player", "greedy", "--timeout", "3",
                     "--no-progress"]) == 0
    assert capsys.readouterr().err.strip() == (
        "nardy-fast: warning: --timeout: no effect with --player greedy (a player of the "
        "toolkit, not a program answering the engine protocol)")


@pytest.mark.parametrize("argv, says", [
    (["--window", "-1"], "--window -1.0: expected a finite number of points >= 0"),
    (["--noise", "nan"], "--noise nan: expected a finite number of points >= 0"),
    (["--checker", "0", "--cube", "0"], "--checker 0, --cube 0: a benchmark of no decision"),
    (["--source-games", "0"], "--source-games 0: expected >= 1"),
    (["--min-candidates", "5", "--max-candidates", "2"],
     "--max-candidates 2: expected >= --min-candidates 5"),
    (["--log", "/nonexistent-folder/x.log"], "--log /nonexistent-folder/x.log: no such folder"),
])
def test_build_refuses_settings_that_make_no_benchmark(tmp_path, capsys, argv, says):
    """--window -1 and --noise nan were accepted (NaN written to the metadata), --checker 0
    --cube 0 and --source-games 0 wrote an empty benchmark, --min-candidates above
    --max-candidates got a message naming neither, and a --log in no folder failed after
    the work.  Each is refused first, in the option's words, and nothing is written."""
    out = tmp_path / "b.parquet"
    assert cli.main(["benchmark", "build", str(out), *argv, "--no-progress"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"nardy-fast: error: {says}"), err
    assert not out.exists()


@pytest.mark.parametrize("argv, says", [
    (["--part", "heldout"], "with --part heldout (it holds 3 decisions: 3 checker, 3 public)"),
    (["--part", "heldout", "--no-cube", "--json"],
     "with --part heldout --no-cube (it holds 3 decisions"),
])
def test_score_of_no_decision_refused_by_name(bench, capsys, argv, says):
    """A part the file does not have (or only cube decisions with --no-cube) printed
    pandas' 'Empty DataFrame' and its columns, status 0."""
    assert cli.main(["benchmark", "score", bench, "--no-progress", *argv]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"nardy-fast: error: {bench}: no decision to score {says}")


def test_reroll_writes_a_new_file_and_refuses_what_it_cannot(bench, tmp_path, capsys):
    from nardy_fast.analysis import decisionbuild
    small = tmp_path / "small.parquet"
    decisionbuild.build(small, n_checker=0, n_cube=1, source_games=2, games=36, seed=5,
                        progress=False)
    out = tmp_path / "again.parquet"
    assert cli.main(["benchmark", "reroll", str(small), str(out), "--type", "cube",
                     "--no-progress"]) == 0
    assert f"1 decisions rolled out again; 1 decisions in {out}" in capsys.readouterr().out
    assert db.bench_settings(out)["rerolled"][0]["types"] == ["cube"]
    for argv, says in [([str(small), str(out)], "again.parquet: exists"),
                       ([str(small), str(small)], "small.parquet: the file read"),
                       ([str(tmp_path / "none.parquet"), str(tmp_path / "x.parquet")],
                        "none.parquet: no such benchmark file"),
                       ([bench, str(tmp_path / "y.parquet")],
                        "which this version does not ship")]:
        assert cli.main(["benchmark", "reroll", *argv, "--no-progress"]) == 1
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err
