"""``nardy-fast analyse``: every option does something or says it does not; printed
figures carry headers with units; one name for one thing between the CLI and frames."""
import json

import pytest

from nardy_fast import MatchRules, Position, play_one_match, write_match
from nardy_fast.analysis import report
from nardy_fast.core.record import random_game, write_record

from helpers import run_cli


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("g") / "g.mat"
    # a game whose moves the rollouts tell apart (with net v5 every move of seed 5's game
    # was its own best, so no option could change a loss)
    write_record(random_game(seed=7, max_turns=3), path)
    return str(path)


def _losses(out, width=11):
    """The equity_loss column of each turn line (its last ``width`` characters, 17 with
    the standard errors of rollouts; blank for a forced move)."""
    return [line[-width:].strip() for line in out.splitlines()
            if line[:4].strip().isdigit()]


def _want(rows, se=False):
    """The printed losses of the played rows of a game report: blank where forced; with
    ``se``, a loss's standard error in brackets where it is above 0."""
    return ["" if n <= 1 else f"{v:.3f}" + (f" ({e:.3f})" if se and e > 0 else "")
            for n, v, e in zip(rows["n_moves"], rows["equity_loss"], rows["se_equity_loss"])]


def test_rollout_method_rolls_out_each_move(capsys, game):
    """--method rollout with -n/--seed/--policy: the losses are those of game_report's
    rollout analysis with the same settings (an independent call), and differ from the
    net's."""
    argv = ["analyse", game, "--method", "rollout", "-n", "36", "--seed", "4",
            "--policy", "greedy", "--workers", "1"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and err == ""
    gr = report.game_report(game, analyse=True, method="rollout", n_games=36, seed=4,
                            policy="greedy", workers=1)
    want = _want(gr[gr["move"] != ""], se=True)
    assert _losses(out, 17) == want and any("(" in w for w in want)
    code, out2, _ = run_cli(capsys, *argv[:-6], "-n", "72", "--seed", "4", "--workers", "1")
    assert _losses(out2, 17) != _losses(out, 17)              # -n and --policy count


def test_rollout_options_without_rollout_are_named_in_a_warning(capsys, game):
    code, out, err = run_cli(capsys, "analyse", game, "-n", "50", "--seed", "3")
    assert code == 0
    assert err.strip() == ("nardy-fast: warning: -n/--games, --seed: no effect without "
                           "--method rollout (moves are valued by --method auto)")
    assert ".py" not in err                                   # no file or source line
    code, out, err = run_cli(capsys, "analyse", game)
    assert code == 0 and err == ""


def test_plies_changes_the_net_analysis(capsys, game):
    gr = {p: report.game_report(game, analyse=True, method="net", plies=p) for p in (0, 1)}
    for p in (0, 1):
        code, out, err = run_cli(capsys, "analyse", game, "--method", "net", "--plies", str(p))
        assert code == 0
        rows = gr[p][gr[p]["move"] != ""]
        assert _losses(out) == _want(rows)


def test_analyse_prints_headers_with_units(capsys, game):
    code, out, err = run_cli(capsys, "analyse", game)
    lines = out.splitlines()
    assert lines[0].split() == ["turn", "side", "dice", "move", "best_move", "equity_loss"]
    assert any(line.startswith("equity_loss: points per game") for line in lines)
    assert any(line.startswith("per player:") and "x 1000" in line for line in lines)


def test_hint_uses_move_report_names_and_prints_a_header(capsys):
    pid = "WlgAAAAEAEQACAQAAAAAAAAAQABAAAhIg"
    code, out, err = run_cli(capsys, "hint", pid, "63", "--top", "4", "--json", "--plies", "0")
    rows = json.loads(out)
    mr = report.move_report(Position.from_id(pid), (6, 3)).head(4)
    assert [r["id_after"] for r in rows] == list(mr["id_after"])
    # equal up to the float32 rounding of the net outputs the two paths add differently
    assert [r["equity_loss"] for r in rows] == pytest.approx(list(mr["equity_loss"]), abs=1e-6)
    assert all(r["equity_loss"] >= 0 for r in rows)
    code, out, err = run_cli(capsys, "hint", pid, "63", "--top", "4")
    lines = out.splitlines()
    assert "points per game" in lines[0]
    assert lines[1].split() == ["rank", "move", "equity", "equity_loss", "p_win", "method"]


@pytest.mark.parametrize("plies", ["1", "0"])      # 0, the default, given is named too
def test_plies_under_rollouts_is_named_once(capsys, game, plies):
    code, out, err = run_cli(capsys, "analyse", game, "--method", "rollout", "-n", "36",
                         "--workers", "1", "--policy", "greedy", "--plies", plies)
    assert code == 0, err
    assert err.count("plies: no effect") == 1, err


def test_game_picks_one_record_of_a_file_of_several(capsys, tmp_path):
    """A file of several game records one after the other (a duel's transcript): without
    --game it is refused with the count; --game K analyses the K-th, as that record
    alone in its own file; --game past the count, or with a match, is refused."""
    games = [random_game(seed=s, max_turns=3) for s in (3, 4)]
    for k, g in enumerate(games):
        write_record(g, tmp_path / f"g{k}.txt")
    both = tmp_path / "both.txt"
    both.write_text("".join((tmp_path / f"g{k}.txt").read_text() for k in range(2)))
    code, out, err = run_cli(capsys, "analyse", str(both), "--no-progress")
    assert code == 1 and "2 game records one after the other" in err
    assert "choose one with --game 1..2" in err
    code, out, _ = run_cli(capsys, "analyse", str(both), "--game", "2", "--no-progress")
    code1, alone, _ = run_cli(capsys, "analyse", str(tmp_path / "g1.txt"), "--no-progress")
    assert code == code1 == 0 and out == alone
    code, _, err = run_cli(capsys, "analyse", str(both), "--game", "3")
    assert code == 1 and "--game 3: " in err and "holds 2 game record(s)" in err
    code, out, _ = run_cli(capsys, "analyse", str(tmp_path / "g0.txt"), "--game", "1",
                           "--no-progress")
    assert code == 0 and "equity_loss" in out
    match = tmp_path / "match.txt"
    write_match(play_one_match("random", "random", rules=MatchRules(length=1), seed=1), match)
    code, _, err = run_cli(capsys, "analyse", str(match), "--game", "1")
    assert code == 1 and "--game 1: for a file of several game records" in err


@pytest.mark.parametrize("method", ["exact", "two_sided"])
def test_a_method_that_cannot_value_the_game_is_named_with_the_turn(capsys, game, tmp_path,
                                                                    method):
    """A database method on a game with contact is refused naming the file, the turn,
    its position and the method, by analyse and by report of a game record alike: it
    said ``positions[0] (ID): not a race ...``, the library's label, naming neither."""
    first = Position.initial().id
    want = f"nardy-fast: error: {game} turn 1 ({first}): not a race of both homes"
    for argv in (["analyse", game, "--no-progress"],
                 ["report", game, "-o", str(tmp_path / method)]):
        code, out, err = run_cli(capsys, *argv, "--method", method)
        assert code == 1 and err.startswith(want), err
        assert err.rstrip().endswith(f"(--method {method})"), err
    assert not (tmp_path / method).exists()
