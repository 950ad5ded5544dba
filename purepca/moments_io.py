"""A :class:`~purepca.Moments` as compact, versioned bytes (the partial state a
distributed job ships between workers).

Layout, little-endian, version 1::

    b"PPCM"  u8 version  u8 mode (0 float, 1 exact)  u32 d  u64 n
    float mode:  d doubles (shift), d doubles (shifted mean),
                 d(d+1)/2 doubles (M2, upper triangle row by row)
    exact mode:  u32 digits (0: float context, else the decimal context's),
                 then d exponents, d references, d sums S1 and the d(d+1)/2
                 sums S2 (upper triangle), each integer as its byte length
                 (LEB128) and that many bytes, two's complement

So float mode takes ``18 + 8·(d(d+1)/2 + 2d)`` bytes (11,018 at d = 50);
exact mode the integers' own lengths: an S2 entry about twice the bits of its
columns' spread in units of their finest binary digit, plus log2(n) bits
(13,708 bytes in all at d = 50 on the benchmark's data), more for a column
whose magnitudes span many binary orders.

This module is the format only: it reads and writes the fields of a state and
knows nothing of the class (so that :mod:`purepca.moments` can use it without
an import circle); :meth:`Moments.to_bytes <purepca.Moments.to_bytes>` and
:meth:`Moments.from_bytes <purepca.Moments.from_bytes>` are its doors.

>>> from purepca import Moments
>>> m = Moments.from_rows([[1.0, 2.0], [2.0, 5.0]])
>>> data = dump_moments(m)
>>> data[:4], len(data)
(b'PPCM', 74)
>>> state = load_state(data)
>>> state.n, state.mean
(2, [0.5, 1.5])
>>> Moments.from_bytes(data).covariance() == m.covariance()
True
"""

from __future__ import annotations

import math
import struct
from operator import mul
from typing import Any, Callable, List, NamedTuple, Optional, Tuple

from .errors import PurePCAError
from .exact import ExactSums

__all__ = ["MomentsState", "dump_moments", "load_state"]

#: The exponents a column's unit can have: a float is a multiple of 2**-1074 below 2**1024;
#: a decimal's exponent is bounded here so that rescaling a state stays small (10**(10**6)
#: is 3.3 million bits).
EXPONENTS = {2: (-1074, 1023), 10: (-10 ** 6, 10 ** 6)}
#: How far below zero the smallest eigenvalue of a state's correlation matrix may be
#: (times d) and still count as rounding: about 4,000 ulps.
SEMIDEFINITE_TOLERANCE = 2.0 ** -40

MAGIC = b"PPCM"
VERSION = 1
_HEAD = struct.Struct("<4sBBIQ")


def _put_int(out: bytearray, v: int) -> None:
    size = (v.bit_length() + 8) // 8 if v else 0
    k = size
    while True:
        byte = k & 0x7F
        k >>= 7
        out.append(byte | (0x80 if k else 0))
        if not k:
            break
    if size:
        out += v.to_bytes(size, "little", signed=True)


def _get_int(data: bytes, pos: int) -> Tuple[int, int]:
    size = shift = 0
    while True:
        if pos >= len(data):
            raise PurePCAError(f"moments bytes: truncated at byte {pos} (an integer's length)")
        byte = data[pos]
        pos += 1
        size |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            break
    if pos + size > len(data):
        raise PurePCAError(f"moments bytes: truncated at byte {pos} (an integer of {size} bytes)")
    return int.from_bytes(data[pos:pos + size], "little", signed=True), pos + size


class MomentsState(NamedTuple):
    """The fields of a state as the bytes hold them: float mode ``shift``,
    ``mean`` (of the shifted rows) and ``m2`` (full, symmetric); exact mode
    ``digits`` (0: the float context) and ``sums``."""

    exact: bool
    n: int
    d: int
    digits: int
    shift: List[float]
    mean: List[float]
    m2: List[List[float]]
    sums: Optional[ExactSums]


