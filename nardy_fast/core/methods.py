"""The one vocabulary of ``method``: how a value is obtained.

Every public function with a ``method`` argument takes a subset of ``METHODS`` (its own
``METHODS`` constant, ``race.METHODS``, ``valuation.METHODS`` (``report.METHODS``),
``cube.METHODS``, ``study.METHODS``: each drawn from it by ``methods_of``) and checks it
with ``check_method``, so the names, their meaning and
the error message are the same everywhere.  Every result names the method that served it
in its own ``method`` (``Outcome.method``, a report's column, a cube decision's key).
"""
from nardy_fast._utils._warn import warn_user

__all__ = ["METHODS", "methods_of", "check_method", "method_kind", "method_label",
           "warn_unused"]

METHODS = {
    "auto": "the function picks: an exact table where one covers the position, else its "
            "default (the net, or the cube model)",
    "exact": "an exact table only (the bear-off or race databases, the cubeful race "
             "table); ValueError where none serves",
    "two_sided": "the exact two-sided bear-off table (or the mars table)",
    "one_sided": "the one-sided bear-off database, the two sides' turns convolved",
    "net": "the evaluator: the shipped net at ``plies``",
    "janowski": "the cube model (Janowski's efficiency) on cubeless probabilities",
    "rollout": "games played to the end (Monte Carlo), with standard errors",
}


def methods_of(*names):
    """The names a function accepts as ``method``: a tuple drawn from ``METHODS``, in the
    order given (the order its error message lists them).

    Raises
    ------
    ValueError
        A name outside ``METHODS``, or one given twice: where the tuple is made (at import
        of the module that makes it), not at a call.

    Examples
    --------
    >>> methods_of("rollout", "net")
    ('rollout', 'net')
    """
    for name in names:
        if name not in METHODS:
            raise ValueError(f"method {name!r}: not in the vocabulary "
                             "(nardy_fast.core.methods.METHODS)")
    if len(set(names)) != len(names):
        raise ValueError(f"methods {names!r}: a name given twice")
    return tuple(names)


def check_method(method, accepted):
    """``method`` checked against ``accepted`` (a tuple drawn from ``METHODS``): returned
    as is; anything else raises ``ValueError`` listing ``accepted``."""
    if not isinstance(method, str) or method not in accepted:
        raise ValueError(f"method={method!r}: expected one of "
                         + ", ".join(map(repr, accepted)))
    return method


# How each served ``method`` (a result's own, not an argument) was obtained, and its name
# for people: what a table, a chart or a page shows beside the numbers.
_SERVED = {
    "two_sided": ("exact", "exact (two-sided table)"),
    "exact": ("exact", "exact"),
    "final": ("exact", "exact (game over)"),
    "cuberace": ("exact", "exact cubeful race table"),
    "final (last turn)": ("exact", "exact (last turn)"),
    "one_sided": ("approximation", "one-sided approximation"),
    "one_sided12": ("approximation", "one-sided approximation (race database)"),
    "janowski": ("approximation", "cube model (Janowski)"),
    "zadeh": ("approximation", "match cube model (Zadeh)"),
    "rollout": ("rollout", "rollout"),
}


def method_kind(name):
    """What kind of value ``name``, a result's ``method``, names: ``"exact"`` (a table solved
    exactly, or a finished game), ``"approximation"`` (a formula known to err a little:
    the one-sided convolution, the cube models), ``"net"`` (the evaluator, ``"net
    N-ply"``), ``"rollout"`` (Monte Carlo, with standard errors) or ``"other"``.  A
    table's name searched deeper on its values (``"one_sided 2-ply"``, a hint's row) is of
    the table's kind, and a cube model on a source (``"janowski (net 2-ply)"``, a cube
    decision's method) an approximation."""
    if not isinstance(name, str):
        raise TypeError(f"method name {name!r}: expected a str")
    if name in _SERVED:
        return _SERVED[name][0]
    if name == "net" or name.startswith("net "):
        return "net"
    base, plies = _searched(name)
    if plies is not None:
        return _SERVED[base][0]
    model, source = _modelled(name)
    if source is not None:
        return _SERVED[model][0]
    return "other"


def _modelled(name):
    """``(model, source)`` of ``"MODEL (SOURCE)"`` (a cube model on the probabilities of
    ``SOURCE``: ``"janowski (net 2-ply)"``, a cube decision's method), else ``(name,
    None)``."""
    model, sep, rest = name.partition(" (")
    if sep and rest.endswith(")") and _SERVED.get(model, ("",))[0] == "approximation":
        return model, rest[:-1]
    return name, None


def _searched(name):
    """``(table, plies)`` of ``"TABLE N-ply"`` (a table's values searched ``N`` plies deep),
    else ``(name, None)``."""
    base, _, depth = name.rpartition(" ")
    if base in _SERVED and depth.endswith("-ply") and depth[:-4].isdigit():
        return base, int(depth[:-4])
    return name, None


def method_label(name):
    """The name for people of ``name``, a result's ``method``: ``"exact (two-sided table)"``,
    ``"one-sided approximation"``, ``"net 0-ply"``, ``"rollout"``, ...; an approximation
    is never called exact; ``"one_sided 2-ply"`` is ``"one-sided approximation, searched 2
    plies"``.  Unknown names come back as they are."""
    if method_kind(name) in ("net", "other"):
        return name
    model, source = _modelled(name)
    if source is not None:
        return f"{_SERVED[model][1]} on {method_label(source)}"
    base, plies = _searched(name)
    label = _SERVED[base][1]
    return (label if plies is None
            else f"{label}, searched {plies} {'ply' if plies == 1 else 'plies'}")


def warn_unused(why, defaults, **given):
    """A ``UserWarning`` naming the arguments of ``given`` (``name=value``) set away from
    their ``defaults`` (``{name: default}``) in a call where they have no effect, saying
    ``why`` (e.g. ``"with method='net' (it plays no games)"``): an argument that has no
    effect says so.  The warning points at the first line outside nardy_fast (the user's
    call).  Returns the names warned of."""
    unused = [k for k, v in given.items() if not _is_default(v, defaults[k])]
    if unused:
        warn_user(f"{', '.join(unused)}: no effect {why}", UserWarning)
    return unused


def _is_default(value, default):
    """``value`` is (or equals) ``default``; a value that cannot be compared is not."""
    if value is default:
        return True
    try:
        return bool(value == default)
    except (TypeError, ValueError):
        return False
