"""One home for the ``method`` dispatch and for the Outcome at a match score.

- Which method values a position (a finished game, the bear-off databases, the evaluator
  or rollouts, by ``method``) is decided in ``engine/decisions/valuation.py`` only: no other
  function both tests a ``method`` against a name and calls two of the three valuers
  (``race_probabilities``; the evaluator's ``outcomes``/``evaluate``/``default``;
  ``rollout``/``rollout_many``/``rollout_outcomes``/``rollout_games``).
- An Outcome meets the match equity arithmetic in ``engine/evaluation/met.py`` only
  (``with_match``, ``match_extra``): no other module calls its ingredients (``mwc_of_outcome``,
  ``coefficients``, ``outcome_values``, ``distribution_of``) or writes ``mwc`` into an
  Outcome's ``extra``.

The checks read the source (``ast``), so they see imports and calls inside functions too.
"""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2] / "nardy_fast"
DISPATCH_HOME = "engine/decisions/valuation.py"
MATCH_HOME = "engine/evaluation/met.py"
# met's own data builder: it reduces the rollout of the start to the distribution met reads
# (``distribution_of``), which is building the table's input, not an Outcome at a score.
MATCH_BUILDER = "training/metbuild.py"

VALUERS = {"race_probabilities": "table", "outcomes": "net", "evaluate": "net",
           "default": "net", "rollout": "rollout", "rollout_many": "rollout",
           "rollout_outcomes": "rollout", "rollout_games": "rollout"}
MATCH_PARTS = {"mwc_of_outcome", "coefficients", "outcome_values", "distribution_of"}


def _called(call):
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _names_method(node):
    return (isinstance(node, ast.Name) and node.id == "method") or (
        isinstance(node, ast.Attribute) and node.attr == "method")


def _tests_method(fn):
    """``fn`` compares a ``method`` against a string (``method == "rollout"``, ``in``)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_method(s) for s in sides) and any(
                    isinstance(s, (ast.Constant, ast.Tuple)) for s in sides):
                return True
    return False


def dispatch_copies(source, name="<source>"):
    """``[(name, line, function)]`` of the functions of ``source`` that pick a valuer by
    ``method``: a test of ``method`` and calls of two kinds of valuers."""
    out = []
    for fn in ast.walk(ast.parse(source)):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and _tests_method(fn):
            kinds = {VALUERS[c] for c in (_called(n) for n in ast.walk(fn)
                                          if isinstance(n, ast.Call)) if c in VALUERS}
            if len(kinds) >= 2:
                out.append((name, fn.lineno, fn.name))
    return out


def _sets_mwc(node):
    """``node`` writes ``mwc`` into an ``extra``: ``extra={..., "mwc": ...}``,
    ``x.extra.update(mwc=...)`` or ``x.extra["mwc"] = ...``."""
    if isinstance(node, ast.Call):
        for kw in node.keywords:
            if kw.arg == "extra" and isinstance(kw.value, ast.Dict) and any(
                    isinstance(k, ast.Constant) and k.value == "mwc" for k in kw.value.keys):
                return True
        f = node.func
        if (isinstance(f, ast.Attribute) and f.attr == "update"
                and isinstance(f.value, ast.Attribute) and f.value.attr == "extra"):
            return any(kw.arg == "mwc" for kw in node.keywords) or any(
                isinstance(a, ast.Dict) and any(isinstance(k, ast.Constant)
                                                and k.value == "mwc" for k in a.keys)
                for a in node.args)
    if isinstance(node, ast.Assign):
        for t in node.targets:
            if (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute)
                    and t.value.attr == "extra" and isinstance(t.slice, ast.Constant)
                    and t.slice.value == "mwc"):
                return True
    return False


def match_copies(source, name="<source>"):
    """``[(name, line, what)]``: the Outcome-at-a-score arithmetic outside its home."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _called(node) in MATCH_PARTS:
            out.append((name, node.lineno, _called(node)))
        elif _sets_mwc(node):
            out.append((name, node.lineno, "extra['mwc']"))
    return out


def _sources(home):
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel != home:
            yield rel, path.read_text(encoding="utf-8")


def test_the_method_dispatch_has_one_home():
    found = [c for rel, text in _sources(DISPATCH_HOME) for c in dispatch_copies(text, rel)]
    assert found == [], f"a method dispatch outside {DISPATCH_HOME}: {found}"
    home = (ROOT / DISPATCH_HOME).read_text(encoding="utf-8")
    assert [c[2] for c in dispatch_copies(home)] == ["_value_positions"]


def test_the_outcome_at_a_score_has_one_home():
    found = [c for rel, text in _sources(MATCH_HOME) for c in match_copies(text, rel)
             if rel != MATCH_BUILDER]
    assert found == [], f"match arithmetic on an Outcome outside {MATCH_HOME}: {found}"
    home = (ROOT / MATCH_HOME).read_text(encoding="utf-8")
    assert "mwc_of_outcome" in {c[2] for c in match_copies(home)}


# the copies these checks replaced, as they were written
PLANTED_DISPATCH = '''
def evaluate_many(positions, method="auto", plies=0, rules=None, **kw):
    out = [None] * len(positions)
    todo, net = [], []
    for i, p in enumerate(positions):
        if method in ("exact", "two_sided", "one_sided") or p.is_bearoff():
            out[i] = race_probabilities(p, rules=rules)
        elif method == "rollout":
            todo.append(i)
        else:
            net.append(i)
    for i, o in zip(net, Evaluator.default(rules).outcomes([positions[i] for i in net])):
        out[i] = o
    frame = rollout_many([positions[i] for i in todo], **kw)
    return out
'''
PLANTED_MATCH = {
    "match_row": '''
def match_row(o, side, match):
    state = _for(side, match)
    m, se = met.mwc_of_outcome(o, state)
    return {"mwc": m, "se_mwc": se, "emg": float(met.emg(m, state))}
''',
    "rollout._with_match": '''
def _with_match(out, match):
    m, se = mwc(out, match)
    return replace(out, extra={**out.extra, "mwc": m, "se_mwc": se})
''',
    "Evaluator.outcomes": '''
def outcomes(self, positions, match=None):
    out = self._outcomes(positions)
    if match is not None:
        c0, c = met.coefficients(match)
        for o in out:
            mwc = c0 + sum(ck * getattr(o, n) for ck, n in zip(c, OUTPUT_NAMES))
            o.extra.update(mwc=mwc, emg=(2 * mwc - (c[0] + 2 * c0)) / c[0])
    return out
''',
    "a subscript": '''
def f(o, m):
    o.extra["mwc"] = m
''',
}


def test_the_dispatch_check_sees_a_planted_copy():
    assert [c[2] for c in dispatch_copies(PLANTED_DISPATCH)] == ["evaluate_many"]
    # a function that tests method but calls one kind of valuer is no dispatch
    one_kind = PLANTED_DISPATCH.replace("race_probabilities(", "table_values(").replace(
        "rollout_many(", "play_games(")
    assert dispatch_copies(one_kind) == []


@pytest.mark.parametrize("name", sorted(PLANTED_MATCH))
def test_the_match_check_sees_a_planted_copy(name):
    assert match_copies(PLANTED_MATCH[name]) != []
