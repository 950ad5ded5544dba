"""n_components = "kaiser", "broken_stick", "parallel" (issue 11)."""

from __future__ import annotations

import math
import random

import pytest

from purepca import PCA, PurePCAError
from purepca.datasets import load
from purepca.selection import broken_stick, kaiser, parallel_analysis


def test_kaiser_keeps_eigenvalues_above_one_on_a_correlation_matrix() -> None:
    X = load("usarrests").rows
    pca = PCA("kaiser", scale=True, convention="prcomp").fit(X)
    full = PCA(scale=True, convention="prcomp").fit(X)
    assert pca.n_components_ == sum(1 for v in full.explained_variance_ if v > 1) == 1
    cov = PCA("kaiser").fit(load("iris").rows)
    allv = PCA().fit(load("iris").rows).explained_variance_
    assert cov.n_components_ == sum(1 for v in allv if v > sum(allv) / 4)


def test_broken_stick_expectations() -> None:
    # b_i = (1/p) Σ_{j>=i} 1/j: for p = 4, 0.5208, 0.2708, 0.1458, 0.0625.
    assert broken_stick([0.53, 0.28, 0.15, 0.04], 4) == 3
    assert broken_stick([0.52, 0.30, 0.15, 0.03], 4) == 0
    X = load("usarrests").rows
    ratios = PCA(scale=True).fit(X).explained_variance_ratio_
    expected = [math.fsum(1 / j for j in range(i, 5)) / 4 for i in range(1, 5)]
    k = 0
    while k < 4 and ratios[k] > expected[k]:
        k += 1
    assert PCA("broken_stick", scale=True).fit(X).n_components_ == k


@pytest.mark.budget(2)  # 0.6-0.9 s measured on a busy 2-core machine: 1 s left no room for its noise
def test_parallel_analysis_against_numpy() -> None:
    np = pytest.importorskip("numpy")
    n, d = 60, 5
    thresholds = parallel_analysis(n, d, scale=True, iterations=200, quantile=0.95, seed=3)
    # The same simulation drawn with numpy's generator: the thresholds agree statistically.
    gen = np.random.default_rng(3)
    sims = np.array([np.sort(np.linalg.eigvalsh(np.corrcoef(gen.standard_normal((n, d)), rowvar=False)))[::-1]
                     for _ in range(2000)])
    reference = np.quantile(sims, 0.95, axis=0)
    assert np.abs(np.array(thresholds) - reference).max() < 0.08
    assert all(a > b for a, b in zip(thresholds, thresholds[1:]))


@pytest.mark.slow
def test_parallel_on_data_with_two_real_directions() -> None:
    rng = random.Random(7)
    rows = []
    for _ in range(200):
        a, b = rng.gauss(0, 3), rng.gauss(0, 2)
        rows.append([a + rng.gauss(0, 1), a - b + rng.gauss(0, 1), b + rng.gauss(0, 1), rng.gauss(0, 1),
                     rng.gauss(0, 1), a + b + rng.gauss(0, 1)])
    assert PCA("parallel", scale=True, seed=1).fit(rows).n_components_ == 2
    # Covariance: random columns with the data's variances, so the thresholds have the data's units
    # (and are more demanding: the largest random eigenvalue is about the largest column variance).
    cov = PCA("parallel", seed=1).fit(rows)
    full = PCA().fit(rows)
    thresholds = parallel_analysis(200, 6, scale=False, sd=[math.sqrt(sum((r[j] - sum(x[j] for x in rows) / 200) ** 2
                                                                             for r in rows) / 199) for j in range(6)],
                                   seed=1)
    k = 0
    while k < 6 and full.explained_variance_[k] > thresholds[k]:
        k += 1
    assert cov.n_components_ == k >= 1
    again = PCA("parallel", scale=True, seed=1).fit(rows)
    assert again.n_components_ == 2  # seeded: the same answer every time
    assert PCA("parallel", seed=1).partial_fit(rows).n_components_ == k


