"""Time PCA, Kernel PCA and the eigensolvers side by side: purepca, the code
before a change (``--baseline``), textbook pure Python, mpmath and
numpy/scikit-learn where installed, on CPython and PyPy, in one run.

Run from the repository root:

    python3 benchmarks/bench_pca.py                          # everything (about an hour)
    python3 benchmarks/bench_pca.py --quick                  # small sizes, a few minutes
    python3 benchmarks/bench_pca.py --baseline /tmp/old      # beside an older checkout
    python3 benchmarks/bench_pca.py --sections eigh,kernel   # some tables only
    python3 benchmarks/bench_pca.py --sections summary --baseline /tmp/old
        # issue 24's workloads on CPython (this one), 3.13 and PyPy in one table

Every cell runs in a fresh worker process of the interpreter named at the top
of its table (so a crash or a runaway cell cannot spoil the others, and
memory is measured per cell); the repeats of a row alternate between the
implementations, so a noisy neighbour slows them alike.  A cell is the median
of its repeats; a cell over ``--budget`` seconds is stopped and shown as
``>budget``, and its ratio as a lower bound.  Ratios are "other time /
purepca time": above 1 means purepca is faster.

What the columns are:

* *purepca*: this checkout.  *before*: the checkout given by ``--baseline``
  (the same call on the code before the change).
* *textbook*: the same path as a student writes it first: covariance by row
  loops (``C[i][j] += (x_i - m_i)(x_j - m_j)``), cyclic Jacobi updating whole
  rows and columns, power iteration with deflation for the top k, scores as
  ``sum((x - m)·w)``.  Correct, but without compensated sums, relative
  stopping tests or any care for speed.
* *numpy/sklearn*: scikit-learn's PCA (``svd_solver="full"``, or
  ``"arpack"`` for the top k) and numpy's ``eigh``, for scale only.
* *mpmath*: ``mpmath.eigsy`` at 53 bits, the other pure-Python eigensolver.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from textbook import textbook_jacobi  # noqa: E402  (the same textbook Jacobi in both benchmarks)

# ----------------------------------------------------------------- workers
#
# A worker is this file run with --worker: it builds the data from a seed,
# runs one call of one implementation, and prints the seconds it took (data
# generation excluded) as JSON.


def _data(n: int, d: int, seed: int, kind: str) -> list[list[float]]:
    import math
    import random

    rng = random.Random(seed)
    if kind == "lowrank":
        # rank 10 signal plus noise 0.1 (the square case of the issue)
        basis = [[rng.gauss(0.0, 1.0) for _ in range(d)] for _ in range(10)]
        rows = []
        for _ in range(n):
            w = [rng.gauss(0.0, 3.0 / (1 + j)) for j in range(10)]
            rows.append([sum(wj * b[i] for wj, b in zip(w, basis)) / math.sqrt(d) * 10 + rng.gauss(0.0, 0.1) for i in range(d)])
        return rows
    scales = [1.0 / (1.0 + 0.2 * j) for j in range(d)]
    return [[rng.gauss(0.0, s) for s in scales] for _ in range(n)]


def textbook_covariance(X: list[list[float]]) -> list[list[float]]:
    n, d = len(X), len(X[0])
    mean = [0.0] * d
    for row in X:
        for j in range(d):
            mean[j] += row[j]
    mean = [m / n for m in mean]
    C = [[0.0] * d for _ in range(d)]
    for row in X:
        c = [x - m for x, m in zip(row, mean)]
        for i in range(d):
            ci, Ci = c[i], C[i]
            for j in range(d):
                Ci[j] += ci * c[j]
    return [[v / (n - 1) for v in row] for row in C]


def textbook_power(apply: Any, d: int, k: int, tol: float = 1e-10, max_iter: int = 5000) -> list[list[float]]:
    """Power iteration with Hotelling deflation, stopped on the change of the vector."""
    import math
    import random

    rng = random.Random(0)
    found: list[tuple[float, list[float]]] = []
    for _ in range(k):
        v = [rng.gauss(0.0, 1.0) for _ in range(d)]
        lam = 0.0
        for _it in range(max_iter):
            w = apply(v)
            for mu, u in found:
                c = sum(a * b for a, b in zip(u, v))
                w = [wi - mu * c * ui for wi, ui in zip(w, u)]
            nw = math.sqrt(sum(x * x for x in w))
            w = [x / nw for x in w]
            change = math.sqrt(sum((a - b) ** 2 for a, b in zip(w, v)))
            v, lam = w, nw
            if change < tol:
                break
        found.append((lam, v))
    return [u for _, u in found]


def textbook_fit(X: list[list[float]], k: Optional[int]) -> Any:
    n, d = len(X), len(X[0])
    if k is None:
        if n >= d:
            return textbook_jacobi(textbook_covariance(X))
        # wide: the n x n Gram matrix, Jacobi, then v = Xcᵀu
        mean = [sum(col) / n for col in zip(*X)]
        Z = [[x - m for x, m in zip(row, mean)] for row in X]
        G = [[sum(a * b for a, b in zip(r, s)) for s in Z] for r in Z]
        _, U = textbook_jacobi(G)
        return [[sum(Z[i][j] * u[i] for i in range(n)) for j in range(d)] for u in U]
    mean = [sum(col) / n for col in zip(*X)]
    Z = [[x - m for x, m in zip(row, mean)] for row in X]
    cols = [list(c) for c in zip(*Z)]

    def apply(v: list[float]) -> list[float]:
        Zv = [sum(a * b for a, b in zip(row, v)) for row in Z]
        return [sum(a * b for a, b in zip(col, Zv)) for col in cols]

    return textbook_power(apply, d, k)


def textbook_transform(X: list[list[float]], mean: list[float], W: list[list[float]]) -> list[list[float]]:
    return [[sum((x - m) * w for x, m, w in zip(row, mean, comp)) for comp in W] for row in X]


def _run_worker(spec: dict[str, Any]) -> dict[str, Any]:
    impl, op = spec["impl"], spec["op"]
    root = spec.get("root") or str(ROOT)
    sys.path.insert(0, root)
    import purepca

    if not str(Path(purepca.__file__).resolve()).startswith(str(Path(root).resolve())):
        raise SystemExit(f"worker: purepca came from {purepca.__file__}, not from {root}")
    n, d, k = spec.get("n", 0), spec.get("d", 0), spec.get("k")
    X = _data(n, d, spec.get("seed", 0), spec.get("kind", "gauss")) if n else None
    t0 = time.perf_counter()
    if op in ("fit", "transform"):
        if impl in ("purepca", "before"):
            from purepca import PCA

            kwargs: dict[str, Any] = {"n_components": k}
            if spec.get("n_jobs"):
                kwargs["n_jobs"] = spec["n_jobs"]
            if spec.get("solver"):
                kwargs["solver"] = spec["solver"]
            if op == "fit":
                t0 = time.perf_counter()
                pca = PCA(**kwargs).fit(X)
            else:
                pca = PCA(**kwargs).fit(X)
                t0 = time.perf_counter()
                pca.transform(X)
        elif impl == "textbook":
            if op == "fit":
                textbook_fit(X, k)  # type: ignore[arg-type]
            else:
                assert X is not None
                mean = [sum(col) / len(X) for col in zip(*X)]
                W = [[1.0 if i == j else 0.0 for j in range(d)] for i in range(min(n, d) if k is None else k)]
                t0 = time.perf_counter()
                textbook_transform(X, mean, W)
        elif impl == "sklearn":
            import numpy as np
            from sklearn.decomposition import PCA as SK

            A = np.array(X)
            t0 = time.perf_counter()
            solver = "full" if k is None else "arpack"
            model = SK(k, svd_solver=solver).fit(A)
            if op == "transform":
                t0 = time.perf_counter()
                model.transform(A)
        else:
            raise SystemExit(f"no {impl} for {op}")
    elif op == "eigh":
        from purepca import covariance_matrix

        C = covariance_matrix(_data(2 * d, d, d, "gauss"))
        t0 = time.perf_counter()
        if impl in ("jacobi", "tridiagonal"):
            from purepca import eigh

            eigh(C, method=impl)
        elif impl == "before":
            from purepca import jacobi_eigh

            jacobi_eigh(C)
        elif impl == "textbook":
            textbook_jacobi(C)
        elif impl == "mpmath":
            import mpmath

            with mpmath.workprec(53):
                mpmath.eigsy(mpmath.matrix(C))
        elif impl == "numpy":
            import numpy as np

            A = np.array(C)
            t0 = time.perf_counter()
            np.linalg.eigh(A)
    elif op == "kernel":
        X = _data(n, d, 1, "gauss")
        if impl in ("purepca", "before"):
            from purepca import KernelPCA

            t0 = time.perf_counter()
            KernelPCA(k, kernel="rbf").fit(X)
        elif impl == "sklearn":
            import numpy as np
            from sklearn.decomposition import KernelPCA as SKK

            A = np.array(X)
            t0 = time.perf_counter()
            SKK(k, kernel="rbf", eigen_solver="dense" if k is None else "arpack").fit(A)
    elif op == "stream":
        import csv

        from purepca import PCA

        with open(spec["csv"], newline="") as f:
            reader = csv.reader(f)
            next(reader)
            if impl == "purepca":
                PCA().fit_stream([float(x) for x in row] for row in reader)
            # impl "bare": the interpreter with purepca and csv imported, nothing read
    else:
        raise SystemExit(f"unknown op {op}")
    seconds = time.perf_counter() - t0
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {"seconds": seconds, "peak_kib": peak}


# ------------------------------------------------------------------ driver


def run_cell(python: str, spec: dict[str, Any], budget: float) -> Optional[dict[str, Any]]:
    """One worker run; None when it went over the budget or failed."""
    env = dict(os.environ)
    if spec.get("impl") in ("sklearn", "numpy"):
        # One BLAS thread: on a shared machine OpenBLAS's spinning threads made scikit-learn's
        # 10,000 x 50 fit 40x slower (0.85 s against 20 ms); one thread is its fast case here.
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env.setdefault(name, "1")
    try:
        out = subprocess.run(
            [python, str(Path(__file__).resolve()), "--worker", json.dumps(spec)],
            capture_output=True,
            text=True,
            timeout=budget,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def fmt_time(t: Optional[float], budget: float) -> str:
    if t is None:
        return f">{budget:.0f} s"
    if t >= 1:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.1f} ms"
    return f"{t * 1e6:.0f} µs"


def fmt_ratio(other: Optional[float], ours: Optional[float], budget: float) -> str:
    if ours is None:
        return "n/a"
    if other is None:
        return f">{budget / ours:.1f}x"
    return f"{other / ours:.2f}x"


class Table:
    def __init__(self, python: str, repeats: int, budget: float) -> None:
        self.python, self.repeats, self.budget = python, repeats, budget

    def row(self, specs: dict[str, Optional[dict[str, Any]]]) -> dict[str, Optional[float]]:
        """Median seconds per implementation; the repeats alternate between them."""
        times: dict[str, list[float]] = {name: [] for name in specs}
        dead: set[str] = set()
        for _ in range(self.repeats):
            for name, spec in specs.items():
                if spec is None or name in dead:
                    continue
                r = run_cell(self.python, spec, self.budget)
                if r is None or "error" in r:
                    dead.add(name)
                    if r is not None:
                        print(f"#   {name}: {r['error']}", file=sys.stderr)
                    continue
                times[name].append(r["seconds"])
        return {name: (None if name in dead or not ts else statistics.median(ts)) for name, ts in times.items()}


def have(python: str, module: str) -> bool:
    return subprocess.run([python, "-c", f"import {module}"], capture_output=True).returncode == 0


def interpreter_line(python: str) -> str:
    code = "import platform, sys; print(platform.python_implementation(), platform.python_version(), platform.machine())"
    return subprocess.run([python, "-c", code], capture_output=True, text=True).stdout.strip()


def pca_tables(t: Table, baseline: Optional[str], quick: bool, sk: bool, sizes: Optional[str] = None) -> None:
    cases = [(2_000, 20, "gauss"), (200, 100, "gauss")] if quick else [
        (10_000, 50, "gauss"), (100_000, 10, "gauss"), (200, 1_000, "gauss"), (500, 2_000, "gauss"), (2_000, 2_000, "lowrank")
    ]
    if sizes:  # --sizes 10000x50,100000x10: only these shapes (Gaussian data)
        cases = [(int(n), int(d), "gauss") for n, d in (size.split("x") for size in sizes.split(","))]
    for op, title in (("fit", "PCA().fit (all components)"), ("fit5", "PCA(5).fit (top 5: auto, and the Krylov path)"), ("transform", "transform onto all components")):
        print(f"\n## {title}\n")
        extra = " | n_jobs=2 | textbook/n_jobs=2" if op == "fit" else ""
        print(f"| n x d | purepca | before | textbook | sklearn | before/purepca | textbook/purepca{extra} |")
        print("|---|---|---|---|---|---|---|" + ("---|---|" if op == "fit" else ""))
        for n, d, kind in cases:
            if op != "fit5" and kind == "lowrank":
                continue  # the square case: top 5 only
            k = 5 if op == "fit5" else None
            base = {"n": n, "d": d, "k": k, "kind": kind, "op": "transform" if op == "transform" else "fit"}
            specs: dict[str, Optional[dict[str, Any]]] = {
                "purepca": dict(base, impl="purepca"),
                "before": dict(base, impl="before", root=baseline) if baseline else None,
                "textbook": dict(base, impl="textbook"),
                "sklearn": dict(base, impl="sklearn") if sk else None,
            }
            if op == "fit":
                specs["jobs2"] = dict(base, impl="purepca", n_jobs=2)
            if op == "fit5":
                specs["krylov"] = dict(base, impl="purepca", solver="krylov")
            r = t.row(specs)
            b = t.budget
            cells = [
                f"{n:,} x {d:,}",
                fmt_time(r["purepca"], b),
                fmt_time(r["before"], b) if baseline else "n/a",
                fmt_time(r["textbook"], b),
                fmt_time(r["sklearn"], b) if sk else "n/a",
                fmt_ratio(r["before"], r["purepca"], b) if baseline else "n/a",
                fmt_ratio(r["textbook"], r["purepca"], b),
            ]
            if op == "fit":
                cells += [fmt_time(r["jobs2"], b), fmt_ratio(r["textbook"], r["jobs2"], b)]
            if op == "fit5":
                cells[0] += f" (krylov: {fmt_time(r['krylov'], b)}, before/krylov {fmt_ratio(r['before'], r['krylov'], b) if baseline else 'n/a'})"
            print("| " + " | ".join(cells) + " |", flush=True)


def eigh_table(t: Table, baseline: Optional[str], quick: bool, numpy: bool, mp: bool) -> None:
    sizes = [20, 50] if quick else [50, 100, 200, 300, 500]
    print("\n## eigh of a d x d covariance: Jacobi and tridiagonal side by side\n")
    print("| d | tridiagonal | jacobi | textbook Jacobi | mpmath.eigsy | numpy | jacobi/tridiagonal | textbook/jacobi | textbook/tridiagonal |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in sizes:
        base = {"d": d, "op": "eigh"}
        specs: dict[str, Optional[dict[str, Any]]] = {
            "tridiagonal": dict(base, impl="tridiagonal"),
            "jacobi": dict(base, impl="jacobi"),
            "textbook": dict(base, impl="textbook") if d <= 200 else None,
            "mpmath": dict(base, impl="mpmath") if mp and d <= 100 else None,
            "numpy": dict(base, impl="numpy") if numpy else None,
        }
        r = t.row(specs)
        b = t.budget
        print(
            f"| {d} | {fmt_time(r['tridiagonal'], b)} | {fmt_time(r['jacobi'], b)} | "
            f"{fmt_time(r['textbook'], b) if specs['textbook'] else 'not run'} | "
            f"{fmt_time(r['mpmath'], b) if specs['mpmath'] else 'n/a'} | {fmt_time(r['numpy'], b) if numpy else 'n/a'} | "
            f"{fmt_ratio(r['jacobi'], r['tridiagonal'], b)} | "
            f"{fmt_ratio(r['textbook'], r['jacobi'], b) if specs['textbook'] else 'n/a'} | "
            f"{fmt_ratio(r['textbook'], r['tridiagonal'], b) if specs['textbook'] else 'n/a'} |",
            flush=True,
        )


def kernel_table(t: Table, baseline: Optional[str], quick: bool, sk: bool) -> None:
    n = 120 if quick else 300
    print(f"\n## KernelPCA(kernel='rbf') on {n} points, 4 features\n")
    print("| components | purepca | before | sklearn | before/purepca |")
    print("|---|---|---|---|---|")
    for k in (None, 10):
        base = {"n": n, "d": 4, "k": k, "op": "kernel"}
        r = t.row({
            "purepca": dict(base, impl="purepca"),
            "before": dict(base, impl="before", root=baseline) if baseline else None,
            "sklearn": dict(base, impl="sklearn") if sk else None,
        })
        b = t.budget
        print(f"| {'all' if k is None else k} | {fmt_time(r['purepca'], b)} | {fmt_time(r['before'], b) if baseline else 'n/a'} | "
              f"{fmt_time(r['sklearn'], b) if sk else 'n/a'} | {fmt_ratio(r['before'], r['purepca'], b) if baseline else 'n/a'} |", flush=True)


def stream_table(python: str, rows: int, budget: float) -> None:
    print(f"\n## fit_stream over a {rows:,} x 20 CSV (csv module), peak memory\n")
    tmp = Path(tempfile.mkdtemp())
    path = tmp / "data.csv"
    import random

    rng = random.Random(5)
    with open(path, "w") as f:
        f.write(",".join(f"x{j}" for j in range(20)) + "\n")
        for _ in range(rows):
            f.write(",".join(f"{rng.gauss(0.0, 1.0 + j):.6f}" for j in range(20)) + "\n")
    size = path.stat().st_size
    bare = run_cell(python, {"impl": "bare", "op": "stream", "csv": str(path)}, budget)
    full = run_cell(python, {"impl": "purepca", "op": "stream", "csv": str(path)}, budget)
    shutil.rmtree(tmp)
    print("| file | bare interpreter peak | fit_stream peak | difference | time |")
    print("|---|---|---|---|---|")
    if bare is None or full is None or "error" in bare or "error" in full:
        print(f"| {size / 2**20:.0f} MiB | failed or over budget | | | |")
        return
    diff = (full["peak_kib"] - bare["peak_kib"]) / 1024
    print(f"| {size / 2**20:.0f} MiB | {bare['peak_kib'] / 1024:.1f} MiB | {full['peak_kib'] / 1024:.1f} MiB | "
          f"{diff:.1f} MiB | {fmt_time(full['seconds'], budget)} |", flush=True)


#: The workloads of issue 24's acceptance: (title, op, n, d, k).
SUMMARY = [
    ("PCA().fit 10,000 x 50", "fit", 10_000, 50, None),
    ("transform 10,000 x 50", "transform", 10_000, 50, None),
    ("PCA().fit 100,000 x 10", "fit", 100_000, 10, None),
    ("PCA().fit 500 x 2,000", "fit", 500, 2_000, None),
    ("PCA(5).fit 500 x 2,000", "fit", 500, 2_000, 5),
]


def summary_table(pythons: list[str], baseline: Optional[str], repeats: int, budget: float,
                  only: Optional[str] = None) -> None:
    """One table, every interpreter side by side: the acceptance workloads, with the checkout
    before the change, the textbook and scikit-learn (where that interpreter has it) in the same
    run, the repeats of a row alternating between them."""
    lines = {python: interpreter_line(python) for python in pythons}
    print("\n## Side by side: " + "; ".join(lines[p] for p in pythons) + "\n")
    print(f"medians of {repeats}; ratios are other time / purepca time (above 1: purepca faster); "
          "purepca/sklearn is how many times slower purepca is than scikit-learn\n")
    print("| workload | interpreter | purepca | before | textbook | sklearn | before/purepca | textbook/purepca | purepca/sklearn |")
    print("|---|---|---|---|---|---|---|---|---|")
    wanted = None if only is None else {w.strip() for w in only.split(";")}
    for title, op, n, d, k in SUMMARY:
        if wanted is not None and title not in wanted:
            continue
        for python in pythons:
            t = Table(python, repeats, budget)
            sk = have(python, "sklearn")
            base = {"n": n, "d": d, "k": k, "kind": "gauss", "op": op}
            big = n * d >= 1_000_000 and d > 100
            r = t.row({
                "purepca": dict(base, impl="purepca"),
                "before": dict(base, impl="before", root=baseline) if baseline else None,
                "textbook": None if big else dict(base, impl="textbook"),
                "sklearn": dict(base, impl="sklearn") if sk else None,
            })
            b = budget
            name = lines[python].rsplit(" ", 1)[0]
            print(f"| {title} | {name} | {fmt_time(r['purepca'], b)} | {fmt_time(r['before'], b) if baseline else 'n/a'} | "
                  f"{'not run' if big else fmt_time(r['textbook'], b)} | {fmt_time(r['sklearn'], b) if sk else 'n/a'} | "
                  f"{fmt_ratio(r['before'], r['purepca'], b) if baseline else 'n/a'} | "
                  f"{'n/a' if big else fmt_ratio(r['textbook'], r['purepca'], b)} | "
                  f"{fmt_ratio(r['purepca'], r['sklearn'], b) if sk and r['sklearn'] else 'n/a'} |", flush=True)


def _cpython(version: str) -> Optional[str]:
    """An interpreter of this CPython version with scikit-learn if one is at hand: this checkout's
    ``.venv-X.Y`` (made as ``.ci/test`` makes it), else pyenv's."""
    local = ROOT / f".venv-{version}" / "bin" / "python"
    if local.exists():
        return str(local)
    found = sorted(Path.home().glob(f".pyenv/versions/{version}.*/bin/python"))
    return str(found[-1]) if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--sizes", default=None, help="the PCA tables for these n x d only, e.g. 10000x50,100000x10")
    parser.add_argument("--repeats", type=int, default=3, help="repeats per cell (median)")
    parser.add_argument("--budget", type=float, default=300.0, help="seconds a cell may take before it is stopped")
    parser.add_argument("--baseline", help="path of an older checkout to time beside this one")
    parser.add_argument("--pypy", default="auto", help="PyPy interpreter for a second set of tables ('none' to skip)")
    parser.add_argument("--sections", default="pca,eigh,kernel,stream", help="comma-separated: pca, eigh, kernel, stream")
    parser.add_argument("--csv-rows", type=int, default=1_000_000, help="rows of the fit_stream CSV")
    parser.add_argument("--pythons", default=None,
                        help="comma-separated interpreters for --sections summary (default: this one, "
                             "CPython 3.13 from .venv-3.13 or pyenv, and PyPy)")
    parser.add_argument("--workloads", default=None, help="summary rows to run, ';'-separated titles")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(_run_worker(json.loads(args.worker))))
        return
    sections = set(args.sections.split(","))
    if "summary" in sections:
        if args.pythons:
            chosen = args.pythons.split(",")
        else:
            chosen = [sys.executable] + [p for p in (_cpython("3.13"), shutil.which("pypy3")) if p]
        summary_table(chosen, args.baseline, args.repeats, args.budget, args.workloads)
        sections.discard("summary")
        if not sections:
            return
    pythons = [sys.executable]
    if args.pypy != "none":
        pypy = shutil.which("pypy3") if args.pypy == "auto" else args.pypy
        if pypy and platform.python_implementation() != "PyPy":
            pythons.append(pypy)
    for python in pythons:
        sk = have(python, "sklearn")
        numpy = have(python, "numpy")
        mp = have(python, "mpmath")
        print(f"\n# {interpreter_line(python)}; numpy {'yes' if numpy else 'absent'}, scikit-learn {'yes' if sk else 'absent'}, "
              f"mpmath {'yes' if mp else 'absent'}; medians of {args.repeats}; cells over {args.budget:.0f} s stopped")
        t = Table(python, args.repeats, args.budget)
        if "pca" in sections:
            pca_tables(t, args.baseline, args.quick, sk, args.sizes)
        if "eigh" in sections:
            eigh_table(t, args.baseline, args.quick, numpy, mp)
        if "kernel" in sections:
            kernel_table(t, args.baseline, args.quick, sk)
        if "stream" in sections:
            stream_table(python, 20_000 if args.quick else args.csv_rows, args.budget)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
