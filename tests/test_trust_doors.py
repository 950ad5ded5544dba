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
inputs = [[[B, -B], [-B, B], [0.0, 0.0]], [[B, 0.0], [0.0, B], [-B, -B]], [[1e200, -1e200], [1e200, 1e200], [1.0, 2.0]]]
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
@pytest.mark.budget(20)  # starts two interpreters (about 3 s on an idle machine): the modes differ only across processes
def test_kernel_pca_default_and_reference_mode_accept_and_refuse_the_same_inputs() -> None:
    default, reference = _modes(False), _modes(True)
    assert [row[:3] for row in default] == [row[:3] for row in reference]
    found = {(row[0], json.dumps(row[1])): row for row in default}
    B = 1.7e308
    # The case: k(x, 0) = exp(-0.5·‖x‖²) underflows to 0 (the true value is below 1e-300): it fits.
    assert found[("rbf", json.dumps([[B, -B], [-B, B], [0.0, 0.0]]))][2] == "ok"
    assert found[("rbf", json.dumps([[B, -B], [-B, B], [0.0, 0.0]]))][3] == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0],
                                                                             [0.0, 0.0, 1.0]]


@pytest.mark.interpreter  # math.hypot, or the reference's, by mode
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


# ------------------------------------------------------------------------------------ model files

from purepca.model_io import pca_from_json, pca_to_json  # noqa: E402

XM = [[1.0, 2.0, 0.5], [2.0, 1.0, 1.5], [4.0, 5.0, 0.0], [3.0, 3.0, 1.0], [0.0, 1.0, 2.0], [1.5, 0.5, 2.5]]


def _doc(**kwargs: Any) -> dict[str, Any]:
    return json.loads(pca_to_json(PCA(**kwargs).fit(XM)))  # type: ignore[no-any-return]


def _both(doc: dict[str, Any], public: str, inner: str, change: Any) -> None:
    """An edit made consistently: the public attribute and the field at the fit's precision alike."""
    doc["attributes"][public] = change(doc["attributes"][public])
    doc["state"][inner] = change(doc["state"][inner])


