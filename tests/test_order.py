"""Sets and dicts where order matters are refused, naming the argument (issue 20, line 7)."""

from __future__ import annotations

import pytest

from purepca import PCA, PurePCAError

X = [[1.0, 2.0], [2.0, 3.0], [3.0, 5.0], [4.0, 4.5]]


@pytest.mark.parametrize("call, message", [
    (lambda: PCA(1, missing="mean").fit([{1.0, None}, {2.0, 3.0}, {4.0, 5.5}]), r"X: row 0 is a set"),
    (lambda: PCA(1, missing="drop").fit({0: [1.0, 2.0], 1: [2.0, 3.0], 2: [4.0, 5.5]}), r"X: .*dict"),
    (lambda: PCA(1, missing="em").fit({0: [1.0, 2.0], 1: [2.0, None], 2: [4.0, 5.5]}), r"X: .*dict"),
    (lambda: PCA().fit(X, sample_weight={0: 1, 1: 1, 2: 1, 3: 1}), r"sample_weight: got a dict"),
    (lambda: PCA().fit(X, sample_weight={1.0, 2.0, 3.0, 4.0}), r"sample_weight: got a set"),
    (lambda: PCA().fit(X, column_weight={1.0, 2.0}), r"column_weight: got a set"),
    (lambda: PCA().fit(X).supplementary_categories({"a", "b", "c", "d"}), r"labels: got a set"),
    (lambda: PCA().fit(X).supplementary_categories({0: "a", 1: "b", 2: "a", 3: "b"}), r"labels: got a dict"),
])
def test_order_sets_and_dicts_are_refused(call, message) -> None:
    with pytest.raises(PurePCAError, match=message):
        call()


def test_order_numpy_scalars_are_accepted_as_parameters() -> None:
    # Issue 20, line 29: valid input refused.
    np = pytest.importorskip("numpy")
    X = [[1.0, 2.0, 0.3], [2.0, 1.0, 0.5], [3.0, 5.0, 0.1], [4.0, 3.0, 0.9], [0.0, 1.0, 0.2]]
    assert PCA(n_components=np.float32(0.5)).fit(X).n_components_ == PCA(n_components=0.5).fit(X).n_components_
    assert PCA(n_components=np.int64(2)).fit(X).n_components_ == 2
    assert PCA(n_jobs=np.int64(2)).fit(X).components_ == PCA().fit(X).components_
    assert PCA(precision=np.int64(30)).fit(X).high_precision_ == PCA(precision=30).fit(X).high_precision_
    assert PCA(whiten=np.bool_(True)).fit(X).transform(X) == PCA(whiten=True).fit(X).transform(X)
    for bad in (np.float64(1.5), -1, True, np.bool_(True)):
        with pytest.raises(PurePCAError, match="n_components must be None"):
            PCA(n_components=bad).fit(X)


def test_order_the_callers_decimal_context_does_not_leak_in() -> None:
    # Issue 20, line 23: with Inexact trapped error_bounds_ raised decimal.Inexact; the 60-digit work
    # runs in a context of its own.
    import decimal

    from purepca.datasets import toy_data

    with decimal.localcontext() as caller:
        caller.traps[decimal.Inexact] = True
        caller.Emax = 10
        low, high = PCA().fit(toy_data()).error_bounds_.explained_variance_[0]
        hp = PCA(precision=50).fit(toy_data()).high_precision_
    assert low <= 1.2840277121727838 <= high
    assert str(hp["explained_variance_"][0]).startswith("1.28402771217278381127879592909")
