"""Mutation testing: do the tests fail when the code is wrong?

Each mutant changes one token on one line of one module: a comparison flipped
(``<`` / ``<=``, ``==`` / ``!=``, ...), an arithmetic operator swapped (``+`` / ``-``,
``*`` / ``/``, ...), a boolean or builtin swapped (``and`` / ``or``, ``True`` / ``False``,
``min`` / ``max``), a ``not`` dropped, or a number changed (an integer ``n`` becomes
``n + 1``, a float ``x`` becomes ``2 x``).  Tokens inside strings, comments and docstrings
are never touched (the candidates come from ``tokenize``).  A fixed, seeded sample of the
candidates of each module is run, each against the fast test files of that module:

- a Python module is changed in a private copy of the package and tests (``--workdir``);
  mutants that do not compile are dropped before sampling;
- a ``.pyx`` module is changed in the copy, that one extension is rebuilt (``-O1`` to
  save time; a mutant that does not build is reported as such and not counted), the tests
  run, and the original extension is put back.

Semantic mutants (``--semantic``), the mistakes of a developer rather than of a typist,
drawn from the same tokens (each is numbered in its own list, ``--only`` replays it under
``--semantic``):

- *swap*: two different names, or two different numeric indices inside ``[...]``, of one
  line exchanged (``ties(a, b, 1)`` -> ``ties(b, a, 1)``, ``out[4]`` / ``out[5]``);
- *sibling*: a name replaced by a sibling that the module also uses (names that differ in
  one character, ``sw`` / ``sl``, ``mw`` / ``ml``, or by a word of ``SIBLING_WORDS``,
  ``p_win`` / ``p_lose``, ``"white"`` / ``"black"``); a string compared with ``==``,
  ``!=`` or ``in`` replaced by another string the module compares; ``is None`` /
  ``== "none"`` (and ``is not None`` / ``!= "none"``) exchanged;
- *drop-kwarg*: a keyword argument left out of a call (``rollout(..., seed=seed)`` ->
  ``rollout(...)``), so that a setting never reaches its callee.

A mutant is *killed* when the tests fail (or exceed ``--timeout``), *survived* when they
pass.  The score of a module is killed / (killed + survived).  The run is a benchmark-
style job, not part of ``make test``; on a shared machine run it niced::

    nice -n 15 python tools/mutation.py --per-module 15 --json mutation.json
    python tools/mutation.py --list rollout.py          # the candidates, not run
    python tools/mutation.py --only rollout.py:17       # one mutant by its number
    python tools/mutation.py --quick                    # before you stop (make mutate-quick)
    nice -n 15 python tools/mutation.py --semantic --per-module 10 met.py  # semantic
    python tools/mutation.py --semantic --kind drop-kwarg --per-module 3 study.py

The sample depends only on ``--seed`` and the module's text: candidate ``k`` of a module is
the ``k``-th in source order, and ``--only module:k`` replays it.  Modules are named by
file name (``_search.pyx``) wherever they sit in the package.

Quick mode (``--quick [N]``, default 12 mutants): the modules changed since the merge base
with ``main`` (``git merge-base HEAD main``, else ``origin/main``), or since ``--base REV``
for work committed on ``main`` itself (uncommitted changes count), mutants taken first
from the changed lines, spread over the modules; each mutant runs only the test files
that import its module (and its ``TESTS`` entry; for a module no test imports, the tests
of the package modules importing it), ``-m "not slow"``, and no mutant starts after
``--budget`` seconds.  A developer's check before stopping, not a score.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import tokenize
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# module -> the fast test files that should kill its mutants (paths from the repository
# root; the tests mirror the package, docs/contributors.md)
TESTS = {
    "rules.py": ["tests/core/test_rules.py"],
    "position.py": ["tests/core/test_position.py"],
    "rng.py": ["tests/engine/play/test_rollout.py"],
    "result.py": ["tests/engine/play/test_rollout.py", "tests/analysis/test_report.py"],
    "rollout.py": ["tests/engine/play/test_rollout.py"],
    "race.py": ["tests/tables/test_race.py"],
    "bearoff.py": ["tests/tables/test_bearoff.py", "tests/tables/test_race.py"],
    "_dbfile.py": ["tests/tables/test_bearoff.py"],
    "record.py": ["tests/core/test_record.py", "tests/core/test_record_cube.py"],
    "report.py": ["tests/analysis/test_report.py", "tests/analysis/test_report_marks.py",
                  "tests/engine/play/test_variance.py"],
    "plot.py": ["tests/analysis/test_plot.py"],
    "cli.py": ["tests/app/test_cli.py"],
    "cli_engine.py": ["tests/app/test_cli_hint.py", "tests/app/test_cli_match.py",
                      "tests/app/test_cli_train.py", "tests/app/test_cli_cube_options.py"],
    "parallel.py": ["tests/engine/play/test_parallel.py"],
    "_movegen.pyx": ["tests/core/test_movegen.py"],
    "_onesided.pyx": ["tests/tables/test_bearoff.py", "tests/tables/test_race.py"],
    "_rollout.pyx": ["tests/engine/play/test_rollout.py"],
    "_luck.pyx": ["tests/engine/play/test_variance.py",
                  "tests/engine/play/test_lucknet.py"],
    "_lucknet.pyx": ["tests/engine/play/test_lucknet.py"],
    "lucknet.py": ["tests/engine/play/test_lucknet.py"],
    # the evaluator, its search, self-play, matches and the cube
    "_net.pyx": ["tests/engine/evaluation/test_evaluator.py",
                 "tests/engine/evaluation/test_net_extended_equity.py"],
    "_search.pyx": ["tests/engine/evaluation/test_search.py",
                    "tests/engine/evaluation/test_evaluator.py",
                    "tests/training/test_selfplay.py"],
    "_selfplay.pyx": ["tests/training/test_selfplay.py", "tests/training/test_train.py",
                      "tests/training/test_supervised.py"],
    "labels.py": ["tests/training/test_supervised.py", "tests/app/test_cli_train.py"],
    "supervised.py": ["tests/training/test_supervised.py", "tests/app/test_cli_train.py"],
    "_match.pyx": ["tests/engine/play/test_strength.py",
                   "tests/integration/test_hand_figures.py"],
    "evaluator.py": ["tests/engine/evaluation/test_evaluator.py",
                     "tests/engine/evaluation/test_search.py",
                     "tests/engine/decisions/test_matchplay_emg.py",
                     "tests/engine/evaluation/test_net_extended_equity.py",
                     "tests/integration/test_hand_figures.py"],
    "train.py": ["tests/training/test_train.py", "tests/training/test_selfplay.py",
                 "tests/integration/test_hand_figures.py"],
    "match.py": ["tests/engine/play/test_strength.py",
                 "tests/integration/test_hand_figures.py"],
    "cube.py": ["tests/engine/decisions/test_cube.py",
                "tests/integration/test_hand_figures.py",
                "tests/engine/decisions/test_cube_at_score.py"],
    "cubemodel.py": ["tests/engine/decisions/test_cube.py",
                     "tests/engine/evaluation/test_cubeloop.py",
                     "tests/integration/test_hand_figures.py",
                     "tests/engine/evaluation/test_cubemodel.py"],
    "cubestate.py": ["tests/engine/decisions/test_cube.py",
                     "tests/core/test_record_cube.py", "tests/core/test_record.py"],
    "cubereport.py": ["tests/analysis/test_cubereport.py"],
    "cuberace.py": ["tests/tables/test_cuberace.py", "tests/engine/decisions/test_cube.py"],
    "_cuberace.pyx": ["tests/tables/test_cuberace.py"],
    "_cubeloop.pyx": ["tests/engine/evaluation/test_cubeloop.py",
                      "tests/engine/decisions/test_cube.py"],
    # variance reduction, studies, the game loop, policies
    "variance.py": ["tests/engine/play/test_variance.py",
                    "tests/engine/play/test_lucknet.py",
                    "tests/engine/play/test_variance_by_quantity.py"],
    "luck.py": ["tests/engine/play/test_variance.py", "tests/analysis/test_report.py",
                "tests/analysis/test_report_luck.py"],
    "study.py": ["tests/analysis/test_study.py", "tests/analysis/test_study_settings.py"],
    "gameloop.py": ["tests/core/test_gameloop.py", "tests/app/test_play.py"],
    "policy.py": ["tests/engine/play/test_rollout.py",
                  "tests/engine/play/test_strength.py"],
    "export.py": ["tests/analysis/test_report.py"],
    # match play
    "matchrules.py": ["tests/core/test_matchrules.py",
                      "tests/engine/evaluation/test_met.py"],
    "met.py": ["tests/engine/evaluation/test_met.py",
               "tests/engine/decisions/test_matchplay.py",
               "tests/engine/decisions/test_matchplay_emg.py",
               "tests/engine/decisions/test_matchplay_crawford.py"],
    "matchplay.py": ["tests/engine/decisions/test_matchplay.py",
                     "tests/engine/decisions/test_matchplay_crawford.py",
                     "tests/engine/decisions/test_matchplay_emg.py"],
    # the no-contact race database
    "race12.py": ["tests/tables/test_race12.py", "tests/tables/test_race12_kinds.py"],
    # the one homes of the engine's order (issue 28)
    "valuation.py": ["tests/engine/decisions/test_valuation.py",
                     "tests/architecture/test_one_home_dispatch.py"],
    "racevalue.py": ["tests/architecture/test_one_home_c.py",
                     "tests/engine/evaluation/test_evaluator_race12.py",
                     "tests/engine/evaluation/test_evaluator.py"],
    "policies.py": ["tests/core/test_record.py",
                    "tests/architecture/test_one_home_checks.py"],
    "_progress.py": ["tests/_utils/test_progress.py", "tests/app/test_cli_progress.py",
                     "tests/architecture/test_one_home_checks.py"],
    "nets.py": ["tests/engine/evaluation/test_evaluator_default.py",
                "tests/engine/evaluation/test_evaluator.py"],
    "_race12.pyx": ["tests/tables/test_race12_kinds.py"],
    "matchrecord.py": ["tests/engine/decisions/test_matchplay.py",
                       "tests/core/test_matchrules.py", "tests/app/test_cli_match.py"],
    "matchreport.py": ["tests/app/test_cli_match.py", "tests/analysis/test_matchreport.py"],
    "posline.py": ["tests/core/test_posline.py"],
    "matlayout.py": ["tests/core/test_matlayout.py", "tests/app/test_cli_mat.py"],
}

OPS = {
    "==": "!=", "!=": "==", "<": "<=", "<=": "<", ">": ">=", ">=": ">",
    "+": "-", "-": "+", "*": "/", "/": "*", "//": "*", "%": "//", "**": "*",
    "+=": "-=", "-=": "+=", "*=": "/=", "|": "&", "<<": ">>", ">>": "<<",
}
NAMES = {
    "and": "or", "or": "and", "True": "False", "False": "True", "min": "max", "max": "min",
    "break": "continue", "continue": "break",
}
# C casts and typed declarations of Cython: ``<double>x``, ``<const uint8_t*>p``
CAST = re.compile(r"<\s*(?:const\s+)?[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*\**\s*>")
BLOCK = re.compile(r"^\s*(cdef\s+(enum|struct|union|packed|extern)|ctypedef)\b.*:\s*(#.*)?$")
C_TYPES = {"void", "char", "int", "long", "double", "float", "bint", "size_t", "object"}
PYX_SKIP = re.compile(r"^\s*(cdef|ctypedef|cimport|from|import|cpdef\s+enum|DEF|include)\b")


def _declaration_lines(lines):
    """Line numbers (1-based) inside ``cdef enum/struct/extern`` and ``ctypedef`` blocks:
    values there are declarations (array sizes, enum values), not logic."""
    out, indent = set(), None
    for row, line in enumerate(lines, 1):
        stripped = line.strip()
        cur = len(line) - len(line.lstrip())
        if indent is not None:
            if not stripped or cur > indent:
                out.add(row)
                continue
            indent = None
        if BLOCK.match(line):
            indent = cur
    return out


def _numbered(out, lines, path, pyx):
    """The mutants of ``out`` that still compile (a Python module; a ``.pyx`` is left to its
    build), numbered in order (the ``K`` of ``--only MODULE:K``)."""
    if not pyx:
        ok = []
        for m in out:
            mutated = "".join(lines[:m["line"] - 1]) + m["text"] + "".join(lines[m["line"]:])
            try:
                compile(mutated, str(path), "exec")
            except SyntaxError:
                continue
            ok.append(m)
        out = ok
    for k, m in enumerate(out):
        m["id"] = k
    return out


def candidates(path: Path):
    """Every one-token mutant of ``path``: dicts with line, col, old, new, text."""
    src = path.read_text(encoding="utf-8")
    lines = io.StringIO(src).readlines()
    pyx = path.suffix == ".pyx"
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    skip = _declaration_lines(lines) if pyx else set()
    out = []
    for i, tok in enumerate(toks):
        (row, col), (erow, ecol) = tok.start, tok.end
        if row != erow or row > len(lines):
            continue
        line = lines[row - 1]
        if "no mutate" in line:
            continue
        if pyx and (PYX_SKIP.match(line) or row in skip):
            continue
        s = tok.string
        prev = toks[i - 1].string if i else ""
        new = None
        if tok.type == tokenize.OP and s in OPS:
            if s in ("*", "**") and prev in ("(", ",", "") :
                continue                                  # *args / **kwargs
            if pyx and any(m.start() <= col < m.end() for m in CAST.finditer(line)):
                continue                                  # a C cast
            if pyx and s == "*" and (prev in C_TYPES or prev.endswith("_t")):
                continue                                  # a pointer type
            if pyx and prev == "except":
                continue
            new = OPS[s]
        elif tok.type == tokenize.NAME and s in NAMES:
            new = NAMES[s]
        elif tok.type == tokenize.NAME and s == "not" and toks[i + 1].string != "in" \
                and prev != "is":
            new = ""
        elif tok.type == tokenize.NUMBER:
            if prev in ("[",) and pyx:
                continue
            try:
                v = int(s, 0)
                new = str(v + 1)
            except ValueError:
                try:
                    v = float(s)
                except ValueError:
                    continue
                new = repr(v * 2) if v != 0 else "1.0"
        if new is None:
            continue
        text = line[:col] + new + line[ecol:]
        if new == "":                                     # "not x" -> "x"
            text = line[:col] + line[ecol:].lstrip(" ")
        out.append(dict(line=row, col=col, old=s, new=new, text=text))
    return _numbered(out, lines, path, pyx)


# word pairs whose exchange inside a name gives a sibling (kept only if the module uses it)
SIBLING_WORDS = (("win", "loss"), ("win", "lose"), ("white", "black"), ("mover", "opponent"),
                 ("min", "max"), ("lo", "hi"), ("first", "last"), ("before", "after"),
                 ("live", "dead"), ("post", "crawford"), ("cubeful", "cubeless"))
# one-letter names that pair up (x / y: the two sides, i / j: their scores, ...)
SIBLING_LETTERS = (("x", "y"), ("i", "j"), ("a", "b"), ("u", "v"), ("w", "lo"))
_KEYWORDS = {"and", "or", "not", "in", "is", "if", "else", "elif", "for", "while", "def",
             "return", "None", "True", "False", "lambda", "with", "as", "import", "from",
             "class", "try", "except", "finally", "raise", "yield", "pass", "break",
             "continue", "del", "global", "nonlocal", "assert", "async", "await", "cdef",
             "cpdef", "nogil", "noexcept", "self", "print", "range", "len", "float", "int",
             "str", "bool", "dict", "list", "tuple", "set", "min", "max", "abs", "sum",
             "round", "isinstance", "getattr", "super", "type", "object", "np", "math",
             "const", "inline", "ctypedef", "cimport", "include", "gil"} | C_TYPES


def _code_tokens(src, pyx):
    """The tokens of ``src`` with ``(index, token)``, docstrings and comments excluded."""
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    out = []
    for i, tok in enumerate(toks):
        if tok.type == tokenize.STRING:
            prev = toks[i - 1] if i else None
            if prev is None or prev.type in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
                                             tokenize.DEDENT):
                continue                                  # a docstring or bare string
        out.append(tok)
    return toks, out


def _line_ok(lines, row, pyx, skip):
    line = lines[row - 1]
    if "no mutate" in line:
        return False
    return not (pyx and (PYX_SKIP.match(line) or row in skip))


def _plain_name(toks, i):
    """A variable-like name: not a keyword/builtin, not an attribute, not called, not
    declared (after ``def``/``class``), not a keyword argument's name."""
    tok = toks[i]
    if tok.type != tokenize.NAME or tok.string in _KEYWORDS:
        return False
    prev = toks[i - 1].string if i else ""
    nxt = toks[i + 1].string if i + 1 < len(toks) else ""
    if prev in (".", "def", "class", "import", "as", "cimport") or nxt in ("(", "="):
        return False
    return True


