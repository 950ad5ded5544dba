"""Parameters: the one conversion routine for every numeric parameter.

``as_int(value, name, ...)``    an int parameter (counts, seeds, sweeps, degrees)
``as_real(value, name, ...)``   a real parameter (tolerances, gamma, alpha)
``is_int(value)``               whether a value counts as an int parameter

What counts as an int: Python ints and anything registered as
``numbers.Integral`` or with ``__index__`` (numpy's ``int64``, for example),
never a bool.  What counts as a real: those, floats, ``Fraction``,
``Decimal`` and anything with ``__float__`` that is registered as
``numbers.Real`` (numpy's ``float64``), never a bool or a string, never NaN.
Both return plain Python numbers, so a parameter that came from
``numpy.arange`` or a grid search behaves exactly like a literal.  Every
refusal is a :class:`PurePCAError` that names the parameter and says what
was expected.

>>> as_int(3, "k"), as_real(0.5, "tol")
(3, 0.5)
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from typing import Any, Optional

from .errors import PurePCAError

__all__ = ["as_int", "as_real", "is_int"]


def is_int(value: Any) -> bool:
    """Whether ``value`` is accepted as an int parameter (not a bool).

    >>> is_int(3), is_int(True), is_int(3.0)
    (True, False, False)
    """
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        return False
    if isinstance(value, numbers.Integral):
        return True
    return hasattr(type(value), "__index__") and not isinstance(value, (float, Decimal, str, bytes))


def as_int(value: Any, name: str, *, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """``value`` as a Python int in ``[low, high]``, or a :class:`PurePCAError`.

    >>> as_int(5, "max_sweeps", low=1)
    5
    >>> as_int(True, "max_sweeps", low=1)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: max_sweeps must be a positive int, got True
    """
    for bound_name, bound in (("low", low), ("high", high)):
        if bound is not None and not is_int(bound):
            raise PurePCAError(f"as_int: {bound_name} (the bound for {name}) must be None or an int, "
                               f"got {_show(bound)}")
    if low == 1 and high is None:
        wanted = "a positive int"
    elif low == 0 and high is None:
        wanted = "a non-negative int"
    else:
        wanted = "an int" + (
            f" between {low} and {high}" if low is not None and high is not None
            else f" >= {low}" if low is not None
            else f" <= {high}" if high is not None
            else ""
        )
    if not is_int(value):
        raise PurePCAError(f"{name} must be {wanted}, got {_show(value)}")
    try:
        number = int(value.__index__()) if hasattr(value, "__index__") else int(value)
    except (TypeError, ValueError, OverflowError):
        raise PurePCAError(f"{name} must be {wanted}, got {_show(value)}") from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise PurePCAError(f"{name} must be {wanted}, got {_show(value)}")
    return number


def as_real(
    value: Any,
    name: str,
    *,
    low: Optional[float] = None,
    high: Optional[float] = None,
    low_open: bool = False,
) -> float:
    """``value`` as a finite float in ``[low, high]`` (``(low, high]`` with
    ``low_open``), or a :class:`PurePCAError`.

    >>> as_real(1e-10, "symmetry_rtol", low=0.0)
    1e-10
    >>> as_real(float("nan"), "tol", low=0.0)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: tol must be a finite real number >= 0.0, got nan
    """
    for bound_name, limit in (("low", low), ("high", high)):
        if limit is not None and (
            isinstance(limit, (bool, str, bytes)) or not isinstance(limit, (int, float, numbers.Rational))
            or (not isinstance(limit, int) and not math.isfinite(limit))
        ):
            raise PurePCAError(
                f"as_real: {bound_name} (the bound for {name}) must be None or a finite real number, "
                f"got {_show(limit)}")
    bound = ""
    if low is not None:
        bound = f" {'>' if low_open else '>='} {low}"
    if high is not None:
        bound += (" and" if bound else "") + f" <= {high}"
    wanted = f"a finite real number{bound}"
    if (
        isinstance(value, (bool, str, bytes))
        or type(value).__name__ in ("bool_", "bool")
        or not (isinstance(value, (numbers.Real, Decimal)) or hasattr(type(value), "__float__"))
        or isinstance(value, complex)
    ):
        raise PurePCAError(f"{name} must be {wanted}, got {_show(value)}")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError, ArithmeticError):
        raise PurePCAError(f"{name} must be {wanted}, got {_show(value)}") from None
    if not math.isfinite(number):
        try:  # finite in its own type (Decimal("1e400"), np.longdouble("1e400")) but not as a float
            beyond = number == number and value == value and value * 2 != value
        except (TypeError, ArithmeticError):
            beyond = False
        raise PurePCAError(f"{name} must be {wanted}, got {_show(value)}"
                           + (" (beyond the float range)" if beyond else ""))
    if low is not None and (number <= low if low_open else number < low):
        raise PurePCAError(f"{name} must be {wanted}, got {_show(value)}")
    if high is not None and number > high:
        raise PurePCAError(f"{name} must be {wanted}, got {_show(value)}")
    return number


def check_callback(value: Any, name: str) -> None:
    """None or a function: a trace or progress callback checked before the work, not on its first call.

    >>> check_callback(print, "trace")
    >>> check_callback(3, "trace")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: trace must be None or a function (called with each step), got 3
    """
    if value is not None and not callable(value):
        raise PurePCAError(f"{name} must be None or a function (called with each step), got {_show(value)}")


def check_text(value: Any, name: str) -> str:
    """``value`` if it is a str, else a :class:`PurePCAError` naming ``name`` (a title, a template, a text).

    >>> check_text("PCA", "title")
    'PCA'
    >>> check_text(None, "title")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: title must be a str, got None
    """
    if not isinstance(value, str):
        raise PurePCAError(f"{name} must be a str, got {_show(value)}")
    return value


def _not_one_of(name: str, choices: Any, got: Any, also: str = "") -> PurePCAError:
    """The error for a parameter ``name`` that is not one of ``choices`` (``also``: what else it may be).

    >>> _not_one_of("sign", ("none", "first_positive"), "up", " or None")
    PurePCAError("sign must be one of 'none', 'first_positive' or None; got 'up'")
    """
    return PurePCAError(f"{name} must be one of {', '.join(map(repr, choices))}{also}; got {got!r}")


def _show(value: Any, width: int = 60) -> str:
    """A short repr for messages, at most ``width`` characters, naming an int too long to print by its
    number of digits (repr raises ValueError past 4,300 digits on Python 3.11+).

    >>> _show("x" * 70, 10), _show(-(10 ** 5000))
    ("'xxxxxx...", 'an int of 5001 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"an int of {_digits(value)} digits"
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def _digits(value: int) -> int:
    """The number of decimal digits of an int, without converting it to a string.

    >>> _digits(10 ** 5000), _digits(10 ** 5000 - 1), _digits(0)
    (5001, 5000, 1)
    """
    n = abs(value)
    if n < 10:
        return 1
    guess = int(n.bit_length() * 0.30102999566398120) + 1
    return guess if n >= 10 ** (guess - 1) else guess - 1