def test_rules_validate() -> None:
    with pytest.raises(PurePCAError, match="'kaiser', 'broken_stick' or 'parallel'"):
        PCA("scree").fit([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    with pytest.raises(PurePCAError, match="quantile"):
        parallel_analysis(10, 2, scale=True, quantile=1.0)
    assert kaiser([3.0, 1.0], 4.0, 2) == 1


@pytest.mark.slow
@pytest.mark.parametrize("name, d", [("decathlon", 10), ("usarrests", 4), ("iris", 4)])
def test_rules_give_the_k_of_an_independent_computation(name: str, d: int) -> None:
    """Kaiser, the broken stick and parallel analysis on the three data sets of the issue, each rule
    recomputed with numpy: eigvalsh of the correlation matrix, the broken-stick sums, and a parallel
    analysis of 4000 numpy-drawn normal data sets (its quantiles are what ours estimate from 100)."""
    np = pytest.importorskip("numpy")
    X = [row[:d] for row in load(name).rows]
    A = np.array(X)
    n = len(X)
    ev = np.sort(np.linalg.eigvalsh(np.corrcoef(A, rowvar=False)))[::-1]

    def leading(values, limits):  # type: ignore[no-untyped-def]
        k = 0
        while k < len(values) and values[k] > limits[k]:
            k += 1
        return k

    assert PCA("kaiser", scale=True).fit(X).n_components_ == int((ev > 1).sum())
    stick = [sum(1 / j for j in range(i, d + 1)) / d for i in range(1, d + 1)]
    assert PCA("broken_stick", scale=True).fit(X).n_components_ == leading(ev / ev.sum(), stick)
    gen = np.random.default_rng(0)
    sims = np.array([np.sort(np.linalg.eigvalsh(np.corrcoef(gen.standard_normal((n, d)), rowvar=False)))[::-1]
                     for _ in range(4000)])
    for q in (0.5, 0.95):
        expected = leading(ev, np.quantile(sims, q, axis=0))
        got = [PCA("parallel", scale=True, parallel_quantile=q, seed=0).fit(X).n_components_ for _ in range(2)]
        assert got == [expected, expected], (q, got, expected)
    # FactoMineR's decathlon example: components 1 to 4 have eigenvalues above 1.
    if name == "decathlon":
        assert PCA("kaiser", scale=True).fit(X).n_components_ == 4


@pytest.mark.budget(2)  # 0.6-0.9 s measured on a busy 2-core machine: 1 s left no room for its noise
def test_parallel_quantile_is_a_parameter() -> None:
    X = [row[:10] for row in load("decathlon").rows]
    assert PCA("parallel", scale=True, parallel_quantile=0.5).fit(X).n_components_ == 3
    assert PCA("parallel", scale=True).get_params()["parallel_quantile"] == 0.95
    for bad in (0.0, 1.0, 1.5, "x"):
        with pytest.raises(PurePCAError, match="parallel_quantile"):
            PCA("parallel", parallel_quantile=bad).fit(X)


def test_parallel_analysis_thresholds_scale_with_the_data_by_powers_of_two_bit_for_bit() -> None:
    # The simulation runs in units of the largest sd's power of two: data near the ends of the float
    # range give the thresholds of unit data times 2**(2e), where the squares of the draws would overflow.
    unit = parallel_analysis(30, 3, scale=False, sd=[1.0, 0.75, 0.5], iterations=20, seed=2)
    for e in (-480, -420, 420, 480):
        big = parallel_analysis(30, 3, scale=False, sd=[math.ldexp(s, e) for s in (1.0, 0.75, 0.5)], iterations=20,
                                seed=2)
        assert big == [math.ldexp(t, 2 * e) for t in unit]
    assert parallel_analysis(30, 3, scale=False, sd=[1e200, 1e200, 1.0], iterations=5)[0] == math.inf


@pytest.mark.parametrize("scale", [1e200, 1e300, 1e-200])
def test_parallel_keeps_as_many_components_of_data_near_the_ends_of_the_float_range(scale: float) -> None:
    # 663fddd: ValueError "-inf + inf in fsum" at 1e200 (the null's draws squared overflowed).
    rng = random.Random(5)
    base = [[rng.gauss(0, 1) for _ in range(5)] for _ in range(40)]
    rows = [[(r[0] + 0.2 * r[j]) if j < 3 else r[j] for j in range(5)] for r in base]
    k = PCA("parallel").fit(rows).n_components_
    assert k == 1
    assert PCA("parallel").fit([[x * scale for x in r] for r in rows]).n_components_ == k
