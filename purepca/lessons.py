"""Two lessons the best courses teach, computed by purepca (issue 43): ``purepca teach --lesson NAME``.

=================================  =====================================================
``graded_matrix(n, seed, g)``      Slapničar's graded positive definite ``H = D·BᵀB·D``,
                                   ``D = exp(g·(u - 0.5))`` (lesson L4c), seeded
``stopping_lesson(seed)``          Jacobi on ``H`` under three stopping rules, each
                                   eigenvalue's digits against purepca's 50-digit run
``stopping_text(lesson)``          the lesson as a text table (what stdout shows)
``stopping_page(lesson)``          the lesson as one HTML page
``variance_along(C, angle)``       the variance an axis captures and the residual it leaves
``pc1_lesson(rows, names)``        a 2-D cloud, its covariance and purepca's PC1
``pc1_page(lesson)``               drag an axis, watch the meter, "snap to PCA"
=================================  =====================================================

**Stopping.**  Jacobi's method can stop when every ``|a_pq|`` is small against the
matrix (an *absolute* rule, ``|a_pq| <= eps·‖H‖_F``, or ulab's fixed ``1.2e-7`` in
single precision, MicroPython's numpy) or against its own row and column (the
*relative* rule of Demmel and Veselić, ``|a_pq| <= eps·sqrt(a_pp·a_qq)``).  On a
graded matrix the absolute rules stop before the small eigenvalues have been
touched: every digit of them is lost, while the relative rule keeps them.  The
three runs are purepca's own Jacobi (:func:`purepca.linalg.jacobi.jacobi_eigh`,
the absolute rules through its ``atol`` parameter; ulab's with its "largest
entry first" order and its ``20·n²`` rotations at most), judged against the same
Jacobi at 50 digits.

>>> lesson = stopping_lesson(seed=0)
>>> [run.name for run in lesson.runs]
['relative, binary64', 'absolute, binary64', 'ulab 1.2e-7, binary32']
>>> smallest = [run.digits[-1] for run in lesson.runs]
>>> smallest[0] >= 13 and smallest[1] <= 2 and smallest[2] <= 2
True

**PC1 by hand.**  The variance a unit axis ``v`` captures is ``vᵀCv``; the residual it
leaves (the mean squared distance of the centred points to the axis, with the same
divisor) is ``uᵀCu`` for ``u`` perpendicular to ``v``; the two add up to ``trace C``.
PC1 is the axis that captures most.

>>> C = [[2.0, 1.0], [1.0, 2.0]]
>>> variance_along(C, 0.0)
(2.0, 2.0)
>>> [round(x, 12) for x in variance_along(C, 0.7853981633974483)]
[3.0, 1.0]
"""

from __future__ import annotations

import decimal
import json
import math
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Optional, Sequence

from .errors import ConvergenceError, PurePCAError
from .linalg.jacobi import JacobiStep, jacobi_eigh
from .markup import escape_text, fill_template, json_for_script
from .numeric import BINARY32, FLOAT, DecimalContext
from .params import _show, as_int, as_real

__all__ = ["LESSONS", "PC1Lesson", "StoppingLesson", "StoppingRun", "graded_matrix", "pc1_lesson", "pc1_page",
           "stopping_lesson", "stopping_page", "stopping_text", "variance_along"]

#: The lessons ``purepca teach --lesson`` knows.
LESSONS = ("stopping", "pc1")

#: ulab's absolute threshold in single-precision builds (code/numpy/linalg/linalg_tools.h,
#: ``LINALG_EPSILON``), and its cap on rotations, ``JACOBI_MAX·n²`` with ``JACOBI_MAX = 20``.
ULAB_EPSILON = 1.2e-7
ULAB_ROTATIONS_PER_N2 = 20

#: The digits of the 50-digit reference run.
REFERENCE_DIGITS = 50

_DIGITS_CONTEXT = decimal.Context(prec=60, rounding=decimal.ROUND_HALF_EVEN, Emax=999999, Emin=-999999,
                                  traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow])


