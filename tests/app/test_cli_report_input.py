"""``nardy-fast report`` on bad input: the error names the file (and the line of a bad
position ID), as ``analyse``'s do, and no empty output folder is left behind."""
import subprocess
import sys

import pytest
from helpers import ctrl_c_at_call

GOOD = "WAAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAB"


def report(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    r = subprocess.run([sys.executable, "-m", "nardy_fast.app.cli", "report", name,
                        "--no-win"], capture_output=True, text=True, cwd=tmp_path,
                       timeout=120)
    return r.returncode, r.stderr


@pytest.mark.parametrize("name, content, message", [
    ("bin.txt", b"\xff\xfe\x00bad", "bin.txt: not a UTF-8 text file (invalid start byte)"),
    ("ids.txt", f"{GOOD}\n\n# a comment\nxyz\n".encode(),
     "ids.txt line 4: position ID 'xyz': expected 33 characters"),
    ("ids.csv", f"id,x\n{GOOD},1\nq,2\n".encode(), "ids.csv row 2: position ID 'q'"),
    # a CSV of the one column 'id': its header is not read as a position
    ("one.csv", f"id\n{GOOD}\nq\n".encode(), "one.csv row 2: position ID 'q'"),
    # an empty cell was read as NaN and named as the position ID 'nan'
    ("gap.csv", f"x,id\n1,{GOOD}\n2,\n".encode(),
     "gap.csv row 2: an empty 'id' cell (every row needs a position ID)"),
])
def test_bad_input_is_named_and_leaves_no_folder(tmp_path, name, content, message):
    code, err = report(tmp_path, name, content)
    assert code == 1 and err.startswith(f"nardy-fast: error: {message}"), err
    assert err.count("\n") == 1
    assert not (tmp_path / "report_output").exists()


def test_good_input_still_writes_its_folder(tmp_path):
    code, err = report(tmp_path, "ok.txt", f"{GOOD}\nstart  # the initial position\n".encode())
    assert code == 0, err
    assert (tmp_path / "report_output" / "pip_report.csv").exists()


def test_a_position_the_method_cannot_value_is_named_by_its_line(tmp_path, capsys):
    """``--method two_sided`` on a contact position: the error names the file and the
    line of that position, as a bad ID's does (before: ``positions[1] (ID)``)."""
    from nardy_fast.app import cli
    race = "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAn"
    (tmp_path / "ids.txt").write_text(f"{race}\n# contact:\nstart\n")
    assert cli.main(["report", str(tmp_path / "ids.txt"), "--method", "two_sided",
                     "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'ids.txt'} line 3: not a race of both homes" in err, err


def test_a_report_that_fails_late_leaves_an_earlier_report_as_it_was(tmp_path, capsys):
    """The pip report was written, then the win report failed: the folder held the new pip
    report beside the earlier report's win report.  Every table is now made first."""
    from nardy_fast.app import cli
    out = tmp_path / "out"
    (tmp_path / "one.txt").write_text(f"{GOOD}\n")
    assert cli.main(["report", str(tmp_path / "one.txt"), "--method", "two_sided",
                     "-o", str(out)]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    (tmp_path / "two.txt").write_text(f"{GOOD}\nstart\n")
    capsys.readouterr()
    assert cli.main(["report", str(tmp_path / "two.txt"), "--method", "two_sided",
                     "-o", str(out), "--force"]) == 1
    assert "line 2: not a race of both homes" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_an_earlier_report_is_refused_without_force(tmp_path, capsys):
    """A second report into the folder of a first replaced some of its files and left the
    others (the first's win report of 2 positions beside a pip report of 1, its boards
    02 and 03), exit 0.  Now it is refused, naming the files, and the folder is left as
    it was; ``--force`` replaces the earlier report whole, and a file of the user's stays."""
    from nardy_fast.app import cli
    out = tmp_path / "out"
    (tmp_path / "two.txt").write_text(f"{GOOD}\nstart\n")
    (tmp_path / "one.txt").write_text("start\n")
    assert cli.main(["report", str(tmp_path / "two.txt"), "-o", str(out)]) == 0
    (out / "notes.txt").write_text("mine")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    assert cli.main(["report", str(tmp_path / "one.txt"), "--no-win", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"nardy-fast: error: -o/--out {out}: holds {len(before) - 1} "
                          "file(s) of an earlier report (board_01.png, board_02.png, "
                          "pip_report.csv, ...); --force replaces them"), err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert cli.main(["report", str(tmp_path / "one.txt"), "--no-win", "-o", str(out),
                     "--force"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["board_01.png", "notes.txt",
                                                     "pip_report.csv", "pip_report.html"]
    assert len((out / "pip_report.csv").read_text().splitlines()) == 2   # header, start


def test_a_byte_order_mark_is_read_as_the_file_itself(tmp_path):
    """A file of IDs saved with a byte-order mark (as Windows editors write it) was
    refused: "line 1: position ID '\ufeffstart': expected 33 characters, got 6"."""
    code, err = report(tmp_path, "bom.txt", b"\xef\xbb\xbfstart\r\n" + GOOD.encode())
    assert code == 0, err
    assert (tmp_path / "report_output" / "pip_report.csv").read_text().count(GOOD) == 1


@pytest.mark.parametrize("earlier", [False, True])
def test_ctrl_c_while_writing_the_files_leaves_no_part_of_a_report(tmp_path, capsys,
                                                                    monkeypatch, earlier):
    """Ctrl-C between the report's files left those written so far in the folder (with
    ``--force``, beside the rest of the earlier report) and said only "interrupted";
    this run's files are removed, the earlier report's too, and the stop says so."""
    from nardy_fast.app import cli
    out = tmp_path / "out"
    (tmp_path / "two.txt").write_text(f"{GOOD}\nstart\n")
    if earlier:
        assert cli.main(["report", str(tmp_path / "two.txt"), "-o", str(out)]) == 0
        (out / "notes.txt").write_text("mine")
    # the race chart is written, a board next
    calls = ctrl_c_at_call(monkeypatch, cli, "save_figure")
    capsys.readouterr()
    argv = ["report", str(tmp_path / "two.txt"), "-o", str(out), "--no-progress"]
    assert cli.main(argv + ["--force"] * earlier) == 130
    err = capsys.readouterr().err
    assert err.strip() == (f"nardy-fast: interrupted while writing -o {out}: the 5 file(s) "
                           "written so far removed (run again to write the report)")
    if earlier:                                # the user's file stays
        assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    else:                                      # the folder this run made, empty: gone
        assert not out.exists()


def test_a_match_or_several_games_are_sent_to_analyse_and_an_illegal_turn_names_the_file(
        tmp_path, capsys):
    """``report`` takes one game.  A match transcript was refused with "line 6: '3' before
    the first dice", a .MAT match with "this is a match: read it with read_mat" (a Python
    function), a duel's transcript with "turn line 1) out of order"; a record without a
    Result tag with an illegal turn named no file."""
    import nardy_fast as nf
    from nardy_fast.app import cli
    from nardy_fast.app.duel import write_transcript
    r = nf.simulate_matches("greedy", "random", 1, length=3, seed=2, transcripts=True,
                            progress=False)
    nf.write_match(r["records"][0], tmp_path / "match.txt")
    nf.write_mat(r["records"][0], tmp_path / "match.MAT")
    write_transcript([nf.random_game(seed=1, max_turns=4),
                      nf.random_game(seed=2, max_turns=4)], tmp_path / "duel.txt")
    text = nf.random_game(seed=3, max_turns=6).to_text()
    bad = text.replace("51: 1/6 6/7", "51: 1/6 6/8")
    assert bad != text
    (tmp_path / "bad.mat").write_text(bad)
    want = {"match.txt": "a match; report takes one game ('nardy-fast analyse {p}' "
                         "analyses a match game by game)",
            "match.MAT": "a match; report takes one game ('nardy-fast analyse {p}' "
                         "analyses a match game by game)",
            "duel.txt": "2 game records one after the other (a duel's transcript?); "
                        "report takes one game ('nardy-fast analyse {p} --game K' "
                        "analyses the K-th)",
            "bad.mat": "line 6: turn 1 (white 51: 1/6 6/8) is illegal"}
    for name, message in want.items():
        p = tmp_path / name
        assert cli.main(["report", str(p), "--no-win", "-o", str(tmp_path / "out")]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"nardy-fast: error: {p}: {message.format(p=p)}"), err
        assert not (tmp_path / "out").exists()


def test_rules_value_a_file_of_ids_and_a_record_keeps_its_own(tmp_path, capsys):
    """report had no --rules: a file of IDs was valued under classic rules only (no
    P(draw) under draw_rule, no koks under extended scoring)."""
    import nardy_fast as nf
    from helpers import run_cli
    ids = tmp_path / "ids.txt"
    ids.write_text("WAAAAAAAAAAAAAAAAAAAAAAAAAgABABAQ\n")
    code, out, err = run_cli(capsys, "report", str(ids), "-o", str(tmp_path / "r"),
                             "--method", "exact", "--rules", "draw_rule=true")
    assert code == 0, err
    import pandas as pd
    wr = pd.read_csv(tmp_path / "r" / "win_report.csv")
    assert wr["p_draw"].iloc[0] == pytest.approx(1 / 36)     # Black's 6-6 on its last turn
    assert wr["p_win"].iloc[0] == pytest.approx(35 / 36)
    rec = nf.random_game(seed=3, max_turns=4)
    path = nf.write_record(rec, tmp_path / "g.txt")
    code, out, err = run_cli(capsys, "report", str(path), "-o", str(tmp_path / "g"),
                             "--no-win", "--rules", "scoring=extended")
    assert code == 1 and ("--rules scoring=extended: a game record is reported under its "
                          "own rules (classic); --rules is for a file of position IDs") in err


def test_ctrl_c_between_a_tables_csv_and_html_leaves_no_part_of_a_report(tmp_path, capsys,
                                                                         monkeypatch):
    """Ctrl-C after a table's CSV was written and before its HTML left the CSV in the
    folder, though the stop said this run's files were removed."""
    from nardy_fast.app import cli
    out = tmp_path / "out"
    (tmp_path / "two.txt").write_text(f"{GOOD}\nstart\n")
    # pip_report.csv is written, its HTML next
    calls = ctrl_c_at_call(monkeypatch, cli, "save_frame")
    argv = ["report", str(tmp_path / "two.txt"), "-o", str(out), "--no-progress"]
    assert cli.main(argv) == 130
    err = capsys.readouterr().err
    assert err.strip() == (f"nardy-fast: interrupted while writing -o {out}: the 1 file(s) "
                           "written so far removed (run again to write the report)")
    assert not out.exists()
