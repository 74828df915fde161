"""Game records: writer/reader round trip, replay legality checks, results."""
import importlib
import os
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy_fast import CubeState, Position, Rules, successors
from nardy_fast.core.position import parse_steps
from nardy_fast.core.record import (GameRecord, RecordError, Turn, as_record, game_result,
                                    parse_record,
                                    random_game, read_record, write_record)

from helpers import ALL_VARIANTS, board, game_positions

VARIANTS = [Rules(), Rules(head_rule="generalized"), Rules(scoring="extended"),
            Rules(block_rule="home", block_transient=True), Rules(draw_rule=True),
            Rules(larger_die_rule=False)]


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(range(len(VARIANTS))),
       policy=st.sampled_from(["random", "race"]))
def test_round_trip_and_replay(seed, variant, policy):
    rules = VARIANTS[variant]
    rec = random_game(seed=seed, rules=rules, policy=policy, white="Ann \"A\"", black="Bob")
    text = rec.to_text()
    back = parse_record(text)
    assert back.turns == rec.turns
    assert back.rules == rules
    assert (back.white, back.black) == (rec.white, rec.black)
    assert back.start == rec.start
    assert back.to_text() == text
    pos = back.positions()
    res = back.result()
    assert res is not None, "a random game runs to the end"
    draw = res["kind"] == "draw"              # a draw has no final position (both sides off)
    assert len(pos) == len(rec.turns) + (0 if draw else 1)
    # each turn's result is a legal successor, and the sides alternate
    for before, after, turn in zip(pos, pos[1:], rec.turns):
        assert before.side == turn.side and after.side != turn.side
        legal = successors(before.mover, before.opponent, *turn.dice, rules)
        assert (legal == after.opponent).all(axis=1).any()
    if draw:
        assert rules.draw_rule and not pos[-1].opponent.any()   # white off, black to finish
    else:
        final = pos[-1]
        assert 0 in final.boards.sum(axis=1)
        loser = final.white if res["winner"] == "black" else final.black
        assert loser.sum() > 0
        assert (res["kind"] == "oin") == (loser.sum() < 15)
        assert res["points"] == rules.points(res["kind"])


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_tampered_turn_is_rejected_naming_it(seed, data):
    rec = random_game(seed=seed)
    pos = rec.positions()
    k = data.draw(st.integers(0, len(rec.turns) - 1))
    turn = rec.turns[k]
    d1, d2 = data.draw(st.sampled_from([(a, b) for a in range(1, 7) for b in range(a, 7)]))
    # a different roll with the same steps: rejected at that turn, unless the steps fit
    # the new dice and leave a legal result of them (e.g. a single die played)
    tampered = Turn(turn.side, (d1, d2), turn.steps)
    rec2 = GameRecord(rules=rec.rules, turns=rec.turns[:k] + [tampered] + rec.turns[k + 1:])
    try:
        pos2 = rec2.positions()
    except RecordError as e:
        assert str(e).startswith(f"turn {k + 1} ({turn.side} {d1}{d2}: ")
    else:
        before = pos[k]
        legal = successors(before.mover, before.opponent, d1, d2)
        assert (legal == pos2[k + 1].opponent).all(axis=1).any()
        used = sorted((25 if b == "off" else b) - a for a, b in turn.steps)
        dice = [d1] * 4 if d1 == d2 else [d1, d2]
        assert len(used) <= len(dice)


@pytest.mark.parametrize("steps, reason", [
    ("1/7 1/6", "head, block or dice-usage"),       # two checkers from the head
    ("1/8", "moves 7 pips"),
    ("2/8 8/13", "no checker of the mover on point 2"),
    ("1/7 7/off", "cannot bear off"),
    ("", "legal move"),                               # a pass while moves exist
])
def test_illegal_first_turn_messages(steps, reason):
    text = f"1) 65: {steps}\n"
    rec = parse_record(text)
    with pytest.raises(RecordError) as e:
        rec.positions()
    msg = str(e.value)
    assert msg.startswith("line 1: turn 1 (white 65: ")
    assert (steps or "pass") in msg
    assert reason in msg


def test_landing_on_opponent_is_named():
    rec = parse_record("1) 66: 1/7 7/13 1/7 7/13\n")
    with pytest.raises(RecordError, match="point 13 is held by the opponent"):
        rec.positions()


