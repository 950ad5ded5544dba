"""Row and column weights (issue 11): FactoMineR's row.w and col.w, and weights as frequencies."""

from __future__ import annotations

import math
import random

import pytest

from purepca import PCA, PurePCAError
from purepca.datasets import load

from helpers import assert_close_arrays, assert_factominer_outputs, factominer_pca, max_abs_diff


def _decathlon() -> tuple[list[list[float]], list[list[float]]]:
    data = load("decathlon")
    return [row[:10] for row in data.rows], [row[10:] for row in data.rows]


def _repeat(X: list[list[float]], counts: list[int]) -> list[list[float]]:
    return [list(row) for row, c in zip(X, counts) for _ in range(c)]


# ------------------------------------------------------------ frequencies


@pytest.mark.parametrize("solver", ["auto", "covariance", "jacobi", "gram", "svd"])
@pytest.mark.parametrize("convention", ["sklearn", "prcomp", "factominer"])
def test_integer_weights_are_repeated_rows(solver: str, convention: str) -> None:
    rng = random.Random(7)
    X = [[rng.gauss(0, 1 + j) + (3.0 if j == 1 else 0.0) for j in range(4)] for _ in range(12)]
    counts = [rng.randrange(0, 4) for _ in X]
    counts[0] = 2
    for scale in (False, True):
        kw = dict(n_components=3, convention=convention, scale=scale, solver=solver)
        a = PCA(**kw).fit(X, sample_weight=counts)
        b = PCA(**kw).fit(_repeat(X, counts))
        assert max_abs_diff(a.explained_variance_, b.explained_variance_) < 1e-12 * max(b.explained_variance_)
        assert max_abs_diff(a.mean_, b.mean_) < 1e-14 * 10
        # prcomp's signs are the solver's own, and the Gram matrices differ: compare up to sign there.
        signs = [1.0 if sum(x * y for x, y in zip(u, v)) > 0 else -1.0 for u, v in zip(a.components_, b.components_)]
        assert convention == "prcomp" or signs == [1.0] * 3
        assert max_abs_diff(a.components_, [[s * x for x in v] for s, v in zip(signs, b.components_)]) < 1e-10
        assert max_abs_diff(a.transform(X), [[s * t for s, t in zip(signs, row)] for row in b.transform(X)]) < 1e-10
        assert max_abs_diff(a.singular_values_, b.singular_values_) < 1e-10
        assert a.noise_variance_ == pytest.approx(b.noise_variance_, rel=1e-10, abs=1e-15)
        if scale:
            assert max_abs_diff(a.scale_, b.scale_) < 1e-13
        # T² and its limits take the weights as counts too.
        assert max_abs_diff(a.hotelling_t2(X), b.hotelling_t2(X)) < 1e-9
        assert a.t2_limit(0.05) == pytest.approx(b.t2_limit(0.05), rel=1e-12)


def test_weights_scaled_together_change_nothing_with_ddof_0() -> None:
    X, _ = _decathlon()
    rng = random.Random(3)
    w = [rng.uniform(0.1, 3.0) for _ in X]
    a = PCA(convention="factominer").fit(X, sample_weight=w)
    b = PCA(convention="factominer").fit(X, sample_weight=[v / math.fsum(w) for v in w])
    assert max_abs_diff(a.explained_variance_, b.explained_variance_) < 1e-13
    assert max_abs_diff(a.row_coordinates(X), b.row_coordinates(X)) < 1e-12


def test_equal_weights_are_the_unweighted_fit() -> None:
    X, _ = _decathlon()
    for convention in ("sklearn", "factominer"):
        a = PCA(convention=convention, scale=True).fit(X, sample_weight=[1.0] * len(X), column_weight=[1.0] * 10)
        b = PCA(convention=convention, scale=True).fit(X)
        assert max_abs_diff(a.explained_variance_, b.explained_variance_) < 1e-13
        assert max_abs_diff(a.components_, b.components_) < 1e-12
        assert max_abs_diff(a.scale_, b.scale_) < 1e-14


def test_a_column_weight_is_a_rescaling() -> None:
    """Column weight c_j is the same analysis as the column multiplied by sqrt(c_j)."""
    rng = random.Random(11)
    X = [[rng.gauss(0, 1) for _ in range(3)] for _ in range(20)]
    c = [4.0, 1.0, 0.25]
    a = PCA().fit(X, column_weight=c)
    b = PCA().fit([[x * math.sqrt(cj) for x, cj in zip(row, c)] for row in X])
    assert max_abs_diff(a.explained_variance_, b.explained_variance_) < 1e-13
    assert max_abs_diff(a.components_, b.components_) < 1e-12
    assert max_abs_diff(a.scale_, [1 / math.sqrt(cj) for cj in c]) < 1e-15
    assert max_abs_diff(a.inverse_transform(a.transform(X)), X) < 1e-12


