"""``math`` for MicroPython: its own functions, and correctly rounded
``fsum`` (CPython's algorithm: Shewchuk's partials with the half-even
correction), ``hypot`` and ``dist`` (the exact sum of squares in integers, one
rounding of its square root), ``log1p`` and ``nextafter``, which it lacks.
``sumprod`` is left out on purpose: purepca uses it only where present, and
CPython <= 3.11 has it not either (the same bits as there).

Correctly rounded, they give the bits of CPython's ``fsum`` and (from 3.10 on,
whose ``hypot`` is correctly rounded too) ``hypot``:

>>> import math as _m, random
>>> from decimal import Decimal, localcontext
>>> r = random.Random(5)
>>> xs = [r.gauss(0, 1) * 10 ** r.randint(-20, 20) for _ in range(300)]
>>> fsum(xs) == _m.fsum(xs), fsum([1e100, 1.0, -1e100, 1e-100]) == _m.fsum([1e100, 1.0, -1e100, 1e-100])
(True, True)
>>> def exact_hypot(v):
...     with localcontext() as c:
...         c.prec = 80
...         return float(sum(Decimal(x) * Decimal(x) for x in v).sqrt())
>>> all(hypot(*xs[i:i + 5]) == exact_hypot(xs[i:i + 5]) for i in range(0, 300, 5))
True
>>> dist([1.0, 2.0], [4.0, 6.0]), nextafter(1.0, 2.0) == 1.0 + 2.0 ** -52
(5.0, True)
"""

from __future__ import annotations

import struct
from math import (  # noqa: F401  (re-exported: the bundle reads them from here)
    atan, atan2, ceil, copysign, cos, e, erf, erfc, exp, fabs, floor, fmod, frexp, inf, isfinite,
    isinf, isnan, ldexp, lgamma, log, log2, log10, nan, pi, sin, sqrt, tan, tanh,
)
from typing import Iterable, Sequence

from .sys import float_info


def fsum(values: Iterable[float]) -> float:
    """The correctly rounded sum of ``values`` (CPython's ``math.fsum``, statement by statement)."""
    partials: list[float] = []
    special_sum = 0.0
    inf_sum = 0.0
    for x in values:
        x = float(x)
        xsave = x
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        del partials[i:]
        if x != 0.0:
            if not isfinite(x):
                if isfinite(xsave):
                    raise OverflowError("intermediate overflow in fsum")
                if isinf(xsave):
                    inf_sum += xsave
                special_sum += xsave
                del partials[:]
            else:
                partials.append(x)
    if special_sum != 0.0:
        if isnan(inf_sum):
            raise ValueError("-inf + inf in fsum")
        return special_sum
    hi = 0.0
    n = len(partials)
    if n:
        n -= 1
        hi = partials[n]
        lo = 0.0
        while n > 0:
            x = hi
            n -= 1
            y = partials[n]
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                break
        if n > 0 and ((lo < 0.0 and partials[n - 1] < 0.0) or (lo > 0.0 and partials[n - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            if y == x - hi:
                hi = x
    return hi


def _bit_length(n: int) -> int:
    """``n.bit_length()`` for ``n >= 0`` (MicroPython's int has no such method)."""
    if n == 0:
        return 0
    digits = "%x" % n
    return 4 * (len(digits) - 1) + (0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)[int(digits[0], 16)]


def _isqrt(n: int) -> int:
    """``floor(sqrt(n))`` for an integer ``n >= 0`` (Newton's method in integers)."""
    if n < 2:
        return n
    x = 1 << ((_bit_length(n) + 1) // 2)
    while True:
        y = (x + n // x) // 2
        if y >= x:
            return x
        x = y


def hypot(*coordinates: float) -> float:
    """``sqrt(sum(x*x))`` correctly rounded: the squares summed exactly as integers."""
    xs = [abs(float(c)) for c in coordinates]
    if any(isinf(x) for x in xs):
        return inf
    if any(isnan(x) for x in xs):
        return nan
    nonzero = [x for x in xs if x != 0.0]
    if not nonzero:
        return 0.0
    if len(nonzero) == 1:
        return nonzero[0]
    p = float_info.mant_dig
    parts = [frexp(x) for x in nonzero]  # x = m * 2**k, 0.5 <= m < 1
    low = min(k for _, k in parts) - p
    total = 0
    for m, k in parts:
        total += (int(ldexp(m, p)) << (k - p - low)) ** 2
    # sqrt(total * 2**(2*low)) = sqrt(total) * 2**low
    shift = max(0, p + 3 - _bit_length(total) // 2)
    scaled = total << (2 * shift)
    root = _isqrt(scaled)
    sticky = root * root != scaled
    drop = _bit_length(root) - p
    q = root >> drop
    rem = root - (q << drop)
    half = 1 << (drop - 1)
    if rem > half or (rem == half and (sticky or q & 1)):
        q += 1
    return ldexp(float(q), drop - shift + low)


def dist(p: Sequence[float], q: Sequence[float]) -> float:
    """The Euclidean distance of two points (CPython's ``math.dist``: rounded differences, then ``hypot``)."""
    if len(p) != len(q):
        raise ValueError("both points must have the same number of dimensions")
    return hypot(*[float(a) - float(b) for a, b in zip(p, q)])


def log1p(x: float) -> float:
    """``log(1 + x)``, accurate for small ``x`` (Goldberg's correction: ``log(u)·x/(u - 1)``, ``u = 1 + x``)."""
    u = 1.0 + x
    if u == 1.0:
        return x
    if isinf(u):
        return u
    return log(u) * x / (u - 1.0)


def nextafter(x: float, y: float) -> float:
    """The float next to ``x`` in the direction of ``y`` (from the bit pattern)."""
    if isnan(x) or isnan(y):
        return nan
    if x == y:
        return y
    if x == 0.0:
        return copysign(ldexp(1.0, float_info.min_exp - float_info.mant_dig), y)
    code = "<d" if float_info.mant_dig > 24 else "<f"
    icode = "<q" if code == "<d" else "<i"
    bits = struct.unpack(icode, struct.pack(code, x))[0]
    bits += 1 if (y > x) == (x > 0.0) else -1
    result: float = struct.unpack(code, struct.pack(icode, bits))[0]
    return result