def test_rule_book_examples_replay():
    # RULES.md section 9, examples 1-4, written as records
    for text in ["1) 66: 1/7 1/7", "1) 44: 1/5 5/9 1/5 5/9", "1) 33: 1/4 4/7 1/4 4/7",
                 "1) 33: 1/4 4/7 7/10 1/4", "1) 65: 1/7 7/12", "1) 65: 1/6/12"]:
        parse_record(text).positions()
    with pytest.raises(RecordError, match="turn 1"):
        parse_record("1) 66: 1/7 7/13").positions()


def test_pass_when_nothing_can_be_played():
    mover = board(p1=15)
    opp = board(p1=14, p19=1)                  # opponent 19 = mover 7: the 6 is blocked
    legal = successors(mover, opp, 6, 6)
    assert len(legal) == 1 and (legal[0] == mover).all()
    start = Position.from_boards(mover, opp, "black")
    rec = GameRecord(start=start).append((6, 6)).append((2, 1), [(19, 21), (1, 2)])
    # written and read back: a pass is an empty turn; Black's first line leaves White blank
    text = rec.to_text()
    assert "[Start" in text
    back = parse_record(text)
    assert back.turns == rec.turns
    assert back.turns[0].side == "black" and back.turns[0].steps == ()
    assert len(back.positions()) == 3
    assert parse_record(text.replace("66:", "66: pass")).turns == rec.turns


def test_step_syntax():
    assert parse_steps("1/7/11") == ((1, 7), (7, 11))
    assert parse_steps("24/off(2) 23/off") == ((24, "off"), (24, "off"), (23, "off"))
    assert parse_steps("pass") == ()
    for bad in ("1-7", "off/3", "0/4", "25/off", "3/off/4", "1/7(9)"):
        with pytest.raises(ValueError, match="step"):
            parse_steps(bad)


def test_parse_errors_name_the_line():
    with pytest.raises(RecordError, match=r"line 3: step '1\+7'"):
        parse_record("; [White \"a\"]\n\n1) 64: 1+7\n")
    with pytest.raises(RecordError, match=r"line 2: turn line 3\) out of order"):
        parse_record("1) 64: 1/7 7/11 31: 1/4 4/5\n3) 11: 11/12 12/13 13/14 14/15\n")
    with pytest.raises(RecordError, match="before the first dice"):
        parse_record("1) 1/7\n")
    with pytest.raises(RecordError, match="tag Rules"):
        parse_record('; [Rules "head_rule=sideways"]\n')
    with pytest.raises(RecordError, match="tag Start"):
        parse_record('; [Start "Wxyz"]\n')


def test_result_tag_is_checked():
    rec = random_game(seed=7)
    text = rec.to_text()
    res = rec.result()
    other = "black" if res["winner"] == "white" else "white"
    with pytest.raises(RecordError, match="tag Result"):
        parse_record(text.replace(f'[Result "{res["winner"]}', f'[Result "{other}'))


def test_game_over_then_more_turns():
    mover, opp = board(p24=1), board(p24=1)
    start = Position.from_boards(mover, opp, "white")
    rec = GameRecord(start=start).append((2, 1), [(24, "off")]).append((2, 1), [(24, "off")])
    with pytest.raises(RecordError, match="turn 2 .*already over"):
        rec.positions()
    # with the draw rule Black gets its last turn, and finishing in it is a draw
    rec.rules = Rules(draw_rule=True)
    assert rec.result() == {"winner": None, "kind": "draw", "points": 0.0}


@pytest.mark.parametrize("loser, kind", [
    (board(p19=1), "oin"),
    (board(p19=15), "home_mars"),
    (board(p3=1, p20=14), "koks"),
    (board(p10=1, p20=14), "mars"),
])
def test_game_result_kinds(loser, kind):
    # Black just bore off its last checker; White (on roll) lost
    pos = Position.from_boards(loser, np.zeros(24, np.uint8), "white")
    ext = Rules(scoring="extended")
    res = game_result(pos, ext)
    assert res["winner"] == "black" and res["kind"] == kind
    assert res["points"] == ext.points(kind)
    assert game_result(Position.initial()) is None


def test_write_and_read_file(tmp_path):
    rec = random_game(seed=11, rules=Rules(scoring="extended"))
    rec.tags["Date"] = "2026-11-29"
    p = tmp_path / "game.txt"
    write_record(rec, p)
    assert os.listdir(tmp_path) == ["game.txt"]          # no temporary file left
    back = read_record(p)
    assert back.turns == rec.turns and back.tags["Date"] == "2026-11-29"
    assert back.rules.scoring == "extended"
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="bin.txt"):
        read_record(tmp_path / "bin.txt")