def test_weighted_fit_at_50_digits_agrees() -> None:
    X, _ = _decathlon()
    rng = random.Random(5)
    w = [rng.uniform(0.5, 2.0) for _ in X]
    c = [rng.uniform(0.5, 2.0) for _ in range(10)]
    a = PCA(convention="factominer").fit(X, sample_weight=w, column_weight=c)
    b = PCA(convention="factominer", precision=50).fit(X, sample_weight=w, column_weight=c)
    exact = [float(v) for v in b.high_precision_["explained_variance_"]]
    assert max_abs_diff(a.explained_variance_, exact) < 1e-14 * max(exact)
    assert max_abs_diff(a.components_, b.components_) < 1e-12


# ------------------------------------------------------------ bad input


@pytest.mark.parametrize("kwargs, message", [
    ({"sample_weight": [1.0, 2.0]}, "sample_weight: 2 weights for 41 rows"),
    ({"sample_weight": [1.0] * 40 + [-1.0]}, "sample_weight: entry 40 is -1.0; weights must be >= 0"),
    ({"sample_weight": [0.0] * 41}, "sample_weight: every weight is zero"),
    ({"sample_weight": [1.0] * 40 + [float("nan")]}, "sample_weight: entry 40"),
    ({"sample_weight": [1.0] * 40 + [None]}, "sample_weight: entry 40 is None"),
    ({"sample_weight": "abc"}, "sample_weight"),
    ({"column_weight": [1.0] * 9}, "column_weight: 9 weights for 10 columns"),
    ({"column_weight": [1.0] * 9 + [0.0]}, "column_weight: entry 9 is 0.0; weights must be > 0"),
    ({"sample_weight": [1 / 41] * 41}, "leaves no degrees of freedom with ddof=1"),
])
def test_bad_weights_are_named_and_change_nothing(kwargs: dict, message: str) -> None:
    X, _ = _decathlon()
    pca = PCA(3).fit(X)
    before = (list(pca.explained_variance_), [list(c) for c in pca.components_], pca.n_samples_)
    with pytest.raises(PurePCAError, match=message.replace("(", r"\(").replace(")", r"\)")):
        pca.fit(X, **kwargs)
    assert (pca.explained_variance_, pca.components_, pca.n_samples_) == before


def test_rules_that_assume_equal_weights_refuse_them() -> None:
    X, _ = _decathlon()
    for nc in ("mle", "parallel"):
        with pytest.raises(PurePCAError, match="assumes equally weighted rows"):
            PCA(nc).fit(X, sample_weight=[2.0] * len(X))
    pca = PCA(convention="factominer").fit(X, sample_weight=[1 / len(X)] * len(X))
    with pytest.raises(PurePCAError, match="pass counts, not weights normalised"):
        pca.t2_limit(0.05)
    assert PCA("kaiser", convention="factominer", scale=True).fit(X, sample_weight=[2.0] * len(X)).n_components_ == 4


def test_weights_with_missing_values() -> None:
    X, _ = _decathlon()
    holey = [list(r) for r in X]
    holey[3][2] = None
    w = [1.0 + (i % 3) for i in range(len(X))]
    dropped = PCA(2, missing="drop").fit(holey, sample_weight=w)
    direct = PCA(2).fit(X[:3] + X[4:], sample_weight=w[:3] + w[4:])
    assert max_abs_diff(dropped.explained_variance_, direct.explained_variance_) < 1e-13
    filled = PCA(2, missing="mean").fit(holey, sample_weight=w)
    present = [(row[2], wi) for row, wi in zip(holey, w) if row[2] is not None]
    mean = math.fsum(v * wi for v, wi in present) / math.fsum(wi for _, wi in present)
    assert filled.imputed_[3][2] == pytest.approx(mean, rel=1e-15)
    em = PCA(3, missing="em").fit(holey, sample_weight=w)
    assert em.n_iter_ >= 1


# ------------------------------------------------------------ FactoMineR's formulas



@pytest.mark.parametrize("name, scale, seed", [("decathlon", True, 1), ("decathlon", False, 2), ("iris", True, 3),
                                              ("iris", False, 4), ("usarrests", True, 5)])
