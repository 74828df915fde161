"""The ``.MAT`` move lists of LogasAI and opornik's importer (``nardy_fast.core.matlayout``):
hand-written files read into a ``MatchRecord``, written back, malformed ones refused by
line."""
from __future__ import annotations

import pathlib
import re

import pytest
from hypothesis import given, settings

from helpers import played_matches, same_match
from nardy_fast.core.matchrecord import MatchRecord, format_match
from nardy_fast.core.matchrules import MatchRules
from nardy_fast.core.matlayout import (_step_to_ours, format_mat, looks_like_mat, parse_mat,
                                       parse_mat_game, read_mat, read_mat_game, to_mat_steps,
                                       write_mat)
from nardy_fast.core.position import Position
from nardy_fast.core.record import CubeAction, RecordError, format_record, random_game
from nardy_fast.core.rules import Rules

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "mat"
THREE = DATA / "three_games.MAT"          # 3 games, the cube, doubles, a pass, bear-off
SHORT = DATA / "short_match.MAT"          # 2 games, a redouble, Bob starting game 2
MOVES = DATA / "one_game_moves_only.MAT"  # one game, move lines alone, two passes


def change(game, k):
    """The mover's board change in turn ``k`` (our points) and checkers borne off."""
    before, after = game.positions()[k], game.positions()[k + 1]
    d = after.opponent.astype(int) - before.mover.astype(int)
    return {i + 1: int(v) for i, v in enumerate(d) if v}, after.off[1] - before.off[0]


def test_three_games():
    m = read_mat(THREE)
    assert m.players == ("Alice", "Bob") and m.source == str(THREE)
    assert m.rules == MatchRules(length=3, starter="opening_roll",
                                 rules=Rules(cube="geometric"))
    assert m.scores == [{"Alice": 0, "Bob": 0}, {"Alice": 2, "Bob": 0},
                        {"Alice": 2, "Bob": 1}]
    assert m.replay() == {"Alice": 3, "Bob": 1}
    g1, g2, g3 = m.games
    # game 1: 45 move lines, the last with White's turn alone; the cube before line 7
    assert (g1.white, g1.black, len(g1.turns)) == ("Alice", "Bob", 89)
    assert g1.cube == [CubeAction(10, "white", "double", 2), CubeAction(10, "black", "take", 2)]
    assert [k for k, t in enumerate(g1.turns) if not t.steps] == [59]      # line 35: "33:"
    assert g1.result() == {"winner": "white", "kind": "mars", "points": 2.0}
    # game 2: line 1 leaves the left column blank: Bob, on the right, moved first
    assert (g2.white, g2.black, len(g2.turns)) == ("Bob", "Alice", 4)
    assert g2.cube == [CubeAction(4, "white", "double", 2), CubeAction(4, "black", "drop", 2)]
    assert g2.result() == {"winner": "white", "kind": "drop", "points": 1.0}
    assert (g3.white, len(g3.turns), g3.result()["kind"]) == ("Alice", 2, "drop")


@pytest.mark.parametrize("k, written, moved, off", [
    (0, "65: 24/13", {1: -1, 12: 1}, 0),                          # two dice joined
    (1, "23: 24/22 22/19", {1: -1, 6: 1}, 0),
    (15, "33: 24/21 16/13(2) 13/10", {1: -1, 4: 1, 9: -2, 12: 1, 15: 1}, 0),   # a repeat
    (10, "21: 8/6 24/23", {17: -1, 19: 1, 1: -1, 2: 1}, 0),
    (11, "55: 24/19/14/9 21/16", {1: -1, 16: 1, 4: -1, 9: 1}, 0),  # a chain
    (24, "55: 20/5 10/5", {5: -1, 15: -1, 20: 2}, 0),             # three dice joined
    (74, "36: 10/4 3/0", {15: -1, 21: 1, 22: -1}, 1),             # bear-off written 0
    (76, "45: 4/off 5/off", {21: -1, 20: -1}, 2),
])
def test_points_count_down_from_the_head(k, written, moved, off):
    """The layout's point p is our 25 - p: each turn moves the checkers its line says."""
    g1 = read_mat(THREE).games[0]
    assert f" {written}" in THREE.read_text().replace("  ", " ")
    assert change(g1, k) == (moved, off)