def _refused(doc: dict[str, Any], message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        pca_from_json(json.dumps(doc))


@pytest.mark.parametrize("precision", [None, 30])
@pytest.mark.parametrize("delta", [1.0, 1e-9])
@pytest.mark.parametrize("field", ["mean_hi", "mean_lo"])
def test_model_from_json_refuses_an_edited_mean_pair(precision: Any, delta: float, field: str) -> None:
    doc = _doc(n_components=2, precision=precision)
    value = doc["state"][field][0]
    doc["state"][field][0] = str(Decimal(value) + Decimal(delta)) if isinstance(value, str) else value + delta
    _refused(doc, rf"state\.mean_hi\[0\] \+ state\.mean_lo\[0\] is .* but state\.mean\[0\] is")


@pytest.mark.parametrize("precision", [None, 30])
def test_model_from_json_refuses_an_edited_root(precision: Any) -> None:
    doc = _doc(n_components=2, precision=precision, whiten=True)
    value = doc["state"]["roots"][1]
    doc["state"]["roots"][1] = str(Decimal(value) * Decimal("1.000001")) if isinstance(value, str) else value * (1 + 2 ** -50)
    _refused(doc, r"state\.roots\[1\] is .* but the square root of state\.variance\[1\] is")


@pytest.mark.parametrize("precision", [None, 30])
def test_model_from_json_refuses_a_doubled_component_edited_in_both_copies(precision: Any) -> None:
    doc = _doc(n_components=2, precision=precision)
    double = (lambda rows: [[str(2 * Decimal(x)) if isinstance(x, str) else 2 * x for x in rows[0]]] + rows[1:])
    doc["attributes"]["components_"] = [[2 * x for x in doc["attributes"]["components_"][0]],
                                        doc["attributes"]["components_"][1]]
    doc["state"]["components"] = double(doc["state"]["components"])
    _refused(doc, r"state\.components\[0\] is not a unit vector")


@pytest.mark.parametrize("precision", [None, 30])
def test_model_from_json_refuses_two_equal_components(precision: Any) -> None:
    doc = _doc(n_components=2, precision=precision)
    _both(doc, "components_", "components", lambda rows: [rows[0], rows[0]])
    _refused(doc, r"state\.components\[0\] and state\.components\[1\] are not orthogonal")


@pytest.mark.parametrize("precision", [None, 30])
def test_model_from_json_refuses_ascending_variances_edited_everywhere(precision: Any) -> None:
    doc = _doc(n_components=2, precision=precision)
    for public, inner in (("explained_variance_", "variance"), ("singular_values_", "singular"),
                          ("explained_variance_ratio_", "ratios")):
        _both(doc, public, inner, lambda v: v[::-1])
    doc["state"]["roots"] = doc["state"]["roots"][::-1]
    _both(doc, "components_", "components", lambda rows: rows[::-1])
    _refused(doc, r"state\.variance\[1\] = .* is above state\.variance\[0\]")


def test_model_from_json_refuses_a_noise_variance_that_is_text() -> None:
    doc = _doc(n_components=2)
    doc["attributes"]["noise_variance_"] = "0.1"
    _refused(doc, r"noise_variance_: '0\.1' is not a number")


@pytest.mark.parametrize("field, change, message", [
    ("noise", lambda v: v * 2, r"state\.noise is .* but the mean of the discarded eigenvalues"),
    ("singular", lambda v: [v[0] * 1.001] + v[1:], r"state\.singular\[0\] is"),
    ("ratios", lambda v: [v[0] * 1.001] + v[1:], r"state\.ratios\[0\] is"),
])
def test_model_from_json_refuses_derived_numbers_that_disagree(field: str, change: Any, message: str) -> None:
    doc = _doc(n_components=2)
    public = {"noise": "noise_variance_", "singular": "singular_values_", "ratios": "explained_variance_ratio_"}[field]
    _both(doc, public, field, change)
    _refused(doc, message)


_OPTIONS = [
    {"convention": c} for c in ("sklearn", "prcomp", "princomp", "factominer", "statsmodels", "numpy")
] + [{"scale": True}, {"whiten": True}, {"center": False}, {"precision": 30}, {"precision": 30, "scale": True},
     {"solver": "svd"}, {"solver": "gram"}, {"solver": "jacobi"}, {"n_components": 2, "solver": "krylov"},
     {"n_components": 2, "solver": "power"}, {"n_components": 0.9}, {"missing": "mean"}, {"missing": "drop"}]


@pytest.mark.parametrize("weights", [None, "sample", "frequency", "column"])
@pytest.mark.parametrize("options", _OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_model_from_json_reads_every_convention_and_option_back_to_the_same_bits(options: dict[str, Any],
                                                                                   weights: Any) -> None:
    X = [[1.0 + 1e6, 2.0, 0.5], [2.0 + 1e6, 1.0, 1.5], [4.0 + 1e6, 5.0, 0.0], [3.0 + 1e6, 3.0, 1.0],
         [0.0 + 1e6, 1.0, 2.0], [1.5 + 1e6, 0.5, 2.5], [2.5 + 1e6, 4.0, 0.25]]
    fit_x = [list(row) for row in X]
    if options.get("missing"):
        fit_x[1][1] = math.nan
    kw: dict[str, Any] = {}
    if weights in ("sample", "frequency") and not options.get("missing"):
        kw["sample_weight"] = [0.5, 1.5, 2.0, 1.0, 0.25, 3.0, 1.0] if weights == "sample" else [1, 2, 1, 3, 1, 1, 2]
    if weights == "column" and not options.get("missing"):
        kw["column_weight"] = [0.5, 2.0, 1.25]
    pca = PCA(**options).fit(fit_x, **kw)
    back = pca_from_json(pca_to_json(pca))
    assert repr(back.transform(X)) == repr(pca.transform(X))
    assert repr(back.inverse_transform(back.transform(X))) == repr(pca.inverse_transform(pca.transform(X)))


# ------------------------------------------------------------------------------ registered solvers

from purepca.solvers import SOLVER_TABLE, Solver, Spectrum, register_solver, solve_svd  # noqa: E402


def _svd(P: Any) -> Spectrum:
    return solve_svd(P.rows(), P.div, P.ctx)


@pytest.fixture
def table() -> Any:
    saved = dict(SOLVER_TABLE)
    yield SOLVER_TABLE
    SOLVER_TABLE.clear()
    SOLVER_TABLE.update(saved)


@pytest.mark.parametrize("row, message", [
    (Solver("mine", 5, lambda n, d, k: False), r"register_solver: the row 'mine': run must be callable"),  # type: ignore[arg-type]
    (Solver("mine", _svd, None), r"register_solver: the row 'mine': forms_covariance must be callable"),  # type: ignore[arg-type]
    (Solver("mine", _svd, lambda n, d, k: False, cost=3), r"the row 'mine': cost must be None or callable"),  # type: ignore[arg-type]
    (Solver("mine", _svd, lambda n, d, k: False, top_k="yes"), r"the row 'mine': top_k must be True or False"),  # type: ignore[arg-type]
    (Solver("", _svd, lambda n, d, k: False), r"register_solver: expected a Solver with a name other than 'auto' \(a non-empty string\), got the name"),
    (Solver(5, _svd, lambda n, d, k: False), r"register_solver: expected a Solver with a name other than 'auto' \(a non-empty string\), got the name"),  # type: ignore[arg-type]
    ("svd", r"register_solver: expected a Solver with a name other than 'auto', got str 'svd'"),
])
def test_register_solver_checks_the_row(table: Any, row: Any, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        register_solver(row)
    assert "mine" not in table


def _good(P: Any) -> Spectrum:
    return _svd(P)


_BAD_RUNS = [
    (lambda P: None, r"solver 'mine' returned NoneType None; a solver's run must return a Spectrum"),
    (lambda P: [1.0, 2.0], r"solver 'mine' returned list"),
    (lambda P: Spectrum(["a", "b", "c"], _good(P).components, _good(P).total, "x"),
     r"solver 'mine': values\[0\] = 'a': expected a finite real number"),
    (lambda P: Spectrum([math.nan] + _good(P).values[1:], _good(P).components, _good(P).total, "x"),
     r"solver 'mine': values\[0\] = nan: expected a finite real number"),
    (lambda P: Spectrum(_good(P).values[::-1], _good(P).components, _good(P).total, "x"),
     r"solver 'mine': values\[1\] = .* is above values\[0\]"),
    (lambda P: Spectrum([], [], _good(P).total, "x"), r"solver 'mine' returned 0 values; expected between 1 and"),
    (lambda P: Spectrum(_good(P).values, [[2 * x for x in v] for v in _good(P).components], _good(P).total, "x"),
     r"solver 'mine': components\[0\] is not a unit vector"),
    (lambda P: Spectrum(_good(P).values, [_good(P).components[0]] * 3, _good(P).total, "x"),
     r"solver 'mine': components\[0\] and components\[1\] are not orthogonal"),
    (lambda P: Spectrum([1.0, -1.0], _good(P).components[:2], 2.0, "x"), r"values\[1\] = -1\.0 is negative"),
    (lambda P: Spectrum(_good(P).values, _good(P).components[:2], _good(P).total, "x"), r"expected 3 axes"),
    (lambda P: Spectrum(_good(P).values, _good(P).components, 1e-3, "x"), r"total = 0\.001 is below the sum"),
    (lambda P: Spectrum(_good(P).values, [v[:2] for v in _good(P).components], _good(P).total, "x"),
     r"components\[0\] has 2 entries; expected 3"),
]


@pytest.mark.parametrize("run, message", _BAD_RUNS)
def test_pca_fit_checks_a_registered_solvers_answer(table: Any, run: Any, message: str) -> None:
    register_solver(Solver("mine", run, lambda n, d, k: False))
    pca = PCA(solver="mine")
    with pytest.raises(PurePCAError, match=message):
        pca.fit(XM)
    assert not hasattr(pca, "components_")


def test_a_model_fitted_by_a_registered_solver_saves_and_loads_back(table: Any) -> None:
    register_solver(Solver("mine", _good, lambda n, d, k: False))
    pca = PCA(solver="mine").fit(XM)
    assert pca.solver_ == "mine"
    back = pca_from_json(pca_to_json(pca))
    assert back.solver_ == "mine" and repr(back.transform(XM)) == repr(pca.transform(XM))


def test_pca_fit_names_a_junk_row_put_into_the_table(table: Any) -> None:
    table["junk"] = "not a row"
    with pytest.raises(PurePCAError, match=r"SOLVER_TABLE\['junk'\]: expected a Solver with a name other than 'auto', got str"):
        PCA().fit(XM)


def test_pca_fit_names_a_row_whose_cost_is_not_a_number(table: Any) -> None:
    table["cheap"] = Solver("cheap", _good, lambda n, d, k: False, cost=lambda n, d, k: "nothing")
    with pytest.raises(PurePCAError, match=r"SOLVER_TABLE\['cheap'\]: its cost\(6, 3, None\) is 'nothing'"):
        PCA().fit(XM)


def test_pca_fit_names_a_deleted_row(table: Any) -> None:
    del table["svd"]
    X = [[float(i), i + 1e-7 * (-1) ** i, 2.0 * i] for i in range(6)]  # auto turns to the SVD here
    with pytest.raises(PurePCAError, match=r"SOLVER_TABLE has no row 'svd' \(deleted\?\): the fit needs it"):
        PCA().fit(X)
    del table["covariance"]
    with pytest.raises(PurePCAError, match=r"no row has a cost for 6 x 3 data"):
        PCA().fit(XM)


# ------------------------------------------------------------------------------------ the file door


def _cli(args: list[str], cwd: Any, monkeypatch: Any, stdin: bytes = b"") -> tuple[int, bytes, str]:
    """``python -m purepca ARGS`` in this process (quick): its status, standard output (bytes) and error."""
    import io

    from purepca.cli import main

    monkeypatch.chdir(cwd)
    out, err = io.BytesIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="ascii"))  # a terminal that is not UTF-8
    monkeypatch.setattr(sys, "stderr", err)
    code = main(args)
    sys.stdout.flush()
    return code, out.getvalue(), err.getvalue()


@pytest.mark.interpreter
@pytest.mark.budget(5)  # makes a whole teach page (0.8 s on an idle machine)
def test_teach_writes_a_title_that_is_not_utf8_as_utf8(tmp_path: Any, monkeypatch: Any) -> None:
    # bash's $'\xe9': one byte that is not UTF-8 reaches Python as the surrogate '\udce9'.
    code, _, err = _cli(["teach", "--dataset", "toy", "--title", "caf\udce9", "-o", "t.html"], tmp_path, monkeypatch)
    assert code == 0, err
    page = (tmp_path / "t.html").read_bytes().decode("utf-8")  # strict: the file is UTF-8
    assert "caf\ufffd" in page


@pytest.mark.interpreter
@pytest.mark.budget(5)  # makes a whole teach page (0.8 s on an idle machine)
def test_write_output_to_standard_output_is_utf8_whatever_the_terminal(tmp_path: Any, monkeypatch: Any) -> None:
    code, out, err = _cli(["teach", "--dataset", "toy", "--title", "caf\u00e9 \u20ac"], tmp_path, monkeypatch)
    assert code == 0, err
    assert "caf\u00e9 \u20ac" in out.decode("utf-8")


@pytest.mark.interpreter  # file names
@pytest.mark.parametrize("output, message", [
    ("x.html/", r"--output x\.html/: ends in /, so it names a directory, which does not exist; name a file"),
    ("", r"--output '': an empty file name; name a file \(or - for standard output\)"),
])
def test_check_output_path_refuses_a_name_that_is_no_file(tmp_path: Any, monkeypatch: Any, output: str,
                                                          message: str) -> None:
    from purepca.files import check_output_path, write_output

    monkeypatch.chdir(tmp_path)
    with pytest.raises(PurePCAError, match=message):
        check_output_path(output, "--output")
    with pytest.raises(PurePCAError, match=message.replace("--output", "output")):
        write_output("text", output)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("output, message", [
    ("x.html/", "--output x.html/: ends in /, so it names a directory"),
    ("", "--output '': an empty file name"),
])
def test_teach_refuses_an_output_that_is_no_file_before_any_work(tmp_path: Any, monkeypatch: Any, output: str,
                                                                 message: str) -> None:
    import purepca.player

    def no_work(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the page was made before the output was checked")

    monkeypatch.setattr(purepca.player, "teach_command", no_work)
    code, _, err = _cli(["teach", "--dataset", "toy", "-o", output], tmp_path, monkeypatch)
    assert code == 1
    assert message in err
    assert os.listdir(tmp_path) == []


_ANSWER = {"explained_variance_": [1.2840277121727839, 0.049083398938619]}


def test_assess_refuses_to_overwrite_its_answer(tmp_path: Any, monkeypatch: Any) -> None:
    answer = tmp_path / "ans.json"
    answer.write_text(json.dumps(_ANSWER))
    code, _, err = _cli(["assess", "toy", "ans.json", "-o", "ans.json"], tmp_path, monkeypatch)
    assert code == 1
    assert "--output ans.json would overwrite ANSWER ans.json, which the command reads" in err
    assert json.loads(answer.read_text()) == _ANSWER


def test_assess_reads_its_answer_from_standard_input_once(tmp_path: Any, monkeypatch: Any) -> None:
    code, out, err = _cli(["assess", "toy", "-"], tmp_path, monkeypatch, stdin=json.dumps(_ANSWER).encode())
    # read and judged: the second variance is off in its 12th digit, a FAIL, so the status is 1 (as verify's)
    assert code == 1 and err == ""
    assert b"explained_variance_[0]" in out


def test_verify_does_not_advise_encoding_for_its_result_file(tmp_path: Any, monkeypatch: Any) -> None:
    (tmp_path / "r.json").write_bytes(b'{"explained_variance_": [1.0]} \xe9')
    _, _, err = _cli(["verify", "--dataset", "toy", "--result", "r.json"], tmp_path, monkeypatch)
    assert "r.json: line 1: byte 0xe9 is not utf-8 text; a result file is always read as UTF-8: save it as UTF-8" in err
    assert "--encoding" not in err


def test_verify_reads_json_data_in_the_encoding_it_advises(tmp_path: Any, monkeypatch: Any) -> None:
    (tmp_path / "d.json").write_bytes('{"X": [[1, 2], [3, 4], [5, 7.5]], "note": "caf\u00e9"}'.encode("latin-1"))
    (tmp_path / "r.json").write_text('{"explained_variance_": [1.0, 0.1]}')
    _, _, err = _cli(["verify", "--data", "d.json", "--result", "r.json"], tmp_path, monkeypatch)
    assert "pass --encoding" in err
    _, out, err = _cli(["verify", "--data", "d.json", "--encoding", "latin-1", "--result", "r.json"], tmp_path,
                       monkeypatch)
    assert b"explained_variance_[0]" in out, err


def test_model_from_json_refuses_a_noise_variance_edited_in_both_copies() -> None:
    doc = _doc(n_components=2, precision=30)  # its numbers are decimal strings: "0.1" is one
    doc["state"]["noise"], doc["attributes"]["noise_variance_"] = "0.1", 0.1
    _refused(doc, r"state\.noise is 0\.1 but the mean of the discarded eigenvalues \(rest\) is")


@pytest.mark.parametrize("call, message", [
    (lambda: __import__("purepca.report").report.format_table(None, [], 4), r"names: expected a list of strings"),
    (lambda: __import__("purepca.report").report.format_table(["A"], [("x", ["a"])], 4), r"rows\[0\] \('x'\)\[0\]"),
    (lambda: __import__("purepca.report").report.format_table(["A", "B"], [("x", [1.0])], 4), r"1 numbers for 2 names"),
    (lambda: __import__("purepca.report").report.format_rounded([[1.0]], -1), r"decimals: expected a whole number"),
    (lambda: __import__("purepca.report").report.format_rounded([[None]], 3), r"values\[0\]\[0\]: expected a real"),
    (lambda: __import__("purepca.report").report.print_matrix(["a"], ["x"], [["1", "2"]]), r"cells: expected 1 rows"),
    (lambda: __import__("purepca.report").report.print_matrix(["a"], ["x"], [["1"]], width=0), r"width: expected"),
    (lambda: __import__("purepca.report").report.pca_html(None), r"pca_html: expected a purepca\.PCA, got NoneType"),
])
def test_report_helpers_refuse_what_they_cannot_format(call: Any, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        call()
