"""purepca.testing.strategies: hypothesis is imported only when a strategy is built; every strategy yields
valid data on which a correct PCA (scikit-learn's full SVD) passes the oracle and purepca's reference agrees
with itself at 50 digits."""

from __future__ import annotations

import subprocess
import sys

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from helpers import examples  # noqa: E402

from purepca.testing import assert_pca_close, reference  # noqa: E402
from purepca.testing import strategies  # noqa: E402


@pytest.mark.slow
def test_strategies_import_hypothesis_only_when_called() -> None:
    code = ("import sys, purepca.testing.strategies as s; assert 'hypothesis' not in sys.modules; "
            "s.offset_data(); assert 'hypothesis' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(strategies.hard_data())
def test_strategies_hard_data_is_valid_and_the_reference_passes_itself(X: list[list[float]]) -> None:
    assert len(X) >= 2 and len({len(r) for r in X}) == 1
    try:
        ref = reference(X)
    except Exception as err:  # a PurePCAError on data with no variance at all is the right answer
        assert "no principal components" in str(err) or "degrees of freedom" in str(err)
        return
    assert_pca_close({"explained_variance_": ref.explained_variance_, "components_": ref.components_}, X)


np = pytest.importorskip("numpy")
sk = pytest.importorskip("sklearn.decomposition")


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(strategies.hard_data())
def test_strategies_sklearn_full_passes_on_hard_data(X: list[list[float]]) -> None:
    A = np.array(X)
    with np.errstate(all="ignore"):
        spread = (A - A.mean(axis=0)).std()
        if not np.isfinite(spread) or spread == 0:
            return
        fitted = sk.PCA(svd_solver="full").fit(A)
    if not np.all(np.isfinite(fitted.explained_variance_)):
        return  # variances beyond the float range: scikit-learn's NaN ratios are a defect (see test_replay)
    assert_pca_close({"explained_variance_": fitted.explained_variance_, "components_": fitted.components_}, X)
