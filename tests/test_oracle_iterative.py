"""Issue 42: the oracle judges iterative, randomized and incremental answers on their merits, every line as a
ratio, messages that name the cause, assess on the user's own data; and issue 41's oracle frictions.

Each answer called correct here is first judged by mpmath (its eigenvalues against mpmath's at 40 digits),
never by purepca itself.
"""

from __future__ import annotations

import json
import math
import operator
import re
import warnings
from fractions import Fraction

import pytest

from purepca.errors import PurePCAError
from purepca.testing import (Check, assert_pca_close, clear_cache, compare_pca, iterative_residuals, reference,
                             residual_bound, summary, tolerances)

np = pytest.importorskip("numpy")
sklearn_decomposition = pytest.importorskip("sklearn.decomposition")
mpmath = pytest.importorskip("mpmath")


def mp_spectrum(X: "np.ndarray", ddof: int = 1) -> list[float]:
    """The covariance's eigenvalues, descending, computed by mpmath at 40 digits from the exact data.

    The covariance is exact: every float is an integer times 2**-s for one s, so the sums and cross products
    are Python integers, and ``(n·Σxy - Σx·Σy)/(n·(n - ddof))`` a Fraction (17 s at 100,000 x 5 in mpmath's
    own sums, under 2 s so)."""
    ratios = [[float(x).as_integer_ratio() for x in row] for row in X]  # (denominators: powers of two)
    n, d = len(ratios), len(ratios[0])
    shift = max(den.bit_length() - 1 for row in ratios for _, den in row)
    cols = list(zip(*([num << (shift - den.bit_length() + 1) for num, den in row] for row in ratios)))
    sums = [sum(col) for col in cols]
    with mpmath.workdps(40):
        C = mpmath.matrix(d, d)
        for a in range(d):
            for b in range(a, d):
                cross = sum(map(operator.mul, cols[a], cols[b]))
                exact = Fraction(n * cross - sums[a] * sums[b], n * (n - ddof) << (2 * shift))
                C[a, b] = C[b, a] = mpmath.mpf(exact.numerator) / exact.denominator
        values = mpmath.eigsy(C, eigvals_only=True)
        return sorted((float(v) for v in values), reverse=True)


def _data(seed: int, n: int = 120, d: int = 8) -> "np.ndarray":
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)) * np.geomspace(8, 0.5, d)


def _arpack(X: "np.ndarray", k: int) -> dict[str, "np.ndarray"]:
    fitted = sklearn_decomposition.PCA(k, svd_solver="arpack", random_state=0).fit(X)
    return {"components_": fitted.components_.copy(), "explained_variance_": fitted.explained_variance_.copy()}


def _lines(checks: list[Check]) -> list[str]:
    return [c.line() for c in checks if not c.passed]


def test_iterative_issue_repro_fails_naming_the_divisor() -> None:
    # Issue 42's repro: a ddof defect in an arpack answer, with the residual of the answer itself passed in.
    X = np.random.default_rng(0).normal(size=(200, 6)) * [6, 5, 4, 3, 2, 1]
    f = sklearn_decomposition.PCA(5, svd_solver="arpack").fit(X)
    ev = f.explained_variance_ * 199 / 200
    r = max(residual_bound(X, list(ev), f.components_, kind="data"))
    with pytest.raises(AssertionError, match=r"divisor: every variance is \(n-1\)/n = 199/200"):
        assert_pca_close({"components_": f.components_, "explained_variance_": ev}, X, method="randomized",
                         residual=r)


