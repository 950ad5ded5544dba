"""PCA: n_components, whitening, round trips, streaming, precision, conventions, errors."""

from __future__ import annotations

import copy
import math
import random
from decimal import Decimal

import pytest

from purepca import PCA, NotFittedError, PurePCAError
from purepca.datasets import toy_data
from purepca.pca import components_for_fraction


def random_data(n: int, d: int, seed: int = 0, offset: float = 5.0) -> list[list[float]]:
    rng = random.Random(seed)
    latent = [[rng.gauss(0, 1) for _ in range(2)] for _ in range(n)]
    return [[offset + l[0] * (j + 1) + l[1] * (d - j) + rng.gauss(0, 0.3) for j in range(d)] for l in latent]


def rel_close(a: list[float], b: list[float], tol: float) -> bool:
    scale = max(max(map(abs, b)), 1e-300)
    return all(abs(x - y) <= tol * scale for x, y in zip(a, b))


# ------------------------------------------------------------ n_components


def sylvester(k: int) -> list[list[int]]:
    H = [[1]]
    for _ in range(k):
        H = [row + row for row in H] + [row + [-x for x in row] for row in H]
    return H


@pytest.mark.filterwarnings("ignore::purepca.DegenerateEigenvalueWarning")  # the data are degenerate on purpose
def test_fraction_picks_the_same_k_as_scikit_learn_including_exact_equality() -> None:
    np = pytest.importorskip("numpy")
    skd = pytest.importorskip("sklearn.decomposition")
    # Orthogonal ±1 columns (Hadamard) with variances 4 : 1 : 1 : 1 : 1, so the
    # ratios are exactly 1/2, 1/8, 1/8, 1/8, 1/8 and the cumulative ratios
    # exactly 0.5, 0.625, 0.75, 0.875.
    H = sylvester(3)
    X = [[2.0 * row[1], row[2], row[3], row[4], row[5]] for row in H]
    ratios = PCA().fit(X).explained_variance_ratio_
    assert ratios == [0.5, 0.125, 0.125, 0.125, 0.125]
    exact = [0.5, 0.625, 0.75, 0.875]
    thresholds = exact + [0.3, 0.6, 0.9, 0.99]
    thresholds += [math.nextafter(t, 0) for t in exact] + [math.nextafter(t, 1) for t in exact]
    # Which side of an exact tie a solver lands on depends on its last bit
    # (LAPACK's singular values here square to 32.00000000000001, not 32), so
    # the rule is checked on scikit-learn's own ratios, at its own cumulative
    # sums and one ulp either side...
    ref = skd.PCA(svd_solver="full").fit(np.array(X))
    their_ratios = ref.explained_variance_ratio_.tolist()
    their_cumsum = np.cumsum(ref.explained_variance_ratio_).tolist()
    ties = their_cumsum[:-1]
    for t in ties + [math.nextafter(t, 0) for t in ties] + [math.nextafter(t, 1) for t in ties] + thresholds:
        theirs = skd.PCA(t, svd_solver="full").fit(np.array(X)).n_components_
        assert components_for_fraction(their_ratios, t) == theirs, t
    # ... and end to end on purepca's exact ratios: at exact equality one
    # more component is kept, as scikit-learn's side="right" does.
    assert PCA(0.5).fit(X).n_components_ == 2
    assert PCA(math.nextafter(0.5, 0)).fit(X).n_components_ == 1
    assert PCA(0.75).fit(X).n_components_ == 4
    assert PCA(0.9).fit(X).n_components_ == 5


