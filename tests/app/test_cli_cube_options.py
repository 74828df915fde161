"""``nardy-fast cube`` and ``report`` pass their rollout options only to rollouts: their
defaults (a seed, a number of games) give no warning that they have no effect; an option
given that has no effect is named."""
import numpy as np

from nardy_fast import Position
from nardy_fast.app.cli import main


def test_cube_defaults_warn_of_nothing(capsys):
    me, you = np.zeros(24, int), np.zeros(24, int)
    me[18], you[23] = 1, 1
    for argv in (["cube", Position(me, you).id],
                 ["cube", "start", "--method", "janowski", "--seed", "5"]):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, err
        assert "no effect" not in err, err


def test_report_of_a_record_warns_only_of_options_given(capsys, tmp_path):
    import nardy_fast as nf
    record = tmp_path / "g.txt"
    nf.write_record(nf.random_game(seed=1, max_turns=4), str(record))
    code = main(["report", str(record), "-o", str(tmp_path / "a"), "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0 and "no effect" not in err, err       # the defaults
    code = main(["report", str(record), "-o", str(tmp_path / "b"), "--no-progress", "-n",
                 "100"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "warning: n_games: no effect with method='auto'" in err, err