def test_moves_only():
    """A file of move lines alone (opornik's importer's input) is one game."""
    g = read_mat_game(MOVES)
    assert (g.white, g.black, len(g.turns)) == ("White", "Black", 100)
    assert [k for k, t in enumerate(g.turns) if not t.steps] == [36, 83]   # "pass"
    assert g.result() == {"winner": "black", "kind": "oin", "points": 1.0}
    with pytest.raises(RecordError, match="line 2: a move line before any ' N point match' "
                       "line .* read it with read_mat_game"):
        read_mat(MOVES)
    with pytest.raises(RecordError, match=r"line 1: .* this is a match: read it with read_mat"):
        read_mat_game(THREE)


def test_short_match_redouble():
    m = read_mat(SHORT)
    assert m.replay() == {"Alice": 3, "Bob": 0}
    g2 = m.games[1]
    assert g2.white == "Bob"
    assert [(c.side, c.action, c.stake) for c in g2.cube] == [
        ("white", "double", 2), ("black", "take", 2), ("black", "double", 4),
        ("white", "drop", 4)]
    assert len(g2.turns[3].steps) == 2        # "11: 24/23 14/13": only two ones can be played


@pytest.mark.parametrize("path", [THREE, SHORT])
def test_round_trip(path, tmp_path):
    """write -> read gives the same match: players, scores, cube, every position."""
    m = read_mat(path)
    out = write_mat(m, tmp_path / "again.MAT")
    back = read_mat(out, rules=m.rules)
    assert back.players == m.players and back.scores == m.scores
    for a, b in zip(m.games, back.games):
        assert (a.white, a.black, a.cube) == (b.white, b.black, b.cube)
        assert [t.dice for t in a.turns] == [t.dice for t in b.turns]
        assert a.positions() == b.positions()
    assert format_mat(back) == format_mat(m)
    assert back.replay() == m.replay()


def test_wins_lines_in_the_winners_column():
    """Each won game ends with ``Wins N point(s)`` under its winner's column."""
    text = format_mat(read_mat(THREE))
    wins = [ln for ln in text.splitlines() if "Wins" in ln]
    assert [ln.strip() for ln in wins] == ["Wins 2 points", "Wins 1 point", "Wins 1 point"]
    assert [len(ln) - len(ln.lstrip()) for ln in wins] == [6, 37, 6]   # Alice, Bob, Alice


def random_match(length=3):
    """A match of random games, B (the right column) starting games 1, 3, ..."""
    m = MatchRecord(rules=MatchRules(length=length, starter="opening_roll"),
                    players=("A", "B"))
    seed = 0
    while not m.games or max(m.final_score().values()) < length:
        white, black = ("B", "A") if len(m.games) % 2 == 0 else ("A", "B")
        m.add_game(random_game(seed=seed, white=white, black=black))
        seed += 1
    return m


def test_round_trip_of_random_matches():
    """Matches of random games, both players starting games, round trip too."""
    m = random_match()
    assert [g.white for g in m.games][:2] == ["B", "A"]
    text = format_mat(m)
    assert re.search(r"Game 1\n.*\n  1\) {10,}\d\d: ", text)         # left column blank
    assert re.search(r"Game 2\n.*\n  1\) \d\d: ", text)
    back = parse_mat(text, rules=m.rules)
    assert [g.white for g in back.games] == [g.white for g in m.games]
    assert back.replay() == m.replay()
    assert [g.positions() for g in back.games] == [g.positions() for g in m.games]
    assert format_mat(back) == text


def test_step_tokens_in_our_numbering():
    assert _step_to_ours("24/18(4)") == "1/7(4)" and _step_to_ours("6/0") == "19/off"
    assert _step_to_ours("24/18/12") == "1/7/13" and _step_to_ours("3/OFF") == "22/off"
    for bad, why in (("24/18(0)", "repeat count"), ("24/off/3", "point off"),
                     ("0/3", "point 0"), ("24/25", "point 25")):
        with pytest.raises(ValueError, match=why):
            _step_to_ours(bad)


