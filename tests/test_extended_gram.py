"""The kernel room's CPython 3.12+ PCA fit (purepca.fast): the Gram of the deviations from the raw
columns, extended by four terms (``fast.centre.extended_centring``), against exact Fractions;
and the columns it is given (``fast.rows.float_columns_at_once``), validated and copied by C loops.
"""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from typing import Any

import pytest

import purepca.fast.centre as centring_module
from purepca import FLOAT, PCA, fast
from purepca.covariance import Centred, _centred_columns
from purepca.fast.grams import DeviationColumns
from purepca.fast.rows import float_columns_at_once as _float_columns_at_once

#: The answers here depend on the interpreter or the mode: every stage of .ci/test runs them (conftest.py).
pytestmark = pytest.mark.interpreter

U = Fraction(1, 2 ** 53)
SUMPROD = hasattr(math, "sumprod") and not fast.REFERENCE
needs_sumprod = pytest.mark.skipif(not SUMPROD, reason="math.sumprod (Python 3.12+), bound as a kernel (not in "
                                                       "reference mode), is what this path is built on")


def _extended_centring(cols: Any) -> Any:
    got = centring_module.extended_centring(cols, getattr(math, "sumprod"))
    return None if got is None else Centred(*got)


def _columns(rng: random.Random, n: int, d: int, offset: float, scale: float) -> list[list[float]]:
    """Columns of several kinds: ordinary, correlated, nearly orthogonal to the first, cancelling."""
    first = [rng.gauss(0, 1) for _ in range(n)]
    cols = []
    for j in range(d):
        kind = rng.randrange(4)
        if kind == 0:
            col = [rng.gauss(0, 1) for _ in range(n)]
        elif kind == 1:
            col = [a + rng.gauss(0, 1e-6) for a in first]
        elif kind == 2:  # orthogonal to the first up to rounding: the entry is tiny beside the norms
            dot = math.fsum(a * b for a, b in zip(first, first))
            v = [rng.gauss(0, 1) for _ in range(n)]
            t = math.fsum(a * b for a, b in zip(first, v)) / dot
            col = [b - t * a for a, b in zip(first, v)]
        else:  # pairs that cancel, a small remainder
            half = [rng.gauss(0, 1) * 10.0 ** rng.uniform(-3, 3) for _ in range(n // 2)]
            col = half + [-x for x in half] + [rng.gauss(0, 1e-3) for _ in range(n - 2 * (n // 2))]
            rng.shuffle(col)
        cols.append([(offset * (1 + j) + x) * scale for x in col])
    return cols


@needs_sumprod
def test_extended_gram_within_its_bound_of_the_exact_deviations_and_the_record_as_the_usual_path() -> None:
    rng = random.Random(2024)
    taken = refused = 0
    for _ in range(60):
        n = rng.choice([2, 3, 17, 200, 1500])
        d = rng.choice([1, 2, 4])
        offset = rng.choice([0.0, 1.0, 30.0, 1e3, 1e6, 1e12])
        scale = 10.0 ** rng.uniform(-120, 120)
        cols = _columns(rng, n, d, offset, scale)
        c = _extended_centring(cols)
        if c is None:
            refused += 1
            continue
        taken += 1
        plain = _centred_columns(cols, FLOAT)
        # The mean pair, and so mean_, as on the usual path; no column scaled.
        assert (c.hi, c.lo, c.exps) == (plain.hi, plain.lo, [0] * d)
        assert isinstance(c.cols, DeviationColumns) and list(c.cols) == plain.cols
        G = FLOAT.fast_gram(c.cols)
        devs = [[Fraction(x) - Fraction(h) for x in col] for col, h in zip(cols, c.hi)]
        for j in range(d):
            assert c.sums[j] == float(sum(devs[j], Fraction(0)))  # R = Σx - n·hi, rounded once
        exact = [[sum((a * b for a, b in zip(devs[i], devs[j])), Fraction(0)) for j in range(d)] for i in range(d)]
        norms = [math.sqrt(float(exact[i][i])) for i in range(d)]
        for i in range(d):
            assert c.spreads is not None and c.spreads[i] == math.sqrt(G[i][i])
            for j in range(d):
                bound = U * abs(exact[i][j]) + U / 4 * Fraction(norms[i]) * Fraction(norms[j]) * (1 + Fraction(1, 2 ** 40))
                assert abs(Fraction(G[i][j]) - exact[i][j]) <= bound, (n, d, offset, scale, i, j)
                assert G[i][j] == G[j][i]
    assert taken >= 30 and refused >= 5, (taken, refused)


@needs_sumprod
@pytest.mark.parametrize("case", ["constant", "offset 1e12", "1e200", "1e-200", "nan", "inf", "one row",
                                  "mean below 2**-900", "mean beyond 2**440"])
def test_extended_centring_refuses_what_it_cannot_prove(case: str) -> None:
    rng = random.Random(3)
    col = [rng.gauss(0, 1) for _ in range(1000)]
    other = {
        "constant": [2.5] * 1000,
        "offset 1e12": [1e12 + x for x in col],
        "1e200": [1e200 * x for x in col],
        "1e-200": [1e-200 * x for x in col],
        "nan": col[:-1] + [math.nan],
        "inf": col[:-1] + [math.inf],
        "one row": None,
        "mean below 2**-900": [1.0, -1.0] * 499 + [1e-274, 0.0],  # a mean of 1e-277, summed exactly
        "mean beyond 2**440": [2.0 ** 450 + x * 2.0 ** 420 for x in col],
    }[case]
    cols = [[0.5], [1.5]] if other is None else [col, other]
    assert _extended_centring(cols) is None
    if case == "mean below 2**-900":  # (only the mean is the reason)
        assert _extended_centring([col, [x + 1.0 for x in other]]) is not None  # type: ignore[union-attr]


@needs_sumprod
def test_fit_through_the_extended_gram_is_the_fit_through_deviations(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(11)
    for n, d, offset in ((500, 6, 0.0), (2000, 12, 25.0), (300, 3, -4e3), (40, 5, 1e12)):
        X = [[offset + rng.gauss(0, 1 + j) + (0.3 * i if j == 1 else 0.0) for j in range(d)] for i in range(n)]
        X[5][2] = -0.0
        before = [row[:] for row in X]
        fast = PCA().fit(X)
        assert X == before and fast.x == PCA().fit_transform(X)  # the rows kept are the rows given
        assert type(fast._rows).__name__ == "ColumnRows"
        monkeypatch.setattr(centring_module, "extended_centring", lambda cols, sp: None)
        slow = PCA().fit(X)
        monkeypatch.undo()
        assert fast.mean_ == slow.mean_
        top = slow.explained_variance_[0]
        for a, b in zip(fast.explained_variance_, slow.explained_variance_):
            assert abs(a - b) <= 1e-13 * top
        for u, v in zip(fast.components_, slow.components_):
            assert max(abs(a - b) for a, b in zip(u, v)) <= 1e-10


def test_float_columns_at_once_validates_copies_and_keeps_signed_zeros() -> None:
    rows = [[1.0, -0.0], [3.0, 4.5], [5.0, 6.0]]
    cols = _float_columns_at_once(rows)
    assert cols == [(1.0, 3.0, 5.0), (-0.0, 4.5, 6.0)] and math.copysign(1.0, cols[1][0]) == -1.0
    if sys.implementation.name == "cpython":  # new floats, side by side (PyPy's floats have no identity)
        assert all(a is not b for col, j in zip(cols, range(2)) for a, b in zip(col, (r[j] for r in rows)))
    for bad in (True, math.nan, -math.inf, "1", 1, None, 1 + 0j):
        assert _float_columns_at_once([[1.0, 2.0], [bad, 4.0]]) is None  # the general path then names the cell
    for shape in ([], [[]], [[1.0], [2.0, 3.0]], [[1.0], (2.0,)], ((1.0,),), [(1.0,)], "ab", None):
        assert _float_columns_at_once(shape) is None
    assert _float_columns_at_once([[1e308, 1.0], [1e308, 2.0]]) is None  # a sum that overflows: the general path


def test_transform_reads_a_list_of_float_rows_without_copying_or_changing_it() -> None:
    rng = random.Random(4)
    X = [[rng.gauss(0, 1) for _ in range(4)] for _ in range(50)]
    pca = PCA(2).fit(X)
    Y = [[rng.gauss(0, 1) for _ in range(4)] for _ in range(20)]
    before = [row[:] for row in Y]
    Z = pca.transform(Y)
    assert Y == before and all(z is not y for z, y in zip(Z, Y))
    for method in ("hotelling_t2", "spe", "row_distances", "row_cos2", "reconstruction_error", "score_samples"):
        out: Any = getattr(pca, method)(Y)
        assert Y == before, method
        if isinstance(out, list):
            assert all(o is not y for o, y in zip(out, Y))

