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
