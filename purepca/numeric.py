"""Number contexts: where the arithmetic, and so the precision, lives.

Every algorithm in purepca takes a *context* and does its arithmetic through
it, so one piece of code gives a fast float answer or a 50-digit reference:

=====================  ==================================================
``FLOAT``              IEEE doubles; sums with :func:`math.fsum`, dot
                       products with :func:`math.sumprod` when the
                       interpreter has it (3.12+), Dot2 on PyPy, else
                       ``fsum`` of products
``DecimalContext(N)``  :class:`decimal.Decimal` at ``N`` significant digits
``get_context(x)``     ``None`` -> ``FLOAT``, an int -> ``DecimalContext(x)``,
                       a context -> itself
=====================  ==================================================

Rules the algorithms follow so that both contexts work:

* numbers enter through ``ctx.convert`` and leave through ``ctx.to_float``;
* constants come from the context (``ctx.zero``, ``ctx.one``, ``ctx.two``,
  ``ctx.half``): a float literal mixed with a ``Decimal`` raises;
* the arithmetic runs inside ``with ctx.local():`` so that ``Decimal``
  operators use this context's precision without touching the caller's.

>>> FLOAT.sum([1e100, 1.0, -1e100])
1.0
>>> ctx = DecimalContext(30)
>>> with ctx.local():
...     print(ctx.sqrt(ctx.two))
1.41421356237309504880168872421
"""

from __future__ import annotations

import contextlib
import decimal
import itertools
import math
import operator
import struct
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from .errors import PurePCAError

__all__ = ["FLOAT", "Context", "DecimalContext", "FloatContext", "GramWork", "PolarRows", "Scalar", "get_context"]

#: A scalar of the active context: ``float`` under ``FLOAT``, ``Decimal`` under
#: a ``DecimalContext``.  Spelled ``Any`` because the algorithms are generic over
#: both and Python's type system has no "number of this context" type.
Scalar = Any

#: The interpreter, for the paths written for it: C loops on CPython, loops the JIT compiles on PyPy.
_CPYTHON = sys.implementation.name == "cpython"
_PYPY = sys.implementation.name == "pypy"
#: ``math.sumprod`` (Python 3.12+: a dot product summed in triple length), or None.
_SUMPROD: Any = getattr(math, "sumprod", None)


class Context:
    """The arithmetic an algorithm needs, bound to one kind of number.

    Subclasses set ``name``, ``eps`` (the spacing of numbers next to one, the
    LAPACK "precision"), ``zero``, ``one``, ``two`` and ``half``.
    """

    name: str = "abstract"
    eps: Scalar
    zero: Scalar
    one: Scalar
    two: Scalar
    half: Scalar
    #: Whether squares can overflow or underflow, so that algorithms should
    #: rescale by powers of two first (only floats can).
    needs_scaling: bool = False

    def convert(self, x: Any) -> Scalar:  # pragma: no cover - abstract
        """Return ``x`` as a number of this context."""
        raise NotImplementedError

    def to_float(self, x: Scalar) -> float:
        """Return ``x`` as the nearest float.

        >>> DecimalContext(20).to_float(Decimal("0.1"))
        0.1
        """
        return float(x)

    def sqrt(self, x: Scalar) -> Scalar:  # pragma: no cover - abstract
        """Square root of ``x >= 0``."""
        raise NotImplementedError

    def sum(self, values: Iterable[Scalar]) -> Scalar:  # pragma: no cover
        """Sum with as little rounding error as the context allows."""
        raise NotImplementedError

    def ln(self, x: Scalar) -> Scalar:  # pragma: no cover - abstract
        """Natural logarithm of ``x > 0``."""
        raise NotImplementedError

    def exp(self, x: Scalar) -> Scalar:  # pragma: no cover - abstract
        """``e**x``."""
        raise NotImplementedError

    def tanh(self, x: Scalar) -> Scalar:
        """Hyperbolic tangent, from :meth:`exp` (``1 - 2/(e^(2|x|) + 1)``, stable for large |x|).

        >>> DecimalContext(20).tanh(Decimal(0))
        Decimal('0')
        """
        with self.local():
            ax = abs(x)
            if ax > self.convert(2 * getattr(self, "digits", 17) + 10):
                t = self.one  # 1 - 2/(e^(2|x|) + 1) rounds to 1, and e^(2|x|) may overflow
            else:
                t = self.one - self.two / (self.exp(self.two * ax) + self.one)
            return -t if x < 0 else t

    def dot(self, a: Sequence[Scalar], b: Sequence[Scalar]) -> Scalar:  # pragma: no cover
        """Inner product ``sum(a[i] * b[i])`` with a compensated sum."""
        raise NotImplementedError

    def pi(self) -> Scalar:  # pragma: no cover - abstract
        """π in this context."""
        raise NotImplementedError

    def dots(self, vectors: Iterable[Sequence[Scalar]], v: Sequence[Scalar]) -> list[Scalar]:
        """``[u·v for u in vectors]``: a matrix-vector product when the vectors are rows.

        >>> DecimalContext(20).dots([[1, 2], [3, 4]], [1, 1])
        [Decimal('3'), Decimal('7')]
        """
        dot = self.dot
        return [dot(u, v) for u in vectors]

    def gram(self, vectors: Sequence[Sequence[Scalar]]) -> list[list[Scalar]]:
        """All inner products ``G[i][j] = vectors[i]·vectors[j]`` (a symmetric
        matrix), each a compensated dot product.

        >>> FLOAT.gram([[1.0, 2.0], [3.0, 4.0]])
        [[5.0, 11.0], [11.0, 25.0]]
        """
        return GramWork(vectors, self).compute()

    def fast_gram(self, vectors: Sequence[Sequence[Scalar]]) -> list[list[Scalar]]:
        """The Gram matrix by the fastest method whose error is below what an
        eigensolver adds anyway: each entry within about ``32·eps·‖v_i‖·‖v_j‖``
        (see :class:`GramWork`).  Equal to :meth:`gram` where compensated
        dot products are fast themselves (``math.sumprod``, PyPy's Dot2,
        decimals).

        >>> [[round(x, 12) for x in row] for row in FLOAT.fast_gram([[1.0, 2.0], [3.0, 4.0]])]
        [[5.0, 11.0], [11.0, 25.0]]
        """
        return GramWork(vectors, self, fast=True).compute()

    def local(self) -> contextlib.AbstractContextManager[Any]:
        """A ``with`` block in which operators on this context's numbers are exact-as-promised."""
        return contextlib.nullcontext()

    def scale_exponent(self, largest: Scalar) -> int:
        """Power-of-two exponent ``e`` so that ``largest * 2**-e`` is near one.

        Returns 0 when no rescaling is needed: when ``largest`` squared neither
        overflows nor underflows into subnormals, or when the context has an
        unbounded exponent range.
        """
        return 0

    def ldexp(self, x: Scalar, e: int) -> Scalar:
        """``x * 2**e``."""
        if e == 0:
            return x
        return x * (self.two ** e) if e > 0 else x / (self.two ** (-e))

    def norm(self, v: Sequence[Scalar]) -> Scalar:
        """Euclidean norm of ``v``, safe against overflow of the squares.

        >>> DecimalContext(20).norm([3, 4])
        Decimal('5')
        """
        largest = max((abs(x) for x in v), default=self.zero)
        e = self.scale_exponent(largest)
        if e:
            w = [self.ldexp(x, -e) for x in v]
            return self.ldexp(self.sqrt(self.dot(w, w)), e)
        return self.sqrt(self.dot(v, v))

    def __repr__(self) -> str:
        return f"<purepca number context {self.name}>"


