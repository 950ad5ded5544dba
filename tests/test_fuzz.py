"""The fuzz harness (issue 9): every public entry point, on generated input.

The contract checked on every example: a correct-looking result (finite
floats of the right shape) or a :class:`PurePCAError` (``ConvergenceError``
and ``NotFittedError`` are subclasses) whose message is not empty; never
another exception type, never a mutated input, never a half-updated model
after a failed refit.

The number of examples per test is ``PUREPCA_FUZZ_EXAMPLES`` (default 60, a
few seconds each: CI's budget).  A long local run::

    PUREPCA_FUZZ_EXAMPLES=20000 python -m pytest tests/test_fuzz.py -q --hypothesis-show-statistics
"""

from __future__ import annotations

import copy
import math
import os
import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import purepca  # noqa: E402
from purepca import KernelPCA, PCA, PurePCAError  # noqa: E402
from purepca.cli import main as cli_main  # noqa: E402

EXAMPLES = int(os.environ.get("PUREPCA_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    derandomize=os.environ.get("CI") == "true",  # the same examples on every CI run
)

# ------------------------------------------------------------------ inputs

SPECIAL = [0.0, -0.0, 1.0, -1.0, 1e-320, 5e-324, 1e-300, 1e300, 1.7e308, -1.7e308, 1e154, 1e-154]
finite = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(min_value=-1e3, max_value=1e3, allow_nan=False),
    st.sampled_from(SPECIAL),
    st.integers(min_value=-(10**6), max_value=10**6),
)
# Mostly good entries; sometimes anything a user might pass.
entry = st.one_of(
    finite,
    finite,
    finite,
    finite,
    st.sampled_from([math.nan, math.inf, -math.inf, None, "1.0", "a", True, 1j, Decimal("1e400"), Decimal("sNaN"),
                     Decimal("0.1"), Fraction(1, 3), 10**400, [1.0], {1.0}]),
)


@st.composite
def matrices(draw: Any, square: bool = False, symmetric: bool = False, clean: bool = False) -> Any:
    n = draw(st.integers(min_value=0, max_value=7))
    d = n if square else draw(st.integers(min_value=0, max_value=5))
    values = finite if clean else entry
    rows = [[draw(values) for _ in range(d)] for _ in range(n)]
    if symmetric:
        for i in range(n):
            for j in range(i):
                rows[i][j] = rows[j][i]
    shape = draw(st.integers(min_value=0, max_value=19))
    if shape == 0 and rows:
        rows[draw(st.integers(0, len(rows) - 1))].append(1.0)  # ragged
    elif shape == 1:
        return draw(st.sampled_from([None, 3.0, "abc", [], [[]], [1.0, 2.0], {(1.0, 2.0)}, [{1.0: 2.0}]]))
    elif shape == 2 and rows:
        return [tuple(r) for r in rows]
    elif shape == 3 and rows and d:
        rows = [list(rows[0]) for _ in rows]  # all rows equal
    return rows


def params(names: dict[str, list[Any]]) -> Any:
    return st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in names.items()})


BAD = [None, -1, 0, 1.5, "a", True, math.nan, math.inf, [1]]

# ------------------------------------------------------------------ contract


def finite_floats(value: Any) -> bool:
    """Every number in a (nested) result is a finite float, int or Decimal."""
    if isinstance(value, (list, tuple)):
        return all(finite_floats(v) for v in value)
    if isinstance(value, Decimal):
        return value.is_finite()
    if isinstance(value, (float, int)) and not isinstance(value, bool):
        return math.isfinite(value)
    return True


