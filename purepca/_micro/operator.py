"""``operator`` for MicroPython (it lacks ``add``, ``sub``, ``mul``, ``or_``, ``itemgetter``).

>>> add(1, 2), sub(1, 2), mul(3, 4), or_(1, 2), truediv(1, 4), neg(2)
(3, -1, 12, 3, 0.25, -2)
>>> itemgetter(1)([5, 6, 7]), itemgetter(0, 2)([5, 6, 7])
(6, (5, 7))
"""

from __future__ import annotations

from typing import Any


def add(a: Any, b: Any) -> Any:
    """``a + b``."""
    return a + b


def sub(a: Any, b: Any) -> Any:
    """``a - b``."""
    return a - b


def mul(a: Any, b: Any) -> Any:
    """``a * b``."""
    return a * b


def or_(a: Any, b: Any) -> Any:
    """``a | b``."""
    return a | b


def truediv(a: Any, b: Any) -> Any:
    """``a / b``."""
    return a / b


def neg(a: Any) -> Any:
    """``-a``."""
    return -a


def itemgetter(*items: Any) -> Any:
    """``operator.itemgetter``: one item, or a tuple of several."""
    if len(items) == 1:
        item = items[0]
        return lambda obj: obj[item]
    return lambda obj: tuple(obj[i] for i in items)
