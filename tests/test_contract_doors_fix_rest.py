"""The doors fixed for the contract fuzzer's known findings (issue 41, acceptance 5; helper fix-rest):
each hostile value is refused at the door with a PurePCAError naming the parameter and the value."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import pytest

from purepca import FLOAT
from purepca.conventions import CONVENTIONS, as_numpy
from purepca.csvdata import StreamedRows, csv_text, decode_text, read_table
from purepca.distributions import beta_cdf, beta_ppf, f_cdf, f_ppf, norm_cdf
from purepca.errors import PurePCAError
from purepca.golden import golden_cases
from purepca.imputation import squarem
from purepca.kernel_pca import KernelPCA
from purepca.kernels import kernel_function
from purepca.linalg.eigen import choose_eigh_method
from purepca.linalg.jacobi import jacobi_svd
from purepca.linalg.krylov import lanczos
from purepca.linalg.power import power_iteration, subspace_iteration
from purepca.linalg.tridiagonal import tridiagonal_ql, tridiagonalize
from purepca.missing import em_fixed_point
from purepca.moments_io import dump_moments
from purepca.numeric import BINARY32, Context, DecimalContext, GramWork
from purepca.rotations import promax
from purepca.solvers import choose_solver, krylov_form, report_degenerate, squared_path_errors
from purepca.teaching import format_number
from purepca.weights import check_weights

SNAN = Decimal("sNaN")
A2 = [[2.0, 1.0], [1.0, 2.0]]
LOADINGS = [[0.8, 0.3], [0.7, 0.4], [0.2, 0.9], [0.3, 0.8]]


def _ql_bad_e() -> Any:
    return tridiagonal_ql([2.0, 2.0], None, [[1.0, 0.0], [0.0, 1.0]])  # type: ignore[arg-type]


DOORS: list[tuple[str, Callable[[], Any], str]] = [
    # distributions: x may be +-inf, never NaN nor a non-number; the shape parameters are checked
    ("norm_cdf x nan", lambda: norm_cdf(math.nan), r"x must be a finite real number, got nan"),
    ("norm_cdf x None", lambda: norm_cdf(None), r"x must be a finite real number, got None"),  # type: ignore[arg-type]
    ("beta_cdf x", lambda: beta_cdf("x", 1.0, 1.0), r"x must be a finite real number, got 'x'"),  # type: ignore[arg-type]
    ("beta_cdf a", lambda: beta_cdf(0.5, math.nan, 1.0), r"a must be a finite real number > 0.0, got nan"),
    ("beta_cdf b", lambda: beta_cdf(0.5, 1.0, None), r"b must be a finite real number > 0.0, got None"),  # type: ignore[arg-type]
    ("beta_ppf a", lambda: beta_ppf(0.5, SNAN, 1.0), r"a must be a finite real number > 0.0, got Decimal\('sNaN'\)"),  # type: ignore[arg-type]
    ("beta_ppf b", lambda: beta_ppf(0.5, 1.0, -1), r"b must be a finite real number > 0.0, got -1"),
    ("f_cdf x", lambda: f_cdf(math.nan, 2, 3), r"x must be a finite real number, got nan"),
    ("f_cdf d1", lambda: f_cdf(1.0, True, 3), r"d1 must be a finite real number > 0.0, got True"),
    ("f_cdf d2", lambda: f_cdf(1.0, 2, 0), r"d2 must be a finite real number > 0.0, got 0"),
    ("f_ppf d1", lambda: f_ppf(0.5, None, 3), r"d1 must be a finite real number > 0.0, got None"),  # type: ignore[arg-type]
    ("f_ppf d2", lambda: f_ppf(0.5, 2, math.inf), r"d2 must be a finite real number > 0.0, got inf"),
    ("beta_ppf a huge", lambda: beta_ppf(0.5, 1e308, 1.0), r"beta_cdf: a = 1e\+308 and b = 1.0 are beyond what lgamma reaches"),
    ("f_ppf d2 huge", lambda: f_ppf(0.5, 1.0, 1e308), r"beta_cdf: a = 0.5 and b = 5e\+307 are beyond what lgamma reaches"),
    # numeric contexts: convert refuses a non-number and NaN
    ("FLOAT.convert huge", lambda: FLOAT.convert(10 ** 400), r"float: x = 1000.* is beyond the float range"),
    ("FLOAT.convert nan", lambda: FLOAT.convert(math.nan), r"float: expected a real number \(not NaN\) for x, got nan"),
    ("FLOAT.convert str", lambda: FLOAT.convert("1.5"), r"float: expected a real number \(not NaN\) for x, got '1.5'"),
    ("Decimal convert", lambda: DecimalContext(20).convert(SNAN),
     r"decimal: expected a real number \(not NaN\) for x, got Decimal\('sNaN'\)"),
    ("BINARY32.convert nan", lambda: BINARY32.convert(math.nan), r"binary32: expected a real number \(not NaN\) for x, got nan"),
    ("Context.convert", lambda: Context().convert(1.0), r"Context is abstract: convert x with FLOAT"),
    ("GramWork.row", lambda: GramWork(A2, FLOAT).row(None), r"GramWork.row: i must be an int between 0 and 1, got None"),  # type: ignore[arg-type]
    ("GramWork.assemble", lambda: GramWork(A2, FLOAT).assemble(None), r"GramWork.assemble: rows must be \(i, row\(i\)\) pairs, got None"),  # type: ignore[arg-type]
    ("GramWork.assemble pair", lambda: GramWork(A2, FLOAT).assemble([(0, [1.0])]),
     r"each of rows must be a pair \(i, row\(i\)\) with 0 <= i < 2 and k - i values, got \(0, \[1.0\]\)"),
    # solvers
    ("choose_solver n", lambda: choose_solver(10 ** 400, 3, None), r"n must be an int between 1 and 9007199254740992, got an int of 401 digits"),
    ("choose_solver d", lambda: choose_solver(10, None, None), r"d must be an int between 1 and"),  # type: ignore[arg-type]
    ("choose_solver k", lambda: choose_solver(10, 3, math.nan), r"k must be an int between 1 and .*, got nan"),  # type: ignore[arg-type]
    ("krylov_form n", lambda: krylov_form(-1, 3, 1), r"n must be an int between 1 and .*, got -1"),
    ("krylov_form d", lambda: krylov_form(10, 1.5, 1), r"d must be an int between 1 and .*, got 1.5"),  # type: ignore[arg-type]
    ("krylov_form k", lambda: krylov_form(10, 3, SNAN), r"k must be an int between 1 and .*, got Decimal\('sNaN'\)"),  # type: ignore[arg-type]
    ("report_degenerate k", lambda: report_degenerate([3.0, 1.0], None), r"k must be a non-negative int, got None"),  # type: ignore[arg-type]
    ("report_degenerate spectrum", lambda: report_degenerate([3.0, math.nan], 1), r"spectrum\[1\] must be a finite real number, got nan"),
    ("squared_path_errors values", lambda: squared_path_errors(None, 2, 1e-16), r"values must be a list of real numbers, got None"),  # type: ignore[arg-type]
    ("squared_path_errors dim", lambda: squared_path_errors([1.0], math.nan, 1e-16), r"dim must be an int between 0 and 9007199254740992, got nan"),  # type: ignore[arg-type]
    ("squared_path_errors dim huge", lambda: squared_path_errors([1.0], 10 ** 400, 1e-16), r"dim must be an int between 0 and"),
    ("squared_path_errors eps", lambda: squared_path_errors([1.0], 2, math.nan), r"eps must be a finite real number >= 0.0, got nan"),
    # csvdata
    ("read_table lines", lambda: read_table(5), r"read_table: lines must be an iterable of str \(a list, a file\), got 5"),  # type: ignore[arg-type]
    ("read_table a line", lambda: read_table([["a"], ["1"]]), r"<data>: line 1 is not text \(a str\), got \['a'\]"),
    ("read_table columns", lambda: read_table(["a,b", "1,2"], columns=3), r"--columns must be column names \(a str, or a list of str\), got 3"),  # type: ignore[arg-type]
    ("read_table id_column", lambda: read_table(["a,b", "1,2"], id_column=0), r"--id-column must be one column's name \(a str\), got 0"),  # type: ignore[arg-type]
    ("read_table group_column", lambda: read_table(["a,b", "1,2"], group_column=set()), r"--groups must be one column's name \(a str\), got set\(\)"),  # type: ignore[arg-type]
    ("read_table weight_column", lambda: read_table(["a,b", "1,2"], weight_column=1.5), r"--weights must be one column's name \(a str\), got 1.5"),  # type: ignore[arg-type]
    ("read_table exclude", lambda: read_table(["a,b", "1,2"], exclude=[["a"]]), r"--exclude must be column names"),  # type: ignore[arg-type]
    ("read_table delimiter", lambda: read_table(["a,b", "1,2"], delimiter=None), r"delimiter must be a str, got None"),  # type: ignore[arg-type]
    ("StreamedRows path", lambda: StreamedRows(-1), r"path must be a file's name \(a str or a path\), got -1"),  # type: ignore[arg-type]
    ("StreamedRows delimiter", lambda: StreamedRows("x.csv", delimiter=b"x"), r"delimiter must be a str, got b'x'"),  # type: ignore[arg-type]
    ("csv_text rows", lambda: csv_text(None), r"csv_text: rows must be a list of lists of cells, got None"),  # type: ignore[arg-type]
    ("decode_text data", lambda: decode_text([[1.0]], "utf-8", "f.csv"), r"f.csv: decode_text: data must be bytes, got \[\[1.0\]\]"),  # type: ignore[arg-type]
    # linalg
    ("choose_eigh_method n", lambda: choose_eigh_method(None), r"n must be a non-negative int, got None"),  # type: ignore[arg-type]
    ("jacobi_svd qr", lambda: jacobi_svd(A2, qr=SNAN), r"qr must be 'auto', True or False, got Decimal\('sNaN'\)"),  # type: ignore[arg-type]
    ("jacobi_svd tol", lambda: jacobi_svd(A2, tol=10 ** 400), r"tol must be a finite real number >= 0.0, got an int of 401 digits"),
    ("lanczos d", lambda: lanczos(A2, SNAN), r"d: the matrix is 2 x 2 but d = Decimal\('sNaN'\)"),  # type: ignore[arg-type]
    ("power_iteration d", lambda: power_iteration(A2, SNAN), r"d: the matrix is 2 x 2 but d = Decimal\('sNaN'\)"),  # type: ignore[arg-type]
    ("subspace_iteration d", lambda: subspace_iteration(A2, SNAN), r"d: the matrix is 2 x 2 but d = Decimal\('sNaN'\)"),  # type: ignore[arg-type]
    ("tridiagonalize M", lambda: tridiagonalize([[1.0, 2.0, 3.0]]), r"M must be a square matrix, got 1 x 3"),
    ("tridiagonalize ctx", lambda: tridiagonalize(A2, None), r"context"),  # type: ignore[arg-type]
    ("tridiagonalize trace", lambda: tridiagonalize(A2, FLOAT, math.nan), r"trace must be None or a function \(called with each step\), got nan"),  # type: ignore[arg-type]
    ("tridiagonal_ql d", lambda: tridiagonal_ql(None, [0.0], [[1.0]]), r"d must be a list of numbers \(changed in place\), got None"),  # type: ignore[arg-type]
    ("tridiagonal_ql d nan", lambda: tridiagonal_ql([math.nan], [0.0], [[1.0]]), r"d\[0\] must be a real number \(not NaN\), got nan"),
    ("tridiagonal_ql e", _ql_bad_e, r"e must be a list of numbers \(changed in place\), got None"),
    ("tridiagonal_ql Z", lambda: tridiagonal_ql([1.0, 2.0], [0.0, 0.0], [[1.0]]), r"Z must be a list of 2 rows"),
    ("tridiagonal_ql ctx", lambda: tridiagonal_ql([1.0], [0.0], [[1.0]], None), r"context"),  # type: ignore[arg-type]
    # missing, imputation
    ("squarem step", lambda: squarem(None, [0.0], 1e-9, 10), r"step must be a function \(values -> values\), got None"),  # type: ignore[arg-type]
    ("squarem x0", lambda: squarem(lambda v: v, None, 1e-9, 10), r"x0 must be a list of finite real numbers, got None"),  # type: ignore[arg-type]
    ("squarem max_steps", lambda: squarem(lambda v: v, [0.0], 1e-9, None), r"max_steps must be a non-negative int, got None"),  # type: ignore[arg-type]
    ("em_fixed_point grid", lambda: em_fixed_point(None, [(0, 0)], lambda g: g), r"grid must be a non-empty rectangular list of lists"),  # type: ignore[arg-type]
    ("em_fixed_point holes", lambda: em_fixed_point([[1.0]], None, lambda g: g), r"holes must be a list of cells \(i, j\), got None"),  # type: ignore[arg-type]
    ("em_fixed_point rebuild", lambda: em_fixed_point([[1.0]], [(0, 0)], None), r"rebuild must be a function \(grid -> grid\), got None"),  # type: ignore[arg-type]
    ("em_fixed_point tol", lambda: em_fixed_point([[1.0]], [(0, 0)], lambda g: g, None), r"tol must be a finite real number >= 0.0, got None"),  # type: ignore[arg-type]
    ("em_fixed_point max_iter", lambda: em_fixed_point([[1.0]], [(0, 0)], lambda g: g, 1e-9, None), r"max_iter must be a non-negative int, got None"),  # type: ignore[arg-type]
    # the rest
    ("component_name i", lambda: CONVENTIONS["sklearn"].component_name(None), r"component_name: i must be an int >= 0 \(a 0-based component\), got None"),  # type: ignore[arg-type]
    ("as_numpy pca", lambda: as_numpy(None), r"as_numpy: pca must be a fitted purepca.PCA, got None"),
    ("golden_cases folder", lambda: golden_cases(math.nan), r"golden_cases: folder must be a folder's name \(a str or a path\), got nan"),  # type: ignore[arg-type]
    ("golden_cases folder missing", lambda: golden_cases("/no/such/folder"), r"golden_cases: cannot read the folder '/no/such/folder'"),
    ("golden_cases names", lambda: golden_cases(names=math.nan), r"golden_cases: names must be a list of case names \(str\), got nan"),  # type: ignore[arg-type]
    ("KernelPCA.fit_transform X", lambda: KernelPCA(1).fit_transform(None), r"X"),
    ("kernel_function n_features", lambda: kernel_function("rbf", n_features=10 ** 400), r"n_features must be an int between 1 and"),
    ("dump_moments m", lambda: dump_moments(None), r"dump_moments: m must be a purepca.Moments, got None"),
    ("promax m", lambda: promax(LOADINGS, 10 ** 400), r"m must be an int between 1 and 9007199254740992, got an int of 401 digits"),
    ("format_number x", lambda: format_number(None), r"format_number: x must be a real number \(a float\), got None"),  # type: ignore[arg-type]
    ("check_weights length", lambda: check_weights([1.0], SNAN, "sample_weight", "rows"), r"sample_weight: length must be an int >= 0, got Decimal\('sNaN'\)"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("call, message", [pytest.param(c, m, id=name) for name, c, m in DOORS])
def test_contract_doors_refuse_a_hostile_value(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        call()


def test_contract_doors_keep_what_valid_calls_compute() -> None:
    """The values the doors still let through, against independent computations: the cdfs at the infinities,
    f_cdf where d1·x passes the float range (1, not inf/inf), a Fraction printed as its float."""
    assert norm_cdf(math.inf) == 1.0 and norm_cdf(-math.inf) == 0.0
    assert f_cdf(math.inf, 2, 3) == 1.0 and beta_cdf(math.inf, 1.0, 1.0) == 1.0
    # F(x; 2, d2) = I_r(1, d2/2) = 1 - (1 - r)**(d2/2) with r = 2x / (2x + d2): d1·x past the range, then
    # d1·x + d2 past it (r = 1/2 taken as 1 / (1 + d2/(d1·x)))
    assert f_cdf(1e308, 2.0, 2.0) == 1.0 == 1e308 / (1.0 + 1e308)
    with pytest.raises(PurePCAError, match=r"beta_cdf: a = 1.0 and b = 5e\+307 are beyond what lgamma reaches"):
        f_cdf(5e307, 2.0, 1e308)  # d2/2 = 5e307: lgamma overflows (it raised OverflowError)
    assert f_cdf(3.0, 2.0, 4.0) == pytest.approx(1.0 - (1.0 - 6.0 / 10.0) ** 2, rel=1e-14)
    assert format_number(Fraction(1, 3)) == format_number(1 / 3)
    assert FLOAT.convert(math.inf) == math.inf and BINARY32.convert(-math.inf) == -math.inf
    assert tridiagonalize([]) == ([], [], [])
