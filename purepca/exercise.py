"""Exercises graded against the reference rooms (issue 43): ``purepca exercise``.

=====================================  ================================================
``EXERCISES``                          name -> (file name, what to write)
``skeleton(name)``                     the text of a skeleton file to fill in
``write_skeleton(name, folder)``       write it (never over an existing file)
``grade(path, name=None)``             run a filled file in a subprocess, check it
``Check``                              one test: name, passed, message
=====================================  ================================================

The four skeletons are a Jacobi rotation, a Householder step, a power step and a
covariance.  :func:`grade` runs the learner's file **in a separate Python process**
(``python -I``) with a time limit, hands it the test inputs and reads back only
numbers; everything is judged here, against purepca's rooms (its 50-digit Jacobi,
exact fractions), with LAPACK's test ratios (``‖A − VᵀΛV‖/(n‖A‖ulp)``,
``‖I − VVᵀ‖/(n·ulp)``, and the difference from the exact step over ``n‖A‖ulp``),
each held to ``THRESHOLD``, 20 (LAPACK's own data file for these tests, ``TESTING/sep.in``,
allows 60; a correct step scores below 1 here).

The learner's file is untrusted code: the subprocess and the time limit stop a loop
that never ends and keep its output apart, but it is **not a sandbox** — the file can
do whatever your user can.  Grade only files you would run yourself.

>>> sorted(EXERCISES)
['covariance', 'householder', 'power', 'rotation']
>>> "def rotation(app, aqq, apq)" in skeleton("rotation")
True
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Optional, Sequence

from .errors import PurePCAError

__all__ = ["Check", "EXERCISES", "THRESHOLD", "TIME_LIMIT", "grade", "report", "skeleton", "write_skeleton"]

#: The test ratios must stay below this (LAPACK's ``TESTING/sep.in`` allows 60; a correct step scores below 1).
THRESHOLD = 20.0

#: Seconds a learner's file may run (all its tests together).
TIME_LIMIT = 10.0

EPS = 2.0 ** -52

EXERCISES = {
    "rotation": ("jacobi_rotation.py", "a Jacobi rotation: its (c, s), and A ← JᵀAJ, V ← rows p, q turned"),
    "householder": ("householder_step.py", "a Householder step: A ← HAH, zeros below the subdiagonal of column k"),
    "power": ("power_step.py", "a power step: w = Av/‖Av‖ and the Rayleigh quotient wᵀAw"),
    "covariance": ("covariance.py", "the sample covariance matrix (divisor n − 1) of the columns of X"),
}

_SKELETONS = {
    "rotation": '''"""Exercise: one Jacobi rotation (purepca exercise grade jacobi_rotation.py).

Fill in the two functions; use only the standard library (math).  Matrices are lists of rows.
"""
import math


def rotation(app, aqq, apq):
    """Return (c, s) of the rotation J = [[c, s], [-s, c]] (in the (p, q) plane) with
    (JᵀAJ)[p][q] = 0 for the 2 x 2 block [[app, apq], [apq, aqq]], apq != 0, taking the
    smaller angle (|s/c| <= 1).

    Use the stable formula (Rutishauser):
        theta = (aqq - app) / (2 * apq)
        t = sign(theta) / (|theta| + sqrt(theta**2 + 1))     (sign(0) = +1)
        c = 1 / sqrt(t**2 + 1),  s = t * c
    """
    raise NotImplementedError("rotation")


def rotate(A, V, p, q):
    """Apply the rotation of rotation(A[p][p], A[q][q], A[p][q]) and return (A, V):
    A becomes JᵀAJ: rows p and q AND columns p and q change (A stays symmetric), with
        new a_pp = a_pp - t * a_pq,  new a_qq = a_qq + t * a_pq,  new a_pq = a_qq = 0,
        for k not p, q:  new a_pk = c*a_pk - s*a_qk,  new a_qk = s*a_pk + c*a_qk  (and a_kp, a_kq the same);
    V holds the rotations so far as rows: new V[p] = c*V[p] - s*V[q], new V[q] = s*V[p] + c*V[q].
    You may change A and V in place; return them.  Requires A[p][q] != 0.
    """
    raise NotImplementedError("rotate")
''',
    "householder": '''"""Exercise: one Householder step of the reduction to tridiagonal form
(purepca exercise grade householder_step.py).  Standard library only; matrices are lists of rows.
"""
import math


def householder_step(A, k):
    """Return H·A·H for the symmetric n x n matrix A, where H = I - 2·v·vᵀ/(vᵀv) is the reflection
    that maps x = (A[k+1][k], ..., A[n-1][k]) onto (alpha, 0, ..., 0) and leaves the first k + 1
    coordinates alone.  Take alpha = -sign(x[0])·‖x‖ (sign(0) = +1), so that v = x - alpha·e1
    does not cancel.  If x is already (x[0], 0, ..., 0) the same formula works (v = 2·x[0]·e1);
    if x is all zero, return A unchanged.
    The result must be symmetric, with zeros in column k and row k below and right of the subdiagonal.
    """
    raise NotImplementedError("householder_step")
''',
    "power": '''"""Exercise: one step of power iteration (purepca exercise grade power_step.py).
