"""Issue 41, the doors: model files, registered solvers, sign rules, the file door, the summary's HTML and
the kernel room's agreement with reference mode.  Every test here fails on 1d257ef.

Accuracy is judged by exact arithmetic (Fractions of the floats), never by purepca itself.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from purepca import PCA, KernelPCA, PurePCAError
from purepca.conventions import SIGN_RULES, apply_sign_rule, sign_flips
from purepca.datasets import toy_data

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --------------------------------------------------------------------------------- sign rules


def exact_sum(v: list[float]) -> Fraction:
    return sum((Fraction(x) for x in v), Fraction(0))


@pytest.mark.parametrize("rule", ["sum_positive", "factominer"])
@pytest.mark.parametrize("v", [
    [0.5, -1e-17, -0.5],  # the float sum cancels to 0: the -1e-17 decides
    [-0.5, 1e-17, 0.5],
    [1e308, 1e308, -1e308],  # the float sum overflows
    [-1e308, -1e308, 1e308],
    [1.0, 2.0 ** -60, -1.0, -2.0 ** -61],
    [Decimal("0.5"), Decimal("-1E-40"), Decimal("-0.5")],  # Decimals: the sum is exact, not the context's
])
def test_sign_flips_sum_rules_decide_on_the_exact_sum(rule: str, v: list[Any]) -> None:
    total = sum((Fraction(x) for x in v), Fraction(0))
    assert total != 0
    assert sign_flips([v], rule) == [total < 0]
    fixed = apply_sign_rule([v], rule)[0]
    assert sum((Fraction(x) for x in fixed), Fraction(0)) > 0


def test_sign_flips_sum_rules_under_a_hostile_decimal_context() -> None:
    import decimal

    v = [Decimal("0.5"), Decimal("-1E-40"), Decimal("-0.5")]
    with decimal.localcontext(decimal.Context(prec=1, rounding=decimal.ROUND_DOWN, traps=list(decimal.Context().flags))):
        assert sign_flips([v], "sum_positive") == [True]
        assert sign_flips([[Decimal("0.14"), Decimal("-0.15")]], "max_abs_positive") == [True]


@pytest.mark.parametrize("bad, message", [
    (None, r"components: expected a sequence of components \(rows of numbers\), got NoneType"),
    ([5], r"components\[0\]: expected a component \(a row of numbers\), got 5"),
    ([[1, "x"]], r"components\[0\]\[1\]: expected a finite real number, got 'x'"),
    ([[2j, 1]], r"components\[0\]\[0\]: expected a finite real number, got 2j"),
    ([[1.0, math.nan]], r"components\[0\]\[1\]: expected a finite real number, got nan"),
    ([[math.inf, 1.0]], r"components\[0\]\[0\]: expected a finite real number, got inf"),
    ([[0.5, -math.inf]], r"components\[0\]\[1\]: expected a finite real number, got -inf"),
    ([[True, 0.5]], r"components\[0\]\[0\]: expected a finite real number, got True"),
    ([[None]], r"components\[0\]\[0\]: expected a finite real number, got None"),
    ([[Decimal("NaN")]], r"components\[0\]\[0\]: expected a finite real number, got Decimal\('NaN'\)"),
    ("ab", r"components: expected a sequence of components \(rows of numbers\), got str"),
    ({(1.0, 2.0)}, r"components: expected a sequence of components \(rows of numbers\), got set"),
    ([{1.0, 2.0}], r"components\[0\]: expected a component"),
])
@pytest.mark.parametrize("rule", SIGN_RULES)
def test_sign_flips_refuses_what_is_not_a_component(bad: Any, message: str, rule: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        sign_flips(bad, rule)
    with pytest.raises(PurePCAError, match=message):
        apply_sign_rule(bad, rule)


def test_apply_sign_rule_reads_a_generator_once() -> None:
    assert apply_sign_rule((row for row in [[-1.0, 0.5]]), "first_positive") == [[1.0, -0.5]]


# ------------------------------------------------------------------------------ summary HTML


@pytest.mark.parametrize("digits", [-1, 0, 23, "4", None, 4.5, True, 10 ** 100])
def test_summary_to_html_refuses_digits_that_are_not_1_to_22(digits: Any) -> None:
    summary = PCA(convention="prcomp").fit(toy_data()).summary()
    message = r"digits: expected a whole number from 1 to 22 \(significant digits\), got "
    with pytest.raises(PurePCAError, match=message):
        summary.to_html(digits)
    with pytest.raises(PurePCAError, match=message):
        summary.to_string(digits)


def test_summary_to_html_takes_1_and_22_digits() -> None:
    summary = PCA(convention="prcomp").fit(toy_data()).summary()
    assert "<td>1</td>" in summary.to_html(1)
    sd = PCA(convention="prcomp").fit(toy_data()).explained_variance_[0] ** 0.5
    assert f"<td>{sd:.15f}".rstrip("0") in summary.to_html(22)


# ------------------------------------------------------- the kernel room against reference mode

_MODES = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
from purepca import KernelPCA, PurePCAError
from purepca.kernels import kernel_matrix
B = 1.7e308
inputs = [[[B, -B], [-B, B], [0.0, 0.0]], [[B, 0.0], [0.0, B], [-B, -B]], [[1e308, 1e308], [1e308, 1e308], [0.0, 1.0]],
          [[1e200, -1e200], [1e200, 1e200], [1.0, 2.0]], [[1e-300, 1e-310], [5e-324, 0.0], [1.0, 1.0]]]
out = []
for kernel in ["linear", "poly", "rbf", "sigmoid", "cosine", "laplacian"]:
    for X in inputs:
        try:
            K = kernel_matrix(X, kernel=kernel)
            fit = KernelPCA(1, kernel=kernel).fit(X)
            out.append([kernel, X, "ok", K, fit.eigenvalues_])
        except PurePCAError as err:
            out.append([kernel, X, "refused", str(err)])
json.dump(out, sys.stdout)
"""