def semantic_candidates(path: Path):
    """Every semantic mutant of ``path`` (module docstring): dicts with line, col, old,
    new, text and kind."""
    src = path.read_text(encoding="utf-8")
    lines = io.StringIO(src).readlines()
    pyx = path.suffix == ".pyx"
    skip = _declaration_lines(lines) if pyx else set()
    toks, code = _code_tokens(src, pyx)
    names = {t.string for t in toks if t.type == tokenize.NAME}
    imported = set()                                     # module names: never siblings
    for m in re.finditer(r"^\s*(?:from\s+\S+\s+)?c?import\s+([^#\n]+)", src, re.M):
        imported |= {w.split(" as ")[-1].strip(" ()") for w in m.group(1).split(",")}
    # the strings compared with one name (``x == "a"``, ``x in ("a", "b")``): a vocabulary
    vocab = {}
    for i, tok in enumerate(toks):
        if tok.type != tokenize.STRING or i < 2 or tok.string[:1] in "fbrFBR":
            continue
        if toks[i - 1].string in ("==", "!="):
            vocab.setdefault(toks[i - 2].string, set()).add(tok.string)
        elif toks[i - 1].string in ("(", ",", "{", "["):
            k = i - 1
            while k > 0 and toks[k].string in ("(", ",", "{", "[") or \
                    toks[k].type == tokenize.STRING:
                k -= 1
            if toks[k].string == "in" and k >= 1:
                vocab.setdefault(toks[k - 1].string, set()).add(tok.string)

    def compared_with(i):
        """The vocabulary of the comparison the string at ``i`` sits in, or None."""
        if toks[i - 1].string in ("==", "!="):
            return vocab.get(toks[i - 2].string)
        k = i - 1
        while k > 0 and (toks[k].string in ("(", ",", "{", "[")
                         or toks[k].type == tokenize.STRING):
            k -= 1
        if toks[k].string == "in" and k >= 1 and toks[i - 1].string in ("(", ",", "{", "["):
            return vocab.get(toks[k - 1].string)
        return None

    def one_apart(n, s):
        return (len(n) == len(s) >= 2 and n != s and n not in _KEYWORDS
                and n not in imported and s not in imported
                and not (n.isupper() or s.isupper()) and not n[-1].isdigit()
                and [p != q for p, q in zip(n, s)].count(True) == 1
                and all(p.islower() and q.islower() for p, q in zip(n, s) if p != q))
    out = []

    def add(row, col, end, old, new, kind, text=None):
        line = lines[row - 1]
        out.append(dict(line=row, col=col, old=old, new=new, kind=kind,
                        text=text if text is not None else line[:col] + new + line[end:]))

    by_row = {}
    for i, tok in enumerate(toks):
        if tok.start[0] == tok.end[0] and tok.start[0] <= len(lines):
            by_row.setdefault(tok.start[0], []).append(i)
    code_ids = {id(t) for t in code}
    for row, idx in sorted(by_row.items()):
        if not _line_ok(lines, row, pyx, skip):
            continue
        line = lines[row - 1]
        # swap: two different names (or numbers) that are whole arguments of one call,
        # subscript or tuple; the operands of one binary operator; two indices of the
        # same array (``out[4]`` / ``out[5]``)
        groups = {}
        stack = []
        for i in idx:
            t = toks[i]
            if t.type == tokenize.OP and t.string in "([{":
                stack.append(i)
            elif t.type == tokenize.OP and t.string in ")]}":
                if stack:
                    stack.pop()
            elif (t.type in (tokenize.NAME, tokenize.NUMBER) and stack
                  and toks[i - 1].string in ("(", "[", ",")
                  and toks[i + 1].string in (",", ")", "]")
                  and t.string not in _KEYWORDS and id(t) in code_ids):
                groups.setdefault((stack[-1], t.type), []).append(i)
        pairs = [(g[x], g[y]) for g in groups.values() for x in range(len(g))
                 for y in range(x + 1, len(g))]
        for i in idx:
            t = toks[i]
            if (t.type == tokenize.OP and t.string in ("-", "/", "//", "<", "<=", ">", ">=",
                                                        "%", "**")
                    and toks[i - 1].type == tokenize.NAME and i + 1 < len(toks)
                    and toks[i + 1].type == tokenize.NAME
                    and toks[i + 2].string not in ("(", "[", ".")
                    and toks[i - 2].string not in (".",)
                    and toks[i - 1].string not in _KEYWORDS
                    and toks[i + 1].string not in _KEYWORDS):
                pairs.append((i - 1, i + 1))
        arrays = {}
        for i in idx:
            if (toks[i].type == tokenize.NUMBER and toks[i - 1].string == "["
                    and toks[i + 1].string == "]" and toks[i - 2].type == tokenize.NAME):
                arrays.setdefault(toks[i - 2].string, []).append(i)
        pairs += [(g[x], g[y]) for g in arrays.values() for x in range(len(g))
                  for y in range(x + 1, len(g))]
        for i, j in dict.fromkeys(pairs):
            a, b = toks[i], toks[j]
            if a.string == b.string:
                continue
            text = (line[:a.start[1]] + b.string + line[a.end[1]:b.start[1]]
                    + a.string + line[b.end[1]:])
            add(row, a.start[1], b.end[1], f"{a.string} .. {b.string}",
                f"{b.string} .. {a.string}", "swap", text)
        # sibling names and strings, None checks
        for i in idx:
            tok = toks[i]
            if id(tok) not in code_ids:
                continue
            s, (r, c), (_, e) = tok.string, tok.start, tok.end
            prev = toks[i - 1].string if i else ""
            nxt = toks[i + 1].string if i + 1 < len(toks) else ""
            if tok.type == tokenize.NAME and s not in _KEYWORDS and prev not in (
                    "def", "class", "import", "cimport") and nxt != "=" or (
                    tok.type == tokenize.NAME and prev == "." and s not in _KEYWORDS):
                sib = set()
                sib |= {n for n in names if one_apart(n, s)}
                for u, v in SIBLING_WORDS:
                    for p, q in ((u, v), (v, u)):
                        if p in s:
                            n = s.replace(p, q)
                            if n in names and n != s:
                                sib.add(n)
                for p, q in SIBLING_LETTERS:
                    if s == p and q in names:
                        sib.add(q)
                    elif s == q and p in names:
                        sib.add(p)
                for n in sorted(sib):
                    add(r, c, e, s, n, "sibling")
            elif tok.type == tokenize.STRING and compared_with(i):
                for n in sorted(compared_with(i) - {s}):
                    add(r, c, e, s, n, "sibling")
            elif s == "is" and nxt == "None":
                add(r, c, toks[i + 1].end[1], "is None", '== "none"', "sibling")
            elif s == "is" and nxt == "not" and toks[i + 2].string == "None":
                add(r, c, toks[i + 2].end[1], "is not None", '!= "none"', "sibling")
            elif s in ("==", "!=") and toks[i + 1].string in ('"none"', "'none'"):
                add(r, c, toks[i + 1].end[1], f"{s} \"none\"",
                    "is None" if s == "==" else "is not None", "sibling")
        # drop-kwarg: ``name=value`` inside a call's parentheses, all on this line
        depth, opens = 0, []
        for i in idx:
            tok = toks[i]
            if tok.string in "([{" and tok.type == tokenize.OP:
                before = toks[i - 1] if i else None
                call = (tok.string == "(" and before is not None and before.start[0] == row
                        and (before.type == tokenize.NAME and before.string not in _KEYWORDS
                             or before.string in (")", "]"))
                        and not (i >= 2 and toks[i - 2].string in ("def", "class")))
                opens.append((call, i))
            elif tok.string in ")]}" and tok.type == tokenize.OP and opens:
                opens.pop()
            elif (tok.type == tokenize.NAME and opens and opens[-1][0]
                  and toks[i + 1].string == "=" and toks[i - 1].string in ("(", ",")
                  and not PYX_SKIP.match(line) and not re.match(r"\s*(c?p?def)\b", line)):
                # the value ends at the next "," or the closing ")" at this depth
                d, k = 0, i + 2
                while k < len(toks) and toks[k].start[0] == row:
                    t = toks[k].string
                    if t in "([{" and toks[k].type == tokenize.OP:
                        d += 1
                    elif t in ")]}" and toks[k].type == tokenize.OP:
                        if d == 0:
                            break
                        d -= 1
                    elif t == "," and d == 0:
                        break
                    k += 1
                if k >= len(toks) or toks[k].start[0] != row:
                    continue
                end = toks[k - 1].end[1]
                start = tok.start[1]
                if toks[k].string == ",":                 # drop "kw=v, "
                    j = toks[k + 1].start[1] if toks[k + 1].start[0] == row else len(
                        line.rstrip("\n"))
                    text = line[:start] + line[j:]
                elif toks[i - 1].string == ",":           # last: drop ", kw=v"
                    text = line[:toks[i - 1].start[1]] + line[end:]
                else:                                     # the only argument
                    text = line[:start] + line[end:]
                add(row, start, end, line[start:end], "", "drop-kwarg", text)
    return _numbered(out, lines, path, pyx)


