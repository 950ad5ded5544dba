"""The few distribution functions PCA's outlier limits need, without scipy.

=============================  =============================================
``norm_cdf(x)``, ``norm_ppf(p)``  standard normal, from ``math.erfc``; the
                                  quantile by Newton's method on the cdf
``beta_cdf(x, a, b)``            the regularised incomplete beta function
                                 (Lentz's continued fraction)
``beta_ppf(p, a, b)``            its inverse (bisection, then Newton)
``f_cdf(x, d1, d2)``,            Fisher's F, through the beta function:
``f_ppf(p, d1, d2)``             ``F = (B/d1)/((1 - B)/d2)`` for
                                 ``B ~ Beta(d1/2, d2/2)``
=============================  =============================================

Accurate to about 1e-14 relative over the range PCA uses (checked against
scipy in the tests).

>>> round(norm_ppf(0.975), 12)
1.95996398454
>>> round(f_ppf(0.95, 2, 10), 10)
4.1028210151
"""

from __future__ import annotations

import math

from .errors import PurePCAError
from .params import as_real

__all__ = ["beta_cdf", "beta_ppf", "f_cdf", "f_ppf", "norm_cdf", "norm_ppf"]

_SQRT2 = math.sqrt(2.0)


def _as_point(value: object, name: str) -> float:
    """A point at which a distribution function is taken: a real number, ``±inf`` allowed, NaN not.

    >>> _as_point(float("inf"), "x"), _as_point(2, "x")
    (inf, 2.0)
    """
    if isinstance(value, float) and math.isinf(value):
        return value
    return as_real(value, name)


def norm_cdf(x: float) -> float:
    """The standard normal distribution function, ``erfc(-x/√2)/2`` (accurate in both tails).

    >>> norm_cdf(0.0)
    0.5
    """
    return 0.5 * math.erfc(-_as_point(x, "x") / _SQRT2)


def _norm_pdf(x: float) -> float:
    return math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def norm_ppf(p: float) -> float:
    """The standard normal quantile: the x with ``norm_cdf(x) = p``, for ``0 < p < 1``.

    Newton's method on the cdf (on the upper tail ``erfc(x/√2)/2`` above the
    median, so that neither tail loses digits to ``1 - p``), from a start
    that is within a few per cent.

    >>> round(norm_ppf(0.05), 12), norm_ppf(0.5)
    (-1.644853626951, 0.0)
    """
    p = as_real(p, "p", low=0.0, high=1.0, low_open=True)
    if p == 1.0:
        raise PurePCAError("p must be strictly between 0 and 1, got 1.0")
    if p == 0.5:
        return 0.0
    upper = p > 0.5
    q = 1.0 - p if upper else p  # the tail probability, q < 0.5
    # Start: the tail's asymptotic form, refined below.
    t = math.sqrt(-2.0 * math.log(q))
    x = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3)
    for _ in range(60):
        tail = 0.5 * math.erfc(x / _SQRT2)  # P(Z > x), for x > 0
        density = _norm_pdf(x)
        if density == 0:
            break
        step = (tail - q) / density  # d tail/dx = -density: Newton's step on tail(x) = q
        x_new = x + step
        if abs(x_new - x) <= 4e-16 * abs(x_new):
            x = x_new
            break
        x = x_new
    return x if upper else -x


def _betacf(x: float, a: float, b: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            return h
    raise PurePCAError(f"beta_cdf: the continued fraction did not converge (x={x}, a={a}, b={b})")


def beta_cdf(x: float, a: float, b: float) -> float:
    """The regularised incomplete beta function ``I_x(a, b)`` (the Beta(a, b) distribution function).

    >>> round(beta_cdf(0.5, 2.0, 2.0), 15)
    0.5
    """
    a = as_real(a, "a", low=0.0, low_open=True)
    b = as_real(b, "b", low=0.0, low_open=True)
    x = _as_point(x, "x")
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    try:
        front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    except OverflowError:  # lgamma past the float range: a or b near 1e307
        raise PurePCAError(f"beta_cdf: a = {a!r:.30} and b = {b!r:.30} are beyond what lgamma reaches in floats") \
            from None
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(x, a, b) / a
    return 1.0 - front * _betacf(1.0 - x, b, a) / b


def _beta_pdf(x: float, a: float, b: float) -> float:
    return math.exp((a - 1) * math.log(x) + (b - 1) * math.log1p(-x) + math.lgamma(a + b) - math.lgamma(a)
                    - math.lgamma(b))


def beta_ppf(p: float, a: float, b: float) -> float:
    """The inverse of :func:`beta_cdf` in x: bisection to a narrow bracket, then Newton.

    >>> round(beta_ppf(0.5, 2.0, 2.0), 15)
    0.5
    """
    p = as_real(p, "p", low=0.0, high=1.0)
    a = as_real(a, "a", low=0.0, low_open=True)
    b = as_real(b, "b", low=0.0, low_open=True)
    if p == 0:
        return 0.0
    if p == 1:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if beta_cdf(mid, a, b) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 4e-16 * max(mid, 1e-300):
            break
    x = 0.5 * (lo + hi)
    for _ in range(8):
        density = _beta_pdf(x, a, b)
        if density <= 0 or not math.isfinite(density):
            break
        x_new = x - (beta_cdf(x, a, b) - p) / density
        if not lo - (hi - lo) <= x_new <= hi + (hi - lo):
            break
        if abs(x_new - x) <= 2e-16 * x_new:
            x = x_new
            break
        x = x_new
    return x


def f_cdf(x: float, d1: float, d2: float) -> float:
    """Fisher's F distribution function with (d1, d2) degrees of freedom.

    >>> round(f_cdf(1.0, 4, 4), 15)
    0.5
    """
    d1 = as_real(d1, "d1", low=0.0, low_open=True)
    d2 = as_real(d2, "d2", low=0.0, low_open=True)
    x = _as_point(x, "x")
    if x <= 0:
        return 0.0
    if math.isinf(d1 * x):  # x = inf, or d1 * x past the float range: the ratio below is inf/inf
        return 1.0
    if math.isinf(d1 * x + d2):  # both near the float range: the same ratio, divided through
        return beta_cdf(1.0 / (1.0 + d2 / (d1 * x)), d1 / 2.0, d2 / 2.0)
    return beta_cdf(d1 * x / (d1 * x + d2), d1 / 2.0, d2 / 2.0)


def f_ppf(p: float, d1: float, d2: float) -> float:
    """The quantile of Fisher's F with (d1, d2) degrees of freedom, from :func:`beta_ppf`.

    >>> round(f_ppf(0.5, 4, 4), 12)
    1.0
    """
    d1 = as_real(d1, "d1", low=0.0, low_open=True)
    d2 = as_real(d2, "d2", low=0.0, low_open=True)
    a, b = d1 / 2.0, d2 / 2.0
    bq = beta_ppf(p, a, b)
    if bq > 0.5:
        # Near 1, take 1 - B from the mirrored problem (I_x(a, b) = 1 - I_(1-x)(b, a)): the ratio
        # B/(1 - B) would amplify the rounding of B.
        rest = beta_ppf(1.0 - p, b, a)
        if rest <= 0.0:
            return math.inf
        return ((1.0 - rest) / d1) / (rest / d2)
    return (bq / d1) / ((1.0 - bq) / d2)
