"""scikit-learn's estimator protocol (issue 9, item 11), without purepca importing scikit-learn.

purepca's results are lists of Python floats: they carry no ``.shape`` and
no dtype.  Two of scikit-learn's checks index the output as an array
(``check_transformer_general``, ``check_transformer_data_not_an_array``:
``X_pred.shape``), so they are expected to fail, for that reason only; every
other check of ``check_estimator`` passes.  float32 input gives float64
output for the same reason (lists hold Python floats).

PCA's ``sample_weight`` are frequencies, but ``n_components=None`` keeps
``min(n_samples, n_features)`` components counting the rows given (as
FactoMineR's ``ncp`` does), so the two ``check_sample_weight_equivalence``
checks, which compare all components of a weighted fit with the fit of the
repeated rows, see more columns (of variance 0) from the weighted fit.  The
kept components are equal: tests/test_weights.py checks it.
"""

from __future__ import annotations

import math
import warnings

import pytest

np = pytest.importorskip("numpy")
sklearn = pytest.importorskip("sklearn")

from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

from purepca import KernelPCA, PCA, PurePCAError  # noqa: E402

LIST_OUTPUT = "the output is a list of lists of floats, which has no .shape (plain lists by design)"
EXPECTED_FAILURES = {
    "check_transformer_general": LIST_OUTPUT,
    "check_transformer_data_not_an_array": LIST_OUTPUT,
}
ROW_COUNT = ("n_components=None keeps min(n_samples, n_features) components counting rows, not weights: the weighted "
             "fit has more columns of variance 0 than the fit of the repeated rows")
PCA_EXPECTED_FAILURES = {
    **EXPECTED_FAILURES,
    "check_sample_weight_equivalence_on_dense_data": ROW_COUNT,
    "check_sample_weight_equivalence_on_sparse_data": ROW_COUNT,
}
X = [[2.5, 2.4, 0.5], [0.5, 0.7, 1.5], [2.2, 2.9, 0.1], [1.9, 2.2, 0.9], [3.1, 3.0, 0.3], [2.3, 2.7, 1.1]]


@pytest.mark.slow
@pytest.mark.parametrize("estimator", [PCA(), KernelPCA()], ids=["PCA", "KernelPCA"])
def test_check_estimator_passes_except_the_list_output_checks(estimator):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = PCA_EXPECTED_FAILURES if isinstance(estimator, PCA) else EXPECTED_FAILURES
        results = check_estimator(estimator, on_fail=None, expected_failed_checks=expected)
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    assert not failed, failed
    xfailed = {r["check_name"] for r in results if r["status"] == "xfail"}
    assert xfailed <= set(expected)
    assert len(results) > 40


def test_tags_and_is_fitted():
    from sklearn.utils import get_tags
    from sklearn.utils.validation import check_is_fitted
    from sklearn.exceptions import NotFittedError as SkNotFitted

    assert get_tags(PCA()).input_tags.sparse and not get_tags(PCA()).input_tags.pairwise
    assert get_tags(KernelPCA(kernel="precomputed")).input_tags.pairwise
    with pytest.raises(SkNotFitted):
        check_is_fitted(PCA())
    check_is_fitted(PCA().fit(X))
    check_is_fitted(KernelPCA().fit(X))


def test_pipeline_repr_and_html():
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    pipe = make_pipeline(StandardScaler(), PCA(2))
    assert "PCA(n_components=2)" in repr(pipe)
    assert "PCA" in pipe._repr_html_()
    assert np.asarray(pipe.fit_transform(np.array(X))).shape == (6, 2)


def test_set_output_pandas_or_a_clear_error():
    import importlib.util

    if importlib.util.find_spec("pandas") is None:
        with pytest.raises(PurePCAError, match="needs pandas, which is not installed"):
            PCA().set_output(transform="pandas")
        return
    import pandas as pd

    frame = pd.DataFrame(X, columns=["a", "b", "c"], index=list("uvwxyz"))
    out = PCA(2).set_output(transform="pandas").fit(frame).transform(frame)
    assert list(out.columns) == ["pca0", "pca1"] and list(out.index) == list("uvwxyz")
    assert out.to_numpy().tolist() == PCA(2).fit(frame).transform(frame)
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    pipe = make_pipeline(StandardScaler(), KernelPCA(2, kernel="rbf")).set_output(transform="pandas")
    assert list(pipe.fit_transform(frame).columns) == ["kernelpca0", "kernelpca1"]