def dump_moments(m: Any) -> bytes:
    """The bytes of a :class:`~purepca.Moments` ``m`` (format above).

    >>> from purepca import Moments
    >>> len(dump_moments(Moments.from_rows([[1.0, 2.0, 3.0]], exact=True)))
    41
    """
    if not all(hasattr(m, a) for a in ("d", "n", "exact", "context", "_sums")):
        raise PurePCAError(f"dump_moments: m must be a purepca.Moments, got {m!r:.60}")
    d = m.d or 0
    head = _HEAD.pack(MAGIC, VERSION, 1 if m.exact else 0, d, m.n)
    if not m.exact:
        if m.context.name != "float":
            raise PurePCAError(f"to_bytes: float mode stores doubles, but this state is in {m.context.name}; "
                               "build it with exact=True to ship it exactly")
        if not m.n:
            return head
        tri = [v for i, row in enumerate(m._m2_rounded()) for v in row[i:]]
        return head + struct.pack(f"<{2 * d + len(tri)}d", *m._shift, *m._mean, *tri)
    out = bytearray(head)
    out += struct.pack("<I", getattr(m.context, "digits", 0))
    s = m._sums
    if s is not None and m.n:
        for v in (*s.exps, *s.refs, *s.s1, *(v for row in s.s2 for v in row)):
            _put_int(out, v)
    return bytes(out)