def test_random_game_arguments():
    with pytest.raises(ValueError, match="policy"):
        random_game(policy="smart")
    with pytest.raises(TypeError, match="start"):
        random_game(start=3)
    short = random_game(seed=1, max_turns=5)
    assert len(short.turns) == 5 and short.result() is None
    a, b = random_game(seed=5), random_game(seed=5)
    assert a.turns == b.turns


def test_docstring_example_replays():
    import nardy_fast.core.record as mod
    doc = mod.__doc__
    block = doc[doc.index("    ; nardy_fast game record"):doc.index("\nHeader")]
    lines = [ln[4:] for ln in block.splitlines()
             if ln.strip() != "..." and "[Result" not in ln]
    rec = parse_record("\n".join(lines))
    assert (rec.white, rec.black, len(rec.turns)) == ("Alice", "Bob", 6)
    assert len(rec.positions()) == 7


# -- cube actions (rule book section 7a) ----------------------------------------------------

CUBE = Rules(cube="geometric")


def cube_game(actions, rules=CUBE, seed=3, upto=None):
    """A race-policy game with cube actions inserted: {turn index: [(action, stake)]}."""
    base = random_game(seed=seed, rules=rules, policy="race")
    rec = GameRecord(rules=rules)
    turns = base.turns if upto is None else base.turns[:upto]
    for i, t in enumerate(turns):
        for action, stake in actions.get(i, []):
            rec.append_cube(action, stake)
        rec.append(t.dice, t.steps)
    for action, stake in actions.get(len(turns), []):
        rec.append_cube(action, stake)
    return rec


def test_cube_actions_round_trip():
    rec = cube_game({10: [("double", 2), ("take", None)], 21: [("double", 4), ("take", None)]})
    text = rec.to_text()
    assert "Doubles => 2" in text and "Takes" in text and "Doubles => 4" in text
    back = parse_record(text)
    assert back.cube == rec.cube and back.turns == rec.turns
    assert back.to_text() == text
    res = back.result()
    assert res["kind"] in ("oin", "mars", "koks", "home_mars")   # how it ended
    assert res["points"] == 4.0                                 # the stake: no mars with the cube
    states = back.cube_states()
    assert len(states) == len(back.turns) + 1
    assert states[9].owner == "centre" and states[9].stake == 1
    # before turn index 10 (White's) White doubled and Black took: White rolls at stake 2
    # with the cube on Black's side
    assert states[10] == CubeState(2, "opponent") and states[11] == CubeState(2, "mover")


def test_drop_ends_the_game():
    rec = cube_game({11: [("double", 2), ("drop", None)]}, upto=11)
    res = parse_record(rec.to_text()).result()
    assert res == {"winner": "black", "kind": "drop", "points": 1.0}
    with pytest.raises(RecordError, match="already over"):
        cube_game({11: [("double", 2), ("drop", None)]}, upto=13).result()


def test_gnubg_style_cube_text():
    text = """; [Rules "cube=geometric beaver=true"]

  1) 62: 1/7 7/9                     33: 1/4 1/4 4/7 7/10
  2) 55: 1/6 9/14 14/19 19/24        Doubles => 2
  3) Beavers => 4                    64: 1/7 4/8
"""
    rec = parse_record(text)
    assert [(c.side, c.action, c.stake) for c in rec.cube] == [("black", "double", 2),
                                                               ("white", "beaver", 4)]
    assert rec.cube_states()[-1].stake == 4 and rec.cube_states()[-1].owner == "mover"
    # White (beaverer) owns the cube, White is on roll after Black's turn
    bad = text.replace('beaver=true', 'beaver=false')
    with pytest.raises(RecordError, match="beaver=false"):
        parse_record(bad).replay()


@pytest.mark.parametrize("actions, rules, match", [
    ({10: [("double", 2), ("take", None)]}, Rules(), "no cube"),
    ({0: [("double", 2), ("take", None)]}, CUBE, "first turn"),
    ({10: [("double", 3), ("take", None)]}, CUBE, "next stake is 2"),
    ({10: [("double", 2)]}, CUBE, "not answered"),
    ({10: [("double", 2), ("take", None)], 12: [("double", 4), ("take", None)]}, CUBE,
     "owns the cube"),
    ({10: [("take", 2)]}, CUBE, "no raise to answer"),
])
def test_illegal_cube_actions(actions, rules, match):
    with pytest.raises(RecordError, match=match):
        cube_game(actions, rules=rules).replay()