def _fsum_dot(a: Sequence[float], b: Sequence[float]) -> float:
    """Exactly rounded sum of the rounded products (CPython < 3.12)."""
    return math.fsum(map(operator.mul, a, b))


_SPLIT = 134217729.0  # 2**27 + 1, Dekker's splitting constant for doubles


def _dot2(a: Sequence[float], b: Sequence[float]) -> float:
    """Ogita–Rump–Oishi ``Dot2``: the inner product as if computed in twice the
    working precision, then rounded (SIAM J. Sci. Comput. 26, 2005).

    Each product is split exactly into ``p + e`` with Dekker's TwoProduct
    (there is no fused multiply-add before Python 3.13) and each sum into
    ``s + e`` with Knuth's TwoSum; the error terms are summed on the side.
    A plain loop of float operations: PyPy's JIT compiles it to about ten
    times the speed of ``fsum(map(mul, a, b))``; CPython interprets it
    slowly, so it is used only on PyPy.  Should a split overflow (entries
    beyond about 1e300), the compensated fsum answers instead.

    >>> _dot2([1e16, 1.0, -1e16], [1.0, 1.0, 1.0])
    1.0
    """
    s = 0.0
    c = 0.0
    split = _SPLIT
    for x, y in zip(a, b):
        p = x * y
        t = split * x
        xh = t - (t - x)
        xl = x - xh
        t = split * y
        yh = t - (t - y)
        yl = y - yh
        ep = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl
        t = s + p
        z = t - s
        c += ((s - (t - z)) + (p - z)) + ep
        s = t
    result = s + c
    if result - result != 0.0:  # inf or nan: an overflow inside the splits
        return _fsum_dot(a, b)
    return result


_U = 2.0 ** -53  # the unit roundoff of a double


def _fsum_by_sum2(values: Iterable[float]) -> float:
    """``math.fsum(values)``, the exactly rounded sum, from one compensated loop that PyPy's JIT
    compiles (PyPy's fsum costs about ten times as much), certified, else fsum itself.

    Ogita, Rump and Oishi's Sum2 (SIAM J. Sci. Comput. 26, 2005, Prop. 4.5) leaves ``s + c``
    within ``γ²_{n-1}·Σ|x|`` of the exact sum S (``γ_k = k·u/(1 - k·u)``).  TwoSum splits
    ``s + c`` exactly into ``r + e`` (r its rounding).  Where ``|e|`` plus twice that bound stays
    strictly inside half the gap from r to its neighbour on e's side, S rounds to r as fsum's
    result does (ties included: a tie is never strictly inside).  Otherwise (a near tie, a zero
    sum, an overflow, NaN) fsum answers, with its own errors.

    >>> _fsum_by_sum2([0.1] * 10) == math.fsum([0.1] * 10), _fsum_by_sum2([1e100, 1.0, -1e100])
    (True, 1.0)
    """
    xs = values if type(values) is list else list(values)
    n = len(xs)
    if not 1 < n < 2 ** 40:
        return math.fsum(xs)
    s = 0.0
    c = 0.0
    a = 0.0
    try:
        for x in xs:
            t = s + x
            z = t - s
            c += (s - (t - z)) + (x - z)
            s = t
            a += abs(x)
        r = s + c
    except (TypeError, OverflowError):  # Decimals, ints beyond the float range: fsum converts or says why
        return math.fsum(xs)
    # Only a float (not a Fraction or a numpy scalar the loop turned the sum into), finite and not
    # the largest float, whose neighbour away from zero is infinite: fsum decides an overflow.
    if type(r) is float and r != 0.0 and abs(r) < _LARGEST and a - a == 0.0:
        z = r - s
        e = (s - (r - z)) + (c - z)
        g = (n - 1) * _U / (1.0 - (n - 1) * _U)
        slack = (2.0 * g * g * a) * (1.0 + 8.0 * _U)
        gap = (math.nextafter(r, math.inf) - r) if e > 0.0 else (r - math.nextafter(r, -math.inf))
        if (abs(e) + slack) * (1.0 + 8.0 * _U) < 0.5 * gap:
            return r
    return math.fsum(xs)


_LARGEST = sys.float_info.max
_BLOCK = 32