def test_writer_joins_each_checkers_dice():
    assert to_mat_steps(((1, 7), (7, 12))) == "24/13"
    assert to_mat_steps(((1, 4), (1, 4), (4, 7), (4, 7))) == "24/18 24/18"
    assert to_mat_steps(((19, "off"), (20, 22))) == "6/off 5/3"
    assert to_mat_steps(()) == ""


def test_opornik_documented_line():
    """The move line opornik's page and the issue show: White's 31: 24/20 reads as our
    1/5; the line's Black half is no legal move (Black has no checker on its 13), and is
    refused naming the line and the move."""
    g = parse_mat_game("  1) 31: 24/20\n")
    assert change(g, 0) == ({1: -1, 5: 1}, 0)
    for black in ("42: 24/18 13/9", "64: 24/18 13/9"):
        with pytest.raises(RecordError) as e:
            parse_mat_game(f"  1) 31: 24/20   {black}\n", "doc.MAT")
        assert str(e.value).startswith(f"doc.MAT line 1: game: Black (black) {black}")


def test_looks_like_mat():
    assert looks_like_mat(THREE.read_text()) and looks_like_mat(MOVES.read_text())
    assert looks_like_mat("  1) 66: 6/0 6/0 5/0 5/0")
    assert not looks_like_mat(format_record(random_game(seed=1)))   # the package's own
    assert not looks_like_mat(format_match(random_match()))        # records
    assert not looks_like_mat("  1) 65: 1/7 7/12   43: 1/5 1/4")
    assert not looks_like_mat("  1) 66: 19/off 19/off")


GOOD = THREE.read_text().splitlines()


def _with(line_no, text):
    lines = list(GOOD)
    lines[line_no - 1] = text
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("text, line, fragment", [
    (_with(5, "  1) 65: 24/13x                      23: 24/22 22/19"), 5,
     "'24/13x' is not a move"),
    (_with(5, "  1) 65: 25/14                       23: 24/22 22/19"), 5,
     "point 25 is not 1..24"),
    (_with(5, "  1) 65: 24/off                      23: 24/22 22/19"), 5,
     "Alice (white) 65: 24/off"),
    (_with(5, "  1) 65: 24/18 24/19                 23: 24/22 22/19"), 5, "head rule"),
    (_with(6, "  2) 34: 24/21                       26: 19/17 24/18"), 6,
     "must play both dice"),
    (_with(6, "  3) 34: 24/21 21/17                 26: 19/17 24/18"), 6, "out of order"),
    (_with(6, "  2) 24/21 21/17"), 6, "expected dice such as 64: or a cube action after "
                                      "'2)', got '24/21'"),
    (_with(10, "  6) Doubles                         Takes"), 10, "expected '=>' after 'Doubles'"),
    (_with(4, " Alice 0                          Bob : 0"), 4, "expected the score line"),
    (_with(3, " Game 2"), 3, "out of order, expected Game 1"),
    (_with(54, " Alice : 2                        Carol : 0"), 54,
     "players 'Alice', 'Carol' are not game 1's"),
    (_with(20, "  this is no move line"), 20, "expected a move line"),
    (_with(1, " Alice : 0                        Bob : 0"), 1, "before 'Game 1'"),
    (_with(13, "  9) 42: 14/10 18/16                  33: 24/21 16/13(5) 13/10"), 13,
     "'16/13(5)': a repeat count must be 1..4"),
    (_with(4, " Alice : 0                        Alice : 0"), 4,
     "both players are named 'Alice'"),
    (_with(5, "  1) 65: 24/13 5                     23: 24/22 22/19"), 5,
     "'5' is not a move"),
    (_with(6, "  2) 34: 24/21 21/17"), 6, "turn line 2) holds one move (34: ...)"),
])
def test_malformed_refused_by_line(tmp_path, text, line, fragment):
    path = tmp_path / "bad.MAT"
    path.write_text(text)
    with pytest.raises(RecordError) as e:
        read_mat(path)
    msg = str(e.value)
    assert msg.startswith(f"{path} line {line}: ") and fragment in msg, msg


