"""Watch the eigensolvers move: the Jacobi sweeps and the power iterations, as text.

=========================  ==================================================
``trace_jacobi(A)``        every rotation (the pair, its angle, the
                           off-diagonal norm after it) and every sweep's
                           off-diagonal norm against the tolerance
``trace_power(A, k)``      every iteration's Rayleigh quotient and residual,
                           eigenpair after eigenpair
=========================  ==================================================

What ``purepca trace`` prints.  The numbers come from the solvers' own
``trace`` callbacks (:class:`~purepca.linalg.JacobiStep`,
:class:`~purepca.linalg.power.PowerStep`), so what is shown is what the
solver did, not a re-enactment.

>>> print(trace_jacobi([[2.0, 1.0], [1.0, 2.0]]))  # doctest: +ELLIPSIS
Cyclic Jacobi on a 2 x 2 symmetric matrix: ...
sweep 1 (off-diagonal norm 1.41 at the start, threshold 0.05)
  rotate (1, 2) by  0.785398 rad (  45.0000°): off-diagonal norm 0
end of sweep 1: 1 rotation, off-diagonal norm 0 <= tolerance 8.88e-16
sweep 2: every pair passes the test, no rotation: converged
<BLANKLINE>
eigenvalues: 3 1
"""

from __future__ import annotations

import math
from typing import Any, Optional

from .linalg.jacobi import JacobiStep, _off_norm, jacobi_eigh
from .linalg.matrix import as_symmetric
from .linalg.power import PowerStep, power_iteration
from .errors import PurePCAError
from .numeric import FLOAT
from .params import as_int

__all__ = ["MAX_ORDER", "NOTATIONS", "format_number", "trace_jacobi", "trace_power"]

#: The largest matrix ``trace`` prints (every rotation of a 100 x 100 Jacobi run is some 40,000 lines);
#: checked before the matrix is formed.
MAX_ORDER = 100

_EPS = 2.0 ** -52


#: The notations :func:`format_number` writes: ``auto`` as ``%g`` (positional unless the exponent is
#: below -5 or at least the digits), ``fixed`` always positional, ``scientific`` always ``d.ddde±x``.
NOTATIONS = ("auto", "fixed", "scientific")


def format_number(x: float, digits: int = 6, notation: str = "auto") -> str:
    """``x`` to ``digits`` significant digits, in ``notation`` (one of :data:`NOTATIONS`); what
    ``trace`` prints and the player's number-format control offers (6, 10, 17 or the run's digits).

    >>> format_number(1.2345678e-9), format_number(1.2345678e-9, 3, "fixed"), format_number(45.0, 6)
    ('1.23457e-09', '0.00000000123', '45.0000')
    >>> format_number(-9.015906e-42, 4, "scientific"), format_number(0.0, 10, "fixed")
    ('-9.016e-42', '0.000000000')
    >>> format_number(1.0, 0)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: digits must be an int between 1 and 17, got 0
    """
    digits = as_int(digits, "digits", low=1, high=17)
    try:
        real = not isinstance(x, (bool, str, bytes)) and isinstance(float(x), float)
    except (TypeError, ValueError, OverflowError, ArithmeticError):
        real = False
    if not real:
        raise PurePCAError(f"format_number: x must be a real number (a float), got {x!r:.60}")
    if not isinstance(x, (float, int)):
        x = float(x)  # a Fraction, a Decimal, a numpy scalar: printed as the float it is near
    if not isinstance(notation, str) or notation not in NOTATIONS:
        raise PurePCAError(f"notation must be one of {', '.join(NOTATIONS)}, got {notation!r}")
    if notation == "scientific" or not math.isfinite(x):
        return f"{x:.{digits - 1}e}"
    if notation == "auto":
        return f"{x:#.{digits}g}".rstrip(".") if "e" not in f"{x:.{digits}g}" else f"{x:.{digits - 1}e}"
    exponent = math.floor(math.log10(abs(x))) if x else 0
    decimals = max(0, digits - 1 - exponent)
    return f"{x:.{decimals}f}"


def _traced_matrix(A: Any, who: str) -> list[list[float]]:
    """The symmetric matrix a trace works on: not empty, at most :data:`MAX_ORDER`."""
    M = as_symmetric(A)
    if not M:
        raise PurePCAError(f"{who}: the matrix is empty")
    if len(M) > MAX_ORDER:
        raise PurePCAError(f"{who}: the matrix is {len(M)} x {len(M)}; "
                           f"a trace prints at most {MAX_ORDER} x {MAX_ORDER}")
    return M


def _beyond_range(who: str) -> PurePCAError:
    return PurePCAError(f"{who}: a step on this matrix is beyond the float range (an off-diagonal norm or an "
                        "eigenvalue past 1.8e308): scale the matrix down (teach --digits N runs it at N digits)")