def _blocked_dot(a: Sequence[float], b: Sequence[float]) -> float:
    """``a·b`` for a Gram matrix on PyPy (``GramWork(fast=True)``): plain sums of 32 products at a
    time, the blocks' sums added with Knuth's TwoSum.  Each block's sum is within
    ``γ_32·Σ_block|a_k·b_k|`` of its products' exact sum and the compensated total adds about
    ``u`` more, so the result is within ``(32 + 2)·u·Σ|a_k·b_k| <= 17·eps·‖a‖·‖b‖`` (products
    that underflow aside: the fit's columns are scaled so that their squares do not): below the
    polar Gram's ``32·eps·‖a‖·‖b‖`` and the eigensolver's backward error, at the cost of a plain
    product and sum (Dot2 costs four times as much under PyPy's JIT).  Should a product or a
    sum overflow, the exactly rounded ``fsum`` of the products answers.

    >>> _blocked_dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0]), _blocked_dot([0.5] * 100, [2.0] * 100)
    (0.0, 100.0)
    """
    n = len(a)
    s = 0.0
    c = 0.0
    # A block's 32 products summed left to right in one expression (0.0 + x, as from p = 0.0, so
    # that a block of -0.0 products gives +0.0): a loop with no branch in its body, which PyPy's
    # JIT compiles to straight code (a branch at the block's end, or an inner loop, costs it a
    # bridge that boxes the floats and re-enters the loop from its preamble 32 products apart).
    full = n - n % _BLOCK
    for k in range(0, full, _BLOCK):
        p = (0.0 + a[k] * b[k] + a[k + 1] * b[k + 1] + a[k + 2] * b[k + 2] + a[k + 3] * b[k + 3]
             + a[k + 4] * b[k + 4] + a[k + 5] * b[k + 5] + a[k + 6] * b[k + 6] + a[k + 7] * b[k + 7]
             + a[k + 8] * b[k + 8] + a[k + 9] * b[k + 9] + a[k + 10] * b[k + 10] + a[k + 11] * b[k + 11]
             + a[k + 12] * b[k + 12] + a[k + 13] * b[k + 13] + a[k + 14] * b[k + 14] + a[k + 15] * b[k + 15]
             + a[k + 16] * b[k + 16] + a[k + 17] * b[k + 17] + a[k + 18] * b[k + 18] + a[k + 19] * b[k + 19]
             + a[k + 20] * b[k + 20] + a[k + 21] * b[k + 21] + a[k + 22] * b[k + 22] + a[k + 23] * b[k + 23]
             + a[k + 24] * b[k + 24] + a[k + 25] * b[k + 25] + a[k + 26] * b[k + 26] + a[k + 27] * b[k + 27]
             + a[k + 28] * b[k + 28] + a[k + 29] * b[k + 29] + a[k + 30] * b[k + 30] + a[k + 31] * b[k + 31])
        t = s + p
        z = t - s
        c += (s - (t - z)) + (p - z)
        s = t
    if full < n:  # the last, shorter block
        p = 0.0
        for k in range(full, n):
            p += a[k] * b[k]
        t = s + p
        z = t - s
        c += (s - (t - z)) + (p - z)
        s = t
    result = s + c
    if result - result != 0.0:
        return _fsum_dot(a, b)
    return result


def _blocked_dot_about(a: Sequence[float], ma: float, b: Sequence[float], mb: float) -> float:
    """:func:`_blocked_dot` of the deviations ``a - ma`` and ``b - mb``, each formed as it is
    used (the same floats as the deviations stored, so the same bits), so that the fit needs no
    centred copy of its data (:class:`DeviationColumns`).  Where that is not finite (an overflow),
    the caller takes the deviations themselves.

    >>> _blocked_dot_about([1.0, 3.0], 2.0, [2.0, 6.0], 4.0) == _blocked_dot([-1.0, 1.0], [-2.0, 2.0])
    True
    """
    n = len(a)
    s = 0.0
    c = 0.0
    p = 0.0
    last = (_BLOCK if _BLOCK < n else n) - 1
    for k in range(n):
        p += (a[k] - ma) * (b[k] - mb)
        if k == last:
            t = s + p
            z = t - s
            c += (s - (t - z)) + (p - z)
            s = t
            p = 0.0
            last = k + _BLOCK if k + _BLOCK < n else n - 1
    return s + c


class DeviationColumns:
    """The columns ``x - m`` of raw columns about their means, each made when it is first read
    and then kept (``made[j]``, given for the columns made already).  PyPy's fit hands them to
    the Gram, which reads the raw columns and the means directly (:func:`_blocked_dot_about`):
    the fit then holds no centred copy of the data beside the one it keeps, and stays under the
    collector's next major collection more often.  Reads as a list of columns (indexing,
    slices, ``len``, iteration); the raw columns are never changed.

    >>> cols = DeviationColumns([[1.0, 3.0], [2.0, 6.0]], [2.0, 4.0])
    >>> len(cols), cols[1], cols[:1], [sum(c) for c in cols]
    (2, [-2.0, 2.0], [[-1.0, 1.0]], [0.0, 0.0])
    """

    def __init__(self, raw: Sequence[Sequence[float]], means: Sequence[float],
                 made: Optional[list[Optional[list[float]]]] = None,
                 extended: Optional[tuple[list[list[float]], list[list[float]], list[float]]] = None) -> None:
        self.raw = raw
        self.means = means
        self.made: list[Optional[list[float]]] = [None] * len(raw) if made is None else made
        #: CPython 3.12+: ``(lefts, rights, diagonal)``, each raw column extended by four terms so
        #: that ``sumprod(lefts[i], rights[j])`` is ``Σ(x_i - m_i)(x_j - m_j)`` with no deviation
        #: made (``covariance._extended_centring``), and the diagonal so computed.
        self.extended = extended

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, j: Any) -> Any:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(len(self.raw)))]
        col = self.made[j]
        if col is None:
            m = self.means[j]
            col = self.made[j] = [x - m for x in self.raw[j]]
        return col

    def __iter__(self) -> Any:
        return (self[j] for j in range(len(self.raw)))


def _fsum_dots(vectors: Iterable[Sequence[float]], v: Sequence[float]) -> list[float]:
    """``fsum`` of the products for each vector, with no Python frame per product."""
    return list(map(math.fsum, map(map, itertools.repeat(operator.mul), vectors, itertools.repeat(v))))


def _best_dots() -> Callable[[Iterable[Sequence[float]], Sequence[float]], list[float]]:
    dot = _best_dot()
    if dot is _fsum_dot:
        return _fsum_dots

    def dots(vectors: Iterable[Sequence[float]], v: Sequence[float]) -> list[float]:
        return list(map(dot, vectors, itertools.repeat(v)))

    return dots


def _best_dot() -> Callable[[Sequence[float], Sequence[float]], float]:
    if hasattr(math, "sumprod"):  # Python 3.12+: accurate and in C
        return getattr(math, "sumprod")  # type: ignore[no-any-return]
    if _PYPY:
        return _dot2
    return _fsum_dot


_dots = _best_dots()


