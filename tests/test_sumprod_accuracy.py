"""The accuracy of the dot products the float context uses, against exact Fractions.

On CPython 3.12+ ``FLOAT.dot`` (and so the covariance's Gram, the Gram path, the transform and the
Lanczos operator) is ``math.sumprod``.  What purepca relies on is its C source, not its docstring
("computed with extended precision"): CPython's Modules/mathmodule.c, ``math_sumprod_impl``, feeds
each pair of floats to ``tl_fma`` — the product split exactly into ``hi + lo`` (``dl_mul``, Dekker's
mul12, or an fma), ``hi`` added to the running sum by TwoSum and ``lo`` with the previous error term
by TwoSum again (Ogita, Rump and Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26,
2005, Algorithm 5.10 with SumKVert for K = 3) — and rounds the triple-length total once
(``tl_to_d``).  That is at least Dot2, the dot product computed as in twice the working precision
and then rounded, whose error is at most ``u·|s| + γ_n²·Σ|x_i·y_i|`` (their Proposition 5.5;
``u = 2⁻⁵³``, ``γ_n = n·u/(1 - n·u)``).

Two conditions of that source that the guarantee needs and that purepca's callers meet:

* every intermediate must stay finite: once ``tl_fma`` gives a non-finite ``hi`` (a product beyond
  the float range, or in a build without a reliable fma a Dekker split beyond about 2**996),
  ``math_sumprod_impl`` finishes the float lane and adds the
  remaining terms with plain float arithmetic; the covariance scales each column by a power of
  two into [``FLOAT.SMALL``, ``FLOAT.BIG``] before its products, and the transform scores rows near
  the largest float again at a scale of ``2**-k`` when a result is not finite;
* products must not underflow: the split's low parts below the smallest normal float lose bits
  (the same scaling keeps the covariance's products normal).

Where ``math.sumprod`` is absent the tests check the paths used instead: ``fsum`` of the rounded
products (CPython <= 3.11: the exactly rounded sum of products each rounded once, error at most
``u·|s| + u·Σ|x_i·y_i|``) and Dot2 on PyPy.
"""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction

import pytest

from purepca import FLOAT, fast
from purepca.fast.centre import centre_by_sumprod
from purepca.fast.sums import dot2 as _dot2
from purepca.fast.sums import fsum_dot as _fsum_dot

#: The answers here depend on the interpreter or the mode: every stage of .ci/test runs them (conftest.py).
pytestmark = pytest.mark.interpreter

REFERENCE = fast.REFERENCE

U = 2.0 ** -53


def gamma(n: int) -> float:
    return n * U / (1 - n * U)


def _cancelling(rng: random.Random, n: int, condition: float) -> tuple[list[float], list[float]]:
    """Ogita–Rump–Oishi's GenDot: a dot product of about the given condition number, whose terms cancel."""
    half = n // 2
    b = math.log2(condition)
    e = [round(rng.random() * b / 2) for _ in range(half)]
    e[0], e[-1] = round(b / 2) + 1, 0
    x = [(2 * rng.random() - 1) * 2.0 ** k for k in e]
    y = [(2 * rng.random() - 1) * 2.0 ** k for k in e]
    partial = sum((Fraction(a) * Fraction(c) for a, c in zip(x, y)), Fraction(0))
    for i in range(half, n):
        k = round(b / 2 * (1 - (i - half) / max(n - half - 1, 1)))
        xi = (2 * rng.random() - 1) * 2.0 ** k
        yi = ((2 * rng.random() - 1) * 2.0 ** k - float(partial)) / xi
        x.append(xi)
        y.append(yi)
        partial += Fraction(xi) * Fraction(yi)
    order = list(range(n))
    rng.shuffle(order)
    return [x[i] for i in order], [y[i] for i in order]


def _wide(rng: random.Random, n: int) -> tuple[list[float], list[float]]:
    """Terms spread over 2**-400 .. 2**400, products normal, with large ones that cancel."""
    x = [rng.choice((-1, 1)) * rng.random() * 2.0 ** rng.randint(-200, 200) for _ in range(n)]
    y = [rng.choice((-1, 1)) * rng.random() * 2.0 ** rng.randint(-200, 200) for _ in range(n)]
    big = max(range(n), key=lambda i: abs(x[i] * y[i]))
    x.append(-x[big])
    y.append(y[big])  # the largest product cancels exactly
    return x, y


