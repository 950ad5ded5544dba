"""The Krylov and tridiagonal paths against the full Jacobi path: same numbers where the eigenvalues are separated."""

from __future__ import annotations

import math
import random
import re
import warnings

import pytest

from purepca import PCA, AccuracyWarning, KernelPCA
from purepca.linalg.eigen import JACOBI_MAX_N


def lowrank(n: int, d: int, rank: int, noise: float, seed: int) -> list[list[float]]:
    rng = random.Random(seed)
    basis = [[rng.gauss(0.0, 1.0) for _ in range(d)] for _ in range(rank)]
    rows = []
    for _ in range(n):
        w = [rng.gauss(0.0, 3.0 / (1 + j)) for j in range(rank)]
        rows.append([sum(wj * b[i] for wj, b in zip(w, basis)) + rng.gauss(0.0, noise) for i in range(d)])
    return rows


def separated(values: list[float], i: int, gap: float = 1e-3) -> bool:
    near = [abs(values[i] - v) for j, v in enumerate(values) if j != i]
    return min(near) > gap * values[0]


def assert_same_top(a: PCA, b: PCA, k: int) -> None:
    top = a.explained_variance_[0]
    for i in range(k):
        assert abs(a.explained_variance_[i] - b.explained_variance_[i]) <= 1e-10 * top
        if separated(b.explained_variance_, i):
            u, v = a.components_[i], b.components_[i]
            # The angle from the chord, min ‖u ∓ v‖ (sqrt(1 - cos²) cannot see below 1e-8).
            chord = min(math.dist(u, v), math.dist(u, [-x for x in v]))
            assert chord < 1e-10, (i, chord)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(300, 60), (40, 90), (80, 70)])
def test_krylov_top5_equals_the_full_jacobi_path(shape: tuple[int, int]) -> None:
    n, d = shape
    X = lowrank(n, d, 10, 0.1, seed=n + d)
    krylov = PCA(5, solver="krylov").fit(X)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        full = PCA(solver="jacobi").fit(X)
    # Jacobi on the covariance may lose the noise eigenvalues (and say so), never the five compared here.
    for w in caught:
        assert w.category is AccuracyWarning, str(w.message)
        lost = [int(c) for c in re.findall(r"\d+", str(w.message).split("may be off")[0])]
        assert min(lost) > 5, str(w.message)
    assert krylov.solver_ == "krylov"
    assert_same_top(krylov, full, 5)
    # Signs follow the same rule, so the scores agree too.
    for r, s in zip(krylov.transform(X[:5]), full.transform(X[:5])):
        assert max(abs(a - b) for a, b in zip(r, s[:5])) < 1e-8 * math.sqrt(full.explained_variance_[0])
    # The noise variance of the probabilistic model from the trace, not from a full spectrum.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        five = PCA(5, solver="jacobi").fit(X)
    # Its relative error can be large when the noise is small; it is compared against the top eigenvalue.
    assert all(w.category is AccuracyWarning and "noise_variance_" in str(w.message) for w in caught)
    assert abs(krylov.noise_variance_ - five.noise_variance_) <= 1e-10 * full.explained_variance_[0]


@pytest.mark.parametrize("form", ["data", "covariance", "gram"])
def test_krylov_operator_forms_agree(form: str) -> None:
    from purepca.numeric import FLOAT
    from purepca.solvers import solve_krylov

    X = lowrank(80, 40, 6, 0.05, seed=3)
    mean = [sum(c) / len(X) for c in zip(*X)]
    Z = [[x - m for x, m in zip(row, mean)] for row in X]
    s = solve_krylov(Z, 4, 79.0, FLOAT, form=form)
    with pytest.warns(AccuracyWarning, match=r"solver='jacobi': the eigenvalues of components [\d, ]+ may be off"):
        ref = PCA(solver="jacobi").fit(X)  # rank 6 in 40 columns: the noise eigenvalues lose digits
    for a, b in zip(s.values, ref.explained_variance_):
        assert abs(a - b) <= 1e-10 * ref.explained_variance_[0]