class FloatContext(Context):
    """IEEE double precision with compensated sums.

    >>> FLOAT.dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0])
    1.0
    >>> FLOAT.eps == 2.0 ** -52, FLOAT.bits
    (True, 53)
    """

    name = "float"
    eps = sys.float_info.epsilon
    #: The significand's bits of the float the results are computed in: 53 for
    #: doubles, 24 on a single-precision MicroPython port (read, like ``eps``,
    #: from the float itself there: docs/restricted.md).
    bits = sys.float_info.mant_dig
    zero = 0.0
    one = 1.0
    two = 2.0
    half = 0.5
    needs_scaling = True
    #: Squares of numbers in [SMALL, BIG] neither overflow nor go subnormal,
    #: with room for sums of many of them (LAPACK's rmin/rmax idea).
    SMALL = math.sqrt(sys.float_info.min / sys.float_info.epsilon)
    BIG = 1.0 / SMALL / 1024.0

    sqrt = staticmethod(math.sqrt)  # type: ignore[assignment]
    ln = staticmethod(math.log)  # type: ignore[assignment]
    exp = staticmethod(math.exp)  # type: ignore[assignment]
    tanh = staticmethod(math.tanh)  # type: ignore[assignment]
    #: ``math.fsum`` (on PyPy its result from a certified compensated loop: the same bits).
    sum = staticmethod(_fsum_by_sum2 if _PYPY else math.fsum)  # type: ignore[assignment]
    #: ``math.sumprod`` on 3.12+, Dot2 on PyPy, ``fsum`` of products otherwise.
    dot: Callable[[Sequence[float], Sequence[float]], float] = staticmethod(_best_dot())  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        """Every float context is the same context (compared by value).

        >>> import copy, pickle
        >>> pickle.loads(pickle.dumps(FLOAT)) is FLOAT, copy.deepcopy(FLOAT) is FLOAT
        (True, True)
        """
        return isinstance(other, FloatContext)

    def __hash__(self) -> int:
        return hash("float")

    def __reduce__(self) -> str:
        # Pickled by reference to the module's FLOAT, so that state pickled
        # in one process (Moments, a partial fit) merges with state of another.
        return "FLOAT"

    def dots(self, vectors: Iterable[Sequence[float]], v: Sequence[float]) -> list[float]:
        """``[u·v for u in vectors]``, each a compensated dot, in one C-level loop
        per product where the interpreter allows.

        >>> FLOAT.dots([[1e16, 1.0, -1e16], [3.0, 4.0, 0.0]], [1.0, 1.0, 1.0])
        [1.0, 7.0]
        """
        return _dots(vectors, v)

    def norm(self, v: Sequence[Scalar]) -> Scalar:
        """Euclidean norm by :func:`math.hypot`, which scales internally (no overflow).

        >>> FLOAT.norm([3 * 2.0**600, 4 * 2.0**600]) == 5 * 2.0**600
        True
        """
        return math.hypot(*v)

    def pi(self) -> float:
        """``math.pi``.

        >>> FLOAT.pi() == math.pi
        True
        """
        return math.pi

    def convert(self, x: Any) -> float:
        """Return ``x`` as a float.

        >>> FLOAT.convert(3)
        3.0
        """
        return float(x)

    def scale_exponent(self, largest: Scalar) -> int:
        """Exponent that brings ``largest`` near one when it is outside [SMALL, BIG].

        >>> FLOAT.scale_exponent(1e300), FLOAT.scale_exponent(1.0)
        (997, 0)
        """
        if largest == 0.0 or self.SMALL <= largest <= self.BIG:
            return 0
        return math.frexp(largest)[1]

    def ldexp(self, x: Scalar, e: int) -> Scalar:
        """``x * 2**e``, exact unless the result under- or overflows.

        >>> FLOAT.ldexp(3.0, -1)
        1.5
        """
        return math.ldexp(x, e)


MAX_DIGITS = 10_000
"""The most digits ``DecimalContext`` (and ``precision=``) accepts."""


class DecimalContext(Context):
    """``Decimal`` arithmetic at ``digits`` significant digits.

    Inputs are converted exactly (``Decimal(0.1)`` keeps every bit of the
    float); every operation after that rounds to ``digits`` digits.  Sums add
    ten guard digits so that a long sum loses nothing visible.

    >>> ctx = DecimalContext(50)
    >>> with ctx.local():
    ...     x = ctx.sum(ctx.convert(v) for v in [1, 2, 3]) / ctx.convert(3)
    >>> x
    Decimal('2')
    >>> ctx.eps
    Decimal('1E-49')
    """

    needs_scaling = False

    def __init__(self, digits: int) -> None:
        if isinstance(digits, bool) or not isinstance(digits, int) or digits < 17:
            raise PurePCAError(f"precision: need an int of at least 17 digits, got {digits!r}")
        if digits > MAX_DIGITS:
            # decimal could go further, but a fit at a million digits runs for hours
            # (100,000 digits take 4.6 s on 3 x 2 data); the command has the same limit.
            shown = f"an int of {digits.bit_length()} bits" if digits.bit_length() > 64 else f"{digits:,}"
            raise PurePCAError(f"precision: at most {MAX_DIGITS:,} digits, got {shown}")
        self.digits = digits
        self.name = f"decimal({digits})"
        self._context = decimal.Context(
            prec=digits, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN,
            traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
        )
        self._guarded = self._context.copy()
        self._guarded.prec = digits + 10
        self.eps = Decimal(1).scaleb(1 - digits)
        self.zero = Decimal(0)
        self.one = Decimal(1)
        self.two = Decimal(2)
        self.half = Decimal("0.5")

    def convert(self, x: Any) -> Decimal:
        """Exact conversion of an int, float, Fraction or Decimal.

        >>> DecimalContext(20).convert(0.5)
        Decimal('0.5')
        """
        if isinstance(x, Decimal):
            return x
        if isinstance(x, (int, float)):
            return Decimal(x)
        # fractions.Fraction and other rationals: divide at context precision.
        num, den = getattr(x, "numerator", None), getattr(x, "denominator", None)
        if num is not None and den is not None:
            return self._context.divide(Decimal(num), Decimal(den))
        return Decimal(float(x))

    def local(self) -> contextlib.AbstractContextManager[Any]:
        """Make this context's precision the current ``decimal`` context."""
        return decimal.localcontext(self._context)

    def sqrt(self, x: Scalar) -> Decimal:
        """Correctly rounded square root at this precision."""
        return self._context.sqrt(x)

    def ln(self, x: Scalar) -> Decimal:
        """Correctly rounded natural logarithm at this precision.

        >>> DecimalContext(20).ln(Decimal(1))
        Decimal('0')
        """
        return self._context.ln(x)

    def exp(self, x: Scalar) -> Decimal:
        """Correctly rounded exponential at this precision."""
        return self._context.exp(x)

    def pi(self) -> Decimal:
        """π by Machin's formula ``16·atan(1/5) - 4·atan(1/239)``, summed with
        ten guard digits and rounded once.

        >>> str(DecimalContext(30).pi())
        '3.14159265358979323846264338328'
        """
        with decimal.localcontext(self._guarded) as g:
            tiny = Decimal(1).scaleb(-g.prec - 2)

            def arctan_inv(x: int) -> Decimal:
                x2 = Decimal(x * x)
                term = Decimal(1) / Decimal(x)
                total, k = term, 1
                while term > tiny:
                    term = term / x2
                    piece = term / Decimal(2 * k + 1)
                    total = total - piece if k % 2 else total + piece
                    k += 1
                return total

            value = 16 * arctan_inv(5) - 4 * arctan_inv(239)
        return self._context.plus(value)

    def sum(self, values: Iterable[Scalar]) -> Decimal:
        """Sum with ten guard digits, rounded once at the end."""
        add = self._guarded.add
        total = Decimal(0)
        for v in values:
            total = add(total, v)
        return self._context.plus(total)

    def dot(self, a: Sequence[Scalar], b: Sequence[Scalar]) -> Decimal:
        """Inner product with ten guard digits, rounded once at the end."""
        mul, add = self._guarded.multiply, self._guarded.add
        total = Decimal(0)
        for x, y in zip(a, b):
            total = add(total, mul(x, y))
        return self._context.plus(total)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DecimalContext) and other.digits == self.digits

    def __hash__(self) -> int:
        return hash(("decimal", self.digits))