def test_weighted_outputs_equal_factominers_formulas(name: str, scale: bool, seed: int) -> None:
    data = load(name)
    d = 10 if name == "decathlon" else len(data.columns)
    X = [row[:d] for row in data.rows]
    rng = random.Random(seed)
    row_w = [rng.uniform(0.1, 5.0) for _ in X]
    col_w = [rng.uniform(0.2, 3.0) for _ in range(d)]
    sup = [row[d:] for row in data.rows] if name == "decathlon" else [[row[0] * row[1]] for row in data.rows]
    pytest.importorskip("numpy")
    ref = factominer_pca(X, row_w, col_w, scale=scale, sup=sup)
    pca = PCA(convention="factominer", scale=scale).fit(X, sample_weight=row_w, column_weight=col_w)
    k = pca.n_components_
    assert_factominer_outputs(pca, X, ref, 1e-12)
    got = pca.supplementary_columns(sup)
    assert_close_arrays(got["coord"], ref["sup.coord"][:, :k], 1e-12)
    assert_close_arrays(got["cor"], ref["sup.cor"][:, :k], 1e-12)
    assert_close_arrays(got["cos2"], ref["sup.cos2"][:, :k], 1e-12)
    assert_close_arrays(pca.supplementary_column_correlations(sup), ref["sup.cor"][:, :k], 1e-12)
    # The FactoMineR weights normalised to sum to 1 give the same analysis.
    again = PCA(convention="factominer", scale=scale).fit(X, sample_weight=[w / sum(row_w) for w in row_w],
                                                          column_weight=col_w)
    assert_close_arrays(again.row_contributions_, ref["ind.contrib"][:, :k], 1e-12)


def test_weighted_identities() -> None:
    X, _ = _decathlon()
    rng = random.Random(9)
    w = [rng.uniform(0.1, 2.0) for _ in X]
    c = [rng.uniform(0.5, 2.0) for _ in range(10)]
    pca = PCA(convention="sklearn", scale=True).fit(X, sample_weight=w, column_weight=c)
    assert all(abs(math.fsum(col) - 100) < 1e-9 for col in zip(*pca.row_contributions_))
    assert all(abs(math.fsum(col) - 100) < 1e-9 for col in zip(*pca.column_contributions_))
    assert all(abs(math.fsum(row) - 1) < 1e-12 for row in pca.row_cos2(X))
    assert all(abs(math.fsum(row) - 1) < 1e-12 for row in pca.column_cos2_)
    # Scores have weighted mean 0 and weighted variance λ.
    T = pca.transform(X)
    W = math.fsum(w)
    for k, lam in enumerate(pca.explained_variance_):
        assert abs(math.fsum(wi * t[k] for wi, t in zip(w, T)) / W) < 1e-12
        assert math.fsum(wi * t[k] ** 2 for wi, t in zip(w, T)) / (W - 1) == pytest.approx(lam, rel=1e-12)


def test_a_saved_weighted_model_is_the_same_model() -> None:
    from purepca.model_io import pca_from_json, pca_to_json

    X, _ = _decathlon()
    pca = PCA(2, scale=True).fit(X, sample_weight=[1 + i % 3 for i in range(len(X))],
                                 column_weight=[1 + j % 2 for j in range(10)])
    back = pca_from_json(pca_to_json(pca))
    assert back.transform(X) == pca.transform(X)
    assert back.hotelling_t2(X) == pca.hotelling_t2(X)
    assert (back.t2_limit(0.05), back.spe_limit(0.05)) == (pca.t2_limit(0.05), pca.spe_limit(0.05))
    assert back.column_coordinates_ == pca.column_coordinates_


@pytest.mark.parametrize("weighted, scale", [(False, True), (True, True), (True, False)])
def test_supplementary_categories_equal_factominers_formulas(weighted: bool, scale: bool) -> None:
    """quali.sup (barycentres, dist, cos2, v.test, eta2) against the transcription of PCA.R, on the
    decathlon's Competition and on iris's species, with and without row.w and col.w."""
    pytest.importorskip("numpy")
    rng = random.Random(31)
    for name in ("decathlon", "iris"):
        data = load(name)
        d = 10 if name == "decathlon" else 4
        X = [row[:d] for row in data.rows]
        labels = list(data.groups[1]) if data.groups is not None else data.labels
        row_w = [float(rng.randrange(1, 4)) for _ in X] if weighted else None
        col_w = [rng.uniform(0.5, 2.0) for _ in range(d)] if weighted else None
        ref = factominer_pca(X, row_w, col_w, scale=scale, quali=labels)
        pca = PCA(convention="factominer", scale=scale).fit(X, sample_weight=row_w, column_weight=col_w)
        got = pca.supplementary_categories(labels)
        k = pca.n_components_
        assert got["levels"] == ref["quali.levels"]
        assert_close_arrays(got["coord"], ref["quali.coord"][:, :k], 1e-12)
        assert_close_arrays(got["dist"], ref["quali.dist"], 1e-12)
        assert_close_arrays(got["cos2"], ref["quali.cos2"][:, :k], 1e-12)
        assert_close_arrays(got["v_test"], ref["quali.vtest"][:, :k], 1e-12)
        assert_close_arrays(got["eta2"], ref["quali.eta2"][:k], 1e-12)


