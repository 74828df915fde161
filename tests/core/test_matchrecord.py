"""``core.matchrecord``: a match transcript's score lines, checked with the range they
must be in."""
import pytest
from hypothesis import given, settings

from helpers import played_matches, same_match
from nardy_fast.core.matchrecord import format_match, parse_match, read_match, write_match
from nardy_fast.core.record import RecordError


@pytest.mark.parametrize("score", [2, 5])
def test_a_first_score_past_the_match_names_the_range_it_must_be_in(tmp_path, score):
    """A 2-point match's first score line of 2 (or 5) said "each score must be in 0..2",
    though 2 is refused: 0..1."""
    path = tmp_path / "m.txt"
    path.write_text(" 2 point match\n\n Game 1\n"
                    f" Alice : 0                         Bob : {score}\n"
                    "  1) 34: 1/4 4/8\n")
    with pytest.raises(RecordError, match=r"each score must be in 0\.\.1 \(below the "
                       r"length, 2\)"):
        read_match(path).replay()


def test_a_raise_in_the_crawford_game_is_refused_by_replay():
    """A transcript with a raise in the Crawford game (game 2 of a match to 3 at 0-2)
    replayed without a word, its doubled stake scored; only ``analyse --cube`` refused
    it.  ``replay`` names the game and the turn."""
    from nardy_fast.core.matchrules import MatchRules
    from nardy_fast.core.record import CubeAction
    from nardy_fast.core.rules import Rules
    from nardy_fast.engine.decisions.matchplay import play_one_match
    mr = MatchRules(length=3, crawford=True, rules=Rules(cube="geometric"))
    m = play_one_match("random", "random", rules=mr, seed=3)
    assert m.scores[1] == {"A": 0.0, "B": 2.0} and m.replay()
    m.games[1].cube = [CubeAction(2, "white", "double", 2),
                       CubeAction(2, "black", "take", 2)]
    with pytest.raises(RecordError, match=r"game 2: the Crawford game is played without "
                       r"the cube, but the record has a cube action at turn 3"):
        m.replay()


def _transcript(tmp_path, score_line, head=" 3 point match\n"):
    """``m.txt``: a match of one unfinished game, ``head`` and its first score line."""
    path = tmp_path / "m.txt"
    path.write_text(f"{head}\n Game 1\n {score_line}\n  1) 34: 1/4 4/8\n")
    return path


def test_a_first_score_of_half_a_point_without_half_point_draws_names_the_game(tmp_path):
    """A first score line of 2.5 in a match without draws replayed, and the analysis then
    failed in the match state with "score: white=2.5: ...", naming neither the file nor
    the game nor the player (the score line says Alice)."""
    path = _transcript(tmp_path, "Alice : 2.5                       Bob : 0")
    with pytest.raises(RecordError, match=r"m\.txt: game 1: the score line says Alice "
                       r"2\.5, Bob 0: each score must be a whole number of points"):
        read_match(path).replay(unfinished=True)


@pytest.mark.parametrize("length", [0, 99])
def test_a_match_length_out_of_range_names_the_file_and_the_line(tmp_path, length):
    """A ' 0 point match' line said only "length=0: must be 1..64" (a ValueError, not a
    RecordError), naming neither the file nor the line it came from."""
    path = _transcript(tmp_path, "Alice : 0                         Bob : 0",
                       f" {length} point match\n")
    with pytest.raises(RecordError, match=rf"m\.txt: '{length} point match': "
                       rf"length={length}: must be 1\.\.64"):
        read_match(path)


def test_two_players_of_one_name_are_named(tmp_path):
    """Both players named Alice (tags and score lines) replayed game 1, then said "game 2:
    the score line says Alice 0 but the games before give Alice 1": the two players'
    points had been added into one."""
    path = _transcript(tmp_path, "Alice : 0                         Alice : 0",
                       '; [Player1 "Alice"]\n; [Player2 "Alice"]\n 3 point match\n')
    with pytest.raises(RecordError, match=r"m\.txt: players \('Alice', 'Alice'\): a match "
                       r"needs two players of different names"):
        read_match(path).replay(unfinished=True)


def test_a_byte_order_mark_is_read_as_the_file_itself(tmp_path):
    """A transcript saved with a byte-order mark (as some Windows editors write) was
    refused: "line 1: '\\ufeff 3 point match' before 'Game 1'"."""
    text = (" 2 point match\n\n Game 1\n"
            " Alice : 0                         Bob : 0\n"
            "  1) 34: 1/4 4/8\n")
    plain, marked = tmp_path / "m.txt", tmp_path / "bom.txt"
    plain.write_text(text)
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    a, b = read_match(plain), read_match(marked)
    assert (a.players, a.rules, a.games[0].turns) == (b.players, b.rules, b.games[0].turns)


