"""noise_variance_ of the top-k solvers (issue 21: solver='power'/'krylov' gave it 3.5x off without a
word, then 5e-3 off with a warning at noise 3e-15·λ_1): measured on the data as what the k axes leave,
``‖Z - Z·Vᵀ·V‖²_F / (div·(r - k))``, it keeps its digits however far the noise lies below the total."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

from purepca import PCA, AccuracyWarning
from purepca.fitting import Settings, Solved, discarded_variance, finish, fit_rows
from purepca.numeric import FLOAT
from purepca.solvers import Spectrum


def low_rank(noise: float, n: int = 400, d: int = 12, k: int = 3) -> list[list[float]]:
    rng = random.Random(1)
    X = []
    for _ in range(n):
        t = [rng.gauss(0, 1) for _ in range(k)]
        X.append([sum(t[i] * (1 + (i * 7 + j) % 5) for i in range(k)) + noise * rng.gauss(0, 1) for j in range(d)])
    return X


@pytest.mark.parametrize("solver", ["krylov", "power"])
@pytest.mark.parametrize("noise", [1.9e-5, 1e-6])
def test_noise_variance_top_k_keeps_its_digits_far_below_the_total(solver: str, noise: float) -> None:
    X = low_rank(noise)  # noise variance 1e-12·λ_1 (1.9e-5) and 3e-15·λ_1 (1e-6)
    exact = PCA(3, precision=50).fit(X)
    truth = float(exact.high_precision_["noise_variance_"])
    assert truth < 2e-12 * exact.explained_variance_[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error", AccuracyWarning)
        fitted = PCA(3, solver=solver).fit(X)
    # The total less the kept eigenvalues was 2e-5 off here at 1e-12·λ_1 and 5e-3 at 3e-15·λ_1; now 1e-11.
    assert abs(fitted.noise_variance_ - truth) < 1e-9 * truth


@pytest.mark.parametrize("solver", ["krylov", "power"])
def test_noise_variance_top_k_is_quiet_where_it_holds(solver: str) -> None:
    X = low_rank(0.3)
    truth = float(PCA(3, precision=40).fit(X).high_precision_["noise_variance_"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", AccuracyWarning)
        fitted = PCA(3, solver=solver).fit(X)
    assert abs(fitted.noise_variance_ - truth) < 1e-9 * truth


def test_noise_variance_weighted_top_k_matches_all_components() -> None:
    X = low_rank(1e-3, n=60, d=6)
    w = [1.0 + (i % 3) for i in range(len(X))]
    full = PCA(2, solver="svd").fit(X, sample_weight=w)
    top = PCA(2, solver="krylov").fit(X, sample_weight=w)
    assert abs(top.noise_variance_ - full.noise_variance_) < 1e-9 * full.noise_variance_


def test_discarded_variance_is_what_the_axes_leave() -> None:
    Z = [[1.0, 2.0, 0.5], [-1.0, -2.0, -0.5]]
    assert discarded_variance(Z, [[1.0, 0.0, 0.0]], 1.0, FLOAT) == 8.5
    assert discarded_variance(Z, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], 1.0, FLOAT) == 0.0


@pytest.mark.interpreter
@pytest.mark.parametrize("noise", [1e-2, 1e-6, 1e-10, 1e-14])
def test_each_residual_square_is_within_twice_the_unit_roundoff_of_the_exact_one(noise: float) -> None:
    # ‖z - Vᵀp‖² for p = V·z as rounded, against Fractions: the sumprod expansion on 3.12+ (one
    # triple-length sum of zᵀz - pᵀp - 2pᵀδ + pᵀEp), the residual's entries elsewhere.
    import math
    from fractions import Fraction

    from purepca.fast.centre import residual_squares

    def _residual_squares(Z: Any, V: Any) -> Any:
        return residual_squares(Z, V, getattr(math, "sumprod")) if hasattr(math, "sumprod") else None

    rng = random.Random(7)
    d, k = 40, 3
    basis = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(k)]
    Z = []
    for _ in range(25):  # rank k plus noise: the residual far below ‖z‖ as the noise falls
        t = [rng.gauss(0, 3) for _ in basis]
        Z.append([sum(ti * b[i] for ti, b in zip(t, basis)) + noise * rng.gauss(0, 1) for i in range(d)])
    V = PCA(k, solver="svd").fit(Z).components_
    squares = _residual_squares(Z, V)
    assert (squares is None) == (not hasattr(math, "sumprod"))
    total = discarded_variance(Z, V, 1.0, FLOAT)
    exact_total = Fraction(0)
    for i, z in enumerate(Z):
        p = [(getattr(math, "sumprod") if squares is not None else FLOAT.dot)(v, z) for v in V]  # the kernel's p
        exact = sum(((Fraction(x) - sum((Fraction(pk) * Fraction(v[j]) for pk, v in zip(p, V)), Fraction(0))) ** 2
                     for j, x in enumerate(z)), Fraction(0))
        exact_total += exact
        u = Fraction(2.0 ** -53)
        zz = sum((Fraction(x) ** 2 for x in z), Fraction(0))
        if squares is not None:  # within u of itself, plus u²‖z‖² (Ep rounded)
            assert abs(Fraction(squares[i]) - exact) <= 2 * u * exact + 2 * u * u * zz
    from purepca import fast
    if squares is not None and not fast.REFERENCE:  # the fit's total takes the kernel only where it is bound
        assert abs(Fraction(total) - exact_total) <= 4 * Fraction(2.0 ** -53) * exact_total + Fraction(2.0 ** -104) * 2 * sum(
            (Fraction(x) ** 2 for z in Z for x in z), Fraction(0))


@pytest.mark.interpreter
def test_residual_squares_leave_overflow_to_the_entries() -> None:
    import math

    from purepca.fast.centre import residual_squares

    if not hasattr(math, "sumprod"):
        pytest.skip("the kernel needs math.sumprod (Python 3.12+)")

    def _residual_squares(Z: Any, V: Any) -> Any:
        return residual_squares(Z, V, getattr(math, "sumprod"))

    Z = [[1e200, 3e200], [-1e200, -3e200]]
    assert _residual_squares(Z, [[1.0, 0.0]]) is None
    assert discarded_variance(Z, [[1.0, 0.0]], 1.0, FLOAT) == float("inf")  # (3e200)² overflows either way
    # ‖z‖² an ulp below the largest float: sumprod would finish in plain arithmetic (0.0, not 2.15e292)
    Z = [[9.469892336265299e+153, 9.49159905525804e+153, 1.1052480564003896e+146, 9.637849859389058e+145]]
    V = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    assert _residual_squares(Z, V) is None
    assert discarded_variance(Z, V, 1.0, FLOAT) == pytest.approx(1.1052480564003896e+146 ** 2 + 9.637849859389058e+145 ** 2)


def test_finish_without_the_residual_warns_where_total_less_kept_cancels() -> None:
    # A top-k spectrum handed to finish without the measured residual: the old estimate, with its warning.
    X = low_rank(1e-6)
    state = fit_rows(Settings(n_components=3, solver="svd"), X)
    found = Spectrum([v for v in state.variance], [list(c) for c in state.components],
                     sum(state.variance) + 12 * 9 * 1e-18, "krylov")
    with pytest.warns(AccuracyWarning, match="solver='krylov': noise_variance_ may be off by up to"):
        finish(Settings(n_components=3, solver="krylov"), Solved(len(X), 12, "krylov", found, state.mean_hi,
                                                                   state.mean_lo, None))