def test_sparse_input_is_densified():
    sparse = pytest.importorskip("scipy.sparse")
    dense = PCA(2).fit(X).transform(X)
    for make in (sparse.csr_matrix, sparse.csr_array, sparse.coo_matrix, sparse.csc_array, sparse.lil_matrix):
        assert PCA(2).fit(make(np.array(X))).transform(make(np.array(X))) == dense
        assert KernelPCA(2).fit(make(np.array(X))).eigenvalues_ == KernelPCA(2).fit(X).eigenvalues_


def test_an_object_with_only_the_array_protocol():
    class OnlyArray:
        def __init__(self, data):
            self.data = np.asarray(data)

        def __array__(self, dtype=None, copy=None):
            return self.data

    assert PCA(2).fit(OnlyArray(X)).transform(OnlyArray(X)) == PCA(2).fit(X).transform(X)
    assert KernelPCA(2).fit_transform(OnlyArray(X)) == KernelPCA(2).fit_transform(X)


@pytest.mark.slow
def test_grid_search_over_a_pipeline_with_a_precomputed_kernel():
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics.pairwise import rbf_kernel
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import Pipeline

    rng = np.random.default_rng(0)
    A = np.vstack([rng.normal(0, 1, (20, 3)), rng.normal(3, 1, (20, 3))])
    y = np.array([0] * 20 + [1] * 20)
    K = rbf_kernel(A, gamma=0.2)
    pipe = Pipeline([("kpca", KernelPCA(kernel="precomputed")), ("clf", LogisticRegression())])
    search = GridSearchCV(pipe, {"kpca__n_components": [1, 2, 3]}, cv=3).fit(K, y)
    assert search.best_score_ > 0.9
    assert search.predict(K[:5]).shape == (5,)


def test_float32_input_gives_python_floats():
    out = PCA(2).fit(np.array(X, dtype=np.float32)).transform(np.array(X, dtype=np.float32))
    assert all(type(v) is float for row in out for v in row)


# ------------------------------------ behaviours scikit-learn's own tests expect


def test_n_components_zero_as_scikit_learn():
    from sklearn.decomposition import PCA as SkPCA

    A = np.random.RandomState(0).randn(10, 3)
    ours, theirs = PCA(0).fit(A.tolist()), SkPCA(0).fit(A)
    assert ours.components_ == [] and ours.transform(A[:2].tolist()) == [[], []]
    assert abs(ours.noise_variance_ - theirs.noise_variance_) < 1e-14
    assert abs(ours.score(A.tolist()) - theirs.score(A)) < 1e-12


def test_mle_with_too_few_samples_has_scikit_learns_message():
    with pytest.raises(PurePCAError, match="n_components='mle' is only supported if n_samples >= n_features"):
        PCA("mle").fit([[1.0, 2.0, 3.0], [2.0, 0.0, 1.0]])


def test_score_with_zero_noise_variance():
    from sklearn.decomposition import PCA as SkPCA

    rng = np.random.RandomState(0)
    A = rng.randn(100, 3) * 0.1 + np.array([3, 4, 5])
    ours, theirs = PCA(3).fit(A.tolist()), SkPCA(3).fit(A)
    assert ours.noise_variance_ == theirs.noise_variance_ == 0
    assert abs(ours.score(A.tolist()) - theirs.score(A)) < 1e-12 * abs(theirs.score(A))
    # n_components == n_samples < n_features: the model covariance is
    # singular; scikit-learn's score does not raise (gh-12489), nor does
    # ours: the density of the degenerate Gaussian on its support.
    wide = PCA(3).fit(A.T.tolist())
    assert wide.noise_variance_ == 0 and math.isfinite(wide.score(A.T.tolist()))


def test_remove_zero_eig_as_scikit_learn():
    same = [[1 - 1e-30, 1.0], [1.0, 1.0], [1.0, 1 - 1e-20]]  # equal rows in floats
    assert np.shape(KernelPCA().fit_transform(same)) == (3, 0)
    assert np.shape(KernelPCA(n_components=2).fit_transform(same)) == (3, 2)
    assert np.shape(KernelPCA(n_components=2, remove_zero_eig=True).fit_transform(same)) == (3, 0)


def test_inverse_transform_with_no_component_is_refused_as_in_scikit_learn():
    # scikit-learn 1.9 refuses zero-width input here (1.6 returned the mean).
    A = np.random.RandomState(0).randn(10, 3)
    with pytest.raises(PurePCAError, match=r"0 feature\(s\) \(shape=\(2, 0\)\) while a minimum of 1 is required"):
        PCA(0).fit(A.tolist()).inverse_transform([[], []])