def test_supplementary_categories_validate() -> None:
    X, _ = _decathlon()
    pca = PCA(convention="factominer", scale=True).fit(X)
    with pytest.raises(PurePCAError, match=r"labels: need one label per training row \(41\), got 3"):
        pca.supplementary_categories(["a", "b", "c"])
    with pytest.raises(PurePCAError, match="labels: entry 2 is missing"):
        pca.supplementary_categories(["a", "b", None] + ["a"] * 38)
    with pytest.raises(PurePCAError, match="labels: need one label per training row"):
        pca.supplementary_categories("abc")
    one = pca.supplementary_categories(["all"] * 41)
    assert one["v_test"][0] == [0.0] * 10 and max(abs(v) for v in one["coord"][0]) < 1e-12
    weighted = PCA(convention="factominer").fit(X, sample_weight=[1.0] * 40 + [0.0])
    with pytest.raises(PurePCAError, match="category 'z' has no row of positive weight"):
        weighted.supplementary_categories(["a"] * 40 + ["z"])


@pytest.mark.parametrize("solver", ["auto", "covariance", "svd", "gram", "krylov"])
@pytest.mark.parametrize("scale", [False, True])
@pytest.mark.parametrize("size", [1e200, 1e-200])
def test_weighted_fits_near_the_ends_of_the_float_range_are_the_repeated_rows(solver: str, scale: bool,
                                                                               size: float) -> None:
    # The weighted data are scaled by powers of two as the unweighted are: their Gram overflowed (a raw
    # OverflowError on 3.11, components [1, 0] on 3.13), and scale=True refused both sizes.
    rng = random.Random(1)
    base = [[size * rng.gauss(0, s) for s in (1.0, 2.0, 1.0)] for _ in range(8)]
    w = [1.0, 2.0, 1.0, 3.0, 1.0, 1.0, 2.0, 1.0]
    repeated = [row for row, k in zip(base, w) for _ in range(int(k))]
    k = 2 if solver == "krylov" else None
    a = PCA(k, solver=solver, scale=scale).fit(base, sample_weight=w)
    b = PCA(k, solver=solver, scale=scale).fit(repeated)
    for x, y in zip(a.explained_variance_, b.explained_variance_):
        assert x == y if not 0.0 < y < math.inf else abs(x - y) <= 1e-13 * y
    assert max_abs_diff(a.components_, b.components_) < 1e-13
    if scale:
        assert a.explained_variance_[0] == pytest.approx(b.explained_variance_[0], rel=1e-13) and 1.0 < a.explained_variance_[0] < 3.0


@pytest.mark.parametrize("size", [1e-300, 1e-310, 1e300, 1e307])
@pytest.mark.parametrize("options", [{"convention": "factominer"}, {"scale": True, "ddof": 0}, {"ddof": 0}])
def test_the_size_of_the_weights_changes_nothing_with_ddof_0(size: float, options: dict) -> None:
    # Weights of 1e-300 with scaling gave eigenvalues of 3e299 (a hostile battery's find); weights summing
    # past the float range raised a raw OverflowError. The weights are scaled by a power of two inside.
    X = [[1.0, 2.0, 0.5], [3.0, 5.0, -1.0], [4.0, 4.0, 2.5], [2.0, 2.0, 0.0], [0.5, 3.0, 1.0]]
    weights = [1.0, 2.0, 0.5, 1.0, 3.0]
    a = PCA(**options).fit(X, sample_weight=weights)
    b = PCA(**options).fit(X, sample_weight=[w * size for w in weights])
    # (weights of 1e-310 are subnormal: 8 of their bits are lost, hence 1e-12 rather than a few eps)
    assert max_abs_diff([a.explained_variance_], [b.explained_variance_]) < 1e-12 * a.explained_variance_[0]
    assert max_abs_diff(a.components_, b.components_) < 1e-12
    assert max_abs_diff(a.transform(X), b.transform(X)) < 1e-11
    ratio = math.sqrt(size)  # singular values grow with the square root of the weights' total
    assert b.singular_values_[0] == pytest.approx(a.singular_values_[0] * ratio, rel=1e-12)


def test_weights_summing_past_the_float_range_fit() -> None:
    X = [[1.0, 2.0, 0.5], [3.0, 5.0, -1.0], [4.0, 4.0, 2.5], [2.0, 2.0, 0.0], [0.5, 3.0, 1.0]]
    a = PCA(ddof=0).fit(X, sample_weight=[1e308, 1e308, 1e308, 1.0, 1.0])
    b = PCA(ddof=0).fit(X[:3])  # the two rows of weight 1 are nothing beside the others
    assert max_abs_diff([a.explained_variance_], [b.explained_variance_]) < 1e-12
    assert max_abs_diff(a.components_, b.components_) < 1e-12
