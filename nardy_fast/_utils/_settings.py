"""The one way to say which recorded settings differ from the wanted ones: a checkpoint, a
benchmark file or a study store made with other settings is refused naming each of them;
and the one way a settings object built from a function's flat keywords reports a bad
one: as the function's own error (``callers_error``)."""
from __future__ import annotations

__all__ = ["setting_differences", "callers_error"]


def setting_differences(recorded, wanted, *, ignore=(), recorded_as="there",
                        wanted_as="now"):
    """Every setting whose value differs between two mappings, described.

    Parameters
    ----------
    recorded, wanted : mapping of str to object
        The settings a file was made with, and the ones asked for now; a key missing from
        one of them counts as the value None there.
    ignore : collection of str
        Keys not compared (settings that may change without changing the results).
    recorded_as, wanted_as : str
        How the message names where each value comes from.

    Returns
    -------
    list of str
        ``"KEY: R RECORDED_AS, W WANTED_AS"`` (values by ``repr``), keys sorted; empty when
        the settings agree.
    """
    return [f"{k}: {recorded.get(k)!r} {recorded_as}, {wanted.get(k)!r} {wanted_as}"
            for k in sorted(set(recorded) | set(wanted))
            if k not in ignore and recorded.get(k) != wanted.get(k)]


def callers_error(error, func, owner):
    """``error``, raised by the settings object ``owner`` (its class name, which starts the
    message: ``"Compute: workers=0: ..."``) that ``func`` built from its flat keywords,
    reworded as ``func``'s (``"rollout: workers=0: ..."``): the caller never wrote
    ``owner``.  The same exception type; raise it ``from None``."""
    return type(error)(f"{func}: {str(error).removeprefix(owner + ': ')}")
