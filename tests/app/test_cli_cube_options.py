"""``nardy-fast cube`` and ``report`` pass their rollout options only to rollouts: their
defaults (a seed, a number of games) give no warning that they have no effect; an option
given that has no effect is named."""
import numpy as np

import nardy_fast as nf
from nardy_fast import Position
from nardy_fast.app.cli import main


def test_cube_defaults_warn_of_nothing(capsys):
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[18], you[23] = 1, 1
    for argv in (["cube", Position(me, you).id], ["cube", "start", "--method", "janowski"]):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, err
        assert "no effect" not in err, err


def test_cube_names_the_rollout_options_given_without_rollouts(capsys):
    """-n, --seed, --workers and --scheduler act only with --method rollout: given with
    another method (or at a match score) each is named, once, in the command's words."""
    code = main(["cube", "start", "--method", "janowski", "--seed", "5", "-n", "100"])
    out, err = capsys.readouterr()
    assert code == 0
    assert err.strip() == ("nardy-fast: warning: -n/--games, --seed: no effect without "
                           "--method rollout (the decision is made by --method janowski)")
    code = main(["cube", "start", "--length", "5", "--workers", "1"])
    out, err = capsys.readouterr()
    assert code == 0
    assert err.strip() == ("nardy-fast: warning: --workers: no effect without --method "
                           "rollout (the decision is made by --method auto)")


