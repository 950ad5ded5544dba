"""A fitted model is one value: PCAState, assigned in one statement by every fit door.

These tests were written against the reproducers of issue 19: each fails on
the estimator that kept its fitted state in 38 attributes (bb293b2).
"""

from __future__ import annotations

import ast
import copy
import inspect
import math
import pathlib
import pickle
import random
import sys

import pytest

import purepca
from purepca import PCA, KernelPCA, Moments, PurePCAError
from purepca.conventions import CONVENTIONS
from purepca.fitting import PCAState
from purepca.model_io import pca_from_json, pca_to_json

PARAMS = set(PCA().get_params())


def data(n: int = 30, d: int = 4, seed: int = 1, offset: float = 0.0) -> list[list[float]]:
    rng = random.Random(seed)
    return [[offset + rng.gauss(0.0, 1.0 + j) + (0.5 * i if j == 0 else 0.0) for j in range(d)] for i in range(n)]


def extra_names(model: object) -> set[str]:
    return set(vars(model)) - PARAMS


@pytest.mark.parametrize("door", ["fit", "fit_transform", "partial_fit", "fit_stream", "fit_moments", "mean", "em",
                                  "drop", "weights", "model file"])
def test_state_dict_holds_the_parameters_and_at_most_three_names(door: str) -> None:
    X = data()
    holed = [list(r) for r in X]
    holed[3][1] = None
    pca = PCA(2, missing=door if door in ("mean", "em", "drop") else "error")
    if door in ("fit", "mean", "em", "drop"):
        pca.fit(holed if door != "fit" else X)
    elif door == "fit_transform":
        pca.fit_transform(X)
    elif door == "partial_fit":
        pca.partial_fit(X[:10]).partial_fit(X[10:])
    elif door == "fit_stream":
        pca.fit_stream(iter(X))
    elif door == "fit_moments":
        m = Moments()
        m.update_many(X)
        pca.fit_moments(m)
    elif door == "weights":
        pca.fit(X, sample_weight=[1.0 + i % 3 for i in range(len(X))], column_weight=[1.0, 2.0, 0.5, 1.0])
    else:
        pca = pca_from_json(pca_to_json(PCA(2).fit(X)))
    assert extra_names(pca) <= {"_state", "_rows", "_cache"}
    assert isinstance(vars(pca)["_state"], PCAState)


def test_state_is_immutable() -> None:
    state = PCA(2).fit(data())._state
    with pytest.raises(AttributeError):
        state.n_samples_ = 3  # type: ignore[misc]


