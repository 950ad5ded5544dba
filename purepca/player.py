"""The step player: the eigensolvers' own steps as data, and as one self-contained HTML page.

=================================  ==============================================
``jacobi_run(A)``                  every rotation of :func:`~purepca.linalg.jacobi_eigh`:
                                   pair, θ, t, c, s, the matrix before and after,
                                   off(A), the rotations accumulated so far, the
                                   pairs the sweep's threshold skipped; the other
                                   pivot orders' runs beside it
``data_run(X)``                    the same on the covariance of the rows ``X``,
                                   with the centred data for the cloud
``power_run(A, k)``                every iteration of :func:`~purepca.linalg.power.power_iteration`:
                                   the vector, its Rayleigh quotient, residual,
                                   the predicted rate ``|λ₂/λ₁|ᵏ`` and the angle
                                   to the answer
``subspace_run(A, k)``             every iteration of :func:`~purepca.linalg.power.subspace_iteration`:
                                   the k Ritz vectors and values, residuals,
                                   the predicted rates ``|λ_(b+1)/λ_i|ᵏ``
``tridiagonal_run(A)``             the Householder reflections and the QL
                                   iterations of :func:`~purepca.linalg.tridiagonal_eigh`:
                                   T per iteration, the shift, the bulge chase,
                                   the factors Q and L, deflations; the other
                                   shifts' runs beside it
``pivot_step(A, p, q)``            one rotation on a pivot the learner chose
                                   (the playground's click)
``code_of(method)``                the reference source beside each step, the
                                   step's statement found in it
``replay(A)``                      Jacobi in binary32, in floats and at 50
                                   digits side by side, sweep by sweep: the
                                   digits gained
``naive_covariance(X)``            the textbook one-pass ``Σxy - n·x̄·ȳ`` in
                                   floats against the exact covariance
``player_html(run)``               the page: next / previous / play, the matrix
                                   with the entry being zeroed, off(A) on a log
                                   scale, the data cloud with the axes turning,
                                   a checker for hand computations
``to_json(run)``                   a run as JSON text
``Player(page)``                   a page Jupyter shows inline (``teach(...,
                                   inline=True)``)
=================================  ==============================================

A *run* is a plain dict (schema ``"purepca.player/1"``) whose ``frames`` are
the solver's trace events, taken from the ``trace`` callbacks of the
solvers (:class:`~purepca.linalg.JacobiStep`,
:class:`~purepca.linalg.power.PowerStep`,
:class:`~purepca.linalg.tridiagonal.TridiagonalStep`): the page shows them,
its script computes nothing of its own (what a trace does not hold, T in
the middle of a bulge chase and the factors Q and L, is made here in
Python from the solver's own rotations, and tested against it).  Numbers are JSON numbers when the solver
ran in floats (``repr``, so they read back to the same bits) and decimal
strings when it ran at N digits (``digits=50``).

Jacobi frames: frame 0 is the start (``kind = "start"``: the matrix, the
identity for ``vectors``, off(A)); frame i >= 1 is rotation i (``kind =
"rotation"``) with ``sweep``, ``p``, ``q`` (from 0), ``theta`` (radians; the
rotation by θ with ``t = tan θ`` sets ``a_pq`` to zero), ``t``, ``c``, ``s``,
``before`` and ``matrix`` (the working matrix before and after),
``vectors`` (row i: the current estimate of the eigenvector whose eigenvalue
is ``matrix[i][i]``) and ``off`` (the off-diagonal Frobenius norm after it).
``sweeps`` lists each sweep's last frame and off(A) at its end.  Every frame
has ``ends``: the sweeps that end after it (before the next rotation), each
``{"sweep", "threshold", "skipped"}`` with the pairs the threshold passed
over after the sweep's last rotation, which no rotation's ``skipped`` holds.

>>> run = jacobi_run([[2.0, 1.0], [1.0, 2.0]])
>>> [f["kind"] for f in run["frames"]], run["frames"][1]["p"], run["frames"][1]["q"]
(['start', 'rotation'], 0, 1)
>>> round(math.degrees(run["frames"][1]["theta"]), 4), run["frames"][1]["off"]
(45.0, 0.0)
>>> run50 = jacobi_run([[2, 1], [1, 2]], digits=50)
>>> run50["frames"][1]["c"][:42]                  # cos 45° at 50 digits, as the solver rounded it
'0.7071067811865475244008443621048490392848'

Power frames (``kind = "power"``): ``pair`` (from 1), ``iteration``,
``vector`` (the unit vector v), ``value`` (its Rayleigh quotient ``vᵀAv``),
``residual`` (``‖Av - value·v‖``), ``tolerance``, ``rate`` (``|λ_(pair+1) /
λ_pair|`` to the power ``iteration - 1``, what the residual should have
fallen by since the first iteration) and ``angle`` (degrees between v and
the eigenvector the solver returns in the end).

>>> run = power_run([[2.0, 1.0], [1.0, 2.0]])
>>> len(run["frames"]), run["frames"][-1]["iteration"], round(run["frames"][-1]["value"], 12)
(27, 27, 3.0)
"""

from __future__ import annotations

import decimal
import functools
import inspect
import json
import math
import os
import sys
from decimal import Decimal
from fractions import Fraction
from importlib import resources
from typing import Any, Callable, Iterable, Literal, Optional, TypeVar, Union, overload

from .covariance import center, correlation_matrix, covariance_matrix
from .errors import ConvergenceError, PurePCAError
from .linalg import jacobi as _jacobi_module, power as _power_module, tridiagonal as _tridiagonal_module
from .linalg.jacobi import PIVOTS, JacobiStep, _off_norm, jacobi_eigh
from .linalg.matrix import as_matrix, as_symmetric
from .linalg.power import PowerStep, SubspaceStep, power_iteration, subspace_iteration
from .linalg.tridiagonal import SHIFTS, TridiagonalStep, tridiagonal_eigh
from .markup import escape_text, fill_template, json_for_script
from .numeric import BINARY32, FLOAT, Context, get_context
from .numeric import in_owned_decimal
from .params import as_int, as_real

__all__ = ["SCHEMA", "Player", "code_of", "data_run", "jacobi_run", "naive_covariance", "pivot_step", "player_html",
           "power_run", "replay", "subspace_run", "teach", "to_json", "tridiagonal_run"]

#: The version of the run format.
SCHEMA = "purepca.player/1"

#: What ``teach`` can show.
METHODS = ("jacobi", "power", "subspace", "tridiagonal")

#: Largest matrix the page draws entry by entry (larger ones are refused: the page would not be readable).
MAX_ORDER = 12

#: Largest matrix whose page carries the other pivot orders' or shifts' runs (each one more copy of
#: every frame: a 12 x 12 Jacobi page is 3 MB by itself).
CHOICES_ORDER = 8

#: QL iterations a run under Rayleigh's or no shift may make before the page stops it and says so (no
#: shift converges linearly, by the ratio of neighbouring eigenvalues: close ones take thousands).
SLOW_SHIFT_ITERATIONS = 10

#: Iterations a power page shows of a run that does not converge (|λ₁| = |λ₂|: the vector oscillates).
STOPPED_POWER_ITERATIONS = 40

#: Largest matrix whose QL page has a frame per rotation of the bulge chase (each one a copy of T).
CHASE_ORDER = 8


_F = TypeVar("_F", bound=Callable[..., Any])


