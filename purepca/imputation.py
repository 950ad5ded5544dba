"""The fixed point of an EM imputation, accelerated, with an error estimate that allows for slow convergence.

PCA imputation (``PCA(missing="em")``) repeats one step: fit with the holes
filled, put the reconstruction into the holes.  The step ``F`` converges
linearly, at a rate ``ρ`` (the fraction of missing information) that can be
0.999 and more on unscaled data, so that a change per step of ``δ`` leaves an
error of about ``δ·ρ/(1 - ρ)``: stopping when the values "stop moving" is not
enough.  :func:`squarem` takes Varadhan and Roland's (2008) squared
extrapolation (SQUAREM, scheme S3): from ``x``, ``r = F(x) - x`` and
``v = F(F(x)) - 2F(x) + x`` give the step length ``α = -‖r‖/‖v‖`` (at most
-1) and the new point ``x - 2αr + α²v``, followed by one plain step.  Its
fixed points are those of ``F``.  It stops when the error estimate
``‖F(F(x)) - F(x)‖∞ / (1 - ρ̂)``, with ``ρ̂ = ‖F(F(x)) - F(x)‖/‖F(x) - x‖``,
is below the tolerance.

A linear map with rates 0.99 and 0.5, whose plain iteration needs about
2,800 steps to come within 1e-12 of its fixed point (2, 0.4):

>>> x, steps = squarem(lambda v: [0.99 * v[0] + 0.02, 0.5 * v[1] + 0.1 * v[0]], [0.0, 0.0], 1e-12, 1000)
>>> [round(t, 11) for t in x], steps
([2.0, 0.4], 23)

Where the steps reach the rounding of the map, its values may alternate between two
neighbouring floats for ever (``F(F(x)) = x``, a rate of 1 to the estimate): such a cycle
within the tolerance ends the iteration.

>>> squarem(lambda v: [1.0 + 2.0 ** -52 if v[0] == 1.0 else 1.0], [1.0], 1e-12, 100)
([1.0000000000000002], 2)

SQUAREM's step is never shorter than two plain steps (``α ≤ -1``), so a map
that oscillates (a negative rate) gains nothing; EM steps do not oscillate.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from .errors import ConvergenceError, PurePCAError
from .params import _show, as_int, as_real

__all__ = ["squarem"]

#: The rate estimate is capped here, so that the error estimate stays finite.
MAX_RATE = 1.0 - 1e-9


def _norm(v: Sequence[float]) -> float:
    return math.sqrt(math.fsum(x * x for x in v))


def squarem(step: Callable[[list[float]], list[float]], x0: Sequence[float], tol: float,
            max_steps: int) -> tuple[list[float], int]:
    """The fixed point of ``step`` from ``x0``, to ``tol`` (max-norm, error estimate included); returns it
    and the number of steps taken.  Raises :class:`ConvergenceError` past ``max_steps`` steps.

    >>> x, steps = squarem(lambda v: [0.5 * v[0] + 1.0, 0.9 * v[1]], [0.0, 1.0], 1e-12, 200)
    >>> abs(x[0] - 2.0) < 1e-12 and abs(x[1]) < 1e-12
    True
    """
    if not callable(step):
        raise PurePCAError(f"step must be a function (values -> values), got {_show(step)}")
    if isinstance(x0, (str, bytes)) or not isinstance(x0, Sequence):
        raise PurePCAError(f"x0 must be a list of finite real numbers, got {_show(x0)}")
    x = [as_real(v, f"x0[{i}]") for i, v in enumerate(x0)]
    tol = as_real(tol, "tol", low=0.0)
    max_steps = as_int(max_steps, "max_steps", low=0)
    steps = 0
    estimate = math.inf
    while steps + 2 <= max_steps:
        x1 = step(x)
        x2 = step(x1)
        steps += 2
        r = [a - b for a, b in zip(x1, x)]
        d2 = [a - b for a, b in zip(x2, x1)]
        nr, nd = _norm(r), _norm(d2)
        if nr == 0.0 or nd == 0.0:
            return x2 if nd == 0.0 else x1, steps
        if x2 == x and max(map(abs, r)) <= tol:
            # F(F(x)) = x: a cycle of the rounding (the values alternate between neighbouring floats),
            # not a step of the map; the fixed point lies between them.
            return x1, steps
        rate = min(nd / nr, MAX_RATE)
        estimate = max(map(abs, d2)) / (1.0 - rate)
        if estimate <= tol:
            return x2, steps
        v = [a - r_i for a, r_i in zip(d2, r)]  # F(F(x)) - 2F(x) + x
        nv = _norm(v)
        alpha = -nr / nv if nv > 0 else -1.0
        alpha = min(alpha, -1.0)
        jump = [xi - 2.0 * alpha * ri + alpha * alpha * vi for xi, ri, vi in zip(x, r, v)]
        if steps < max_steps and all(math.isfinite(t) for t in jump):
            x = step(jump)  # the stabilising step
            steps += 1
        else:
            x = x2
    raise ConvergenceError(
        f"missing='em' did not converge in {max_steps} steps: the imputed values were still about {estimate:.3e} "
        f"from their fixed point (tolerance {tol:.3e}); the holes are barely determined by the other cells "
        "with this many components: fewer components converge faster", iterations=steps, residual=estimate)