def test_covariance_path_uses_the_tridiagonal_method_and_agrees_with_jacobi() -> None:
    X = lowrank(200, 40, 8, 0.2, seed=9)
    auto = PCA().fit(X)
    jac = PCA(solver="jacobi").fit(X)
    assert auto.solver_ == "covariance"
    assert_same_top(auto, jac, 40)


@pytest.mark.slow
def test_kernel_pca_tridiagonal_and_krylov_equal_jacobi() -> None:
    rng = random.Random(4)
    X = [[rng.gauss(0.0, 1.0) for _ in range(3)] for _ in range(60)]
    ref = KernelPCA(kernel="rbf", gamma=0.3, eigen_solver="jacobi").fit(X)
    tri = KernelPCA(kernel="rbf", gamma=0.3, eigen_solver="tridiagonal").fit(X)
    assert tri._solver == "tridiagonal"
    # "auto" takes Jacobi up to JACOBI_MAX_N (16 on CPython, 128 under PyPy), else the tridiagonal path.
    assert KernelPCA(kernel="rbf", gamma=0.3).fit(X)._solver == ("jacobi" if JACOBI_MAX_N >= 60 else "tridiagonal")
    top = ref.eigenvalues_[0]
    assert max(abs(a - b) for a, b in zip(tri.eigenvalues_, ref.eigenvalues_)) < 1e-12 * top
    kry = KernelPCA(5, kernel="rbf", gamma=0.3, eigen_solver="krylov").fit(X)
    assert max(abs(a - b) for a, b in zip(kry.eigenvalues_, ref.eigenvalues_[:5])) < 1e-12 * top
    for r, s in zip(kry.transform(X[:4]), ref.transform(X[:4])):
        assert max(abs(a - b) for a, b in zip(r, s[:5])) < 1e-8


@pytest.mark.slow
def test_kernel_pca_krylov_finds_positive_eigenvalues_of_an_indefinite_kernel() -> None:
    # A sigmoid kernel with a large negative eigenvalue: the top k are the
    # algebraically largest, not the largest in magnitude.
    rng = random.Random(8)
    X = [[rng.gauss(0.0, 2.0) for _ in range(4)] for _ in range(80)]
    params = {"kernel": "sigmoid", "gamma": 0.05, "coef0": -1.0, "negative": "drop"}
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = KernelPCA(eigen_solver="jacobi", **params).fit(X)
        kry = KernelPCA(3, eigen_solver="krylov", **params).fit(X)
    assert kry.n_components_ == 3
    assert max(abs(a - b) for a, b in zip(kry.eigenvalues_, ref.eigenvalues_[:3])) < 1e-10 * ref.eigenvalues_[0]


def degenerate_data() -> list[list[float]]:
    # Covariance eigenvalues 6.4, 1.6, 1.6: the 2nd and 3rd tie.
    return [[4.0, 0.0, 0.0], [-4.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, -2.0]]


@pytest.mark.parametrize("solver", ["jacobi", "covariance", "krylov", "power"])
def test_every_solver_reports_a_tie_at_the_boundary_of_the_kept_components(solver: str) -> None:
    from purepca import DegenerateEigenvalueWarning

    with pytest.warns(DegenerateEigenvalueWarning, match=r"eigenvalues 2 and 3 \(1.6, 1.6\) are equal to within 1e-10"):
        pca = PCA(2, solver=solver).fit(degenerate_data())
    assert [round(v, 12) for v in pca.explained_variance_] == [6.4, 1.6]


def test_kernel_pca_reports_degenerate_eigenvalues() -> None:
    import warnings

    from purepca import DegenerateEigenvalueWarning

    for solver in ("jacobi", "krylov", "power"):
        with pytest.warns(DegenerateEigenvalueWarning, match="eigenvalues 2 and 3"):
            KernelPCA(2, eigen_solver=solver).fit(degenerate_data())
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateEigenvalueWarning)
        KernelPCA(1, eigen_solver="krylov").fit(degenerate_data())  # 6.4 is alone: no warning