def test_iterative_correct_arpack_answers_pass_and_injected_defects_are_caught() -> None:
    caught = {"ddof": 0, "unsorted": 0, "sign": 0, "eigenvalue 1e-6": 0, "turned 1e-4 rad": 0, "float32": 0}
    for seed in range(4):
        X = _data(seed)
        n, d = X.shape
        good = _arpack(X, 5)
        exact = mp_spectrum(X)  # the independent judge: this answer is correct to ~1e-13 relative
        assert max(abs(a - b) / b for a, b in zip(good["explained_variance_"], exact)) < 1e-12
        assert not _lines(compare_pca(good, X, method="iterative")), seed
        rng = np.random.default_rng(seed)
        c = good["components_"].copy()
        v, w = c[1], rng.normal(size=d)
        for row in c:
            w -= (w @ row) * row
        w /= np.linalg.norm(w)
        turned = c.copy()
        turned[1] = math.cos(1e-4) * v + math.sin(1e-4) * w
        flipped = c.copy()
        flipped[0] = -flipped[0]
        off = good["explained_variance_"].copy()
        off[2] *= 1 + 1e-6
        defects = {
            "ddof": dict(good, explained_variance_=good["explained_variance_"] * (n - 1) / n),
            "unsorted": {"components_": c[[1, 0, 2, 3, 4]], "explained_variance_": good["explained_variance_"][[1, 0, 2, 3, 4]]},
            "sign": dict(good, components_=flipped),
            "eigenvalue 1e-6": dict(good, explained_variance_=off),
            "turned 1e-4 rad": dict(good, components_=turned),
            "float32": {k: a.astype(np.float32).astype(np.float64) for k, a in good.items()},
        }
        for name, bad in defects.items():
            caught[name] += bool(_lines(compare_pca(bad, X, method="iterative")))
    assert caught == {name: 4 for name in caught}, caught


def test_iterative_residual_given_only_tightens() -> None:
    X = _data(7)
    good = _arpack(X, 4)
    n = X.shape[0]
    bad = dict(good, explained_variance_=good["explained_variance_"] * (n - 1) / n)
    # A huge claimed residual loosened 1d257ef's randomized model until the ddof defect passed.
    assert _lines(compare_pca(bad, X, method="randomized", residual=1e9))
    assert not _lines(compare_pca(good, X, method="iterative", residual=1e9))
    tight = _lines(compare_pca(good, X, method="iterative", residual=1e-300))
    assert any(line.startswith("residual of components_[0]: ") for line in tight), tight


def test_iterative_residual_allowance_comes_from_the_data_not_the_answer() -> None:
    X = _data(3)
    good = _arpack(X, 4)
    ref = reference(X)
    allowed = iterative_residuals(ref.unit_spectrum, X.shape[1], k=4, n=X.shape[0])
    worse = dict(good, components_=good["components_"] + 1e-3)  # an answer 1000x worse
    checks = {c.quantity: c for c in compare_pca(worse, X, method="iterative")}
    same = {c.quantity: c for c in compare_pca(good, X, method="iterative")}
    assert checks["residual of components_[0]"].tolerance == same["residual of components_[0]"].tolerance
    assert not checks["residual of components_[0]"].passed
    assert allowed[0] == allowed[3] > 0  # converged: eps·‖C‖-sized, the same for every pair
    assert iterative_residuals(ref.unit_spectrum, 8, k=4, tol=1e-6)[0] > allowed[0]


def test_iterative_declared_arguments_belong_to_their_method() -> None:
    X = _data(1)
    good = _arpack(X, 3)
    with pytest.raises(PurePCAError, match=r"n_iter describes an iterative run; it means nothing under method='svd'"):
        compare_pca(good, X, n_iter=4)
    with pytest.raises(PurePCAError, match=r"batch_size describes an incremental run"):
        compare_pca(good, X, method="iterative", batch_size=10)
    with pytest.raises(PurePCAError, match=r"n_oversamples must be an int >= 0, got -1"):
        compare_pca(good, X, method="randomized", n_oversamples=-1)
    with pytest.raises(PurePCAError, match=r"tol"):
        compare_pca(good, X, method="iterative", tol=-1.0)


@pytest.mark.slow  # (mpmath's 24 x 24 eigenvalues for two fits: over 1 s)
def test_randomized_answers_pass_with_their_run_declared() -> None:
    for seed, kwargs in ((0, {}), (1, {"iterated_power": 10})):
        X = _data(seed, n=60, d=24)
        fitted = sklearn_decomposition.PCA(5, svd_solver="randomized", random_state=seed, **kwargs).fit(X)
        exact = mp_spectrum(X)
        assert max(abs(a - b) / b for a, b in zip(fitted.explained_variance_, exact)) < 1e-8
        n_iter = kwargs.get("iterated_power")
        assert not _lines(compare_pca(fitted, X, method="randomized", n_iter=n_iter))