def check(call: Callable[[], Any], *inputs: Any) -> Any:
    """Run ``call``; a result must be finite, an exception a PurePCAError; inputs never change."""
    before = [copy.deepcopy(x) for x in inputs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = call()
        except PurePCAError as err:
            assert str(err), "an empty error message"
            result = err
        except RecursionError:  # pragma: no cover - not ours to fix
            raise
    for x, y in zip(inputs, before):
        assert _same(x, y), "the input was mutated"
    if not isinstance(result, PurePCAError):
        assert finite_floats(result), f"a non-finite number in the result: {result!r}"
    return result


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, Decimal) and isinstance(b, Decimal) and a.is_nan() and b.is_nan():
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b) if not isinstance(a, set) else a == b


def assert_unchanged(estimator: Any, state: dict[str, Any]) -> None:
    """A failed refit left the very objects the model had (base.atomic)."""
    assert estimator.__dict__.keys() == state.keys() and all(estimator.__dict__[k] is state[k] for k in state)


def results(r: Any) -> Any:
    """The numbers of an EighResult, SVDResult or IterationResult."""
    if isinstance(r, PurePCAError):
        return r
    return [getattr(r, name) for name in ("values", "vectors", "singular_values") if hasattr(r, name)]


CONTEXTS = [purepca.FLOAT, purepca.DecimalContext(20)]

# ------------------------------------------------------------------ tests


@FUZZ
@given(matrices(), st.sampled_from([0, 1, 2, -1, 1.5, "a"]), st.sampled_from(CONTEXTS))
def test_statistics(X: Any, ddof: Any, ctx: Any) -> None:
    check(lambda: purepca.covariance_matrix(X, ddof, context=ctx), X)
    check(lambda: purepca.covariance_matrix(X, ddof, center=False, context=ctx), X)
    check(lambda: purepca.correlation_matrix(X, context=ctx), X)
    check(lambda: purepca.column_means(X, context=ctx), X)
    check(lambda: purepca.column_std(X, ddof, context=ctx), X)
    check(lambda: purepca.standardize(X, ddof, context=ctx), X)
    check(lambda: purepca.center(X, context=ctx), X)


@FUZZ
@given(matrices(square=True, symmetric=True), st.sampled_from(CONTEXTS),
       params({"tol": [None, 1e-12, 0.1] + BAD, "max_sweeps": [1, 50] + BAD, "symmetry_rtol": [0.0, 1e-10] + BAD}))
def test_eigensolvers(A: Any, ctx: Any, kw: dict[str, Any]) -> None:
    check(lambda: results(purepca.jacobi_eigh(A, context=ctx, **kw)), A)
    check(lambda: results(purepca.tridiagonal_eigh(A, context=ctx)), A)
    check(lambda: results(purepca.eigh(A, context=ctx)), A)
    check(lambda: results(purepca.jacobi_svd(A, context=ctx)), A)
    check(lambda: purepca.center_kernel(A, context=ctx)[0], A)


@FUZZ
@given(matrices(square=True, symmetric=True, clean=True),
       params({"k": [1, 2, 3] + BAD, "tol": [None, 1e-8] + BAD, "seed": [0, 7] + BAD, "max_iter": [5, 200] + BAD}))
def test_iterative_solvers(A: Any, kw: dict[str, Any]) -> None:
    power = {k: v for k, v in kw.items()}
    check(lambda: results(purepca.power_iteration(A, **power)), A)
    check(lambda: results(purepca.subspace_iteration(A, **power)), A)
    lan = {k: v for k, v in kw.items() if k != "max_iter"}
    check(lambda: results(purepca.lanczos(A, **lan)), A)


PCA_PARAMS = {
    "n_components": [None, 1, 2, 0.5, 0.99, "mle", 10] + BAD,
    "center": [True, False, 1],
    "scale": [False, True, "yes"],
    "ddof": [0, 1, 2, -1, "a"],
    "whiten": [False, True],
    "solver": ["auto", "covariance", "jacobi", "gram", "svd", "power", "krylov", "bogus"],
    "convention": ["sklearn", "prcomp", "princomp", "factominer", "bogus"],
    "precision": [None, 20, 5, "a"],
    "seed": [0, 3] + BAD,
}


