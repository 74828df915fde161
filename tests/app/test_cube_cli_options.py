"""``nardy-fast cube`` passes its rollout options only to rollouts: its defaults (a seed,
a number of games) give no warning that they have no effect."""
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