def test_a_file_not_in_utf8_is_named(tmp_path):
    """A transcript in another encoding (a player's name in Latin-1) gave the codec's
    "'utf-8' codec can't decode byte 0xe9 in position 27", naming no file, in Python and
    on the command line (``nardy-fast analyse``)."""
    path = tmp_path / "latin1.txt"
    path.write_bytes(" 2 point match\n\n Game 1\n Jos\xe9 : 0      Bob : 0\n".encode("latin-1"))
    with pytest.raises(RecordError, match=r"latin1\.txt: not a UTF-8 text file "
                                          r"\(invalid continuation byte\)$"):
        read_match(path)


@pytest.mark.parametrize("name", ['Ann "the Cat"', "Ann\\B"])
def test_a_player_name_with_a_quote_or_a_backslash_reads_back(tmp_path, name):
    """``write_match`` wrote a name with a double quote or a backslash as it is into the
    Player tags, and ``read_match`` then refused its own file ("game 1: players 'White',
    'Bob' are not the match's ...") or read another name (a backslash dropped)."""
    from nardy_fast.core.matchrecord import write_match
    from nardy_fast.core.matchrules import MatchRules
    from nardy_fast.engine.decisions.matchplay import play_one_match
    m = play_one_match("random", "random", rules=MatchRules(length=3), seed=1,
                       names=(name, "Bob"))
    path = write_match(m, tmp_path / "m.txt")
    again = read_match(path)
    assert again.players == (name, "Bob")
    assert again.replay() == m.replay()


@pytest.mark.parametrize("name", [" Ann", "Ann ", "Ann\nLee"])
def test_a_player_name_a_score_line_cannot_hold_is_refused_when_written(tmp_path, name):
    """``write_match`` wrote a name with a space at either end or a line break, which the
    score lines cannot keep: ``read_match`` then refused the file it had written ("game
    1: players 'Ann', 'Bob' are not the match's (' Ann', 'Bob')", "expected the score
    line ..., got 'Ann'").  The writer refuses the name."""
    from nardy_fast.core.matchrecord import write_match
    from nardy_fast.core.matchrules import MatchRules
    from nardy_fast.engine.decisions.matchplay import play_one_match
    m = play_one_match("random", "random", rules=MatchRules(length=1), seed=1,
                       names=(name, "Bob"))
    with pytest.raises(ValueError, match=r"a name must be non-empty, on one line, "
                                         r"without ':' or spaces at its ends"):
        write_match(m, tmp_path / "m.txt")
    assert not (tmp_path / "m.txt").exists()



@pytest.mark.parametrize("first, second, line", [("34: 1/4 4/8x", "11: 8/9 9/10", 9),
                                                 ("34: 1/4 4/8", "7: 8/15", 12)])
def test_an_error_in_a_game_names_the_line_of_the_file(tmp_path, first, second, line):
    """A malformed move in a game of a match transcript was named by a line counted from
    a header the reader made up for the game, without the transcript's blank and comment
    lines ("m.txt game 1 line 4" for the file's line 9): the file's line is named."""
    path = tmp_path / "m.txt"
    path.write_text('; nardy_fast match record 1\n; [Match "length=3"]\n\n 3 point match\n'
                    "\n Game 1\n Alice : 0                         Bob : 0\n\n"
                    f"  1) {first}                    56: 1/6 6/12\n"
                    "; a comment\n\n"
                    f"  2) {second}\n")
    with pytest.raises(RecordError, match=rf"m\.txt game 1 line {line}: "):
        read_match(path)


def test_a_player_name_read_as_a_comment_is_refused_when_written(tmp_path):
    """A name starting with ';' made its score line a comment line: ``write_match`` wrote
    the transcript and ``read_match`` refused it ("expected the score line 'NAME : N
    NAME : N', got '1) ...'").  The writer refuses the name."""
    from nardy_fast.core.matchrecord import write_match
    from nardy_fast.core.matchrules import MatchRules
    from nardy_fast.engine.decisions.matchplay import play_one_match
    m = play_one_match("random", "random", rules=MatchRules(length=1), seed=1,
                       names=(";Ann", "Bob"))
    with pytest.raises(ValueError, match=r"players: ';Ann': a name must .* not start "
                                         r"with ';'"):
        write_match(m, tmp_path / "m.txt")
    assert not (tmp_path / "m.txt").exists()


@settings(max_examples=8, deadline=None)
@given(played_matches())
def test_a_match_written_and_read_back_is_the_same_match(tmp_path_factory, match):
    """Any match played to its end under any of the rules (draws, the cube, the scorings,
    the move rules): its transcript reads back as the same match, with its rules, and is
    written again the same; through a file too."""
    text = format_match(match)
    back = parse_match(text)
    assert back.rules == match.rules and same_match(back, match)
    assert format_match(back) == text
    path = tmp_path_factory.mktemp("match") / "m.txt"
    write_match(match, path)
    assert same_match(read_match(path), match)