def test_a_byte_order_mark_is_read_as_the_file_itself(tmp_path):
    """A .MAT file saved with a byte-order mark and Windows line ends (as Windows
    editors write them) was refused: "line 1: '\ufeff 3 point match': this is a match:
    read it with read_mat", from read_mat itself."""
    path = tmp_path / "bom.MAT"
    path.write_bytes(b"\xef\xbb\xbf" + THREE.read_text().replace("\n", "\r\n").encode())
    a, b = read_mat(THREE), read_mat(path)
    assert a.players == b.players and b.replay() == a.replay()
    assert [g.turns for g in a.games] == [g.turns for g in b.games]


def test_other_refusals(tmp_path):
    text = THREE.read_text()
    with pytest.raises(RecordError, match="'3 point match' but rules= says length=5"):
        parse_mat(text, "x.MAT", rules=MatchRules(length=5))
    with pytest.raises(RecordError, match="no ' N point match' line"):
        parse_mat(text.replace(" 3 point match", ""), "x.MAT")
    with pytest.raises(RecordError, match="no move line here"):
        parse_mat_game("; nothing\n\n", "x.MAT")
    path = tmp_path / "latin1.MAT"
    path.write_bytes(b" 1 point match\n\xff\n")
    with pytest.raises(RecordError, match="not a UTF-8 text file"):
        read_mat(path)
    m = read_mat(SHORT)
    m.games[0].start = Position.initial().swap()
    with pytest.raises(ValueError, match="game 1: starts from B"):
        format_mat(m)


def test_a_match_stopped_before_a_game_began():
    """A game with its score line and no move yet: the players keep their names, and the
    match is not over."""
    text = SHORT.read_text()
    text = text[:text.index("  1)                                  31: 24/20")]
    m = parse_mat(text, "stopped.MAT")
    assert (m.games[1].white, m.games[1].black, m.games[1].turns) == ("Alice", "Bob", [])
    with pytest.raises(RecordError, match="game 2: the match is not over"):
        m.replay()


@pytest.mark.parametrize("seed, result", [
    (7, {"winner": None, "kind": "draw", "points": 0.0}),       # Black finishes last turn
    (0, {"winner": "white", "kind": "oin", "points": 1.0}),     # Black's last turn fails
])
def test_draw_rule_last_turn(seed, result):
    """Under draw_rule Black plays one turn after White finishes: read as a turn, not a
    move after the end."""
    rules = Rules(draw_rule=True)
    game = random_game(seed=seed, rules=rules, policy="race", white="A", black="B")
    assert game.result() == result
    m = MatchRecord(rules=MatchRules(length=3, starter="opening_roll", rules=rules),
                    players=("A", "B"))
    m.add_game(game)
    back = parse_mat(format_mat(m), rules=m.rules)
    assert back.games[0].turns == game.turns and back.games[0].result() == result
    assert ("Wins" in format_mat(m)) == (result["kind"] != "draw")    # a draw wins nothing
    lines = format_mat(m).splitlines()
    last = max(k for k, ln in enumerate(lines) if re.match(r"^ *\d+\)", ln))
    n = int(lines[last].split(")")[0])
    lines.insert(last + 1, f"{n + 1:3d}) 64: 24/18")           # one more turn: refused
    with pytest.raises(RecordError, match=f"line {last + 2}: game 1: A .* the game was "
                       "already over"):
        parse_mat("\n".join(lines), rules=m.rules)


def test_a_beaver_brings_beavers_in():
    text = (" 3 point match\n\n Game 1\n Alice : 0            Bob : 0\n"
            "  1) 52: 24/17              26: 24/16\n"
            "  2) Doubles => 2           Beavers => 4\n"
            "  3) 31: 17/13              64: 24/14\n")
    m = parse_mat(text)
    assert m.rules.rules == Rules(cube="geometric", beaver=True)
    assert [(c.side, c.action, c.stake) for c in m.games[0].cube] == [
        ("white", "double", 2), ("black", "beaver", 4)]
    assert m.games[0].cube_states()[-1].stake == 4
    assert parse_mat(text.replace("Beavers => 4", "Takes")).rules.rules.beaver is False


