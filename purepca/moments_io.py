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

import struct
from typing import Any, List, NamedTuple, Optional, Tuple

from .errors import PurePCAError
from .exact import ExactSums

__all__ = ["MomentsState", "dump_moments", "load_state"]

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
        return MomentsState(False, n, d, 0, list(vals[:d]), list(vals[d:2 * d]), M2, None)
    if len(data) < pos + 4:
        raise PurePCAError(f"moments bytes: truncated at byte {pos} (the context)")
    (digits,) = struct.unpack_from("<I", data, pos)
    pos += 4
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
    return MomentsState(True, n, d, digits, [], [], [], sums)
