"""Moves typed into the real ``nardy-fast play`` (a pseudo-terminal): a joined step such
as ``1/7`` for 5-1 is taken, a refused move names the rule that refuses it, and a blunder
is named at once."""
import re

import nardy_fast as nf
from nardy_fast.analysis.report import MARKS
from ptyterm import Terminal


def test_a_joined_step_a_refusal_and_a_blunder_in_the_terminal(tmp_path):
    t = Terminal(["play", "--side", "white", "--plies", "0", "--seed", "3", "-o", "g.mat"],
                 tmp_path)
    try:
        t.expect(r"your move \(51; 'help' for help\): ")        # seed 3: White rolls 5-1
        t.send("1/6 1/2\r")
        t.expect(r"not legal for 51: the head rule: only one checker may leave the head "
                 r"this turn\n")
        t.send("1/7 7/9\r")
        t.expect(r"not legal for 51: the move covers 8 pips, the roll 6\n", timeout=60)
        t.send("1/7\r")
        m = t.expect(r"engine rolled (\d)(\d) and plays ([^\n]*)\n")
        after = nf.Position.initial().play("1/6 6/7", dice=(5, 1))
        after = after.play(m.group(3).strip(), dice=(int(m.group(1)), int(m.group(2))))
        m = t.expect(r"engine rolled .*\n(?:.*\n)*.*your move \((\d)(\d)")  # its prompt
        dice = (int(m.group(1)), int(m.group(2)))
        hint = nf.Evaluator.default().hint(after, dice)      # the command's 0-ply
        worst, loss = hint.iloc[-1]["move"], hint["equity"].iloc[0] - hint["equity"].iloc[-1]
        assert loss >= dict(MARKS)["blunder"]                # seed 3: a blunder to make
        t.send(worst + "\r")
        t.expect(rf"blunder: lost {loss:.3f} points \(equity, net 0-ply\); best was "
                 rf"{re.escape(hint.iloc[0]['move'])}\n", timeout=60)
        t.expect(r"blunder: .*\n(?:.*\n)*.*your move \(\d\d")
        t.send("quit\r")
        assert t.wait() == 0
    finally:
        t.close()
    assert "Traceback" not in t.text
    rec = nf.read_record(tmp_path / "g.mat")
    assert rec.positions()[1] == nf.Position.initial().play("1/6 6/7", dice=(5, 1))