def test_randomized_fbpca_answers_pass_and_a_ddof_defect_fails() -> None:
    fbpca = pytest.importorskip("fbpca")
    X = _data(2, n=100, d=6)
    np.random.seed(0)
    U, S, Vt = fbpca.pca(X, 3, raw=False)
    Vt = Vt * np.sign(Vt[np.arange(3), np.abs(Vt).argmax(1)])[:, None]
    good = {"components_": Vt, "explained_variance_": S ** 2 / (X.shape[0] - 1)}
    exact = mp_spectrum(X)
    assert max(abs(a - b) / b for a, b in zip(good["explained_variance_"], exact)) < 1e-12
    assert not _lines(compare_pca(good, X, method="randomized", n_iter=2, n_oversamples=2))
    bad = dict(good, explained_variance_=good["explained_variance_"] * 99 / 100)
    assert any("divisor" in line for line in _lines(compare_pca(bad, X, method="randomized", n_iter=2,
                                                                 n_oversamples=2)))


@pytest.mark.slow
def test_incremental_100000_by_5_passes_and_offsets_are_flagged() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100_000, 5)) * [5, 4, 3, 2, 1]
    exact = mp_spectrum(X)
    fitted = sklearn_decomposition.IncrementalPCA(5, batch_size=25).fit(X)  # 4,000 batches
    # mpmath: the answer is within the sqrt(m) backward bound (4,000 merges) that method="svd" does not allow
    assert max(abs(a - b) / b for a, b in zip(fitted.explained_variance_, exact)) < 1e-12
    rows = X.tolist()  # (converted once; one reference for both checks of these data)
    ref = reference(rows)
    assert _lines(compare_pca(fitted, rows, method="svd", ref=ref))
    assert not _lines(compare_pca(fitted, rows, method="incremental", batch_size=25, ref=ref))
    for offset in (1e6, 1e8):
        Y = X + offset
        fitted = sklearn_decomposition.IncrementalPCA(5, batch_size=25).fit(Y)
        assert _lines(compare_pca(fitted, Y.tolist(), method="incremental", batch_size=25)), offset
    clear_cache()


def test_check_lines_carry_error_over_allowed_and_the_summary_counts_what_is_out() -> None:
    X = _data(4, n=60, d=4)
    good = _arpack(X, 3)
    bad = dict(good, explained_variance_=good["explained_variance_"] * (1 + 1e-6))
    checks = compare_pca(bad, X)
    lines = _lines(checks)
    line = next(x for x in lines if x.startswith("explained_variance_[0]"))
    ratio = float(re.search(r"error/allowed ([0-9.e+-]+)", line).group(1))  # type: ignore[union-attr]
    check = next(c for c in checks if c.quantity == "explained_variance_[0]")
    assert ratio == pytest.approx(check.error / check.tolerance, rel=1e-2) and ratio > 1
    out = sum(not c.passed for c in checks)
    assert summary(checks).startswith(f"{out} of {len(checks)} checks out; largest error/allowed")
    with pytest.raises(AssertionError, match=rf"\n{out} of {len(checks)} checks out"):
        assert_pca_close(bad, X)


def test_float32_digits_lost_are_counted_against_binary32() -> None:
    X = _data(5, n=80, d=4)
    fitted = sklearn_decomposition.PCA(4).fit(X.astype(np.float32))
    wrong = {"components_": fitted.components_, "explained_variance_": fitted.explained_variance_ * np.float32(1.5)}
    lost = [float(c.digits_lost) for c in compare_pca(wrong, X) if c.digits_lost not in ("-",)]
    assert lost and max(lost) <= math.log10(2 ** 23) + 1e-9  # 6.9: all binary32 has, never float64's 15.7


def test_float32_cluster_message_never_contradicts_its_numbers() -> None:
    t = [i * 2 * math.pi / 40 for i in range(40)]
    X = [[1000 + 3.00001 * math.cos(a), 1000 + 3.0 * math.sin(a), 1000 + 0.01 * math.cos(3 * a)] for a in t]
    ref = reference(X)
    answer = {"components_": np.array(ref.components_, dtype=np.float32),
              "explained_variance_": np.array(ref.explained_variance_, dtype=np.float32)}
    lines = [x for x in _lines(compare_pca(answer, X)) if "cannot tell" in x and "apart" in x]
    assert lines, _lines(compare_pca(answer, X))
    for line in lines:
        gap, reach = re.search(r"are ([0-9.e+-]+) apart, within the ([0-9.e+-]+)", line).groups()  # type: ignore
        assert float(gap) <= float(reach), line