def sample(module, cands, n, seed):
    rnd = random.Random(seed * 1_000_003 + zlib.crc32(module.encode()))
    if len(cands) <= n:
        return list(cands)
    return sorted(rnd.sample(cands, n), key=lambda m: m["id"])


def make_workdir(workdir: Path):
    """A private copy of the package (built extensions included) and the tests."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.html", ".hypothesis")
    shutil.copytree(ROOT / "nardy_fast", workdir / "nardy_fast", ignore=ignore)
    shutil.copytree(ROOT / "tests", workdir / "tests", ignore=ignore)
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy2(ROOT / name, workdir / name)
    setup = (workdir / "setup.py").read_text()
    (workdir / "setup.py").write_text(setup.replace('["-O3"]', '["-O1"]'))
    # setuptools builds into build/lib.* and copies to the package: that copy too, so
    # that only the mutated module is rebuilt
    for lib in (ROOT / "build").glob("lib.*"):
        shutil.copytree(lib, workdir / "build" / lib.name, ignore=ignore)
    date_build(workdir)


def date_build(workdir: Path):
    """Every source and C header two hours old, the generated .c files 2 s old, the
    extensions (in the package and in build/lib.*) 1 s: older than anything installed
    (numpy's .pxd files, which Cython checks too) is never newer than a .c."""
    now = time.time()
    pkg = workdir / "nardy_fast"
    for f in list(pkg.rglob("*.pyx")) + list(pkg.rglob("*.pxd")) + list(pkg.rglob("*.h")):
        os.utime(f, (now - 7200, now - 7200))
    for f in pkg.rglob("_*.c"):
        os.utime(f, (now - 2, now - 2))
    for f in list(pkg.rglob("_*.so")) + list((workdir / "build").glob("lib.*/**/_*.so")):
        os.utime(f, (now - 1, now - 1))


def env_for(workdir: Path):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(workdir)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("HYPOTHESIS_PROFILE", "dev")
    env["NARDY_FAST_BUILD_JOBS"] = "1"
    return env


def module_path(root: Path, module: str):
    """The file of ``module`` (a file name such as ``_search.pyx``) under ``root``'s
    package, in whichever subpackage it sits."""
    found = sorted((root / "nardy_fast").rglob(module))
    if len(found) != 1:
        raise ValueError(f"{module}: {len(found)} files of that name in the package")
    return found[0]


def test_paths(root: Path, names):
    """Test files by file name (``test_rules.py``), relative to ``root``, wherever they sit
    under ``tests/``; names with a folder are kept."""
    out = []
    for name in names:
        if "/" in name:
            out.append(name)
            continue
        out += [str(f.relative_to(root)) for f in sorted((root / "tests").rglob(name))]
    return out


def ext_files(workdir: Path, module: str):
    """The generated .c and the built extensions (in the package and in build/lib.*)."""
    path = module_path(workdir, module)
    rel = path.relative_to(workdir).with_suffix("")
    built = [f for lib in (workdir / "build").glob("lib.*")
             for f in sorted((lib / rel.parent).glob(f"{rel.name}.cpython*.so"))]
    return [path.with_suffix(".c")] + sorted(path.parent.glob(f"{path.stem}.cpython*.so")) \
        + built


def run_tests(workdir, tests, timeout, env, extra=()):
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
           "-p", "no:randomly", *extra, *tests]
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "killed", "timeout", time.monotonic() - t0
    tail = (r.stdout.strip().splitlines() or [""])[-1]
    failed = [ln.split()[1] for ln in r.stdout.splitlines() if ln.startswith("FAILED ")]
    if failed:
        tail += f" [{failed[0]}]"                    # the test that killed it
    if r.returncode == 0:
        return "survived", tail, time.monotonic() - t0
    if r.returncode in (2, 3, 4) and "error" in tail and "failed" not in tail:
        return "killed", "error: " + tail, time.monotonic() - t0
    return "killed", tail, time.monotonic() - t0


