"""Checks of settings that every layer shares (budgets, counts, limits).

One place, so a budget, a retry count and an experiment option reject the same mistakes with
the same words.
"""

from __future__ import annotations


def int_at_least(name: str, value: object, minimum: int) -> int:
    """Return ``value`` if it is an ``int`` of at least ``minimum``.

    Inputs: ``name`` (the setting, used in the message), ``value`` and ``minimum``.
    Raises ``TypeError`` when ``value`` is not an ``int`` (``bool`` counts as not an int:
    ``True`` as a budget is a bug, not a 1) and ``ValueError`` when it is below ``minimum``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value