def test_arithmetic_stakes():
    rules = Rules(cube="arithmetic")
    rec = cube_game({10: [("double", 2), ("take", None)], 11: [("double", 3), ("take", None)]},
                    rules=rules)
    assert parse_record(rec.to_text()).result()["points"] == 3.0
    with pytest.raises(RecordError, match="next stake is 3"):
        cube_game({10: [("double", 2), ("take", None)], 11: [("double", 4), ("take", None)]},
                  rules=rules).replay()


@pytest.mark.parametrize("rules", [None, "classic", {}, Rules()])
def test_record_rules_of_the_vocabulary(rules):
    """``rules`` as everywhere: None is classic, text and dicts are read; the record
    writes and replays as one made with ``Rules()``."""
    rec = GameRecord(rules=rules)
    rec.append((6, 5), [(1, 7), (7, 12)])
    want = GameRecord(rules=Rules())
    want.append((6, 5), [(1, 7), (7, 12)])
    assert rec.rules == Rules() and rec == want
    assert rec.to_text() == want.to_text()
    draw = GameRecord(rules="draw_rule=true")
    assert draw.rules == Rules(draw_rule=True)


@pytest.mark.parametrize("seed, error", [("a", TypeError), (-1, ValueError), (1.5, TypeError)])
def test_random_game_names_a_bad_seed(seed, error):
    with pytest.raises(error, match=f"seed={seed!r}"):
        random_game(seed=seed)


def test_as_record_reads_a_path_and_names_anything_else(tmp_path):
    rec = random_game(seed=2, max_turns=6)
    path = write_record(rec, str(tmp_path / "g.txt"))
    assert as_record(rec) is rec
    for p in (path, tmp_path / "g.txt"):                   # str and os.PathLike
        assert as_record(p).turns == rec.turns
    with pytest.raises(TypeError, match="^game: expected a GameRecord or a path, got list$"):
        as_record([], name="game")


@pytest.mark.parametrize("parse, reader", [
    ("nardy_fast.core.record:parse_record", "read_record"),
    ("nardy_fast.core.matchrecord:parse_match", "read_match"),
    ("nardy_fast.core.matlayout:parse_mat", "read_mat"),
    ("nardy_fast.core.matlayout:parse_mat_game", "read_mat_game"),
])
@pytest.mark.parametrize("thing", [None, b"; nardy_fast record 1\n", 42])
def test_a_parser_of_text_names_what_is_not_text_and_the_reader_of_files(parse, reader,
                                                                         thing):
    module, name = parse.split(":")
    fn = getattr(importlib.import_module(module), name)
    with pytest.raises(TypeError, match=rf"^{name}: text: expected str.*"
                                        rf"got {type(thing).__name__}\); {reader} reads"):
        fn(thing)


@pytest.mark.parametrize("write, wrong, words", [
    ("nardy_fast.core.record:write_record", None, r"^record: expected a GameRecord .*got "
                                                  r"NoneType$"),
    ("nardy_fast.core.record:write_record", "match", r"got MatchRecord \(a match: "
                                                     r"write_match writes it\)"),
    ("nardy_fast.core.matchrecord:write_match", "game", r"^match: expected a MatchRecord "
                                                       r".*got GameRecord \(one game: "
                                                       r"write_record writes it\)"),
    ("nardy_fast.core.matchrecord:write_match", "text", r"got str$"),
])
def test_a_writer_names_a_record_of_the_wrong_kind_and_writes_nothing(write, wrong, words,
                                                                      tmp_path):
    from nardy_fast import MatchRules, play_one_match
    things = {"game": random_game(seed=1), "text": "a game",
              "match": play_one_match("random", "random", rules=MatchRules(length=1),
                                      seed=1)}
    module, name = write.split(":")
    fn = getattr(importlib.import_module(module), name)
    with pytest.raises(TypeError, match=words):
        fn(things.get(wrong), tmp_path / "out.txt")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("dice", ["71", "77", "00"])
