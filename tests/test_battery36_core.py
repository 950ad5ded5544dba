"""Issue 36, the core findings: the MicroPython build's OUT, Moments and their
bytes, the distributed helpers, and numerics at the ends of the float range.
Each test failed on 768b701."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import purepca
from purepca import micro
from purepca.errors import PurePCAError

PACKAGE = pathlib.Path(purepca.__file__).parent


# -- the micro build's OUT ------------------------------------------------------------------------

@pytest.fixture()
def checkout(tmp_path: pathlib.Path) -> pathlib.Path:
    """A copy of the package in a checkout of its own (never the real tree)."""
    root = tmp_path / "checkout"
    shutil.copytree(PACKAGE, root / "purepca", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _snapshot(root: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def _build(cwd: pathlib.Path, root: pathlib.Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([sys.executable, "-m", "purepca.micro", "build", *args], cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize("where, out, message", [
    ("root", "", "OUT is empty"),
    ("root", ".", "contains the purepca package the build reads"),
    ("root", "$PWD", "contains the purepca package the build reads"),
    ("package", ".", "is the purepca package the build reads"),
    ("package", "$PWD", "is the purepca package the build reads"),
    ("package", "..", "contains the purepca package the build reads"),
    ("package", "linalg", "is inside the purepca package the build reads"),
    ("package", "new/dir", "is inside the purepca package the build reads"),
])
def test_micro_build_refuses_the_package_it_reads(checkout: pathlib.Path, where: str, out: str, message: str) -> None:
    cwd = checkout if where == "root" else checkout / "purepca"
    before = _snapshot(checkout)
    done = _build(cwd, checkout, str(cwd) if out == "$PWD" else out)
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr, done.stderr
    assert done.stdout == ""
    assert _snapshot(checkout) == before
    assert not (checkout / "purepca" / "new").exists() and not (checkout / micro.MARKER).exists()


@pytest.mark.slow
def test_micro_build_refuses_a_symbolic_link_to_the_package(checkout: pathlib.Path, tmp_path: pathlib.Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(checkout)
    before = _snapshot(checkout)
    done = _build(tmp_path, checkout, str(link))
    assert done.returncode == 2 and "contains the purepca package the build reads" in done.stderr
    assert _snapshot(checkout) == before


def test_micro_build_refuses_a_directory_that_is_not_empty(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(PurePCAError, match=r"is a directory that is not empty \(1 entry\) and holds no bundle"):
        micro.build(str(out))
    with pytest.raises(PurePCAError, match="holds no bundle"):
        micro.build(str(out), replace=True)
    assert os.listdir(out) == ["notes.txt"]


@pytest.mark.slow
def test_micro_build_replaces_only_a_bundle_it_recognises(tmp_path: pathlib.Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bundle"
    first = micro.build(str(out))
    assert (out / micro.MARKER).read_text(encoding="utf-8").splitlines()[1:] == first
    assert micro.main(["build", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds a bundle of an earlier build: pass --replace" in err
    (out / "purepca" / "stale.py").write_text("x = 1\n")  # a file of the user's, not the build's: kept
    (out / "purepca" / "fitting.py").write_text("BROKEN\n")
    assert micro.main(["build", str(out), "--replace"]) == 0
    assert (out / "purepca" / "stale.py").read_text() == "x = 1\n"
    assert "BROKEN" not in (out / "purepca" / "fitting.py").read_text(encoding="utf-8")


def test_micro_build_refuses_a_purepca_link_inside_out(tmp_path: pathlib.Path, checkout: pathlib.Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "purepca").symlink_to(checkout / "purepca")
    with pytest.raises(PurePCAError, match="its purepca is not a directory the build made"):
        micro.build(str(out))


@pytest.mark.parametrize("argv, message", [
    (["build", "--bogus"], "unknown option '--bogus'"),
    (["build", "-"], "unknown option '-'"),
])
def test_micro_main_refuses_an_option_as_out(argv: list[str], message: str, tmp_path: pathlib.Path,
                                            capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert micro.main(argv) == 2
    assert message in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


# -- Moments and their bytes --------------------------------------------------------------------

import random  # noqa: E402
import struct  # noqa: E402

from purepca import PCA, Moments  # noqa: E402
from purepca.moments_io import _HEAD, MAGIC, _put_int  # noqa: E402


def _rows(seed: int, n: int = 40, d: int = 5) -> list[list[float]]:
    r = random.Random(seed)
    return [[r.gauss(0, 1) * 10 ** r.randint(-3, 3) + 1e3 for _ in range(d)] for _ in range(n)]


@pytest.mark.parametrize("chunk_size", [1, 7, 4096])
def test_moments_chunked_covariance_is_exactly_symmetric(chunk_size: int) -> None:
    # 768b701: seed 1 in chunks of 7 gave 10 entries of C that differed from their mirror by an ulp
    for seed in range(20):
        m = Moments.from_rows(_rows(seed), chunk_size=chunk_size)
        for C in (m.covariance(), m.covariance(0, center=False), m.merged(Moments.from_rows(_rows(seed + 99))).covariance()):
            assert all(C[i][j] == C[j][i] for i in range(5) for j in range(5)), seed


def test_moments_bytes_of_a_chunked_float_state_give_the_same_bits() -> None:
    for seed in range(20):
        m = Moments.from_rows(_rows(seed), chunk_size=7)
        back = Moments.from_bytes(m.to_bytes())
        assert back.covariance() == m.covariance() and back.mean == m.mean, seed


def _float_bytes(shift: list[float], mean: list[float], m2: list[list[float]], n: int = 5) -> bytes:
    d = len(shift)
    tri = [v for i, row in enumerate(m2) for v in row[i:]]
    return _HEAD.pack(MAGIC, 1, 0, d, n) + struct.pack(f"<{2 * d + len(tri)}d", *shift, *mean, *tri)


def _exact_bytes(exps: list[int], refs: list[int], s1: list[int], s2: list[list[int]], n: int = 5,
                 digits: int = 0) -> bytes:
    out = bytearray(_HEAD.pack(MAGIC, 1, 1, len(exps), n)) + struct.pack("<I", digits)
    for v in (*exps, *refs, *s1, *(v for row in s2 for v in row)):
        _put_int(out, v)
    return bytes(out)


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize("data, message", [
    (_float_bytes([0.0], [NAN], [[1.0]]), r"mean\[0\] is nan, expected a finite float"),
    (_float_bytes([INF], [0.0], [[1.0]]), r"shift\[0\] is inf, expected a finite float"),
    (_float_bytes([0.0], [0.0], [[NAN]]), r"M2\[0\]\[0\] is nan, expected a finite float"),
    (_float_bytes([1e308], [1e308], [[1.0]]), r"the mean of column 0 \(shift\[0\] \+ mean\[0\] = 1e\+308 \+ 1e\+308\) "
                                              "is beyond the float range"),
    (_float_bytes([0.0], [0.0], [[-1.0]]), r"M2\[0\]\[0\] = -1.0, a sum of squares, is negative"),
    (_float_bytes([0.0, 0.0], [0.0, 0.0], [[1.0, 3.0], [3.0, 1.0]]),
     r"M2 is not positive semidefinite \(its correlation matrix has an eigenvalue below -1.82e-12; column 1\)"),
    (_float_bytes([0.0] * 3, [0.0] * 3, [[1.0, 0.9, -0.9], [0.9, 1.0, 0.9], [-0.9, 0.9, 1.0]]),
     r"M2 is not positive semidefinite .* column 2"),
    (_float_bytes([0.0, 0.0], [0.0, 0.0], [[0.0, 1e-3], [1e-3, 1.0]]),
     r"column 0 has no spread but M2\[0\]\[1\] is not zero"),
    (_HEAD.pack(MAGIC, 1, 0, 0, 5), "d = 0 with n = 5: a state of rows with no columns"),
    (_HEAD.pack(MAGIC, 1, 1, 0, 5) + bytes(4), "d = 0 with n = 5: a state of rows with no columns"),
    (_HEAD.pack(MAGIC, 1, 0, 3, 0), "d = 3 with n = 0: an empty state has no columns"),
    (_exact_bytes([2 ** 40], [1], [0], [[4]]), "the exponent of column 0's unit is 1099511627776, expected -1074 to 1023"),
    (_exact_bytes([-2 ** 40], [1], [0], [[4]]), "the exponent of column 0's unit is -1099511627776, expected -1074"),
    (_exact_bytes([10 ** 7], [1], [0], [[4]], digits=20), "the exponent of column 0.s unit is 10000000, expected -1000000 to 1000000"),
    (_exact_bytes([0], [0], [3], [[1]]), r"S2\[0\]\[0\] = 1 with S1\[0\] = 3 and n = 5 is a negative sum of squares"),
    (_exact_bytes([0], [0], [0], [[-4]]), r"S2\[0\]\[0\] = -4 with S1\[0\] = 0 and n = 5 is a negative sum of squares"),
    (_exact_bytes([0, 0], [0, 0], [0, 0], [[1, 3], [1]]), "columns 0 and 1 correlate beyond 1"),
    (_exact_bytes([0] * 3, [0] * 3, [0] * 3, [[1, 1, -1], [1, 1], [1]]), r"S2 is not positive semidefinite .* column 2"),
    (_exact_bytes([0], [0], [0], [[1]], digits=5), "the context's digits are 5, expected 0 .float. or 17 to 10,000"),
    (_exact_bytes([0, 0], [0, 0], [0, 0], [[1, 0], [1]])[:-4], "bytes cannot hold the 9 integers of d = 2"),
])
def test_moments_from_bytes_refuses_what_no_rows_give(data: bytes, message: str) -> None:
    with pytest.raises(PurePCAError, match="moments bytes: .*" + message):
        Moments.from_bytes(data)


def test_moments_from_bytes_takes_what_rows_give() -> None:
    # the checks pass the states rows make, collinear and constant columns included
    r = random.Random(3)
    rows = [[x, 2 * x, 5.0, x - 1e-9 * r.random()] for x in (r.gauss(7, 2) for _ in range(50))]
    for exact in (False, True):
        for chunk_size in (1, 9, 4096):
            m = Moments.from_rows(rows, exact=exact, chunk_size=chunk_size)
            back = Moments.from_bytes(m.to_bytes())
            assert back.covariance() == m.covariance() and back.n == 50


def test_moments_float_sums_beyond_the_float_range_are_refused_not_nan() -> None:
    # 768b701: in chunks of one row the sum of squares overflowed to inf and the covariance was [[nan]]
    r = random.Random(1)
    rows = [[r.uniform(-1, 1) * 2e154] for _ in range(40)]
    for chunk_size in (1, 7):
        m = Moments(chunk_size=chunk_size)
        with pytest.raises(PurePCAError, match=r"(sum of squared deviations|variance) of column 0 .*is beyond the float "
                                               r"range.*(use exact=True|precision=N)"):
            m.update_many(rows)
        if m.n:  # what was folded before stays usable, and finite
            assert all(v == v and abs(v) != INF for row in m.covariance(0) for v in row)
    exact = Moments.from_rows(rows, exact=True).covariance()[0][0]  # the right answer: it fits in a float
    from fractions import Fraction
    xs = [Fraction(row[0]) for row in rows]
    mean = sum(xs) / 40
    assert exact == float(sum((x - mean) ** 2 for x in xs) / 39)


def test_moments_a_failed_fold_leaves_the_state_as_it_was() -> None:
    big = Moments.from_rows([[0.9e154], [-0.9e154]])
    m = Moments.from_rows([[0.8e154], [-0.8e154]])
    before = (m.n, m.mean, m.covariance())
    with pytest.raises(PurePCAError, match="the sum of squared deviations of column 0 is beyond the float range after 4 rows"):
        m.merge(big)
    assert (m.n, m.mean, m.covariance()) == before


# -- the distributed helpers ----------------------------------------------------------------------

import math  # noqa: E402


from purepca.distributed import (  # noqa: E402
    EngineComparison, compare_sklearn_like_pca, covariance_error, offset_rows, spark_matrix,
)


class _Dense:
    def __init__(self, numRows: object, numCols: object, values: object, isTransposed: object = False) -> None:
        self.numRows, self.numCols, self.values, self.isTransposed = numRows, numCols, values, isTransposed


@pytest.mark.parametrize("dense, message", [
    (_Dense(2, 2, [1, 2, 3]), r"spark_matrix: 3 values for a 2 x 2 matrix, expected 4 \(too few\)"),
    (_Dense(2, 2, [1, 2, 3, 4, 5]), r"spark_matrix: 5 values for a 2 x 2 matrix, expected 4 \(too many\)"),
    (_Dense(2.7, 1, [1, 2]), "spark_matrix: numRows must be a positive int, got 2.7"),
    (_Dense(0, 0, []), "spark_matrix: numRows must be a positive int, got 0"),
    (_Dense(True, 1, [1]), "spark_matrix: numRows must be a positive int, got True"),
    (_Dense(1, 2, [1.0, float("nan")]), r"spark_matrix: values.*(NaN|nan|finite)"),
    (_Dense(1, 2, ["1", 2.0]), r"spark_matrix: values"),
    (_Dense(1, 1, [1.0], isTransposed="no"), "spark_matrix: isTransposed must be True or False, or 0 or 1 as Spark gives it; got 'no'"),
    (_Dense(1, 1, [1.0], isTransposed=2), "spark_matrix: isTransposed must be True or False, or 0 or 1 as Spark gives it; got 2"),
    (object(), "spark_matrix: expected a Spark DenseMatrix, got object .no numRows, numCols, values."),
])
def test_spark_matrix_refuses_what_is_not_a_dense_matrix(dense: object, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        spark_matrix(dense)


def test_spark_matrix_reads_both_layouts() -> None:
    assert spark_matrix(_Dense(2, 3, [1, 2, 3, 4, 5, 6])) == [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]
    assert spark_matrix(_Dense(2, 3, [1, 2, 3, 4, 5, 6], True)) == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def test_compare_sklearn_like_pca_of_constant_rows_is_a_clear_error() -> None:
    class Fitted:
        components_ = [[1.0, 0.0]]
        explained_variance_ratio_ = [1.0]
    constant = Moments.from_rows([[1.0, 2.0]] * 4, exact=True)
    with pytest.raises(PurePCAError, match=r"eigenvalues sum to 0.0 \(every column constant\): explained-variance "
                                           "ratios are undefined"):
        compare_sklearn_like_pca(Fitted(), constant)


@pytest.mark.parametrize("C, T, expected", [
    ([[1.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.0, 1.0]], 1.0),   # a variance where the reference has none
    ([[0.0, 0.5], [0.5, 1.0]], [[0.0, 0.0], [0.0, 1.0]], math.inf),  # a covariance with a column of no spread
    ([[4.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.0, 1.0]], 1.0),   # relative to C's own scale: |4 - 0| / 4
    ([[0.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.0, 1.0]], 0.0),   # both constant: no error
])
def test_covariance_error_counts_columns_the_reference_holds_constant(C: list[list[float]], T: list[list[float]],
                                                                      expected: float) -> None:
    assert covariance_error(C, T) == expected


@pytest.mark.parametrize("angle", [1e-10, 1e-7, 3e-5, 0.25, 1.5])
def test_compare_angles_are_accurate_when_small(angle: float) -> None:
    # 768b701: acos of a cosine that rounds to 1 reported a component 1e-10 rad off at angle 0
    class Fitted:
        components_ = [[math.cos(angle), math.sin(angle)], [-math.sin(angle), math.cos(angle)]]
        explained_variance_ratio_ = [0.8, 0.2]
    rows = [[2.0, 0.0], [-2.0, 0.0], [0.0, 1.0], [0.0, -1.0]]
    got = compare_sklearn_like_pca(Fitted(), Moments.from_rows(rows, exact=True)).angles
    assert got == pytest.approx([angle, angle], rel=1e-6)
    # the sign is ignored, the length of the engine's vector too
    Fitted.components_ = [[-3 * math.cos(angle), -3 * math.sin(angle)], [1e-300 * -math.sin(angle), 1e-300 * math.cos(angle)]]
    got = compare_sklearn_like_pca(Fitted(), Moments.from_rows(rows, exact=True)).angles
    assert got == pytest.approx([angle, angle], rel=1e-6)


def test_compare_refuses_a_zero_component() -> None:
    class Fitted:
        components_ = [[0.0, 0.0]]
        explained_variance_ratio_ = [1.0]
    with pytest.raises(PurePCAError, match="the engine's component 0 is zero: it has no direction to compare"):
        compare_sklearn_like_pca(Fitted(), Moments.from_rows([[2.0, 0.0], [0.0, 1.0], [1.0, 1.0]], exact=True))


def test_offset_rows_refuses_a_seed_that_is_not_an_int() -> None:
    with pytest.raises(PurePCAError, match=r"offset_rows: seed must be an int, got \[1\]"):
        offset_rows(3, seed=[1])  # type: ignore[arg-type]


def test_engine_comparison_prints_without_angles() -> None:
    assert str(EngineComparison([0.5], [])).endswith("component angles up to 0 rad")


# -- numerics at the edges ----------------------------------------------------------------------

from purepca import KernelPCA, datasets  # noqa: E402
from purepca.rotations import promax, varimax  # noqa: E402


def _promax_mp(x: list[list[float]], m: int) -> list[list[float]]:
    """R's promax step on varimax loadings ``x``, as written, in mpmath (no power overflows there)."""
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workdps(60 + m // 4):  # the columns of U differ by (30/25)**m: digits for their squares
        X = mpmath.matrix(x)
        Q = mpmath.matrix([[mpmath.mpf(v) * abs(mpmath.mpf(v)) ** (m - 1) for v in row] for row in x])
        U = (X.T * X) ** -1 * (X.T * Q)
        D = (U.T * U) ** -1
        for j in range(U.cols):
            for i in range(U.rows):
                U[i, j] *= mpmath.sqrt(D[j, j])
        Z = X * U
        return [[float(Z[i, j]) for j in range(Z.cols)] for i in range(Z.rows)]


@pytest.mark.parametrize("m", [4, 40, 1000, 5000])
def test_promax_with_a_large_power_is_the_exact_rotation(m: int) -> None:
    # 768b701: m=1000 raised OverflowError (|v|**999 of a loading above 2.03)
    loadings = [[30.0, 2.0], [3.0, 25.0], [12.0, 10.0], [5.0, 4.0], [-7.0, 9.0]]
    got = promax(loadings, m=m).loadings
    want = _promax_mp(varimax(loadings).loadings, m)
    scale = max(abs(v) for row in want for v in row)
    assert max(abs(a - b) for ra, rb in zip(got, want) for a, b in zip(ra, rb)) <= 1e-12 * scale


def test_rotated_loadings_promax_with_a_large_power_answers() -> None:
    pca = PCA(2, convention="prcomp").fit(datasets.load("usarrests").rows)
    loadings = [[v * math.sqrt(ev) for v, ev in zip(col, pca.explained_variance_)] for col in zip(*pca.components_)]
    got = pca.rotated_loadings("promax", m=1000).loadings
    assert got == promax(loadings, m=1000).loadings and all(math.isfinite(v) for row in got for v in row)


@pytest.mark.parametrize("rows", [datasets.load("usarrests").rows, datasets.load("toy").rows])
def test_column_weights_beyond_the_float_range_are_a_clear_error(rows: list[list[float]]) -> None:
    # 768b701: eigenvalues inf (and NaN on some data) without a word
    d = len(rows[0])
    with pytest.raises(PurePCAError, match=r"column_weight: the (total )?weighted variance .* is beyond the float range "
                                           r".*divide the column weights by a common factor"):
        PCA(scale=d == 2).fit(rows, column_weight=[1e308, 1e308] + [1.0] * (d - 2))
    fitted = PCA().fit(rows, column_weight=[1e300, 1e300] + [1.0] * (d - 2))  # within the range: the answer
    small = PCA().fit(rows, column_weight=[1.0, 1.0] + [1e-300] * (d - 2))
    assert all(math.isfinite(v) for v in fitted.explained_variance_)
    assert max(abs(a - b * 1e300) for a, b in zip(fitted.explained_variance_, small.explained_variance_)) \
        <= 1e-12 * fitted.explained_variance_[0]


def test_column_weights_failed_fit_leaves_the_model_as_it_was() -> None:
    rows = datasets.load("usarrests").rows
    pca = PCA().fit(rows)
    before = pca.explained_variance_
    with pytest.raises(PurePCAError, match="column_weight"):
        pca.fit(rows, column_weight=[1e308, 1e308, 1.0, 1.0])
    assert pca.explained_variance_ == before


import decimal  # noqa: E402

HOSTILE = decimal.Context(prec=5, Emax=10, Emin=-10, traps=[
    decimal.Overflow, decimal.Underflow, decimal.Subnormal, decimal.Clamped, decimal.InvalidOperation,
    decimal.DivisionByZero, decimal.Inexact, decimal.Rounded])


@pytest.mark.slow
@pytest.mark.parametrize("fit", [
    lambda X: PCA(precision=50).fit(X).explained_variance_,
    lambda X: PCA(precision=50, solver="svd").fit(X).transform(X)[0],
    lambda X: KernelPCA(precision=40).fit(X).eigenvalues_,
    lambda X: KernelPCA(2, precision=40, kernel="rbf", gamma=1e-4).fit(X).transform(X)[0],
], ids=["pca", "pca-svd", "kpca", "kpca-rbf"])
def test_decimal_fits_ignore_the_callers_decimal_context(fit: object) -> None:
    # 768b701: under Emax=10 the context's eps (1e-49) underflowed to 0 and the fits raised decimal.Overflow
    X = datasets.load("usarrests").rows
    with decimal.localcontext(decimal.Context()):
        want = fit(X)  # type: ignore[operator]
    with decimal.localcontext(HOSTILE):
        got = fit(X)  # type: ignore[operator]
        assert decimal.getcontext().Emax == 10  # and the caller's context is its own again
    assert got == want


def test_decimal_context_operations_use_their_own_context() -> None:
    from purepca.numeric import DecimalContext

    with decimal.localcontext(HOSTILE):
        ctx = DecimalContext(50)
        assert ctx.eps == decimal.Decimal(1).scaleb(-49, context=decimal.Context(Emin=-100))
        assert ctx.ldexp(ctx.one, 100) == decimal.Decimal(2 ** 100) and ctx.ldexp(ctx.one, -3) == decimal.Decimal("0.125")
