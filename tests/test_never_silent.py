"""The last lines of issue 20: what was silently wrong, raw or blamed on the wrong thing (lines 11, 12, 14,
20, 26, 27, 29 and 30), each the right answer or one clear PurePCAError naming what and where.

A non-symmetric kernel callable is refused as a non-symmetric precomputed K is; integer sample weights
are the repeated rows, down to how many components exist; ``verify`` names the result file and field for
a fault of the result and the option for a bad --rtol or --residual; the oracle's helpers name a bad
argument; a float beyond the float range is not called infinite; a kernel callable may return a Decimal;
ties between eigenvalues far below the largest are reported when the solver cannot separate them.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import warnings
from decimal import Decimal

import pytest

from purepca import PCA, KernelPCA, PurePCAError
from purepca.cli import main
from purepca.errors import DegenerateEigenvalueWarning
from purepca.testing import align_signs, assert_pca_close, compare_pca, reference, residual_bound

X = [[1.0, 2.0, 3.0], [2.0, 1.0, 0.0], [0.0, 3.0, 1.0], [4.0, 1.0, 2.0], [5.0, 5.0, 1.0]]


# ----------------------------------------------------------------- line 11: a non-symmetric kernel callable


def test_never_silent_a_non_symmetric_kernel_callable_is_refused_naming_the_pair() -> None:
    with pytest.raises(PurePCAError, match=r"the kernel callable is not symmetric: k\(X\[0\], X\[1\]\) = 4.0 but "
                                           r"k\(X\[1\], X\[0\]\) = 5.0"):
        KernelPCA(2, kernel=lambda a, b: 2 * a[0] + b[0]).fit(X)
    with pytest.raises(PurePCAError, match="not symmetric"):
        KernelPCA(2, kernel=lambda a, b: 2 * a[0] + b[0], precision=30).fit(X)


def test_never_silent_a_symmetric_kernel_callable_gives_the_builtin_kernel() -> None:
    # Rounding that differs in the last bits between k(x, y) and k(y, x) is not asymmetry.
    def dot(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b)) * (1.0 + (1e-15 if a < b else 0.0))

    mine = KernelPCA(2, kernel=dot).fit(X)
    builtin = KernelPCA(2, kernel="linear").fit(X)
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(mine.eigenvalues_, builtin.eigenvalues_))


# ------------------------------------------------------- line 29: a kernel callable returning a Decimal


def test_never_silent_a_kernel_callable_may_return_a_decimal() -> None:
    # numpy (and so scikit-learn's pairwise_kernels) stores a Decimal as its float: so does purepca.
    def as_decimal(a: list[float], b: list[float]) -> Decimal:
        return Decimal(sum(x * y for x, y in zip(a, b)))

    got = KernelPCA(2, kernel=as_decimal).fit(X).eigenvalues_
    assert got == KernelPCA(2, kernel="linear").fit(X).eigenvalues_
    with pytest.raises(PurePCAError, match=r"the kernel callable returned Decimal\('NaN'\)"):
        KernelPCA(2, kernel=lambda a, b: Decimal("nan")).fit(X)
    with pytest.raises(PurePCAError, match=r"overflows a float"):
        KernelPCA(2, kernel=lambda a, b: Decimal("1e400")).fit(X)


# ------------------------------------------------------------------ line 29: np.longdouble beyond floats


def test_never_silent_a_longdouble_beyond_the_float_range_is_not_called_infinite() -> None:
    np = pytest.importorskip("numpy", reason="numpy's longdouble is the case")
    if np.finfo(np.longdouble).max <= 1e308:
        pytest.skip("longdouble is a double on this machine")
    rows = [[1.0, 2.0], [np.longdouble("1e400"), 3.0], [2.0, 2.0]]
    with pytest.raises(PurePCAError, match=r"X: row 1, column 0 \(np.longdouble\('1e\+400'\)\) is beyond the float "
                                           r"range"):
        PCA().fit(rows)
    with pytest.raises(PurePCAError, match=r"X: row 1, column 0 is infinite"):
        PCA().fit([[1.0, 2.0], [np.longdouble("inf"), 3.0], [2.0, 2.0]])


# ------------------------------------------------------------- line 14: integer weights are repeated rows


@pytest.mark.parametrize("weights", [[2, 2, 2], [1, 3, 2], [1, 0, 2, 1]])
def test_never_silent_integer_weights_are_the_repeated_rows(weights: list[int]) -> None:
    rows = [[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 0.0, 5.0], [0.0, 3.0, 1.0, 1.0], [3.0, 3.0, 3.0, 2.0]][:len(weights)]
    repeated = [row for row, w in zip(rows, weights) for _ in range(w)]
    a, b = PCA().fit(rows, sample_weight=weights), PCA().fit(repeated)
    assert a.n_components_ == b.n_components_ == min(len(repeated), 4)
    for name in ("explained_variance_", "mean_", "explained_variance_ratio_"):
        for x, y in zip(getattr(a, name), getattr(b, name)):
            assert abs(x - y) <= 1e-12 * max(1.0, abs(y)), name
    # Singular values are compared squared: a zero one (the null space of rank-deficient rows) comes
    # from an eigenvalue of rounding size (1e-15), whose square root is 3.7e-8 on CPython 3.9's
    # path and 3e-16 from another; both are zero to the accuracy a singular value has there.
    top = b.singular_values_[0] ** 2
    for x, y in zip(a.singular_values_, b.singular_values_):
        assert abs(x * x - y * y) <= 1e-12 * max(1.0, top), "singular_values_"
    assert abs(a.noise_variance_ - b.noise_variance_) <= 1e-12
    kept = sum(1 for s in b.singular_values_ if s > 1e-8 * b.singular_values_[0])  # the others span a null space
    for u, v in zip(a.transform(rows), b.transform(rows)):
        assert all(abs(abs(x) - abs(y)) <= 1e-12 for x, y in zip(u[:kept], v[:kept]))
    # n_components the repeated rows allow is allowed with the weights too.
    assert PCA(4).fit(rows[:3], sample_weight=[2, 2, 2]).n_components_ == 4


def test_never_silent_fractional_weights_count_the_rows_they_weigh() -> None:
    rows = [[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 0.0, 5.0], [0.0, 3.0, 1.0, 1.0], [9.0, 9.0, 9.0, 9.0]]
    # A weight of 0 takes the row out, as dropping it does: 3 components, as of the 3 rows.
    assert PCA().fit(rows, sample_weight=[0.5, 1.5, 1.0, 0.0]).n_components_ == 3
    with pytest.raises(PurePCAError, match=r"n_components=4 must be at most min\(n_samples, n_features\)"):
        PCA(4).fit(rows, sample_weight=[0.5, 1.5, 1.0, 0.0])


# ----------------------------------------------------------- lines 20, 26, 12: verify's files and options


@pytest.fixture()
def data(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "d.csv"
    path.write_text("a,b,c\n" + "\n".join(",".join(str(v) for v in row) for row in X) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("document, message", [
    ('{"explained_variance_": [[2.0], [0.5]]}', "explained_variance_: expected a list of numbers (one per "
                                                "component or column), got a list of rows"),
    ('{"mean_": [[1, 2, 3]]}', "mean_: expected a list of numbers (one per component or column), got a list of rows"),
    ('{"explained_variance_": [' + "9" * 400 + "]}", "explained_variance_[0]: 99999"),
    ('{"explained_variance_": ' + "[" * 100000 + "]" * 100000 + "}", "its JSON is nested too deeply"),
    ('{"components_": [[1, 2, 3], [1, 2]]}', "components_: expected a non-empty rectangular table of numbers"),
    ('{"components_": []}', "components_: expected a non-empty list of rows of numbers"),
    ('{"components_": [1, 2, 3]}', "components_: expected a non-empty list of rows of numbers"),
    ('{"components_": [[1, 2], [3, 4]]}', "components_: 2 entries per component, but the data have 3 columns"),
    ('{"rotation": [[1, 2], [3, 4]]}', "rotation: 2 rows (one per column of the data), but the data have 3"),
    ('{"components_": [[]]}', "components_: expected a non-empty rectangular table of numbers"),
    ('{"explained_variance_": []}', "explained_variance_: empty; there is nothing to compare"),
    ('{"mean_": [1, 2]}', "mean_: 2 entries, but the data have 3 columns"),
    ('{"mean_": [1, 2, 3]}', "neither components_ (or rotation) nor explained_variance_ (or sdev)"),
    ('{"explained_variance_": [1], "noise_variance_": [1]}', "noise_variance_: not a number: [1]"),
])
def test_never_silent_verify_names_the_result_file_and_field(document: str, message: str, data: pathlib.Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    result = data.parent / "theirs.json"
    result.write_text(document, encoding="utf-8")
    assert main(["verify", "--data", str(data), "--result", str(result)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"purepca: error: {result}: "), err
    assert message in err, err


def test_never_silent_verify_directory_noise_variance_is_one_number(data: pathlib.Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    folder = data.parent / "theirs"
    folder.mkdir()
    (folder / "explained_variance_.csv").write_text("4.86,2.27,1.27\n", encoding="utf-8")
    (folder / "noise_variance_.csv").write_text("1,2\n", encoding="utf-8")
    assert main(["verify", "--data", str(data), "--result", str(folder)]) == 1
    assert "noise_variance_.csv: noise_variance_: expected one number" in capsys.readouterr().err


@pytest.mark.parametrize("option, value", [("--rtol", "nan"), ("--rtol", "-1"), ("--rtol", "inf"), ("--rtol", "0"),
                                           ("--residual", "nan"), ("--residual", "-1"), ("--residual", "inf")])
def test_never_silent_verify_names_a_bad_tolerance_option(option: str, value: str, data: pathlib.Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    result = data.parent / "theirs.json"
    result.write_text(json.dumps({"explained_variance_": PCA().fit(X).explained_variance_}), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["verify", "--data", str(data), "--result", str(result), option, value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"verify: error: {option} must be a finite number" in err and str(data) not in err, err


def test_never_silent_verify_still_passes_a_good_result(data: pathlib.Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    result = data.parent / "theirs.json"
    fitted = PCA().fit(X)
    result.write_text(json.dumps({"explained_variance_": fitted.explained_variance_, "mean_": fitted.mean_,
                                  "components_": fitted.components_}), encoding="utf-8")
    assert main(["verify", "--data", str(data), "--result", str(result), "--rtol", "1e-9"]) == 0
    assert "0 failed" in capsys.readouterr().out


# ------------------------------------------------------------------------ lines 12, 27: the oracle's helpers


def test_never_silent_align_signs_of_rows_near_the_float_limit() -> None:
    # Products of 9e307 and 2 overflow with opposite signs: fsum raised ValueError (fuzz harness, round 5).
    assert align_signs([[8.98846567431158e307, 2.0, 1.0]], [[-2.0, 8.98846567431158e307, 1.0]]) == \
        [[8.98846567431158e307, 2.0, 1.0]]
    assert align_signs([[1e308, 1e308]], [[-1e308, -1e308]]) == [[-1e308, -1e308]]


def test_never_silent_align_signs_refuses_rows_of_another_width() -> None:
    with pytest.raises(PurePCAError, match="align_signs: the components have 2 entries but the reference rows 3"):
        align_signs([[1.0, 2.0]], [[1.0, 2.0, 3.0]])


@pytest.mark.parametrize("values, message", [([math.nan, 1.0], r"values: entry 0 is NaN"),
                                             ([math.inf, 1.0], r"values: entry 0 is infinite"),
                                             (["a", 1.0], r"values: entry 0 is a string")])
def test_never_silent_residual_bound_names_bad_values(values: list[object], message: str) -> None:
    with pytest.raises(PurePCAError, match=r"residual_bound: " + message):
        residual_bound([[2.0, 0.0], [0.0, 1.0]], values, [[1.0, 0.0], [0.0, 1.0]])  # type: ignore[arg-type]


def test_never_silent_assert_pca_close_refuses_a_ref_of_other_data() -> None:
    fitted = PCA().fit(X)
    doubled = [[2 * v for v in row] for row in X]
    with pytest.raises(PurePCAError, match=r"ref is the reference of other data \(5 rows, 3 columns\), not of X"):
        assert_pca_close(PCA().fit(doubled), doubled, ref=reference(X))
    with pytest.raises(PurePCAError, match=r"ref is the reference of other data \(4 rows, 2 columns\)"):
        compare_pca(fitted, X, ref=reference([[1.0, 2.0], [2.0, 1.0], [0.0, 3.0], [4.0, 1.0]]))
    with pytest.raises(PurePCAError, match=r"ref must be a Reference .*got str"):
        assert_pca_close(fitted, X, ref="abc")  # type: ignore[arg-type]
    assert_pca_close(fitted, X, ref=reference(X))  # its own reference still passes


def test_never_silent_a_negative_sdev_does_not_pass() -> None:
    fitted = PCA(convention="prcomp").fit(X)
    sdev = [math.sqrt(v) for v in fitted.explained_variance_]
    assert_pca_close({"sdev": sdev}, X, convention="prcomp")
    with pytest.raises(PurePCAError, match=r"sdev\[0\] is -2.20.*: a standard deviation is never negative"):
        assert_pca_close({"sdev": [-v for v in sdev]}, X, convention="prcomp")


# ---------------------------------------------------------- line 30: ties far below the largest eigenvalue


@pytest.mark.parametrize("solver", ["auto", "svd", "covariance"])
@pytest.mark.parametrize("scale", [1e-6, 1e-7])
def test_never_silent_a_tie_below_1e_10_of_the_largest_is_reported(solver: str, scale: float) -> None:
    # Orthogonal columns of equal norm, two of them scaled by 1e-6: eigenvalues 4/3, and twice 4/3·1e-12.
    H = [[1.0, 1.0, 1.0], [1.0, -1.0, -1.0], [-1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]]
    rows = [[a, b * scale, c * scale] for a, b, c in H]
    if solver == "covariance" and scale < 1e-6:
        pytest.skip("the covariance path loses these eigenvalues (it says so: AccuracyWarning)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PCA(solver=solver).fit(rows)
    ties = [w for w in caught if issubclass(w.category, DegenerateEigenvalueWarning)]
    assert len(ties) == 1 and "eigenvalues 2 and 3" in str(ties[0].message), [str(w.message) for w in caught]
    assert "within the rounding errors of the solver" in str(ties[0].message)


def test_never_silent_small_distinct_or_noise_eigenvalues_are_not_ties() -> None:
    H = [[1.0, 1.0, 1.0], [1.0, -1.0, -1.0], [-1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]]
    distinct = [[a, b * 1e-6, c * 2e-6] for a, b, c in H]  # 4/3e-12 and 16/3e-12: separated
    rank_one = [[a, 2 * a, 3 * a] for a, _, _ in H]  # the other eigenvalues are rounding noise
    for rows in (distinct, rank_one):
        with warnings.catch_warnings():
            warnings.simplefilter("error", DegenerateEigenvalueWarning)
            PCA().fit(rows)


# ------------------------------------------------------- what the extended fuzz harness found (fixed)


def test_never_silent_fuzz_findings_are_clear_errors_or_answers(tmp_path: pathlib.Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from purepca.distributed import covariance_error
    from purepca.testing import eigen_clusters, fingerprint, sign_determined

    with pytest.raises(PurePCAError, match=r"precision: at most 10,000 digits, got an int of 1329 bits"):
        PCA(precision=10**400).fit(X)
    for estimator in (PCA(convention=["sklearn"]), KernelPCA(convention={"a": 1})):  # type: ignore[arg-type]
        with pytest.raises(PurePCAError, match="convention must be"):
            estimator.fit(X)
    with pytest.raises(PurePCAError, match=r"covariance_error: reference\[0\]\[0\] is -1.0"):
        covariance_error([[1.0]], [[-1.0]])
    with pytest.raises(PurePCAError, match="covariance_error: C is 1 x 1, the reference 2 x 2"):
        covariance_error([[1.0]], [[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(PurePCAError, match="fingerprint: rows: got None"):
        fingerprint(None)  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="sign_determined: angle"):
        sign_determined([0.6, 0.8], "max_abs_positive", math.nan)
    with pytest.raises(PurePCAError, match="eigen_clusters: values"):
        eigen_clusters([10**400, 1.0])
    with pytest.raises(PurePCAError, match="residual_bound: vectors: row 0 is zero"):
        residual_bound([[2.0, 0.0], [0.0, 1.0]], [2.0], [[0.0, 0.0]])
    # The reference of data at the edges of the float range: inf where a float cannot hold the value.
    big = [[0.0] * 4] * 3 + [[0.0, 0.0, 1.4678102981723262e308, 1.4678102981723262e308]]
    assert reference(big).singular_values_[0] == math.inf  # sqrt(3) * 2.08e308 (an OverflowError before)
    tiny = [[0.0, 0.0], [0.0, 0.0], [0.0, 1e-320]]
    assert all(c.passed for c in compare_pca({"explained_variance_": [0.0, 0.0]}, tiny))
    assert not all(c.passed for c in compare_pca({"explained_variance_": [1.0, 0.0]}, tiny))
    # kernel --kernel rbf on rows 1e308 apart: the gamma hint no longer overflows.
    (tmp_path / "d.csv").write_text("c0\n1\n1e308\n-1e308\n", encoding="utf-8")
    assert main(["kernel", str(tmp_path / "d.csv"), "--kernel", "rbf"]) in (0, 1)
    assert "Traceback" not in capsys.readouterr().err


def test_never_silent_kernel_reference_at_the_edges() -> None:
    from purepca.testing import compare_kernel_pca

    with pytest.raises(PurePCAError, match=r"gamma must be a positive finite number"):
        compare_kernel_pca({"eigenvalues_": [1.0]}, [[1.0], [2.0]], gamma=[1])  # type: ignore[arg-type]
    # rbf on rows 1.34e154 apart: the squared distance rounds to the float limit (an OverflowError before).
    rows = [[0.0, 0.0], [0.0, 0.0], [0.0, 1.3407807929942597e154]]
    checks = compare_kernel_pca({"eigenvalues_": [4 / 3]}, rows, kernel="rbf")  # K: blocks [[1, 1], [1, 1]], [1]
    assert checks and all(c.passed for c in checks)


def test_never_silent_a_weighted_model_file_loads_back() -> None:
    from purepca.model_io import pca_from_json, pca_to_json

    rows = [[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 0.0, 5.0], [0.0, 3.0, 1.0, 1.0]]
    fitted = PCA().fit(rows, sample_weight=[2, 2, 2])  # 4 components of 3 rows standing for 6
    loaded = pca_from_json(pca_to_json(fitted))
    assert loaded.n_components_ == 4 and loaded.transform(rows) == fitted.transform(rows)
    with pytest.raises(PurePCAError, match=r"n_components_: expected a whole number between 0 and 3, got 4"):
        pca_from_json(pca_to_json(PCA().fit(rows + rows)).replace('"n_samples_": 6', '"n_samples_": 3')
                      .replace('"div": 5.0', '"div": 2.0'))


def test_never_silent_a_parameter_beyond_the_float_range_says_so() -> None:
    with pytest.raises(PurePCAError, match=r"alpha must be .*got Decimal\('1E\+400'\) \(beyond the float range\)"):
        KernelPCA(alpha=Decimal("1e400")).fit(X)


def test_never_silent_fuzz_round_9_findings() -> None:
    from purepca.cli import standardised

    # residual_bound: a vector at 1e-231 squared to 0 (ZeroDivisionError); a residual of 1.34e154 to inf.
    assert residual_bound([[0.0] * 3] * 3, [0.0, 0.0, 1.3407807929942597e154], [[0.0, 0.0, 1.0]] * 3) == \
        [0.0, 0.0, 1.3407807929942597e154]
    assert residual_bound([[2.0, 0.0], [0.0, 1.0]], [2.0], [[1.4247035852554455e-231, 0.0]]) == [0.0]
    # FactoMineR's sd rule on data below 1e-308: a clear error (an OverflowError from ldexp before).
    with pytest.raises(PurePCAError, match="FactoMineR's rule leaves the data unscaled"):
        PCA(convention="factominer").fit([[0.0, 0.0, 0.0], [0.0, 0.0, 1e-320]])
    # kernel --scale on a column reaching 1.9e154 (its squares overflowed fsum): the standardised column.
    got = standardised([[1.0], [1.0], [1.8961503816218355e154]])
    assert [round(row[0], 12) for row in got] == [round(-1 / math.sqrt(3), 12)] * 2 + [round(2 / math.sqrt(3), 12)]


def test_never_silent_fuzz_second_run_findings() -> None:
    from purepca.testing import compare_kernel_pca

    # The kernel's eigenvalues of rows near 1e154 add up past the float range (OverflowError in fsum before).
    rows = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 9.480751908109173e153], [0.0, 0.0, 0.0],
            [6.703903964971306e153, 9.480751908109173e153, 0.0]]
    # The two eigenvalues (1.2e308 and 6.1e307) sit at the edge: their sum overflows on CPython <= 3.11
    # and fits (1.79e308) on 3.12+, whose kernel differs in the last bit.  Either is right; a raw
    # OverflowError is not.
    try:
        fitted = KernelPCA().fit(rows)
    except PurePCAError as err:
        assert "the kernel's eigenvalues add up to more than a float can hold" in str(err)
    else:
        assert all(math.isfinite(v) and v > 0 for v in fitted.eigenvalues_)
    # The kernel oracle's error norm of entries near 1e307 (OverflowError in fsum before): a verdict.
    one = [[0.0], [0.0], [0.0], [0.0], [2390569132272548.0], [1e154]]
    assert not compare_kernel_pca({"eigenvalues_": [1e308]}, one)[0].passed
    # A residual bound beyond the float range is inf (documented), not an error.
    assert residual_bound([[0.0, 0.0], [1.0, 1.8961503816218355e154]], [0.0], [[0.0, 1.0]]) == [math.inf]


def test_never_silent_weighted_wide_data_complete_their_axes() -> None:
    import random

    rng = random.Random(1)
    rows = [[rng.gauss(0.0, 1.0) for _ in range(12)] for _ in range(4)]
    fitted = PCA().fit(rows, sample_weight=[5, 5, 5, 5])  # 20 rows over 12 columns: 12 components
    # 4 rows centred leave rank 3: the fourth eigenvalue is rounding (0.0 on 3.11, 3.5e-17 on 3.13),
    # the eight past the rows given are the exact zeros of the completion.
    ev = fitted.explained_variance_
    assert fitted.n_components_ == 12 and abs(ev[3]) <= 1e-14 * ev[0] and ev[4:] == [0.0] * 8
    C = fitted.components_
    assert max(abs(math.fsum(a * b for a, b in zip(C[i], C[j])) - (i == j)) for i in range(12) for j in range(12)) < 1e-14
    top = PCA(2).fit(rows, sample_weight=[5, 5, 5, 5])
    assert top.noise_variance_ == pytest.approx(math.fsum(fitted.explained_variance_[2:]) / 10, rel=1e-12)


def test_never_silent_a_400_digit_int_in_a_result_is_named() -> None:
    with pytest.raises(PurePCAError, match=r"components_: expected rows of numbers"):
        compare_pca({"components_": [(10**400, 1.0)]}, [[0.0, 0.0], [0.0, 1.0]])
    with pytest.raises(PurePCAError, match=r"explained_variance_: expected a list of numbers"):
        compare_pca({"explained_variance_": [10**400]}, [[0.0, 0.0], [0.0, 1.0]])


def test_never_silent_fuzz_third_run_findings(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    from purepca.model_io import pca_from_json, pca_to_json

    # FactoMineR's sd floor compared in the data's unit overflowed for a deviation beyond the float range.
    rows = [[0.0, 0.0], [0.0, 7.870861036294492e307], [0.0, -1.7e308]]
    fitted = PCA(ddof=2, convention="factominer").fit(rows)
    assert fitted.scale_ == [1.0, math.inf] and fitted.explained_variance_[0] == pytest.approx(1.0)
    # A model file whose ddof is a 400-digit int: named, not an OverflowError.
    text = pca_to_json(PCA().fit([[0.0], [1.0], [3.0]])).replace('"ddof": 1,', '"ddof": ' + "9" * 400 + ",")
    assert "9" * 400 in text
    with pytest.raises(PurePCAError, match="ddof"):
        pca_from_json(text)
    # An error quoting a header with a newline stays one line.
    (tmp_path / "nl.csv").write_text('1,"a\nb"\n1,1\n1,2\n', encoding="utf-8")
    assert main(["fit", str(tmp_path / "nl.csv"), "--columns", "c0"]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "a\\nb" in err, err


def test_never_silent_teach_on_a_matrix_beyond_the_float_range(tmp_path: pathlib.Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    # Eigenvalue 3.4e308: the run itself leaves the float range.  (A 1 x 1 [[1e308]] is a page now: its
    # error was the replay's norm, sqrt(fsum(x*x)), overflowing, which the replay no longer computes so.)
    (tmp_path / "m.csv").write_text("1.7e308,1.7e308\n1.7e308,1.7e308\n", encoding="utf-8")
    assert main(["teach", "--matrix", str(tmp_path / "m.csv"), "-o", str(tmp_path / "t.html")]) == 1
    assert "a step of Jacobi on this matrix is beyond the float range" in capsys.readouterr().err
    assert not (tmp_path / "t.html").exists()
    (tmp_path / "m.csv").write_text("1e308\n", encoding="utf-8")
    assert main(["teach", "--matrix", str(tmp_path / "m.csv"), "-o", str(tmp_path / "t.html")]) == 0


def test_never_silent_oracle_on_data_near_the_float_limit() -> None:
    # A mean of columns summing past the float range, a singular value past it: verdicts, not OverflowError.
    near = [[0.0, 1.7e308]] + [[0.0, 0.0]] * 5 + [[0.0, 9.769313486231587e306]]
    checks = compare_pca({"explained_variance_": [0.0], "mean_": [0.0, 0.0]}, near)
    assert [c.passed for c in checks] == [False, True, False]
    far = [[0.0, 0.0]] * 6 + [[1.3730108111348365e308, 1.3730108111348365e308]]
    assert not any(c.passed for c in compare_pca({"explained_variance_": [0.0], "singular_values_": [0.0]}, far))


def test_never_silent_inverse_transform_past_the_float_range() -> None:
    rows = [[0.0] * 5] * 6 + [[0.0, 0.0, 4.676563269260598e204, 5.3193311223535996e162, 1.7e308]]
    pca = PCA(whiten=True).fit(rows)
    scores = [[3.0, 0.0, 4.4989137945431964e161, 0.0, 0.0]] + [[0.0] * 5] * 6
    with pytest.raises(PurePCAError, match="beyond the float range"):  # ValueError from fsum before
        pca.inverse_transform(scores)


def test_never_silent_residual_bound_of_a_value_dwarfing_a_subnormal_matrix() -> None:
    # 1.0 against a matrix at 2.2e-309: in the matrix's units it overflowed (OverflowError from ldexp).
    assert residual_bound([[2.225073858507203e-309]], [1.0], [[1.0]]) == [1.0]


def test_never_silent_lead_fuzz_run_kernel_scores_beyond_the_float_range() -> None:
    # The lead's 20-minute fuzz run (round 17 of 1,500 examples per test): a linear KernelPCA fitted
    # on values near 1e-158 and asked for the scores of a row at 1e305 raised ValueError from fsum
    # (-inf + inf) in the product with the eigenvectors.
    kp = KernelPCA().fit([[0.0], [0.0], [1.9052095795024256e-158]])
    # (3.12+'s sumprod gives inf there, and the check of the scores names the column too)
    with pytest.raises(PurePCAError, match=r"the score of row 0(, column \d+)? is beyond the float range"):
        kp.transform([[1.0898005264526714e305]])


@pytest.mark.parametrize("cls", ["PCA", "KernelPCA"])
def test_an_int_parameter_too_long_to_print_is_refused_by_name(cls: str) -> None:
    # repr of an int past 4,300 digits raises ValueError (3.11+): every message naming such a value was a
    # raw ValueError (78 of 78 parameters and signs tried); a seed may still be any int.
    import inspect

    import purepca

    estimator = getattr(purepca, cls)
    X = [[1.0, 2.0, 0.5], [2.0, 1.0, 0.1], [3.0, 5.0, 0.2], [0.0, 1.0, 2.0]]
    for name in inspect.signature(estimator.__init__).parameters:
        if name in ("self", "seed"):
            continue
        for value in (10 ** 5000, -(10 ** 5000)):
            model = estimator(**{name: value})
            assert "an int of 5001 digits" in repr(model)
            with pytest.raises(purepca.PurePCAError, match=rf"{name} is an int of 5001 digits"):
                model.fit(X)
    assert estimator(2, seed=10 ** 5000).fit(X).n_components_ == 2


def test_hostile_arguments_of_the_smaller_doors_get_a_purepca_error() -> None:
    # A hostile battery's finds: each was a raw TypeError, OverflowError or AttributeError, or (transpose
    # of ragged rows) a silently cut matrix.
    from purepca import Moments, transpose
    from purepca.kernels import center_test_kernel

    X = [[1.0, 2.0], [2.0, 1.0], [0.0, 0.5]]
    cases = [
        (lambda: KernelPCA(1, kernel=lambda a, b: 10 ** 400).fit(X), r"returned an int of 401 digits"),
        (lambda: Moments.from_rows(None), r"rows: expected an iterable of rows"),  # type: ignore[arg-type]
        (lambda: PCA().fit_stream(5), r"rows: expected an iterable of rows .*, got int"),  # type: ignore[arg-type]
        (lambda: center_test_kernel([[1.0]], None), r"stats: expected the KernelStats"),  # type: ignore[arg-type]
        (lambda: transpose([[1, 2], [3]]), r"A: row 1 has 1 value, expected 2"),
        (lambda: transpose([1, 2]), r"A: row 0 \(1\) is not a sequence"),  # type: ignore[list-item]
    ]
    for call, message in cases:
        with pytest.raises(PurePCAError, match=message):
            call()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and symbolic links as on POSIX")
def test_output_options_write_into_devices_fifos_and_link_targets(tmp_path: pathlib.Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # -o, --save and --scores renamed a temporary file over whatever was at the path: a FIFO or a device
    # became a regular file (as root, -o /dev/null broke /dev/null for the machine) and a symbolic link
    # was replaced while its target kept the old text; '-o -' wrote a file named '-'.
    import threading

    data = tmp_path / "d.csv"
    data.write_text("a,b,c\n1,2,3\n2,3,1\n4,1,2\n3,3,3\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main(["fit", str(data), "-o", str(fifo)]) == 0
    reader.join(10)
    assert fifo.is_fifo() and got and got[0].startswith(b"PCA of")
    target = tmp_path / "target.csv"
    target.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    assert main(["fit", str(data), "--scores", str(link)]) == 0
    assert link.is_symlink() and "PC1" in target.read_text()
    capsys.readouterr()
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        assert main(["fit", str(data), "-o", "-"]) == 0
    finally:
        os.chdir(cwd)
    assert not (tmp_path / "-").exists() and capsys.readouterr().out.startswith("PCA of")
    if os.path.exists("/dev/full"):
        assert main(["fit", str(data), "--scores", "/dev/full"]) == 1
        assert "/dev/full: cannot write it" in capsys.readouterr().err
        assert not os.path.isfile("/dev/full")


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="closing the standard streams as a POSIX shell does")
def test_closed_or_full_standard_streams_and_codecs_that_are_not_text(tmp_path: pathlib.Path) -> None:
    # Each was a traceback (AttributeError, LookupError, OSError) or, with stdout closed, exit 0 with the
    # output lost.
    import re
    import subprocess
    import sys

    data = tmp_path / "d.csv"
    data.write_text("a,b,c\n1,2,3\n2,3,1\n4,1,2\n3,3,3\n")
    command = [sys.executable, "-m", "purepca", "fit"]
    cases = [
        (command + ["-"], "stdin closed", r"standard input is closed"),
        (command + [str(data), "--encoding", "rot13"], None, r"--encoding 'rot13': not a text encoding"),
        (command + [str(data)], "stdout closed", r"standard output is closed"),
    ]
    if os.path.exists("/dev/full"):
        cases.append((command + [str(data)], "/dev/full", r"standard output: cannot write it"))
    for argv, how, message in cases:
        if how == "/dev/full":
            with open("/dev/full", "w") as full:
                done = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        else:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL if how != "stdin closed" else None,
                                  stdout=subprocess.PIPE if how != "stdout closed" else None, stderr=subprocess.PIPE,
                                  text=True, timeout=60,
                                  preexec_fn=(lambda: os.close(0)) if how == "stdin closed"
                                  else (lambda: os.close(1)) if how == "stdout closed" else None)
        assert done.returncode == 1, (how, done.stderr)
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert re.search(message, done.stderr), done.stderr


def test_a_workbook_or_a_compressed_file_is_named_for_what_it_is(tmp_path: pathlib.Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # A real .xlsx was told its byte 0x84 is not utf-8 text (or, decoded as latin-1, that it had no data rows).
    import gzip
    import zipfile

    book = tmp_path / "book.xlsx"
    with zipfile.ZipFile(book, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
    packed = tmp_path / "d.csv.gz"
    packed.write_bytes(gzip.compress(b"a,b\n1,2\n3,5\n"))
    for path, message in ((book, "a zip archive (an Excel .xlsx"), (packed, "gzip-compressed")):
        for encoding in ("utf-8", "latin-1"):
            assert main(["fit", str(path), "--encoding", encoding]) == 1
            err = capsys.readouterr().err
            assert message in err and "not text" in err, err