# struct's functions, not struct.Struct: MicroPython's struct has only these.
_pack, _unpack = struct.pack, struct.unpack


def _single_from_bits(bits: int) -> float:
    """The binary32 number whose IEEE encoding is ``bits``, as a float (exact)."""
    return float(_unpack("<f", _pack("<I", bits))[0])


def _round_single(x: float) -> float:
    """``x`` (a double) rounded to the nearest binary32, ties to even, as a float; ±inf past the range."""
    try:
        return float(_unpack("<f", _pack("<f", x))[0])
    except OverflowError:  # struct refuses what rounds to infinity; IEEE overflows to it
        return math.copysign(math.inf, x)


def _round_single_exact(total: float, sign_of_rest: int) -> float:
    """The exact number ``total + rest`` (``total`` its double nearest, ``sign_of_rest`` the sign of
    the remainder) rounded once to binary32: first to odd in binary64 (the neighbour of the exact
    number whose last bit is odd), then to nearest; rounding to odd in p >= q + 2 bits and then to
    nearest in q bits is correct rounding (Boldo and Melquiond, "Emulation of FMA and correctly
    rounded sums: proved algorithms using rounding to odd", IEEE Trans. Computers 57(4), 2008)."""
    if sign_of_rest and not _unpack("<Q", _pack("<d", total))[0] & 1:
        total = math.nextafter(total, math.inf if sign_of_rest > 0 else -math.inf)
    return _round_single(total)



class Binary32(float):
    """A number of the :data:`BINARY32` context: a float holding a binary32 value, whose
    ``+ - * /`` (with another Binary32, a float or an int, converted in first), ``abs``, unary
    ``-`` and ``**`` round the result to binary32.

    >>> x = Binary32(0.1)
    >>> x, x * 3, Binary32(2.0) ** 128
    (0.10000000149011612, 0.30000001192092896, inf)
    """

    __slots__ = ()

    def __new__(cls, x: Any = 0.0) -> Binary32:
        return float.__new__(cls, BINARY32.convert(x))

    def __add__(self, other: Any) -> Any:
        y = _operand(other)
        return NotImplemented if y is None else _single(float(self) + y)

    def __radd__(self, other: Any) -> Any:
        y = _operand(other)
        return NotImplemented if y is None else _single(y + float(self))

    def __sub__(self, other: Any) -> Any:
        y = _operand(other)
        return NotImplemented if y is None else _single(float(self) - y)

    def __rsub__(self, other: Any) -> Any:
        y = _operand(other)
        return NotImplemented if y is None else _single(y - float(self))

    def __mul__(self, other: Any) -> Any:
        y = _operand(other)
        return NotImplemented if y is None else _single(float(self) * y)

    def __rmul__(self, other: Any) -> Any:
        y = _operand(other)
        return NotImplemented if y is None else _single(y * float(self))

    def __truediv__(self, other: Any) -> Any:
        y = _operand(other)
        return NotImplemented if y is None else _single(float(self) / y)

    def __rtruediv__(self, other: Any) -> Any:
        y = _operand(other)
        return NotImplemented if y is None else _single(y / float(self))

    def __pow__(self, other: Any) -> Any:  # type: ignore[override]
        """A power: ``x ** 2`` is ``x * x`` (correctly rounded); other powers are ``math.pow``
        rounded to binary32 (within about one ulp)."""
        y = _operand(other)
        if y is None:
            return NotImplemented
        if y == 2.0:
            return _single(float(self) * float(self))
        try:
            return _single(math.pow(float(self), y))
        except OverflowError:
            return _single(math.inf)

    def __neg__(self) -> Binary32:
        return _single(-float(self))

    def __pos__(self) -> Binary32:
        return self

    def __abs__(self) -> Binary32:
        return _single(abs(float(self)))


def _single(x: float) -> Binary32:
    """``x`` rounded to binary32, as a :class:`Binary32`."""
    return float.__new__(Binary32, _round_single(x))


