"""``operator`` for MicroPython (it lacks ``add``, ``sub``, ``mul``, ``or_``).

>>> add(1, 2), sub(1, 2), mul(3, 4), or_(1, 2), truediv(1, 4), neg(2)
(3, -1, 12, 3, 0.25, -2)
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
