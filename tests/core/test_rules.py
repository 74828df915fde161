"""The rules object: validation, dict round trip, points per outcome."""
from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import ALL_VARIANTS
from nardy_fast import CLASSIC, Rules
from nardy_fast.core.rules import OUTCOMES, as_rules


def test_classic_defaults_follow_the_rule_book():
    assert CLASSIC == Rules()
    assert (CLASSIC.head_rule, CLASSIC.block_rule, CLASSIC.block_transient,
            CLASSIC.larger_die_rule, CLASSIC.scoring, CLASSIC.draw_rule,
            CLASSIC.opening_roll) == ("classic", "ahead", False, True, "classic", False,
                                      "rethrow")


@pytest.mark.parametrize("field, value", [
    ("head_rule", "clasic"), ("head_rule", "Classic"), ("head_rule", None),
    ("block_rule", "always"), ("block_rule", ""),
    ("scoring", "double"), ("opening_roll", "doubles"),
])
def test_unknown_choice(field, value):
    with pytest.raises(ValueError) as info:
        Rules(**{field: value})
    msg = str(info.value)
    assert field in msg and repr(value) in msg
    # the message lists what is allowed
    allowed = {f.name: f.default for f in dataclasses.fields(Rules)}[field]
    assert repr(allowed) in msg


@pytest.mark.parametrize("field", ["block_transient", "larger_die_rule", "draw_rule"])
@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_flags_must_be_bool(field, value):
    with pytest.raises(TypeError, match=field):
        Rules(**{field: value})


@pytest.mark.parametrize("field", ["oin_points", "mars_points", "koks_points",
                                   "home_mars_points"])
@pytest.mark.parametrize("value", ["2", None, True])
def test_points_must_be_numbers(field, value):
    with pytest.raises(TypeError, match=field):
        Rules(**{field: value})


def test_points_become_float():
    r = Rules(mars_points=3)
    assert r.mars_points == 3.0 and isinstance(r.mars_points, float)


def test_frozen_and_hashable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC.head_rule = "generalized"
    assert len(set(ALL_VARIANTS)) == len(ALL_VARIANTS) == 24
    assert hash(Rules()) == hash(CLASSIC)
    assert pickle.loads(pickle.dumps(ALL_VARIANTS[5])) == ALL_VARIANTS[5]


@given(st.sampled_from(ALL_VARIANTS), st.sampled_from(["classic", "extended"]),
       st.booleans(), st.sampled_from(["rethrow", "opening_dice"]),
       st.floats(1, 10, allow_nan=False))       # at least an oin's 1 point
def test_dict_round_trip(base, scoring, draw_rule, opening, koks):
    r = dataclasses.replace(base, scoring=scoring, draw_rule=draw_rule,
                            opening_roll=opening, koks_points=koks)
    d = r.to_dict()
    assert set(d) == {f.name for f in dataclasses.fields(Rules)}
    assert Rules.from_dict(d) == r
    assert as_rules(d) == r


def test_from_dict_partial_and_unknown():
    assert Rules.from_dict({"head_rule": "generalized"}) == Rules(head_rule="generalized")
    assert Rules.from_dict({}) == CLASSIC
    with pytest.raises(ValueError, match="hed_rule"):
        Rules.from_dict({"hed_rule": "classic"})


def test_from_dict_vector_rules():
    d = {"head_rule": "classic", "block_rule": "home", "block_transient": True,
         "larger_die_rule": False}
    r = Rules.from_dict(d)
    assert (r.block_rule, r.block_transient, r.larger_die_rule) == ("home", True, False)


def test_as_rules():
    assert as_rules(None) is CLASSIC
    assert as_rules("classic") == CLASSIC
    r = Rules(block_rule="none")
    assert as_rules(r) is r
    with pytest.raises(ValueError, match="modern"):
        as_rules("modern")
    r = Rules(draw_rule=True, scoring="extended")
    assert as_rules(r.to_text()) == r                # its text, as the vocabulary says
    with pytest.raises(ValueError, match="head_rule"):
        as_rules("head_rule=wide")
    with pytest.raises(TypeError, match="rules"):
        as_rules(3)


def test_points_classic_scoring():
    r = Rules(oin_points=1, mars_points=2, koks_points=3, home_mars_points=4)
    assert [r.points(o) for o in ("oin", "mars", "koks", "home_mars")] == [1, 2, 2, 2]


def test_points_extended_scoring():
    r = Rules(scoring="extended", oin_points=1, mars_points=2, koks_points=3,
              home_mars_points=4)
    assert [r.points(o) for o in ("oin", "mars", "koks", "home_mars")] == [1, 2, 3, 4]
    # the glossary variant: home mars worth 3
    g = dataclasses.replace(r, home_mars_points=3)
    assert g.points("home_mars") == 3 and g.points("koks") == 3


@given(st.floats(0.01, 100), st.floats(0, 100), st.floats(0, 100), st.floats(0, 100),
       st.sampled_from(["classic", "extended"]))
def test_points_follow_the_fields(oin, mars, koks, hm, scoring):
    mars, koks, hm = oin + mars, oin + koks, oin + hm      # each win at least an oin
    r = Rules(scoring=scoring, oin_points=oin, mars_points=mars, koks_points=koks,
              home_mars_points=hm)
    assert r.points("oin") == oin and r.points("mars") == mars
    ext = scoring == "extended"
    assert r.points("koks") == (koks if ext else mars)
    assert r.points("home_mars") == (hm if ext else mars)