def _same_model(a: PCA, b: PCA, X: list[list[float]]) -> None:
    for name in ("components_", "explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_",
                 "scale_", "noise_variance_", "n_components_", "n_samples_", "solver_", "n_iter_", "imputed_"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.transform(X) == b.transform(X)
    assert a.inverse_transform(a.transform(X)) == b.inverse_transform(b.transform(X))
    assert a.score_samples(X) == b.score_samples(X)


@pytest.mark.parametrize("kwargs", [{}, {"precision": 30}, {"scale": True, "whiten": True},
                                    {"missing": "em", "n_components": 2}])
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_state_pca_pickle_and_deepcopy_round_trip(kwargs: dict, how: str) -> None:
    X = data()
    holed = [list(r) for r in X]
    holed[2][0] = None
    pca = PCA(**kwargs).fit(holed if kwargs.get("missing") else X)
    back = pickle.loads(pickle.dumps(pca)) if how == "pickle" else copy.deepcopy(pca)
    _same_model(pca, back, X)
    assert back.x == pca.x and back.error_bounds_ == pca.error_bounds_
    assert back.get_params() == pca.get_params()


@pytest.mark.parametrize("kwargs", [{"kernel": "rbf", "gamma": 0.3, "fit_inverse_transform": True},
                                    {"kernel": "poly", "degree": 2, "precision": 30}, {"kernel": "linear"}])
@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_state_kernel_pca_pickle_and_deepcopy_round_trip(kwargs: dict, how: str) -> None:
    X = data(20, 3)
    kp = KernelPCA(3, **kwargs).fit(X)
    back = pickle.loads(pickle.dumps(kp)) if how == "pickle" else copy.deepcopy(kp)
    assert back.eigenvalues_ == kp.eigenvalues_ and back.eigenvectors_ == kp.eigenvectors_
    assert back.transform(X[:5]) == kp.transform(X[:5])
    if kwargs.get("fit_inverse_transform"):
        assert back.inverse_transform(kp.transform(X[:5])) == kp.inverse_transform(kp.transform(X[:5]))


def test_state_no_stale_imputed_after_another_fit() -> None:
    X5 = [[1.0, 2.0], [2.0, None], [3.0, 5.0], [4.0, 8.5], [5.0, 9.0]]
    rows3 = [[1.0, 0.0], [0.0, 1.0], [2.0, 2.5]]
    p = PCA(missing="mean").fit(X5)
    assert p.imputed_ is not None and len(p.imputed_) == 5
    p.fit_stream(iter(rows3))
    assert p.n_samples_ == 3 and p.imputed_ is None
    # partial_fit continues a fit (as IncrementalPCA does); one with imputed cells it cannot continue, and
    # says so, leaving the model as it was (it used to start again from these rows, dropping X5 silently)
    p = PCA(missing="mean").fit(X5)
    with pytest.raises(PurePCAError, match="partial_fit after a fit with weights or missing cells"):
        p.partial_fit(rows3)
    assert p.n_samples_ == 5 and p.imputed_ is not None and len(p.imputed_) == 5
    p = PCA().fit(rows3).partial_fit(X5[:1] + X5[2:])
    assert p.n_samples_ == 7 and p.imputed_ is None and p.n_dropped_ == 0


@pytest.mark.parametrize("door", ["fit", "partial_fit", "fit_stream", "fit_moments", "em"])
def test_state_every_fit_path_sets_n_iter(door: str) -> None:
    X = data()
    pca = PCA(2, missing="em" if door == "em" else "error")
    if door == "fit":
        pca.fit(X)
    elif door == "partial_fit":
        pca.partial_fit(X)
    elif door == "fit_stream":
        pca.fit_stream(X)
    elif door == "fit_moments":
        m = Moments()
        m.update_many(X)
        pca.fit_moments(m)
    else:
        holed = [list(r) for r in X]
        holed[4][2] = None
        pca.fit(holed)
    assert isinstance(pca.n_iter_, int)
    assert (pca.n_iter_ > 0) == (door == "em")


def _public_names() -> list[str]:
    return [name for name, value in inspect.getmembers(PCA) if not name.startswith("_")
            and isinstance(value, property)]


@pytest.mark.parametrize("missing", ["error", "em"])
def test_state_json_loaded_model_answers_every_attribute(missing: str) -> None:
    X = data()
    holed = [list(r) for r in X]
    holed[5][3] = None
    pca = PCA(2, missing=missing, convention="factominer").fit(holed if missing == "em" else X)
    back = pca_from_json(pca_to_json(pca))
    names = _public_names()
    assert {"components_", "imputed_", "n_iter_", "x", "error_bounds_", "high_precision_"} <= set(names)
    answered = needs_rows = 0
    for name in names:
        try:
            value = getattr(back, name)
        except PurePCAError as err:
            assert "training" in str(err) and "model file" in str(err), (name, str(err))
            needs_rows += 1
            continue
        assert value == getattr(pca, name), name
        answered += 1
    assert answered >= 15 and needs_rows >= 3  # x, error_bounds_, contributions (and imputed_ after em)
    assert back.n_iter_ == pca.n_iter_


@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
@pytest.mark.parametrize("scale", [None, True])
def test_state_fit_moments_of_four_merged_slices_equals_fit(convention: str, scale: object) -> None:
    X = data(200, 5, seed=7, offset=1e4)
    parts = []
    for i in range(4):
        m = Moments()
        m.update_many(X[i * 50:(i + 1) * 50])
        parts.append(m)
    merged = parts[0].merge(parts[1]).merge(parts[2].merge(parts[3]))
    a = PCA(convention=convention, scale=scale).fit_moments(merged)
    b = PCA(convention=convention, scale=scale).fit(X)
    assert a.n_samples_ == b.n_samples_ == 200
    for u, v in zip(a.explained_variance_, b.explained_variance_):
        assert abs(u - v) <= 1e-13 * abs(v)
    for u, v in zip(a.components_, b.components_):
        sign = 1.0 if math.fsum(p * q for p, q in zip(u, v)) >= 0 else -1.0
        assert math.sqrt(math.fsum((p - sign * q) ** 2 for p, q in zip(u, v))) <= 1e-13  # the angle, as a chord
    assert max(abs(u - v) for u, v in zip(a.mean_, b.mean_)) <= 1e-13 * 1e4


def test_state_fit_moments_refuses_what_it_cannot_use() -> None:
    with pytest.raises(PurePCAError, match="expected a purepca.Moments"):
        PCA().fit_moments([[1.0, 2.0]])  # type: ignore[arg-type]
    one = Moments()
    one.update([1.0, 2.0])
    with pytest.raises(PurePCAError, match="at least 2 samples"):
        PCA().fit_moments(one)
    m = Moments()
    m.update_many(data())
    with pytest.raises(PurePCAError, match="precision"):
        PCA(precision=30).fit_moments(m)
    pca = PCA().fit(data())
    before = pca._state
    with pytest.raises(PurePCAError):
        pca.fit_moments(one)
    assert pca._state is before
    with pytest.raises(PurePCAError, match="keeps no training rows"):
        PCA().fit_moments(m).error_bounds_


#: The modules a fit runs through, from the estimator's door to the spectrum.
FIT_PATH = ("pca.py", "fitting.py", "missing.py", "covariance.py", "moments.py", "weights.py", "solvers.py", "selection.py",
            "conventions.py", "projection.py", "monitoring.py", "interpretation.py", "probabilistic.py",
            "numeric.py", "parallel.py", "imputation.py", "linalg/matrix.py", "linalg/eigen.py", "linalg/jacobi.py",
            "linalg/tridiagonal.py", "linalg/krylov.py", "linalg/stein.py", "fast/__init__.py", "fast/sums.py",
            "fast/rows.py", "fast/grams.py", "fast/centre.py", "fast/in_place.py", "fast/panels.py")


@pytest.mark.slow
def test_state_no_function_on_the_fit_path_is_longer_than_80_lines() -> None:
    root = pathlib.Path(purepca.__file__).parent
    long = []
    for name in FIT_PATH:
        tree = ast.parse((root / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if length > 80:
                    long.append(f"{name}:{node.name} ({length} lines)")
    assert not long


def test_state_pca_module_holds_the_estimator_not_the_statistics() -> None:
    source = (pathlib.Path(purepca.__file__).parent / "pca.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    top = [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))
           and not node.name.startswith("_")]
    assert top == ["ErrorBounds", "PCA"]
    for forbidden in ("_cross_products", "_centred_columns", "solve_covariance", "weighted_data", "squarem"):
        assert forbidden not in source


@pytest.mark.interpreter
def test_state_model_files_of_the_previous_version_load_and_transform_to_the_same_bits() -> None:
    # Written by purepca at bb293b2, before the fitted state became one record: the models, and what
    # that version's transform and inverse_transform gave for six new rows on each interpreter it ran on
    # (their dot products differ in the last bits: CPython <= 3.11, 3.12+ with math.sumprod, PyPy).
    import platform

    path = pathlib.Path(__file__).parent / "data" / "model_files_bb293b2.json"
    saved = __import__("json").loads(path.read_text(encoding="utf-8"))
    new = saved["new_rows"]
    here = f"{platform.python_implementation()}-{sys.version_info[0]}.{sys.version_info[1]}"
    for case in saved["cases"]:
        pca = pca_from_json(case["model"])
        scores, back = pca.transform(new), pca.inverse_transform(pca.transform(new))
        # (in reference mode no interpreter's fast dot products run: the numbers are compared to rounding)
        expected = None if purepca.fast.REFERENCE else case["expected"].get(here)
        if expected is not None:  # the same bits as that version on this interpreter
            assert [[repr(v) for v in row] for row in scores] == expected["transform"], case["params"]
            assert [[repr(v) for v in row] for row in back] == expected["inverse"], case["params"]
        else:  # an interpreter bb293b2 was not run on here: the same numbers to rounding
            reference = case["expected"]["CPython-3.11"]
            for got, want in ((scores, reference["transform"]), (back, reference["inverse"])):
                for row, wrow in zip(got, want):
                    scale = max(abs(float(w)) for w in wrow)
                    assert all(abs(v - float(w)) <= 1e-13 * scale for v, w in zip(row, wrow)), case["params"]
        assert pca_from_json(pca_to_json(pca)).transform(new) == scores


@pytest.mark.parametrize("door", ["partial_fit", "fit_stream", "fit_moments"])
def test_state_moment_doors_leave_a_constant_column_unscaled_under_factominer(door: str) -> None:
    # FactoMineR sets the standard deviation of a constant column to 1: its variance stays 0, on the
    # moments' path as on the rows' (the moments' path used to put 1 on its diagonal: [1.84, 1.0, 0.16]).
    X = [[1.0, 1.0, 2.0], [1.0, 2.0, 1.0], [1.0, 3.0, 5.0], [1.0, 0.0, 0.0]]
    pca = PCA(convention="factominer", scale=True)
    if door == "fit_moments":
        m = Moments()
        m.update_many(X)
        pca.fit_moments(m)
    else:
        getattr(pca, door)(X)
    full = PCA(convention="factominer", scale=True).fit(X)
    assert [round(v, 12) for v in pca.explained_variance_] == [round(v, 12) for v in full.explained_variance_]
    assert pca.explained_variance_[-1] == 0.0


def test_state_error_bounds_of_exact_moments_contain_the_truth() -> None:
    # Exact moments give the covariance correctly rounded, so a fit from them has rigorous bounds too.
    mpmath = pytest.importorskip("mpmath")
    from fractions import Fraction

    X = data(120, 4, seed=3, offset=1e6)
    parts = [Moments.from_rows(X[i:i + 30], exact=True) for i in range(0, 120, 30)]
    merged = parts[0] + parts[1] + parts[2] + parts[3]
    pca = PCA().fit_moments(merged)
    bounds = pca.error_bounds_
    n, d = len(X), len(X[0])
    F = [[Fraction(v) for v in row] for row in X]
    mean = [sum(col) / n for col in zip(*F)]
    C = [[sum((r[i] - mean[i]) * (r[j] - mean[j]) for r in F) / (n - 1) for j in range(d)] for i in range(d)]
    mpmath.mp.dps = 80
    values, vectors = mpmath.eigsy(mpmath.matrix([[mpmath.mpf(c.numerator) / c.denominator for c in row]
                                                  for row in C]))
    order = sorted(range(d), key=lambda i: -values[i])
    for i, (low, high) in enumerate(bounds.explained_variance_):
        truth = values[order[i]]
        assert low <= truth <= high
        assert high - low <= 1e-13 * float(truth)
        u = [vectors[j, order[i]] for j in range(d)]
        w = [mpmath.mpf(a) for a in pca.components_[i]]
        norm = mpmath.sqrt(sum(a * a for a in w))
        cos = abs(sum(a * b for a, b in zip(w, u))) / norm
        assert float(mpmath.asin(mpmath.sqrt(max(0, 1 - cos * cos)))) <= bounds.components_[i]
    with pytest.raises(PurePCAError, match="keeps no training rows"):
        PCA(scale=True).fit_moments(merged).error_bounds_  # a correlation from moments: no bound here


@pytest.mark.parametrize("options", [{}, {"scale": True}, {"n_components": 2}, {"precision": 30}])
def test_partial_fit_after_fit_continues_it_as_incremental_pca_does(options: dict) -> None:
    # fit(X) then partial_fit(Y) dropped X without a word (n_samples_ 3 where IncrementalPCA counts 7).
    X = data()
    first, then = X[:25], X[25:]
    continued = PCA(**options).fit(first).partial_fit(then)
    whole = PCA(**options).fit(X)
    assert continued.n_samples_ == whole.n_samples_ == len(X)
    for a, b in zip(continued.explained_variance_, whole.explained_variance_):
        assert abs(float(a) - float(b)) <= 1e-12 * float(whole.explained_variance_[0])
    with pytest.raises(PurePCAError, match=r"partial_fit after fit_stream \(no rows kept\)"):
        PCA(**options).fit_stream(first).partial_fit(then)