def _single_value(x: Any) -> float:
    """``x`` (an int, float, Fraction or Decimal) rounded once to binary32, as a float; a finite
    number beyond the binary32 range is an error (an infinity stays itself)."""
    if type(x) is float or type(x) is Binary32:
        value = _round_single(x)
    else:
        exact = Fraction(x)  # int, Fraction, Decimal, numpy scalars: exactly
        try:
            nearest = float(exact)
        except OverflowError:
            nearest = math.copysign(math.inf, exact)
        if math.isinf(nearest):
            value = nearest
        else:
            rest = exact - Fraction(nearest)
            value = _round_single_exact(nearest, (rest > 0) - (rest < 0))
    if math.isinf(value) and not (isinstance(x, float) and math.isinf(x)):
        raise PurePCAError(f"binary32: {x!r} is beyond the single-precision range "
                           f"(largest {_single_from_bits(0x7F7FFFFF):.8g})")
    return value


def _operand(y: Any) -> Optional[float]:
    """The other operand of an operator as a binary32 value in a float (a float or int rounded in),
    or None for a type the operators leave to the other side (a Decimal)."""
    if type(y) is Binary32:
        return float(y)
    if isinstance(y, (int, float)):
        return _single_value(y)
    return None


_BINARY32_CONSTANTS = ("eps", "bits", "zero", "one", "two", "half", "largest", "tiny", "SMALL", "BIG")


class Binary32Context(Context):
    """IEEE single precision (binary32): every operation rounded to 24 bits, to nearest, ties to
    even; overflow to ±inf and gradual underflow (subnormals down to 2**-149) as IEEE single.

    What MicroPython's single-precision ports and float32 PCAs compute in, with every operation
    of the algorithms done here: the numbers are :class:`Binary32` (a float subclass whose
    operators round), so the same Jacobi code that runs in doubles and at 50 digits runs in
    binary32 too.

    Why rounding a double result is exact here: the sum, difference, product, quotient and square
    root of binary32 numbers are computed by the double operation, correctly rounded to 53 bits
    (and never out of the double's range: a product of two binary32 numbers is exact), then
    rounded to 24 bits.  Rounding twice is innocuous for these five operations when the first
    precision p and the second q satisfy p >= 2q + 2 (53 >= 50): S. A. Figueroa, "When is double
    rounding innocuous?", ACM SIGNUM Newsletter 30(3), 1995, 21-26.  Below the normal range the
    binary32 grid is coarser still, so the condition holds there too.  Sums and dot products
    (``sum``, ``dot``) are the exact sum rounded once (products of two binary32 numbers are exact
    doubles; the sum is rounded to odd in doubles, then to binary32), as ``FLOAT``'s ``fsum`` is
    for doubles; ``ln``, ``exp``, ``tanh`` and powers other than 2 are the double function
    rounded (within about one ulp).  Division by zero raises ``ZeroDivisionError``, as for floats.

    ``eps`` (2**-23), ``bits`` (24) and the range are read from the format itself (the encoding
    of the binary32 number after 1), not typed in.

    >>> BINARY32.eps == 2.0 ** -23, BINARY32.bits, get_context(BINARY32) is BINARY32
    (True, 24, True)
    >>> third = BINARY32.one / BINARY32.convert(3)
    >>> third, type(third).__name__
    (0.3333333432674408, 'Binary32')
    >>> BINARY32.sum([BINARY32.convert(x) for x in [1e30, 1.0, -1e30]])
    1.0
    >>> BINARY32.convert(3.5e38)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: binary32: 3.5e+38 is beyond the single-precision range (largest 3.4028235e+38)
    """

    name = "binary32"
    needs_scaling = True

    def __getattr__(self, name: str) -> Any:
        """The constants (``eps``, ``bits``, ``zero``, ``one``, ``two``, ``half``, ``largest``,
        ``tiny``, ``SMALL``, ``BIG``), made on first use rather than at import: MicroPython's float
        cannot be subclassed, and ``import purepca`` must work there."""
        if name not in _BINARY32_CONSTANTS:
            raise AttributeError(name)
        try:
            single = float.__new__
        except AttributeError:
            raise PurePCAError("binary32 context: this interpreter's float cannot be subclassed (MicroPython); "
                               "use CPython or PyPy") from None
        one_bits = _unpack("<I", _pack("<f", 1.0))[0]
        #: The spacing of binary32 numbers next to one, from the encoding: 2**-23.
        self.eps = single(Binary32, _single_from_bits(one_bits + 1) - 1.0)
        #: The significand's bits (24), from eps.
        self.bits = 2 - math.frexp(self.eps)[1]
        #: The largest finite binary32 number (about 3.4028235e38) and the smallest normal one (2**-126).
        self.largest = _single_from_bits(0x7F7FFFFF)
        self.tiny = _single_from_bits(0x00800000)
        self.zero, self.one, self.two, self.half = (single(Binary32, v) for v in (0.0, 1.0, 2.0, 0.5))
        #: Squares of numbers in [SMALL, BIG] neither overflow nor go subnormal, with room for sums.
        self.SMALL = _round_single(math.sqrt(self.tiny / float(self.eps)))
        self.BIG = _round_single(1.0 / self.SMALL / 1024.0)
        return getattr(self, name)

    def convert(self, x: Any) -> Binary32:
        """``x`` (an int, float, Fraction or Decimal) rounded once to binary32, to nearest.

        >>> BINARY32.convert(0.1) == 13421773 * 2.0 ** -27, BINARY32.convert(2 ** 24 + 1)
        (True, 16777216.0)
        """
        if type(x) is Binary32:
            return x
        return float.__new__(Binary32, _single_value(x))

    def sqrt(self, x: Scalar) -> Binary32:
        """The square root, correctly rounded to binary32."""
        return _single(math.sqrt(x))

    def ln(self, x: Scalar) -> Binary32:
        """``math.log`` rounded to binary32."""
        return _single(math.log(x))

    def exp(self, x: Scalar) -> Binary32:
        """``math.exp`` rounded to binary32 (inf past the range)."""
        try:
            return _single(math.exp(x))
        except OverflowError:
            return _single(math.inf)

    def tanh(self, x: Scalar) -> Binary32:
        """``math.tanh`` rounded to binary32."""
        return _single(math.tanh(x))

    def pi(self) -> Binary32:
        """π rounded to binary32.

        >>> BINARY32.pi()
        3.1415927410125732
        """
        return _single(math.pi)

    def _exact_sum(self, terms: list[float]) -> Binary32:
        """The exact sum of doubles (binary32 numbers or their exact products) rounded once to binary32."""
        total = math.fsum(terms)
        if math.isinf(total) or math.isnan(total):
            return _single(total)
        rest = math.fsum(terms + [-total])  # the sign of what fsum rounded away (exact: all on one grid)
        return float.__new__(Binary32, _round_single_exact(total, (rest > 0) - (rest < 0)))

    def sum(self, values: Iterable[Scalar]) -> Binary32:
        """The exact sum rounded once to binary32 (each value converted in first).

        >>> BINARY32.sum([2.0 ** 24, 1.0, 2.0 ** -30])  # exact 2**24 + 1 + 2**-30 rounds up, not to even
        16777218.0
        """
        convert = self.convert
        return self._exact_sum([float(convert(v)) for v in values])

    def dot(self, a: Sequence[Scalar], b: Sequence[Scalar]) -> Binary32:
        """The exact inner product rounded once to binary32 (products of two binary32 numbers are exact doubles).

        >>> BINARY32.dot([1.0, 2.0 ** -24], [1.0, 1.0])  # 1 + 2**-24, a tie: to even
        1.0
        """
        convert = self.convert
        return self._exact_sum([float(convert(x)) * float(convert(y)) for x, y in zip(a, b)])

    def scale_exponent(self, largest: Scalar) -> int:
        """Exponent that brings ``largest`` near one when it is outside [SMALL, BIG].

        >>> BINARY32.scale_exponent(1e30), BINARY32.scale_exponent(1.0)
        (100, 0)
        """
        if largest == 0.0 or self.SMALL <= largest <= self.BIG:
            return 0
        return math.frexp(largest)[1]

    def ldexp(self, x: Scalar, e: int) -> Binary32:
        """``x * 2**e`` rounded to binary32 (exact unless it under- or overflows)."""
        try:
            return _single(math.ldexp(x, e))
        except OverflowError:
            return _single(math.copysign(math.inf, x))

    def gram(self, vectors: Sequence[Sequence[Scalar]]) -> list[list[Scalar]]:
        """All inner products, each :meth:`dot`.

        >>> BINARY32.gram([[1.0, 2.0], [3.0, 4.0]])
        [[5.0, 11.0], [11.0, 25.0]]
        """
        dot = self.dot
        return [[dot(u, v) for v in vectors] for u in vectors]

    fast_gram = gram

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Binary32Context)

    def __hash__(self) -> int:
        return hash("binary32")

    def __reduce__(self) -> str:
        return "BINARY32"


