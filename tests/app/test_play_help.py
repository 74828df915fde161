"""``nardy-fast play``'s words: its help is lines that fit a terminal (not one line of
330 characters), and a count says "1 point", "2 points"."""
import numpy as np

import nardy_fast as nf
from nardy_fast.app.play import counted, play_terminal
from ptyterm import Terminal


def test_help_in_the_terminal_is_lines_that_fit_it(tmp_path):
    t = Terminal(["play", "--side", "white", "--plies", "0", "--seed", "3", "-o", "g.mat"],
                 tmp_path)
    try:
        t.expect(r"your move \(\d\d; 'help' for help\): ")
        start = len(t.text)
        t.send("help\r")
        t.expect(r"(?s)'quit' +stop.*your move \(\d\d")
        t.send("quit\r")
        assert t.wait() == 0
    finally:
        t.close()
    shown = t.text[start:].split("your move (")[0].splitlines()[1:]
    assert len(shown) >= 8
    assert all(len(line) <= 79 for line in shown), shown
    for word in ("1/7", "'pass'", "'hint'", "'help'", "'quit'"):
        assert any(line.split()[:1] == [word] for line in shown), word


def test_one_point_is_singular(tmp_path):
    """White (the engine) bears off its last checker; Black has 13 off: an oin, 1 point."""
    white, black = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    white[23], black[23] = 1, 2
    said = []
    play_terminal(side="black", plies=0, seed=1, out=str(tmp_path / "g.mat"),
                  input_fn=lambda p: "quit", print_fn=said.append,
                  start=nf.Position(white, black))
    assert "white wins (oin, 1 point)" in said
    assert [counted(n, "point") for n in (0, 0.5, 1, 2, 4)] == \
        ["0 points", "0.5 points", "1 point", "2 points", "4 points"]