def _g(v: float) -> str:
    """A number as R prints a vector entry: seven significant digits, no trailing zeros."""
    return f"{v:.7g}"


def trace_jacobi(A: Any, *, rotations: bool = True, digits: int = 6, notation: str = "auto") -> str:
    """The run of :func:`~purepca.linalg.jacobi_eigh` on ``A``, rotation by rotation.

    A rotation in the plane of the pair ``(p, q)`` (counted from 1) by the
    angle ``θ`` with ``tan 2θ = 2·a_pq / (a_qq - a_pp)`` (``|θ| <= π/4``) sets
    ``a_pq`` to zero; a sweep goes through the pairs row by row, but in the
    first three sweeps a pair whose ``|a_pq|`` is at most the sweep's
    threshold ``0.2/n²·Σ_(p<q)|a_pq|`` (summed at the start of the sweep:
    Rutishauser's rule, Handbook for Automatic Computation II/1, 1971) is
    skipped, so that the effort goes to the large entries first; each skip
    is printed with the threshold.  A pair passes the test when
    ``|a_pq| <= eps·sqrt(|a_pp·a_qq|)``; when every pair passes, the
    off-diagonal norm is at most ``eps·Σ|a_ii| = eps·Σ|λ|``, the tolerance
    shown, and the diagonal holds the eigenvalues to relative accuracy.
    ``rotations=False`` prints the sweeps only.  Angles are printed to ``digits`` significant
    digits in ``notation`` (:func:`format_number`): a late rotation's tiny angle keeps its digits.

    >>> A = [[4.0, 1.0, 0.5, 0.2, 0.1], [1.0, 3.0, 0.3, 0.1, 0.2], [0.5, 0.3, 2.0, 0.4, 0.1],
    ...      [0.2, 0.1, 0.4, 1.0, 0.3], [0.1, 0.2, 0.1, 0.3, 0.5]]
    >>> print(trace_jacobi(A, rotations=False))  # doctest: +ELLIPSIS
    Cyclic Jacobi on a 5 x 5 symmetric matrix: ...
    <BLANKLINE>
    end of sweep 1: 8 rotations, off-diagonal norm 0.0592 > tolerance 2.33e-15
    end of sweep 2: 9 rotations, off-diagonal norm 0.000318 > tolerance 2.33e-15
    end of sweep 3: 4 rotations, off-diagonal norm 2.16e-06 > tolerance 2.33e-15
    end of sweep 4: 9 rotations, off-diagonal norm 6.3e-13 > tolerance 2.33e-15
    end of sweep 5: 3 rotations, off-diagonal norm 8.21e-19 <= tolerance 2.33e-15
    sweep 6: every pair passes the test, no rotation: converged
    <BLANKLINE>
    eigenvalues: 4.778866 2.389285 2.006096 0.9795172 0.3462349
    """
    format_number(0.0, digits, notation)  # checks both before any work
    if not isinstance(rotations, bool):
        raise PurePCAError(f"trace_jacobi: rotations must be True or False, got {rotations!r:.40}")
    M = _traced_matrix(A, "trace_jacobi")
    n = len(M)
    steps: list[JacobiStep] = []
    try:
        result = jacobi_eigh(M, trace=steps.append)
        values = [float(v) for v in result.values]
        tolerance = math.fsum(_EPS * abs(v) for v in values)  # eps first: Σ|λ| itself may pass 1.8e308
        start = float(_off_norm(M, FLOAT))
    except OverflowError:
        raise _beyond_range("trace_jacobi") from None
    if not (math.isfinite(start) and all(math.isfinite(step.off_norm) for step in steps)):
        raise _beyond_range("trace_jacobi")  # an off(A) past 1.8e308 would print as inf
    out = _jacobi_header(n, tolerance) + _jacobi_sweeps(steps, result.sweeps, start, tolerance, rotations,
                                                         digits, notation)
    if n == 1:
        out.append("a 1 x 1 matrix is diagonal: no rotation")
    out += ["", "eigenvalues: " + " ".join(_g(v) for v in values)]
    return "\n".join(out)


def _jacobi_header(n: int, tolerance: float) -> list[str]:
    """The first lines of :func:`trace_jacobi`: the rotation, the skipping rule and the test."""
    return [
        f"Cyclic Jacobi on a {n} x {n} symmetric matrix: the rotation in the plane (p, q) by the angle θ with "
        "tan 2θ = 2·a_pq / (a_qq - a_pp) sets a_pq to zero; a sweep goes through the pairs row by row, "
        "but in sweeps 1 to 3 it skips a pair whose |a_pq| is at most the sweep's threshold 0.2/n²·Σ_(p<q)|a_pq| "
        "(Rutishauser's rule, Handbook II/1).",
        f"A pair passes when |a_pq| <= eps·sqrt(|a_pp·a_qq|), eps = {_EPS:.3g}; after a sweep in which every pair "
        f"passes, the off-diagonal norm is at most the tolerance eps·Σ|λ| = {tolerance:.3g}.",
        "",
    ]