def test_cube_refuses_the_beaver_at_a_match_score(capsys):
    """The match equity table's cube model has no beaver: --beaver with --length was
    silently ignored (no double_beaver shown), and is refused by name."""
    code = main(["cube", "start", "--length", "5", "--score", "2-2", "--beaver"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert "--beaver: at a match score" in err and "no beaver" in err


def test_cube_takes_the_cube_and_the_beaver_of_rules(capsys):
    """--rules cube=arithmetic and --rules beaver=true were replaced by the defaults of
    --progression and --beaver (the geometric cube, no beaver) without a word: the rules'
    cube decides unless --progression is given, and a --progression against it is
    refused naming both."""
    import json
    later = "W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA"
    base = ["cube", later, "--plies", "0", "--stake", "2", "--json"]

    def decision(*argv):
        code = main([*base, *argv])
        out, err = capsys.readouterr()
        assert code == 0, err
        return json.loads(out)

    by_option = decision("--progression", "arithmetic")
    assert decision("--rules", "cube=arithmetic") == by_option
    assert decision("--rules", "cube=arithmetic", "--progression", "arithmetic") == by_option
    assert by_option != decision("--progression", "geometric")
    assert decision("--rules", "cube=geometric beaver=true") == decision("--beaver")
    assert decision("--rules", "beaver=true cube=geometric")["double_beaver"] is not None
    code = main([*base, "--rules", "cube=arithmetic", "--progression", "geometric"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.strip() == ("nardy-fast: error: --progression geometric: --rules says "
                           "cube=arithmetic; give one of them")
    code = main(["cube", "start", "--length", "5", "--rules", "cube=geometric beaver=true"])
    out, err = capsys.readouterr()
    assert code == 1 and "--rules beaver=true: at a match score" in err


def test_cube_under_draw_rule_says_its_p_win_counts_draws_as_half(capsys):
    """Under ``draw_rule`` the cube's "cubeless P(win) 0.9861" is P(win) + P(draw) / 2
    (the model's, ``cubemodel.p_of``), where ``rollout`` and ``bearoff query`` give P(win)
    0.9722 and P(draw) 0.0278 for the same position: the line says what it counts."""
    race = "WAAAAAAAAAAAAAAAAAAAAAAAAAgABABAQ"          # Black's last turn may draw
    o = nf.race_probabilities(Position.from_id(race), rules=nf.Rules(draw_rule=True))
    assert main(["cube", race, "--plies", "0", "--rules", "draw_rule=true"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines()
                if ln.startswith("cubeless P(win)"))
    assert line.startswith(f"cubeless P(win) {o.p_win + o.p_draw / 2:.4f} (draws counted "
                           "as half a win), method ")
    assert main(["cube", race, "--plies", "0"]) == 0
    assert "half a win" not in capsys.readouterr().out


def test_report_of_a_record_warns_only_of_options_given(capsys, tmp_path):
    record = tmp_path / "g.txt"
    nf.write_record(nf.random_game(seed=1, max_turns=4), str(record))
    code = main(["report", str(record), "-o", str(tmp_path / "a"), "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0 and "no effect" not in err, err       # the defaults
    code = main(["report", str(record), "-o", str(tmp_path / "b"), "--no-progress", "-n",
                 "100"])
    out, err = capsys.readouterr()
    assert code == 0
    assert err.strip() == ("nardy-fast: warning: -n/--games: no effect without --method "
                           "rollout (win probabilities by --method auto)"), err


def test_report_names_the_options_no_win_leaves_without_effect(capsys, tmp_path):
    """With --no-win the rollout options and --method were dropped without a word (of a
    record: named as having no effect with method='auto')."""
    ids = tmp_path / "ids.txt"
    ids.write_text("start\n")
    nf.write_record(nf.random_game(seed=1, max_turns=4), str(tmp_path / "g.txt"))
    for input_file in (ids, tmp_path / "g.txt"):
        code = main(["report", str(input_file), "-o", str(tmp_path / input_file.stem),
                     "--no-win", "--method", "rollout", "-n", "100", "--seed", "3"])
        out, err = capsys.readouterr()
        assert code == 0
        assert err.strip() == ("nardy-fast: warning: --method, -n/--games, --seed: no effect "
                               "with --no-win (no win probabilities)"), err


def test_cube_gives_a_take_point_only_where_a_raise_is_open(capsys):
    """The opponent's take point is the answer to a raise: none is given where no raise is
    open (the opponent owns the cube, or a side's first turn, rule 7a), and it is given
    where the side on roll may raise."""
    pos = "W7gAAAAAAAAAAAQAQAAAAAAAAAAAAAAAA"
    for argv, shown in ((["cube", pos, "--owner", "opponent", "--stake", "2"], False),
                        (["cube", "start"], False),
                        (["cube", pos], True)):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert ("take point" in out) == shown, (argv, out)


def test_cube_shows_a_level_race_without_a_minus_zero(capsys):
    """A sure draw under ``draw_rule`` (one checker each on the last point) has a no double
    and cubeful equity of -1e-16 (float rounding): it reads +0.0000, not -0.0000."""
    race = "WAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAR"
    assert main(["cube", race, "--plies", "0", "--rules", "draw_rule=true"]) == 0
    out = capsys.readouterr().out
    assert "-0.0000" not in out, out
    assert "  no double        +0.0000" in out.splitlines()
    assert "cubeful equity +0.0000 per unit stake" in out


def test_a_rollout_of_a_race_the_cube_table_values_says_no_game_was_played(capsys):
    """Three checkers each, both home: the exact cubeful race table values it before any
    roll.  The heading had read "36 games each" and the JSON "games": 36."""
    import json
    me, op = [0] * 24, [0] * 24
    me[20], me[22], op[21], op[23] = 1, 2, 2, 1
    pid = nf.Position.from_boards(me, op).id
    assert main(["cube", pid, "--method", "rollout", "-n", "36"]) == 0
    out = capsys.readouterr().out
    assert "no game played, the exact cubeful race table values the race" in out
    assert "36 games each" not in out
    assert main(["cube", pid, "--method", "rollout", "-n", "36", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["games"] == 0 and d["valued_at_start"] == "cuberace"


def test_a_one_game_rollout_says_both_verdicts_are_not_decided(capsys):
    """One game: neither the doubler's nor the taker's margin has a measured noise, and
    each line says so (it had read 'noise nan: clear')."""
    assert main(["cube", "WVgAQECIREQEREQEAABEAAAAAAAAAAAAQ", "--method", "rollout",
                 "-n", "1", "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for who in ("doubler:", "taker:"):
        line = next(ln for ln in lines if ln.strip().startswith(who))
        assert line.endswith("noise not measured (a single game): not decided"), line
    assert any("within the noise: more games (-n) would decide it" in ln for ln in lines)