def test_float32_mean_given_only_tightens() -> None:
    rng = np.random.default_rng(0)
    X = (rng.normal(size=(4, 30)) + 1e3).astype(np.float32).astype(np.float64)
    ref = reference(X)
    ulp = [math.ulp(np.float32(abs(m))) * 2 ** 29 for m in ref.mean_]  # one binary32 step per column
    given = [m + u for m, u in zip(ref.mean_, ulp)]
    mags = [float(np.abs(X[:, j]).max()) for j in range(30)]
    without = tolerances(ref, 4, 30, float32=True, magnitudes=mags, exact32=True)
    with_mean = tolerances(ref, 4, 30, float32=True, magnitudes=mags, exact32=True, mean=given)
    assert all(a <= b for a, b in zip(with_mean, without)), (with_mean[0], without[0])


def test_float32_answer_claimed_as_float64_is_named() -> None:
    X = _data(6, n=50, d=4)
    fitted = sklearn_decomposition.PCA(4).fit(X.astype(np.float32))
    claimed = {"components_": fitted.components_.astype(np.float64),
               "explained_variance_": fitted.explained_variance_.astype(np.float64)}
    lines = _lines(compare_pca(claimed, X))
    assert any(line.startswith("float32: every number of the answer is a binary32 (float32) number") for line in lines)


def test_eigh_tuple_under_the_default_convention_hints_numpy() -> None:
    X = _data(8, n=50, d=4)
    w, v = np.linalg.eigh(np.cov(X, rowvar=False))
    flipped = (w, -v)
    lines = _lines(compare_pca(flipped, X, method="covariance"))
    assert any("the sign is flipped" in x and 'pass convention="numpy"' in x for x in lines), lines
    assert not _lines(compare_pca(flipped, X, method="covariance", convention="numpy"))


