"""The binary32 context: every operation rounded to IEEE single precision, checked operation by
operation against numpy's float32 (where numpy is installed) and against an exact rounding of
Fractions written here; Jacobi in binary32 reaches about 7 digits, in binary64 about 16,
measured against a 50-digit run."""

from __future__ import annotations

import math
import random
import struct
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import pytest

from purepca import PurePCAError
from purepca.linalg import jacobi_eigh
from purepca.numeric import BINARY32, FLOAT, Binary32, get_context

#: The answers here depend on the interpreter or the mode: every stage of .ci/test runs them (conftest.py).
pytestmark = pytest.mark.interpreter

N = 10_000


def _bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0] if math.isfinite(x) else hash(x)


def _single_of_bits(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b))[0]


def exact_single(q: Fraction) -> float:
    """``q`` rounded to binary32 (to nearest, ties to even) with Fractions only: the reference."""
    if q == 0:
        return 0.0
    sign, a = (-1 if q < 0 else 1), abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    quantum = Fraction(2) ** (max(e, -126) - 23)
    m, rest = divmod(a, quantum)
    if rest * 2 > quantum or (rest * 2 == quantum and m % 2 == 1):
        m += 1
    value = m * quantum
    if value >= Fraction(2) ** 128:
        return sign * math.inf
    return sign * float(value)


def _operands(rng: random.Random) -> list[tuple[float, float]]:
    """N pairs of binary32 numbers: random encodings over the whole range (subnormals, near
    overflow), pairs of close exponents (real cancellation and rounding), and exact ties."""
    pairs: list[tuple[float, float]] = []
    while len(pairs) < N // 4:  # any finite encodings
        a, b = (_single_of_bits(rng.getrandbits(32)) for _ in range(2))
        if math.isfinite(a) and math.isfinite(b):
            pairs.append((a, b))
    for _ in range(N // 4):  # close exponents, also in the subnormal range
        e = rng.randint(-149, 127)
        a = exact_single(Fraction(rng.random()) * Fraction(2) ** e)
        b = exact_single(Fraction(rng.uniform(-2, 2)) * Fraction(2) ** max(-149, e + rng.randint(-30, 0)))
        pairs.append((a, b))
    for _ in range(N // 4):  # ties of the sum: x in [1, 2) plus an odd multiple of half its ulp
        x = 1 + rng.getrandbits(23) * 2.0 ** -23
        scale = 2.0 ** rng.randint(-100, 100)
        pairs.append((x * scale, rng.choice([1, 3, 5, -1, -3]) * 2.0 ** -24 * scale))
    while len(pairs) < N:  # ties of the product: (1 + m/2^12)(1 + n/2^12) with m n odd
        m, n = rng.randrange(1, 2 ** 11, 2), rng.randrange(1, 2 ** 11, 2)
        scale = 2.0 ** rng.randint(-70, 60)
        pairs.append(((1 + m * 2.0 ** -12) * scale, (1 + n * 2.0 ** -12)))
    return pairs


OPERATIONS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPERATIONS))
def test_binary32_operations_are_correctly_rounded(name: str) -> None:
    op = OPERATIONS[name]
    for a, b in _operands(random.Random(34)):
        if name == "/" and b == 0:
            continue
        x, y = BINARY32.convert(a), BINARY32.convert(b)
        got = op(x, y)
        exact = op(Fraction(a), Fraction(b))
        want = exact_single(exact) if exact else op(a, b)  # an exact zero: its sign as IEEE gives it
        assert type(got) is Binary32 and _bits(got) == _bits(want), (a, name, b, got, want)


@pytest.mark.slow
def test_binary32_sqrt_is_correctly_rounded() -> None:
    rng = random.Random(35)
    for a, _ in _operands(rng):
        a = abs(a)
        got = BINARY32.sqrt(BINARY32.convert(a))
        # the reference: the largest binary32 r with r^2 <= a, or the next one, whichever is nearer
        r = exact_single(Fraction(math.sqrt(a)))
        candidates = {r, math.nextafter(r, 0.0), math.nextafter(r, math.inf)}
        candidates = {exact_single(Fraction(c)) for c in candidates}
        best = min(candidates, key=lambda c: (abs(Fraction(c) ** 2 - Fraction(a)), _bits(c) & 1))
        # nearest in the root, not in the square: compare |c - sqrt(a)| exactly through squares of midpoints
        ordered = sorted(candidates)
        for lo, hi in zip(ordered, ordered[1:]):
            mid = (Fraction(lo) + Fraction(hi)) / 2
            if mid * mid < a:
                best = hi if best == lo else best
        assert _bits(got) == _bits(best), (a, got, best)