@pytest.mark.parametrize("case", ["mle_600x10", "infer_dim_1", "infer_dim_2", "infer_dim_3"])
def test_mle_picks_the_same_k_as_scikit_learn(case: str) -> None:
    np = pytest.importorskip("numpy")
    skd = pytest.importorskip("sklearn.decomposition")
    rng = np.random.RandomState(0)
    # The data of scikit-learn's own tests of n_components="mle".
    if case == "mle_600x10":
        X = rng.randn(600, 10)
    elif case == "infer_dim_1":
        X = rng.randn(1000, 5) * 0.1 + rng.randn(1000, 1) * np.array([3, 4, 5, 1, 2]) + np.array([1, 0, 7, 4, 6])
    elif case == "infer_dim_2":
        X = rng.randn(1000, 5) * 0.1
        X[:10] += np.array([3, 4, 5, 1, 2])
        X[10:20] += np.array([6, 0, 7, 2, -1])
    else:
        X = rng.randn(100, 5) * 0.1
        X[:10] += np.array([3, 4, 5, 1, 2])
        X[10:20] += np.array([6, 0, 7, 2, -1])
        X[30:40] += 2 * np.array([-1, 1, -1, 1, -1])
    theirs = skd.PCA("mle", svd_solver="full").fit(X)
    ours = PCA("mle").fit(X.tolist())
    assert ours.n_components_ == theirs.n_components_
    assert abs(ours.noise_variance_ - theirs.noise_variance_) <= 1e-10 * theirs.noise_variance_


def test_n_components_none_keeps_min_n_d() -> None:
    assert PCA().fit(random_data(3, 6)).n_components_ == 3
    assert PCA().fit(random_data(10, 4)).n_components_ == 4


# ------------------------------------------------- whitening and round trips


@pytest.mark.parametrize("solver", ["jacobi", "gram", "svd"])
@pytest.mark.parametrize("ddof", [0, 1])
def test_whitened_scores_have_unit_variance_with_the_chosen_divisor(solver: str, ddof: int) -> None:
    X = random_data(30, 4, seed=3)
    Z = PCA(whiten=True, ddof=ddof, solver=solver).fit_transform(X)
    n = len(Z)
    for j in range(len(Z[0])):
        col = [row[j] for row in Z]
        mean = math.fsum(col) / n
        var = math.fsum((x - mean) ** 2 for x in col) / (n - ddof)
        assert abs(var - 1.0) < 1e-12
        assert abs(mean) < 1e-12


@pytest.mark.parametrize("solver", ["jacobi", "gram", "svd"])
@pytest.mark.parametrize("whiten", [False, True])
@pytest.mark.parametrize("scale", [False, True])
def test_inverse_transform_returns_x_when_all_components_are_kept(solver: str, whiten: bool, scale: bool) -> None:
    for X in (random_data(25, 5, seed=4, offset=1e3), random_data(4, 3, seed=5)):
        pca = PCA(whiten=whiten, scale=scale, solver=solver).fit(X)
        back = pca.inverse_transform(pca.transform(X))
        for row, orig in zip(back, X):
            assert rel_close(row, orig, 1e-12)


def test_whitening_a_zero_variance_component_is_clipped_not_infinite() -> None:
    X = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]]  # rank 1
    Z = PCA(whiten=True).fit_transform(X)
    assert all(math.isfinite(v) for row in Z for v in row)


# ---------------------------------------------------------------- streaming


def assert_same_model(a: PCA, b: PCA, tol: float = 1e-12) -> None:
    assert a.n_components_ == b.n_components_ and a.n_samples_ == b.n_samples_
    assert rel_close(a.explained_variance_, b.explained_variance_, tol)
    assert rel_close(a.mean_, b.mean_, tol)
    for u, v in zip(a.components_, b.components_):
        assert rel_close(u, v, tol)


@pytest.mark.slow
@pytest.mark.parametrize("scale", [False, True])
def test_partial_fit_in_any_chunks_equals_fit(scale: bool) -> None:
    # Distinct noise levels keep the eigenvalues apart, so the components are
    # well conditioned and the comparison at 1e-12 measures the method.
    rng = random.Random(6)
    X = []
    for _ in range(1000):
        a, b = rng.gauss(0, 1), rng.gauss(0, 1)
        X.append([1e6 + 3 * a + rng.gauss(0, 0.1), 1e6 + a + 2 * b + rng.gauss(0, 0.4),
                  1e6 - b + rng.gauss(0, 0.9), 1e6 + 0.5 * a - b + rng.gauss(0, 0.2)])
    full = PCA(scale=scale).fit(X)
    for chunks in (1, 10, 1000):
        size = len(X) // chunks
        pca = PCA(scale=scale)
        for i in range(0, len(X), size):
            pca.partial_fit(X[i : i + size])
        assert_same_model(pca, full)
    streamed = PCA(scale=scale).fit_stream(row for row in X)
    assert_same_model(streamed, full)