def graded_matrix(n: int = 6, seed: int = 0, grading: float = 50.0) -> list[list[float]]:
    """Slapničar's strongly scaled positive definite matrix (NLA notebooks, lesson L4c):
    ``D = exp(grading·(u - 0.5))`` for ``n`` uniform ``u``, then ``B`` with uniform entries,
    ``A = BᵀB`` and ``H = D·A·D`` (built symmetric: ``H[j][i]`` is ``H[i][j]``), all from
    ``random.Random(seed)``, ``exp`` correctly rounded by :mod:`decimal` (not the platform's
    libm): the same matrix on every interpreter and machine.

    >>> H = graded_matrix(3, seed=1)
    >>> len(H), all(H[i][j] == H[j][i] for i in range(3) for j in range(3))
    (3, True)
    >>> graded_matrix(1)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: graded_matrix: n must be an int >= 2, got 1
    """
    n = as_int(n, "graded_matrix: n", low=2)
    if n > 40:
        raise PurePCAError(f"graded_matrix: n must be <= 40 (a lesson, not a benchmark), got {n}")
    seed = as_int(seed, "graded_matrix: seed")
    grading = as_real(grading, "graded_matrix: grading", low=0.0)
    if grading > 100:
        raise PurePCAError(f"graded_matrix: grading must be <= 100 (D = exp(grading·(u - 0.5)) must stay "
                           f"within the float range), got {grading}")
    rng = random.Random(seed)
    with decimal.localcontext(_DIGITS_CONTEXT):  # exp correctly rounded: the same bits whatever the libm
        D = [float(Decimal(grading * (rng.random() - 0.5)).exp()) for _ in range(n)]
    B = [[rng.random() for _ in range(n)] for _ in range(n)]
    A = [[math.fsum(B[k][i] * B[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    H = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            H[i][j] = H[j][i] = D[i] * A[i][j] * D[j]
    return H


@dataclass(frozen=True)
class StoppingRun:
    """One Jacobi run of the stopping lesson: ``name``, the rule as a formula, the precision,
    the most digits that precision can hold (``cap``), the eigenvalues (descending, as floats),
    the digits each keeps against the 50-digit reference (``digits``: ``-log10`` of the relative
    error, at most ``cap``, at least 0), the rotations made and a note (why it stopped)."""

    name: str
    rule: str
    precision: str
    cap: float
    values: list[float]
    digits: list[float]
    rotations: int
    note: str


@dataclass(frozen=True)
class StoppingLesson:
    """The matrix ``H`` (with ``n``, ``seed``, ``grading``), the 50-digit eigenvalues (Decimals,
    descending) and the runs."""

    H: list[list[float]]
    n: int
    seed: int
    grading: float
    reference: list[Decimal]
    runs: list[StoppingRun]


def _digits_kept(value: float, exact: Decimal, cap: float) -> float:
    """``-log10(|value - exact| / |exact|)``, within [0, cap] (``cap`` when exact)."""
    with decimal.localcontext(_DIGITS_CONTEXT):
        x = Decimal(float(value))
        if x == exact:
            return cap
        if exact == 0:
            return 0.0
        digits = -float((abs(x - exact) / abs(exact)).log10())
    return max(0.0, min(cap, digits))


def _format_cap(bits: int) -> float:
    """The decimal digits a binary format of ``bits`` significand bits holds, rounded down to 0.1
    (15.9 for binary64, 7.2 for binary32): a figure shown never claims more."""
    return math.floor(bits * math.log10(2.0) * 10) / 10


def stopping_lesson(seed: int = 0, n: int = 6, grading: float = 50.0) -> StoppingLesson:
    """Jacobi on :func:`graded_matrix` under three stopping rules, against 50 digits.

    The runs: the relative rule in binary64 (purepca's default); the absolute rule
    ``|a_pq| <= eps·‖H‖_F`` in binary64; ulab's absolute ``1.2e-7`` in binary32, its
    largest-entry-first order (``pivot="classical"``) and at most ``20·n²`` rotations (past
    them ulab returns the diagonal it has, and so does this run, saying so).  The reference
    is the relative rule at 50 digits.

    >>> lesson = stopping_lesson(seed=1, n=3, grading=10)
    >>> len(lesson.reference), lesson.runs[0].digits[0] >= 15
    (3, True)
    """
    H = graded_matrix(n, seed, grading)
    n = len(H)
    reference = [Decimal(v) for v in jacobi_eigh(H, context=DecimalContext(REFERENCE_DIGITS)).values]
    runs = []
    cap64, cap32 = _format_cap(53), _format_cap(24)

    relative = jacobi_eigh(H)
    runs.append(StoppingRun("relative, binary64", "|a_pq| <= eps·sqrt(|a_pp·a_qq|)  (Demmel-Veselić)",
                            "binary64", cap64, [float(v) for v in relative.values],
                            [_digits_kept(v, e, cap64) for v, e in zip(relative.values, reference)],
                            relative.rotations, f"converged in {relative.sweeps} sweeps"))

    norm = float(FLOAT.norm([x for row in H for x in row]))
    atol = FLOAT.eps * norm
    absolute = jacobi_eigh(H, atol=atol)
    runs.append(StoppingRun("absolute, binary64", f"|a_pq| <= eps·‖H‖_F = {atol:.3e}", "binary64", cap64,
                            [float(v) for v in absolute.values],
                            [_digits_kept(v, e, cap64) for v, e in zip(absolute.values, reference)],
                            absolute.rotations, f"converged in {absolute.sweeps} sweeps"))

    budget = ULAB_ROTATIONS_PER_N2 * n * n
    per_sweep = n * (n - 1) // 2
    last: list[JacobiStep] = []

    def keep(step: JacobiStep) -> None:
        if step.matrix is not None:
            last[:] = [step]
    try:
        ulab = jacobi_eigh(H, context=BINARY32, atol=ULAB_EPSILON, pivot="classical",
                           max_sweeps=-(-budget // per_sweep), trace=keep)
        values, rotations, note = [float(v) for v in ulab.values], ulab.rotations, "every |a_pq| <= 1.2e-7"
    except ConvergenceError:
        matrix = last[0].matrix if last else None
        assert matrix is not None  # n <= 40 < SNAPSHOT_ORDER... the trace always carries the matrix
        values = sorted((float(matrix[i][i]) for i in range(n)), reverse=True)
        rotations = budget
        note = f"stopped by ulab's cap of 20·n² = {budget} rotations; the diagonal it had"
    runs.append(StoppingRun("ulab 1.2e-7, binary32", "max |a_pq| <= 1.2e-7, largest first  (ulab)", "binary32",
                            cap32, values, [_digits_kept(v, e, cap32) for v, e in zip(values, reference)],
                            rotations, note))
    return StoppingLesson(H, n, seed, grading, reference, runs)


def _shown(digits: float) -> str:
    """Digits to one decimal, rounded down (never above the precision stated)."""
    return f"{math.floor(digits * 10) / 10:.1f}"


def stopping_text(lesson: StoppingLesson) -> str:
    """The lesson as a text table: per eigenvalue the 50-digit value (17 digits shown) and the
    digits each rule keeps; then the smallest eigenvalue's verdict.

    >>> print(stopping_text(stopping_lesson(seed=0)).splitlines()[0])  # doctest: +ELLIPSIS
    Stopping rules for Jacobi on a graded positive definite matrix (n = 6, seed 0, D = exp(50·(u - 0.5)))
    """
    _check_lesson(lesson, StoppingLesson, "stopping_text")
    names = [run.name for run in lesson.runs]
    lines = [f"Stopping rules for Jacobi on a graded positive definite matrix (n = {lesson.n}, seed {lesson.seed}, "
             f"D = exp({lesson.grading:g}·(u - 0.5)))",
             f"digits kept per eigenvalue, against purepca's Jacobi at {REFERENCE_DIGITS} digits "
             f"(binary64 holds at most {_shown(lesson.runs[0].cap)}, binary32 {_shown(lesson.runs[-1].cap)}):",
             "  i  eigenvalue (50 digits, 17 shown)  " + "  ".join(f"{name:>22}" for name in names)]
    for i, exact in enumerate(lesson.reference):
        lines.append(f"{i + 1:>3}  {float(exact):>32.16e}  "
                     + "  ".join(f"{_shown(run.digits[i]):>22}" for run in lesson.runs))
    for run in lesson.runs:
        lines.append(f"  {run.name}: {run.rule}; {run.rotations} rotations, {run.note}")
    smallest = ", ".join(f"{run.name} {_shown(run.digits[-1])}" for run in lesson.runs)
    lines.append(f"smallest eigenvalue, {float(lesson.reference[-1]):.6e}: digits kept: {smallest}")
    return "\n".join(lines)


_STOPPING_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>%TITLE%</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; max-width: 1200px; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f4f4f4; }
.bar { display: inline-block; height: 0.8em; background: #4a7; vertical-align: middle; margin-right: 0.4em; }
.lost { color: #b00; font-weight: bold; }
code, .mono { font-family: ui-monospace, monospace; }
</style></head>
<body>
<h1>%TITLE%</h1>
<p>Jacobi's method can stop when every off-diagonal entry is small against the whole matrix
(an <em>absolute</em> rule) or against its own row and column (the <em>relative</em> rule of Demmel and
Veselić).  The matrix below is Slapničar's graded positive definite <span class="mono">H = D·BᵀB·D</span>
with <span class="mono">D = exp(%GRADING%·(u − 0.5))</span> (NLA notebooks, lesson L4c), drawn by Python's
<span class="mono">random.Random(%SEED%)</span>: its eigenvalues span %SPAN% orders of magnitude.
Each column is purepca's own Jacobi under one rule; each figure is the number of correct digits of that
eigenvalue, <span class="mono">−log10(|λ − λ<sub>50</sub>| / λ<sub>50</sub>)</span>, against the same Jacobi
run at 50 digits, rounded down and never above what the precision holds.</p>
<table id="digits">%TABLE%</table>
<table id="rules"><tr><th>run</th><th>stopping rule</th><th>precision</th><th>rotations</th><th>how it ended</th></tr>
%RULES%</table>
<p id="verdict">%VERDICT%</p>
<p>Why: an absolute rule stops as soon as the entries that couple the small diagonal entries are below a
threshold set by the <em>large</em> ones; those entries are never rotated away, and the small eigenvalues are
left as whatever the diagonal holds.  The relative rule compares each <span class="mono">a<sub>pq</sub></span>
with <span class="mono">sqrt(a<sub>pp</sub>·a<sub>qq</sub>)</span>, so it goes on until the small block is
diagonal to its own precision.  ulab (MicroPython's numpy) stops at a fixed 1.2e-7 in single precision builds
and at 20·n² rotations: a live case of the absolute rule.  purepca's relative rule also counts an entry below
eps²·‖H‖<sub>F</sub> as zero (for matrices with zero diagonal entries); on a matrix graded beyond 1/eps² that
floor costs digits too, and the table shows it: try other seeds with <span class="mono">--seed</span>.</p>
<h2>The matrix H (7 digits shown)</h2>
<table id="matrix">%MATRIX%</table>
<p>Made by <span class="mono">purepca teach --lesson stopping --seed %SEED%</span>; the numbers are computed, not typed
in.</p>
</body></html>
"""


def stopping_page(lesson: StoppingLesson, title: Optional[str] = None) -> str:
    """The stopping lesson as one self-contained HTML page (no script, no network): the digits
    table with bars, the rules, the verdict on the smallest eigenvalue, the matrix.

    >>> page = stopping_page(stopping_lesson(seed=0))
    >>> page.startswith("<!DOCTYPE html>") and 'id="digits"' in page
    True
    """
    _check_lesson(lesson, StoppingLesson, "stopping_page")
    title = "Stopping Jacobi: absolute against relative" if title is None else str(title)
    head = "<tr><th>i</th><th>λ (50 digits, 20 shown)</th>" + "".join(
        f"<th>{escape_text(run.name)}<br>digits kept (of {_shown(run.cap)})</th>" for run in lesson.runs) + "</tr>"
    rows = [head]
    for i, exact in enumerate(lesson.reference):
        with decimal.localcontext(_DIGITS_CONTEXT):
            shown = f"{exact:.19e}"
        cells = []
        for run in lesson.runs:
            d = run.digits[i]
            width = round(60 * d / 16)
            cls = ' class="lost"' if d < 1 else ""
            cells.append(f'<td{cls} title="{escape_text(repr(run.values[i]))}"><span class="bar" '
                         f'style="width:{width}px"></span>{_shown(d)}</td>')
        rows.append(f"<tr><td>{i + 1}</td><td class=\"mono\">{escape_text(shown)}</td>{''.join(cells)}</tr>")
    rules = "\n".join(f"<tr><td>{escape_text(run.name)}</td><td class=\"mono\">{escape_text(run.rule)}</td>"
                      f"<td>{escape_text(run.precision)}</td><td>{run.rotations}</td>"
                      f"<td>{escape_text(run.note)}</td></tr>"
                      for run in lesson.runs)
    verdict = "Smallest eigenvalue, " + escape_text(f"{float(lesson.reference[-1]):.6e}") + ": " + "; ".join(
        f"{escape_text(run.name)} keeps <b>{_shown(run.digits[-1])}</b> digits" for run in lesson.runs) + "."
    matrix = "\n".join("<tr>" + "".join(f'<td class="mono">{escape_text(f"{x:.6e}")}</td>' for x in row) + "</tr>"
                       for row in lesson.H)
    low, high = float(lesson.reference[-1]), float(lesson.reference[0])
    span = f"{math.log10(high / low):.0f}" if low > 0 else "many"
    return fill_template(_STOPPING_PAGE, {
        "TITLE": escape_text(title), "GRADING": escape_text(f"{lesson.grading:g}"), "SEED": str(lesson.seed),
        "SPAN": span, "TABLE": "\n".join(rows), "RULES": rules, "VERDICT": verdict, "MATRIX": matrix})


def _check_lesson(lesson: Any, kind: type, where: str) -> None:
    """A lesson page's door: ``lesson`` must be what its builder returns.

    >>> _check_lesson(None, PC1Lesson, "pc1_page")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: pc1_page: lesson must be a PC1Lesson (from pc1_lesson), got None
    """
    if not isinstance(lesson, kind):
        builder = "pc1_lesson" if kind is PC1Lesson else "stopping_lesson"
        raise PurePCAError(f"{where}: lesson must be a {kind.__name__} (from {builder}), got {_show(lesson)}")


def variance_along(C: Sequence[Sequence[float]], angle: float) -> tuple[float, float]:
    """The variance the axis at ``angle`` (radians from the first coordinate) captures,
    ``vᵀCv`` with ``v = (cos, sin)``, and the residual it leaves, ``uᵀCu`` with ``u = (-sin, cos)``
    (summed directly, not as ``trace C - vᵀCv``, which cancels when the axis is near PC1).

    >>> variance_along([[1.0, 0.0], [0.0, 4.0]], math.pi / 2)[0]
    4.0
    """
    from .linalg.matrix import as_matrix
    angle = as_real(angle, "variance_along: angle")
    M = as_matrix(C, name="variance_along: C")
    if len(M) != 2 or len(M[0]) != 2:
        raise PurePCAError(f"variance_along: C must be a 2x2 covariance matrix, got {len(M)}x{len(M[0])}")
    c, s = math.cos(angle), math.sin(angle)
    a, b, d = float(M[0][0]), float(M[0][1]), float(M[1][1])
    captured = math.fsum([c * c * a, 2.0 * c * s * b, s * s * d])
    residual = math.fsum([s * s * a, -2.0 * c * s * b, c * c * d])
    return captured, residual


@dataclass(frozen=True)
class PC1Lesson:
    """A 2-D cloud: ``names`` of its two columns, ``source``, the rows, their ``mean``, the
    covariance ``C`` (divisor n - 1), purepca's eigenvalues ``values`` and ``pc1`` (unit, its
    larger entry in absolute value positive)."""

    names: list[str]
    source: str
    rows: list[list[float]]
    mean: list[float]
    C: list[list[float]]
    values: list[float]
    pc1: list[float]


def pc1_lesson(rows: Any, names: Sequence[str] = ("x", "y"), source: str = "<data>") -> PC1Lesson:
    """The cloud's covariance (purepca's two-pass covariance) and PC1 (purepca's Jacobi).

    >>> lesson = pc1_lesson([[0, 0], [1, 1], [2, 2.5]])
    >>> C = lesson.C  # var x = 1, cov = (7/6 + 4/3)/2 = 5/4, var y = (49 + 1 + 64)/72 = 19/12
    >>> C[0], C[1][0], abs(C[1][1] - 19 / 12) < 1e-15
    ([1.0, 1.25], 1.25, True)
    >>> captured, residual = variance_along(lesson.C, math.atan2(lesson.pc1[1], lesson.pc1[0]))
    >>> abs(captured - lesson.values[0]) < 1e-15 and abs(residual - lesson.values[1]) < 1e-15
    True
    >>> pc1_lesson([[1, 2, 3], [4, 5, 6]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: the pc1 lesson draws a 2-D cloud: <data> has 3 columns; choose two with --columns
    """
    from .covariance import covariance_matrix
    from .linalg.matrix import as_matrix
    if not isinstance(names, (list, tuple)) or len(names) != 2:
        raise PurePCAError(f"pc1_lesson: names must be a list of the two column names, got {_show(names)}")
    X = as_matrix(rows, name="rows")
    if len(X[0]) != 2:
        d = len(X[0])
        raise PurePCAError(f"the pc1 lesson draws a 2-D cloud: {source} has {d} column{'s' if d != 1 else ''}; "
                           "choose two with --columns")
    if len(X) < 2:
        raise PurePCAError(f"the pc1 lesson needs at least 2 rows, {source} has {len(X)}")
    C = [[float(x) for x in row] for row in covariance_matrix(X)]
    if C[0][0] + C[1][1] == 0:
        raise PurePCAError(f"the pc1 lesson: every row of {source} is the same point; there is no axis to find")
    result = jacobi_eigh(C)
    pc1 = [float(x) for x in result.vectors[0]]
    if abs(pc1[1]) > abs(pc1[0]) and pc1[1] < 0 or abs(pc1[0]) >= abs(pc1[1]) and pc1[0] < 0:
        pc1 = [-x for x in pc1]
    mean = [math.fsum(col) / len(X) for col in zip(*X)]
    return PC1Lesson([str(n) for n in names], str(source), X, mean, C, [float(v) for v in result.values], pc1)


_PC1_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>%TITLE%</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; max-width: 1100px; }
main { display: flex; gap: 2em; flex-wrap: wrap; }
#cloud { border: 1px solid #ccc; cursor: crosshair; touch-action: none; }
#meter { width: 320px; height: 18px; border: 1px solid #999; position: relative; }
#meter-fill { height: 100%; background: #4a7; width: 0; }
#meter-best { position: absolute; top: -3px; bottom: -3px; width: 2px; background: #b00; }
td, th { padding: 0.15em 0.6em; text-align: left; }
.num { font-family: ui-monospace, monospace; text-align: right; }
button { font-size: 1em; padding: 0.3em 1em; }
</style></head>
<body>
<h1>%TITLE%</h1>
<p>The cloud is %SOURCE%, centred on its mean, drawn with one scale for both axes (so angles are true).
Drag in the picture (or move the slider) to turn the axis through the centre.  The meter shows the variance the
axis captures, <span class="num">vᵀCv</span>; the grey segments are what it leaves, whose mean square (divisor
n − 1, as the covariance) is the residual <span class="num">uᵀCu</span> (u perpendicular to v).  The two add up to
the total variance.  Find the axis that captures most, then press <b>snap to PCA</b>.</p>
<main>
<svg id="cloud" xmlns="http://www.w3.org/2000/svg" width="460" height="460" viewBox="0 0 460 460"></svg>
<section>
<p><label>angle of the axis (degrees) <input id="angle" type="range" min="-90" max="90" step="0.01" value="0"></label>
<span id="angle-value" class="num"></span></p>
<p><button id="snap">snap to PCA</button> <span id="snapped"></span></p>
<div id="meter"><div id="meter-fill"></div><div id="meter-best"></div></div>
<table>
<tr><td>variance captured, vᵀCv</td><td id="captured" class="num"></td></tr>
<tr><td>share of the total</td><td id="share" class="num"></td></tr>
<tr><td>residual, uᵀCu</td><td id="residual" class="num"></td></tr>
<tr><td>axis v</td><td id="direction" class="num"></td></tr>
</table>
<h2>What purepca computed</h2>
<table>
<tr><td>covariance C</td><td id="cov" class="num"></td></tr>
<tr><td>λ₁ (variance along PC1)</td><td id="lambda1" class="num"></td></tr>
<tr><td>λ₂ (the residual it leaves)</td><td id="lambda2" class="num"></td></tr>
<tr><td>PC1</td><td id="pc1" class="num"></td></tr>
</table>
<p>C, λ₁, λ₂ and PC1 are purepca's (its two-pass covariance and its Jacobi), embedded in the page; the page's
script evaluates only the quadratic forms vᵀCv and uᵀCu from the embedded C, in double precision, as you turn
the axis.  Snapping sets v to purepca's PC1 exactly.</p>
</section>
</main>
<script id="lesson-data" type="application/json">%DATA%</script>
<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("lesson-data").textContent);
  const C = data.C, svg = document.getElementById("cloud"), NS = "http://www.w3.org/2000/svg";
  const size = 460, centre = size / 2;
  let extent = 0;
  for (const p of data.points) { extent = Math.max(extent, Math.abs(p[0]), Math.abs(p[1])); }
  const scale = extent > 0 ? (centre - 20) / extent : 1;
  const X = (x) => centre + scale * x, Y = (y) => centre - scale * y;
  function el(name, attrs) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) { e.setAttribute(k, attrs[k]); }
    svg.appendChild(e);
    return e;
  }
  el("line", {x1: 0, y1: centre, x2: size, y2: centre, stroke: "#eee"});
  el("line", {x1: centre, y1: 0, x2: centre, y2: size, stroke: "#eee"});
  const shown = data.points;
  const segments = shown.map(() => el("line", {stroke: "#bbb", "stroke-width": 1}));
  for (const p of shown) { el("circle", {cx: X(p[0]), cy: Y(p[1]), r: 2.5, fill: "#246"}); }
  const axis = el("line", {stroke: "#b00", "stroke-width": 2.5});
  const label = (t, x, y) => { const e = el("text", {x: x, y: y, "font-size": 13}); e.textContent = t; };
  label(data.names[0] + " →", size - 110, centre - 6);
  label("↑ " + data.names[1], centre + 6, 14);
  const state = {direction: [1, 0], captured: 0, residual: 0, snapped: false};
  const fmt = (x) => Number(x.toPrecision(10)).toString();
  function quadratic(v) { return C[0][0] * v[0] * v[0] + 2 * C[0][1] * v[0] * v[1] + C[1][1] * v[1] * v[1]; }
  function show() {
    const v = state.direction, u = [-v[1], v[0]];
    state.captured = quadratic(v);
    state.residual = quadratic(u);
    const R = extent * 1.5;
    axis.setAttribute("x1", X(-R * v[0])); axis.setAttribute("y1", Y(-R * v[1]));
    axis.setAttribute("x2", X(R * v[0])); axis.setAttribute("y2", Y(R * v[1]));
    shown.forEach((p, i) => {
      const t = p[0] * v[0] + p[1] * v[1];
      const s = segments[i];
      s.setAttribute("x1", X(p[0])); s.setAttribute("y1", Y(p[1]));
      s.setAttribute("x2", X(t * v[0])); s.setAttribute("y2", Y(t * v[1]));
    });
    const total = C[0][0] + C[1][1];
    document.getElementById("captured").textContent = fmt(state.captured);
    document.getElementById("residual").textContent = fmt(state.residual);
    document.getElementById("share").textContent = (100 * state.captured / total).toFixed(2) + " %";
    document.getElementById("direction").textContent = "(" + fmt(v[0]) + ", " + fmt(v[1]) + ")";
    document.getElementById("meter-fill").style.width = (100 * state.captured / total) + "%";
    document.getElementById("snapped").textContent = state.snapped ? "the axis is purepca's PC1" : "";
    const degrees = Math.atan2(v[1], v[0]) * 180 / Math.PI;
    document.getElementById("angle-value").textContent = degrees.toFixed(2) + "°";
  }
  function setAngle(radians) {
    // An axis has no arrow: keep the angle in (-90°, 90°].
    if (radians > Math.PI / 2) { radians -= Math.PI; }
    if (radians <= -Math.PI / 2) { radians += Math.PI; }
    state.direction = [Math.cos(radians), Math.sin(radians)];
    state.snapped = false;
    document.getElementById("angle").value = String(radians * 180 / Math.PI);
    show();
  }
  document.getElementById("angle").addEventListener("input", (e) => setAngle(Number(e.target.value) * Math.PI / 180));
  let dragging = false;
  function fromPointer(e) {
    const r = svg.getBoundingClientRect();
    const x = (e.clientX - r.left) * size / r.width - centre, y = centre - (e.clientY - r.top) * size / r.height;
    if (x !== 0 || y !== 0) { setAngle(Math.atan2(y, x)); }
  }
  svg.addEventListener("pointerdown", (e) => { dragging = true; svg.setPointerCapture(e.pointerId); fromPointer(e); });
  svg.addEventListener("pointermove", (e) => { if (dragging) { fromPointer(e); } });
  svg.addEventListener("pointerup", () => { dragging = false; });
  document.getElementById("snap").addEventListener("click", () => {
    state.direction = data.pc1.slice();
    state.snapped = true;
    document.getElementById("angle").value = String(Math.atan2(data.pc1[1], data.pc1[0]) * 180 / Math.PI);
    show();
  });
  document.getElementById("cov").textContent = "[[" + data.Cshown[0].join(", ") + "], [" + data.Cshown[1].join(", ") +
  "]]";
  document.getElementById("lambda1").textContent = data.shown.values[0];
  document.getElementById("lambda2").textContent = data.shown.values[1];
  document.getElementById("pc1").textContent = "(" + data.shown.pc1.join(", ") + ")";
  const best = document.getElementById("meter-best");
  best.style.left = (100 * data.values[0] / (C[0][0] + C[1][1])) + "%";
  window.pc1State = () => ({direction: state.direction.slice(), captured: state.captured,
                            residual: state.residual, snapped: state.snapped});
  show();
})();
</script>
</body></html>
"""


def pc1_page(lesson: PC1Lesson, title: Optional[str] = None) -> str:
    """The PC1 lesson as one self-contained HTML page (no network): the centred cloud, an axis the
    reader drags, the meter, "snap to PCA"; purepca's numbers embedded as JSON (shown as Python's
    ``repr``, so exactly), the page's script evaluating only ``vᵀCv`` and ``uᵀCu``.

    >>> page = pc1_page(pc1_lesson([[0, 0], [1, 1], [2, 2.5]]))
    >>> 'id="snap"' in page and '"pc1": [' + repr(pc1_lesson([[0, 0], [1, 1], [2, 2.5]]).pc1[0]) in page
    True
    """
    _check_lesson(lesson, PC1Lesson, "pc1_page")
    title = f"Find PC1 by hand: {lesson.names[0]} against {lesson.names[1]}" if title is None else str(title)
    data = {
        "names": lesson.names,
        "points": [[x - m for x, m in zip(row, lesson.mean)] for row in lesson.rows[:PC1_POINTS]],
        "C": lesson.C, "values": lesson.values, "pc1": lesson.pc1,
        "Cshown": [[repr(x) for x in row] for row in lesson.C],
        "shown": {"values": [repr(v) for v in lesson.values], "pc1": [repr(x) for x in lesson.pc1]},
    }
    drawn = "" if len(lesson.rows) <= PC1_POINTS else f" (the first {PC1_POINTS} drawn; C is of all of them)"
    source = f"{len(lesson.rows)} rows of {lesson.source}{drawn}: {lesson.names[0]} across, {lesson.names[1]} up"
    return fill_template(_PC1_PAGE, {"TITLE": escape_text(title), "SOURCE": escape_text(source),
                                     "DATA": json_for_script(json.dumps(data, allow_nan=False))})


#: The options of ``teach`` that only the step player reads, with their defaults.
_PLAYER_ONLY = (("--method", "jacobi"), ("--digits", None), ("--replay-digits", 50), ("--components", None),
                ("--shift", 0.0), ("--scale", False))

#: The most points a pc1 page embeds and draws (the numbers shown are computed from all of them).
PC1_POINTS = 5000


def add_lesson_arguments(p: Any) -> None:
    """``--lesson`` for ``purepca teach`` (for :mod:`purepca.cli`); the lesson reads ``--seed``,
    ``FILE``/``--dataset``, ``--columns``, ``--id-column``, ``--title`` and ``-o`` of ``teach``.

    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_lesson_arguments(p)
    >>> p.parse_args(["--lesson", "pc1"]).lesson
    'pc1'
    """
    p.add_argument("--lesson", choices=LESSONS, default=None,
                   help="a lesson instead of the step player: 'stopping' (absolute against relative stopping of "
                        "Jacobi on a graded matrix, seeded by --seed) or 'pc1' (drag an axis to find PC1 in a 2-D "
                        "cloud: FILE or --dataset, default iris's first two columns)")


def lesson_command(args: Any) -> None:
    """``purepca teach --lesson NAME``: write the lesson's page (``-o``, else standard output); with
    ``-o``, the stopping lesson's table is printed too.

    >>> import os, tempfile
    >>> from purepca.cli import main
    >>> page = os.path.join(tempfile.mkdtemp(), "pc1.html")
    >>> main(["teach", "--lesson", "pc1", "--dataset", "usarrests", "--columns", "Murder,Assault", "-o", page])
    0
    >>> "Murder against Assault" in open(page, encoding="utf-8").read()
    True
    """
    from .csvdata import read_table
    from .datasets import load
    from .files import read_text, text_lines, write_output
    if getattr(args, "matrix", None) is not None:
        raise PurePCAError(f"teach --lesson {args.lesson}: --matrix is for the step player; "
                           "the stopping lesson makes its own graded matrix (--seed), the pc1 lesson takes data")
    for option, default in _PLAYER_ONLY:  # said, not silently ignored
        if getattr(args, option.lstrip("-").replace("-", "_"), default) != default:
            raise PurePCAError(f"teach --lesson {args.lesson}: {option} is for the step player, not a lesson")
    if args.lesson == "stopping":
        if args.file is not None or args.dataset is not None:
            raise PurePCAError("teach --lesson stopping: takes no data (its graded matrix comes from --seed)")
        lesson = stopping_lesson(seed=args.seed)
        write_output(stopping_page(lesson, args.title), args.output)
        if args.output is not None and args.output != "-":
            print(stopping_text(lesson))
        return
    if args.file is not None and args.dataset is not None:
        raise PurePCAError("teach --lesson pc1: give FILE or --dataset, not both")
    if args.file is not None:
        table = read_table(text_lines(read_text(args.file, args.encoding)), source=args.file,
                           delimiter=args.delimiter, header=not args.no_header, columns=args.columns,
                           id_column=args.id_column)
        source = args.file
    else:
        name = "iris" if args.dataset is None else args.dataset
        ds = load(name)
        table = read_table(ds.to_csv().splitlines(), source=name, columns=args.columns,
                           id_column=args.id_column if args.id_column is not None else ds.label_name)
        source = f"the bundled data set {name}"
    names, rows = table.names, table.rows
    if args.columns is None and len(names) > 2:
        names, rows = names[:2], [row[:2] for row in rows]  # the first two; the page names them
    write_output(pc1_page(pc1_lesson(rows, names, source), args.title), args.output)