def _jacobi_sweeps(steps: list[JacobiStep], sweeps: int, start: float, tolerance: float, rotations: bool,
                   digits: int, notation: str) -> list[str]:
    """The lines of :func:`trace_jacobi` for its steps: each sweep, skip and rotation."""
    out: list[str] = []
    sweep, count = 0, 0
    for step in steps:
        if step.sweep != sweep:
            sweep, count = step.sweep, 0
            if rotations and (step.kind != "sweep" or sweep < sweeps):
                out.append(f"sweep {sweep} (off-diagonal norm {start:.3g} at the start"
                           + (f", threshold {float(step.threshold):.4g})" if step.threshold else ")"))
        if rotations:
            for p, q, size in step.skipped:
                out.append(f"  skip   ({p + 1}, {q + 1}): |a_pq| = {float(size):.4g} <= the sweep's threshold "
                           f"{float(step.threshold):.4g}")
        if step.kind == "rotation":
            count += 1
            if rotations:
                angle = format_number(step.angle, digits, notation)
                degrees = format_number(math.degrees(step.angle), digits, notation)
                out.append(f"  rotate ({step.p + 1}, {step.q + 1}) by {angle:>9} rad "
                           f"({degrees:>9}°): off-diagonal norm {step.off_norm:.3g}")
            continue
        if step.sweep == sweeps and count == 0:
            out.append(f"sweep {step.sweep}: every pair passes the test, no rotation: converged")
            continue
        relation = "<=" if step.off_norm <= tolerance else ">"
        out.append(f"end of sweep {step.sweep}: {count} rotation{'s' if count != 1 else ''}, off-diagonal norm "
                   f"{step.off_norm:.3g} {relation} tolerance {tolerance:.3g}")
        start = step.off_norm
    return out


def trace_power(A: Any, k: int = 1, *, seed: int = 0, head: int = 15, tail: int = 5) -> str:
    """The run of :func:`~purepca.linalg.power.power_iteration` on ``A``, iteration by iteration.

    Each iteration multiplies the vector by ``A`` (deflated by the
    eigenpairs already found) and normalises it; the Rayleigh quotient
    ``vᵀ·A·v`` approaches the eigenvalue and the residual ``‖A·v - λ·v‖``
    falls by about ``|λ_next/λ|`` per iteration, until it is below the
    tolerance.  Of a long run the first ``head`` and last ``tail``
    iterations are printed.

    >>> text = trace_power([[2.0, 1.0], [1.0, 2.0]])
    >>> print(text.splitlines()[-1])
    eigenpair 1: λ = 3 after 27 iterations (residual 4.04e-12)
    """
    k = as_int(k, "k", low=1)
    seed = as_int(seed, "seed")
    head, tail = as_int(head, "head", low=0), as_int(tail, "tail", low=0)
    M = _traced_matrix(A, "trace_power")
    if k > len(M):
        raise PurePCAError(f"trace_power: k = {k} is more than the {len(M)} eigenpairs of a {len(M)} x {len(M)} matrix")
    steps: list[PowerStep] = []
    try:
        result = power_iteration(M, k=k, seed=seed, trace=steps.append)
    except OverflowError:
        raise _beyond_range("trace_power") from None
    out = [f"Power iteration for the {k} eigenpair{'s' if k != 1 else ''} of largest magnitude, one after "
           f"another (Hotelling deflation); start vectors from random.Random({seed})."]
    for index in range(1, k + 1):
        mine = [s for s in steps if s.eigenpair == index]
        out += ["", f"eigenpair {index}: stop when the residual is <= {mine[-1].tolerance:.3g}",
                "  iteration  Rayleigh quotient        residual"]
        shown: list[Optional[PowerStep]] = list(mine)
        if len(mine) > head + tail + 1:
            shown = [*mine[:head], None, *mine[-tail:]]
        for s in shown:
            if s is None:
                out.append("        ...")
            else:
                out.append(f"  {s.iteration:9d}  {s.value: .15e}  {s.residual:.3e}")
        out.append(f"eigenpair {index}: λ = {_g(float(result.values[index - 1]))} after {len(mine)} iterations "
                   f"(residual {float(result.residuals[index - 1]):.3g})")
    return "\n".join(out)
