"""Number contexts: where the arithmetic, and so the precision, lives.

Every algorithm in purepca takes a *context* and does its arithmetic through
it, so one piece of code gives a fast float answer or a 50-digit reference:

=====================  ==================================================
``FLOAT``              IEEE doubles; sums with :func:`math.fsum`, dot
                       products as ``fsum`` of the products (faster
                       ones from the kernel room, :mod:`purepca.fast`)
``DecimalContext(N)``  :class:`decimal.Decimal` at ``N`` significant digits
``get_context(x)``     ``None`` -> ``FLOAT``, an int -> ``DecimalContext(x)``,
                       a context -> itself
``owned_decimal(p)``   a ``with`` block in purepca's own ``decimal`` context
                       (``in_owned_decimal``: the decorator), whatever the
                       caller's precision, rounding, exponents or traps
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
>>> FLOAT.convert("3")
Traceback (most recent call last):
...
purepca.errors.PurePCAError: float: expected a real number (not NaN) for x, got '3'

The reference norm of floats, :func:`_hypot` (``FLOAT.norm``'s where no kernel is bound), sums the
squares exactly (``fsum``), rounds once and takes the square root, scaled by a power of two where
the squares would overflow or underflow: within about one ulp, and the same bits on every
interpreter (``math.hypot`` changed its algorithm in CPython 3.10; PyPy keeps 3.9's):

>>> _hypot(3.0, 4.0), _hypot(3e300, 4e300), _hypot(3 * 2.0 ** -1000, 4 * 2.0 ** -1000) == 5 * 2.0 ** -1000
(5.0, 5e+300, True)
>>> _hypot(), _hypot(-0.0), _hypot(1.0, math.inf, math.nan), _hypot(1.7e308, 1.7e308)
(0.0, 0.0, inf, inf)
>>> FLOAT.norm([3 * 2.0**600, 4 * 2.0**600]) == 5 * 2.0**600
True
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
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, TypeVar, Union

from . import fast
from .errors import PurePCAError


__all__ = ["FLOAT", "Context", "DecimalContext", "FloatContext", "GramWork", "PolarRows", "Scalar", "get_context",
           "in_owned_decimal", "owned_context", "owned_decimal"]

#: A scalar of the active context: ``float`` under ``FLOAT``, ``Decimal`` under
#: a ``DecimalContext``.  Spelled ``Any`` because the algorithms are generic over
#: both and Python's type system has no "number of this context" type.
Scalar = Any

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

    def convert(self, x: Any) -> Scalar:
        """Return ``x`` as a number of this context (the base class has no numbers: use a subclass).

        >>> Context().convert(1)
        Traceback (most recent call last):
        ...
        purepca.errors.PurePCAError: Context is abstract: convert x with FLOAT, BINARY32 or DecimalContext(digits)
        """
        raise PurePCAError("Context is abstract: convert x with FLOAT, BINARY32 or DecimalContext(digits)")

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
        """All inner products ``G[i][j] = vectors[i]·vectors[j]``, each a compensated dot product.

        >>> FLOAT.gram([[1.0, 2.0], [3.0, 4.0]])
        [[5.0, 11.0], [11.0, 25.0]]
        """
        return _symmetric(len(vectors), ((i, self.dots(vectors[i:], v)) for i, v in enumerate(vectors)), self.zero)

    def fast_gram(self, vectors: Sequence[Sequence[Scalar]]) -> list[list[Scalar]]:
        """The Gram matrix by the fastest method whose error is below what an
        eigensolver adds anyway: each entry within about ``32·eps·‖v_i‖·‖v_j‖``
        (see :class:`GramWork`).  Equal to :meth:`gram` where compensated
        dot products are fast themselves (the kernel room's dots,
        decimals).

        >>> [[round(x, 12) for x in row] for row in FLOAT.fast_gram([[1.0, 2.0], [3.0, 4.0]])]
        [[5.0, 11.0], [11.0, 25.0]]
        """
        if _fast_gram is None or not isinstance(self, FloatContext):
            return self.gram(vectors)
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
    """The reference dot product of floats: the exactly rounded sum of the rounded products."""
    return math.fsum(map(operator.mul, a, b))


def _fsum_dots(vectors: Iterable[Sequence[float]], v: Sequence[float]) -> list[float]:
    """The reference ``dots`` of floats: :func:`_fsum_dot` of each vector with ``v``."""
    return list(map(_fsum_dot, vectors, itertools.repeat(v)))


def _hypot(*v: float) -> float:
    """``sqrt(Σx²)`` of floats: ``fsum`` of the squares, rounded once, then ``sqrt``, scaled by a power
    of two where the squares would overflow or underflow (see the module's docstring)."""
    big = max(map(abs, v), default=0.0)
    if not 0.0 < big < math.inf:  # zero, inf or NaN: as math.hypot answers them
        return math.inf if any(math.isinf(x) for x in v) else big + 0.0
    e = math.frexp(big)[1]
    if -450 < e < 450:
        return math.sqrt(math.fsum([x * x for x in v]))
    try:
        return math.ldexp(math.sqrt(math.fsum([math.ldexp(x, -e) ** 2 for x in v])), e)
    except OverflowError:  # beyond the float range: inf, as math.hypot and math.dist answer (the kernel room)
        return math.inf


#: The Euclidean norm of floats: the kernel room's ``hypot`` (``math.hypot``) where bound, else
#: the reference's :func:`_hypot`.
float_hypot: Callable[..., float] = fast.hypot or _hypot


def _dist(a: Sequence[float], b: Sequence[float]) -> float:
    """The Euclidean distance of two float points, ``_hypot`` of their differences.

    >>> _dist([1.0, 1.0], [4.0, 5.0])
    5.0
    """
    return _hypot(*map(operator.sub, a, b))


#: The Euclidean distance of float points: the kernel room's ``dist`` (``math.dist``) where bound.
float_dist: Callable[[Sequence[float], Sequence[float]], float] = fast.dist or _dist


def _checked_float(x: Any) -> float:
    """:meth:`FloatContext.convert` of anything but a plain float or int: checked, then converted."""
    try:
        return float(_check_real(x, "float"))
    except OverflowError:  # an int or Fraction past the float range
        raise PurePCAError(f"float: x = {short_repr(x)} is beyond the float range "
                           f"(largest {sys.float_info.max:.6g})") from None


def _times_power_of_two(x: float, e: int) -> float:
    """``x·2**e`` of a float, exact unless it under- or overflows; inf (with x's sign) where it overflows.

    >>> _times_power_of_two(3.0, -1), _times_power_of_two(-1.0, 2000)
    (1.5, -inf)
    """
    try:
        return math.ldexp(x, e)
    except OverflowError:
        return math.copysign(math.inf, x)


class FloatContext(Context):
    """IEEE double precision with compensated sums.

    >>> FLOAT.dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0]), FLOAT.dots([[1e16, 1.0, -1e16], [3.0, 4.0, 0.0]], [1.0] * 3)
    (1.0, [1.0, 7.0])
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
    #: ``math.fsum`` (the kernel room's ``fsum`` where bound: the same bits).
    sum = staticmethod(fast.fsum or math.fsum)  # type: ignore[assignment]
    #: ``fsum`` of the rounded products (the kernel room's ``dot`` where bound).
    dot: Callable[[Sequence[float], Sequence[float]], float] = \
        staticmethod(fast.dot or _fsum_dot)  # type: ignore[assignment]
    #: ``[u·v for u in vectors]``, each ``dot``'s (the kernel room's ``dots`` where bound).
    dots: Callable[[Iterable[Sequence[float]], Sequence[float]], list[float]] = \
        staticmethod(fast.dots or _fsum_dots)  # type: ignore[assignment]
    to_float = staticmethod(float)  # type: ignore[assignment]
    #: Float operators need no context of their own.
    local = staticmethod(contextlib.nullcontext)
    #: The kernel room's Gram where bound (:class:`GramWork`), else the compensated one: the binding decides.
    fast_gram = Context.fast_gram if fast.gram is not None else Context.gram

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

    def norm(self, v: Sequence[Scalar]) -> Scalar:
        """Euclidean norm, safe against overflow and underflow (:func:`float_hypot`)."""
        return float_hypot(*v)

    def pi(self) -> float:
        """``math.pi``.

        >>> FLOAT.pi() == math.pi
        True
        """
        return math.pi

    def convert(self, x: Any) -> float:
        """Return ``x`` as a float (a :class:`PurePCAError` for what is not a real number).

        >>> FLOAT.convert(3)
        3.0
        """
        if type(x) is float and x == x:
            return x
        if type(x) is int and -2 ** 1023 < x < 2 ** 1024:  # the fit's own counts: no check needed
            return float(x)
        return _checked_float(x)

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

def _check_real(x: Any, who: str) -> Any:
    """``x`` itself if it is a real number a context can convert (an int, float, Fraction, Decimal or
    a numpy scalar; infinities allowed, NaN not), else a :class:`PurePCAError` naming it.

    >>> _check_real(2, "float")
    2
    >>> _check_real(Decimal("NaN"), "decimal")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: decimal: expected a real number (not NaN) for x, got Decimal('NaN')
    """
    # (MicroPython's int and float have no __float__: they are numbers all the same)
    bad = (x is None or isinstance(x, (str, bytes, complex))
           or not (isinstance(x, (int, float)) or hasattr(x, "__float__")))
    if not bad:
        try:
            bad = math.isnan(float(x)) if not isinstance(x, Decimal) else x.is_nan()
        except OverflowError:  # a huge int or Fraction: a number, converted (or refused) by the context
            bad = False
        except (TypeError, ValueError, ArithmeticError):
            bad = True
    if bad:
        raise PurePCAError(f"{who}: expected a real number (not NaN) for x, got {short_repr(x)}")
    return x


def short_repr(x: Any, limit: int = 60) -> str:
    """``repr(x)`` for a message, at most about ``limit`` characters: an int too long to print (past
    Python's 4,300 digits) is named by its size, and a repr that raises by the type.

    >>> short_repr(10 ** 5000), short_repr("abc"), short_repr("x" * 100, 10)
    ('an int of 5001 digits', "'abc'", "'xxxxxxxx... (102 characters)")
    """
    if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > 3_000:
        return f"an int of {_int_digits(x)} digits"
    try:
        text = repr(x)
    except Exception:  # a hostile object's repr: its type is enough to name it
        return f"a {type(x).__name__}"
    return text if len(text) <= limit else f"{text[:limit - 1]}... ({len(text)} characters)"


def _int_digits(x: int) -> int:
    """The number of decimal digits of a nonzero int, without printing it (exact: checked against a power of ten)."""
    x = abs(x)
    guess = int((x.bit_length() - 1) * 0.30102999566398120) + 1
    return guess + 1 if x >= 10 ** guess else (guess if x >= 10 ** (guess - 1) else guess - 1)


#: The precision of the owned context where an entry point does not choose one: decimal's own
#: default, so that code written against the default context gives the same bits inside it.
OWNED_PRECISION = 28

#: The only conditions purepca's own context traps: each means a computation went wrong, and an
#: algorithm turns it into a :class:`PurePCAError`.  Inexact, Rounded, Clamped, Subnormal and
#: Underflow are what arithmetic at N digits does; FloatOperation is never trapped (and purepca
#: converts floats with ``Decimal.from_float``, which does not even flag it).
OWNED_TRAPS = ("InvalidOperation", "DivisionByZero", "Overflow")

_MAX_PREC: int = getattr(decimal, "MAX_PREC", 999_999_999_999_999_999)


def owned_context(prec: int = OWNED_PRECISION) -> decimal.Context:
    """A fresh ``decimal.Context`` that is purepca's own: ``prec`` digits, ROUND_HALF_EVEN, the
    widest exponent range, :data:`OWNED_TRAPS` trapped, no flags, ``capitals=1``, ``clamp=0``.

    Every field is given, none copied from ``decimal.DefaultContext`` (which a caller may have
    changed), so nothing of the caller's reaches it.

    >>> import decimal
    >>> decimal.DefaultContext.rounding = decimal.ROUND_DOWN   # a hostile caller
    >>> ctx = owned_context(30)
    >>> decimal.DefaultContext.rounding = decimal.ROUND_HALF_EVEN
    >>> ctx.prec, ctx.rounding, ctx.Emax == decimal.MAX_EMAX, bool(ctx.traps[decimal.FloatOperation])
    (30, 'ROUND_HALF_EVEN', True, False)
    """
    if isinstance(prec, bool) or not isinstance(prec, int) or not 1 <= prec <= _MAX_PREC:
        raise PurePCAError(f"owned decimal context: the precision must be an int >= 1, got {prec!r}")
    traps = [getattr(decimal, name) for name in OWNED_TRAPS]
    # (names spelled out as on MicroPython's stand-in, whose Context() says decimal is unavailable)
    return decimal.Context(prec=prec, rounding="ROUND_HALF_EVEN", Emin=decimal.MIN_EMIN,
                           Emax=decimal.MAX_EMAX, capitals=1, clamp=0, flags=[], traps=traps)


def owned_decimal(prec: int = OWNED_PRECISION) -> contextlib.AbstractContextManager[decimal.Context]:
    """A ``with`` block whose decimal context is :func:`owned_context` ``(prec)``, whatever the
    caller's: its precision, rounding, exponent range, traps and flags change nothing inside, and
    nothing inside changes the caller's (its flags included).

    >>> import decimal
    >>> with decimal.localcontext(decimal.Context(prec=1, traps=[decimal.Inexact])):
    ...     with owned_decimal(30):
    ...         third = Decimal(1) / 3
    >>> third
    Decimal('0.333333333333333333333333333333')
    """
    return decimal.localcontext(owned_context(prec))


_F = TypeVar("_F", bound=Callable[..., Any])


def in_owned_decimal(func: _F) -> _F:
    """Decorator: ``func`` runs inside :func:`owned_decimal` (at :data:`OWNED_PRECISION` digits;
    code that needs more digits sets them, or uses a ``DecimalContext``, inside).  For the entry
    points of purepca that compute in ``Decimal``.  Where ``decimal`` is only named (MicroPython's
    stand-in) the function runs as it is.

    >>> @in_owned_decimal
    ... def third() -> Decimal:
    ...     return Decimal(1) / 3
    >>> import decimal
    >>> with decimal.localcontext(decimal.Context(prec=1, rounding=decimal.ROUND_DOWN)):
    ...     third()
    Decimal('0.3333333333333333333333333333')
    """
    if getattr(decimal, "getcontext", None) is None:  # MicroPython's stand-in: no decimal arithmetic
        return func
    import functools  # here, not at the top: the MicroPython path never needs it

    @functools.wraps(func)
    def owned(*args: Any, **kwargs: Any) -> Any:
        with decimal.localcontext(owned_context(OWNED_PRECISION)):
            return func(*args, **kwargs)

    return owned  # type: ignore[return-value]


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
        self._context = owned_context(digits)
        self._guarded = self._context.copy()
        self._guarded.prec = digits + 10
        # Every operation outside the algorithms' ``with ctx.local()`` names this context: the
        # caller's (a small Emax or Emin, fewer digits, other traps) must not reach a fit.
        self.eps = Decimal(1).scaleb(1 - digits, context=self._context)
        self.zero = Decimal(0)
        self.one = Decimal(1)
        self.two = Decimal(2)
        self.half = Decimal("0.5")

    def convert(self, x: Any) -> Decimal:
        """Exact conversion of an int, float, Fraction or Decimal.

        >>> DecimalContext(20).convert(0.5)
        Decimal('0.5')
        """
        _check_real(x, "decimal")
        if isinstance(x, Decimal):
            return x
        if isinstance(x, float):
            return Decimal.from_float(x)  # exact, and no FloatOperation even where the caller traps it
        if isinstance(x, int):
            return Decimal(x)
        # fractions.Fraction and other rationals: divide at context precision.
        num, den = getattr(x, "numerator", None), getattr(x, "denominator", None)
        if num is not None and den is not None:
            return self._context.divide(Decimal(num), Decimal(den))
        return Decimal.from_float(float(x))

    def local(self) -> contextlib.AbstractContextManager[Any]:
        """Make this context's precision the current ``decimal`` context."""
        return decimal.localcontext(self._context)

    def sqrt(self, x: Scalar) -> Decimal:
        """Correctly rounded square root at this precision."""
        return self._context.sqrt(x)

    def ldexp(self, x: Scalar, e: int) -> Decimal:
        """``x * 2**e`` in this context, whatever the caller's.

        >>> import decimal
        >>> with decimal.localcontext(decimal.Context(Emax=10)):
        ...     DecimalContext(40).ldexp(Decimal(1), 100)
        Decimal('1267650600228229401496703205376')
        """
        if e == 0:
            return self.convert(x)
        power = self._context.power(self.two, abs(e))
        return self._context.multiply(x, power) if e > 0 else self._context.divide(x, power)

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
    elif isinstance(x, Decimal) and not x.is_finite():  # NaN and the infinities stay themselves, as floats do
        return math.nan if x.is_nan() else (-math.inf if x.is_signed() else math.inf)
    else:
        if x is None or isinstance(x, (str, bytes, complex)) or not hasattr(x, "__float__"):
            raise PurePCAError(f"binary32: expected a real number, got {type(x).__name__} {short_repr(x)}")
        try:
            # int, Fraction, Decimal, numpy scalars: exactly (numpy's integers as ints: their Fraction
            # compares in numpy bools)
            exact = Fraction(int(x)) if hasattr(type(x), "__index__") else Fraction(x)
        except (TypeError, ValueError, OverflowError):  # numpy's NaN and infinities, other reals
            exact = None
        if exact is None:
            return _round_single(float(x))
        try:
            nearest = float(exact)
        except OverflowError:
            nearest = math.inf if exact > 0 else -math.inf
        if math.isinf(nearest):
            value = nearest
        else:
            rest = exact - Fraction(nearest)
            value = _round_single_exact(nearest, (rest > 0) - (rest < 0))
    if math.isinf(value) and not (isinstance(x, float) and math.isinf(x)):
        raise PurePCAError(f"binary32: {short_repr(x, 40)} is beyond the single-precision range "
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
        if type(x) is Binary32 and x == x:
            return x
        return float.__new__(Binary32, _single_value(_check_real(x, "binary32")))

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


def _symmetric(k: int, rows: Iterable[tuple[int, list[Scalar]]], zero: Scalar) -> list[list[Scalar]]:
    """The symmetric k x k matrix from ``(i, [G[i][i], G[i][i+1], ...])`` pairs (in any order)."""
    G = [[zero] * k for _ in range(k)]
    for i, values in rows:
        for j, v in enumerate(values, start=i):
            G[i][j] = G[j][i] = v
    return G


class GramWork:
    """The entries of a Gram matrix as rows of independent work, so that
    processes can share them out and give the same bits as one process.

    ``row(i)`` is ``[v_i·v_j for j >= i]``, each entry a compensated dot
    product (``fsum`` of the products, or guarded decimals), within
    ``eps·Σ|v_ik·v_jk|`` of the true value, and exact on simple data.  With
    ``fast=True`` (the Gram a PCA hands to an eigensolver, which perturbs it by
    ``n·eps·‖G‖`` anyway; :func:`covariance_matrix` never asks) a kernel of
    :mod:`purepca.fast` may compute the entries instead, each within
    ``32·eps·‖v_i‖·‖v_j‖`` (polarization, blocked sums, extended columns).

    >>> w = GramWork([[1.0, 0.0], [1.0, 1.0]], FLOAT)
    >>> w.row(0), w.row(1)
    ([1.0, 1.0], [2.0])
    """

    def __init__(self, vectors: Sequence[Sequence[Scalar]], ctx: Context, fast: bool = False) -> None:
        self.k = len(vectors)
        self.ctx = ctx
        self.vectors = vectors
        self.kernel = _fast_gram(vectors) if fast and _fast_gram is not None and isinstance(ctx, FloatContext) else None

    def row(self, i: int) -> list[Scalar]:
        """``[v_i·v_j for j in range(i, k)]``.

        >>> GramWork([[1.0, 2.0], [3.0, 4.0]], FLOAT).row(1)
        [25.0]
        """
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.k:
            raise PurePCAError(f"GramWork.row: i must be an int between 0 and {self.k - 1}, got {short_repr(i)}")
        if self.kernel is not None:
            return self.kernel.row(i)  # type: ignore[no-any-return]
        return self.ctx.dots(self.vectors[i:], self.vectors[i])

    def assemble(self, rows: Iterable[tuple[int, list[Scalar]]]) -> list[list[Scalar]]:
        """The symmetric matrix from ``(i, row(i))`` pairs.

        >>> work = GramWork([[1.0, 2.0], [3.0, 4.0]], FLOAT)
        >>> work.assemble([(0, work.row(0)), (1, work.row(1))])
        [[5.0, 11.0], [11.0, 25.0]]
        """
        return _symmetric(self.k, self._pairs(rows), self.ctx.zero)

    def _pairs(self, rows: Any) -> Iterator[tuple[int, list[Scalar]]]:
        """The ``(i, row(i))`` pairs of :meth:`assemble`, each checked as it comes (i in range, the row's length)."""
        try:  # (iter, not hasattr __iter__: MicroPython's generators have none)
            pairs = None if isinstance(rows, (str, bytes)) else iter(rows)
        except TypeError:
            pairs = None
        if pairs is None:
            raise PurePCAError(f"GramWork.assemble: rows must be (i, row(i)) pairs, got {short_repr(rows)}")
        rows = pairs
        for pair in rows:
            ok = isinstance(pair, (tuple, list)) and len(pair) == 2
            i, values = pair if ok else (None, None)  # type: Any, Any
            try:  # (len, not hasattr __len__: MicroPython's lists have none)
                fits = (ok and isinstance(i, int) and not isinstance(i, bool) and 0 <= i < self.k
                        and len(values) == self.k - i)
            except TypeError:
                fits = False
            if not fits:
                raise PurePCAError(f"GramWork.assemble: each of rows must be a pair (i, row(i)) with 0 <= i < "
                                   f"{self.k} and k - i values, got {short_repr(pair)}")
            yield i, values

    def compute(self) -> list[list[Scalar]]:
        """The whole matrix, in this process."""
        whole = self.kernel.compute() if self.kernel is not None else None
        if whole is not None:
            return whole  # type: ignore[no-any-return]
        return self.assemble((i, self.row(i)) for i in range(self.k))


_fast_gram = fast.gram


class PolarRows:
    """Many inner products with a fixed set of rows: :meth:`Context.dots`, or where polarization
    is faster (CPython before 3.12: the kernel room's ``polar_rows``), each product within about
    ``32·eps·‖r‖·‖v‖`` (the accuracy a Gram–Schmidt step or a back-transformation needs).

    >>> [round(x, 12) for x in PolarRows([[1.0, 2.0], [3.0, 4.0]], FLOAT).dots([1.0, 1.0])]
    [3.0, 7.0]
    """

    def __init__(self, rows: Sequence[Sequence[Scalar]], ctx: Context) -> None:
        self.ctx = ctx
        self.rows = rows
        self.kernel = fast.polar_rows(rows) if fast.polar_rows is not None and isinstance(ctx, FloatContext) else None

    def dots(self, v: Sequence[Scalar]) -> list[Scalar]:
        """``[r·v for r in rows]``."""
        got = self.kernel.dots(v) if self.kernel is not None else None
        return got if got is not None else self.ctx.dots(self.rows, v)
