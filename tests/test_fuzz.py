"""The fuzz harness (issue 9): every public entry point, on generated input.

The contract checked on every example: a correct-looking result (finite
floats of the right shape) or a :class:`PurePCAError` (``ConvergenceError``
and ``NotFittedError`` are subclasses) whose message is not empty; never
another exception type, never a mutated input, never a half-updated model
after a failed refit.

Issue 20 extends it to the surfaces added since: the command on generated
files and options (in process, through ``purepca.cli.main``: exit 0, 1 with
one error line, or 2 from argparse, and the files untouched), model files
(a real model with fields replaced, deleted or cut: ``pca_from_json`` loads
a model that works or names the field) and the oracle's inputs (results,
tolerances, references and the geometry helpers).  ``test_fuzz_covers_every_surface``
fails when purepca.testing exports a function, or the command a subcommand,
that no test here calls: a new surface is fuzzed when it is added.

The number of examples per test is ``PUREPCA_FUZZ_EXAMPLES`` (default 60, a
few seconds each: CI's budget).  Issue 36 adds Moments' bytes (real states mutated,
cut or made by hand: ``Moments.from_bytes`` loads moments that work or names the field),
the micro build's OUT (never the package it reads, never a directory it was not told
to replace) and the distributed helpers (engine objects read or refused).  A long local run::

    PUREPCA_FUZZ_EXAMPLES=20000 python -m pytest tests/test_fuzz.py -q --hypothesis-show-statistics
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import re
import tempfile
import warnings
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from helpers import examples  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import purepca  # noqa: E402
from purepca import KernelPCA, PCA, PurePCAError  # noqa: E402
from purepca.cli import main as cli_main  # noqa: E402
from purepca.model_io import pca_from_json, pca_to_json  # noqa: E402

EXAMPLES = int(os.environ.get("PUREPCA_FUZZ_EXAMPLES", examples(60)))
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


@pytest.mark.budget(3)  # Lanczos, power and subspace runs per example: 1.0-1.1 s measured, over 1 s on 2 busy workers
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


# ------------------------------------------------------------------ the command on files and options
#
# In process, through purepca.cli.main: a file (a CSV of hostile cells, random bytes, another encoding),
# a model file and another library's result next to it, and options drawn per subcommand.  The
# contract: exit 0 or 1 (2 from argparse), one error line, no traceback, the files untouched.

CELL = st.one_of(
    st.sampled_from(["1", "-2.5", "0", "1e308", "-1e308", "1e-320", "1e400", "NA", "", " ", "nan", "inf", "x",
                     '"1,5"', '"a\nb"', "1;2", "\x0c3", "\u00e9", "0x10", "1_000", "TRUE", '"'] ),
    st.integers(-1000, 1000).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
)


@st.composite
def csv_bytes(draw: Any) -> bytes:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return bytes(draw(st.binary(max_size=200)))
    n, d = draw(st.integers(0, 6)), draw(st.integers(1, 4))
    names = draw(st.sampled_from([[f"c{j}" for j in range(d)], ["a"] * d, [f'"x,{j}"' for j in range(d)],
                                  [str(j) for j in range(d)]]))
    rows = [",".join(draw(CELL) for _ in range(d + draw(st.sampled_from([0, 0, 0, 0, 1, -1])))) for _ in range(n)]
    text = "\n".join(([] if kind == 1 else [",".join(names)]) + rows) + draw(st.sampled_from(["\n", "", "\r\n"]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "latin-1", "utf-16"]))
    return bytes(text.encode(encoding, errors="replace"))


COMMON = [["--no-header"], ["--columns", "0,1"], ["--columns", "c0,zz"], ["--id-column", "0"], ["--exclude", "1"],
          ["--delimiter", ";"], ["--encoding", "latin-1"], ["--encoding", "bogus"], ["--decimal", ","],
          ["--missing", "drop"], ["--missing", "mean"], ["--format", "csv"], ["--format", "json"],
          ["-o", "out/x.txt"], ["-o", "."], ["--dataset", "toy"]]
OPTIONS: dict[str, list[list[str]]] = {
    "fit": COMMON + [["--components", "2"], ["--components", "0.9"], ["--components", "-1"], ["--components", "mle"],
                     ["--scale"], ["--convention", "prcomp"], ["--solver", "svd"], ["--solver", "power"],
                     ["--precision", "20"], ["--save", "m2.json"], ["--stream", "always"], ["--weights", "c0"],
                     ["--missing", "em"], ["--drop-constant"], ["--scores", "s.csv"]],
    "transform": COMMON + [["--model", "model.json"], ["--model", "model.json"], ["--model", "missing.json"]],
    "kernel": COMMON + [["--kernel", "rbf"], ["--kernel", "precomputed"], ["--gamma", "nan"], ["--degree", "0"],
                        ["--components", "2"], ["--precision", "20"], ["--scale"], ["--eigen-solver", "power"]],
    "plot": COMMON + [["--kind", "biplot"], ["--kind", "circle"], ["--pcs", "1,3"], ["--top", "0"], ["--labels"],
                      ["--groups", "c0"], ["--title", "<&>"]],
    "trace": COMMON + [["--matrix", "data.csv"], ["--method", "power"], ["--components", "0"], ["--sweeps-only"]],
    "verify": [o for o in COMMON if o[0] != "--format"] + [
        ["--result", "result.json"], ["--result", "result.json"], ["--rtol", "nan"], ["--rtol", "1e-9"],
        ["--residual", "-1"], ["--method", "float32"], ["--ddof", "-1"], ["--scale"], ["--unscaled"]],
    "teach": [["--matrix", "data.csv"], ["--method", "power"], ["--digits", "5"], ["--components", "1"],
              ["--seed", "-1"], ["-o", "t.html"], ["--lesson", "stopping"], ["--lesson", "pc1"]],
    "exercise": [["list"], ["write"], ["grade"], ["rotation"], ["data.csv"], ["--folder", "out"], ["--folder", "."],
                 ["--name", "power"]],
    "dataset": [["iris"], ["toy"], ["-o", "d.csv"]],
    "assess": [["--convention", "prcomp"], ["--convention", "princomp"], ["--method", "covariance"],
               ["--method", "float32"], ["-o", "out/x.txt"], ["-o", "a.txt"]],
}
#: The subcommands with no file to read (covered by test_command_line).
NO_FILES = {"demo", "check"}


@st.composite
def command_lines(draw: Any) -> list[str]:
    command = draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command]
    if command in ("fit", "transform", "kernel", "plot", "trace") and draw(st.booleans()):
        argv.append("data.csv")
    if command == "verify":
        argv += ["--data", "data.csv"]
    if command == "assess":  # a certified case (or none of them) and the result file
        argv += [draw(st.sampled_from(["toy", "longley", "repeated", "usarrests_scaled", "nope", "../toy"])),
                 draw(st.sampled_from(["result.json", "result.json", "data.csv", "missing.json", "."]))]
    for option in draw(st.lists(st.sampled_from(OPTIONS[command]), max_size=4)):
        argv += option
    return argv


@FUZZ
@given(csv_bytes(), st.one_of(st.none(), csv_bytes()), command_lines(), st.integers(0, 4), st.integers(0, 3))
def test_command_on_files(data: bytes, other: Any, argv: list[str], model_kind: int, result_kind: int) -> None:
    model = {0: pca_to_json(PCA(2).fit([[1.0, 2.0, 3.0], [2.0, 1.0, 0.0], [0.0, 3.0, 1.0], [4.0, 1.0, 2.0]])),
             1: "{", 2: '{"format": "purepca.PCA", "version": 1}', 3: "[]"}.get(model_kind, None)
    result = [json.dumps({"explained_variance_": [1.0, 0.5]}), json.dumps({"components_": [[1.0, 0.0]]}),
              json.dumps({"explained_variance_": [[1e400]]}).replace("Infinity", "1" + "0" * 400), "["][result_kind]
    with tempfile.TemporaryDirectory() as folder:
        files = {"data.csv": data, "model.json": None if model is None else model.encode(),
                 "result.json": result.encode(), "other.csv": other}
        for name, content in files.items():
            if content is not None:
                with open(os.path.join(folder, name), "wb") as handle:
                    handle.write(content)
        out, err = io.StringIO(), io.StringIO()
        here = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    status = check(lambda: cli_main(argv))
                except SystemExit as exit_:
                    status = exit_.code
        finally:
            os.chdir(here)
        assert status in (0, 1, 2), (argv, status)
        hypothesis.event(f"{argv[0]}: exit {status}")
        if status == 1 and not (argv[0] in ("verify", "assess") and not err.getvalue() and " failed" in out.getvalue()):
            # (verify's and assess's exit 1 with no error is their verdict: a comparison that failed, on standard output)
            assert len(err.getvalue().strip().splitlines()) == 1, (argv, err.getvalue())
        for name, content in files.items():
            if content is not None:
                with open(os.path.join(folder, name), "rb") as handle:
                    assert handle.read() == content, f"{name} was changed by {argv}"


# ------------------------------------------------------------------ model files

MODEL_VALUES: list[Any] = [None, "x", -1, 0, 2, 5, 10**400, 1e308, -1e308, math.nan, math.inf, [], [[]], [1.0], [[1.0, 2.0]],
                {"a": 1}, True, [None], [[math.nan, 1.0]], [-1.0, 2.0], "yes", [[1.0] * 3] * 3]


def _mutations(document: Any) -> list[tuple[Any, ...]]:
    """Paths to every value of a JSON document (as key tuples)."""
    paths: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node[:3]):
                walk(v, path + (i,))

    walk(document, ())
    return paths


@FUZZ
@given(st.data(), matrices(clean=True), params({"n_components": [None, 1, 2], "scale": [False, True],
                                                 "whiten": [False, True], "convention": ["sklearn", "factominer"]}))
def test_model_files(data: Any, X: Any, kw: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            pca = PCA(**kw).fit(X)
        except PurePCAError:
            pca = PCA(1).fit([[0.0, 1.0], [1.0, 3.0], [2.0, 2.0]])
    document = json.loads(pca_to_json(pca))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_mutations(document)[1:]))
        node = document
        for key in path[:-1]:
            node = node[key]
        value = data.draw(st.sampled_from(MODEL_VALUES + ["<delete>"]))
        if value == "<delete>" and isinstance(node, dict):
            del node[path[-1]]
        elif value != "<delete>":
            node[path[-1]] = copy.deepcopy(value)
    text = json.dumps(document)
    if data.draw(st.booleans()):
        cut = data.draw(st.integers(0, len(text)))
        text = text[:cut] + data.draw(st.sampled_from(["", "[" * 10**5, "\x00", "{}", "]"])) + text[cut:]
    loaded = check(lambda: pca_from_json(text))
    hypothesis.event("refused" if isinstance(loaded, PurePCAError) else "loaded")
    if isinstance(loaded, PurePCAError):
        return
    rows = [[float(i + j) for j in range(loaded.n_features_in_)] for i in range(3)]
    check(lambda: loaded.transform(rows), rows)
    check(lambda: loaded.inverse_transform(loaded.transform(rows)))
    check(lambda: pca_to_json(loaded))


# ------------------------------------------------------------------ the oracle's inputs

RESULT_KEYS = ["components_", "explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_",
               "noise_variance_", "sdev", "rotation", "scores", "x", "eigenvalues", "eigenvectors", "whiten"]
RESULT_VALUES = st.one_of(matrices(), st.lists(entry, max_size=4), entry, st.sampled_from([{}, set(), "abc", ()]))


@FUZZ
@given(st.one_of(matrices(clean=True), matrices()), st.dictionaries(st.sampled_from(RESULT_KEYS), RESULT_VALUES, max_size=4),
       params({"convention": ["sklearn", "prcomp", "princomp", "factominer", "bogus"],
               "method": ["svd", "covariance", "float32", "iterative", "randomized", "incremental", "bogus"],
               "tol": [None, 1e-8] + BAD, "n_iter": [None, 2] + BAD, "batch_size": [None, 3] + BAD,
               "rtol": [None, 1e-9] + BAD, "residual": [0.0, 1e-6] + BAD, "scale": [None, True, False, "a"],
               "ddof": [None, 0, 1] + BAD, "ref": [None, "abc", 1.0]}))
def test_oracle_inputs(X: Any, result: dict[str, Any], kw: dict[str, Any]) -> None:
    from purepca import testing

    for fn in (testing.compare_pca, testing.assert_pca_close):
        try:
            check(lambda: fn(result, X, **kw), result, X)
        except AssertionError as err:  # the oracle's verdict: a mismatch, named
            assert fn is testing.assert_pca_close and "differs from the reference" in str(err), str(err)
    if isinstance(X, list) and X and not isinstance(kw.get("ref"), str):
        try:
            own = testing.reference(X)
        except PurePCAError:
            return
        fitted = {"explained_variance_": own.explained_variance_, "components_": own.components_}
        check(lambda: testing.compare_pca(fitted, X, ref=own), fitted, X)


def _inf_as_none(x: Any) -> Any:
    """A number beyond the float range is inf where that is documented (never NaN): left out of the check."""
    if isinstance(x, list):
        return [_inf_as_none(v) for v in x]
    return None if x == math.inf else x


@FUZZ
@given(matrices(), matrices(), st.lists(entry, max_size=5), st.sampled_from([1e-10, 0.0, -1.0, math.nan, "a", 2]),
       st.sampled_from(["auto", "matrix", "data", "bogus"]),
       st.sampled_from(["none", "max_abs_positive", "first_positive", "bogus"]))
def test_oracle_geometry(A: Any, B: Any, values: Any, tol: Any, kind: str, rule: str) -> None:
    from purepca import testing

    check(lambda: testing.subspace_distance(A, B), A, B)
    check(lambda: testing.align_signs(A, B), A, B)
    check(lambda: testing.angle_inside(A, B), A, B)
    check(lambda: testing.angle_from(A, B), A, B)
    check(lambda: testing.eigen_clusters(values, tol), values)
    check(lambda: _inf_as_none(testing.residual_bound(A, values, B, kind=kind)), A, values, B)
    check(lambda: testing.sign_determined(values, rule, tol), values)
    # An error beyond the float range is inf (documented), never NaN.
    check(lambda: _inf_as_none(testing.covariance_error(A, B)), A, B)
    check(lambda: testing.fingerprint(A), A)
    method = "randomized" if rule == "none" else "iterative"
    check(lambda: _inf_as_none(testing.iterative_residuals(values, 3, method=method, tol=tol, k=2)), values)
    check(lambda: testing.summary(values), values)


@FUZZ
@given(st.one_of(matrices(clean=True), matrices()), st.dictionaries(st.sampled_from(["eigenvalues_", "eigenvectors_", "lambdas_", "alphas_",
                                                    "scores", "transform"]), RESULT_VALUES, max_size=3),
       params({"kernel": ["linear", "rbf", "poly", "bogus"], "gamma": [None, 0.5] + BAD,
               "rtol": [None, 1e-9] + BAD, "convention": ["sklearn", "kernlab", "bogus"]}))
def test_oracle_kernel_inputs(X: Any, result: dict[str, Any], kw: dict[str, Any]) -> None:
    from purepca import testing

    for fn in (testing.compare_kernel_pca, testing.assert_kernel_pca_close):
        try:
            check(lambda: fn(result, X, **kw), result, X)
        except AssertionError as err:
            assert fn is testing.assert_kernel_pca_close and "differs" in str(err), str(err)


# ------------------------------------------------------------------ issue 36: Moments' bytes, the micro
# build's OUT, the distributed helpers

from purepca import Moments  # noqa: E402
from purepca.moments_io import _HEAD, MAGIC, _put_int  # noqa: E402

DOUBLES = [0.0, -0.0, 1.0, -1.0, math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, 1e154, -1e-300]
INTS = [0, 1, -1, 2 ** 40, -(2 ** 40), 1074, -1075, 1024, 10 ** 7, 2 ** 63, -(2 ** 200), 3]


@st.composite
def moments_bytes(draw: Any) -> bytes:
    """The bytes of real moments (float, exact, exact decimal), then mutated: bytes flipped, cut or added,
    a double or a header field replaced; or a state made by hand field by field."""
    kind = draw(st.integers(0, 3))
    if kind < 3:
        X = draw(matrices(clean=True))
        try:
            context = purepca.DecimalContext(20) if kind == 2 else None
            m = Moments.from_rows(X, exact=kind > 0, context=context)
            data = bytearray(m.to_bytes())
        except PurePCAError:
            data = bytearray(_HEAD.pack(MAGIC, 1, 0, 0, 0))
        for _ in range(draw(st.integers(0, 3))):
            how = draw(st.integers(0, 5))
            if how == 0 and data:
                i = draw(st.integers(0, len(data) - 1))
                data[i] = draw(st.integers(0, 255))
            elif how == 1:
                data = data[:draw(st.integers(0, len(data)))]
            elif how == 2:
                data += bytes(draw(st.lists(st.integers(0, 255), max_size=9)))
            elif how == 3 and len(data) >= _HEAD.size + 8 and data[5] == 0:  # a double of a float state
                i = _HEAD.size + 8 * draw(st.integers(0, (len(data) - _HEAD.size) // 8 - 1))
                data[i:i + 8] = __import__("struct").pack("<d", draw(st.sampled_from(DOUBLES)))
            elif how == 4 and len(data) >= _HEAD.size:  # d or n
                field = draw(st.sampled_from([(6, "<I", 4), (10, "<Q", 8)]))
                value = draw(st.sampled_from([0, 1, 2, 5, 2 ** 31, 2 ** 32 - 1]))
                data[field[0]:field[0] + field[2]] = __import__("struct").pack(field[1], value)
            elif how == 5 and len(data) >= 6:
                data[4] = draw(st.sampled_from([0, 1, 2, 255]))  # version
        return bytes(data)
    d = draw(st.integers(0, 3))
    n = draw(st.sampled_from([0, 1, 2, 5, 2 ** 40]))
    if draw(st.booleans()):  # a float state by hand
        count = 2 * d + d * (d + 1) // 2
        values = [draw(st.one_of(st.sampled_from(DOUBLES), st.floats(-10, 10))) for _ in range(count)]
        return _HEAD.pack(MAGIC, 1, 0, d, n) + __import__("struct").pack(f"<{count}d", *values)
    out = bytearray(_HEAD.pack(MAGIC, 1, 1, d, n)) + __import__("struct").pack("<I", draw(st.sampled_from([0, 0, 17, 20, 5])))
    for _ in range(3 * d + d * (d + 1) // 2):
        _put_int(out, draw(st.one_of(st.sampled_from(INTS), st.integers(-50, 50))))
    return bytes(out)


@FUZZ
@given(moments_bytes(), st.sampled_from([0, 1]))
def test_moments_bytes(data: bytes, ddof: int) -> None:
    """Bytes load into moments that work (finite, symmetric, a fit or a PurePCAError) or a PurePCAError."""
    m = check(lambda: Moments.from_bytes(data), data)
    if isinstance(m, PurePCAError):
        return
    if not m.n:
        assert m.d is None
        return
    C = check(lambda: m.covariance(ddof))
    if not isinstance(C, PurePCAError):
        assert all(C[i][j] == C[j][i] for i in range(len(C)) for j in range(len(C)))
        assert all(C[j][j] >= 0 for j in range(len(C)))
    check(lambda: m.mean)
    again = check(lambda: Moments.from_bytes(m.to_bytes()))
    assert not isinstance(again, PurePCAError), again
    if not isinstance(C, PurePCAError):
        assert again.covariance(ddof) == C
    merged = check(lambda: m.merged(again))
    if not isinstance(merged, PurePCAError):
        check(lambda: merged.covariance(ddof))
    pca = PCA()
    fitted = check(lambda: pca.fit_moments(m))
    if not isinstance(fitted, PurePCAError):
        assert finite_floats(pca.explained_variance_) and finite_floats(pca.components_)


#: OUTs the build must refuse whatever the rest of the command line says, relative to a working
#: directory (the package, or the checkout above it).
PACKAGE_OUTS = ["", " ", ".", "..", "./", "linalg", "new/dir", "_micro", "../purepca", "$PKG", "$PKG/..", "$PKG/x",
                "$ROOT"]
ABOVE_ONLY = ("linalg", "new/dir", "_micro", "../purepca")  # from the checkout: new directories beside it


@FUZZ
@given(st.sampled_from(PACKAGE_OUTS), st.sampled_from(["package", "root"]), st.booleans())
def test_micro_build_never_takes_the_package(out: str, where: str, replace: bool) -> None:
    """Every OUT naming the package it reads, from inside it or above it, is refused before any write
    (check_out only: the fuzz never asks the real tree to be written)."""
    from purepca import micro

    package = os.path.dirname(os.path.abspath(micro.__file__))
    if out in ABOVE_ONLY:
        where = "package"
    out = out.replace("$PKG", package).replace("$ROOT", os.path.dirname(package))
    here = os.getcwd()
    os.chdir(package if where == "package" else os.path.dirname(package))
    try:
        with pytest.raises(PurePCAError) as err:
            micro.check_out(out, replace)
    finally:
        os.chdir(here)
    assert str(err.value) and "\n" not in str(err.value)


@pytest.mark.slow
@FUZZ
@given(st.lists(st.sampled_from(["build", "build", "--mpy", "--replace", "--x", "-", "OUT", "OUT", "FILE", "FULL",
                                 "BUNDLE", "EMPTY", "NEW", "..", "", "a\0b"]), max_size=4))
def test_micro_command_line(argv: list[str]) -> None:
    """``python -m purepca.micro`` on generated command lines in a scratch directory: exit 0 with a bundle
    and its marker, or 1 or 2 with one line, and the directories it was not told to build into untouched."""
    from purepca import micro

    if "--mpy" in argv:
        argv = [a for a in argv if a != "--mpy"]  # mpy-cross is a build tool the fuzz does not need
    if argv.count("OUT") + argv.count("NEW") + argv.count("EMPTY") + argv.count("BUNDLE") > 1:
        argv = argv[:argv.index("build") + 2] if "build" in argv else argv[:1]
    with tempfile.TemporaryDirectory() as tmp:
        here = os.getcwd()
        os.chdir(tmp)
        try:
            os.mkdir("EMPTY")
            os.mkdir("FULL")
            with open(os.path.join("FULL", "keep.txt"), "w") as fh:
                fh.write("mine")
            with open("FILE", "w") as fh:
                fh.write("a file")
            wants_bundle = "BUNDLE" in argv and argv[:1] == ["build"]
            if wants_bundle:
                micro.build("BUNDLE")
            before = {p: open(p, "rb").read() for p in ("FILE", os.path.join("FULL", "keep.txt"))}
            stderr, stdout = io.StringIO(), io.StringIO()
            with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
                code = micro.main(argv)
            assert code in (0, 1, 2), code
            if code:
                assert stderr.getvalue().count("\n") == 1, stderr.getvalue()
            else:
                out = [a for a in argv if a not in ("--mpy", "--replace")][1]
                assert stdout.getvalue().startswith("wrote ") and os.path.exists(os.path.join(out, micro.MARKER))
                assert out not in ("FILE", "FULL", "..", "") and (out != "BUNDLE" or "--replace" in argv), argv
            assert {p: open(p, "rb").read() for p in before} == before
        finally:
            os.chdir(here)


@FUZZ
@given(st.one_of(st.integers(-1, 5), st.sampled_from([1.5, "2", None, True, 10 ** 30])),
       st.one_of(st.integers(-1, 5), st.sampled_from([2.0, None, False])),
       st.one_of(st.lists(entry, max_size=12), st.sampled_from([None, "abc", 3.0, [[1.0, 2.0]]])),
       st.sampled_from([False, True, None, "yes", 1]))
def test_spark_matrix(rows: Any, cols: Any, values: Any, transposed: Any) -> None:
    from purepca.distributed import spark_matrix

    class Dense:
        numRows, numCols, isTransposed = rows, cols, transposed
    Dense.values = values
    got = check(lambda: spark_matrix(Dense()), values)
    if not isinstance(got, PurePCAError):
        assert len(got) == rows and all(len(r) == cols for r in got)
        assert sorted(map(repr, (v for r in got for v in r))) == sorted(repr(float(v)) for v in values)


@FUZZ
@given(matrices(), matrices(), matrices(), st.lists(entry, max_size=4), st.integers(0, 3))
def test_distributed_helpers(C: Any, T: Any, X: Any, ratios: Any, kind: int) -> None:
    from purepca import distributed, testing

    # inf is an answer here: a difference where both scales are 0
    got = check(lambda: _inf_as_none(testing.covariance_error(C, T)), C, T)
    if not isinstance(got, PurePCAError):
        assert got is None or got >= 0
    try:
        moments = Moments.from_rows(X, exact=kind % 2 == 1)
    except PurePCAError:
        moments = Moments()

    class Fitted:
        components_ = C
        explained_variance_ratio_ = ratios

    class Model:
        explainedVariance = ratios

    class PC:
        numRows = len(C) if isinstance(C, list) else 0
        numCols = len(C[0]) if isinstance(C, list) and C and isinstance(C[0], (list, tuple)) else 0
        values = [v for row in C for v in row] if isinstance(C, list) and all(isinstance(r, (list, tuple)) for r in C) else C
        isTransposed = kind > 1
    Model.pc = PC()
    for call in (lambda: testing.compare_sklearn_like_pca(Fitted(), moments),
                 lambda: testing.compare_spark_pca(Model(), moments)):
        got = check(lambda: _angles_and_errors(call()), C, ratios)
        if not isinstance(got, PurePCAError):
            assert all(0 <= a <= math.pi / 2 + 1e-15 for a in got[0]), got
    check(lambda: testing.reference_pca(moments, ddof=kind % 2))
    check(lambda: distributed.offset_rows(kind, seed=kind)[:2])


def _angles_and_errors(c: Any) -> Any:
    str(c)
    return [c.angles, c.ratio_errors]


#: What the oracle exports and is not fuzzed here, with the reason; anything else it exports must be
#: called by a test above, so that a new function is fuzzed when it is added.
ORACLE_NOT_FUZZED = {
    "Check": "a record", "METHODS": "a constant", "Reference": "a record", "clear_cache": "no arguments",
    "reference": "through test_oracle_inputs", "tolerances": "takes a Reference only reference() builds",
    "kernel_reference": "through compare_kernel_pca",
    "assess": "through the assess command above, and tests/test_certified.py on generated answers",
}


def test_fuzz_covers_every_surface() -> None:
    """Every function the oracle exports, every subcommand and the model file loader are fuzzed above."""
    import inspect

    from purepca import testing
    from purepca.cli import _parser

    source = inspect.getsource(inspect.getmodule(test_fuzz_covers_every_surface))  # type: ignore[arg-type]
    for name in testing.__all__:
        called = re.search(rf"testing\.{name}\b", source.replace("f\"testing.{name}", ""))
        assert name in ORACLE_NOT_FUZZED or called, f"purepca.testing.{name} is not fuzzed"
    import argparse

    commands = next(a for a in _parser("purepca")._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(commands) == set(OPTIONS) | NO_FILES, f"subcommands not fuzzed: {set(commands) - set(OPTIONS)}"
    from purepca import model_io

    assert set(model_io.__all__) == {"FORMAT", "VERSION", "pca_from_json", "pca_to_json"}, "a new model_io door"
