"""Hypothesis strategies for the inputs that break PCA implementations.

Each function returns a ``hypothesis`` strategy of data matrices (lists of
rows of floats); hypothesis is imported when a function is called, never
when this module is imported, so purepca keeps no dependency on it.  Use
them with :func:`purepca.testing.assert_pca_close`::

    from hypothesis import given
    from purepca.testing import assert_pca_close
    from purepca.testing.strategies import hard_data

    @given(hard_data())
    def test_my_pca(X):
        assert_pca_close(my_pca(X), X)

=====================================  =========================================================
strategy                               what it breaks
=====================================  =========================================================
``offset_data(offset)``                one-pass covariance ``XᵀX - n·μμᵀ`` (Spark, scikit-learn's
                                       covariance_eigh): every digit of the spread cancels
``collinear_data()``                   the covariance path squares the condition number: the
                                       small eigenvalue of two nearly equal columns is lost
``small_noise_data()``                 strong directions over tiny noise: absolute errors of
                                       ``eps·λ_1`` swamp the noise eigenvalues
``clustered_data()``                   eigenvalues equal or within 1e-10: the vectors are not
                                       determined, only their span; sign rules and cuts go wrong
``one_hot_data()``                     0/1 blocks whose rows sum to one: exact rank deficiency,
                                       repeated eigenvalues, sparse code paths
``wide_data()``                        n <= d: a null space of dimension d - n + 1, zero
                                       eigenvalues, ``0/0`` ratios
``extreme_scale_data()``               values near 1e±150: variances overflow or underflow
                                       (NaN ratios, zero tolerances)
``hard_data()``                        any of the above
=====================================  =========================================================

>>> from purepca.testing.strategies import offset_data
>>> strategy = offset_data()          # hypothesis is imported here (a test extra)  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from ..params import as_real

__all__ = ["clustered_data", "collinear_data", "extreme_scale_data", "hard_data", "offset_data", "one_hot_data",
           "small_noise_data", "wide_data"]


def _st() -> Any:
    import importlib

    try:  # by name, at call time: purepca itself depends on nothing
        return importlib.import_module("hypothesis.strategies")
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("purepca.testing.strategies needs hypothesis (pip install hypothesis)") from err


def _gauss_rows(st: Any, n_min: int, n_max: int, d_min: int, d_max: int) -> Any:
    """A strategy of (seed, n, d): the rows are drawn from a seeded generator, so shrinking keeps the shape."""
    return st.tuples(st.integers(0, 2 ** 32 - 1), st.integers(n_min, n_max), st.integers(d_min, d_max))


def _rows(seed: int, n: int, d: int, spreads: list[float], offset: float = 0.0) -> list[list[float]]:
    import random

    rng = random.Random(seed)
    return [[offset + rng.gauss(0, 1) * spreads[j % len(spreads)] for j in range(d)] for _ in range(n)]


def offset_data(offset: Any = None) -> Any:
    """Data at an offset between 1e3 and 1e12 (or the one given) with a spread of about 1.

    >>> offset_data  # doctest: +ELLIPSIS
    <function offset_data at ...>
    """
    st = _st()
    if offset is not None:
        offset = as_real(offset, "offset_data: offset")
    offsets = st.sampled_from([1e3, 1e6, 1e9, 1e12]) if offset is None else st.just(offset)
    return st.builds(lambda shape, off: _rows(shape[0], shape[1], shape[2], [1.0, 2.0, 0.5], off),
                     _gauss_rows(st, 5, 40, 2, 6), offsets)


def collinear_data() -> Any:
    """Two columns equal up to noise of 1e-6 to 1e-10, beside ordinary ones.

    >>> collinear_data  # doctest: +ELLIPSIS
    <function collinear_data at ...>
    """
    st = _st()

    def build(shape: tuple[int, int, int], eps: float) -> list[list[float]]:
        seed, n, d = shape
        rows = _rows(seed, n, d, [1.0])
        rows2 = _rows(seed + 1, n, 1, [eps])
        return [[r[0], r[0] + e[0]] + r[1:] for r, e in zip(rows, rows2)]

    return st.builds(build, _gauss_rows(st, 5, 40, 1, 5), st.sampled_from([1e-6, 1e-8, 1e-10]))


def small_noise_data() -> Any:
    """Two strong directions (spread 1e3 and 10) over noise of 1e-3 to 1e-6.

    >>> small_noise_data  # doctest: +ELLIPSIS
    <function small_noise_data at ...>
    """
    st = _st()

    def build(shape: tuple[int, int, int], noise: float) -> list[list[float]]:
        import random

        seed, n, d = shape
        rng = random.Random(seed)
        dirs = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(2)]
        return [[a * dirs[0][j] + b * dirs[1][j] + noise * rng.gauss(0, 1) for j in range(d)]
                for a, b in ((rng.gauss(0, 1e3), rng.gauss(0, 10)) for _ in range(n))]

    return st.builds(build, _gauss_rows(st, 5, 40, 3, 6), st.sampled_from([1e-3, 1e-6]))


def clustered_data() -> Any:
    """Columns of spread 1, 1 + δ, 1 + 2δ (δ from 0 to 1e-8), rotated: a cluster of (nearly) equal eigenvalues.

    >>> clustered_data  # doctest: +ELLIPSIS
    <function clustered_data at ...>
    """
    st = _st()

    def build(shape: tuple[int, int, int], delta: float) -> list[list[float]]:
        import random

        seed, n, d = shape
        rng = random.Random(seed)
        # Exactly symmetric data give exactly equal eigenvalues: each row and its negation.
        half = [[rng.gauss(0, 1) * (1 + delta * min(j, 2)) if j < 3 else rng.gauss(0, 0.2) for j in range(d)]
                for _ in range(n // 2 + 1)]
        return half + [[-x for x in row] for row in half]

    return st.builds(build, _gauss_rows(st, 6, 40, 3, 6), st.sampled_from([0.0, 1e-12, 1e-8]))


def one_hot_data() -> Any:
    """One or two one-hot blocks (each row has a single 1 per block).

    >>> one_hot_data  # doctest: +ELLIPSIS
    <function one_hot_data at ...>
    """
    st = _st()

    def build(shape: tuple[int, int, int], blocks: int) -> list[list[float]]:
        import random

        seed, n, d = shape
        rng = random.Random(seed)
        rows = []
        for _ in range(n):
            row: list[float] = []
            for _b in range(blocks):
                hot = [0.0] * d
                hot[rng.randrange(d)] = 1.0
                row += hot
            rows.append(row)
        return rows

    return st.builds(build, _gauss_rows(st, 4, 40, 2, 5), st.integers(1, 2))


def wide_data() -> Any:
    """n <= d: from 2 x 3 to 8 x 20.

    >>> wide_data  # doctest: +ELLIPSIS
    <function wide_data at ...>
    """
    st = _st()
    return st.builds(lambda shape, extra: _rows(shape[0], shape[1], shape[1] + extra, [1.0, 3.0, 0.3]),
                     _gauss_rows(st, 2, 8, 0, 0), st.integers(0, 12))


def extreme_scale_data() -> Any:
    """Ordinary data times 1e±100 to 1e±160.

    >>> extreme_scale_data  # doctest: +ELLIPSIS
    <function extreme_scale_data at ...>
    """
    st = _st()
    return st.builds(lambda shape, f: [[x * f for x in row] for row in _rows(shape[0], shape[1], shape[2],
                                                                           [1.0, 2.0, 0.5])],
                     _gauss_rows(st, 4, 30, 2, 5), st.sampled_from([1e100, 1e160, 1e-100, 1e-160]))


def hard_data() -> Any:
    """Any of the strategies above.

    >>> hard_data  # doctest: +ELLIPSIS
    <function hard_data at ...>
    """
    st = _st()
    return st.one_of(offset_data(), collinear_data(), small_noise_data(), clustered_data(), one_hot_data(),
                     wide_data(), extreme_scale_data())