@pytest.mark.parametrize("thing, words", [
    (None, "got NoneType"),
    ("game.mat", "got str"),
])
def test_write_mat_names_what_is_not_a_match(thing, words, tmp_path):
    with pytest.raises(TypeError, match=f"match: expected a MatchRecord .*{words}"):
        write_mat(thing, tmp_path / "x.mat")
    assert not (tmp_path / "x.mat").exists()


def test_write_mat_of_one_game_says_how_to_write_a_game(tmp_path):
    game = random_game(seed=1)
    with pytest.raises(TypeError, match=r"got GameRecord \(one game: write_record"):
        write_mat(game, tmp_path / "x.mat")


@pytest.mark.parametrize("name", ["Ann:3", "Ann\nLee", " Ann", ";Ann"])
def test_write_mat_refuses_a_name_its_score_lines_cannot_hold(tmp_path, name):
    """A name with ':' ('Ann:3'), a line break or a space at either end was written into
    the score lines as it is: ``read_mat`` read another player ('Ann' with 3 points and
    ': 0   B' as the other) or refused the file just written."""
    m = MatchRecord(rules=MatchRules(length=3), players=(name, "B"))
    m.add_game(random_game(seed=1, white=name, black="B"))
    with pytest.raises(ValueError, match=r"a name must be non-empty, on one line, without "
                                         r"':' or spaces at its ends"):
        write_mat(m, tmp_path / "x.mat")
    assert not (tmp_path / "x.mat").exists()


@pytest.mark.parametrize("reader", [read_mat, read_mat_game])
@pytest.mark.parametrize("kind", ["game", "match"])
def test_a_file_of_the_package_own_says_which_reader_takes_it(tmp_path, reader, kind):
    """The package's own game record or match transcript given to ``read_mat`` or
    ``read_mat_game`` was read as a ``.MAT`` list, its points turned round: "step 24/21:
    no checker of the mover on point 24", or "read it with read_mat_game" for a game.
    It is refused naming the reader that takes it."""
    m = MatchRecord(rules=MatchRules(length=1), players=("A", "B"))
    m.add_game(random_game(seed=1, white="A", black="B"))
    path = tmp_path / "ours.txt"
    path.write_text(format_record(m.games[0]) if kind == "game" else format_match(m))
    want = "read_record" if kind == "game" else "read_match"
    with pytest.raises(RecordError, match=rf"ours\.txt: it starts with '; nardy_fast "
                                          rf"{kind} record': .* read it with {want}$"):
        reader(path)


def test_move_lines_counted_up_say_which_reader_takes_them():
    """Move lines in the package's numbering (``1/4``, counted up from the head) read as
    a ``.MAT`` game said "step 24/21: no checker of the mover on point 24"."""
    with pytest.raises(RecordError, match=r"<mat> line 2: game: the first step 1/4 goes "
                                          r"up, .* read it with read_record"):
        parse_mat_game("\n  1) 31: 1/4 4/5     64: 1/7 7/11\n")


@settings(max_examples=8, deadline=None)
@given(played_matches())
def test_any_played_match_round_trips(tmp_path_factory, match):
    """Any match played to its end under any of the rules (draws and Black's last turn,
    the cube with its beavers and the Crawford game, the scorings, the move rules): its
    ``.MAT`` text, read with the match's rules, is the same match and is written again
    the same; through a file too."""
    text = format_mat(match)
    back = parse_mat(text, rules=match.rules)
    assert same_match(back, match)
    assert format_mat(back) == text
    path = tmp_path_factory.mktemp("mat") / "m.mat"
    write_mat(match, path)
    assert same_match(read_mat(path, rules=match.rules), match)


def test_read_mat_refuses_a_name_its_score_line_cannot_hold():
    """A score line ':Alice : 0   Bob : 0' was read as a player named ':Alice', whose match
    write_mat then refused to write (a ValueError, not a RecordError naming the line):
    the file's line is named now, as for any other malformed score line."""
    text = "2 point match\n\n Game 1\n:Alice : 0                        Bob : 0\n  1) 52: 24/17"
    with pytest.raises(RecordError, match=r"^fuzz\.MAT line 4: game 1: players: ':Alice'"):
        parse_mat(text, "fuzz.MAT")