def test_partial_fit_keeps_the_model_when_a_batch_is_bad() -> None:
    X = random_data(20, 3, seed=7)
    pca = PCA().partial_fit(X)
    before = copy.deepcopy(pca.components_)
    with pytest.raises(PurePCAError, match=r"X: row 1, column 2 is NaN"):
        pca.partial_fit([[1.0, 2.0, 3.0], [1.0, 2.0, float("nan")]])
    with pytest.raises(PurePCAError, match=r"X has 2 features, but PCA is expecting 3 features as input \(what partial_fit has seen\)"):
        pca.partial_fit([[1.0, 2.0]])
    assert pca.components_ == before and pca.n_samples_ == 20


def test_partial_fit_refuses_a_change_of_precision() -> None:
    pca = PCA().partial_fit([[1.0, 2.0], [2.0, 3.5]])
    pca.set_params(precision=30)
    with pytest.raises(PurePCAError, match=r"precision changed between partial_fit calls \(float to decimal\(30\)\)"):
        pca.partial_fit([[3.0, 1.0]])
    assert pca.n_samples_ == 2


def test_partial_fit_with_one_row_is_not_fitted_yet() -> None:
    pca = PCA().partial_fit([[1.0, 2.0]])
    with pytest.raises(NotFittedError, match=r"partial_fit has seen 1 sample; it needs 2"):
        pca.transform([[1.0, 2.0]])
    pca.partial_fit([[2.0, 3.5]])
    assert pca.n_samples_ == 2
    with pytest.raises(NotFittedError, match=r"x \(the training scores\) needs fit\(X\)"):
        pca.x  # noqa: B018


# ---------------------------------------------------------------- precision


def test_precision_50_is_within_one_ulp_of_mpmath_on_seed_003() -> None:
    mpmath = pytest.importorskip("mpmath")
    X = toy_data()
    n, d = len(X), len(X[0])
    pca = PCA(precision=50).fit(X)
    assert isinstance(pca.high_precision_["explained_variance_"][0], Decimal)
    with mpmath.workdps(50):
        M = [[mpmath.mpf(x) for x in row] for row in X]
        mean = [mpmath.fsum(row[j] for row in M) / n for j in range(d)]
        C = mpmath.matrix(d, d)
        for i in range(d):
            for j in range(d):
                C[i, j] = mpmath.fsum((r[i] - mean[i]) * (r[j] - mean[j]) for r in M) / (n - 1)
        E, Q = mpmath.eigsy(C)
        order = sorted(range(d), key=lambda i: -E[i])
        values = [E[i] for i in order]
        comps = []
        for i in order:
            v = [Q[j, i] for j in range(d)]
            big = max(range(d), key=lambda j: abs(v[j]))
            comps.append([-x for x in v] if v[big] < 0 else v)
        total = mpmath.fsum(values)
        expected = {
            "explained_variance_": values,
            "explained_variance_ratio_": [v / total for v in values],
            "singular_values_": [mpmath.sqrt(v * (n - 1)) for v in values],
            "sdev": [mpmath.sqrt(v) for v in values],
            "mean_": mean,
        }
        for name, want in expected.items():
            got = getattr(pca, name)
            for a, b in zip(got, want):
                assert abs(a - float(b)) <= math.ulp(float(b)), (name, a, b)
        for row, want_row in zip(pca.components_, comps):
            for a, b in zip(row, want_row):
                assert abs(a - float(b)) <= math.ulp(float(b)), ("components_", a, b)
        # The scores of the training data (R's x) and of transform.
        scores = [[mpmath.fsum((x - m) * c for x, m, c in zip(r, mean, v)) for v in comps] for r in M]
        for got_rows in (pca.x, pca.transform(X)):
            for row, want_row in zip(got_rows, scores):
                for a, b in zip(row, want_row):
                    assert abs(a - float(b)) <= math.ulp(float(b)), ("scores", a, b)