def _in_float_range(func: _F) -> _F:
    """A run whose steps leave the float range (an off(A) or an eigenvalue past 1.8e308, as on
    ``[[1, 1.7e308], [1.7e308, 1]]``, whose off(A) is 2.4e308) says so, naming the way out, instead of
    letting the OverflowError of a conversion or an fsum out."""
    @functools.wraps(func)
    def checked(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except OverflowError:
            raise PurePCAError(f"player: {func.__name__}: a step on this matrix is beyond the float range (an "
                               "off-diagonal norm, an eigenvalue or a diagonal entry past 1.8e308); scale the "
                               "matrix down, or run it at N digits (digits=N, teach --digits N)") from None
    return checked  # type: ignore[return-value]


def _num(x: Any) -> Any:
    """A solver's number for JSON: a float as itself, a Decimal as its exact decimal string."""
    if isinstance(x, Decimal):
        return str(x)
    return float(x)


def _rows(M: Any) -> list[list[Any]]:
    return [[_num(x) for x in row] for row in M]


#: A run's precision: None (binary64 floats), "binary32" (every operation rounded to single precision,
#: as MicroPython's single-precision ports and float32 libraries) or N >= 17 decimal digits.
Precision = Union[None, int, str]


def _precision_label(shown: int) -> str:
    return "binary32" if shown == 7 else "binary64" if shown == 16 else f"{shown} digits"


def _digits_of(digits: Precision) -> tuple[Context, int]:
    if digits is None:
        return FLOAT, 16
    if isinstance(digits, str):
        if digits != "binary32":
            raise PurePCAError(f"digits must be None (floats), 'binary32' or an int >= 17, got {digits!r:.40}")
        return BINARY32, 7
    digits = as_int(digits, "digits", low=17)
    return get_context(digits), digits


def _matrix_in(A: Any, ctx: Context) -> list[list[Any]]:
    """A validated symmetric matrix at the context's precision, no larger than the page can draw."""
    M = as_symmetric(A, context=ctx)
    if not M:
        raise PurePCAError("player: the matrix is empty; give at least a 1 x 1 symmetric matrix")
    if len(M) > MAX_ORDER:
        raise PurePCAError(f"player: the matrix is {len(M)} x {len(M)}; the player draws at most "
                           f"{MAX_ORDER} x {MAX_ORDER}")
    return M


def _title(title: Any, who: str) -> str:
    """A run's title: text, else a :class:`PurePCAError` naming ``who`` and the value.

    >>> _title("Power", "power_run")
    'Power'
    """
    if not isinstance(title, str):
        raise PurePCAError(f"player: {who} title must be text (a str), got {title!r:.60}")
    return title


@in_owned_decimal
@_in_float_range
def jacobi_run(A: Any, *, digits: Precision = None, data: Optional[Any] = None,
               title: str = "Jacobi's method", pivot: str = "threshold", choices: bool = True) -> dict[str, Any]:
    """Every rotation of :func:`~purepca.linalg.jacobi_eigh` on the symmetric matrix ``A``, as a run.

    ``digits`` runs the solver at that many decimal digits (at least 17)
    instead of floats.  ``data`` (n x d centred rows, d >= 2) is kept for
    the page's cloud.  See the module docstring for the frames.  ``pivot``
    is the solver's pivot order (``"threshold"``, ``"cyclic"`` or
    ``"classical"``); with ``choices`` the run carries the other orders'
    runs too (``run["choices"]``, without their frames' ``before``; for
    matrices up to ``CHOICES_ORDER``), which the page offers.  Each rotation
    frame also holds ``threshold`` (the sweep's, Rutishauser's rule) and
    ``skipped``, the pairs ``[p, q, |a_pq|]`` passed over under it just
    before the rotation; ``convergence`` lists per sweep off(A), the digits
    ``-log10(off(A)/‖A‖_F)`` and the digits gained; ``code`` is the solver's
    source, with the lines each step runs (:func:`code_of`).

    >>> run = jacobi_run([[4, 1, 0.5], [1, 3, 0.3], [0.5, 0.3, 2]])
    >>> run["method"], run["n"], len(run["frames"]) - 1 == run["rotations"]
    ('jacobi', 3, True)
    >>> all(f["matrix"][f["p"]][f["q"]] == 0 for f in run["frames"][1:])
    True
    >>> run["pivot"], sorted(run["choices"]), run["choices"]["cyclic"]["pivot"]
    ('threshold', ['classical', 'cyclic'], 'cyclic')
    """
    title = _title(title, "jacobi_run")
    if pivot not in PIVOTS:
        raise PurePCAError(f"player: pivot must be one of {', '.join(PIVOTS)}, got {pivot!r}")
    ctx, shown = _digits_of(digits)
    M = _matrix_in(A, ctx)
    n = len(M)
    steps: list[JacobiStep] = []
    try:
        result = jacobi_eigh(M, context=ctx, trace=steps.append, pivot=pivot)
    except OverflowError:  # a traced step, scaled back to the input's units, is past the float range
        raise PurePCAError("player: a step of Jacobi on this matrix is beyond the float range (an off-diagonal "
                           "norm or a diagonal entry past 1.8e308); scale the matrix down, or run it at N digits "
                           "(digits=N, teach --digits N)") from None
    identity = [[ctx.one if i == j else ctx.zero for j in range(n)] for i in range(n)]
    with ctx.local():
        off0 = _off_norm(M, ctx)
    frames: list[dict[str, Any]] = [{"kind": "start", "matrix": _rows(M), "vectors": _rows(identity),
                                     "off": _num(off0), "ends": []}]
    sweeps: list[dict[str, Any]] = []
    before = frames[0]["matrix"]
    for step in steps:
        skipped = [[p, q, _num(a)] for p, q, a in step.skipped]
        threshold = None if step.threshold is None else _num(step.threshold)
        if step.kind == "sweep":
            sweeps.append({"sweep": step.sweep, "frame": len(frames) - 1, "off": _num(step.off),
                           "threshold": threshold, "skipped": skipped})
            # the pairs the threshold passed over after the sweep's last rotation belong to no rotation's
            # "just before": the frame they follow shows them (A4's sweep 2 ends by skipping (3, 4))
            frames[-1]["ends"].append({"sweep": step.sweep, "threshold": threshold, "skipped": skipped})
            continue
        assert step.matrix is not None and step.vectors is not None
        after = _rows(step.matrix)
        frames.append({"kind": "rotation", "sweep": step.sweep, "p": step.p, "q": step.q, "theta": step.angle,
                       "t": _num(step.t), "c": _num(step.c), "s": _num(step.s), "before": before,
                       "matrix": after, "vectors": _rows(step.vectors), "off": _num(step.off),
                       "threshold": threshold, "skipped": skipped, "ends": []})
        before = after
    with ctx.local():
        norm = ctx.norm([x for row in M for x in row])
    run: dict[str, Any] = {
        "schema": SCHEMA, "method": "jacobi", "title": title, "n": n, "digits": shown,
        "precision": _precision_label(shown),
        "frames": frames, "sweeps": sweeps, "rotations": result.rotations,
        "values": [_num(v) for v in result.values], "eigenvectors": _rows(result.vectors),
        "eps": _num(ctx.eps), "pivot": pivot,
        "convergence": _sweep_digits([(s["sweep"], s["off"]) for s in sweeps], norm, off0),
        "code": code_of("jacobi", pivot),
    }
    if choices and n <= CHOICES_ORDER:  # the other orders, for the page's choice (this run is its own order's)
        run["choices"] = {name: _without_before(jacobi_run(M, digits=digits, title=title, pivot=name, choices=False))
                          for name in PIVOTS if name != pivot}
    if data is not None:
        run["data"] = [[float(x) for x in row[:2]] for row in as_matrix(data, name="data")]
    return run


def _angle_degrees(v: Iterable[Any], u: Iterable[Any]) -> float:
    """The angle in degrees between the lines of ``v`` and ``u`` (floats or Decimals), from exact sums.

    ``atan(‖r‖ / |c|)`` with ``c = v·u`` and ``r`` the part of v orthogonal to u: its square
    ``tan²θ = (‖v‖²‖u‖² - c²) / c²`` is formed in fractions, so no digit is lost near 0 (the
    textbook ``acos(|v·u|)`` reads 0 below about 1e-6 degrees and is percent-wrong just above).
    """
    vs, us = [Fraction(x) for x in v], [Fraction(x) for x in u]
    c = sum((a * b for a, b in zip(vs, us)), Fraction(0))
    cross = sum((a * a for a in vs), Fraction(0)) * sum((b * b for b in us), Fraction(0)) - c * c
    if c == 0:
        return 90.0
    if cross <= 0:
        return 0.0
    ratio = cross / (c * c)  # tan²θ, exactly; its float and square root round once each
    if ratio <= 1:
        return math.degrees(math.atan(math.sqrt(float(ratio))))
    return 90.0 - math.degrees(math.atan(math.sqrt(float(1 / ratio))))  # cot θ: no float overflows


def _fraction_sqrt(x: Fraction, bits: int) -> Fraction:
    """√x to about ``bits`` bits (x >= 0), from integer square roots: no float range is met."""
    num, den = x.numerator, x.denominator
    shift = max(0, bits + 8 - (num.bit_length() - den.bit_length()) // 2)
    return Fraction(math.isqrt((num * den) << (2 * shift)), den << shift)


def _in_ctx(x: Fraction, ctx: Context) -> Any:
    """The exact ``x`` rounded to the context's numbers (a float, a binary32 value, or a Decimal at its digits)."""
    if ctx is BINARY32:
        return ctx.convert(float(x))
    if ctx.eps >= FLOAT.eps:
        return float(x)
    with ctx.local():
        return Decimal(x.numerator) / Decimal(x.denominator)


def _over_common(xs: Iterable[Any]) -> tuple[list[int], int]:
    """Numbers (floats, Decimals, Fractions) as integers over one common denominator, exactly."""
    fs = [Fraction(x) for x in xs]
    den = 1
    for f in fs:
        den = den * f.denominator // math.gcd(den, f.denominator)
    return [f.numerator * (den // f.denominator) for f in fs], den


def _exact_operator(B: list[list[Any]]) -> tuple[list[list[int]], int]:
    """A matrix as integers over one common denominator (for :func:`_exact_pair`)."""
    n = len(B)
    flat, den = _over_common(x for row in B for x in row)
    return [flat[i * n:(i + 1) * n] for i in range(n)], den


def _exact_pair(B: tuple[list[list[int]], int], v: Iterable[Any], value: Optional[Any],
                ctx: Context) -> tuple[Any, Any]:
    """``vᵀBv`` (or ``value`` if given) and ``‖Bv - value·v‖``, formed exactly (integers over common
    denominators) and rounded once each to the context: the solver's own residual, at its precision,
    keeps few digits once it nears the rounding of ``Bv`` (eps·‖B‖), the figure a page shows at convergence."""
    rows, bd = B
    vn, vd = _over_common(v)
    wn = [sum(b * x for b, x in zip(row, vn)) for row in rows]  # Bv = wn / (bd·vd)
    lam = Fraction(sum(x * y for x, y in zip(vn, wn)), bd * vd * vd) if value is None else Fraction(value)
    P, Q = lam.numerator, lam.denominator
    r2 = Fraction(sum((y * Q - P * bd * x) ** 2 for x, y in zip(vn, wn)), (bd * vd * Q) ** 2)
    bits = 64 if ctx.eps >= FLOAT.eps else int(-math.log2(float(ctx.eps))) + 16
    return _in_ctx(lam, ctx), _in_ctx(_fraction_sqrt(r2, bits), ctx)


def _exact_inverse(M: list[list[Any]]) -> list[list[Fraction]]:
    """``M⁻¹`` in fractions (Gauss-Jordan; M positive definite, so no pivot is zero)."""
    n = len(M)
    W = [[Fraction(x) for x in row] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(M)]
    for c in range(n):
        pivot = W[c][c]
        W[c] = [x / pivot for x in W[c]]
        for r in range(n):
            if r != c and W[r][c]:
                f = W[r][c]
                W[r] = [a - f * b for a, b in zip(W[r], W[c])]
    return [row[n:] for row in W]


def _without_before(run: dict[str, Any]) -> dict[str, Any]:
    """A choice's run without each frame's ``before`` (the previous frame's matrix: the page does not use it)."""
    run["frames"] = [{k: v for k, v in f.items() if k != "before"} for f in run["frames"]]
    return run


def _digits_below(x: Any, norm: Any) -> Optional[float]:
    """``-log10(x/norm)`` (x, norm floats or Decimals) from the exact ratio, unrounded (the tables round
    once, after differences and ratios: rounded first, a "gained" could be off by 0.01); None for an exact 0."""
    x = Fraction(x)
    if x == 0:
        return None
    ratio = abs(x) / Fraction(norm or 1)  # exact: its float would underflow for x near 1e-300 and a norm near 1e300
    return math.log10(ratio.denominator) - math.log10(ratio.numerator)


def _sweep_digits(offs: list[tuple[int, Any]], norm: Any, start: Any) -> list[dict[str, Any]]:
    """Per sweep of a Jacobi run: off(A) at its end, its digits ``-log10(off/‖A‖_F)`` and the digits gained."""
    rows = []
    last = _digits_below(start, norm) or 0.0
    for sweep, off in offs:
        digits = _digits_below(off, norm)
        rows.append({"sweep": sweep, "off": off, "digits": None if digits is None else round(digits, 2),
                     "gained": None if digits is None else round(digits - last, 2)})
        if digits is not None:
            last = digits
    return rows


#: The statements of the reference solvers a page highlights, per step, found in their source when the
#: page is written (never by line number: the code moves).  Each entry: (key, the function, the statement).
_CODE: dict[str, list[tuple[str, str, str]]] = {
    "jacobi threshold": [("threshold", "_cyclic_jacobi", "threshold = threshold_factor *"),
                         ("skip", "_cyclic_jacobi", "if aapq <= threshold:"),
                         ("rotation", "_cyclic_jacobi", "_rotation(app, aqq, apq, ctx)"),
                         ("rotate", "_cyclic_jacobi", "_rotate(M, V, p, q, s, tau"),
                         ("sweep", "_cyclic_jacobi", "if not busy:"),
                         ("t", "_rotation", "t = ctx.one / (at + ctx.sqrt(at * at + ctx.one))"),
                         ("c", "_rotation", "c = ctx.one / ctx.sqrt(t * t + ctx.one)")],
    "jacobi classical": [("search", "_classical_jacobi", "if a > best and a > tol"),
                         ("rotation", "_classical_jacobi", "_rotation(app, aqq, apq, ctx)"),
                         ("rotate", "_classical_jacobi", "_rotate(M, V, bp, bq, s, tau"),
                         ("sweep", "_classical_jacobi", "if bp < 0:"),
                         ("t", "_rotation", "t = ctx.one / (at + ctx.sqrt(at * at + ctx.one))"),
                         ("c", "_rotation", "c = ctx.one / ctx.sqrt(t * t + ctx.one)")],
    "tridiagonal": [("reflect", "_tridiagonalize", "v = [xi / norm_x for xi in x]"),
                    ("update", "_tridiagonalize", "a - vi * wj - wi * vj"),
                    ("shift", "_ql_shift", "_wilkinson_shift(d, e, l, eps, one, two, hypot)"),
                    ("other shift", "_ql_shift", "h = g if shift == \"rayleigh\" else zero"),
                    ("chase", "_tridiagonal_ql", "_chase_bulge(d, e, Z, l, m, one, zero, hypot"),
                    ("deflate", "_tridiagonal_ql", "if not abs(e[l]) > eps * tst1:"),
                    ("rotation", "_chase_bulge", "r = hypot(p, e[i])"),
                    ("bulge", "_chase_bulge", "d[i + 1] = h + s * (c * g + s * d[i])")],
    "power": [("apply", "power_iteration", "w = deflated(v)"),
              ("rayleigh", "power_iteration", "lam = dot(v, w)"),
              ("residual", "power_iteration", "r = ctx.norm(_axpy(-lam, v, w))"),
              ("normalise", "power_iteration", "w, nw = _normalized(w, ctx)"),
              ("start", "power_iteration", "v = _orthonormalize(vectors + [_random_vector(rng, d, ctx)]")],
    "subspace": [("apply", "_subspace_iteration", "AQ = [apply(q) for q in Q]"),
                 ("ritz", "_subspace_iteration", "ritz = _jacobi_eigh(H, None, 50, ctx, None)"),
                 ("residual", "_subspace_iteration", "res = [ctx.norm(_axpy(-theta[i], X[i], AX[i]))"),
                 ("orthonormalise", "_subspace_iteration", "Q = _orthonormalize(AX, rng, ctx)")],
}


def code_of(method: str, variant: str = "") -> dict[str, Any]:
    """The reference source a page shows beside the steps of ``method``, and where each step is in it.

    The functions are read with :func:`inspect.getsourcelines` when the page
    is written, and each step's statement is found by searching for it, so
    the highlighted lines follow the code wherever it moves.  Returns
    ``{"blocks": [{"name", "file", "first", "lines"}], "marks": {key: [block,
    line index]}}``; a statement no longer in the source has no mark (the page
    then highlights nothing for that step, and a test says so).

    >>> code = code_of("jacobi", "threshold")
    >>> block, line = code["marks"]["rotation"]
    >>> code["blocks"][block]["name"], "_rotation(app, aqq, apq, ctx)" in code["blocks"][block]["lines"][line]
    ('_cyclic_jacobi', True)
    """
    if not isinstance(method, str) or method not in METHODS:
        raise PurePCAError(f"code_of: method must be one of {', '.join(METHODS)}, got {method!r}")
    if not isinstance(variant, str) or variant not in ("",) + PIVOTS:
        raise PurePCAError(f"code_of: variant must be a Jacobi pivot order ({', '.join(PIVOTS)}) or '', "
                           f"got {variant!r}")
    key = f"jacobi {'classical' if variant == 'classical' else 'threshold'}" if method == "jacobi" else method
    modules = {"jacobi": _jacobi_module, "tridiagonal": _tridiagonal_module, "power": _power_module,
               "subspace": _power_module}
    module = modules[method]
    blocks: list[dict[str, Any]] = []
    names: dict[str, int] = {}
    marks: dict[str, list[int]] = {}
    for mark, name, statement in _CODE[key]:
        if name not in names:
            try:
                lines, first = inspect.getsourcelines(getattr(module, name))
            except (AttributeError, OSError, TypeError):  # moved or no source (a zipped install): no code
                continue
            names[name] = len(blocks)
            blocks.append({"name": name, "file": f"purepca/linalg/{os.path.basename(module.__file__ or '')}",
                           "first": first, "lines": [line.rstrip("\n") for line in lines]})
        block = names[name]
        found = [i for i, line in enumerate(blocks[block]["lines"]) if statement in line]
        if found:
            marks[mark] = [block, found[0]]
    return {"blocks": blocks, "marks": marks}


def _shifted(rows: list[list[float]], shift: Any) -> list[list[float]]:
    """``rows`` with ``shift`` added to every value; a shift that is not finite, or that carries a
    value past the float range, is an error naming it."""
    shift = as_real(shift, "shift")
    if not shift:
        return rows
    out = [[x + shift for x in row] for row in rows]
    for i, row in enumerate(out):
        for j, x in enumerate(row):
            if not math.isfinite(x):
                raise PurePCAError(f"shift: {shift!r} added to the data overflows the float range at row {i}, "
                                   f"column {j}")
    return out


def _standardised(rows: list[list[float]]) -> list[list[float]]:
    """The centred rows with every column divided by its standard deviation (divisor n - 1): the
    cloud whose covariance is the correlation matrix."""
    C = covariance_matrix(rows)
    sds = [math.sqrt(float(C[j][j])) for j in range(len(C))]
    return [[x / s if s else 0.0 for x, s in zip(row, sds)] for row in center(rows)]


@in_owned_decimal
@_in_float_range
def data_run(X: Any, *, digits: Precision = None, shift: float = 0.0, scale: bool = False,
             title: str = "Jacobi's method on a covariance matrix") -> dict[str, Any]:
    """:func:`jacobi_run` on the covariance matrix (divisor n - 1) of the rows ``X``, with the data;
    ``scale=True``: on the correlation matrix (the covariance of the standardised columns, as
    ``fit --scale`` and R's ``prcomp(scale. = TRUE)``), with the standardised cloud.

    ``shift`` is added to every value first (the covariance does not change,
    the floats that hold the data do: see :func:`naive_covariance`, which the
    run carries as ``naive``).  The cloud is the first two centred columns.

    >>> from purepca.datasets import toy_data
    >>> run = data_run(toy_data())
    >>> round(math.degrees(run["frames"][1]["theta"]), 4), len(run["data"]), run["naive"]["n"]
    (42.6777, 10, 10)
    """
    title = _title(title, "data_run")
    rows = as_matrix(X, name="data")
    if len(rows) < 2:
        raise PurePCAError(f"data: the covariance needs at least 2 rows, got {len(rows)}")
    rows = _shifted(rows, shift)
    ctx, _ = _digits_of(digits)
    C = correlation_matrix(rows, context=ctx) if scale else covariance_matrix(rows, context=ctx)
    cloud = _standardised(rows) if scale else center(rows)
    if len(rows[0]) == 1:
        cloud = [[row[0], 0.0] for row in cloud]
    if scale and title == "Jacobi's method on a covariance matrix":
        title = "Jacobi's method on a correlation matrix"
    run = jacobi_run(C, digits=digits, data=cloud, title=title)
    run["naive"] = naive_covariance(rows)
    run["shift"] = float(shift)
    run["scale"] = bool(scale)
    return run


def _power_frames(M: list[list[Any]], inverse: bool, found_values: list[Any], found_vectors: list[Any],
                  steps: list[PowerStep], ratios: list[float], ctx: Context) -> list[dict[str, Any]]:
    """The frames of :func:`power_run`: each iteration's vector, value, residual, rate and angle."""
    frames = []
    # the value and residual a frame shows, of the operator the iteration applied (A, or A⁻¹; from the second
    # pair on, deflated by the pairs found: B = A - Σ λ_j·u_j·u_jᵀ, Hotelling), formed exactly from its v
    operator = _exact_inverse(M) if inverse else [[Fraction(x) for x in row] for row in M]
    deflated = [operator]
    for lam, u in zip(found_values, found_vectors):
        us, fl = [Fraction(x) for x in u], Fraction(lam)
        deflated.append([[b - fl * ui * uj for b, uj in zip(row, us)] for row, ui in zip(deflated[-1], us)])
    operators = [_exact_operator(B) for B in deflated]
    for step in steps:
        assert step.vector is not None
        value, residual = _exact_pair(operators[step.eigenpair - 1], step.vector, None, ctx)
        frames.append({"kind": "power", "pair": step.eigenpair, "iteration": step.iteration,
                       "vector": [_num(x) for x in step.vector], "value": _num(value),
                       "residual": _num(residual), "tolerance": step.tolerance,
                       "rate": ratios[step.eigenpair - 1] ** (step.iteration - 1),
                       "angle": _angle_degrees(step.vector, found_vectors[step.eigenpair - 1])
                       if step.eigenpair <= len(found_vectors) else None})
    return frames


@in_owned_decimal
@_in_float_range
def power_run(A: Any, k: int = 1, *, seed: int = 0, digits: Precision = None,
              title: str = "Power iteration", start: Optional[Any] = None, inverse: bool = False) -> dict[str, Any]:
    """Every iteration of :func:`~purepca.linalg.power.power_iteration` on ``A`` (``k`` eigenpairs), as a run.

    The ``answer`` (the eigenpairs the iteration returns) and the ratios
    ``|λ_(i+1)/λ_i|`` of the eigenvalues (from :func:`~purepca.linalg.jacobi_eigh`)
    are carried for the picture and the predicted rate.  ``start`` is the
    first eigenpair's start vector (the learner's; default a random one).
    ``inverse`` runs *inverse* iteration instead: power iteration on ``A⁻¹``
    (each step solves ``A·w = v`` with A's Cholesky factor, so A must be
    positive definite), which finds the smallest eigenvalues: the frames'
    ``value`` is then the Rayleigh quotient ``vᵀA⁻¹v``, tending to ``1/λ_min``.

    >>> inv = power_run([[4, 1], [1, 3]], inverse=True)
    >>> round(1 / inv["frames"][-1]["value"], 9), round((7 - 5 ** 0.5) / 2, 9)
    (2.381966011, 2.381966011)

    >>> run = power_run([[4, 1], [1, 3]], seed=1)
    >>> f = run["frames"][5]
    >>> f["iteration"], abs(sum(x * x for x in f["vector"]) - 1) < 1e-15
    (6, True)
    """
    title = _title(title, "power_run")
    if not isinstance(inverse, bool):
        raise PurePCAError(f"player: power_run inverse must be True or False, got {inverse!r:.60}")
    ctx, shown = _digits_of(digits)
    M = _matrix_in(A, ctx)
    n = len(M)
    k = as_int(k, "k", low=1, high=n)
    steps: list[PowerStep] = []
    op: Any = M
    if inverse:  # power iteration on A⁻¹: each step solves A·w = v with A's Cholesky factor
        from .linalg.cholesky import _cholesky, _cholesky_solve
        try:
            factor = _cholesky(M, ctx)
        except PurePCAError as err:
            raise PurePCAError(f"player: inverse iteration needs a positive definite matrix: {err}") from None

        def op(v: list[Any]) -> list[Any]:
            return [row[0] for row in _cholesky_solve(factor, [[x] for x in v], ctx)]
    stopped = None
    try:
        result = power_iteration(op, n, k=k, seed=seed, context=ctx, trace=steps.append, start=start)
    except ConvergenceError as err:
        # |λ₁| = |λ₂| (as [[0, 1], [1, 0]]): no convergence. The page shows the pairs found and the first
        # iterations of the one that failed, and says so, instead of writing no page at all
        stopped = str(err)
        failed = steps[-1].eigenpair
        steps = [s for s in steps if s.eigenpair < failed or s.iteration <= STOPPED_POWER_ITERATIONS]
        result = None
    eigen = jacobi_eigh(M)
    spectrum = sorted((1 / float(v) if inverse else float(v) for v in eigen.values), key=abs, reverse=True)
    # every eigenvector, in the order the iteration finds them (|λ| down; for inverse iteration |1/λ| down)
    order = sorted(range(n), key=lambda i: abs(1 / float(eigen.values[i]) if inverse else float(eigen.values[i])),
                   reverse=True)
    eigenvectors = [[float(x) for x in eigen.vectors[i]] for i in order]
    ratios = [abs(spectrum[i + 1] / spectrum[i]) if i + 1 < n and spectrum[i] else 0.0 for i in range(k)]
    found_values = [] if result is None else list(result.values)
    found_vectors = [] if result is None else list(result.vectors)
    if result is None:  # the pairs found before the one that failed: from the trace's last frame of each
        for pair in sorted({s.eigenpair for s in steps})[:-1]:
            last = [s for s in steps if s.eigenpair == pair][-1]
            found_values.append(last.exact_value)
            found_vectors.append(list(last.vector or ()))
    answer = [[float(x) for x in v] for v in found_vectors]
    frames = _power_frames(M, inverse, found_values, found_vectors, steps, ratios, ctx)
    return {"schema": SCHEMA, "method": "power", "title": title, "n": n, "k": k, "seed": seed, "digits": shown,
            "precision": _precision_label(shown),
            "matrix": _rows(M), "frames": frames, "values": [_num(v) for v in found_values], "stopped": stopped,
            "answer": answer, "ratios": ratios, "eps": _num(ctx.eps), "code": code_of("power"),
            "start": None if start is None else [_num(x) for x in steps[0].vector or ()], "inverse": inverse,
            "all_eigenvectors": eigenvectors,
            "eigenvalues": [_num(ctx.one / v if inverse else v) for v in found_values]}


@in_owned_decimal
@_in_float_range
def subspace_run(A: Any, k: int = 2, *, block_size: Optional[int] = None, seed: int = 0,
                 digits: Precision = None, title: str = "Subspace iteration") -> dict[str, Any]:
    """Every iteration of :func:`~purepca.linalg.power.subspace_iteration` on ``A``, as a run.

    ``block_size`` defaults to ``k`` here (the solver's own default, a larger
    block, converges in very few iterations on a small matrix).  Frames
    ``kind = "subspace"``: ``iteration``, ``vectors`` (the k Ritz vectors),
    ``values`` (their Ritz values), ``residuals``, ``tolerance``, ``rates``
    (``|λ_(b+1)/λ_i|`` to the power ``iteration - 1``) and ``angles``
    (degrees to the vectors returned in the end).

    >>> run = subspace_run([[4, 1, 0.5], [1, 3, 0.3], [0.5, 0.3, 2]], 2)
    >>> f = run["frames"][-1]
    >>> len(f["vectors"]), max(f["residuals"]) <= f["tolerance"], [round(v, 6) for v in f["values"]]
    (2, True, [4.74201, 2.382076])
    """
    title = _title(title, "subspace_run")
    ctx, shown = _digits_of(digits)
    M = _matrix_in(A, ctx)
    n = len(M)
    k = as_int(k, "k", low=1, high=n)
    b = k if block_size is None else as_int(block_size, "block_size", low=k, high=n)
    steps: list[SubspaceStep] = []
    result = subspace_iteration(M, k=k, block_size=b, seed=seed, context=ctx, trace=steps.append)
    spectrum = sorted((float(v) for v in jacobi_eigh(M).values), key=abs, reverse=True)
    ratios = [abs(spectrum[b] / spectrum[i]) if b < n and spectrum[i] else 0.0 for i in range(k)]
    answer = [[float(x) for x in v] for v in result.vectors]
    frames = []
    exact = _exact_operator(M)
    for step in steps:
        angles = [_angle_degrees(x, u) for x, u in zip(step.vectors, result.vectors)]
        # each residual ‖Ax - θx‖ formed exactly from the x and θ shown (the solver's, at its precision, is
        # all rounding once it nears eps·‖A‖)
        residuals = [_exact_pair(exact, x, theta, ctx)[1] for x, theta in zip(step.vectors, step.values)]
        frames.append({"kind": "subspace", "iteration": step.iteration, "vectors": _rows(step.vectors),
                       "values": [_num(v) for v in step.values], "residuals": [_num(r) for r in residuals],
                       "tolerance": float(step.tolerance), "rates": [r ** (step.iteration - 1) for r in ratios],
                       "angles": angles})
    return {"schema": SCHEMA, "method": "subspace", "title": title, "n": n, "k": k, "block_size": b, "seed": seed,
            "digits": shown, "precision": _precision_label(shown), "matrix": _rows(M), "frames": frames,
            "values": [_num(v) for v in result.values],
            "answer": answer, "ratios": ratios, "eps": _num(ctx.eps), "code": code_of("subspace")}


def _tridiagonal_frames(M: list[list[Any]], steps: list[TridiagonalStep], ctx: Context) -> list[dict[str, Any]]:
    """The frames of :func:`tridiagonal_run`: A, each reflection, T, and each QL iteration with its chase."""
    n = len(M)
    # step 0 is A as given (the first reflection's frame already shows H₁AH₁)
    frames: list[dict[str, Any]] = [{"kind": "start", "matrix": _rows(M)}]
    ds: list[Any] = []  # T's diagonal and subdiagonal as the reflections make them
    es: list[Any] = []
    corner = M[0][0]  # the leading entry of the block still to reduce: T's next diagonal entry
    for step in steps:
        if step.kind == "householder":
            assert step.block is not None
            ds.append(corner)
            es.append(step.alpha)
            corner = step.block[0][0]
            current = _assembled(ds, es, step.block, n)
            # ‖x‖ is |alpha| (alpha = ∓‖x‖; an already reduced column keeps x = (alpha, 0, ...)), at the
            # run's precision: the solver's trace gives 0 for a column it leaves alone (A5's, x = (-1, 0, 0))
            frames.append({"kind": "householder", "k": step.index, "norm": _num(abs(step.alpha)),
                           "reflector": [_num(x) for x in step.reflector or ()], "beta": _num(step.beta),
                           "alpha": _num(step.alpha), "matrix": _rows(current)})
            continue
        assert step.before is not None and step.after is not None
        if not any(f["kind"] not in ("start", "householder") for f in frames):
            frames.append({"kind": "tridiagonal", "diagonal": [_num(x) for x in step.before[0]],
                           "offdiagonal": [_num(x) for x in step.before[1]]})
        Q, L = _ql_factors(step.before, step.shift, step.chase, ctx)
        if n <= CHASE_ORDER:
            with ctx.local():
                frames += _chase_frames(step.index, step.before, step.chase)
        frames.append({"kind": "ql", "index": step.index, "subdiagonal": step.value, "shift": step.shift,
                       "tolerance": step.tolerance, "diagonal": [_num(x) for x in step.after[0]],
                       "offdiagonal": [_num(x) for x in step.after[1]], "deflated": step.deflated,
                       "chase": [{"i": i, "c": _num(c), "s": _num(s), "bulge": _num(b)} for i, c, s, b in step.chase],
                       "Q": Q, "L": L})
    return frames


def _ql_convergence(frames: list[dict[str, Any]], norm: Any) -> list[dict[str, Any]]:
    """Per QL iteration of :func:`tridiagonal_run`: its subdiagonal's digits below ‖A‖, gained, and order."""
    convergence = []
    last: dict[int, Optional[float]] = {}
    count = 0
    for f in frames:
        if f["kind"] != "ql":
            continue
        count += 1
        digits_now = _digits_below(f["subdiagonal"], norm)
        before = last.get(f["index"])
        convergence.append({"iteration": count, "index": f["index"], "subdiagonal": f["subdiagonal"],
                            "digits": None if digits_now is None else round(digits_now, 2),
                            "deflated": f["deflated"],
                            "gained": round(digits_now - before, 2) if digits_now is not None and before is not None
                            else None,
                            "order": round(digits_now / before, 2) if digits_now and before and before > 0 else None})
        last[f["index"]] = digits_now
    return convergence


@in_owned_decimal
@_in_float_range
def tridiagonal_run(A: Any, *, digits: Precision = None,
                    title: str = "Householder tridiagonalisation and implicit QL", shift: str = "wilkinson",
                    choices: bool = True) -> dict[str, Any]:
    """The reflections and QL iterations of :func:`~purepca.linalg.tridiagonal_eigh` on ``A``, as a run.

    Frame 0 is ``kind = "start"`` (``matrix``: A as given); then
    frames ``kind = "householder"`` (``k``, ``norm`` of the column part
    folded onto the subdiagonal, ``reflector``, ``beta``, ``alpha`` the new
    subdiagonal entry, ``matrix`` the matrix after the reflection), one
    frame ``kind = "tridiagonal"`` (T as the reflections leave it) and
    ``kind = "ql"`` (``index`` l, ``subdiagonal`` ``|e_l|`` after the
    iteration, ``shift``, ``tolerance``, T's ``diagonal`` and
    ``offdiagonal`` (``T[i+1][i]``) after it, the ``chase`` of plane rotations
    ``{"i", "c", "s", "bulge"}`` (rotation in the plane (i, i+1), leaving
    the bulge ``|T[i-1][i+1]|``), ``deflated`` and the factors ``Q`` and ``L``
    of ``T - σ·I = Q·L`` the iteration formed implicitly (the product of the
    chase's rotations and ``Qᵀ·(T - σ·I)``, formed exactly and rounded once to the run's precision));
    before each ``ql`` frame, one ``kind = "chase"`` frame per rotation of its chase (up to
    ``CHASE_ORDER``: ``i``,
    ``c``, ``s``, the ``bulge`` and where it is, ``at``, and ``matrix``: T
    with the rotations so far applied to it explicitly).  ``shift`` is the QL
    shift (``"wilkinson"``, ``"rayleigh"`` or ``"none"``); with ``choices``
    the run carries the other shifts' runs (up to ``CHOICES_ORDER``).  A
    run under Rayleigh's or no shift that has not converged after
    ``SLOW_SHIFT_ITERATIONS·n`` iterations is cut there: ``stopped`` says so
    (else None) and ``values`` is empty.  ``convergence`` lists per QL
    iteration ``|e_l|``, its digits ``-log10(|e_l|/‖A‖_F)``, the digits
    gained and their ratio to the previous iteration's on the same l
    (``order``: 3 for cubic convergence, 1 for linear).

    >>> run = tridiagonal_run([[4, 1, 2], [1, 3, 1], [2, 1, 2]])
    >>> [f["kind"] for f in run["frames"]][:5], run["frames"][-1]["subdiagonal"] <= run["frames"][-1]["tolerance"]
    (['start', 'householder', 'tridiagonal', 'chase', 'chase'], True)
    >>> run["ql_shift"], sorted(run["choices"])
    ('wilkinson', ['none', 'rayleigh'])
    """
    title = _title(title, "tridiagonal_run")
    if shift not in SHIFTS:
        raise PurePCAError(f"player: shift must be one of {', '.join(SHIFTS)}, got {shift!r}")
    ctx, shown = _digits_of(digits)
    M = _matrix_in(A, ctx)
    n = len(M)
    steps: list[TridiagonalStep] = []
    stopped = None
    try:
        result = tridiagonal_eigh(M, context=ctx, trace=steps.append, shift=shift,
                                  max_iter=None if shift == "wilkinson" else SLOW_SHIFT_ITERATIONS * n)
        values = [_num(v) for v in result.values]
    except ConvergenceError as err:
        if shift == "wilkinson":
            raise
        # Rayleigh's shift can stall and no shift converges linearly: show the iterations made, and say so
        stopped, values = str(err), []
    frames = _tridiagonal_frames(M, steps, ctx)
    with ctx.local():
        norm = ctx.norm([x for row in M for x in row])
    convergence = _ql_convergence(frames, norm)
    run: dict[str, Any] = {"schema": SCHEMA, "method": "tridiagonal", "title": title, "n": n, "digits": shown,
                           "precision": _precision_label(shown),
                           "matrix": _rows(M), "frames": frames, "values": values,
                           "ql_shift": shift, "convergence": convergence, "code": code_of("tridiagonal"),
                           "stopped": stopped}
    if choices and n <= CHOICES_ORDER:
        run["choices"] = {name: tridiagonal_run(M, digits=digits, title=title, shift=name, choices=False)
                          for name in SHIFTS if name != shift}
    return run


@_in_float_range
def pivot_step(A: Any, p: int, q: int, *, vectors: Optional[Any] = None) -> dict[str, Any]:
    """One Jacobi rotation on the pivot the learner chose: the pair ``(p, q)`` (from 0) of the symmetric ``A``.

    The rotation is the reference solver's own (:func:`~purepca.linalg.jacobi._rotation` for t, c, s
    and :func:`~purepca.linalg.jacobi._rotate` to apply it), so a pivot clicked in the playground
    runs the statements a sweep runs.  ``vectors`` (rows, default the identity) are the rotations
    accumulated so far.  Returns ``theta`` (radians), ``t``, ``c``, ``s``, the ``matrix`` and
    ``vectors`` after it, ``off`` (the off-diagonal norm after it) and ``zeroed`` (``a_pq`` after, 0).

    >>> step = pivot_step([[2.0, 1.0], [1.0, 2.0]], 0, 1)
    >>> round(math.degrees(step["theta"]), 6), step["matrix"][0][1], step["off"]
    (45.0, 0.0, 0.0)
    >>> pivot_step([[2.0, 1.0], [1.0, 2.0]], 1, 1)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: pivot_step: the pivot must be an entry off the diagonal, ... got (1, 1)
    """
    M = _matrix_in(A, FLOAT)
    n = len(M)
    p = as_int(p, "p")
    q = as_int(q, "q")
    if not (0 <= p < n and 0 <= q < n) or p == q:
        raise PurePCAError(f"pivot_step: the pivot must be an entry off the diagonal, (p, q) with p != q from 0 to "
                           f"{n - 1}, got ({p}, {q})")
    if p > q:
        p, q = q, p
    V = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)] if vectors is None else \
        as_matrix(vectors, name="vectors")
    if len(V) != n or len(V[0]) != n:
        raise PurePCAError(f"pivot_step: vectors must be {n} x {n}, got {len(V)} x {len(V[0])}")
    apq, app, aqq = M[p][q], M[p][p], M[q][q]
    if apq == 0:  # nothing to zero: the identity
        t, c, s = 0.0, 1.0, 0.0
    else:
        t, c, s, tau = _jacobi_module._rotation(app, aqq, apq, FLOAT)
        h = t * apq
        _jacobi_module._rotate(M, V, p, q, s, tau, app - h, aqq + h, 0.0)
    return {"p": p, "q": q, "theta": math.atan(t), "t": t, "c": c, "s": s, "matrix": M, "vectors": V,
            "off": float(_off_norm(M, FLOAT)), "zeroed": M[p][q]}


def _chase_frames(l: int, before: Any, chase: Any) -> list[dict[str, Any]]:
    """One frame per plane rotation of a QL iteration's chase: T with the solver's rotations so far applied
    to it explicitly (``G·T·Gᵀ`` on rows and columns i, i+1, at the run's precision), the bulge they leave
    at (i-1, i+1) and its size as the solver recorded it."""
    d, e = before
    n = len(d)
    zero = 0 * d[0]
    T = [[d[i] if i == j else e[min(i, j)] if abs(i - j) == 1 else zero for j in range(n)] for i in range(n)]
    out = []
    for k, (i, c, s, bulge) in enumerate(chase):
        for row in T:  # T <- T·Gᵀ (columns i, i+1), then G·T (rows i, i+1)
            a, b = row[i], row[i + 1]
            row[i], row[i + 1] = c * a - s * b, s * a + c * b
        T[i], T[i + 1] = ([c * a - s * b for a, b in zip(T[i], T[i + 1])],
                          [s * a + c * b for a, b in zip(T[i], T[i + 1])])
        out.append({"kind": "chase", "index": l, "rotation": k + 1, "rotations": len(chase), "i": i, "c": _num(c),
                    "s": _num(s), "bulge": _num(bulge), "at": [i - 1, i + 1] if i > l else None, "matrix": _rows(T)})
    return out


def _ql_factors(before: Any, shift: Any, chase: Any, ctx: Context) -> tuple[list[list[Any]], list[list[Any]]]:
    """The QL factorisation this iteration made implicitly, for the page: ``T - σ·I = Q·L`` with Q the
    product of the chase's rotations (in the order applied) and ``L = Qᵀ·(T - σ·I)``, lower triangular up
    to the rounding of the rotations; the next T is ``L·Q + σ·I``.  Formed in fractions from the c, s and
    σ the page shows and rounded once each to the run's precision: in floats, the entries above L's
    diagonal came out as rounding noise (5.6e-17 where the product of the rotations shown gives 5e-32)."""
    d, e = [Fraction(x) for x in before[0]], [Fraction(x) for x in before[1]]
    n = len(d)
    one, zero = Fraction(1), Fraction(0)
    Q = [[one if i == j else zero for j in range(n)] for i in range(n)]
    for i, c, s, _ in chase:  # Q <- Q·Gᵀ, G the rotation of rows i and i+1
        c, s = Fraction(c), Fraction(s)
        for row in Q:
            a, b = row[i], row[i + 1]
            row[i], row[i + 1] = c * a - s * b, s * a + c * b
    sigma = Fraction(shift)
    L = []
    for i in range(n):  # L[i][j] = Σ_k Q[k][i]·S[k][j], S = T - σI tridiagonal: k in j-1..j+1
        row = []
        for j in range(n):
            total = Q[j][i] * (d[j] - sigma)
            if j > 0:
                total += Q[j - 1][i] * e[j - 1]
            if j + 1 < n:
                total += Q[j + 1][i] * e[j]
            row.append(total)
        L.append(row)
    return ([[_num(_in_ctx(x, ctx)) for x in row] for row in Q], [[_num(_in_ctx(x, ctx)) for x in row] for row in L])


def _assembled(ds: list[Any], es: list[Any], block: Any, n: int) -> list[list[Any]]:
    """The matrix after k = len(ds) reflections: T's first k diagonal and subdiagonal entries, then the block."""
    k = len(ds)
    zero = 0 * (block[0][0] if block else ds[0])
    out = [[zero] * n for _ in range(n)]
    for i in range(k):
        out[i][i] = ds[i]
        out[i][i + 1] = out[i + 1][i] = es[i]
    for i, row in enumerate(block):
        for j, x in enumerate(row):
            out[k + i][k + j] = x
    return out


def _digits_agreeing(x: Any, truth: Any) -> float:
    """-log10 of the relative error of ``x`` against ``truth`` (Decimals or Fractions), capped at 60."""
    x, truth = Fraction(x), Fraction(truth)
    if x == truth:
        return 60.0
    if truth == 0:
        return 0.0
    rel = abs((x - truth) / truth)
    return max(0.0, min(60.0, -math.log10(rel)))


def _sweep_ends(M: list[list[Any]], ctx: Context) -> list[JacobiStep]:
    """The sweep events of Jacobi on ``M`` in ``ctx``."""
    steps: list[JacobiStep] = []
    jacobi_eigh(M, context=ctx, trace=steps.append)
    return [s for s in steps if s.kind == "sweep"]


def _shown_number(x: Decimal) -> Any:
    """A value for the page: a float when it is a normal one, else its decimal string (17 digits)."""
    f = float(x)
    if x == 0 or (math.isfinite(f) and abs(f) >= sys.float_info.min):  # not beyond the range, not subnormal
        return f
    return f"{x:.17g}"


@in_owned_decimal
@_in_float_range
def replay(A: Any, digits: int = 50) -> dict[str, Any]:
    """Jacobi on ``A`` in binary32, in floats (binary64) and at ``digits`` decimal digits, sweep by
    sweep, side by side.

    Per sweep and precision (keys ``binary32_*``, ``float_*``, ``exact_*``): off(A) at its end,
    ``-log10(off(A)/‖A‖_F)`` (the digits to which the matrix is diagonal) and the digits gained
    in the sweep, which about double per sweep once off(A) is small (quadratic convergence) until
    the precision is reached; and (``*_value_digits``) the digits to which the binary32 and float
    runs' diagonals agree with the eigenvalues of the long run: they stop near 7 and near 16.

    The matrix is scaled by a power of two first, as :func:`~purepca.linalg.jacobi_eigh` scales
    it (exact for doubles), so matrices near the ends of the float range (1e-300, subnormal
    entries, 1.7e308) replay without overflow or underflow; the binary32 run takes that scaled
    matrix rounded to binary32 (as a single-precision program that scales would), the long run
    the matrix itself.  Norms and ratios are computed in decimal, so no digit count is an artefact
    of the float range.  Values beyond the float range are shown as decimal strings.

    >>> r = replay([[4, 1, 0.5], [1, 3, 0.3], [0.5, 0.3, 2]])
    >>> [row["sweep"] for row in r["sweeps"]][:3], r["digits"]
    ([1, 2, 3], 50)
    >>> exact = max(row["exact_digits"] or 0 for row in r["sweeps"])
    >>> exact > 45, max(row.get("float_value_digits", 0) for row in r["sweeps"]) > 14
    (True, True)
    >>> 6 < max(row.get("binary32_value_digits", 0) for row in r["sweeps"]) < 8
    True
    """
    digits = as_int(digits, "digits", low=17)
    M = as_symmetric(A)
    n = len(M)
    ctx = get_context(digits)
    scale = FLOAT.scale_exponent(max((abs(x) for row in M for x in row), default=0.0))
    scaled = [[math.ldexp(x, -scale) for x in row] for row in M]
    exact = [[Decimal(x) for x in row] for row in M]
    runs = {"binary32": _sweep_ends([[BINARY32.convert(x) for x in row] for row in scaled], BINARY32),
            "float": _sweep_ends(scaled, FLOAT), "exact": _sweep_ends(exact, ctx)}
    truth = jacobi_eigh(exact, context=ctx).values
    wide = decimal.Context(prec=digits + 10, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
    unit = {"binary32": wide.power(2, scale), "float": wide.power(2, scale), "exact": Decimal(1)}
    total = Decimal(0)
    for row_ in exact:
        for x in row_:
            total = wide.add(total, wide.multiply(x, x))
    norm = wide.sqrt(total)  # in decimal: no square overflows or underflows
    rows = []
    last = {name: 0.0 for name in runs}
    for i in range(max(len(steps) for steps in runs.values())):
        row: dict[str, Any] = {"sweep": i + 1}
        for name, steps in runs.items():
            if i >= len(steps):
                continue
            off = wide.multiply(Decimal(steps[i].off), unit[name])  # in the input's units, exactly enough
            row[f"{name}_off"] = _num(steps[i].off) if name == "exact" else _shown_number(off)
            if off == 0 or norm == 0:  # exactly diagonal: no digit count
                row[f"{name}_digits"] = row[f"{name}_gain"] = None
            else:
                d = max(0.0, -float(wide.divide(off, norm).log10(wide)))
                row[f"{name}_digits"] = round(d, 2)
                row[f"{name}_gain"] = round(d - last[name], 2)
                last[name] = d
            if name != "exact":
                matrix = steps[i].matrix
                assert matrix is not None
                diag = sorted((wide.multiply(Decimal(matrix[m][m]), unit[name]) for m in range(n)), reverse=True)
                row[f"{name}_value_digits"] = round(min(_digits_agreeing(v, t) for v, t in zip(diag, truth)), 2)
        rows.append(row)
    return {"digits": digits, "norm": _shown_number(norm), "sweeps": rows, "values": [str(v) for v in truth]}


def _plain_sum(values: Iterable[float]) -> float:
    """Left to right, one rounding per addition: the textbook loop (the built-in ``sum`` of floats is
    compensated from Python 3.12 on, which is not what a textbook shows)."""
    total = 0.0
    for v in values:
        total += v
    return total


@_in_float_range
def naive_covariance(X: Any) -> dict[str, Any]:
    """The textbook one-pass covariance ``(Σxy - n·x̄·ȳ)/(n-1)`` in floats against purepca's and the exact one.

    The exact covariance of the floats given is computed with fractions;
    purepca's is :func:`~purepca.covariance.covariance_matrix` (two passes
    and a correction).  ``naive_digits`` and ``purepca_digits`` are the
    digits each gets right (``-log10`` of the relative error, at most 17).
    On seed 003's data shifted by 1e8 the naive form loses every digit.

    >>> from purepca.datasets import toy_data
    >>> r = naive_covariance([[x + 1e8 for x in row] for row in toy_data()])
    >>> min(e["naive_digits"] for e in r["entries"]) < 2, min(e["purepca_digits"] for e in r["entries"]) > 15
    (True, True)
    """
    rows = as_matrix(X, name="data")
    n, d = len(rows), len(rows[0])
    if n < 2:
        raise PurePCAError(f"data: the covariance needs at least 2 rows, got {n}")
    ours = covariance_matrix(rows)
    means = [_plain_sum(row[j] for row in rows) / n for j in range(d)]  # the textbook way: plain float sums
    exact_means = [sum(Fraction(row[j]) for row in rows) / n for j in range(d)]
    entries = []
    for i in range(d):
        for j in range(i, d):
            sxy = _plain_sum(row[i] * row[j] for row in rows)
            naive: Any = (sxy - n * means[i] * means[j]) / (n - 1)
            exact = Fraction(sum(((Fraction(row[i]) - exact_means[i]) * (Fraction(row[j]) - exact_means[j])
                              for row in rows), Fraction(0))) / (n - 1)
            if math.isfinite(naive):
                naive_digits = round(min(17.0, _digits_agreeing(naive, exact)), 1)
            else:  # the squares overflowed (inf, or inf - inf): no digit is right; shown as text
                naive, naive_digits = f"{naive} (overflow)", 0.0
            entries.append({"i": i, "j": j, "naive": naive, "purepca": float(ours[i][j]),
                            "exact": f"{Decimal(exact.numerator) / Decimal(exact.denominator):.17g}",
                            "naive_digits": naive_digits,
                            "purepca_digits": round(min(17.0, _digits_agreeing(ours[i][j], exact)), 1)})
    offset = max(abs(m) for m in means)
    return {"n": n, "d": d, "offset": offset, "entries": entries}


def to_json(run: dict[str, Any]) -> str:
    """A run as compact JSON text (floats as ``repr``, so they read back to the same bits).

    >>> text = to_json(jacobi_run([[2.0, 1.0], [1.0, 2.0]]))
    >>> json.loads(text)["frames"][1]["c"] == jacobi_run([[2.0, 1.0], [1.0, 2.0]])["frames"][1]["c"]
    True
    """
    if not isinstance(run, dict):
        raise PurePCAError(f"to_json: a run is a dict (from jacobi_run, power_run, ...), got {type(run).__name__}")
    try:
        return json.dumps(run, separators=(",", ":"), allow_nan=False)
    except ValueError:  # an inf or NaN in the run: a step overflowed the float range
        raise PurePCAError("to_json: the run holds a number beyond the float range (inf or NaN: a step "
                           "overflowed): scale the matrix down") from None
    except (TypeError, RecursionError) as err:  # bytes, a set, an object, a cycle: not a run
        raise PurePCAError(f"to_json: the run holds a value JSON cannot write ({err}); a run holds numbers, "
                           "strings, lists and dicts only") from None


@functools.lru_cache(maxsize=None)
def _page_file(name: str) -> str:
    """The page's own text, ``purepca/pages/<name>`` (HTML, CSS, script), read once as package data.

    Read through :mod:`importlib.resources`, as :mod:`purepca.golden` reads its cases: from a wheel,
    an sdist or a zip alike.  The text is the page's byte for byte (universal newlines: a checkout
    with CRLF line ends gives the same page)."""
    return resources.files(__name__.rpartition(".")[0]).joinpath("pages").joinpath(name).read_text(encoding="utf-8")


def _escape(text: str) -> str:
    """Text for the page: the one escaper, :func:`purepca.markup.escape_text`."""
    return escape_text(text)


def player_html(run: dict[str, Any], *, replay_table: Optional[dict[str, Any]] = None) -> str:
    """One self-contained HTML page that steps through ``run`` (inline SVG, CSS and script; no network).

    ``replay_table`` (from :func:`replay`) adds the float / N-digit table.

    >>> page = player_html(jacobi_run([[2.0, 1.0], [1.0, 2.0]]))
    >>> page.startswith("<!DOCTYPE html>"), "http" in page.replace("http://www.w3.org", "")
    (True, False)
    """
    if not isinstance(run, dict) or run.get("schema") != SCHEMA:
        if not isinstance(run, dict):
            raise PurePCAError(f"player_html: run must be a player run (a dict from jacobi_run, power_run, ...), "
                               f"got {type(run).__name__}")
        raise PurePCAError(f"player_html: not a player run (schema {run.get('schema')!r}, expected {SCHEMA!r})")
    if replay_table is not None and not isinstance(replay_table, dict):
        raise PurePCAError(f"player_html: replay_table must be a replay() table or None, got "
                           f"{type(replay_table).__name__}")
    payload = {"run": run, "replay": replay_table, "page_id": ""}
    title = _escape(str(run.get("title", "purepca player")))
    # escaped first, then the template filled in one pass: a title holding %SCRIPT% stays text
    return fill_template(_page_file("player.html"), {
        "TITLE": title, "CSS": _page_file("player.css"), "SCRIPT": _page_file("player.js"),
        "DATA": json_for_script(to_json(payload))})


class Player:
    """A player page that shows itself inline in Jupyter: ``_repr_html_`` is the page in an
    ``<iframe srcdoc>``, the page escaped by the one escaper (:func:`purepca.markup.escape_text`)
    so that no text of it can end the attribute.  ``str()`` is the page itself.

    >>> p = teach("jacobi", matrix=[[2.0, 1.0], [1.0, 2.0]], replay_digits=0, inline=True)
    >>> html = p._repr_html_()
    >>> inside = html.split('srcdoc="', 1)[1].split('" style=', 1)[0]  # the page, as the attribute holds it
    >>> html.startswith('<iframe class="purepca-player" srcdoc="&lt;!DOCTYPE html&gt;'), '"' in inside
    (True, False)
    >>> str(p).startswith("<!DOCTYPE html>")
    True
    """

    def __init__(self, page: str, *, height: int = 900) -> None:
        self.page = page
        self.height = as_int(height, "height", low=100)

    def _repr_html_(self) -> str:
        # the page posts its height (and its id) to the notebook, which sizes the frame to it; without
        # scripts in the notebook the frame keeps ``height``
        page_id = f"purepca-player-{id(self):x}"
        page = self.page.replace('"page_id":""', f'"page_id":"{page_id}"', 1)
        return (f'<iframe class="purepca-player" srcdoc="{escape_text(page)}" '
                f'style="width:100%;height:{self.height}px;border:1px solid #ddd" '
                f'sandbox="allow-scripts" id="{page_id}"></iframe>'
                f'<script>window.addEventListener("message", e => {{ const d = e.data || {{}}; '
                f'if (d.purepcaPlayer === "{page_id}" && d.height > 0) '
                f'document.getElementById("{page_id}").style.height = (d.height + 24) + "px"; }});</script>')

    def __str__(self) -> str:
        return self.page

    def __repr__(self) -> str:
        return f"<purepca Player page, {len(self.page):,} characters>"


@overload
def teach(method: str, *, matrix: Optional[Any] = ..., data: Optional[Any] = ..., digits: Optional[int] = ...,
          replay_digits: int = ..., components: Optional[int] = ..., seed: int = ..., shift: float = ...,
          title: Optional[str] = ..., scale: bool = ..., inline: Literal[False] = ...) -> str: ...
@overload
def teach(method: str, *, matrix: Optional[Any] = ..., data: Optional[Any] = ..., digits: Optional[int] = ...,
          replay_digits: int = ..., components: Optional[int] = ..., seed: int = ..., shift: float = ...,
          title: Optional[str] = ..., scale: bool = ..., inline: Literal[True]) -> Player: ...


@in_owned_decimal
def teach(method: str, *, matrix: Optional[Any] = None, data: Optional[Any] = None, digits: Optional[int] = None,
          replay_digits: int = 50, components: Optional[int] = None, seed: int = 0, shift: float = 0.0,
          title: Optional[str] = None, scale: bool = False, inline: bool = False) -> Union[str, Player]:
    """The page ``purepca teach`` writes: a run of ``method`` (``"jacobi"``, ``"power"``,
    ``"subspace"`` or ``"tridiagonal"``) on ``matrix`` or on the covariance of ``data``
    (its correlation matrix with ``scale=True``), with the binary32 / float / N-digit replay
    (``replay_digits = 0`` leaves it out).  ``components`` is the eigenpairs power iteration finds
    (default 1) or subspace iteration's block (default 2), at most the matrix's order.  ``shift``
    (added to every data value) and ``scale`` apply to data only.  ``inline=True`` returns a
    :class:`Player`, which Jupyter shows in the notebook.  Every option is checked before any work.

    >>> page = teach("jacobi", matrix=[[2.0, 1.0], [1.0, 2.0]], replay_digits=0)
    >>> len(page) < 300_000
    True
    """
    if (matrix is None) == (data is None):
        raise PurePCAError("teach: give a matrix or data, not both and not neither")
    # every option checked before any work (a 3 x 10,000 table is refused before its covariance is formed)
    if not isinstance(method, str) or method not in METHODS:
        raise PurePCAError(f"teach: method must be one of {', '.join(METHODS)}, got {method!r}")
    if title is not None and not isinstance(title, str):
        raise PurePCAError(f"teach: title must be text (a str) or None, got {type(title).__name__} {title!r:.40}")
    if digits is not None:
        digits = as_int(digits, "digits", low=17)
    replay_digits = as_int(replay_digits, "replay_digits", low=0)
    if 0 < replay_digits < 17:
        raise PurePCAError(f"teach: replay_digits must be 0 (no replay) or an int >= 17, got {replay_digits}")
    seed = as_int(seed, "seed")
    if components is not None:
        components = as_int(components, "components", low=1)
    if not isinstance(scale, bool):
        raise PurePCAError(f"teach: scale must be True or False, got {scale!r:.40}")
    shift = as_real(shift, "shift")
    if data is not None:
        rows = as_matrix(data, name="data")
        if len(rows[0]) > MAX_ORDER:
            raise PurePCAError(f"teach: the data have {len(rows[0])} columns; the player draws a covariance of at "
                               f"most {MAX_ORDER} x {MAX_ORDER} (choose columns)")
        if len(rows) < 2:
            raise PurePCAError(f"data: the covariance needs at least 2 rows, got {len(rows)}")
        order = len(rows[0])
    else:
        if scale:
            raise PurePCAError("teach: scale makes the correlation matrix of data; a matrix given has no data to scale")
        if shift:
            raise PurePCAError("teach: shift moves the data's values; a matrix given has no data to shift")
        M: Any = _matrix_in(matrix, FLOAT)
        order = len(M)
    if components is None:
        components = 2 if method == "subspace" and order > 1 else 1
    if method in ("power", "subspace") and components > order:
        raise PurePCAError(f"teach: components must be at most {order}, the order of the matrix, got {components}")
    if data is not None:
        rows = _shifted(rows, shift)
        M = correlation_matrix(rows) if scale else covariance_matrix(rows)
    if method == "jacobi":
        run = data_run(rows, digits=digits, scale=scale) if data is not None else jacobi_run(M, digits=digits)
    elif method in ("power", "subspace"):
        if method == "power":
            run = power_run(M, components, seed=seed, digits=digits)
        else:
            run = subspace_run(M, components, seed=seed, digits=digits)
        if data is not None:
            run["data"] = [[float(x) for x in r[:2]] for r in (_standardised(rows) if scale else center(rows))]
    else:
        run = tridiagonal_run(M, digits=digits)
    if title:
        run["title"] = title
    if data is not None:
        run["shift"] = float(shift)
    if order <= CHOICES_ORDER:  # the page's precision control: the same matrix in binary32, binary64 and N digits
        _add_precisions(run, method, M, digits, replay_digits or 50, components, seed)
    table = replay(M, replay_digits) if replay_digits and method == "jacobi" else None  # the Jacobi page's own table
    page = player_html(run, replay_table=table)
    return Player(page) if inline else page


def _estimate_digits(run: dict[str, Any], truth: list[Decimal]) -> list[dict[str, Any]]:
    """The run's replay: per sweep (Jacobi), QL iteration, or iteration (power, subspace), the digits to which
    its eigenvalue estimates agree with the long run's eigenvalues ``truth`` (the worst of them): about 7 in
    binary32, 16 in floats, N at N digits."""
    by_size = sorted(truth, key=abs, reverse=True)

    def agree(estimates: list[Any], wanted: list[Decimal]) -> float:
        return round(min(_digits_agreeing(Decimal(x) if isinstance(x, str) else x, t)
                         for x, t in zip(estimates, wanted)), 2)
    rows: list[dict[str, Any]] = []
    method, frames = run["method"], run["frames"]
    if method == "jacobi":
        for sweep in run["sweeps"]:
            M = frames[sweep["frame"]]["matrix"]
            diag = sorted((Decimal(M[i][i]) if isinstance(M[i][i], str) else M[i][i] for i in range(run["n"])),
                          reverse=True)
            rows.append({"step": f"sweep {sweep['sweep']}", "frame": sweep["frame"], "digits": agree(diag, truth)})
    elif method == "tridiagonal":
        count = 0
        for i, f in enumerate(frames):
            if f["kind"] == "ql":
                count += 1
                diag = sorted((Decimal(x) if isinstance(x, str) else x for x in f["diagonal"]), reverse=True)
                rows.append({"step": f"QL iteration {count}", "frame": i, "digits": agree(diag, truth)})
    elif method == "power":
        for i, f in enumerate(frames):
            rows.append({"step": f"pair {f['pair']}, iteration {f['iteration']}", "frame": i,
                         "digits": agree([f["value"]], [by_size[f["pair"] - 1]])})
    else:
        for i, f in enumerate(frames):
            rows.append({"step": f"iteration {f['iteration']}", "frame": i,
                         "digits": agree(f["values"], by_size[:len(f["values"])])})
    return rows


def _add_precisions(run: dict[str, Any], method: str, M: Any, digits: Optional[int], long: int, components: int,
                    seed: int) -> None:
    """The same matrix stepped in binary32, binary64 and N digits (``run["precisions"]``, keyed by label;
    the run itself is the one of its own precision), each with its replay against the ``long``-digit
    eigenvalues (``run["replay_run"]``)."""
    N = digits if digits is not None else long
    truth_ctx = get_context(max(N, long) + 10)  # longer than any run it judges
    with truth_ctx.local():
        exact = [[Decimal(x) if not isinstance(x, Decimal) else x for x in row] for row in M]
    truth = sorted(jacobi_eigh(exact, context=truth_ctx).values, reverse=True)
    runs: dict[str, Any] = {}
    for precision in ("binary32", None, N):
        label = _precision_label(_digits_of(precision)[1])
        try:
            other = run if label == run["precision"] else _run_in(method, M, precision, run["title"], components, seed)
        except PurePCAError:  # beyond this precision's range (binary32 stops at 3.4e38): no such choice
            continue
        other["replay_run"] = _estimate_digits(other, truth)
        other["replay_digits"] = max(N, long)
        if other is not run:
            runs[label] = other
    run["precisions"] = runs


def _run_in(method: str, M: Any, precision: Precision, title: str, components: int, seed: int) -> dict[str, Any]:
    """The page's run of ``method`` on ``M`` at another precision (without the other choices)."""
    if method == "jacobi":
        return _without_before(jacobi_run(M, digits=precision, title=title, choices=False))
    if method == "tridiagonal":
        return tridiagonal_run(M, digits=precision, title=title, choices=False)
    if method == "power":
        return power_run(M, components, seed=seed, digits=precision, title=title)
    return subspace_run(M, components, seed=seed, digits=precision, title=title)


def _playground_fit(text: str, kind: str, method: str, shift: float = 0.0, id_column: Optional[str] = None) -> str:
    """What the playground (docs/playground, in Pyodide) runs on the text typed: ``kind`` ``"data"`` (CSV with a
    header; its covariance, with ``shift`` added and an ``id_column`` kept out) or ``"matrix"`` (a symmetric
    matrix as CSV numbers, no header: the teacher's).  JSON of the fit (for a matrix: its eigenpairs), the
    page, the rows and the matrix the pivot clicks and QL steps work on; or ``{"error": one line}``."""
    from .csvdata import read_table
    from .errors import one_line
    try:
        if kind not in ("data", "matrix"):
            raise PurePCAError(f"the text is data or a matrix, got {kind!r}")
        lines = str(text).splitlines()
        if kind == "matrix":
            M = _matrix_in(read_table(lines, source="the matrix", header=False).rows, FLOAT)
            eigen = jacobi_eigh(M)
            return json.dumps({"names": [f"x{j + 1}" for j in range(len(M))],
                               "variance": [repr(float(v)) for v in eigen.values],
                               "components": [[repr(float(x)) for x in row] for row in eigen.vectors],
                               "page": teach(method, matrix=M, replay_digits=50), "rows": [], "mean": [],
                               "sd": [math.sqrt(max(float(v), 0.0)) for v in eigen.values],
                               "covariance": [[float(x) for x in row] for row in M], "kind": "matrix"})
        from .pca import PCA
        table = read_table(lines, source="the data", id_column=id_column or None)
        rows = [[x + shift for x in row] for row in table.rows]
        pca = PCA().fit(rows)
        C = covariance_matrix(rows)
        return json.dumps({"names": table.names, "variance": [repr(x) for x in pca.explained_variance_],
                           "components": [[repr(x) for x in row] for row in pca.components_],
                           "page": teach(method, data=rows, replay_digits=50), "rows": [row[:3] for row in table.rows],
                           "sd": [math.sqrt(v) for v in pca.explained_variance_],
                           "mean": [math.fsum(row[j] for row in table.rows) / len(table.rows)
                                    for j in range(min(3, len(table.names)))],
                           "covariance": [[float(x) for x in row] for row in C], "kind": "data"})
    except PurePCAError as err:
        # the command's advice in the playground's words: its field, not the option
        return json.dumps({"error": one_line(str(err)).replace("keep it out with --id-column", "type it in the field "
                                                                  "'id column' to keep it out:")})


def add_teach_arguments(p: Any) -> None:
    """The options of ``purepca teach`` (for :mod:`purepca.cli`)."""
    from .datasets import DATASETS
    p.add_argument("file", nargs="?", default=None, help="a CSV file of data (its covariance is diagonalised)")
    p.add_argument("--dataset", choices=DATASETS, default=None, help="a bundled data set instead of FILE")
    p.add_argument("--matrix", default=None, metavar="FILE", help="a symmetric matrix as CSV (numbers, no header)")
    p.add_argument("--columns", default=None, metavar="COLS", help="the columns (default: all numeric ones)")
    p.add_argument("--id-column", default=None, metavar="COL", help="a label column kept out")
    p.add_argument("--no-header", action="store_true", help="FILE's first line is data")
    p.add_argument("--delimiter", default=",", metavar="CHAR", help="the field separator (default: ,)")
    p.add_argument("--encoding", default="utf-8", metavar="NAME", help="the file's text encoding (default: utf-8)")
    p.add_argument("--method", choices=METHODS, default="jacobi", help="(default: jacobi)")
    p.add_argument("--digits", type=int, default=None, metavar="N", help="run the solver at N digits (>= 17)")
    p.add_argument("--replay-digits", type=int, default=50, metavar="N",
                   help="the float / N-digit replay table (default: 50; 0 leaves it out)")
    p.add_argument("--components", type=int, default=None, metavar="K",
                   help="the eigenpairs power iteration finds (default: 1) or subspace iteration's block (default: 2)")
    p.add_argument("--seed", type=int, default=0, help="power iteration's start vector (default: 0)")
    p.add_argument("--shift", type=float, default=0.0, help="add this to every data value (e.g. 1e8; data only)")
    p.add_argument("--scale", action="store_true",
                   help="the correlation matrix of the data instead of the covariance (as fit --scale)")
    p.add_argument("--title", default=None, help="the page's title")
    p.add_argument("-o", "--output", "--out", dest="output", default=None, metavar="FILE",
                   help="write the page here instead of standard output")


def _check_teach_options(args: Any) -> None:
    """``teach``'s options checked before any file is read, each error naming its option."""
    if args.digits is not None and args.digits < 17:
        raise PurePCAError(f"teach: --digits must be at least 17 (an N-digit run; leave it out for floats), "
                           f"got {args.digits}")
    if 0 < args.replay_digits < 17 or args.replay_digits < 0:
        raise PurePCAError("teach: --replay-digits must be 0 (no replay table) or at least 17, "
                           f"got {args.replay_digits}")
    if args.components is not None and args.components < 1:
        raise PurePCAError(f"teach: --components must be at least 1, got {args.components}")
    if args.matrix is not None and args.scale:
        raise PurePCAError("teach: --scale makes the correlation matrix of data; --matrix gives no data to scale")
    if args.matrix is not None and args.shift:
        raise PurePCAError("teach: --shift moves the data's values; --matrix gives no data to shift")
    if not math.isfinite(args.shift):
        raise PurePCAError(f"teach: --shift must be a finite number, got {args.shift}")
    if args.output == "":
        raise PurePCAError("teach: --output is empty: name a file, or - for standard output")


def _check_teach_sizes(args: Any, rows: Optional[list[list[float]]], is_matrix: bool) -> None:
    """The table read against the player's limits, before any matrix is formed from it."""
    what = f"--matrix {args.matrix}" if is_matrix else (args.dataset or args.file)
    if not rows:
        raise PurePCAError(f"teach: {what} holds no numbers")
    order = len(rows[0])
    if order > MAX_ORDER:
        raise PurePCAError(f"teach: {what} has {order} columns; the player draws at most {MAX_ORDER} x {MAX_ORDER}"
                           + ("" if is_matrix else " (choose some with --columns)"))
    if args.components is not None and args.method in ("power", "subspace") and args.components > order:
        raise PurePCAError(f"teach: --components {args.components} is more than the {order} eigenpairs of a "
                           f"{order} x {order} matrix")


def teach_command(args: Any) -> None:
    """``purepca teach``: read the options :func:`add_teach_arguments` declared, write the page."""
    from .csvdata import read_table
    from .files import read_text as _read, text_lines as _lines, write_output
    from .datasets import load
    from .files import check_output_path
    _check_teach_options(args)
    check_output_path(args.output, "--output")
    data = matrix = None
    if args.matrix is not None:
        matrix = read_table(_lines(_read(args.matrix, args.encoding)), source=args.matrix, delimiter=args.delimiter,
                            header=False).rows
    elif args.dataset is not None:
        ds = load(args.dataset)
        columns = args.columns if args.columns is not None or ds.active is None else ",".join(ds.active)
        data = read_table(ds.to_csv().splitlines(), source=args.dataset, columns=columns,
                          id_column=args.id_column if args.id_column is not None else ds.label_name).rows
    else:
        data = read_table(_lines(_read(args.file, args.encoding)), source=args.file, delimiter=args.delimiter,
                          header=not args.no_header, columns=args.columns, id_column=args.id_column).rows
    _check_teach_sizes(args, matrix if matrix is not None else data, matrix is not None)
    page = teach(args.method, matrix=matrix, data=data, digits=args.digits, replay_digits=args.replay_digits,
                 components=args.components, seed=args.seed, shift=args.shift, title=args.title,
                 scale=args.scale)
    write_output(page.rstrip("\n"), args.output)  # the door fit writes through: -, links, devices, FIFOs, umask