Standard library only; a matrix is a list of rows, a vector a list.
"""
import math


def power_step(A, v):
    """Return (w, rayleigh): w = A·v / ‖A·v‖ (a unit vector, same direction as A·v) and the
    Rayleigh quotient rayleigh = wᵀ·A·w.  A·v is not zero in the tests.
    """
    raise NotImplementedError("power_step")
''',
    "covariance": '''"""Exercise: the sample covariance matrix (purepca exercise grade covariance.py).
Standard library only; X is a list of rows (samples), one column per variable.
"""
import math


def covariance(X):
    """Return the d x d covariance matrix of the columns of X (n rows, n >= 2), with divisor
    n - 1, as a list of rows.  It must keep its digits when the means are large against the
    spread (data around 1e8 with a spread of 1).
    """
    raise NotImplementedError("covariance")
''',
}

# The runner, in the learner's own process: load the file, call what the tasks say, write back numbers.
_RUNNER = r'''
import importlib.util, json, math, sys
path, out = sys.argv[1], sys.argv[2]
tasks = json.loads(sys.stdin.read())
results = []
try:
    spec = importlib.util.spec_from_file_location("learner", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
except BaseException as err:
    results = {"load": "%s: %s" % (type(err).__name__, err)}
    with open(out, "w") as f:
        json.dump(results, f)
    raise SystemExit(0)

def plain(x):
    if isinstance(x, (list, tuple)):
        return [plain(y) for y in x]
    if isinstance(x, bool):
        raise TypeError("a bool where a number belongs")
    return float(x)

def jacobi(A, n):
    V = [[float(i == j) for j in range(n)] for i in range(n)]
    for sweep in range(1, 31):
        busy = False
        for p in range(n - 1):
            for q in range(p + 1, n):
                if A[p][q] != 0 and abs(A[p][q]) > 2.0 ** -52 * math.sqrt(abs(A[p][p] * A[q][q])):
                    busy = True
                    A, V = module.rotate(A, V, p, q)
        if not busy:
            return [A, V, sweep]
    return [A, V, 31]

for task in tasks:
    try:
        if task["kind"] == "jacobi":
            A = [list(r) for r in task["args"][0]]
            value = jacobi(A, len(A))
            results.append({"value": [plain(value[0]), plain(value[1]), value[2]]})
        else:
            function = getattr(module, task["kind"])
            answer = function(*task["args"])
            try:
                results.append({"value": plain(answer)})
            except (TypeError, ValueError) as err:
                results.append({"error": "it returned %.80r, not numbers (%s)" % (answer, err)})
    except BaseException as err:
        results.append({"error": "%s: %s" % (type(err).__name__, err)})
with open(out, "w") as f:
    json.dump(results, f)
'''


@dataclass(frozen=True)
class Check:
    """One test of a graded file: its ``name``, whether it ``passed``, and a ``message`` (the
    figure measured, and when it failed, which mistake that points to and why)."""

    name: str
    passed: bool
    message: str


def skeleton(name: str) -> str:
    """The text of the skeleton of exercise ``name`` (one of :data:`EXERCISES`).

    >>> skeleton("power").splitlines()[0]
    '\"\"\"Exercise: one step of power iteration (purepca exercise grade power_step.py).'
    >>> skeleton("qr")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: exercise: no exercise 'qr'; the exercises are covariance, householder, power, rotation
    """
    if not isinstance(name, str) or name not in _SKELETONS:
        raise PurePCAError(f"exercise: no exercise {name!r:.60}; the exercises are {', '.join(sorted(EXERCISES))}")
    return _SKELETONS[name]


def write_skeleton(name: str, folder: str = ".") -> str:
    """Write the skeleton of ``name`` into ``folder`` (through purepca's one door for files) and
    return its path; an existing file is never overwritten (it may hold the learner's work).

    >>> import tempfile, os
    >>> path = write_skeleton("rotation", tempfile.mkdtemp())
    >>> os.path.basename(path)
    'jacobi_rotation.py'
    >>> write_skeleton("rotation", os.path.dirname(path))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: exercise write: .../jacobi_rotation.py exists (your work?); remove it or choose
    --folder
    """
    from .files import check_output_path, write_output
    text = skeleton(name)
    if not isinstance(folder, str):
        raise PurePCAError(f"exercise write: --folder must be a folder's name, got {type(folder).__name__} "
                           f"{folder!r:.60}")
    if not os.path.isdir(folder):
        raise PurePCAError(f"exercise write: --folder {folder}: no such directory")
    path = os.path.join(folder, EXERCISES[name][0])
    if os.path.lexists(path):
        raise PurePCAError(f"exercise write: {path} exists (your work?); remove it or choose --folder")
    check_output_path(path, "--folder")
    write_output(text.rstrip("\n"), path)
    return path


def _run(path: str, tasks: list[dict[str, Any]], time_limit: float) -> Any:
    """The learner's answers to ``tasks``, from a separate ``python -I`` process."""
    with tempfile.TemporaryDirectory(prefix="purepca-exercise-") as work:
        out = os.path.join(work, "answers.json")
        # Its standard output is dropped, its errors go to a file (only the last line is read): a file
        # that prints without end cannot fill our memory.  A session of its own, so that a timeout
        # ends whatever it started too.
        with open(os.path.join(work, "stderr.txt"), "w+b") as errors:
            process = subprocess.Popen([sys.executable, "-I", "-c", _RUNNER, os.path.abspath(path), out],
                                       stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=errors, cwd=work,
                                       start_new_session=os.name == "posix")
            try:
                process.communicate(json.dumps(tasks).encode(), timeout=time_limit)
            except subprocess.TimeoutExpired:
                _end(process)
                raise PurePCAError(f"exercise grade: {path} ran past the time limit of {time_limit:g} s "
                                   "(a loop that never ends?); nothing was graded") from None
            finally:
                _end(process)
            errors.seek(max(0, os.fstat(errors.fileno()).st_size - 4000))
            tail = errors.read().decode("utf-8", "replace").strip().splitlines()[-1:]
        try:
            with open(out, encoding="utf-8") as f:
                return json.loads(f.read())
        except (OSError, ValueError):
            raise PurePCAError(f"exercise grade: {path} stopped before answering "
                               f"({tail[0] if tail else f'exit status {process.returncode}'})") from None


def _end(process: "subprocess.Popen[bytes]") -> None:
    """End the learner's process and, on POSIX, its whole session (what it started)."""
    if os.name == "posix":
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    elif process.poll() is None:
        process.kill()
    process.wait()


def _numbers(value: Any, shape: Sequence[int]) -> Any:
    """``value`` if it is finite floats nested to ``shape`` (lists), else None."""
    if len(shape) == 0:
        return value if isinstance(value, float) and math.isfinite(value) else None
    if not isinstance(value, list) or len(value) != shape[0]:
        return None
    out = [_numbers(v, shape[1:]) for v in value]
    return None if any(v is None for v in out) else out


def _F(x: float) -> Fraction:
    return Fraction(x)


def _fro(M: Sequence[Sequence[Any]]) -> float:
    return math.sqrt(float(sum(Fraction(x) ** 2 for row in M for x in row)))


def _exact_rotation(app: float, aqq: float, apq: float) -> tuple[Decimal, Decimal]:
    """(c, s) of the rotation, from purepca's own rotation formula at 50 digits."""
    from .linalg.jacobi import _rotation
    from .numeric import DecimalContext
    ctx = DecimalContext(50)
    with ctx.local():
        _, c, s, _ = _rotation(ctx.convert(app), ctx.convert(aqq), ctx.convert(apq), ctx)
    return c, s


def _rotated(A: list[list[float]], V: list[list[float]], p: int, q: int, c: Fraction,
             s: Fraction) -> tuple[list[list[Fraction]], list[list[Fraction]]]:
    """JᵀAJ and V with rows p, q turned, exactly for the given c, s (as fractions)."""
    n = len(A)
    J = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    J[p][p], J[q][q], J[p][q], J[q][p] = c, c, s, -s
    AJ = [[sum(_F(A[i][k]) * J[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    R = [[sum(J[k][i] * AJ[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    W = [[_F(x) for x in row] for row in V]
    W[p] = [c * _F(x) - s * _F(y) for x, y in zip(V[p], V[q])]
    W[q] = [s * _F(x) + c * _F(y) for x, y in zip(V[p], V[q])]
    return [[Fraction(x) for x in row] for row in R], W


def _ratio(M: Sequence[Sequence[Any]], R: Sequence[Sequence[Any]], scale: float, n: int) -> float:
    """‖M − R‖_F / (n · scale · ulp), exactly summed."""
    diff = math.sqrt(float(sum((Fraction(x) - Fraction(y)) ** 2 for a, b in zip(M, R) for x, y in zip(a, b))))
    return diff / (n * scale * EPS) if scale > 0 else (0.0 if diff == 0 else math.inf)


A4 = [[5.0, 2.0, 0.0, 1.0], [2.0, 4.0, 1.0, 0.0], [0.0, 1.0, 3.0, 1.0], [1.0, 0.0, 1.0, 2.0]]
A5 = [[2.0 if i == j else -1.0 if abs(i - j) == 1 else 0.0 for j in range(5)] for i in range(5)]
GRADED = [[1.0, 1e-5, 1e-9], [1e-5, 1e-8, 1e-12], [1e-9, 1e-12, 1e-14]]

#: Pairs (app, aqq, apq) for rotation(): generic, a_qq < a_pp, equal diagonal entries, near-diagonal graded ones.
_PAIRS = [(5.0, 4.0, 2.0), (1.0, 3.0, -0.5), (2.0, 2.0, 1.0), (1.0, 1e-8, 1e-5), (1e-8, 1.0, -3e-9),
          (4.0, 4.0 + 1e-12, 1e-3), (1.0, 2.0, 1e-9)]


def _joined(failures: Sequence[str]) -> str:
    """The first two failures, and how many more."""
    more = len(failures) - 2
    return "; ".join(failures[:2]) + (f"; and {more} more like {'it' if more == 1 else 'them'}" if more > 0 else "")


def _check(name: str, failures: Sequence[str], broken: Sequence[str], passed_message: str) -> Check:
    """A check that fails on its own failures, and on every case the file did not answer (so that
    a file answering nothing passes nothing)."""
    if failures:
        return Check(name, False, _joined(failures))
    if broken:
        return Check(name, False, "not judged: " + _joined(broken))
    return Check(name, True, passed_message)


def _tie_hint(app: float, aqq: float, error: str, uses_atan: bool) -> str:
    """Why a rotation failed on equal diagonal entries, when it did."""
    if app != aqq or not error.startswith("ZeroDivisionError"):
        return ""
    return (" — equal diagonal entries (a_pp = a_qq): an angle from atan(2·a_pq/(a_qq − a_pp)) divides by zero there"
            + (" (your file calls atan)" if uses_atan else "")
            + "; the stable formula t = sign(θ)/(|θ| + sqrt(θ² + 1)) gives t = 1 at θ = 0")


def _grade_rotation(path: str, time_limit: float, source: str) -> list[Check]:
    tasks: list[dict[str, Any]] = [{"kind": "rotation", "args": list(pair)} for pair in _PAIRS]
    cases = [(A4, 0, 1), (A4, 0, 3), (A4, 1, 2), (GRADED, 0, 1), (A5, 2, 3)]
    for A, p, q in cases:
        n = len(A)
        tasks.append({"kind": "rotate", "args": [A, [[float(i == j) for j in range(n)] for i in range(n)], p, q]})
    jacobis = [A4, A5, GRADED]
    tasks += [{"kind": "jacobi", "args": [A]} for A in jacobis]
    answers = _run(path, tasks, time_limit)
    if isinstance(answers, dict):
        return [Check("loads", False, f"{path} does not load: {answers.get('load')}")]
    uses_atan = "atan" in source
    checks = [_rotation_check(answers, uses_atan),
              _rotate_check(cases, answers[len(_PAIRS):], uses_atan),
              _jacobi_check(jacobis, answers[len(_PAIRS) + len(cases):])]
    return checks


def _rotation_check(answers: list[dict[str, Any]], uses_atan: bool) -> Check:
    """rotation(): the smaller angle, and the exact (c, s) to a few ulps."""
    worst_angle, worst_ulps, failures = 0.0, 0.0, []
    for pair, answer in zip(_PAIRS, answers):
        app, aqq, apq = pair
        if "error" in answer:
            hint = _tie_hint(app, aqq, answer['error'], uses_atan)
            failures.append(f"rotation{pair} raised {answer['error']}{hint}")
            continue
        cs = _numbers(answer["value"], [2])
        if cs is None:
            failures.append(f"rotation{pair} returned {str(answer['value'])[:60]}, not two finite numbers (c, s)")
            continue
        c, s = cs
        ec, es = _exact_rotation(app, aqq, apq)
        if c != 0:
            worst_angle = max(worst_angle, math.degrees(abs(math.atan2(s, c))))
        if abs(s / c if c else math.inf) > 1 + 4 * EPS:
            angle = math.degrees(math.atan2(s, c))
            failures.append(f"rotation{pair} gave c = {c!r}, s = {s!r}: an angle of {angle:.2f}°, "
                            "beyond 45°: Jacobi takes the smaller angle (|t| <= 1)"
                            + ("; atan2 halved takes the wrong branch when a_qq < a_pp (your file calls atan)"
                               if uses_atan else ""))
            continue
        if (s > 0) != (es > 0) and es != 0:
            failures.append(f"rotation{pair} gave s = {s!r} where the rotation needs s = {float(es)!r}: "
                            "the wrong sign — it turns the wrong way and a_pq is not zeroed; "
                            "θ = (a_qq − a_pp)/(2·a_pq), t = sign(θ)/...")
            continue
        ulps = max(abs(Decimal(c) - ec) / ec, abs(Decimal(s) - es) / abs(es)) / Decimal(EPS)
        worst_ulps = max(worst_ulps, float(ulps))
        if ulps > 8:
            failures.append(f"rotation{pair} gave s = {s!r}, {float(ulps):.3g} ulps from the exact {float(es)!r} on a "
                            "near-diagonal pair: the stable formula t = sign(θ)/(|θ| + sqrt(θ² + 1)) keeps it within "
                            "a few ulps; atan/tan of the angle, or the root sqrt(θ² + 1) − |θ| "
                            "(which cancels for large |θ|), loses it"
                            + (" (your file calls atan)" if uses_atan else ""))
    return Check("rotation: the smaller angle, the stable formula", not failures,
                 _joined(failures) if failures else
                 f"{len(_PAIRS)} pairs (equal, graded, near-diagonal): |angle| <= {worst_angle:.2f}°, "
                 f"(c, s) within {worst_ulps:.2f} ulps of the exact rotation")


def _rotate_check(cases: list[tuple[list[list[float]], int, int]], answers: list[dict[str, Any]],
                  uses_atan: bool) -> Check:
    """rotate(): the exact rotation's effect, symmetry, the sign."""
    failures, worst = [], 0.0
    for (A, p, q), answer in zip(cases, answers):
        n = len(A)
        where = f"rotate(A, V, {p}, {q}) on the {n} x {n} {'graded matrix' if A is GRADED else 'A' + str(n)}"
        if "error" in answer:
            hint = _tie_hint(A[p][p], A[q][q], answer['error'], uses_atan)
            failures.append(f"{where} raised {answer['error']}{hint}")
            continue
        got = _numbers(answer["value"], [2, n, n])
        if got is None:
            failures.append(f"{where} did not return (A, V) as two {n} x {n} lists of finite numbers")
            continue
        M, W = got
        asym = max(abs(M[i][j] - M[j][i]) for i in range(n) for j in range(n))
        norm = _fro(A)
        if asym > 4 * EPS * norm:
            i, j = max(((i, j) for i in range(n) for j in range(n)),
                       key=lambda ij: abs(M[ij[0]][ij[1]] - M[ij[1]][ij[0]]))
            failures.append(f"{where}: A is no longer symmetric "
                            f"(A[{i}][{j}] = {M[i][j]!r}, A[{j}][{i}] = {M[j][i]!r}): "
                            "the symmetric update is missing — JᵀAJ changes columns p and q as well as rows p and q")
            continue
        ec, es = _exact_rotation(A[p][p], A[q][q], A[p][q])
        c, s = Fraction(ec), Fraction(es)
        R, Wx = _rotated(A, [[float(i == j) for j in range(n)] for i in range(n)], p, q, c, s)
        ratio = max(_ratio(M, R, norm, n), _ratio(W, Wx, 1.0, n))
        worst = max(worst, ratio)
        if ratio > THRESHOLD:
            Rm, Wm = _rotated(A, [[float(i == j) for j in range(n)] for i in range(n)], p, q, c, -s)
            block = ((p, p), (p, q), (q, p), (q, q))  # outside it, a rotation by −θ shows itself
            mask = [[x if (i, j) not in block else 0.0 for j, x in enumerate(row)] for i, row in enumerate(M)]
            masked = [[x if (i, j) not in block else Fraction(0) for j, x in enumerate(row)]
                      for i, row in enumerate(Rm)]
            if _ratio(mask, masked, norm, n) <= THRESHOLD:
                failures.append(f"{where}: rows and columns {p}, {q} are turned by −θ (wrong sign): that rotation "
                                f"leaves A[{p}][{q}] = {float(Rm[p][q]):.3g}, not 0 — check the sign of θ, t or s")
            else:
                failures.append(f"{where}: ‖A' − JᵀAJ‖/(n‖A‖ulp) = {ratio:.3g} > {THRESHOLD:g} against the exact "
                                "rotation (A[p][q] zeroed, a_pp − t·a_pq, a_qq + t·a_pq, rows and columns p, q turned)")
    return Check("rotate: the exact rotation's effect", not failures, _joined(failures) if failures else
                 f"{len(cases)} rotations: ‖A' − JᵀAJ‖/(n‖A‖ulp) and ‖V' − V·J‖/(n·ulp) <= {worst:.3g}")


def _jacobi_check(jacobis: list[list[list[float]]], answers: list[dict[str, Any]]) -> Check:
    """Jacobi with the learner's rotate: LAPACK's ratios, and the graded matrix's small eigenvalues."""
    failures, worst_a, worst_i, worst_rel = [], 0.0, 0.0, 0.0
    from .linalg.jacobi import jacobi_eigh
    from .numeric import DecimalContext
    for A, answer in zip(jacobis, answers):
        n = len(A)
        name = "the graded matrix" if A is GRADED else f"A{n}"
        if "error" in answer:
            failures.append(f"Jacobi on {name} with your rotate raised {answer['error']}"
                            + (" (on a pair with equal diagonal entries? see the tests above)"
                               if answer["error"].startswith("ZeroDivisionError") else ""))
            continue
        value = answer["value"]
        got = _numbers(value[:2], [2, n, n]) if isinstance(value, list) and len(value) == 3 else None
        if got is None:
            failures.append(f"Jacobi on {name} with your rotate gave no finite {n} x {n} A and V")
            continue
        M, W = got
        if value[2] > 30:
            failures.append(f"Jacobi on {name} with your rotate did not converge in 30 sweeps")
            continue
        lam = [M[i][i] for i in range(n)]
        back = [[sum(_F(W[k][i]) * _F(lam[k]) * _F(W[k][j]) for k in range(n)) for j in range(n)] for i in range(n)]
        ra = _ratio(A, back, _fro(A), n)
        eye = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
        VVt = [[sum(_F(x) * _F(y) for x, y in zip(W[i], W[j])) for j in range(n)] for i in range(n)]
        ri = _ratio(eye, VVt, 1.0, n)
        exact = jacobi_eigh(A, context=DecimalContext(50)).values
        rel = max(float(abs(Decimal(x) - e) / abs(e)) for x, e in zip(sorted(lam, reverse=True), exact)) / (n * EPS)
        worst_a, worst_i, worst_rel = max(worst_a, ra), max(worst_i, ri), max(worst_rel, rel)
        if ra > THRESHOLD or ri > THRESHOLD:
            failures.append(f"Jacobi on {name} with your rotate: ‖A − VᵀΛV‖/(n‖A‖ulp) = {ra:.3g}, "
                            f"‖I − VVᵀ‖/(n·ulp) = {ri:.3g} (the threshold {THRESHOLD:g})")
        elif A is GRADED and rel > THRESHOLD:
            failures.append(f"Jacobi on the graded matrix: an eigenvalue is {rel:.3g}·n·eps off in relative terms; "
                            "Jacobi with the stable rotation keeps the small ones to a few ulps")
    return Check("Jacobi with your rotate: LAPACK's ratios", not failures, _joined(failures) if failures else
                 f"A4, A5, graded: ‖A − VᵀΛV‖/(n‖A‖ulp) <= {worst_a:.3g}, ‖I − VVᵀ‖/(n·ulp) <= {worst_i:.3g}, "
                 f"eigenvalues within {worst_rel:.3g}·n·eps relative of 50 digits")


_ALPHA_HINT = ("; alpha = +sign(x0)·‖x‖ makes v = x − alpha·e1 cancel when x is near a multiple of e1 (and vanish "
               "when it is one): take alpha = −sign(x0)·‖x‖")


def _grade_householder(path: str, time_limit: float, source: str) -> list[Check]:
    near = [[4.0, 1.0, 1e-9, 2e-9], [1.0, 3.0, 0.5, 0.0], [1e-9, 0.5, 2.0, 0.1], [2e-9, 0.0, 0.1, 1.0]]
    zero = [[2.0, 0.0, 0.0], [0.0, 1.0, 0.5], [0.0, 0.5, 3.0]]
    cases = [(A4, 0), (A4, 1), (A5, 0), (near, 0), (zero, 0)]
    answers = _run(path, [{"kind": "householder_step", "args": [A, k]} for A, k in cases], time_limit)
    if isinstance(answers, dict):
        return [Check("loads", False, f"{path} does not load: {answers.get('load')}")]
    from .linalg.jacobi import jacobi_eigh
    from .numeric import DecimalContext
    zeros: list[str] = []
    similar: list[str] = []
    broken: list[str] = []
    worst_z = worst_s = 0.0
    for (A, k), answer in zip(cases, answers):
        n = len(A)
        shown = 'A' + str(n) if A in (A4, A5) else 'a ' + str(n) + ' x ' + str(n) + ' matrix'
        where = f"householder_step(A, {k}) on {shown}"
        if "error" in answer:
            hint = _ALPHA_HINT if answer["error"].startswith("ZeroDivisionError") and A is not zero else ""
            broken.append(f"{where} raised {answer['error']}"
                          + (" (x is zero: return A unchanged)" if A is zero else hint))
            continue
        M = _numbers(answer["value"], [n, n])
        if M is None:
            broken.append(f"{where} did not return an {n} x {n} list of finite numbers")
            continue
        norm = _fro(A)
        off = max([abs(M[i][k]) for i in range(k + 2, n)] + [abs(M[k][j]) for j in range(k + 2, n)] + [0.0])
        worst_z = max(worst_z, off / (n * norm * EPS))
        if off > THRESHOLD * n * norm * EPS:
            zeros.append(f"{where}: entry {off:.3g} left below the subdiagonal of column {k} "
                         f"(or right of it in row {k})"
                         + (_ALPHA_HINT if A is near else ""))
        asym = max(abs(M[i][j] - M[j][i]) for i in range(n) for j in range(n))
        exact = jacobi_eigh(A, context=DecimalContext(50)).values
        try:
            after = jacobi_eigh([[(x + y) / 2 for x, y in zip(r, c)] for r, c in zip(M, zip(*M))],
                                context=DecimalContext(50)).values
        except PurePCAError as err:
            similar.append(f"{where}: its result has no eigenvalues to compare ({err})")
            continue
        ratio = max(float(abs(x - e)) for x, e in zip(after, exact)) / (n * norm * EPS)
        ratio = max(ratio, asym / (n * norm * EPS))
        worst_s = max(worst_s, ratio)
        if ratio > THRESHOLD:
            hint = _ALPHA_HINT if A is near else ""
            similar.append(f"{where}: the eigenvalues moved by {ratio:.3g}·n‖A‖ulp (or A lost its symmetry): "
                           f"HAH is not an orthogonal similarity to rounding{hint}")
    return [_check("householder: zeros where the step puts them", zeros, broken,
                   f"{len(cases)} steps (one on A5, already tridiagonal; one with x = 0): entries left <= "
                   f"{worst_z:.3g}·n‖A‖ulp"),
            _check("householder: an orthogonal similarity (eigenvalues kept)", similar, broken,
                   f"max |λ(HAH) − λ(A)|/(n‖A‖ulp) and the asymmetry <= {worst_s:.3g} (50-digit eigenvalues)")]


def _grade_power(path: str, time_limit: float, source: str) -> list[Check]:
    cases = [(A4, [1.0, 1.0, 1.0, 1.0]), (A5, [1.0, 0.0, 0.0, 0.0, 0.0]), (A4, [1e-3, 2e-3, -1e-3, 5e-4]),
             ([[2.0, 1.0], [1.0, 2.0]], [3.0, -1.0])]
    answers = _run(path, [{"kind": "power_step", "args": [A, v]} for A, v in cases], time_limit)
    if isinstance(answers, dict):
        return [Check("loads", False, f"{path} does not load: {answers.get('load')}")]
    unit: list[str] = []
    direction: list[str] = []
    rayleigh: list[str] = []
    broken: list[str] = []
    worst = [0.0, 0.0, 0.0]
    for (A, v), answer in zip(cases, answers):
        n = len(A)
        where = f"power_step on the {n} x {n} {'A' + str(n) if A in (A4, A5) else 'matrix'} from v = {v}"
        if "error" in answer:
            broken.append(f"{where} raised {answer['error']}")
            continue
        got = answer["value"] if isinstance(answer["value"], list) and len(answer["value"]) == 2 else None
        w = _numbers(got[0], [n]) if got else None
        lam = _numbers(got[1], []) if got else None
        if w is None or lam is None:
            broken.append(f"{where} did not return (w, rayleigh): a list of {n} finite numbers and a number")
            continue
        length = math.sqrt(float(sum(_F(x) ** 2 for x in w)))
        r1 = abs(length - 1) / (n * EPS)
        Av = [sum(_F(a) * _F(x) for a, x in zip(row, v)) for row in A]
        nav = math.sqrt(float(sum(x * x for x in Av)))
        target = [float(x) / nav for x in Av]
        r2 = math.sqrt(sum((x - y) ** 2 for x, y in zip(w, target))) / (n * EPS)
        Aw = [sum(_F(a) * _F(x) for a, x in zip(row, w)) for row in A]
        exact_q = sum(_F(x) * y for x, y in zip(w, Aw)) / sum(_F(x) ** 2 for x in w)
        r3 = abs(float(_F(lam) - exact_q)) / (n * _fro(A) * EPS)
        worst = [max(worst[0], r1), max(worst[1], r2), max(worst[2], r3)]
        if r1 > THRESHOLD:
            unit.append(f"{where}: ‖w‖ = {length!r}, not 1 (|‖w‖ − 1|/(n·ulp) = {r1:.3g}): divide A·v by its norm")
        elif r2 > THRESHOLD:
            direction.append(f"{where}: w is {r2:.3g}·n·ulp from A·v/‖A·v‖" +
                             (" — it points the other way" if sum(x * y for x, y in zip(w, target)) < 0 else ""))
        if r3 > THRESHOLD and r1 <= THRESHOLD:
            rayleigh.append(f"{where}: rayleigh = {lam!r}, but wᵀAw = {float(exact_q)!r} "
                            f"({r3:.3g}·n‖A‖ulp off)")
    return [_check("power: w is a unit vector", unit, broken, f"|‖w‖ − 1|/(n·ulp) <= {worst[0]:.3g}"),
            _check("power: w points along A·v", direction, broken, f"‖w − Av/‖Av‖‖/(n·ulp) <= {worst[1]:.3g}"),
            _check("power: the Rayleigh quotient wᵀAw", rayleigh, broken, f"|ρ − wᵀAw|/(n‖A‖ulp) <= {worst[2]:.3g}")]


def _grade_covariance(path: str, time_limit: float, source: str) -> list[Check]:
    small = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.5]]
    offset = [[1e8 + x, 1e8 + 2 * y] for x, y in [(0.25, -1.0), (1.5, 0.5), (-0.75, 0.25), (2.0, 1.25), (-1.0, -0.5)]]
    cases = [small, offset, [[0.1, 0.2, 0.3], [0.4, 0.1, 0.9], [0.7, 0.8, 0.2]]]
    answers = _run(path, [{"kind": "covariance", "args": [X]} for X in cases], time_limit)
    if isinstance(answers, dict):
        return [Check("loads", False, f"{path} does not load: {answers.get('load')}")]
    divisor: list[str] = []
    accuracy: list[str] = []
    broken: list[str] = []
    worst = 0.0
    for X, answer in zip(cases, answers):
        n, d = len(X), len(X[0])
        where = f"covariance of {n} x {d} data" + (" around 1e8" if X is offset else "")
        if "error" in answer:
            broken.append(f"{where} raised {answer['error']}")
            continue
        C = _numbers(answer["value"], [d, d])
        if C is None:
            broken.append(f"{where} did not return a {d} x {d} list of finite numbers")
            continue
        cols = [[_F(x) for x in col] for col in zip(*X)]
        means = [sum(col) / n for col in cols]
        S = [[sum((a - ma) * (b - mb) for a, b in zip(ca, cb)) for cb, mb in zip(cols, means)]
             for ca, ma in zip(cols, means)]
        exact = [[x / (n - 1) for x in row] for row in S]
        scale = _fro(exact)
        ratio = _ratio(C, exact, scale, n)
        worst = max(worst, ratio)
        if ratio <= THRESHOLD:
            continue
        if _ratio(C, [[x / n for x in row] for row in S], scale, n) <= THRESHOLD:
            divisor.append(f"{where}: you divided by n; the sample covariance divides by n − 1")
        elif X is offset:
            accuracy.append(f"{where}: ‖C − C_exact‖/(n‖C‖ulp) = {ratio:.3g}: "
                            "the one-pass formula Σxy − n·x̄ȳ loses the digits when the mean is large against "
                            "the spread; centre the columns first (two passes)")
        else:
            accuracy.append(f"{where}: ‖C − C_exact‖/(n‖C‖ulp) = {ratio:.3g} > {THRESHOLD:g}")
    return [_check("covariance: divisor n − 1, the right shape", divisor, broken,
                   f"{len(cases)} data sets answered as d x d matrices"),
            _check("covariance: accuracy against exact fractions", accuracy, broken,
                   f"‖C − C_exact‖/(n‖C‖ulp) <= {worst:.3g} (one data set around 1e8)")]


_GRADERS = {"rotation": _grade_rotation, "householder": _grade_householder, "power": _grade_power,
            "covariance": _grade_covariance}


def _exercise_of(path: str) -> str:
    base = os.path.basename(path)
    for name, (file_name, _) in EXERCISES.items():
        if base == file_name:
            return name
    raise PurePCAError(f"exercise grade: {path}: which exercise is it? name the file as written "
                       f"({', '.join(f for f, _ in EXERCISES.values())}) or give --name")


def grade(path: str, name: Optional[str] = None, time_limit: float = TIME_LIMIT) -> list[Check]:
    """Grade the filled file ``path`` (exercise ``name``, else told by its file name): run it in a
    subprocess with ``time_limit`` seconds, judge its answers here.  Returns the checks.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> checks = grade(write_skeleton("power", folder))
    >>> checks[0].passed, "NotImplementedError" in checks[0].message
    (False, True)
    """
    from .params import _show, as_real
    if not isinstance(path, (str, os.PathLike)):
        raise PurePCAError(f"exercise grade: path must be a file name, got {_show(path)}")
    path = os.fspath(path)
    if not isinstance(path, str):
        raise PurePCAError(f"exercise grade: path must be a file name (text), got {_show(path)}")
    if name is not None and not isinstance(name, str):
        raise PurePCAError(f"exercise grade: name must be None or an exercise's name, got {_show(name)}")
    time_limit = as_real(time_limit, "exercise grade: time_limit", low=0.0, low_open=True, high=1e6)
    if name is None:
        name = _exercise_of(path)
    if name not in _GRADERS:
        raise PurePCAError(f"exercise grade: no exercise {name!r}; the exercises are {', '.join(sorted(EXERCISES))}")
    from .files import read_text
    source = read_text(path)
    return _GRADERS[name](path, time_limit, source)


def report(path: str, checks: Sequence[Check]) -> str:
    """The checks as lines, PASS/FAIL first, and a count.

    >>> print(report("power_step.py", [Check("power: w is a unit vector", True, "|‖w‖ − 1|/(n·ulp) <= 0")]))
    PASS  power: w is a unit vector: |‖w‖ − 1|/(n·ulp) <= 0
    power_step.py: 1 of 1 tests passed
    """
    from .params import _show
    if not isinstance(checks, (list, tuple)) or not all(isinstance(c, Check) for c in checks):
        raise PurePCAError(f"exercise report: checks must be a list of Check (from grade), got {_show(checks)}")
    lines = [f"{'PASS' if c.passed else 'FAIL'}  {c.name}: {c.message}" for c in checks]
    failed = sum(not c.passed for c in checks)
    lines.append(f"{path}: {len(checks) - failed} of {len(checks)} tests passed")
    return "\n".join(lines)


def add_exercise_parser(sub: Any) -> None:
    """The ``exercise`` subcommand (for :mod:`purepca.cli`).

    >>> import argparse
    >>> sub = argparse.ArgumentParser().add_subparsers(dest="command")
    >>> add_exercise_parser(sub)
    >>> sub.choices["exercise"].parse_args(["write", "power", "--folder", "/tmp"]).target
    'power'
    """
    p = sub.add_parser("exercise", help="skeleton files to fill in (Jacobi rotation, Householder, power, covariance), "
                       "graded against purepca's rooms",
                       description="list: the exercises; write NAME: its skeleton file into --folder; grade FILE: run "
                       "the filled file in a subprocess (untrusted code: a time limit, not a sandbox) and judge it "
                       "with LAPACK's test ratios, saying which test fails and why; exit 1 if one does.")
    p.add_argument("action", nargs="?", choices=("list", "write", "grade"), default="list", help="(default: list)")
    p.add_argument("target", nargs="?", default=None, help="write: the exercise's name; grade: the filled file")
    p.add_argument("--folder", default=".", metavar="DIR", help="where write puts the skeleton (default: .)")
    p.add_argument("--name", choices=sorted(EXERCISES), default=None,
                   help="grade: which exercise the file is (default: from its file name)")


def exercise_command(args: Any) -> None:
    """``purepca exercise``: list, write or grade (a failed test: :class:`PurePCAError`, exit status 1).

    >>> import argparse
    >>> exercise_command(argparse.Namespace(action="list", target=None))  # doctest: +ELLIPSIS
    covariance   covariance.py          the sample covariance matrix (divisor n − 1) of the columns of X
    ...
    """
    if args.action == "list":
        if args.target is not None:
            raise PurePCAError(f"exercise list: takes no argument, got {args.target!r}")
        for name in sorted(EXERCISES):
            file_name, what = EXERCISES[name]
            print(f"{name:<12} {file_name:<22} {what}")
        return
    if args.target is None:
        raise PurePCAError(f"exercise {args.action}: give " + ("the exercise's name (one of "
                           + ", ".join(sorted(EXERCISES)) + ")" if args.action == "write" else "the file to grade"))
    if args.action == "write":
        print(f"wrote {write_skeleton(args.target, args.folder)}")
        return
    if not os.path.isfile(args.target):
        raise PurePCAError(f"exercise grade: {args.target}: no such file")
    checks = grade(args.target, args.name)
    print(report(args.target, checks))
    failed = sum(not c.passed for c in checks)
    if failed:
        raise PurePCAError(f"exercise grade: {failed} of {len(checks)} tests failed (see above)")
