"""``decimal`` for MicroPython: named, not implemented.  ``Decimal`` exists for
``isinstance`` tests (no float is one); building one, a ``Context`` or a
``localcontext`` (the N-digit contexts, ``precision=50``) is a
:class:`~purepca.errors.PurePCAError` that says so.

>>> isinstance(1.0, Decimal)
False
>>> Decimal("0.1")
Traceback (most recent call last):
...
purepca.errors.PurePCAError: decimal arithmetic is not available on this interpreter (MicroPython): the N-digit contexts
need CPython or PyPy
"""

from __future__ import annotations

from typing import Any

MAX_EMAX = 999999999999999999
MIN_EMIN = -999999999999999999


def _unavailable() -> None:
    from ..errors import PurePCAError

    raise PurePCAError("decimal arithmetic is not available on this interpreter (MicroPython): "
                       "the N-digit contexts need CPython or PyPy")


class Decimal:
    """Stands for ``decimal.Decimal`` in ``isinstance`` tests; building one raises."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _unavailable()


class Context:
    """Stands for ``decimal.Context``; building one raises."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _unavailable()


def localcontext(*args: Any, **kwargs: Any) -> Any:
    """Stands for ``decimal.localcontext``; calling it raises."""
    _unavailable()


class DecimalException(ArithmeticError):
    """``decimal.DecimalException``."""


class InvalidOperation(DecimalException):
    """``decimal.InvalidOperation``."""


class DivisionByZero(DecimalException):
    """``decimal.DivisionByZero``."""


class Overflow(DecimalException):
    """``decimal.Overflow``."""
