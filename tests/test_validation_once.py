"""Validate at the boundary, compute inside: every public call validates its input once.

The validator turns each row with ``_convert_row`` (a list of float rows at once by the kernel
room's ``float_rows`` where bound, or for ``PCA.fit`` straight into columns by its
``float_columns``, each counted once); a validation of a matrix
converts its row 0 exactly once, so the number of row-0 conversions during a
call counts the validations it made.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

import purepca.linalg.matrix as matrix_module
import purepca.pca as pca_module
from purepca import PCA, KernelPCA, column_means, column_std, correlation_matrix, covariance_matrix


def validations(monkeypatch: pytest.MonkeyPatch, call: Callable[[], Any]) -> int:
    original = matrix_module._convert_row
    count = 0

    def counting(row: Any, i: int, name: str, context: Any) -> Any:
        nonlocal count
        if i == 0:
            count += 1
        return original(row, i, name, context)

    # A list of float rows may be validated at once by a kernel (purepca.fast) before the row-by-row
    # path: matrix._fast_float_rows, and for PCA.fit straight into columns, pca._fast_columns.
    def counted(original_rows: Callable[..., Any]) -> Callable[..., Any]:
        def counting_rows(data: Any, *more: Any) -> Any:
            nonlocal count
            rows = original_rows(data, *more)
            if rows is not None:
                count += 1
            return rows

        return counting_rows

    monkeypatch.setattr(matrix_module, "_convert_row", counting)
    if matrix_module._fast_float_rows is not None:
        monkeypatch.setattr(matrix_module, "_fast_float_rows", counted(matrix_module._fast_float_rows))
    if pca_module._fast_columns is not None:
        monkeypatch.setattr(pca_module, "_fast_columns", counted(pca_module._fast_columns))
    try:
        call()
    finally:
        monkeypatch.undo()
    return count


def data(n: int = 40, d: int = 6, seed: int = 0) -> list[list[float]]:
    rng = random.Random(seed)
    return [[rng.gauss(0.0, 1.0 + j) for j in range(d)] for _ in range(n)]


@pytest.mark.parametrize("solver", ["auto", "covariance", "jacobi", "gram", "svd", "krylov", "power"])
@pytest.mark.parametrize("scale", [False, True])
def test_pca_fit_validates_x_once(monkeypatch: pytest.MonkeyPatch, solver: str, scale: bool) -> None:
    X = data()
    k = 2 if solver in ("krylov", "power") else None
    assert validations(monkeypatch, lambda: PCA(k, solver=solver, scale=scale).fit(X)) == 1
    assert validations(monkeypatch, lambda: PCA(k, solver=solver, scale=scale).fit_transform(X)) == 1


def test_pca_methods_validate_their_input_once(monkeypatch: pytest.MonkeyPatch) -> None:
    X = data()
    pca = PCA(3, whiten=True).fit(X)
    Z = pca.transform(X)
    for call in (
        lambda: pca.transform(X),
        lambda: pca.inverse_transform(Z),
        lambda: pca.reconstruction_error(X),
        lambda: pca.score_samples(X),
        lambda: pca.partial_fit(X),
    ):
        assert validations(monkeypatch, call) == 1
    assert validations(monkeypatch, lambda: PCA().fit(X).x) == 1  # the scores come from the rows already read


@pytest.mark.parametrize("kwargs", [{}, {"n_components": 3}, {"kernel": "rbf", "fit_inverse_transform": True}])
def test_kernel_pca_validates_once(monkeypatch: pytest.MonkeyPatch, kwargs: dict) -> None:
    X = data(30, 3)
    assert validations(monkeypatch, lambda: KernelPCA(**kwargs).fit(X)) == 1
    kp = KernelPCA(**kwargs).fit(X)
    assert validations(monkeypatch, lambda: kp.transform(X)) == 1


@pytest.mark.parametrize("function", [column_means, column_std, covariance_matrix, correlation_matrix])
def test_statistics_validate_once(monkeypatch: pytest.MonkeyPatch, function: Callable[[Any], Any]) -> None:
    assert validations(monkeypatch, lambda: function(data())) == 1


@pytest.mark.parametrize("missing", ["drop", "mean", "em"])
@pytest.mark.parametrize("convention", ["sklearn", "statsmodels"])
def test_pca_missing_cells_validate_once(monkeypatch: pytest.MonkeyPatch, missing: str, convention: str) -> None:
    X = data()
    for i, j in ((1, 0), (5, 2), (9, 4), (17, 1)):
        X[i][j] = None  # type: ignore[call-overload]
    assert validations(monkeypatch, lambda: PCA(2, missing=missing, convention=convention).fit(X)) == 1
    assert validations(monkeypatch, lambda: PCA(2, missing=missing, convention=convention).fit_transform(X)) == 1


def test_pca_factominer_outputs_validate_once(monkeypatch: pytest.MonkeyPatch) -> None:
    X = data()
    pca = PCA(3, convention="factominer").fit(X)
    for call in (
        lambda: pca.row_coordinates(X),
        lambda: pca.row_distances(X),
        lambda: pca.row_cos2(X),
        lambda: pca.hotelling_t2(X),
        lambda: pca.spe(X),
        lambda: pca.supplementary_columns([[row[0] + row[1]] for row in X]),
        lambda: pca.supplementary_column_correlations([[row[2]] for row in X]),
    ):
        assert validations(monkeypatch, call) == 1
    # The training rows were read by fit: the properties and the categories read nothing again.
    for call in (
        lambda: pca.row_contributions_,
        lambda: pca.column_correlations_,
        lambda: pca.supplementary_categories(["a" if i % 3 else "b" for i in range(len(X))]),
    ):
        assert validations(monkeypatch, call) == 0
