"""``sys`` for MicroPython: the names the bundle reads, and ``float_info``
*measured* at import from the float type itself (MicroPython has no
``sys.float_info``; most microcontroller ports have single-precision floats,
the unix and WebAssembly ports doubles), so every tolerance that reads
``sys.float_info.epsilon`` follows the float the device computes in.

>>> import sys as _real
>>> (float_info.epsilon, float_info.mant_dig, float_info.max, float_info.min) == (
...     _real.float_info.epsilon, _real.float_info.mant_dig, _real.float_info.max, _real.float_info.min)
True
"""

from __future__ import annotations

import math
from sys import implementation, stderr, stdout

__all__ = ["float_info", "implementation", "stderr", "stdout"]


class _FloatInfo:
    """The float's parameters, found by arithmetic on it (radix 2, IEEE range)."""

    def __init__(self) -> None:
        one, eps, bits = 1.0, 1.0, 1
        while one + eps / 2 != one:
            eps /= 2
            bits += 1
        x, emax = 1.0, 0
        while not math.isinf(x * 2):
            x *= 2
            emax += 1
        self.radix = 2
        self.epsilon = eps
        self.mant_dig = bits
        self.max_exp = emax + 1
        self.min_exp = 3 - self.max_exp
        self.max = math.ldexp(2 - eps, emax)
        self.min = math.ldexp(1.0, self.min_exp - 1)
        self.dig = int((bits - 1) * math.log10(2))

    def __repr__(self) -> str:
        return f"float_info(epsilon={self.epsilon!r}, mant_dig={self.mant_dig}, max={self.max!r}, min={self.min!r})"


float_info = _FloatInfo()