def _cases() -> list[tuple[str, list[float], list[float]]]:
    rng = random.Random(2024)
    cases = []
    for condition in (1e4, 1e10, 1e16, 1e24, 1e32):
        for n in (6, 50, 400):
            x, y = _cancelling(rng, n, condition)
            cases.append((f"cancelling n={n} cond={condition:g}", x, y))
    for n in (10, 200):
        x, y = _wide(rng, n)
        cases.append((f"wide n={n}", x, y))
    # an offset of 1e12 and its mean, as in the transform of shifted data
    row = [1e12 + rng.gauss(0, 1) for _ in range(50)]
    mean = [1e12 + rng.gauss(0, 1e-3) for _ in range(50)]
    w = [rng.gauss(0, 1) for _ in range(50)]
    cases.append(("offset 1e12", [a - m for a, m in zip(row, mean)], w))
    return cases


def _error(value: float, x: list[float], y: list[float]) -> tuple[Fraction, Fraction, Fraction]:
    exact = sum((Fraction(a) * Fraction(b) for a, b in zip(x, y)), Fraction(0))
    size = sum((abs(Fraction(a) * Fraction(b)) for a, b in zip(x, y)), Fraction(0))
    return abs(Fraction(value) - exact), abs(exact), size


@pytest.mark.skipif(not hasattr(math, "sumprod"), reason="math.sumprod needs Python 3.12+")
@pytest.mark.parametrize("name, x, y", _cases(), ids=[c[0] for c in _cases()])
def test_sumprod_is_at_least_dot2_on_hard_cases(name: str, x: list[float], y: list[float]) -> None:
    sumprod = getattr(math, "sumprod")
    err, exact, size = _error(sumprod(x, y), x, y)
    n = len(x)
    assert err <= Fraction(U) * exact + Fraction(gamma(n)) ** 2 * size, name
    assert FLOAT.dot is sumprod or REFERENCE


def test_float_dot_of_scaled_columns_near_the_ends_of_the_range_is_exact() -> None:
    # The scaled range the covariance works in: products far from overflow and underflow.
    y = [1.0, 1.0, 1.0]
    assert FLOAT.dot([2.0 ** 900, 1.0, -(2.0 ** 900)], y) == 1.0
    assert FLOAT.dot([2.0 ** -400, 2.0 ** -460, -(2.0 ** -400)], [2.0 ** -100] * 3) == 2.0 ** -560


@pytest.mark.parametrize("name, x, y", _cases(), ids=[c[0] for c in _cases()])
def test_float_dot_paths_of_older_interpreters_meet_their_bounds(name: str, x: list[float], y: list[float]) -> None:
    n = len(x)
    err, exact, size = _error(_fsum_dot(x, y), x, y)
    assert err <= Fraction(U) * exact + Fraction(U) * size, name  # each product rounded once, then fsum
    err, exact, size = _error(_dot2(x, y), x, y)
    assert err <= Fraction(U) * exact + Fraction(gamma(n)) ** 2 * size, name  # Dot2
    if sys.implementation.name == "pypy" and not hasattr(math, "sumprod") and not REFERENCE:
        assert FLOAT.dot is _dot2


# ---------------------------------------------------------------- triple length
#
# tl_fma adds each exact product (hi, lo) to the running (hi, lo, tiny) by three TwoSums, which are
# error-free; only the two additions into ``tiny`` and the final rounding (tl_to_d) round.  With
# A = Σ|p_i| the size of the n products: ``lo`` gathers the errors of the ``hi`` additions without
# renormalisation, so |lo| <= (k + 1)·u·A after k terms; each step adds at most 2(k + 1)u²·A to
# ``tiny``, so |tiny| <= n²u²·A, and the 2n roundings of ``tiny`` cost at most 2n³u³·A.  The final
# ``tiny + (lo + hi)`` (the TwoSum exact) rounds twice: u·|s| and u·|tiny + last.lo|.  Altogether
#     |sumprod - s| <= u·|s| + 3n³u³·A      (to first order in u; with u² terms for n³u³ < 1/3)
# which is what purepca's uses of the residuals of a mean (fast.centre.centre_by_sumprod) and of a
# projection (fast.centre.residual_squares) rely on.  A Dot2 (twice the working precision, the bound
# of the test above) fails it on 9 of these cases (conditions 1e16 to 1e32, and the wide terms).


def _long_residual(rng: random.Random, n: int, offset: float) -> tuple[list[float], list[float]]:
    """``Σx - n·m`` as one sumprod, as the centring forms it: x at an offset, m their mean."""
    col = [offset + rng.gauss(0, 1) for _ in range(n)]
    m = math.fsum(col) / n
    return col + [m], [1.0] * n + [-float(n)]


