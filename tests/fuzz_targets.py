"""Fuzz targets: every parser and loader, with the contract each input must meet.

Each ``check_*`` function takes one input, feeds it to the library and asserts the
contract: the input either works (and the result is consistent: round-trips, sizes) or
raises the documented error type with a message naming the field, turn or file.  Any
other exception, or a wrong answer, fails the assertion.  Each ``*_inputs()`` returns a
hypothesis strategy of inputs: random ones and mutations of valid ones (truncations, bit
flips, edits).  ``tests/integration/test_fuzz.py`` runs them with a few examples each;
``tools/fuzz.py`` runs them long.
"""
from __future__ import annotations

import atexit
import contextlib
import io
import json
import math
import os
import shutil
import struct
import tempfile

import numpy as np
from hypothesis import strategies as st

from nardy_fast import Position, Rules
from nardy_fast._utils._dbfile import read_db  # private on purpose: the file format's reader
from nardy_fast.tables.bearoff import DatabaseError, MarsTable, OneSided, TwoSided
from nardy_fast.core.record import RecordError, parse_record, random_game

__all__ = ["TARGETS"]


# -- shared mutations ---------------------------------------------------------------------
def _mutate_text(draw, text, alphabet):
    """A few edits of ``text``: replace, insert or delete characters, truncate."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["replace", "insert", "delete", "truncate", "swap"]))
        if op == "truncate":
            chars = chars[:draw(st.integers(0, len(chars)))]
            continue
        if not chars and op != "insert":
            continue
        i = draw(st.integers(0, max(0, len(chars) - 1)))
        if op == "replace":
            chars[i] = draw(alphabet)
        elif op == "insert":
            chars.insert(i, draw(alphabet))
        elif op == "delete":
            del chars[i]
        else:
            j = draw(st.integers(0, len(chars) - 1))
            chars[i], chars[j] = chars[j], chars[i]
    return "".join(chars)


# -- position IDs -------------------------------------------------------------------------
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_IDS = [Position.initial().id, random_game(1).positions()[40].id,
        random_game(2).final.id, random_game(3).positions()[7].id]


@st.composite
def position_ids(draw):
    kind = draw(st.sampled_from(["mutated", "random_b64", "text", "bytes"]))
    if kind == "mutated":
        return _mutate_text(draw, draw(st.sampled_from(_IDS)),
                            st.sampled_from(B64 + "WB=+/ \n\x00é"))
    if kind == "random_b64":
        return draw(st.sampled_from("WBX")) + draw(st.text(B64, min_size=30, max_size=34))
    if kind == "bytes":                       # any 24 bytes: checker counts in both nibbles
        import base64
        raw = draw(st.binary(min_size=24, max_size=24))
        return draw(st.sampled_from("WB")) + base64.b64encode(raw, altchars=b"-_").decode()
    return draw(st.text(max_size=40))


def check_position_id(text):
    try:
        p = Position.from_id(text)
    except ValueError as e:
        assert "position ID" in str(e), e
        return "error"
    assert p.id == text.strip(), (p.id, text)
    assert Position.from_id(p.id) == p
    assert p.boards.sum(axis=1).max() <= 15 and not (p.boards[0] & np.roll(p.boards[1], 12)).any()
    assert min(p.off) < 15
    return "ok"


# -- rules text specs ---------------------------------------------------------------------
_RULE_WORDS = ["head_rule", "block_rule", "block_transient", "larger_die_rule", "scoring",
               "draw_rule", "opening_roll", "oin_points", "mars_points", "koks_points",
               "home_mars_points", "classic", "generalized", "ahead", "home", "none",
               "extended", "rethrow", "opening_dice", "true", "false", "True", "2", "-1",
               "1e400", "nan", "inf", "x", ""]


_RULE_VALUES = {"head_rule": ["classic", "generalized"], "block_rule": ["ahead", "home", "none"],
                "scoring": ["classic", "extended"], "opening_roll": ["rethrow", "opening_dice"],
                "block_transient": ["true", "false"], "larger_die_rule": ["true", "false"],
                "draw_rule": ["true", "false"], "oin_points": ["1", "2.5"],
                "mars_points": ["2", "3"], "koks_points": ["3"], "home_mars_points": ["4"]}


@st.composite
def rules_specs(draw):
    kind = draw(st.sampled_from(["text", "valid", "words"]))
    if kind == "text":
        return draw(st.text(max_size=60))
    if kind == "valid":                       # well-formed specs, sometimes one bad value
        keys = draw(st.lists(st.sampled_from(sorted(_RULE_VALUES)), max_size=4, unique=True))
        items = [f"{k}={draw(st.sampled_from(_RULE_VALUES[k]))}" for k in keys]
        if items and draw(st.booleans()):
            i = draw(st.integers(0, len(items) - 1))
            items[i] = items[i].split("=")[0] + "=" + draw(st.sampled_from(_RULE_WORDS))
        return draw(st.sampled_from([" ", ",", ", "])).join(items) or "classic"
    items = []
    for _ in range(draw(st.integers(0, 5))):
        k = draw(st.sampled_from(_RULE_WORDS))
        sep = draw(st.sampled_from(["=", "=", "==", ":", ""]))
        v = draw(st.sampled_from(_RULE_WORDS) | st.text(max_size=5))
        items.append(k + sep + v)
    return draw(st.sampled_from([" ", ",", ", ", "\t"])).join(items)


def check_rules_spec(text):
    from nardy_fast.app._args import _rules  # what --rules and the Rules tag parse with
    import argparse
    try:
        r = Rules.from_text(text)
    except (ValueError, TypeError) as e:
        try:
            _rules(text)
        except argparse.ArgumentTypeError as e2:
            assert str(e2) == str(e)       # argparse names --rules itself, once
        else:
            raise AssertionError("the CLI accepted what the parser refused")
        return "error"
    assert isinstance(r, Rules)
    assert Rules.from_dict(r.to_dict()) == r
    assert all(math.isfinite(getattr(r, k)) for k in _RULE_VALUES if k.endswith("_points"))
    return "ok"


# -- game records -------------------------------------------------------------------------
def _record_texts():
    from nardy_fast import Rules as R
    out = []
    for seed, rules, start in [(4, R(), None), (5, R(draw_rule=True), None),
                               (6, R(scoring="extended", head_rule="generalized"), None),
                               (7, R(), random_game(8).positions()[31])]:
        rec = random_game(seed, rules=rules, start=start, max_turns=400, policy="race")
        out.append(rec.to_text())
    return out


_RECORDS = _record_texts()
_RECORD_ALPHABET = st.sampled_from(list("0123456789/)(:;[]\"off pass\n\t x-") +
                                   ["off", "pass", "\n", "64:", "; [Rules \"draw_rule=true\"]\n",
                                    "; [Start \"" + _IDS[1] + "\"]\n", "66:", "1/7"])


@st.composite
def record_texts(draw):
    kind = draw(st.sampled_from(["mutated", "mutated", "lines", "text"]))
    base = draw(st.sampled_from(_RECORDS))
    if kind == "mutated":
        return _mutate_text(draw, base, _RECORD_ALPHABET)
    if kind == "lines":                       # drop, repeat or swap whole lines
        lines = base.splitlines(keepends=True)
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(lines) - 1))
            op = draw(st.sampled_from(["drop", "repeat", "swap"]))
            if op == "drop":
                del lines[i]
            elif op == "repeat":
                lines.insert(i, lines[i])
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            if not lines:
                break
        return "".join(lines)
    return draw(st.text(max_size=200))


def check_record(text):
    try:
        rec = parse_record(text, "fuzz.txt")
    except RecordError as e:
        assert str(e).startswith("fuzz.txt"), e
        return "error"
    try:
        positions = rec.positions()
        result = rec.result()
    except RecordError as e:
        assert str(e).startswith("turn ") or str(e).startswith("fuzz.txt"), e
        return "illegal"
    assert len(positions) in (len(rec.turns), len(rec.turns) + 1)
    if result is not None:
        assert result["kind"] in ("oin", "mars", "koks", "home_mars", "draw")
    again = parse_record(rec.to_text(), "again.txt")
    assert [p.id for p in again.positions()] == [p.id for p in positions]
    return "ok"


# -- opornik's one-line positions ----------------------------------------------------------
_LINES = [Position.initial().to_text((6, 5)), random_game(1).positions()[40].to_text((3, 1)),
          random_game(2).final.to_text(), "white=24:13,18:2 black=24:15 turn=W dice=3,1",
          "white=6:3,1:2 black=3:5,2:4 white-off=10 black-off=6 turn=B dice=6,6"]
_LINE_ALPHABET = st.sampled_from(list("0123456789:,= -WB") + ["white=", "black=", "turn=",
                                 "dice=", "first", "-off=", "24:15", ",1:1", "\n", "é"])


@st.composite
def position_lines(draw):
    kind = draw(st.sampled_from(["mutated", "mutated", "text"]))
    if kind == "mutated":
        return _mutate_text(draw, draw(st.sampled_from(_LINES)), _LINE_ALPHABET)
    return draw(st.text(max_size=60))


def check_position_line(text):
    try:
        pos, dice = Position.from_text_and_dice(text)
    except ValueError as e:
        assert str(e).startswith("position line "), e
        return "error"
    assert Position.from_text_and_dice(pos.to_text(dice)) == (pos, dice)
    return "ok"


# -- .MAT move lists -----------------------------------------------------------------------
_MAT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "mat")
_MATS = [open(os.path.join(_MAT_DIR, name), encoding="utf-8").read()
         for name in ("short_match.MAT", "three_games.MAT")]
_MAT_ALPHABET = st.sampled_from(list("0123456789/)(: \n") +
                                ["off", "pass", "\n", "64:", "66:", "24/18", "Doubles => 2",
                                 "Takes", "Drops", " Game 2\n", "Wins 1 point"])


@st.composite
def mat_texts(draw):
    return _mutate_text(draw, draw(st.sampled_from(_MATS)), _MAT_ALPHABET)


def check_mat(text):
    from nardy_fast.core.matlayout import format_mat, parse_mat
    try:
        match = parse_mat(text, "fuzz.MAT")
    except RecordError as e:
        assert str(e).startswith("fuzz.MAT"), e
        return "error"
    again = parse_mat(format_mat(match), "again.MAT", rules=match.rules)
    assert again.scores == match.scores
    assert [(g.white, g.black, g.turns, g.cube) for g in again.games] == \
        [(g.white, g.black, g.turns, g.cube) for g in match.games]
    return "ok"


# -- command-line arguments ---------------------------------------------------------------
_CLI_TOKENS = (["show", "moves", "rollout", "bearoff", "query", "start", "initial",
                "64", "6-4", "66", "70", "6", "--json", "--csv", "--rules", "classic",
                "draw_rule=true", "scoring=extended", "head_rule=x", "-n", "--games", "1",
                "36", "0", "-3", "x", "--seed", "--policy", "random", "greedy", "--truncate",
                "none", "--no-progress", "--png", "--help", "", "W", "=", "--"]
               + _IDS + ["W" + "A" * 32, "B" + "_" * 32, _IDS[1][:-1]])


_RACES = [Position.from_boards([0] * 18 + [2, 3, 0, 1, 0, 1], [0] * 20 + [1, 2, 0, 0]).id,
          Position.from_boards([0] * 18 + [0, 0, 1, 0, 0, 1], [0] * 18 + [1] * 6, "black").id]


@st.composite
def cli_args(draw):
    if draw(st.booleans()):                   # a well-formed command, maybe one token edited
        pos = draw(st.sampled_from(_IDS + _RACES + ["start"]))
        argv = draw(st.sampled_from([
            ["show", pos],
            ["moves", pos, draw(st.sampled_from(["64", "6-4", "11", "5,2"])), "--json"],
            ["moves", pos, "33"],
            ["rollout", pos, "-n", "36", "--policy", "random", "--truncate", "none",
             "--no-progress", "--workers", "1"],
            ["rollout", pos, "-n", "36", "--json", "--no-progress", "--workers", "1",
             "--rules", draw(st.sampled_from(["classic", "draw_rule=true",
                                              "scoring=extended"]))],
            ["bearoff", "query", draw(st.sampled_from(_RACES)), "--json"],
        ]))
        if draw(st.booleans()):
            i = draw(st.integers(0, len(argv) - 1))
            argv[i] = draw(st.sampled_from(_CLI_TOKENS) | st.text(max_size=6))
        return argv
    first = draw(st.sampled_from(["show", "moves", "rollout", "bearoff", "x", "-n"]))
    rest = draw(st.lists(st.sampled_from(_CLI_TOKENS) | st.text(max_size=6), max_size=6))
    return [first] + rest


def check_cli(argv):
    from nardy_fast.app.cli import main
    if "--png" in argv:                       # no files written by the fuzzer
        argv = [a for a in argv if a != "--png"]
    if argv[0] == "rollout" and not {"-n", "--games"} & set(argv):
        argv = argv + ["--games", "36"]       # not the default 10,000 games per input
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as e:               # argparse: --help (0) or a usage error (2)
            assert e.code in (0, 2), e.code
            if e.code == 2:
                assert "error:" in err.getvalue()
            return "usage"
    assert status in (0, 1), status
    if status == 1:
        lines = err.getvalue().strip().splitlines()
        assert lines and lines[-1].startswith("nardy-fast: error: "), err.getvalue()
        assert "Traceback" not in err.getvalue()
        return "error"
    return "ok"


# -- database files -----------------------------------------------------------------------
_DB_DIR = tempfile.mkdtemp(prefix="nardy_fuzz_")
atexit.register(shutil.rmtree, _DB_DIR, True)


def _small_dbs():
    files = {}
    for name, db in [("one", OneSided.build(3, progress=False)),
                     ("two", TwoSided.build(2, progress=False, threads=1)),
                     ("mars", MarsTable.build(1, all_checkers=3, progress=False, threads=1))]:
        path = os.path.join(_DB_DIR, f"good-{name}.nfdb")
        db.save(path)
        with open(path, "rb") as f:
            files[name] = f.read()
    return files


_DBS = _small_dbs()
_LOADERS = {"one": OneSided, "two": TwoSided, "mars": MarsTable}


def _header_edit(draw, data):
    """Change one field of the JSON header (kept at its length when it fits)."""
    (n,) = struct.unpack("<I", data[8:12])
    header = json.loads(data[12:12 + n].decode())
    field = draw(st.sampled_from(["kind", "format_version", "payload_bytes", "crc32",
                                  "shape", "dtype", "offset", "nbytes", "name", "meta",
                                  "max_checkers", "drop"]))
    junk = draw(st.sampled_from([None, -1, 0, 1, 2, 3, 2 ** 40, "x", "one_sided",
                                 "two_sided", "mars", [], {}, 1.5, "<f8", "|O", "<U4",
                                 [0], [-1, -1], [2 ** 31, 2 ** 31]]))
    arrays = header.get("arrays") or [{}]
    spec = arrays[draw(st.integers(0, len(arrays) - 1))]
    if field in ("kind", "format_version", "payload_bytes", "crc32", "meta"):
        header[field] = junk
    elif field == "max_checkers":
        header.setdefault("meta", {})["max_checkers"] = junk
    elif field == "drop":
        header.pop(draw(st.sampled_from(sorted(header))), None)
    else:
        spec[field] = junk
    text = json.dumps(header, sort_keys=True).encode()
    text += b" " * (n - len(text))            # same payload offset when it fits
    body = data[12 + n:]
    return b"NARDYFDB" + struct.pack("<I", len(text)) + text + body


@st.composite
def db_files(draw):
    name = draw(st.sampled_from(sorted(_DBS)))
    data = bytearray(_DBS[name])
    kind = draw(st.sampled_from(["bitflip", "truncate", "header", "random", "append",
                                 "wrong_kind"]))
    if kind == "bitflip":
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= 1 << draw(st.integers(0, 7))
    elif kind == "truncate":
        data = data[:draw(st.integers(0, len(data) - 1))]
    elif kind == "header":
        data = bytearray(_header_edit(draw, bytes(data)))
    elif kind == "random":
        data = bytearray(draw(st.binary(max_size=300)))
        if draw(st.booleans()):
            data = bytearray(b"NARDYFDB") + data
    elif kind == "append":
        data += draw(st.binary(min_size=1, max_size=64))
    loader = draw(st.sampled_from(sorted(_LOADERS))) if kind == "wrong_kind" else name
    return loader, bytes(data)


def check_db(item):
    loader, data = item
    path = os.path.join(_DB_DIR, "fuzz.nfdb")
    with open(path, "wb") as f:
        f.write(data)
    cls = _LOADERS[loader]
    try:
        cls.load(path)
    except DatabaseError as e:
        assert str(e).startswith(path), e
        return "error"
    # it loaded: then it holds exactly the good file's numbers (the CRC covers the
    # payload; bytes outside the header text and the payload do not count)
    good = os.path.join(_DB_DIR, f"good-{loader}.nfdb")
    _, want = read_db(good, cls.kind)
    _, got = read_db(path, cls.kind)
    assert sorted(want) == sorted(got)
    for k in want:
        assert want[k].dtype == got[k].dtype and np.array_equal(want[k], got[k]), k
    return "ok"


TARGETS = {
    "position_id": (position_ids, check_position_id),
    "rules_spec": (rules_specs, check_rules_spec),
    "game_record": (record_texts, check_record),
    "position_line": (position_lines, check_position_line),
    "mat_file": (mat_texts, check_mat),
    "cli_args": (cli_args, check_cli),
    "db_file": (db_files, check_db),
}