#: IEEE single precision: pass ``context=BINARY32`` wherever a context is taken.
BINARY32 = Binary32Context()


FLOAT = FloatContext()


def first_non_finite(values: Sequence[float]) -> Optional[int]:
    """The index of the first inf or NaN among floats, or None when all are
    finite; a finite sum proves that in one C loop (a sum that overflows
    from finite values is checked one by one).

    >>> first_non_finite([1.0, 2.0]), first_non_finite([1.0, float("inf")]), first_non_finite([1e308, 1e308])
    (None, 1, None)
    """
    total = sum(values)
    if total - total == 0.0:
        return None
    return next((j for j, v in enumerate(values) if not math.isfinite(v)), None)


def check_context(context: Any) -> Context:
    """``context`` itself if it is a number context, else a :class:`PurePCAError`.

    >>> check_context(FLOAT) is FLOAT
    True
    """
    if not isinstance(context, Context):
        raise PurePCAError(
            f"context must be a number context (FLOAT or DecimalContext(digits)), got {context!r}"
        )
    return context


def get_context(precision: Union[None, int, Context] = None) -> Context:
    """Resolve a ``precision`` argument into a context.

    >>> get_context(None) is FLOAT
    True
    >>> get_context(50).digits
    50
    """
    if precision is None:
        return FLOAT
    if isinstance(precision, Context):
        return precision
    if isinstance(precision, int) and not isinstance(precision, bool):
        return DecimalContext(precision)
    if type(precision).__name__ not in ("bool_", "bool") and hasattr(type(precision), "__index__") \
            and not isinstance(precision, (float, str, bytes)):
        return DecimalContext(int(precision.__index__()))  # numpy's int64 and the like
    raise PurePCAError(f"precision: expected None, a number of digits or a Context, got {precision!r}")


#: The polarization Gram is faster only where a compensated dot product is a
#: Python-level loop over products (CPython before 3.12; MicroPython, whose fsum
#: is Python: there it also gives CPython 3.11's bits).
_POLAR_IS_FASTER = not hasattr(math, "sumprod") and sys.implementation.name in ("cpython", "micropython")


