"""The kernel room (purepca.fast) and the reference rooms around it.

* With ``PUREPCA_REFERENCE=1`` no kernel is bound, and every interpreter at hand gives the same
  bits for the same fits (the golden corpus's inputs and a few more).
* Each kernel keeps its contract against the reference: the same bits where it promises bits,
  its stated bound where it promises a bound (more contracts, against exact Fractions, live in
  test_pypy_paths.py, test_extended_gram.py, test_sumprod_accuracy.py and test_wide_path.py).
(The rooms' static rules, read from the source and the same on every interpreter, are in
test_rooms.py.)
"""

from __future__ import annotations

import math
import os
import pathlib
import platform
import random
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers import examples

import purepca
from purepca import FLOAT, PCA, fast
from purepca.covariance import _centre_column, _centred_columns
from purepca.fast import grams
from purepca.fast import rows as fast_rows
from purepca.fast import sums
from purepca.linalg.jacobi import _cyclic_jacobi
from purepca.linalg.matrix import as_matrix

#: The answers here depend on the interpreter or the mode: every stage of .ci/test runs them (conftest.py).
pytestmark = pytest.mark.interpreter

ROOT = pathlib.Path(purepca.__file__).parent
REPO = ROOT.parent


def _modules() -> list[pathlib.Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "_micro" not in p.parts)


# ------------------------------------------------------------------ the reference switch