def load_state(data: bytes) -> MomentsState:
    """The fields of a state from :func:`dump_moments`'s bytes, to the same bits
    (:meth:`Moments.from_bytes <purepca.Moments.from_bytes>` builds the object).

    >>> load_state(b"nope")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: moments bytes: too short for the header (4 bytes, need 18)
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise PurePCAError(f"from_bytes: expected bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) < _HEAD.size:
        raise PurePCAError(f"moments bytes: too short for the header ({len(data)} bytes, need {_HEAD.size})")
    magic, version, mode, d, n = _HEAD.unpack_from(data)
    if magic != MAGIC:
        raise PurePCAError(f"moments bytes: bad magic {magic!r} (expected {MAGIC!r}): not purepca moments")
    if version != VERSION:
        raise PurePCAError(f"moments bytes: version {version} is not supported (this purepca reads {VERSION})")
    if mode not in (0, 1):
        raise PurePCAError(f"moments bytes: unknown mode {mode} (0 float, 1 exact)")
    if n and not d:
        raise PurePCAError(f"moments bytes: d = 0 with n = {n}: a state of rows with no columns")
    if d and not n:
        raise PurePCAError(f"moments bytes: d = {d} with n = 0: an empty state has no columns (d = 0)")
    tri = d * (d + 1) // 2
    pos = _HEAD.size
    if mode == 0:
        want = pos + (8 * (2 * d + tri) if n else 0)
        if len(data) != want:
            raise PurePCAError(f"moments bytes: {len(data)} bytes, expected {want} for d = {d}")
        if not n:
            return MomentsState(False, 0, d, 0, [], [], [], None)
        vals = struct.unpack_from(f"<{2 * d + tri}d", data, pos)
        M2 = [[0.0] * d for _ in range(d)]
        k = 2 * d
        for i in range(d):
            for j in range(i, d):
                M2[i][j] = M2[j][i] = vals[k]
                k += 1
        state = MomentsState(False, n, d, 0, list(vals[:d]), list(vals[d:2 * d]), M2, None)
        _check_float_state(state)
        return state
    if len(data) < pos + 4:
        raise PurePCAError(f"moments bytes: truncated at byte {pos} (the context)")
    (digits,) = struct.unpack_from("<I", data, pos)
    pos += 4
    if digits:
        from .numeric import MAX_DIGITS

        if not 17 <= digits <= MAX_DIGITS:
            raise PurePCAError(f"moments bytes: the context's digits are {digits}, expected 0 (float) "
                               f"or 17 to {MAX_DIGITS:,} (a decimal context)")
    if n and len(data) - pos < 3 * d + tri:
        raise PurePCAError(f"moments bytes: {len(data) - pos} bytes cannot hold the {3 * d + tri} integers "
                           f"of d = {d} (at least one byte each)")
    if not n:
        if pos != len(data):
            raise PurePCAError(f"moments bytes: {len(data) - pos} bytes after an empty state")
        return MomentsState(True, 0, d, digits, [], [], [], None)
    ints: List[int] = []
    for _ in range(3 * d + tri):
        v, pos = _get_int(data, pos)
        ints.append(v)
    if pos != len(data):
        raise PurePCAError(f"moments bytes: {len(data) - pos} bytes left over after the state")
    s2: List[List[int]] = []
    k = 3 * d
    for i in range(d):
        s2.append(ints[k:k + d - i])
        k += d - i
    sums = ExactSums(n, 10 if digits else 2, ints[:d], ints[d:2 * d], ints[2 * d:3 * d], s2)
    _check_exact_state(sums, digits)
    return MomentsState(True, n, d, digits, [], [], [], sums)


def _check_float_state(state: MomentsState) -> None:
    """Refuse float fields no rows could give: not finite, a mean beyond the float
    range, a negative sum of squares, or M2 not positive semidefinite within rounding."""
    for name, values in (("shift", state.shift), ("mean", state.mean)):
        for j, v in enumerate(values):
            if not math.isfinite(v):
                raise PurePCAError(f"moments bytes: {name}[{j}] is {v!r}, expected a finite float")
    for j, (k, m) in enumerate(zip(state.shift, state.mean)):
        if not math.isfinite(k + m):
            raise PurePCAError(f"moments bytes: the mean of column {j} (shift[{j}] + mean[{j}] = {k!r} + {m!r}) "
                               "is beyond the float range")
    M2 = state.m2
    for i, row in enumerate(M2):
        for j in range(i, len(row)):
            if not math.isfinite(row[j]):
                raise PurePCAError(f"moments bytes: M2[{i}][{j}] is {row[j]!r}, expected a finite float")
    for j in range(state.d):
        if M2[j][j] < 0:
            raise PurePCAError(f"moments bytes: M2[{j}][{j}] = {M2[j][j]!r}, a sum of squares, is negative")
    roots = [math.sqrt(M2[j][j]) for j in range(state.d)]
    _check_semidefinite(state.d, lambda i, j: M2[i][j] / roots[i] / roots[j] if roots[i] and roots[j] else M2[i][j],
                        [r > 0 for r in roots], "M2")


def _check_exact_state(sums: ExactSums, digits: int) -> None:
    """Refuse exact fields no rows could give: a unit's exponent out of range, a
    negative sum of squares, or a covariance that is not positive semidefinite."""
    low, high = EXPONENTS[sums.base]
    for j, e in enumerate(sums.exps):
        if not low <= e <= high:
            raise PurePCAError(f"moments bytes: the exponent of column {j}'s unit is {e}, expected {low} to {high} "
                               f"({'a float' if sums.base == 2 else 'a decimal'} column)")
    n, s1 = sums.n, sums.s1
    # C = n·S2 - S1·S1ᵀ is n² times the scatter about the mean, in units base**(e_i + e_j): an exact Gram matrix
    C = [[0] * sums.d for _ in range(sums.d)]
    for i, row in enumerate(sums.s2):
        for k, v in enumerate(row):
            C[i][i + k] = C[i + k][i] = n * v - s1[i] * s1[i + k]
    for j in range(sums.d):
        if C[j][j] < 0:
            raise PurePCAError(f"moments bytes: S2[{j}][{j}] = {sums.s2[j][0]} with S1[{j}] = {s1[j]} and n = {n} "
                               "is a negative sum of squares about the mean")
    for i in range(sums.d):
        for j in range(i + 1, sums.d):
            if C[i][j] * C[i][j] > C[i][i] * C[j][j]:
                raise PurePCAError(f"moments bytes: S2 is not positive semidefinite: columns {i} and {j} correlate "
                                   "beyond 1 (Cauchy-Schwarz)")
    roots = [math.isqrt(C[j][j]) or 1 for j in range(sums.d)]

    def ratio(i: int, j: int) -> float:
        return C[i][j] / (roots[i] * roots[j])  # int / int: no overflow, |ratio| <= about 1
    _check_semidefinite(sums.d, ratio, [C[j][j] > 0 for j in range(sums.d)], "S2")


def _check_semidefinite(d: int, entry: Callable[[int, int], float], spread: List[bool], field: str) -> None:
    """Refuse a matrix that is not positive semidefinite within rounding: with
    ``entry(i, j)`` its correlations (columns with ``spread`` False stand
    alone and must not correlate with any other), the Cholesky factorisation
    of ``R + d·tol·I`` must find a positive pivot in every column; it does
    exactly when the smallest eigenvalue of ``R`` is above ``-d·tol``."""
    cols = [j for j in range(d) if spread[j]]
    for j in range(d):
        if not spread[j]:
            for i in range(d):
                if i != j and entry(i, j):
                    raise PurePCAError(f"moments bytes: {field} is not positive semidefinite: column {j} has no "
                                       f"spread but {field}[{min(i, j)}][{max(i, j)}] is not zero")
    shift = len(cols) * SEMIDEFINITE_TOLERANCE
    L: List[List[float]] = []
    for a, j in enumerate(cols):
        row: List[float] = []
        for b in range(a):
            v = entry(cols[a], cols[b]) - sum(map(mul, row, L[b]))
            row.append(v / L[b][b])
        pivot = entry(j, j) + shift - sum(map(mul, row, row))
        if not pivot > 0:  # nan too
            raise PurePCAError(f"moments bytes: {field} is not positive semidefinite (its correlation matrix has an "
                               f"eigenvalue below -{shift:.3g}; column {j}): not the moments of any rows")
        row.append(math.sqrt(pivot))
        L.append(row)
