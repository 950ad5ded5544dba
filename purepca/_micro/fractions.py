"""``fractions`` for MicroPython: named, not implemented.  The exact mode
(``Moments(exact=True)``, exact references) needs CPython or PyPy; asking for it
on MicroPython is a :class:`~purepca.errors.PurePCAError` that says so.

>>> Fraction(1, 3)
Traceback (most recent call last):
...
purepca.errors.PurePCAError: exact fractions are not available on this interpreter (MicroPython): use the float path, or
CPython/PyPy for the exact mode
"""

from __future__ import annotations

from typing import Any


class Fraction:
    """Stands for ``fractions.Fraction`` in ``isinstance`` tests; building one raises."""

    def __init__(self, *args: Any) -> None:
        from ..errors import PurePCAError

        raise PurePCAError("exact fractions are not available on this interpreter (MicroPython): "
                           "use the float path, or CPython/PyPy for the exact mode")
