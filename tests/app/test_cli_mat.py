"""``nardy-fast analyse`` of a LogasAI ``.MAT`` move list (``core.matlayout``): a match,
a game of move lines alone, a malformed file named by its line; ``report`` of a game."""
from __future__ import annotations

import pathlib

from helpers import run_cli

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "mat"


def test_analyse_a_mat_match(capsys):
    code, out, err = run_cli(capsys, "analyse", str(DATA / "short_match.MAT"))
    assert code == 0, err
    assert "mwc_lost" in out
    rows = [ln.split() for ln in out.splitlines() if ln.split()[:1] in (["4"], ["5"])]
    assert [r[1:4] for r in rows] == [["total", "both", "Alice"], ["total", "both", "Bob"]]


def test_analyse_a_mat_match_with_the_cube(capsys):
    """``--cube``: each player's cube decisions and what they lost, beside the listed
    decisions (hand-counted from the transcript: three decisions each); Bob's pass of
    Alice's useless redouble, which gave her the match, is a loss, not 0."""
    import nardy_fast as nf
    from nardy_fast.analysis.page import cube_totals
    from nardy_fast.core.matlayout import read_mat
    code, out, err = run_cli(capsys, "analyse", str(DATA / "short_match.MAT"), "--cube")
    assert code == 0, err
    report = nf.analyse_match(read_mat(DATA / "short_match.MAT"), cube=True)
    count, lost = cube_totals(report, "player")
    assert count == {"Alice": 3, "Bob": 3}
    assert (f"per player: Alice 3 decision(s), {lost['Alice']:.3f} EMG lost; Bob 3 "
            f"decision(s), {lost['Bob']:.3f} EMG lost") in out
    last = [ln.split() for ln in out.splitlines() if ln.split()[:2] == ["2", "6"]]
    assert last and float(last[0][-1]) > 1.0          # the answer's loss, in EMG


def test_analyse_a_mat_game(capsys, tmp_path):
    path = tmp_path / "game.mat"
    path.write_text("  1) 52: 24/17                        26: 24/16\n"
                    "  2) 31: 17/13                        64: 24/14\n")
    code, out, err = run_cli(capsys, "analyse", str(path))
    assert code == 0, err
    rows = [ln.split() for ln in out.splitlines()[1:5]]
    # each turn's dice, and the move's first and last point in our numbering (one step a
    # die): 24/17 is our 1 -> 8, 24/16 1 -> 9, 17/13 8 -> 12, 24/14 1 -> 11
    assert [(r[1], r[2], r[3].split("/")[0], r[4].split("/")[1]) for r in rows] == [
        ("white", "52", "1", "8"), ("black", "26", "1", "9"), ("white", "31", "8", "12"),
        ("black", "64", "1", "11")]


def test_analyse_a_malformed_mat(capsys, tmp_path):
    path = tmp_path / "bad.MAT"
    text = (DATA / "short_match.MAT").read_text().replace("26: 24/16", "26: 24/15")
    path.write_text(text)
    code, out, err = run_cli(capsys, "analyse", str(path))
    assert code == 1 and "Traceback" not in err
    assert err.strip() == (f"nardy-fast: error: {path} line 5: game 1: Bob (black) 26: "
                           "24/15 (ours 1/10): the move covers 9 pips, the roll 8")


def test_report_of_a_mat_game(capsys, tmp_path):
    """``nardy-fast report`` reads a game of .MAT move lines too (pips only: fast)."""
    path = tmp_path / "game.mat"
    path.write_text("  1) 52: 24/17                        26: 24/16\n")
    code, out, err = run_cli(capsys, "report", str(path), "--no-win", "-o",
                             str(tmp_path / "rep"))
    assert code == 0, err
    rows = (tmp_path / "rep" / "game_report.csv").read_text().splitlines()
    assert [r.split(",")[7:9] for r in rows[1:]] == [["360", "360"], ["353", "360"],
                                                     ["353", "352"]]    # pips: 7 then 8


def test_analyse_a_mat_match_saved_with_a_byte_order_mark(capsys, tmp_path):
    """A .MAT file with a byte-order mark and Windows line ends (as Windows editors save
    it) was not told from a single game, and refused with advice for Python: "line 1:
    '\\ufeff 2 point match': this is a match: read it with read_mat"."""
    path = tmp_path / "bom.MAT"
    text = (DATA / "short_match.MAT").read_text()
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    code, out, err = run_cli(capsys, "analyse", str(DATA / "short_match.MAT"))
    assert code == 0, err
    code, again, err = run_cli(capsys, "analyse", str(path))
    assert code == 0, err
    assert again == out