# -------------------------------------------------------------- conventions


def test_princomp_uses_divisor_n_and_first_entry_positive() -> None:
    X = toy_data()
    n = len(X)
    pr = PCA(convention="prcomp").fit(X)
    pc = PCA(convention="princomp").fit(X)
    assert all(abs(a - b * math.sqrt((n - 1) / n)) < 1e-15 for a, b in zip(pc.sdev, pr.sdev))
    assert all(v[0] >= 0 for v in pc.components_)
    assert pc.component_names == ["Comp.1", "Comp.2"]
    # An explicit parameter overrides the preset.
    assert PCA(convention="princomp", ddof=1).fit(X).explained_variance_ == pr.explained_variance_


def test_factominer_is_correlation_pca_with_divisor_n() -> None:
    X = random_data(12, 4, seed=8)
    pca = PCA(convention="factominer").fit(X)
    assert abs(sum(pca.explained_variance_) - 4.0) < 1e-13  # eigenvalues of a correlation matrix
    assert pca.scale_ is not None and all(s > 0 for s in pca.scale_)
    n = len(X)
    for j, s in enumerate(pca.scale_):
        col = [row[j] for row in X]
        m = sum(col) / n
        assert abs(s - math.sqrt(sum((x - m) ** 2 for x in col) / n)) < 1e-12 * s
    assert all(sum(v) >= 0 for v in pca.components_)
    assert pca.component_names[0] == "Dim.1"


@pytest.mark.parametrize("rule", ["max_abs_positive", "first_positive", "sum_positive", "none"])
def test_sign_rules_only_flip_whole_components(rule: str) -> None:
    X = random_data(15, 3, seed=9)
    base = PCA(sign="none").fit(X)
    pca = PCA(sign=rule).fit(X)
    for u, v, su, sv in zip(base.components_, pca.components_, zip(*base.x), zip(*pca.x)):
        s = 1.0 if u[0] * v[0] > 0 else -1.0
        assert [s * a for a in u] == v
        assert [s * a for a in su] == list(sv)


def test_center_false_is_pca_about_the_origin() -> None:
    X = random_data(10, 3, seed=10)
    pca = PCA(center=False, convention="prcomp").fit(X)
    assert pca.mean_ == [0.0, 0.0, 0.0]
    n = len(X)
    M = [[math.fsum(r[i] * r[j] for r in X) / (n - 1) for j in range(3)] for i in range(3)]
    v = pca.components_[0]
    Mv = [math.fsum(a * b for a, b in zip(row, v)) for row in M]
    assert max(abs(a - pca.explained_variance_[0] * b) for a, b in zip(Mv, v)) < 1e-12 * pca.explained_variance_[0]


# ------------------------------------------------- probabilistic PCA (sklearn)


@pytest.mark.parametrize("k", [1, 2, 4])
@pytest.mark.parametrize("whiten", [False, True])
def test_probabilistic_pca_matches_scikit_learn(k: int, whiten: bool) -> None:
    np = pytest.importorskip("numpy")
    skd = pytest.importorskip("sklearn.decomposition")
    X = random_data(40, 4, seed=11)
    Y = random_data(5, 4, seed=12)
    theirs = skd.PCA(k, whiten=whiten, svd_solver="full").fit(np.array(X))
    ours = PCA(k, whiten=whiten).fit(X)
    for a, b in zip(ours.get_covariance(), theirs.get_covariance().tolist()):
        assert rel_close(a, b, 1e-10)
    for a, b in zip(ours.get_precision(), theirs.get_precision().tolist()):
        assert rel_close(a, b, 1e-8)
    assert rel_close(ours.score_samples(Y), theirs.score_samples(np.array(Y)).tolist(), 1e-10)
    assert abs(ours.score(Y) - theirs.score(np.array(Y))) <= 1e-10 * abs(theirs.score(np.array(Y)))
    assert abs(ours.noise_variance_ - theirs.noise_variance_) <= 1e-10 * max(theirs.noise_variance_, 1e-300)


