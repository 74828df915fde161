"""Moves typed into the real ``nardy-fast play`` (a pseudo-terminal): a joined step such
as ``1/7`` for 5-1 is taken, and a refused move names the rule that refuses it."""
import nardy_fast as nf
from ptyterm import Terminal


def test_a_joined_step_is_taken_and_a_refusal_names_its_rule(tmp_path):
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
        t.expect(r"engine rolled \d\d and plays")
        t.expect(r"your move \(\d\d")
        t.send("quit\r")
        assert t.wait() == 0
    finally:
        t.close()
    assert "Traceback" not in t.text
    rec = nf.read_record(tmp_path / "g.mat")
    assert rec.positions()[1] == nf.Position.initial().play("1/6 6/7", dice=(5, 1))