def test_a_roll_of_impossible_dice_is_named_as_dice(tmp_path, dice):
    """'71:' in place of a roll was called "before the first dice" (first turn) or "step
    '77:': expected from/to" (later): neither says the die is wrong."""
    path = tmp_path / "g.mat"
    path.write_text('; [White "a"]\n; [Black "b"]\n; [Rules "classic"]\n\n'
                    f"  1) 34: 1/4 4/8      {dice}: 1/6 6/12\n")
    with pytest.raises(RecordError, match=rf"line 5: '{dice}:': expected dice such as "
                       r"'64:', each die 1\.\.6"):
        read_record(path)


def test_a_byte_order_mark_is_read_as_the_file_itself(tmp_path):
    """A record saved by an editor that writes a byte-order mark (Windows Notepad) was
    refused: "line 1: '\\ufeff;' before the first dice"; it is read as without the mark,
    Windows line ends too."""
    rec = random_game(seed=3)
    path = tmp_path / "notepad.mat"
    path.write_bytes(b"\xef\xbb\xbf" + rec.to_text().replace("\n", "\r\n").encode())
    again = read_record(path)
    assert again.turns == rec.turns and again.result() == rec.result()


def test_random_games_from_the_start_open_with_the_opening_dice_under_opening_dice():
    """``opening_roll="opening_dice"``: White's first roll is the two dice of the opening
    throw, never a double (rule book section 8).  ``random_game`` threw the first roll
    again, as under ``"rethrow"``: 48 of 300 games opened with a double."""
    rules = Rules(opening_roll="opening_dice")
    firsts = [random_game(seed=s, rules=rules, max_turns=1).turns[0].dice
              for s in range(120)]
    assert all(d1 != d2 for d1, d2 in firsts)
    assert len(set(firsts)) > 15                    # both orders of the 15 pairs
    rethrow = [random_game(seed=s, max_turns=1).turns[0].dice for s in range(120)]
    assert any(d1 == d2 for d1, d2 in rethrow)
    later = random_game(seed=1, max_turns=3).final    # not the start: no opening throw
    assert random_game(seed=2, rules=rules, start=later, max_turns=1).turns[0].dice == \
        random_game(seed=2, start=later, max_turns=1).turns[0].dice


def test_a_record_prints_as_its_text_and_its_repr_is_one_line():
    """``print(record)`` gave the dataclass's repr, thousands of characters for one game."""
    rec = random_game(seed=1, max_turns=3)
    assert str(rec) == rec.to_text()
    assert repr(rec) == ("GameRecord(white='random', black='random', rules='classic', "
                         "turns=3)")


@pytest.mark.parametrize("text", ["Ann\nLee", "a\r\nb", "x\u2028y\x0cz", "back\\u000a"])
def test_a_name_or_tag_over_several_lines_reads_back(tmp_path, text):
    """A name or a tag's value with a line break was written as it is, over two lines of
    the file, and ``read_record`` refused the file just written ("line 3: 'Lee\"]'
    before the first dice")."""
    rec = random_game(seed=1, max_turns=3, white=text)
    rec.tags["Note"] = text
    write_record(rec, tmp_path / "g.txt")
    back = read_record(tmp_path / "g.txt")
    assert (back.white, back.tags["Note"], back.turns) == (text, text, rec.turns)


def test_a_huge_token_is_not_copied_whole_into_the_message():
    """A 60 MB file of one line read as a record gave an error message holding the whole
    line; now it shows the token's start and its length, with the line."""
    for text in ("x" * 10 ** 6, "1) 64: 1/7" + "7" * 10 ** 6):
        with pytest.raises(RecordError) as e:
            parse_record(text, "big.mat")
        msg = str(e.value)
        assert len(msg) < 300, len(msg)
        assert msg.startswith("big.mat line 1:") and "characters)" in msg, msg