def test_reconstruction_error() -> None:
    X = random_data(20, 3, seed=13)
    assert PCA().fit(X).reconstruction_error(X) < 1e-20
    pca = PCA(1).fit(X)
    back = pca.inverse_transform(pca.transform(X))
    want = math.fsum(math.fsum((a - b) ** 2 for a, b in zip(r, s)) for r, s in zip(X, back)) / len(X)
    assert abs(pca.reconstruction_error(X) - want) <= 1e-12 * want


# ------------------------------------------------------------ the protocol


class FakeFrame:
    """Just enough of a data frame: ``columns`` and ``to_numpy`` (no pandas needed)."""

    def __init__(self, rows: list[list[float]], columns: list[str]) -> None:
        self.rows, self.columns = rows, columns

    def to_numpy(self) -> list[list[float]]:
        return self.rows


def test_estimator_protocol() -> None:
    pca = PCA(2, whiten=True)
    assert pca.get_params()["n_components"] == 2
    assert pca.set_params(n_components=1) is pca and pca.n_components == 1
    assert repr(pca) == "PCA(n_components=1, whiten=True)"
    with pytest.raises(NotFittedError, match=r"this PCA is not fitted yet; call fit"):
        pca.transform([[1.0, 2.0]])
    with pytest.raises(AttributeError):
        pca.components_  # noqa: B018
    X = random_data(10, 3)
    assert pca.fit(X) is pca
    assert pca.n_features_in_ == 3 and pca.n_samples_ == 10
    assert pca.get_feature_names_out() == ["pca0"]
    assert pca.feature_names_in_ is None
    frame = FakeFrame(X, ["a", "b", "c"])
    pca.fit(frame)
    assert pca.feature_names_in_ == ["a", "b", "c"]
    with pytest.raises(PurePCAError, match=r"X has feature names \['a', 'c', 'b'\], but PCA was fitted with \['a', 'b', 'c'\]"):
        pca.transform(FakeFrame(X, ["a", "c", "b"]))


def test_fit_never_mutates_its_input() -> None:
    X = random_data(10, 3)
    before = copy.deepcopy(X)
    for solver in ("jacobi", "gram", "svd", "power"):
        PCA(2, solver=solver, scale=True, whiten=True).fit_transform(X)
    assert X == before


def test_auto_solver_choice() -> None:
    # The full paths by shape; Krylov for a few components where the cost
    # model predicts it at least twice as cheap (purepca.solvers.choose_solver).
    assert PCA()._choose_solver(100, 10) == "covariance"
    assert PCA()._choose_solver(5, 10) == "gram"
    assert PCA(3)._choose_solver(1000, 300) == "krylov"
    assert PCA(100)._choose_solver(1000, 300) == "covariance"
    assert PCA(5)._choose_solver(10_000, 50) == "covariance"
    assert PCA(5)._choose_solver(200, 1_000) == "krylov"
    assert PCA(0.9)._choose_solver(200, 1_000) == "gram"
    assert PCA(solver="svd")._choose_solver(200, 1_000) == "svd"


def test_auto_solver_choice_by_shape_is_the_cost_models_choice() -> None:
    # "auto" with every component asked returns the shape's full path at once (purepca.fitting.Settings):
    # it must be what the cost model (purepca.solvers.choose_solver, k=None) weighs its way to.
    from purepca.solvers import choose_solver

    shapes = [(n, d) for n in (1, 2, 3, 7, 50, 499, 10_000, 10 ** 7) for d in (1, 2, 3, 8, 50, 500, 10_000, 10 ** 7)]
    for n, d in shapes:
        assert PCA()._choose_solver(n, d) == choose_solver(n, d, None), (n, d)
        assert PCA(0.9)._choose_solver(n, d) == choose_solver(n, d, None), (n, d)


