"""Kernel PCA through the command, and error_bounds_ (issue 24, items 5 and 6): a baseline checkout
against this one, on CPython 3.11 and 3.13, side by side in one run.

    python benchmarks/bench_kernel_bounds.py --baseline /tmp/base24b [--repeat 3]

``--baseline`` is another purepca checkout (for issue 24: ``git clone -q <repo> /tmp/base24b &&
git -C /tmp/base24b checkout -q 67e0171``); without it only this checkout is measured.  Each
measurement runs in a fresh interpreter with PYTHONPATH set to the checkout (purepca needs nothing
else), the baseline and this checkout alternating, and the table shows medians of ``--repeat``
runs: the wall time, the CPU time of the process (less sensitive to a shared machine) and the
peak resident memory (``ru_maxrss``).

Workloads:

- ``purepca kernel digits.csv --components 2``: scikit-learn's 1,797 x 64 digits (rbf, gamma
  1/64), through ``python -m purepca``, output to /dev/null; the wall time includes the start
  of the interpreter.  Needs scikit-learn (for ``load_digits``) in the interpreter running this
  script, once, to write the CSV.
- ``KernelPCA(2, kernel="rbf").fit``: the fit alone, on the same rows.
- ``error_bounds_`` of ``PCA().fit`` of 100 x 100 Gaussian rows (seed 0): the bounds alone.
"""

from __future__ import annotations

import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Runs in the measured interpreter: argv[1] is the workload, the rest its arguments; prints one
# line "BENCH wall cpu maxrss_kb" on stderr (wall measured inside: the command's own time).
CHILD = r"""
import resource, runpy, sys, time
what, args = sys.argv[1], sys.argv[2:]
def read(path):
    with open(path) as f:
        next(f)
        return [[float(x) for x in line.split(",")] for line in f if line.strip()]
if what == "command":
    sys.argv = ["purepca"] + args
    start, cpu = time.perf_counter(), time.process_time()
    try:
        runpy.run_module("purepca", run_name="__main__")
    except SystemExit:
        pass
elif what == "fit":
    from purepca import KernelPCA
    X = read(args[0])
    start, cpu = time.perf_counter(), time.process_time()
    KernelPCA(2, kernel="rbf").fit(X)
else:
    import random
    from purepca import PCA
    random.seed(0)
    X = [[random.gauss(0, 1) for _ in range(100)] for _ in range(100)]
    pca = PCA().fit(X)
    start, cpu = time.perf_counter(), time.process_time()
    pca.error_bounds_
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB; Linux keeps it across exec, so prefer:
try:
    with open("/proc/self/status") as f:
        peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
except (OSError, StopIteration):
    pass
import purepca
sys.stderr.write("\nFROM %s\nBENCH %r %r %r\n" % (purepca.__file__, wall, cpu, peak))
"""


def interpreters(wanted: list[str]) -> list[tuple[str, str]]:
    """(label, path) of the CPython interpreters asked for ("3.11", "3.13"): pyenv's, else on PATH."""
    found = []
    for version in wanted:
        paths = sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}.*/bin/python3")))
        path = paths[-1] if paths else next((os.path.join(d, f"python{version}") for d in
                                             os.environ.get("PATH", "").split(os.pathsep)
                                             if os.access(os.path.join(d, f"python{version}"), os.X_OK)), None)
        if path is None:
            print(f"(CPython {version} not found: its columns are left out)", file=sys.stderr)
            continue
        found.append((version, path))
    return found


def digits_csv(folder: str) -> str:
    from sklearn.datasets import load_digits  # only to write the CSV: purepca does not need it

    path = os.path.join(folder, "digits.csv")
    data = load_digits().data
    with open(path, "w") as f:
        f.write(",".join(f"p{j}" for j in range(data.shape[1])) + "\n")
        for row in data:
            f.write(",".join(str(int(v)) for v in row) + "\n")
    return path


def measure(python: str, checkout: str, what: str, args: list[str]) -> tuple[float, float, float, float]:
    """(wall from outside, wall inside, cpu, peak MB) of one run."""
    import time

    env = dict(os.environ, PYTHONPATH=checkout)
    start = time.perf_counter()
    # From the root of the file system: "-c" puts the current directory first on sys.path, which
    # would shadow PYTHONPATH when run from a checkout.
    done = subprocess.run([python, "-c", CHILD, what] + args, env=env, stdout=subprocess.DEVNULL, cwd=os.sep,
                          stderr=subprocess.PIPE, text=True, check=False)
    outside = time.perf_counter() - start
    line = [ln for ln in done.stderr.splitlines() if ln.startswith("BENCH ")]
    where = [ln for ln in done.stderr.splitlines() if ln.startswith("FROM ")]
    if where and not where[-1][5:].startswith(checkout):
        raise SystemExit(f"{python} imported purepca from {where[-1][5:]}, not from {checkout}")
    if done.returncode != 0 or not line:
        raise SystemExit(f"{python} on {checkout} ({what}) failed:\n{done.stderr[-2000:]}")
    wall, cpu, peak = (float(x) for x in line[-1].split()[1:])
    return outside, wall, cpu, peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="another purepca checkout to compare with")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", nargs="*", default=["3.11", "3.13"], help="CPython versions (default 3.11 3.13)")
    args = parser.parse_args()
    checkouts = ([("baseline", os.path.abspath(args.baseline))] if args.baseline else []) + [("now", HERE)]
    pythons = interpreters(args.python)
    with tempfile.TemporaryDirectory() as tmp:
        csv = digits_csv(tmp)
        workloads = [
            ("`purepca kernel digits.csv --components 2`", "command", ["kernel", csv, "--components", "2"]),
            ('`KernelPCA(2, kernel="rbf").fit` (1,797 x 64)', "fit", [csv]),
            ("`error_bounds_`, `PCA().fit` of 100 x 100", "bounds", []),
        ]
        columns = [(v, p, name, c) for v, p in pythons for name, c in checkouts]
        results: dict[tuple[str, int], list[tuple[float, float, float, float]]] = {}
        for _ in range(args.repeat):
            for w, (_, what, wargs) in enumerate(workloads):
                for version, python, name, checkout in columns:
                    results.setdefault((f"{version} {name}", w), []).append(measure(python, checkout, what, wargs))
    heads = [f"{v} {name}" for v, _, name, _ in columns]
    print(f"Medians of {args.repeat} runs; wall s / CPU s / peak MB "
          "(the command's wall includes the interpreter's start)\n")
    print("| workload | " + " | ".join(heads) + " |")
    print("|---|" + "---|" * len(heads))
    for w, (label, _, _) in enumerate(workloads):
        cells = []
        for head in heads:
            runs = results[(head, w)]
            outside = statistics.median(r[0] for r in runs)
            inside = statistics.median(r[1] for r in runs)
            cpu = statistics.median(r[2] for r in runs)
            peak = statistics.median(r[3] for r in runs)
            wall = outside if w == 0 else inside
            cells.append(f"{wall:.2f} / {cpu:.2f} / {peak:.0f}")
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