def test_a_line_with_one_move_followed_by_another_is_refused():
    # a line holding White's move alone used to take the next line's White move as
    # Black's, found only at replay as an illegal turn with no line named
    lines = random_game(seed=1).to_text().splitlines()
    body = [k for k, ln in enumerate(lines) if ln.startswith("  3)")][0]
    cut = [ln for ln in lines if not ln.startswith("; [Result")]
    cut[cut.index(lines[body])] = lines[body][:37].rstrip()
    with pytest.raises(RecordError, match=r"g\.txt line 8: turn line 3\) holds one move "
                                          r"\(63: \.\.\.\).*the right column is missing"):
        parse_record("\n".join(cut) + "\n", "g.txt")
    with pytest.raises(RecordError, match=r"line 2: turn line 2\) holds no move"):
        parse_record("1) 64: 1/7 7/11 31: 1/4 4/5\n2)\n3) 11: 11/12 12/13 13/14 14/15\n")
    with pytest.raises(RecordError, match=r"line 1: turn line 1\) holds 3 moves"):
        parse_record("1) 64: 1/7 7/11 31: 1/4 4/5 11: 11/12 12/13 13/14 14/15\n")
    # the last line may hold White's move alone, and Black's first line of a game it
    # starts holds Black's alone (the round trips above and below keep the rest)
    rec = GameRecord().append((6, 4), [(1, 7), (7, 11)]).append((3, 1), [(1, 4), (4, 5)])
    rec.append((1, 1), [(11, 12), (12, 13), (13, 14), (14, 15)])
    assert parse_record(rec.to_text()).turns == rec.turns


def test_a_mat_move_list_read_as_a_record_says_which_reader_takes_it():
    """A ``.MAT`` move list (points counted down, 24 the head) read as a game record
    parsed, and its replay said "step 24/20: no checker of the mover on point 24".  The
    first step going down is refused naming the line and the readers of the layout."""
    text = "  1) 31: 24/20     64: 24/14\n"
    with pytest.raises(RecordError, match=r"<record> line 1: the first step 24/20 goes "
                                          r"down, .* read it with read_mat_game, or "
                                          r"read_mat for a match"):
        parse_record(text)


def test_an_illegal_turn_names_its_line(tmp_path):
    """An illegal turn of a record read from a file was named by its number alone ("turn
    3 (white 35: 1/4 4/8) is illegal"): the line it is written on is named too, in the
    file's numbering, for a game record and for a game of a match transcript."""
    body = "  1) 34: 1/4 4/8                     56: 1/6 6/12\n  2) 35: 8/11 11/15\n"
    with pytest.raises(RecordError, match=r"^line 3: turn 3 \(white 35: 8/11 11/15\) is "
                                          r"illegal: step 11/15: moves 4 pips"):
        parse_record("; a comment\n" + body).replay()
    path = tmp_path / "m.txt"
    path.write_text(" 1 point match\n\n Game 1\n Ann : 0                    Bob : 0\n"
                    + body)
    from nardy_fast.core.matchrecord import read_match
    with pytest.raises(RecordError, match=rf"^{re.escape(str(path))}: game 1: line 6: turn "
                                          r"3 \(white 35: 8/11 11/15\) is illegal"):
        read_match(path).replay()
    assert parse_record(body).turns == nf_turns(body)


def nf_turns(body):
    """The turns of ``body`` built by hand (no line): equal to the ones read."""
    return [Turn("white", (3, 4), ((1, 4), (4, 8))), Turn("black", (5, 6), ((1, 6), (6, 12))),
            Turn("white", (3, 5), ((8, 11), (11, 15)))]


RECORD_VARIANTS = ALL_VARIANTS + [
    Rules(scoring="extended", oin_points=0.75, mars_points=2.25, koks_points=2.5),
    Rules(draw_rule=True, opening_roll="opening_dice"), Rules(cube="geometric", beaver=True)]


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from(RECORD_VARIANTS), st.integers(0, 2 ** 32 - 1),
       st.integers(0, 200))
def test_a_game_from_any_reached_position_round_trips(tmp_path_factory, data, rules, seed,
                                                      turns):
    """A game under any rule variant, from a position a game under those rules reaches,
    played to its end or stopped after some turns: its text reads back as the same game
    (start, players, rules, turns, result) and is written again the same; through a file
    too."""
    start = data.draw(game_positions(rules))
    rec = random_game(seed=seed, rules=rules, start=start, max_turns=turns, white="Ann",
                      black="Bob \"B\"")
    text = rec.to_text()
    back = parse_record(text)
    assert (back.start, back.rules, back.white, back.black) == (start, rules, "Ann",
                                                                "Bob \"B\"")
    assert back.turns == rec.turns and back.result() == rec.result()
    assert back.to_text() == text
    path = tmp_path_factory.mktemp("record") / "game.txt"
    write_record(rec, path)
    again = read_record(path)
    assert (again.start, again.rules, again.turns) == (start, rules, rec.turns)