class GramWork:
    """The entries of a Gram matrix as rows of independent work, so that
    processes can share them out and give the same bits as one process.

    ``row(i)`` is ``[v_i·v_j for j >= i]``.  Three methods:

    * *exact* (default): each entry a compensated dot product (``fsum`` of
      the products, ``math.sumprod``, Dot2 or guarded decimals), within
      ``eps·Σ|v_ik·v_jk|`` of the true value, and exact on simple data;
    * *polar* (``fast=True`` on CPython before 3.12, where the exact method
      spends its time making a float object per product): each vector is
      scaled by a power of two (exactly) to a norm in [1/2, 1), and
      ``u_i·u_j = (‖u_i‖² + ‖u_j‖² - ‖u_i - u_j‖²)/2`` with the squared norms
      from ``fsum`` and ``‖u_i - u_j‖`` from :func:`math.dist` (one C loop,
      error under one ulp).  The cancellation leaves an absolute error of
      at most about ``16·eps`` in the scaled units, so each entry is within
      ``32·eps·‖v_i‖·‖v_j‖`` of the true value: smaller than the backward
      error ``n·eps·‖G‖`` of any eigensolver applied to G afterwards, which
      is why the PCA paths may use it and :func:`covariance_matrix` does not;
    * *blocked* (``fast=True`` on PyPy, where Dot2 costs four plain products):
      :func:`_blocked_dot`, within ``17·eps·‖v_i‖·‖v_j‖``, the same class.

    >>> w = GramWork([[1.0, 0.0], [1.0, 1.0]], FLOAT)
    >>> w.row(0), w.row(1)
    ([1.0, 1.0], [2.0])
    """

    def __init__(self, vectors: Sequence[Sequence[Scalar]], ctx: Context, fast: bool = False) -> None:
        self.k = len(vectors)
        self.ctx = ctx
        self.polar = fast and _POLAR_IS_FASTER and isinstance(ctx, FloatContext)
        self.vectors = vectors
        self.blocked = fast and _PYPY and isinstance(ctx, FloatContext)
        # The deviations' products from the raw columns, extended (DeviationColumns.extended): within
        # u·|G_ij| + (u/4)·‖c_i‖·‖c_j‖ of the exact deviations' (covariance._extended_centring).
        self.extended = vectors.extended if fast and isinstance(vectors, DeviationColumns) else None
        if self.polar:
            # Tuples: math.dist converts any other sequence to a tuple on every call, which on
            # long vectors costs more than the distance itself (the same bits either way).
            self.units: list[tuple[float, ...]] = []
            self.exps: list[int] = []
            self.squares: list[float] = []
            for v in vectors:
                norm = math.hypot(*v)
                e = math.frexp(norm)[1] if norm > 0 and math.isfinite(norm) else 0
                if -1000 < e < 1000:
                    u = tuple(map(operator.mul, v, itertools.repeat(2.0 ** -e)))
                else:
                    u = tuple([math.ldexp(x, -e) for x in v])
                self.units.append(u)
                self.exps.append(e)
                self.squares.append(math.fsum(map(operator.mul, u, u)))

    def row(self, i: int) -> list[Scalar]:
        """``[v_i·v_j for j in range(i, k)]``."""
        if self.extended is not None:
            lefts, rights, diagonal = self.extended
            return [diagonal[i]] + list(map(_SUMPROD, itertools.repeat(lefts[i]), rights[i + 1:]))
        if self.blocked:
            vs, vi = self.vectors, self.vectors[i]
            return [_blocked_dot(vs[j], vi) for j in range(i, self.k)]
        if not self.polar:
            return self.ctx.dots(self.vectors[i:], self.vectors[i])
        ui, ni, ei = self.units[i], self.squares[i], self.exps[i]
        dist, ldexp = math.dist, math.ldexp
        units, squares, exps = self.units, self.squares, self.exps
        out = [ni * 2.0 ** (2 * ei) if -500 < ei < 500 else ldexp(ni, 2 * ei)]
        for j in range(i + 1, self.k):
            nj = squares[j]
            if nj and ni:
                r = dist(ui, units[j])
                out.append(ldexp((ni + nj - r * r) * 0.5, ei + exps[j]))
            else:  # a zero vector: exactly zero, not a rounding residue
                out.append(0.0)
        return out

    def assemble(self, rows: Iterable[tuple[int, list[Scalar]]]) -> list[list[Scalar]]:
        """The symmetric matrix from ``(i, row(i))`` pairs."""
        k = self.k
        G = [[self.ctx.zero] * k for _ in range(k)]
        for i, values in rows:
            Gi = G[i]
            for j, v in enumerate(values, start=i):
                Gi[j] = v
                G[j][i] = v
        return G

    def compute(self) -> list[list[Scalar]]:
        """The whole matrix, in this process."""
        if self.blocked and isinstance(self.vectors, DeviationColumns):
            return self._about()
        if self.blocked:
            # One loop nest straight into the matrix (the same entries): a comprehension per row,
            # a generator of rows and enumerate cost PyPy's JIT three more loops to compile.
            k, vs = self.k, self.vectors
            G = [[0.0] * k for _ in range(k)]
            for i in range(k):
                vi, Gi = vs[i], G[i]
                for j in range(i, k):
                    v = _blocked_dot(vs[j], vi)
                    Gi[j] = v
                    G[j][i] = v
            return G
        return self.assemble((i, self.row(i)) for i in range(self.k))

    def _about(self) -> list[list[Scalar]]:
        """:meth:`compute` of :class:`DeviationColumns` from their raw columns and means (the
        same entries as from the deviations themselves)."""
        k, vs = self.k, self.vectors
        assert isinstance(vs, DeviationColumns)
        raw, means = vs.raw, vs.means
        G: list[list[Scalar]] = [[0.0] * k for _ in range(k)]
        for i in range(k):
            ri, mi, Gi = raw[i], means[i], G[i]
            for j in range(i, k):
                v = _blocked_dot_about(raw[j], means[j], ri, mi)
                if v - v != 0.0:  # an overflow: the deviations themselves, as _blocked_dot takes them
                    v = _blocked_dot(vs[j], vs[i])
                Gi[j] = v
                G[j][i] = v
        return G


class PolarRows:
    """Many inner products with a fixed set of rows, by polarization where
    that is faster (see :class:`GramWork`): the rows are scaled once by
    powers of two to norms in [1/2, 1), each query vector likewise, and
    ``r·v = (‖r‖² + ‖v‖² - ‖r - v‖²)/2`` with ``‖r - v‖`` from
    :func:`math.dist`.  Each product is within about ``32·eps·‖r‖·‖v‖`` of
    the true value (the accuracy a Gram–Schmidt step or a back-transformation
    needs); elsewhere (``math.sumprod``, PyPy, decimals) the compensated
    :meth:`Context.dots`.

    >>> [round(x, 12) for x in PolarRows([[1.0, 2.0], [3.0, 4.0]], FLOAT).dots([1.0, 1.0])]
    [3.0, 7.0]
    """

    def __init__(self, rows: Sequence[Sequence[Scalar]], ctx: Context) -> None:
        self.ctx = ctx
        self.rows = rows
        self.work = GramWork(rows, ctx, fast=True)

    def dots(self, v: Sequence[Scalar]) -> list[Scalar]:
        """``[r·v for r in rows]``."""
        w = self.work
        if not w.polar:
            return self.ctx.dots(self.rows, v)
        norm = math.hypot(*v)
        if norm == 0:
            return [0.0] * len(w.units)  # a zero vector, against however many rows the work holds
        if not math.isfinite(norm):
            return self.ctx.dots(self.rows, v)
        e = math.frexp(norm)[1]
        u = tuple(map(operator.mul, v, itertools.repeat(2.0 ** -e))) if -1000 < e < 1000 else tuple([math.ldexp(x, -e) for x in v])
        nu = math.fsum(map(operator.mul, u, u))
        dist, ldexp = math.dist, math.ldexp
        return [
            ldexp((nr + nu - r * r) * 0.5, er + e) if nr else 0.0
            for nr, er, r in zip(w.squares, w.exps, map(dist, w.units, itertools.repeat(u)))
        ]