@pytest.mark.slow
def test_fast_reference_mode_binds_no_kernel() -> None:
    script = ("import purepca, purepca.fast as f, purepca.numeric as n, math\n"
              "names = ['fsum', 'dot', 'dots', 'triple_dot', 'float_rows', 'float_columns', 'columns', 'gram',"
              " 'polar_rows', 'centring', 'residual_squares', 'jacobi', 'rotate', 'householder', 'back_transform',"
              " 'laid_out']\n"
              "print(f.REFERENCE, [x for x in names if getattr(f, x) is not None], f.JACOBI_MAX_N,"
              " n.FLOAT.sum is math.fsum, n.FLOAT.dot is n._fsum_dot)\n")
    env = dict(os.environ, PUREPCA_REFERENCE="1", PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert out.stdout.strip() == "True [] 16 True True", out.stderr


@pytest.mark.slow
@pytest.mark.parametrize("value, on", [("1", True), ("true", True), (" YES ", True), ("on", True), ("0", False),
                                       ("", False), ("false", False), ("no", False), ("2", False)])
def test_fast_the_switch_reads_yes_and_no(value: str, on: bool) -> None:
    env = dict(os.environ, PUREPCA_REFERENCE=value, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", "import purepca.fast as f; print(f.REFERENCE)"], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.stdout.strip() == str(on), out.stderr


def test_fast_register_solver_refuses_what_is_not_a_solver() -> None:
    from purepca import PurePCAError
    from purepca.solvers import Solver, register_solver

    for bad in ("covariance", None, Solver("auto", lambda P: None, lambda n, d, k: True)):  # type: ignore[arg-type,return-value]
        with pytest.raises(PurePCAError, match="register_solver: expected a Solver with a name other than 'auto'"):
            register_solver(bad)  # type: ignore[arg-type]


#: The fits whose bits are compared across interpreters in reference mode.
_BITS = r'''
import hashlib, json, os, random, sys
sys.path.insert(0, sys.argv[1])
import purepca
from purepca import PCA, fast
from purepca.golden import golden_cases
assert fast.REFERENCE
h = hashlib.sha256()
def feed(x):
    h.update(repr(x).encode())
inputs = []
for case in golden_cases():
    X = case["input"].get("X")
    if X:
        inputs.append([[float(v) for v in row] for row in X])
rng = random.Random(5)
for n, d, off in ((40, 5, 0.0), (300, 8, 1e6), (25, 30, 0.0), (200, 20, -3.0)):
    inputs.append([[off + rng.gauss(0, 1) * (1 + j) for j in range(d)] for _ in range(n)])
for X in inputs:  # the Gram path where it is meant (n <= 2d): on 300 x 8 it took 44 s in reference mode
    for solver in ("auto", "covariance", "svd") + (("gram",) if len(X) <= 2 * len(X[0]) else ()):
        p = PCA(solver=solver).fit(X)
        feed((p.explained_variance_, p.components_, p.mean_, p.noise_variance_, p.transform(X[:3])))
p = PCA(n_components=2, solver="krylov").fit(inputs[-1]); feed((p.explained_variance_, p.components_))
from purepca import KernelPCA
for case in golden_cases():
    if case["kind"] == "kernel_pca":
        X = [[float(v) for v in row] for row in case["input"]["X"]]
        for result in case["results"]:
            kp = KernelPCA(convention=result["convention"], **result["params"]).fit(X)
            feed((kp.eigenvalues_, kp.transform(X[:3])))
for kernel in ("rbf", "poly", "laplacian"):
    kp = KernelPCA(n_components=3, kernel=kernel).fit(inputs[-2][:60]); feed((kp.eigenvalues_, kp.transform(inputs[-2][:3])))
print(len(inputs), h.hexdigest())
'''


@pytest.mark.slow
@pytest.mark.interpreter
def test_fast_reference_mode_bits_of_this_interpreter() -> None:
    """This interpreter's hash of the fits above in reference mode, for the comparison across stages.

    Every stage of ``.ci/test`` (CPython 3.9, 3.11, 3.13, PyPy; default and reference mode) runs this
    test once with its own interpreter and writes the hash to ``$PUREPCA_HASH_DIR/$PUREPCA_STAGE``;
    the command compares them at the end, and fails when two interpreters gave different bits.  No
    stage starts another interpreter (it took 254 s when the first stage started them all).
    """
    env = dict(os.environ, PUREPCA_REFERENCE="1")
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, "-c", _BITS, str(REPO)], capture_output=True, text=True, env=env,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    count, digest = done.stdout.split()
    assert int(count) > 20 and len(digest) == 64, done.stdout
    folder = os.environ.get("PUREPCA_HASH_DIR")
    if folder:
        stage = os.environ.get("PUREPCA_STAGE") or sys.implementation.name + platform.python_version()
        with open(os.path.join(folder, stage), "w", encoding="utf-8") as f:
            f.write(f"{digest} {platform.python_implementation()} {platform.python_version()}\n")


# ------------------------------------------------------------------ the kernels' contracts

def _float_rows(seed: int) -> list[list[float]]:
    rng = random.Random(seed)
    n, d = rng.randint(1, 40), rng.randint(1, 9)
    scale = 10.0 ** rng.uniform(-200, 200)
    rows = [[rng.gauss(0, 1) * scale + rng.choice([0.0, 1e8, -3.0]) for _ in range(d)] for _ in range(n)]
    rows[0][0] = -0.0
    return rows


def _general(rows: list[list[float]]) -> list[list[float]]:
    return as_matrix([tuple(r) for r in rows])  # tuples: the reference loop


@pytest.mark.parametrize("kernel", [fast_rows.float_rows, fast_rows.float_rows_at_once])
def test_fast_row_validation_gives_the_references_rows_to_the_bit(kernel: Any) -> None:
    for seed in range(40):
        rows = _float_rows(seed)
        got, want = kernel(rows), _general(rows)
        assert repr(got) == repr(want) and all(a is not b for a, b in zip(got, rows))


@pytest.mark.parametrize("kernel", [fast_rows.float_columns, fast_rows.float_columns_at_once])
def test_fast_column_validation_gives_the_references_columns_to_the_bit(kernel: Any) -> None:
    for seed in range(40):
        rows = _float_rows(seed)
        got = kernel(rows)
        assert repr([list(c) for c in got]) == repr([list(c) for c in zip(*_general(rows))])
        assert repr(fast_rows.columns(rows, len(rows[0]))) == repr([list(c) for c in zip(*rows)])


def test_fast_fsum_dots_and_mapped_dots_give_the_references_bits() -> None:
    rng = random.Random(1)
    for _ in range(30):
        d = rng.randint(1, 60)
        vectors = [[rng.gauss(0, 1) * 10.0 ** rng.uniform(-20, 20) for _ in range(d)] for _ in range(5)]
        v = [rng.gauss(0, 1) for _ in range(d)]
        assert sums.fsum_dots(vectors, v) == [sums.fsum_dot(u, v) for u in vectors]
        assert [sums.fsum_by_sum2(u) for u in vectors] == [math.fsum(u) for u in vectors]
    if fast.dots is not None:
        assert fast.dots(vectors, v) == [FLOAT.dot(u, v) for u in vectors]


def test_fast_in_place_rotations_give_the_references_bits() -> None:
    from purepca.fast.in_place import cyclic_jacobi_in_place, rotate_in_place

    rng = random.Random(3)
    for n in (1, 2, 5, 13, 30):
        A = [[rng.gauss(0, 1) for _ in range(n)] for _ in range(n)]
        S = [[A[i][j] + A[j][i] for j in range(n)] for i in range(n)]
        results = []
        for kernel in (True, False):
            M = [list(r) for r in S]
            V = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
            counts = cyclic_jacobi_in_place(M, V, FLOAT.eps, 50) if kernel else _cyclic_jacobi(M, V, FLOAT.eps, 50, FLOAT, None)
            results.append((counts, M, V))
        assert repr(results[0]) == repr(results[1])
    a, b = [rng.gauss(0, 1) for _ in range(9)], [rng.gauss(0, 1) for _ in range(9)]
    c, s = 0.6, 0.8
    want = ([c * x - s * y for x, y in zip(a, b)], [s * x + c * y for x, y in zip(a, b)])
    rotate_in_place(a, b, c, s)
    assert (a, b) == want


def _exact_gram(vectors: list[list[float]]) -> list[list[Fraction]]:
    F = [[Fraction(x) for x in v] for v in vectors]
    return [[sum((x * y for x, y in zip(u, w)), Fraction(0)) for w in F] for u in F]


@pytest.mark.parametrize("kind, factor", [("polar", 32), ("blocked", 17)])
def test_fast_gram_kernels_within_their_stated_bounds(kind: str, factor: int) -> None:
    rng = random.Random(11)
    eps = Fraction(2.0 ** -52)
    for _ in range(12):
        k, n = rng.randint(1, 5), rng.randint(1, 300)
        vectors = [[rng.gauss(0, 1) * 10.0 ** rng.uniform(-100, 100) for _ in range(n)] for _ in range(k)]
        if rng.random() < 0.3 and k > 1:
            vectors[1] = [x + 1e-9 * rng.gauss(0, 1) for x in vectors[0]]  # nearly parallel: cancellation
        work = grams.PolarGram(vectors) if kind == "polar" else grams.BlockedGram(vectors)
        G = work.compute() or [[None] * k for _ in range(k)]
        for i in range(k):
            row = work.row(i)
            for j in range(i, k):
                G[i][j] = row[j - i]
        exact = _exact_gram(vectors)
        norms = [math.sqrt(float(exact[i][i])) for i in range(k)]
        for i in range(k):
            for j in range(i, k):
                bound = factor * eps * Fraction(norms[i]) * Fraction(norms[j]) * (1 + Fraction(1, 2 ** 20))
                assert abs(Fraction(G[i][j]) - exact[i][j]) <= bound, (kind, i, j)


@given(st.integers(min_value=2, max_value=60), st.integers(min_value=1, max_value=6),
       st.sampled_from([0.0, 1.0, 1e6, 1e12, -5e3]), st.floats(min_value=-150, max_value=150), st.integers(0, 10 ** 6))
@settings(max_examples=examples(40), deadline=None)
def test_fast_centring_keeps_the_mean_pair_of_the_reference(n: int, d: int, offset: float, exponent: float, seed: int) -> None:
    # Every kernel's hi + lo is the mean to about twice the precision, as the reference's; the
    # deviations are x - hi as stored, and the scaled columns' exponents those of the reference.
    rng = random.Random(seed)
    scale = 10.0 ** exponent
    cols = [[offset + scale * rng.gauss(0, 1) for _ in range(n)] for _ in range(d)]
    got = _centred_columns(cols, FLOAT)
    ref = [_centre_column(col, float(n), FLOAT) for col in cols]
    for j, col in enumerate(cols):
        exact = sum(map(Fraction, col), Fraction(0)) / n
        size = max(abs(Fraction(x)) for x in col)
        # scaled columns (near the ends of the range) keep the mean to the working precision only
        slack = Fraction(2.0 ** -100) * size if not got.exps[j] else Fraction(2.0 ** -50) * size
        assert abs(Fraction(got.hi[j]) + Fraction(got.lo[j]) - exact) <= slack + Fraction(2.0 ** -52) * abs(
            Fraction(got.lo[j])), (j, got.hi[j], got.lo[j])
        assert got.exps[j] == ref[j][5]
        assert list(got.cols[j]) == [math.ldexp(x - got.hi[j], -got.exps[j]) for x in col] or got.exps[j]


@given(st.integers(min_value=3, max_value=80), st.integers(min_value=2, max_value=7),
       st.sampled_from([0.0, 10.0, 1e6, 1e10]), st.integers(0, 10 ** 6))
@settings(max_examples=examples(25), deadline=None)
def test_fast_fit_within_the_kernels_bounds_of_the_reference_fit(n: int, d: int, offset: float, seed: int) -> None:
    # The default fit (kernels bound on CPython and PyPy) against the reference's statements run in
    # this process: the same covariance path with every kernel left out (their bounds are below
    # what the eigensolver adds, a few eps of the largest eigenvalue).
    rng = random.Random(seed)
    X = [[offset + rng.gauss(0, 1) * (1 + j) for j in range(d)] for _ in range(n)]
    default = PCA(solver="covariance").fit(X)
    reference = _reference_fit(X)
    top = reference[0][0]
    for a, b in zip(default.explained_variance_, reference[0]):
        assert abs(a - b) <= 1e-12 * top
    for a, b in zip(default.mean_, reference[1]):
        assert a == b or abs(a - b) <= 2.0 ** -51 * abs(b)


def _reference_fit(X: list[list[float]]) -> tuple[list[float], list[float]]:
    """The eigenvalues and mean of a covariance fit through the reference rooms only (no kernel)."""
    from purepca.covariance import _cross_products
    from purepca.linalg.jacobi import jacobi_eigh

    cols = [list(c) for c in zip(*X)]
    n = len(X)
    m = [math.fsum(c) / n for c in cols]
    ref = [_centre_column(col, float(n), FLOAT) for col in cols]
    c = type(_centred_columns([[0.0, 1.0]], FLOAT))([r[0] for r in ref], [r[4] for r in ref], [r[1] for r in ref],
                                                     [r[3] for r in ref], [r[5] for r in ref])
    C = _cross_products(c, FLOAT, float(n - 1), gram=lambda vs: [[sums.fsum_dot(u, v) for v in vs] for u in vs])
    values = jacobi_eigh(C).values
    return values, [h + lo for h, lo in zip(c.hi, c.lo)] if m else []


def test_fast_every_kernel_in_the_table_is_documented() -> None:
    doc = fast.__doc__ or ""
    for name in ("fsum", "dot", "dots", "triple_dot", "float_rows", "float_columns", "columns", "gram", "polar_rows",
                 "centring", "residual_squares", "jacobi", "rotate", "householder", "back_transform", "laid_out",
                 "JACOBI_MAX_N"):
        assert hasattr(fast, name) and f"``{name}``" in doc, name
