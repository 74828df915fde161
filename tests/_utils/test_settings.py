"""The one list of differing settings (``_utils._settings.setting_differences``), the
one rewording of a settings object's error as its caller's (``callers_error``) and the one
refusal of a flat keyword beside the object that holds it (``held_by``)."""
import pytest

from nardy_fast._utils._settings import callers_error, held_by, setting_differences


def test_names_every_difference_in_key_order():
    old = {"seed": 1, "hidden": 16, "games": 10}
    new = {"seed": 1, "hidden": 24, "games": 12}
    assert setting_differences(old, new) == ["games: 10 there, 12 now",
                                             "hidden: 16 there, 24 now"]


def test_missing_keys_count_as_none_and_ignored_keys_are_skipped():
    old = {"a": 1, "version": "0.2"}
    new = {"b": [2], "version": "0.3"}
    assert setting_differences(old, new, ignore=("version",), recorded_as="in the store",
                               wanted_as="here") == ["a: 1 in the store, None here",
                                                     "b: None in the store, [2] here"]


def test_an_unrecorded_setting_stands_for_its_earlier_value_where_it_is_wanted():
    """``unrecorded``: a key the file lacks is shown, and compared, as the value it stood
    for before it was recorded; only where the wanted settings have the key, and never
    over a recorded value."""
    old, earlier = {"games": 10}, {"dice": "block"}
    assert setting_differences(old, {"games": 10, "dice": "game"}, unrecorded=earlier) == [
        "dice: 'block' there, 'game' now"]
    assert setting_differences(old, {"games": 10, "dice": "block"}, unrecorded=earlier) == []
    assert setting_differences(old, {"games": 10}, unrecorded=earlier) == []
    assert setting_differences({"dice": "game"}, {"dice": "game"}, unrecorded=earlier) == []


def test_equal_settings_give_nothing():
    assert setting_differences({"x": (1, 2)}, {"x": (1, 2)}) == []


@pytest.mark.parametrize("error", [ValueError("Compute: workers=0: must be >= 1"),
                                   TypeError("Compute: workers=2.0: expected an integer")])
def test_callers_error_names_the_function_called_with_the_same_type(error):
    out = callers_error(error, "rollout", "Compute")
    assert type(out) is type(error)
    assert str(out) == "rollout: " + str(error).removeprefix("Compute: ")


def test_callers_error_keeps_a_message_of_another_owner_whole():
    out = callers_error(ValueError("RolloutSettings: n_games=0"), "rollout", "Compute")
    assert str(out) == "rollout: RolloutSettings: n_games=0"


def _held(fn):
    return held_by("box", ("a", "b", "zzz"), lambda v: v is not None,
                   "{func}: {names} beside box={value!r}")(fn)


@_held
def _f(x, a=1, *, b=None, box=None):
    return (x, a, b, box)


def test_held_by_counts_what_the_caller_wrote_even_at_a_default():
    assert _f(0) == (0, 1, None, None)
    assert _f(0, 5, b=2) == (0, 5, 2, None)          # no box: the flat keywords serve
    assert _f(0, box=7) == (0, 1, None, 7)
    assert _f(0, box=None, a=1) == (0, 1, None, None)  # a box that holds nothing
    with pytest.raises(TypeError, match=r"^_f: a beside box=7$"):
        _f(0, 1, box=7)                                 # positional, at its default
    with pytest.raises(TypeError, match=r"^_f: a, b beside box=7$"):
        _f(0, b=None, a=1, box=7)                       # named in the signature's order


def test_held_by_leaves_a_bad_call_to_the_function_and_needs_the_holder():
    with pytest.raises(TypeError, match="unexpected keyword argument 'c'"):
        _f(0, c=1, box=7)
    with pytest.raises(TypeError, match="held_by: _g has no parameter 'box'"):
        held_by("box", (), bool, "")(_g)


def _g(x):
    return x


def _called_from(module, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` called from code whose module is named ``module``."""
    scope = {"__name__": module, "fn": fn, "args": args, "kwargs": kwargs}
    exec("result = fn(*args, **kwargs)", scope)
    return scope["result"]


def test_outside_only_lets_the_packages_own_forwarding_calls_through():
    def g(x, a=1, box=None):
        return (x, a, box)
    strict = held_by("box", ("a",), lambda v: v is not None, "{func}: {names}")(g)
    users = held_by("box", ("a",), lambda v: v is not None, "{func}: {names}",
                    outside_only=True)(g)
    for name in ("nardy_fast.analysis.report", "user_code"):
        with pytest.raises(TypeError, match="^g: a$"):        # the default: every call
            _called_from(name, strict, 0, a=1, box=7)
    with pytest.raises(TypeError, match="^g: a$"):
        _called_from("user_code", users, 0, a=1, box=7)
    with pytest.raises(TypeError, match="^g: a$"):            # not the package's: a prefix
        _called_from("nardy_fast_tools", users, 0, a=1, box=7)
    assert _called_from("nardy_fast.analysis.report", users, 0, a=1, box=7) == (0, 1, 7)


def test_held_by_keyword_only_flat_keywords_with_the_holder_by_position():
    @held_by("box", ("a",), lambda v: v is not None, "{func}: {names}")
    def h(x, box=None, *, a=1):
        return (x, box, a)
    assert h(0, 7) == (0, 7, 1) and h(0, None, a=1) == (0, None, 1)
    with pytest.raises(TypeError, match="^h: a$"):
        h(0, 7, a=1)