def test_auto_solver_choice_weighs_costs_when_the_table_has_another_row() -> None:
    # A registered row with a cost takes part in "auto" even when every component is asked.
    from purepca.solvers import SOLVER_TABLE, Solver, register_solver, solve_svd

    saved = dict(SOLVER_TABLE)
    try:
        register_solver(Solver("cheap", lambda P: solve_svd(P.rows(), P.div, P.ctx), lambda n, d, k: False,
                               cost=lambda n, d, k: 0.0))
        assert PCA()._choose_solver(100, 10) == "cheap"
        del SOLVER_TABLE["cheap"]
        assert PCA()._choose_solver(100, 10) == "covariance"
    finally:
        SOLVER_TABLE.clear()
        SOLVER_TABLE.update(saved)


def test_svd_solver_keeps_digits_on_nearly_collinear_data() -> None:
    rng = random.Random(14)
    X = []
    for _ in range(40):
        t = rng.gauss(0, 1)
        X.append([t, t + 1e-7 * rng.gauss(0, 1), rng.gauss(0, 1)])
    exact = PCA(precision=40).fit(X).explained_variance_[-1]
    svd = PCA(solver="svd").fit(X).explained_variance_[-1]
    assert abs(svd - exact) / exact < 1e-6


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "params, X, message",
    [
        ({"n_components": 3}, [[1, 2], [3, 4], [5, 7]], r"n_components=3 must be at most min\(n_samples, n_features\) = min\(3, 2\) = 2"),
        ({"n_components": -1}, [[1, 2], [3, 4]], r"n_components must be None, an int >= 0, a float strictly between 0 and 1, 'mle', 'kaiser', 'broken_stick' or 'parallel'; got -1"),
        ({"n_components": 1.0}, [[1, 2], [3, 4]], r"got 1.0"),
        ({"n_components": "all"}, [[1, 2], [3, 4]], r"got 'all'"),
        ({"n_components": True}, [[1, 2], [3, 4]], r"got True"),
        ({"n_components": "mle"}, [[1, 2, 3], [3, 4, 6]], r"n_components='mle' is only supported if n_samples >= n_features; got 2 samples and 3 features"),
        ({}, [[1, 2]], r"X: PCA needs at least 2 samples, got n_samples = 1"),
        ({"scale": True}, [[1, 2], [1, 4], [1, 5]], r"X: column 0 is constant \(standard deviation 0\); scale=True cannot scale it"),
        ({}, [[1, 2], [1, 2]], r"X: every feature is constant \(total variance 0\)"),
        ({"solver": "lapack"}, [[1, 2], [3, 4]], r"solver must be one of 'auto', 'covariance', 'jacobi', 'gram', 'svd', 'krylov', 'power'; got 'lapack'"),
        ({"solver": "power"}, [[1, 2], [3, 4]], r"solver='power' computes only the top k components: n_components must be an int >= 1, got None"),
        ({"sign": "positive"}, [[1, 2], [3, 4]], r"sign must be one of 'max_abs_positive', 'first_positive', 'sum_positive', 'factominer', 'none' or None; got 'positive'"),
        ({"convention": "matlab"}, [[1, 2], [3, 4]], r"convention must be one of 'sklearn', 'prcomp', 'princomp', 'factominer', 'statsmodels', 'numpy'; got 'matlab'"),
        ({"ddof": -1}, [[1, 2], [3, 4]], r"ddof must be a non-negative int, got -1"),
        ({"ddof": 2}, [[1, 2], [3, 4]], r"ddof=2 needs more than 2 rows"),
        ({"precision": 5}, [[1, 2], [3, 4]], r"precision: need an int of at least 17 digits, got 5 \(the PCA parameter precision\)"),
        ({"whiten": "yes"}, [[1, 2], [3, 4]], r"whiten must be True or False, got 'yes'"),
        ({}, [[1, None], [3, 4]], r"X: row 0, column 1 is None"),
    ],
)
def test_pca_rejects_bad_input(params: dict, X: list, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        PCA(**params).fit(X)


@pytest.mark.parametrize("solver", ["jacobi", "gram", "svd"])
@pytest.mark.parametrize("factor", [1e160, 1e-200])
def test_data_near_overflow_or_underflow(solver: str, factor: float) -> None:
    # The data are scaled by a power of two before anything is squared, as
    # LAPACK's drivers do: components, ratios and scores are those of the
    # unscaled data; only variances that no float can hold become inf or 0.
    base = [[1.0, 2.0], [2.0, 3.5], [3.0, 1.0], [0.5, 0.2]]
    X = [[factor * x for x in row] for row in base]
    ref = PCA(solver=solver).fit(base)
    pca = PCA(solver=solver).fit(X)
    for u, v in zip(pca.components_, ref.components_):
        assert rel_close(u, v, 1e-14)
    assert rel_close(pca.explained_variance_ratio_, ref.explained_variance_ratio_, 1e-14)
    assert rel_close(pca.singular_values_, [s * factor for s in ref.singular_values_], 1e-14)
    assert rel_close(pca.sdev, [s * factor for s in ref.sdev], 1e-14)
    assert pca.explained_variance_ == ([math.inf, math.inf] if factor > 1 else [0.0, 0.0])
    for a, b in zip(pca.transform(X), ref.transform(base)):
        assert rel_close(a, [x * factor for x in b], 1e-13)
    for a, b in zip(pca.inverse_transform(pca.transform(X)), X):
        assert rel_close(a, b, 1e-13)


def test_a_variance_that_underflows_is_not_called_constant() -> None:
    # A spread of 1e-200 squares to below the float range, but correlation PCA
    # is made from the standardised columns, so it is computed, not refused:
    # it equals the correlation PCA of the same column times 1e200.
    tiny = PCA(scale=True).fit([[0.0, 1.0], [1e-200, 2.0], [3e-200, 4.0]])
    plain = PCA(scale=True).fit([[0.0, 1.0], [1.0, 2.0], [3.0, 4.0]])
    assert max(abs(a - b) for a, b in zip(tiny.explained_variance_, plain.explained_variance_)) < 1e-14
    assert max(abs(a - b) for r, q in zip(tiny.components_, plain.components_) for a, b in zip(r, q)) < 1e-14
    with pytest.raises(PurePCAError, match=r"or varies by so little \(below about 1e-154\) that its variance underflows"):
        PCA().fit_stream([[0.0], [1e-200]])  # the streaming moments are not rescaled


def test_transform_and_inverse_transform_check_shapes() -> None:
    pca = PCA(1).fit(random_data(10, 3))
    with pytest.raises(PurePCAError, match=r"X has 2 features, but PCA is expecting 3 features as input"):
        pca.transform([[1.0, 2.0]])
    with pytest.raises(PurePCAError, match=r"Z has 2 columns, but PCA has 1 components"):
        pca.inverse_transform([[1.0, 2.0]])
    with pytest.raises(PurePCAError, match=r"invalid parameter 'n_component' for PCA"):
        pca.set_params(n_component=2)


def test_degenerate_eigenvalues_are_reported() -> None:
    from purepca import DegenerateEigenvalueWarning

    # Variances 4 : 1 : 1 : 1 : 1 on orthogonal columns: components 2-5 share
    # one eigenvalue, so their vectors are not unique.
    H = sylvester(3)
    X = [[2.0 * row[1], row[2], row[3], row[4], row[5]] for row in H]
    with pytest.warns(DegenerateEigenvalueWarning, match=r"eigenvalues 2 and 3 \(1.14286, 1.14286\)"):
        PCA().fit(X)
    with pytest.warns(DegenerateEigenvalueWarning, match=r"eigenvalues 1 and 2"):
        PCA(1).fit([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])  # the top-1 subspace is not unique
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PCA(1).fit(X)  # the first component alone is well defined
        PCA().fit([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]])  # zero eigenvalues are not reported