def test_statsmodels_standardize_false_hints_scale_false() -> None:
    statsmodels_pca = pytest.importorskip("statsmodels.multivariate.pca")
    X = _data(9, n=50, d=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = statsmodels_pca.PCA(X, standardize=False, method="svd")
    lines = _lines(compare_pca(fitted, X, convention="statsmodels"))
    assert any(x.startswith("scale: the variances are those of the unscaled data") and "scale=False" in x
               for x in lines), lines
    assert not _lines(compare_pca(fitted, X, convention="statsmodels", scale=False))


def test_backward_error_names_the_formed_one_pass_covariance() -> None:
    X = _data(10, n=60, d=4) + 1e8
    fitted = sklearn_decomposition.PCA(4, svd_solver="covariance_eigh").fit(X)
    lines = [x for x in _lines(compare_pca(fitted, X, method="covariance")) if x.startswith("backward error")]
    assert lines and all("one-pass covariance (XᵀX - n·x̄x̄ᵀ)/(n - 1)" in x for x in lines), lines


def test_assess_takes_the_users_own_data(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from purepca.cli import main

    X = _data(11, n=40, d=3)
    data = tmp_path / "mine.csv"
    data.write_text("a,b,c\n" + "".join(",".join(repr(float(x)) for x in row) + "\n" for row in X))
    fitted = sklearn_decomposition.PCA(3).fit(X)
    answer = tmp_path / "theirs.json"
    answer.write_text(json.dumps({"components_": fitted.components_.tolist(),
                                  "explained_variance_": fitted.explained_variance_.tolist()}))
    out = tmp_path / "report.txt"
    assert main(["assess", str(data), str(answer), "--output", str(out)]) == 0
    text = out.read_text()
    assert "against purepca's reference for" in text and "explained_variance_[0]" in text
    assert re.search(r"lowest LRE 1[2-6]\.\d; 6 passed, 0 failed", text), text
    exact = mp_spectrum(X)
    assert max(abs(a - b) / b for a, b in zip(fitted.explained_variance_, exact)) < 1e-13


def test_assess_unknown_name_points_to_the_data_file_form(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from purepca.cli import main

    answer = tmp_path / "theirs.json"
    answer.write_text(json.dumps({"explained_variance_": [2.0, 1.0]}))
    assert main(["assess", "no_such_case", str(answer)]) != 0
    err = capsys.readouterr().err
    assert "no certified case named 'no_such_case'" in err and "purepca assess DATA.csv" in err
    assert "purepca verify --data DATA.csv" in err and err.count("\n") == 1


def test_compare_refuses_entries_past_the_columns() -> None:
    X = _data(12, n=30, d=3)
    fitted = sklearn_decomposition.PCA(3).fit(X)
    good = {"components_": fitted.components_, "explained_variance_": fitted.explained_variance_}
    with pytest.raises(PurePCAError, match=r"mean_: 4 entries, but X has 3 columns"):
        compare_pca(dict(good, mean_=list(fitted.mean_) + [0.0]), X)
    with pytest.raises(PurePCAError, match=r"explained_variance_: 6 entries, but a PCA of X's 3 columns has at most 3"):
        compare_pca(dict(good, explained_variance_=list(fitted.explained_variance_) + [0.0] * 3), X)


def test_float32_answer_for_data_at_1e_minus_200_is_refused_by_name() -> None:
    X = np.random.default_rng(0).normal(size=(20, 3)) * 1e-200
    answer = {"components_": np.eye(3, dtype=np.float32), "explained_variance_": np.ones(3, dtype=np.float32)}
    lines = _lines(compare_pca(answer, X))
    assert any(x.startswith("precision: binary32 cannot hold these data") for x in lines), lines


def test_residual_bound_refuses_a_non_symmetric_matrix() -> None:
    with pytest.raises(PurePCAError, match=r"residual_bound: the matrix is not symmetric \(entry \[1\]\[0\] = 0.0"):
        residual_bound([[0, 1], [0, 0]], [1e-3], [[1, 1e-3]], kind="matrix")


def test_iterative_residuals_and_summary_refuse_bad_arguments_by_name() -> None:
    with pytest.raises(PurePCAError, match=r"unit: expected a list of numbers, got NoneType"):
        iterative_residuals(None, 3)  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match=r"unit: expected the covariance's eigenvalues: finite and >= 0"):
        iterative_residuals([float("nan")], 2)
    with pytest.raises(PurePCAError, match=r"d must be an int >= 1, got 0"):
        iterative_residuals([1.0], 0)
    with pytest.raises(PurePCAError, match=r"k must be an int >= 0, got -1"):
        iterative_residuals([1.0, 0.5], 2, k=-1)
    with pytest.raises(PurePCAError, match=r"n must be an int >= 1, got 0"):
        iterative_residuals([1.0, 0.5], 2, n=0)
    with pytest.raises(PurePCAError, match=r"eps must be a finite real number > 0.0, got 0"):
        iterative_residuals([1.0, 0.5], 2, eps=0)
    with pytest.raises(PurePCAError, match=r"method must be 'iterative' or 'randomized'; got 'svd'"):
        iterative_residuals([1.0, 0.5], 2, method="svd")
    with pytest.raises(PurePCAError, match=r"centring: expected a list of numbers, got str"):
        iterative_residuals([1.0, 0.5], 2, centring="ab")  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match=r"residual must be a finite real number >= 0.0"):
        iterative_residuals([1.0, 0.5], 2, residual=-1.0)
    # an unsorted spectrum and a huge n_iter: a number, never an OverflowError
    assert all(math.isfinite(r) for r in iterative_residuals([0.1, 5.0, 1.0], 3, method="randomized", k=1,
                                                              n_oversamples=0, n_iter=10 ** 6))
    with pytest.raises(PurePCAError, match=r"summary: expected a list of Check rows \(compare_pca's\), got NoneType"):
        summary(None)  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match=r"summary: expected a list of Check rows \(compare_pca's\); got something"):
        summary([1, 2])  # type: ignore[list-item]


def test_tolerances_refuse_a_run_of_another_method() -> None:
    ref = reference([[0.0, 0.0], [1.0, 1.0], [2.0, 2.5], [3.0, 2.0]])
    with pytest.raises(PurePCAError, match=r"method must be one of 'svd', .*; got 'nope'"):
        tolerances(ref, 4, 2, "nope")
    with pytest.raises(PurePCAError, match=r"tol describes an iterative run; it means nothing under method='svd'"):
        tolerances(ref, 4, 2, "svd", tol=1.0)
    with pytest.raises(PurePCAError, match=r"k must be an int >= 0, got -2"):
        tolerances(ref, 4, 2, "iterative", k=-2)
    assert tolerances(ref, 4, 2, "incremental", batch_size=1)[0] > tolerances(ref, 4, 2, "svd")[0]