@FUZZ
@given(matrices(), matrices(), params(PCA_PARAMS))
def test_pca(X: Any, Y: Any, kw: dict[str, Any]) -> None:
    pca = PCA(**kw)
    fitted = check(lambda: pca.fit(X), X)
    if isinstance(fitted, PurePCAError):
        check(lambda: pca.transform(Y), Y)  # NotFittedError: a PurePCAError
        return
    state = dict(pca.__dict__)
    for method in ("transform", "inverse_transform", "score_samples", "reconstruction_error"):
        check(lambda: getattr(pca, method)(Y), Y)
    for name in ("components_", "explained_variance_ratio_"):
        assert finite_floats(getattr(pca, name))
    # inf where no float can hold the number (documented; with precision=N
    # the exact values are in high_precision_), never NaN.
    for name in ("explained_variance_", "singular_values_", "mean_"):
        assert not any(math.isnan(v) for v in getattr(pca, name))
    # A refit on bad data changes nothing; a refit on good data may.
    refit = check(lambda: pca.fit(Y), Y)
    if isinstance(refit, PurePCAError):
        assert_unchanged(pca, state)
    check(lambda: PCA(**kw).fit_transform(X), X)
    check(lambda: PCA(**kw).partial_fit(X).partial_fit(Y), X, Y)


KPCA_PARAMS = {
    "n_components": [None, 1, 2, 3] + BAD,
    "kernel": ["linear", "poly", "rbf", "sigmoid", "cosine", "laplacian", "bogus"],
    "gamma": [None, 0.1, 1.0, 1e3] + BAD,
    "degree": [1, 2, 3, 40] + BAD,
    "coef0": [0.0, 1.0, -1.0] + BAD,
    "alpha": [0.0, 1e-3, 1.0] + BAD,
    "fit_inverse_transform": [False, True],
    "eigen_solver": ["auto", "jacobi", "tridiagonal", "krylov", "power", "bogus"],
    "remove_zero_eig": [False, True],
    "negative": ["error", "drop", "bogus"],
    "convention": ["sklearn", "kernlab", "bogus"],
    "precision": [None, 20],
}


@FUZZ
@given(matrices(), matrices(), params(KPCA_PARAMS))
def test_kernel_pca(X: Any, Y: Any, kw: dict[str, Any]) -> None:
    kp = KernelPCA(**kw)
    fitted = check(lambda: kp.fit(X), X)
    if isinstance(fitted, PurePCAError):
        return
    state = dict(kp.__dict__)
    check(lambda: kp.transform(Y), Y)
    if kp.fit_inverse_transform:
        check(lambda: kp.inverse_transform(Y), Y)
    refit = check(lambda: kp.fit(Y), Y)
    if isinstance(refit, PurePCAError):
        assert_unchanged(kp, state)


@FUZZ
@given(matrices(), matrices(), st.sampled_from(["linear", "poly", "rbf", "sigmoid", "cosine", "laplacian"]),
       params({"gamma": [None, 0.5] + BAD, "degree": [2, 400] + BAD, "coef0": [0.0, 1.0] + BAD}))
def test_kernel_matrix(X: Any, Y: Any, kernel: str, kw: dict[str, Any]) -> None:
    check(lambda: purepca.kernel_matrix(X, kernel=kernel, **kw), X)
    check(lambda: purepca.kernel_matrix(X, Y, kernel=kernel, **kw), X, Y)


@FUZZ
@given(st.lists(st.sampled_from(["demo", "--precision", "17", "20", "0", "-5", "abc", "1e3", "--version",
                                 "--help", "fit", "transform", "--model", "no-such.json", "-", "--bogus", ""]),
                max_size=5))
def test_command_line(argv: list[str]) -> None:
    try:
        status = check(lambda: cli_main(argv))
    except SystemExit as exit_:  # argparse: 0 for --help/--version, 2 for bad usage
        assert exit_.code in (0, 2)
        return
    assert status in (0, 1)