def _modes(reference: bool) -> list[Any]:
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("PUREPCA_REFERENCE", None)
    if reference:
        env["PUREPCA_REFERENCE"] = "1"
    done = subprocess.run([sys.executable, "-c", _MODES], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.interpreter
@pytest.mark.budget(10)  # two interpreters started; what it checks differs by interpreter (the kernel room)
def test_kernel_pca_default_and_reference_mode_accept_and_refuse_the_same_inputs() -> None:
    default, reference = _modes(False), _modes(True)
    assert [row[:3] for row in default] == [row[:3] for row in reference]
    found = {(row[0], json.dumps(row[1])): row for row in default}
    B = 1.7e308
    # The case: k(x, 0) = exp(-0.5·‖x‖²) underflows to 0 (the true value is below 1e-300): it fits.
    assert found[("rbf", json.dumps([[B, -B], [-B, B], [0.0, 0.0]]))][2] == "ok"
    assert found[("rbf", json.dumps([[B, -B], [-B, B], [0.0, 0.0]]))][3] == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0],
                                                                             [0.0, 0.0, 1.0]]


def test_kernel_cosine_of_rows_near_the_float_range_is_their_cosine() -> None:
    from purepca.kernels import kernel_matrix

    B = 1.7e308
    X = [[B, -B], [-B, B], [B, 0.0], [0.0, 0.0]]
    K = kernel_matrix(X, kernel="cosine")
    for i, x in enumerate(X):
        for j, y in enumerate(X):
            # Exactly: the rows divided by 2**1000 (exact), the dot product in Fractions, one sqrt of floats.
            xs, ys = [Fraction(a) / 2 ** 1000 for a in x], [Fraction(b) / 2 ** 1000 for b in y]
            xx, yy = sum(a * a for a in xs), sum(b * b for b in ys)
            want = 0.0 if not xx or not yy else float(sum(a * b for a, b in zip(xs, ys))) / math.sqrt(float(xx * yy))
            assert abs(K[i][j] - want) <= 4e-16, (i, j, K[i][j], want)
