"""The oracle's false alarms and detections: implementations x kinds of data, before and after.

Run from the repository root (needs numpy, scikit-learn, scipy, statsmodels):

    python benchmarks/oracle_matrix.py                 # the matrix, the detection ratios, 1,000 random fits
    python benchmarks/oracle_matrix.py --random 200    # fewer random fits (--random-larger: of larger data)
    python benchmarks/oracle_matrix.py --before REV    # also the comparison as it was at git revision REV

Every implementation is fitted on every kind of data and compared with
``compare_pca`` claimed as docs/oracle.md's table of implementations says
(its ``method``, ``convention`` and options: ``scale=False`` for statsmodels,
the ``batch_size`` IncrementalPCA ran with, scikit-learn's ``PCA()`` by the
solver it chose); no argument is computed from the answer under test.
Whether an answer is *correct* or a *defect* is decided against the 50-digit
reference (exact to 1e-50) alone, not by the oracle: an answer is a defect
when an eigenvalue or an angle is more than 100 times off what the best
implementation of the same class of method (scikit-learn's full SVD for SVD
and iterative methods, numpy's ``eigh(np.cov)`` for formed covariances)
reaches on the same data, and correct when every error is within 10 times of
it, or of eps·λ_1 (eps·λ_1/gap for an angle) where that is larger (in
between: not counted).  An iterative answer is held to the same rule: its
own residual excuses nothing.  A false alarm is a correct answer flagged; a
miss is a defect passed.

The detection ratio is the smallest injected error the comparison flags
(its tolerance: an injected error is flagged exactly when it exceeds it)
divided by the error scikit-learn's full SVD actually makes on the same
data, per eigenvalue and per component angle; medians over every data set.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import subprocess
import sys
import time
import types
import warnings
from pathlib import Path
from typing import Any, Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from purepca import PCA  # noqa: E402
from purepca.testing import compare_pca, reference, subspace_distance  # noqa: E402

warnings.simplefilter("ignore")


# ------------------------------------------------------------------ data


def kinds(seed: int = 0) -> dict[str, list[list[float]]]:
    rng = random.Random(seed)

    def gauss(n: int, d: int, f: Callable[[int], float] = lambda j: 1.0) -> list[list[float]]:
        return [[rng.gauss(0, 1) * f(j) for j in range(d)] for _ in range(n)]

    out: dict[str, list[list[float]]] = {}
    out["ordinary"] = gauss(60, 6)
    out["decaying"] = gauss(60, 8, lambda j: 1 / (1 + j))
    for e in (6, 9, 12):
        out[f"offset 1e{e}"] = [[10.0 ** e + x for x in row] for row in gauss(60, 4, lambda j: j + 1.0)]
    rows = []
    for _ in range(60):
        t = rng.gauss(0, 1)
        rows.append([t + 1e-7 * rng.gauss(0, 1), t + 1e-7 * rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 0.5)])
    out["nearly collinear"] = rows
    dirs = [[rng.gauss(0, 1) for _ in range(6)] for _ in range(2)]
    out["small noise, strong directions"] = [
        [a * dirs[0][j] + b * dirs[1][j] + 1e-4 * rng.gauss(0, 1) for j in range(6)]
        for a, b in ((rng.gauss(0, 1e3), rng.gauss(0, 10)) for _ in range(60))]
    base = [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 0.5], [0.0, 0.0, -0.5]]
    out["repeated eigenvalues"] = [[x + 1e-3 * rng.gauss(0, 1) * 0 for x in r] for r in base * 5]
    out["clustered spectrum"] = gauss(60, 5, lambda j: 1.0 + 1e-9 * j if j < 3 else 0.3)
    out["one-hot blocks"] = [[1.0 if j == rng.randrange(4) else 0.0 for j in range(4)] +
                             [1.0 if j == rng.randrange(3) else 0.0 for j in range(3)] for _ in range(60)]
    out["wide 8x20"] = gauss(8, 20, lambda j: 1 + 0.1 * j)
    out["square 10x10"] = gauss(10, 10)
    out["constant column"] = [r[:2] + [7.5] + r[2:] for r in gauss(40, 4)]
    out["nearly constant column"] = [r[:1] + [7.5 + 1e-13 * rng.gauss(0, 1)] + r[1:] for r in gauss(40, 3)]
    big = gauss(40, 4, lambda j: j + 1.0)
    out["x1e150"] = [[x * 1e150 for x in r] for r in big]
    out["x1e-150"] = [[x * 1e-150 for x in r] for r in big]
    out["integers"] = [[float(rng.randint(-5, 9)) for _ in range(5)] for _ in range(40)]
    basis = [[rng.gauss(0, 1) for _ in range(6)] for _ in range(2)]
    out["rank 2 of 6"] = [[a * u + b * v for u, v in zip(*basis)] for a, b in
                          ((rng.gauss(0, 2), rng.gauss(0, 1)) for _ in range(40))]
    out["graded columns"] = gauss(60, 5, lambda j: 10.0 ** (-2 * j))
    out["heavy tails"] = [[rng.gauss(0, 1) / max(1e-3, abs(rng.gauss(0, 1))) for _ in range(5)] for _ in range(60)]
    return out


def random_ordinary(rng: random.Random) -> list[list[float]]:
    n, d = rng.randint(5, 40), rng.randint(2, 8)
    spread = [math.exp(rng.uniform(-3, 3)) for _ in range(d)]
    shift = [rng.uniform(-10, 10) for _ in range(d)]
    return [[shift[j] + rng.gauss(0, 1) * spread[j] for j in range(d)] for _ in range(n)]


def random_larger(rng: random.Random) -> list[list[float]]:
    """Like random_ordinary, with n log-uniform in 5..2,000, up to 30 columns and offsets up to 1e6."""
    n, d = int(math.exp(rng.uniform(math.log(5), math.log(2000)))), rng.randint(2, 30)
    spread = [math.exp(rng.uniform(-3, 3)) for _ in range(d)]
    shift = [rng.uniform(-1, 1) * 10 ** rng.uniform(0, 6) for _ in range(d)]
    return [[shift[j] + rng.gauss(0, 1) * spread[j] for j in range(d)] for _ in range(n)]


# ------------------------------------------------------------------ implementations


def _ipca_batch(n: int, d: int) -> int:
    """The batch size the matrix runs IncrementalPCA with (declared to the oracle as ``batch_size``)."""
    return max(d, n // 3)


# How each implementation is claimed: docs/oracle.md's table of implementations ("Which method and convention
# to claim"), row by row; no argument is computed from the answer under test.  Not in that table: statsmodels'
# nipals, scipy's svds and purepca's krylov, claimed as what they are (iterative runs, held to a converged run:
# nipals stops at its own tol=5e-8 on the change of its scores, not ARPACK's residual, so no tol is declared).
SOLVER_METHOD = {"full": "svd", "covariance_eigh": "covariance", "arpack": "iterative", "randomized": "randomized"}


def implementations() -> list[tuple[str, str, str, str, Callable[[np.ndarray], dict[str, Any]],
                                     Callable[[np.ndarray, int], Any]]]:
    """(name, class, method, convention, options, fit): fit(X, k) returns what the library returns (a fitted
    estimator, numpy's ``(w, v)`` tuple, a dict of the arrays a user takes from an SVD); options(X) the other
    arguments of the claim (``scale=False``, ``batch_size=``: what the run was, never a figure of its answer).
    Class "f32" is fitted on the data rounded to float32 and compared on those data (what a user of float32
    does); its arrays are float32, which the oracle compares at float32's eps under the row's method."""
    from scipy.linalg import eigh as scipy_eigh
    from scipy.sparse.linalg import svds
    from sklearn.decomposition import PCA as SkPCA
    from sklearn.decomposition import IncrementalPCA
    from statsmodels.multivariate.pca import PCA as SmPCA

    def sk(solver: str, dtype: Any = np.float64) -> Callable[[np.ndarray, int], Any]:
        def fit(X: np.ndarray, k: int) -> Any:
            kk = k if solver in ("arpack", "randomized") else None
            return SkPCA(kk, svd_solver=solver, random_state=0).fit(X.astype(dtype))
        return fit

    def ipca(X: np.ndarray, k: int) -> Any:
        return IncrementalPCA(None, batch_size=_ipca_batch(*X.shape)).fit(X)

    def np_eigh(X: np.ndarray, k: int) -> Any:  # the (w, v) tuple as it comes
        return np.linalg.eigh(np.cov(X, rowvar=False))

    def f32_eigh(X: np.ndarray, k: int) -> Any:
        return np.linalg.eigh(np.cov(X.astype(np.float32), rowvar=False).astype(np.float32))

    def np_svd(X: np.ndarray, k: int) -> Any:
        mean = X.mean(axis=0)
        _, s, vt = np.linalg.svd(X - mean, full_matrices=False)
        return {"explained_variance_": s ** 2 / (X.shape[0] - 1), "components_": vt, "mean_": mean}

    def sc_eigh(X: np.ndarray, k: int) -> Any:
        return scipy_eigh(np.cov(X, rowvar=False))

    def sc_svds(X: np.ndarray, k: int) -> Any:
        Z = X - X.mean(axis=0)
        u, s, vt = svds(Z, k=k, random_state=0)
        order = np.argsort(-s)
        return {"explained_variance_": s[order] ** 2 / (X.shape[0] - 1), "components_": vt[order]}

    def sm(method: str) -> Callable[[np.ndarray, int], Any]:
        def fit(X: np.ndarray, k: int) -> Any:
            res = SmPCA(X, ncomp=k if method == "nipals" else None, standardize=False, demean=True,
                        method=method, normalize=False)
            return {"eigenvals": np.asarray(res.eigenvals), "loadings": np.asarray(res.loadings)}
        return fit

    def pp(solver: str) -> Callable[[np.ndarray, int], Any]:
        def fit(X: np.ndarray, k: int) -> Any:
            kk = k if solver in ("krylov", "power") else None
            return PCA(kk, solver=solver).fit(X.tolist())
        return fit

    def none(X: np.ndarray) -> dict[str, Any]:
        return {}

    def unscaled(X: np.ndarray) -> dict[str, Any]:
        return {"scale": False}  # statsmodels' standardize=False

    def batches(X: np.ndarray) -> dict[str, Any]:
        return {"batch_size": _ipca_batch(*X.shape)}  # the batch size it ran with

    return [
        ("sklearn full", "svd", "svd", "sklearn", none, sk("full")),
        ("sklearn covariance_eigh", "cov", "covariance", "sklearn", none, sk("covariance_eigh")),
        ("sklearn arpack", "svd", "iterative", "sklearn", none, sk("arpack")),
        ("sklearn randomized", "svd", "randomized", "sklearn", none, sk("randomized")),  # n_iter "auto"
        ("sklearn auto", "svd", "auto", "sklearn", none, sk("auto")),  # the method of the solver it chose
        ("sklearn IncrementalPCA", "svd", "incremental", "sklearn", batches, ipca),
        ("sklearn full float32", "f32", "svd", "sklearn", none, sk("full", np.float32)),
        ("statsmodels svd", "svd", "svd", "statsmodels", unscaled, sm("svd")),
        ("statsmodels eig", "cov", "covariance", "statsmodels", unscaled, sm("eig")),
        ("statsmodels nipals", "svd", "iterative", "statsmodels", unscaled, sm("nipals")),
        ("numpy eigh(cov)", "cov", "covariance", "numpy", none, np_eigh),
        ("numpy eigh(cov) float32", "f32", "covariance", "numpy", none, f32_eigh),
        ("numpy svd", "svd", "svd", "prcomp", none, np_svd),
        ("scipy eigh(cov)", "cov", "covariance", "numpy", none, sc_eigh),
        ("scipy svds", "svd", "iterative", "prcomp", none, sc_svds),
        ("purepca covariance", "cov", "covariance", "sklearn", none, pp("covariance")),
        ("purepca svd", "svd", "svd", "sklearn", none, pp("svd")),
        ("purepca krylov", "svd", "iterative", "sklearn", none, pp("krylov")),
    ]


# ------------------------------------------------------------------ errors against the truth


def errors(result: Any, X: list[list[float]], truth: Any, convention: str) -> tuple[list[float], list[float]]:
    """Relative-to-scale eigenvalue errors and component angles (lone eigenvalues only) against the truth."""
    from purepca.testing.compare import _extract

    n, d = len(X), len(X[0])
    got = _extract(result, d, n, n - truth.ddof)
    vals = [float(v) for v in got.get("explained_variance_", [])]
    top = max(abs(v) for v in truth.unit_spectrum) or 1.0
    ev = []
    for i, v in enumerate(vals[: len(truth.unit_spectrum)]):
        u = math.ldexp(v, -2 * truth.exponent) if math.isfinite(v) else v
        ev.append(abs(u - truth.unit_spectrum[i]) / top if u == u else math.inf)
    angles = []
    comps = got.get("components_")
    spec = truth.unit_spectrum
    if comps is not None:
        for i, c in enumerate(comps[: len(spec)]):
            neighbours = [abs(spec[i] - spec[j]) for j in range(len(spec)) if j != i]
            if neighbours and min(neighbours) <= 1e-6 * top or spec[i] <= 1e-12 * top:
                angles.append(math.nan)  # part of a cluster or the null space: no single vector to compare
                continue
            try:
                angles.append(subspace_distance([c], [truth.all_components[i]]))
            except Exception:
                angles.append(math.inf)
    return ev, angles


def _min_gap(truth: Any, i: int) -> float:
    spec = truth.unit_spectrum
    top = max(spec) or 1.0
    gaps = [abs(spec[i] - spec[j]) / top for j in range(len(spec)) if j != i] if i < len(spec) else []
    return max(min(gaps), 1e-300) if gaps else 1.0


def classify(mine: tuple[list[float], list[float]], best: tuple[list[float], list[float]], top_floor: float,
             truth: Any) -> str:
    """The floor is the method's nominal error: eps·λ_1 for an eigenvalue, eps·λ_1/gap for an angle."""
    worst = 0.0
    for a, b in zip(mine[0], best[0]):
        worst = max(worst, a / max(b, top_floor))
    for i, (a, b) in enumerate(zip(mine[1], best[1])):
        if a == a and b == b:
            worst = max(worst, a / max(b, top_floor / _min_gap(truth, i)))
    if worst <= 10:
        return "correct"
    if worst > 100:
        return "defect"
    return "gray"


# ------------------------------------------------------------------ the old comparison


def old_module(rev: str) -> Optional[types.ModuleType]:
    """purepca.testing as it was at git revision ``rev``: the package extracted (``git archive``) under the
    name ``purepca_before``, so its relative imports stay in it; a revision with a single testing.py is read
    into the current package's namespace as before."""
    root = Path(__file__).resolve().parent.parent
    try:
        tar = subprocess.run(["git", "archive", rev, "purepca"], capture_output=True, check=True, cwd=root).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    import atexit
    import importlib
    import io
    import shutil
    import tarfile
    import tempfile

    where = Path(tempfile.mkdtemp(prefix="oracle_matrix_before_"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(where)  # noqa: S202 - our own repository's tree
    (where / "purepca").rename(where / "purepca_before")
    sys.path.insert(0, str(where))
    if (where / "purepca_before" / "testing.py").exists():
        src = (where / "purepca_before" / "testing.py").read_text(encoding="utf-8").replace("from .", "from purepca.")
        module = types.ModuleType("old_testing")
        sys.modules["old_testing"] = module  # dataclasses look their module up
        exec(compile(src, "old_testing.py", "exec"), module.__dict__)
        return module
    return importlib.import_module("purepca_before.testing")


def old_claim(old: types.ModuleType, method: str, kw: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The claim the old comparison can take: a method it lacks as its nearest ("iterative" as "randomized",
    "incremental" as "svd"; never with a residual from the answer), and only the options it knows."""
    import inspect

    compare = old.compare_pca
    known = getattr(sys.modules.get(compare.__module__), "METHODS", ("svd", "covariance", "float32", "randomized"))
    if method not in known:
        method = {"iterative": "randomized", "incremental": "svd"}.get(method, method)
    params = inspect.signature(compare).parameters
    return method, {k2: v for k2, v in kw.items() if k2 in params}


def flagged(checks: list[Any]) -> bool:
    return any(not c.passed for c in checks)


# ------------------------------------------------------------------ main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--random", type=int, default=1000, help="correct float64 fits of random ordinary data")
    parser.add_argument("--random-larger", type=int, default=400, help="correct float64 fits of larger random data")
    parser.add_argument("--before", default=None, help="git revision of the comparison to measure side by side")
    parser.add_argument("--verbose", action="store_true", help="print every false alarm and miss")
    args = parser.parse_args()
    old = old_module(args.before) if args.before else None
    if args.before and old is None:
        print(f"(--before {args.before}: not a revision of this repository; only 'after' is measured)",
              file=sys.stderr)
    impls = implementations()
    data = kinds()
    counts = {"after": {"correct": 0, "alarms": 0, "defects": 0, "caught": 0},
              "before": {"correct": 0, "alarms": 0, "defects": 0, "caught": 0}}
    table = []
    t_start = time.process_time()
    for kind, X in data.items():
        A = np.array(X)
        n, d = A.shape
        r = min(n, d)
        k = max(1, min(3, r - 1))
        truth = reference(X, digits=50)
        fitted = {}
        X32 = A.astype(np.float32).astype(np.float64)
        try:
            truth32 = reference(X32.tolist(), digits=50) if np.all(np.isfinite(X32)) else None
        except Exception:  # noqa: BLE001 - the data do not survive float32 (all zero, say)
            truth32 = None
        for name, cls, _method, _conv, _options, fit in impls:
            try:
                fitted[name] = fit(X32 if cls == "f32" else A, k)
            except Exception as err:  # noqa: BLE001 - a crash is not a comparison
                fitted[name] = err
        best = {}
        for cls_name, anchor in (("svd", "sklearn full"), ("cov", "numpy eigh(cov)"), ("f32", "sklearn full float32")):
            res = fitted.get(anchor)
            data_c, truth_c = (X32.tolist(), truth32) if cls_name == "f32" else (X, truth)
            best[cls_name] = (errors(res, data_c, truth_c, "sklearn") if not isinstance(res, Exception)
                              and truth_c is not None else ([], []))
        row = [kind]
        for name, cls, method, conv, options, _fit in impls:
            res = fitted[name]
            if isinstance(res, Exception):
                row.append("err")
                continue
            Xc, truth_c = (X32.tolist(), truth32) if cls == "f32" else (X, truth)
            if truth_c is None:
                row.append("n/a")
                continue
            mine = errors(res, Xc, truth_c, "sklearn")
            base = best["svd"] if cls == "svd" else best["cov"]
            if cls == "f32":
                base = best["f32"]
            kw: dict[str, Any] = options(A)
            if method == "auto":  # scikit-learn's PCA(): the method of the solver it chose (fitted._fit_svd_solver)
                method = SOLVER_METHOD[res._fit_svd_solver]
            label = classify(mine, base, 2.0 ** -23 if cls == "f32" else 2.0 ** -52, truth_c)
            try:
                after = flagged(compare_pca(res, Xc, convention=conv, method=method, **kw))
            except Exception as err:  # noqa: BLE001
                after = True
                if args.verbose:
                    print(f"  raised on {kind} / {name}: {err}")
            cell = {"correct": "ok" if not after else "FALSE ALARM", "defect": "caught" if after else "MISSED",
                    "gray": "~" + ("flag" if after else "pass")}[label]
            row.append(cell)
            if label == "correct":
                counts["after"]["correct"] += 1
                counts["after"]["alarms"] += after
            elif label == "defect":
                counts["after"]["defects"] += 1
                counts["after"]["caught"] += after
            if args.verbose and cell in ("FALSE ALARM", "MISSED"):
                checks = compare_pca(res, Xc, convention=conv, method=method, **kw)
                print(f"  {cell}: {kind} / {name}: " + "; ".join(c.line() for c in checks if not c.passed)[:300])
            if old is not None:
                try:
                    omethod, okw = old_claim(old, method, kw)
                    before = flagged(old.compare_pca(res, Xc, convention=conv, method=omethod, **okw))
                except Exception:  # noqa: BLE001
                    before = True
                if label == "correct":
                    counts["before"]["correct"] += 1
                    counts["before"]["alarms"] += before
                elif label == "defect":
                    counts["before"]["defects"] += 1
                    counts["before"]["caught"] += before
        table.append(row)
    names = [i[0] for i in impls]
    print(f"## Matrix: {len(impls)} implementations x {len(data)} kinds of data "
          f"({time.process_time() - t_start:.0f} s CPU)\n")
    print("| data | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for row in table:
        print("| " + " | ".join(row) + " |")
    for when in ("before", "after") if old is not None else ("after",):
        c = counts[when]
        print(f"\n{when}: false alarms {c['alarms']} of {c['correct']} correct answers "
              f"({100 * c['alarms'] / max(1, c['correct']):.1f} %); defects caught {c['caught']} of {c['defects']}")
    # Detection ratios: tolerance / what scikit-learn's full SVD reaches.
    ratios_v, ratios_a, old_v, old_a = [], [], [], []
    from sklearn.decomposition import PCA as SkPCA
    for X in data.values():
        truth = reference(X, digits=50)
        fit = SkPCA(svd_solver="full").fit(np.array(X))
        ev, ang = errors(fit, X, truth, "sklearn")
        exact = {"explained_variance_": truth.explained_variance_, "components_": truth.components_}
        checks = compare_pca(exact, X, ref=truth)
        old_checks = old.compare_pca(exact, X) if old is not None else []
        top = max(truth.unit_spectrum)
        for i, e in enumerate(ev):
            c = next((c for c in checks if c.quantity == f"explained_variance_[{i}]"), None)
            if c is None or e <= 0 or truth.unit_spectrum[i] <= 1e-10 * top:
                continue
            ratios_v.append(c.tolerance / math.ldexp(e * top, 2 * truth.exponent))  # e: in units of 4**exponent
            o = next((c for c in old_checks if c.quantity == f"explained_variance_[{i}]"), None)
            if o is not None:
                old_v.append(o.tolerance / (e * truth.spectrum[0]))
        for i, a in enumerate(ang):
            c = next((c for c in checks if c.quantity == f"components_[{i}]"), None)
            if c is None or not a == a or a <= 0:
                continue
            ratios_a.append(c.tolerance / a)
            o = next((c for c in old_checks if c.quantity == f"components_[{i}]"), None)
            if o is not None and o.tolerance == o.tolerance:
                old_a.append(o.tolerance / a)
    print("\n## Detection: smallest flagged injected error / scikit-learn full's actual error (medians)\n")
    print("| | eigenvalues | angles |\n|---|---|---|")
    if old is not None:
        print(f"| before | {statistics.median(old_v):.0f}x | {statistics.median(old_a):.0f}x |")
    print(f"| after | {statistics.median(ratios_v):.1f}x | {statistics.median(ratios_a):.1f}x |")
    # Random ordinary data (and larger random data): correct float64 fits.
    for label, make_data, count in (("random ordinary data", random_ordinary, args.random),
                                    ("larger random data (n 5-2,000, d 2-30, offsets to 1e6)", random_larger,
                                     args.random_larger)):
        rng = random.Random(12345)
        alarms = 0
        fits = 0
        t0 = time.process_time()
        makers: list[tuple[str, str, Callable[[np.ndarray], Any]]] = [
            ("sklearn", "svd", lambda A: SkPCA(svd_solver="full").fit(A)),
            ("numpy", "covariance", lambda A: np.linalg.eigh(np.cov(A, rowvar=False))),
            ("numpy", "covariance", lambda A: __import__("scipy.linalg").linalg.eigh(np.cov(A, rowvar=False))),
            ("numpy", "svd", lambda A: np.linalg.svd(A - A.mean(axis=0), full_matrices=False)),
        ]
        while fits < count:
            X = make_data(rng)
            A = np.array(X)
            for conv, method, make in makers:
                if fits >= count:
                    break
                fit = make(A)
                if len(fit) == 3 if isinstance(fit, tuple) else False:
                    _, s_, vt = fit
                    fit = {"explained_variance_": s_ ** 2 / (len(X) - 1), "components_": vt}
                fits += 1
                checks = compare_pca(fit, X, method=method, convention=conv)
                if flagged(checks):
                    alarms += 1
                    if args.verbose:
                        print(f"  random false alarm ({conv}, {method}, {len(X)}x{len(X[0])}):",
                              "; ".join(c.line() for c in checks if not c.passed)[:300])
        print(f"\n## {fits} correct float64 fits of {label} (scikit-learn full, numpy eigh(cov) and svd, scipy "
              f"eigh(cov)): {alarms} false alarms ({time.process_time() - t0:.0f} s CPU)")

if __name__ == "__main__":
    main()