def run_mutant(workdir, module, m, timeout, env, tests=None, extra=()):
    """Run one mutant against ``tests`` (default: ``TESTS[module]``)."""
    path = module_path(workdir, module)
    original = path.read_text(encoding="utf-8")
    lines = io.StringIO(original).readlines()
    mutated = "".join(lines[:m["line"] - 1]) + m["text"] + "".join(lines[m["line"]:])
    saved = []
    if module.endswith(".pyx"):
        saved = [(f, f.read_bytes(), f.stat()) for f in ext_files(workdir, module)]
    try:
        path.write_text(mutated, encoding="utf-8")
        if module.endswith(".pyx"):
            b = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                               cwd=workdir, env=env, capture_output=True, text=True,
                               timeout=timeout)
            if b.returncode != 0:
                return "build_error", (b.stderr.strip().splitlines() or [""])[-1][:200], 0.0
            if saved[0][0].read_bytes() == saved[0][1]:
                raise RuntimeError(f"{module}: the mutant was not rebuilt")
        tests = test_paths(workdir, TESTS[module] if tests is None else tests)
        return run_tests(workdir, tests, timeout, env, extra)
    finally:
        path.write_text(original, encoding="utf-8")
        if saved:
            # The original extension back, dated as make_workdir dates them, so that the
            # next mutant's source is newer than both and is rebuilt, and the original is
            # not.
            for f, data, old in saved:
                f.write_bytes(data)
            date_build(workdir)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("modules", nargs="*", help=f"modules (default: {' '.join(TESTS)})")
    p.add_argument("--per-module", type=int, default=15, help="mutants sampled per module")
    p.add_argument("--seed", type=int, default=12, help="sampling seed")
    p.add_argument("--timeout", type=float, default=300, help="seconds per mutant")
    p.add_argument("--workdir", default=str(ROOT / "build" / "mutation"))
    p.add_argument("--json", help="write every mutant's result to this file")
    p.add_argument("--list", action="store_true", help="list the candidates, run nothing")
    p.add_argument("--only", action="append", default=[], metavar="MODULE:K",
                   help="run candidate K of MODULE (repeatable) instead of a sample")
    p.add_argument("--semantic", action="store_true",
                   help="draw semantic mutants (swap, sibling, drop-kwarg) instead of the "
                        "one-token operator ones")
    p.add_argument("--kind", choices=("swap", "sibling", "drop-kwarg"),
                   help="with --semantic: sample only mutants of this kind (their numbers "
                        "stay those of the full list)")
    p.add_argument("--fast", action="store_true",
                   help="leave out the tests marked slow (-m 'not slow')")
    p.add_argument("--quick", nargs="?", type=int, const=12, default=None, metavar="N",
                   help="quick mode: N mutants (default 12) of the modules changed since "
                        "the merge base with main, each with the tests that import it")
    p.add_argument("--base", default=None, metavar="REV",
                   help="quick mode: the modules changed since this commit instead of the "
                        "merge base with main (for work committed on main itself)")
    p.add_argument("--budget", type=float, default=300,
                   help="quick mode: start no mutant after this many seconds")
    p.add_argument("--summary", nargs="+", metavar="JSON",
                   help="print the table of earlier runs' --json files (later runs of the "
                        "same mutant replace earlier ones), run nothing")
    args = p.parse_args(argv)

    if args.summary:
        merged = {}
        for f in args.summary:
            for row in json.loads(Path(f).read_text()):
                merged[(row["module"], row.get("kind", "operator"), row["id"])] = row
        summarise(list(merged.values()), list(dict.fromkeys(m for m, _, _ in merged)))
        return 0
    if args.quick is not None:
        return quick(args)
    modules = args.modules or list(TESTS)
    if args.only:
        modules = list(dict.fromkeys(o.split(":")[0] for o in args.only))
    plan = {}
    for module in modules:
        if module not in TESTS:
            p.error(f"{module}: unknown module (expected one of {', '.join(TESTS)})")
        cands = (semantic_candidates if args.semantic else candidates)(
            module_path(ROOT, module))
        if args.kind:
            cands = [c for c in cands if c.get("kind") == args.kind]
        if args.only:
            ks = {int(o.split(":")[1]) for o in args.only if o.split(":")[0] == module}
            plan[module] = [c for c in cands if c["id"] in ks]
        else:
            plan[module] = sample(module, cands, args.per_module, args.seed)
        if args.list:
            for c in cands:
                print(f"{module}:{c['id']}  line {c['line']}: {c.get('kind', 'operator')} "
                      f"{c['old']!r} -> {c['new']!r}"
                      f"   {c['text'].strip()}")
    if args.list:
        return 0

    workdir = Path(args.workdir)
    make_workdir(workdir)
    env = env_for(workdir)
    results = []
    t_start = time.monotonic()
    for module, muts in plan.items():
        for m in muts:
            status, detail, secs = run_mutant(workdir, module, m, args.timeout, env, None,
                                              ("-m", "not slow") if args.fast else ())
            results.append(_result(module, m, status, detail, secs))
            if args.json:
                Path(args.json).write_text(json.dumps(results, indent=1))
    summarise(results, list(plan))
    print(f"\ntotal {time.monotonic() - t_start:.0f} s")
    return 0