@pytest.mark.skipif(not hasattr(math, "sumprod"), reason="math.sumprod needs Python 3.12+")
@pytest.mark.parametrize("name, x, y", _cases() + [
    (f"residual n={n} offset={off:g}", *_long_residual(random.Random(n), n, off))
    for n, off in ((1_000, 1e12), (20_000, 1e12), (20_000, -3e8), (5_000, 1.0))
], ids=[c[0] for c in _cases()] + ["residual 1e3 1e12", "residual 2e4 1e12", "residual 2e4 -3e8", "residual 5e3 1"])
def test_sumprod_is_triple_length_on_hard_cases(name: str, x: list[float], y: list[float]) -> None:
    sumprod = getattr(math, "sumprod")
    err, exact, size = _error(sumprod(x, y), x, y)
    n = len(x)
    u = Fraction(U)
    assert err <= u * exact * (1 + 2 * u) + 3 * n ** 3 * u ** 3 * size * (1 + 4 * n * u), name


def _exact_mean(col: list[float]) -> Fraction:
    return sum(map(Fraction, col), Fraction(0)) / len(col)


@pytest.mark.skipif(not hasattr(math, "sumprod"), reason="math.sumprod needs Python 3.12+")
@pytest.mark.parametrize("n, offset, spread", [
    (3, 0.0, 1.0), (100, 1.0, 1e-8), (100, -1e12, 1.0), (20_000, 1e12, 1.0), (20_000, 0.0, 1e100),
    (2_000, 3e-120, 1e-130), (2_000, 1e6, 1e-3), (20_000, 1e12, 1e-4),
    # 200,000 exact Fractions: 3.8 s on CPython 3.13
    pytest.param(200_000, 1e18, 300.0, marks=pytest.mark.slow),
])
def test_centring_by_sumprod_keeps_the_mean_to_twice_the_precision(n: int, offset: float, spread: float) -> None:
    from purepca.covariance import _float_correction

    rng = random.Random(n)
    col = [offset + spread * rng.gauss(0, 1) for _ in range(n)]
    got = centre_by_sumprod(col, float(n), getattr(math, "sumprod"), _float_correction)
    assert got is not None
    hi, c, S, s, lo = got
    u = Fraction(U)
    M = _exact_mean(col)
    assert c == [x - hi for x in col]
    assert abs(S - math.sqrt(math.fsum(x * x for x in c))) <= 4 * U * S
    # hi: the sum in triple length, over n
    assert abs(Fraction(hi) - M) <= 2 * u * abs(M) + 3 * n ** 2 * u ** 3 * sum(map(abs, map(Fraction, col)), Fraction(0))
    # lo: the exactly rounded correction of that hi (over n: two roundings)
    assert abs(Fraction(lo) - (M - Fraction(hi))) <= 2 * u * abs(M - Fraction(hi))
    exact_sum = sum(map(Fraction, c), Fraction(0))
    assert abs(Fraction(s) - exact_sum) <= u * abs(exact_sum) + 3 * n ** 3 * u ** 3 * sum(abs(Fraction(x)) for x in c)


@pytest.mark.skipif(not hasattr(math, "sumprod"), reason="math.sumprod needs Python 3.12+")
def test_centring_by_sumprod_leaves_what_it_cannot_prove_to_fsum() -> None:
    from purepca.covariance import _float_correction

    rng = random.Random(3)
    cases = {
        "constant": [2.5] * 50,
        "near overflow": [1e300 * rng.gauss(0, 1) for _ in range(50)],
        "tiny spread, tiny values": [1e-300 * rng.gauss(0, 1) for _ in range(50)],
        "partial sums overflow": [1e308, 1e308, -1e308, -1e308, 1.0],
    }
    for name, col in cases.items():
        assert centre_by_sumprod(col, float(len(col)), getattr(math, "sumprod"), _float_correction) is None, name


def test_a_mean_far_below_its_values_keeps_its_digits() -> None:
    # The values cancel to 9.3e-56 (exactly): a sum in triple length gives 0, the mean's exact correction
    # gives it back, on every interpreter.
    from purepca import PCA, column_means

    col = [1.0, 2.0 ** -60, 2.0 ** -120, 2.0 ** -180, -1.0, -(2.0 ** -60), -(2.0 ** -120)]
    exact = float(_exact_mean(col))
    assert exact == 2.0 ** -180 / 7
    assert column_means([[x] for x in col]) == [exact]
    assert PCA().fit([[x, float(i)] for i, x in enumerate(col)]).mean_[0] == exact