@pytest.mark.budget(2)  # 0.6-0.9 s measured on a busy 2-core machine: 1 s left no room for its noise
def test_binary32_conversion_in_is_correctly_rounded() -> None:
    rng = random.Random(36)
    values: list[Any] = []
    for _ in range(N // 2):
        values.append(math.ldexp(rng.random(), rng.randint(-160, 128)) * rng.choice([1, -1]))
        x = 1 + rng.getrandbits(23) * 2.0 ** -23  # exact ties between two binary32 numbers
        values.append((x + 2.0 ** -24) * 2.0 ** rng.randint(-126, 127))
    values += [2 ** 24 + 1, 2 ** 24 + 3, Fraction(1, 3), Decimal("0.1"), 2.0 ** -150, 3 * 2.0 ** -150]
    for v in values:
        want = exact_single(Fraction(v))
        if math.isinf(want):
            with pytest.raises(PurePCAError, match=r"binary32: .* is beyond the single-precision range"):
                BINARY32.convert(v)
            continue
        assert _bits(BINARY32.convert(v)) == _bits(want), v


def test_binary32_sum_and_dot_are_the_exact_result_rounded_once() -> None:
    rng = random.Random(37)
    pairs = _operands(rng)
    for k in range(0, 2000, 5):
        a = [BINARY32.convert(x) for x, _ in pairs[k:k + 5]]
        b = [BINARY32.convert(y) for _, y in pairs[k + 2500:k + 2505]]
        exact_sum = sum(map(Fraction, a), Fraction(0))
        assert _bits(BINARY32.sum(a)) == _bits(exact_single(exact_sum))
        exact_dot = sum((Fraction(x) * Fraction(y) for x, y in zip(a, b)), Fraction(0))
        assert _bits(BINARY32.dot(a, b)) == _bits(exact_single(exact_dot))


def test_binary32_overflows_to_inf_and_underflows_gradually() -> None:
    big = BINARY32.convert(3e38)
    assert big * 2 == math.inf and -big * 2 == -math.inf and BINARY32.ldexp(big, 10) == math.inf
    smallest = BINARY32.convert(2.0 ** -149)
    assert smallest / 2 == 0.0 and smallest * 3 / 2 == 2 * smallest  # 1.5 ulp: a tie, to even
    assert BINARY32.convert(2.0 ** -126) / 4 == 2.0 ** -128  # subnormal, exact
    assert BINARY32.eps == 2.0 ** -23 and BINARY32.bits == 24 and get_context(BINARY32) is BINARY32


@pytest.mark.budget(2)  # 0.6-0.9 s measured on a busy 2-core machine: 1 s left no room for its noise
def test_binary32_matches_numpy_float32() -> None:
    np = pytest.importorskip("numpy")
    f32 = np.float32
    with np.errstate(all="ignore"):
        for a, b in _operands(random.Random(38)):
            x, y = BINARY32.convert(a), BINARY32.convert(b)
            for name, op in OPERATIONS.items():
                if name == "/" and b == 0:
                    continue
                want = float(op(f32(a), f32(b)))
                got = op(x, y)
                assert _bits(got) == _bits(want), (a, name, b, got, want)
            assert _bits(BINARY32.sqrt(abs(x))) == _bits(float(np.sqrt(f32(abs(a)))))
            d = a * 1.000000001 if math.isfinite(a * 1.000000001) else a  # a double between singles
            if math.isfinite(float(f32(d))):
                assert _bits(BINARY32.convert(d)) == _bits(float(f32(d))), d


M5 = [[4.0, 1.0, 0.5, 0.2, 0.1], [1.0, 3.0, 0.3, 0.1, 0.2], [0.5, 0.3, 2.0, 0.4, 0.1],
      [0.2, 0.1, 0.4, 1.0, 0.3], [0.1, 0.2, 0.1, 0.3, 0.5]]


def _digits(values: list[Any], truth: list[Any]) -> float:
    worst = max(abs(Fraction(v) - Fraction(t)) / abs(Fraction(t)) for v, t in zip(values, truth))
    return -math.log10(worst) if worst else 60.0


def test_binary32_jacobi_reaches_about_seven_digits() -> None:
    single = [[BINARY32.convert(x) for x in row] for row in M5]  # the matrix as binary32 holds it
    truth = jacobi_eigh([[Decimal(float(x)) for x in row] for row in single], context=get_context(50)).values
    r32 = jacobi_eigh(single, context=BINARY32)
    r64 = jacobi_eigh([[float(x) for x in row] for row in single], context=FLOAT)
    d32, d64 = _digits(r32.values, truth), _digits(r64.values, truth)
    assert all(type(v) is Binary32 for v in r32.values)
    assert 6.3 < d32 < 8.0, d32  # 2**-24 is 6e-8: about 7 digits
    assert d64 > 14.5, d64