# -- quick mode -------------------------------------------------------------------------
_IMPORT = re.compile(r"^\s*(?:from\s+nardy_fast((?:\.\w+)*)\s+c?import\s+([^#]+)"
                     r"|c?import\s+nardy_fast((?:\.\w+)+))")


def merge_base(base=None):
    """The commit ``base`` names (``--base``), else the merge base of HEAD with main (or
    origin/main)."""
    if base is not None:
        r = subprocess.run(["git", "rev-parse", "--verify", "--quiet", base + "^{commit}"],
                           cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"--base {base!r}: not a commit of this repository")
        return r.stdout.strip()
    for ref in ("main", "origin/main"):
        r = subprocess.run(["git", "merge-base", "HEAD", ref], cwd=ROOT, capture_output=True,
                           text=True)
        if r.returncode == 0:
            return r.stdout.strip()
    raise SystemExit("--quick: no merge base with main or origin/main")


def changed_lines(base):
    """{module file name: changed line numbers} of the package's .py / .pyx files changed
    since ``base`` (the working tree, untracked files included)."""
    diff = subprocess.run(["git", "diff", "-U0", base, "--", "nardy_fast"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    out, cur = {}, None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            name = line[4:].strip()
            cur = None if name == "/dev/null" else Path(name[2:]).name
            if cur is not None and Path(cur).suffix in (".py", ".pyx"):
                out.setdefault(cur, set())
            else:
                cur = None
        elif line.startswith("@@") and cur is not None:
            new = line.split("+", 1)[1].split(" ", 1)[0]
            start, _, count = new.partition(",")
            n = int(count) if count else 1
            out[cur].update(range(int(start), int(start) + n))
    new = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "nardy_fast"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in new.split():
        if Path(name).suffix in (".py", ".pyx"):
            out[Path(name).name] = None                   # None: every line is new
    return out


def imported(path: Path, stems):
    """The package modules (stems) that ``path`` imports or cimports by name."""
    text = re.sub(r"(import\s*)\(([^)]*)\)", lambda m: m.group(1) + " ".join(m.group(2).split()),
                  path.read_text(encoding="utf-8"))
    out = set()
    for line in text.splitlines():
        m = _IMPORT.match(line)
        if not m:
            continue
        if m.group(3):                                   # import nardy_fast.a.b
            out.add(m.group(3).split(".")[-1])
            continue
        if m.group(1):                                   # from nardy_fast.a import ...
            out.add(m.group(1).split(".")[-1])
        # the names: modules of a package (from nardy_fast.env import openspiel) or not
        out.update(n.split(" as ")[0].strip() for n in m.group(2).split(","))
    return out & stems


def importing_tests(root: Path, module: str):
    """Test files (relative to ``root``) that import ``module``, with its ``TESTS`` entry;
    when none does, those importing a package module that imports it."""
    files = [f for f in (root / "nardy_fast").rglob("*")
             if f.suffix in (".py", ".pyx", ".pxd")]
    stems = {f.stem for f in files}
    stem = Path(module).stem
    tests = sorted((root / "tests").rglob("test_*.py"))
    out = {str(t.relative_to(root)) for t in tests if stem in imported(t, stems)}
    out |= set(test_paths(root, TESTS.get(module, [])))
    if not out:
        users = {f.stem for f in files if stem in imported(f, stems)}
        out = {str(t.relative_to(root)) for t in tests if imported(t, stems) & users}
    return sorted(out)


def quick_plan(n, seed, base=None):
    """About ``n`` mutants spread over the modules changed since ``base`` (None: the merge
    base with main), changed lines first."""
    changed = changed_lines(merge_base(base))
    pools = {}
    for module, lines in sorted(changed.items()):
        try:
            cands = candidates(module_path(ROOT, module))
        except ValueError:
            continue
        rnd = random.Random(seed * 1_000_003 + zlib.crc32(module.encode()))
        hot = [c for c in cands if lines is None or c["line"] in lines]
        cold = [c for c in cands if c not in hot]
        rnd.shuffle(hot)
        rnd.shuffle(cold)
        if hot or cold:
            pools[module] = hot + cold
    plan = {m: [] for m in pools}
    while sum(map(len, plan.values())) < n and any(pools.values()):
        for module, pool in pools.items():
            if pool and sum(map(len, plan.values())) < n:
                plan[module].append(pool.pop(0))
    return {m: sorted(ms, key=lambda c: c["id"]) for m, ms in plan.items() if ms}


def quick(args):
    """``--quick``: a dozen mutants of the changed modules, a time budget (module docstring)."""
    plan = quick_plan(args.quick, args.seed, args.base)
    if not plan:
        since = (f"--base {args.base}" if args.base else
                 "the merge base with main (on main itself, that is HEAD: name the commit "
                 "your change started from with --base REV, or make mutate-quick BASE=REV)")
        print(f"no .py / .pyx module of the package changed since {since}")
        return 0
    workdir = Path(args.workdir)
    make_workdir(workdir)
    env = env_for(workdir)
    results, t_start = [], time.monotonic()
    for module, muts in plan.items():
        tests = importing_tests(workdir, module)
        print(f"{module}: {len(muts)} mutants; tests: {' '.join(tests) or 'none'}", flush=True)
        for m in muts:
            if not tests or time.monotonic() - t_start > args.budget:
                status, detail, secs = "not run", "no tests" if not tests else "budget", 0.0
            else:
                status, detail, secs = run_mutant(workdir, module, m, args.timeout, env,
                                                  tests, ("-m", "not slow"))
                if detail == "timeout":
                    status = "timeout"
            results.append(_result(module, m, status, detail, secs))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    summarise(results, list(plan))
    print(f"\ntotal {time.monotonic() - t_start:.0f} s (budget {args.budget:.0f} s)")
    return 0


def _result(module, m, status, detail, secs):
    """The record of one mutant's run, printed as a line."""
    row = dict(module=module, id=m["id"], line=m["line"], old=m["old"], new=m["new"],
               kind=m.get("kind", "operator"), code=m["text"].strip(), status=status,
               detail=detail, seconds=round(secs, 1))
    print(f"{status:11s} {module}:{m['id']:<4d} line {m['line']:4d} "
          f"{m['old']!r} -> {m['new']!r}  ({secs:.0f} s)  {row['code'][:70]}", flush=True)
    return row


def summarise(results, modules):
    print()
    print(f"{'module':14s} {'mutants':>7s} {'killed':>6s} {'survived':>8s} "
          f"{'no build':>8s} {'score':>6s}")
    for module in modules:
        rows = [r for r in results if r["module"] == module]
        k = sum(r["status"] == "killed" for r in rows)
        s = sum(r["status"] == "survived" for r in rows)
        b = sum(r["status"] == "build_error" for r in rows)
        score = f"{k / (k + s):.0%}" if k + s else "-"
        print(f"{module:14s} {len(rows):7d} {k:6d} {s:8d} {b:8d} {score:>6s}")
    for r in results:
        if r["status"] in ("survived", "timeout", "not run"):
            kind = r.get("kind", "operator")
            print(f"{r['status']}: {r['module']}:{r['id']} ({kind}) line {r['line']}: "
                  f"{r['code'][:70]}")


if __name__ == "__main__":
    sys.exit(main())
