"""Rules -> the C struct ``rules_t`` (see ``_rules.pxd``), in one place.

Every C module takes its rules as a ``rules_t`` filled here from ``Rules.codes()``, so a
new rule variant is one entry in ``rules.CHOICES`` (or ``rules.FLAGS``) and one field of
the struct.
"""
from nardy_fast.core.rules import CLASSIC, as_rules

__all__ = ["rules_codes"]


cdef class _Filled:
    """A filled ``rules_t``, cached per ``Rules`` (frozen and hashable)."""
    cdef rules_t r


_CACHE = {}
cdef rules_t CLASSIC_T = CLASSIC.codes()      # dict -> struct: every field must be present


cdef int fill_rules(object rules, rules_t* out) except -1:
    cdef _Filled f
    if rules is None:
        out[0] = CLASSIC_T
        return 0
    try:
        f = _CACHE[rules]
    except (KeyError, TypeError):            # not seen yet, or an unhashable dict
        f = _Filled()
        f.r = as_rules(rules).codes()
        if len(_CACHE) < 64 and not isinstance(rules, dict):
            _CACHE[rules] = f
    out[0] = f.r
    return 0


def rules_codes(rules=None):
    """The ``rules_t`` the C core sees for ``rules``, as a dict (for checks and tests)."""
    cdef rules_t r
    fill_rules(rules, &r)
    return r