@pytest.mark.parametrize("outcome", ["win", "Mars", "", None, "draw"])
def test_points_unknown_outcome(outcome):
    with pytest.raises(ValueError, match="outcome"):
        CLASSIC.points(outcome)


@pytest.mark.parametrize("scoring, want", [
    # rule book section 7: classic oin 1, mars 2 (koks and home mars count as mars);
    # extended (seed 004): oin 1, mars 2, koks 3, home mars 4
    ("classic", {"oin": 1, "mars": 2, "koks": 2, "home_mars": 2}),
    ("extended", {"oin": 1, "mars": 2, "koks": 3, "home_mars": 4}),
])
def test_default_points_are_the_rule_book_s(scoring, want):
    r = Rules(scoring=scoring)
    assert {k: r.points(k) for k in want} == want


def test_numpy_numbers_and_flags_are_taken_as_python_ones():
    """numpy's integers, floats and bools are the Python ones here (np.int64 points and
    np.bool_ flags were refused as 'expected a number' / 'expected True or False')."""
    import numpy as np
    r = Rules(oin_points=np.int64(1), mars_points=np.float32(2), draw_rule=np.bool_(True),
              scoring="extended", koks_points=np.int32(3))
    assert r == Rules(draw_rule=True, scoring="extended")
    assert type(r.draw_rule) is bool and type(r.oin_points) is float
    assert hash(r) == hash(Rules(draw_rule=True, scoring="extended"))
    assert Rules.from_text(r.to_text()) == r
    with pytest.raises(TypeError, match="oin_points=np.True_: expected a number"):
        Rules(oin_points=np.bool_(True))


def test_from_text_reads_each_value_as_its_field_takes_it():
    """``cube=none`` was refused with "cube='none': expected one of None, ..." (no text
    gave None), and ``draw_rule=1`` or ``head_rule=5`` were named as ``1.0`` and ``5.0``,
    not as written: a number is read for the points only."""
    assert Rules.from_text("cube=none draw_rule=true") == Rules(draw_rule=True)
    assert Rules.from_text("cube=None").cube is None
    assert Rules.from_text("koks_points=3.5 scoring=extended").koks_points == 3.5
    with pytest.raises(TypeError, match=r"^rules 'draw_rule=1': draw_rule='1': expected "
                                        r"True or False$"):
        Rules.from_text("draw_rule=1")
    with pytest.raises(ValueError, match=r"head_rule='5': expected one of 'classic', "):
        Rules.from_text("head_rule=5")
    with pytest.raises(TypeError, match=r"oin_points='one': expected a number"):
        Rules.from_text("oin_points=one")


@pytest.mark.parametrize("bad", [None, 5, b"draw_rule=true"])
def test_from_text_and_from_dict_name_what_is_not_text_or_a_mapping(bad):
    """Rules.from_text(None) failed with "'NoneType' object has no attribute 'strip'",
    Rules.from_dict(None) with "'NoneType' object is not iterable"."""
    with pytest.raises(TypeError, match=r"^rules text: expected str, got "):
        Rules.from_text(bad)
    with pytest.raises(TypeError, match=r"^rules: expected a mapping of rule fields"):
        Rules.from_dict(bad)


def test_check_flag_takes_true_and_false_only():
    """The one flag check (rules' flags, Evaluator's exact, match_equity_table's cube and
    stored, game_report's win_prob, analyse and cube): a truthy text is no True."""
    import numpy as np
    from nardy_fast.core.rules import check_flag
    assert check_flag(True, "x") is True and check_flag(np.bool_(False), "x") is False
    for bad in ("false", "no", 1, 0, None, 1.0):
        with pytest.raises(TypeError, match=rf"^exact={bad!r}: expected True or False$"):
            check_flag(bad, "exact")


@pytest.mark.parametrize("cube", ["geometric", "arithmetic"])
def test_with_the_cube_every_kind_of_win_scores_the_stake(cube):
    """Rule book 7a: with the cube no mars and no oin, a game is won at the stake.  Every
    kind is worth 1 (the C code's points too), and ``cubeless`` keeps that scoring
    without the cube's fields; the evaluator's equity of a sure mars is then +1, not +2."""
    import numpy as np
    import nardy_fast as nf
    r = Rules(cube=cube, scoring="extended", oin_points=2.0, mars_points=3.0)
    assert [r.points(k) for k in OUTCOMES] == [1.0] * 4
    assert [r.codes()[f"pts_{k}"] for k in OUTCOMES] == [1.0] * 4
    c = r.cubeless()
    assert c.cube is None and [c.points(k) for k in OUTCOMES] == [1.0] * 4
    assert Rules(scoring="extended").cubeless() == Rules(scoring="extended")
    me, you = np.zeros(24, np.uint8), np.zeros(24, np.uint8)
    me[20], me[15], you[0] = 3, 2, 15                    # the opponent cannot get home
    pos = nf.Position(me, you)
    with pytest.warns(UserWarning):                      # a board no game reaches
        assert nf.Evaluator.default(rules=r).evaluate(pos).equity == pytest.approx(1.0)
