"""Gram–Schmidt, written once: an orthonormal basis grown vector by vector, twice is enough.

==========================================  ================================================
``gram_schmidt(vectors, ctx, rng, ...)``    the vectors made orthonormal to ``against`` and to
                                            each other, in order; a vector that collapses into
                                            the span before it is replaced by a random one
``project_out(v, basis, ctx)``              one sweep: ``v`` less its components along an
                                            orthonormal basis (the step ``gram_schmidt`` repeats)
==========================================  ================================================

The contract (what every caller may rely on):

- each returned vector has norm one in ``ctx`` (divided by ``ctx.norm`` of its remainder) and is
  orthogonal, to a few units of ``ctx.eps``, to ``against`` and to the vectors returned before it:
  its components along them are removed twice ("twice is enough": Giraud, Langou, Rozložník and
  van den Eshof, *Numer. Math.* 101, 2005; Golub and Van Loan, *Matrix Computations*, §5.2.8), so
  the orthogonality does not depend on the condition of the block;
- a vector whose remainder is at most ``limit·eps`` times its norm before the sweeps (it lies in
  the span already, to rounding) is replaced by ``random(rng, d, ctx)`` and the sweeps run again,
  up to ``attempts`` times; then :class:`~purepca.errors.PurePCAError` with ``what``;
- at most ``room`` vectors are returned (the dimension left to fill); the vectors are consumed in
  order and the rest dropped; the inputs are not mutated;
- ``classical``: the coefficients of a sweep are taken together, ``ctx.dots(basis, v)``
  (classical Gram–Schmidt, one C-level loop per product on CPython), first against ``against``
  then against the new vectors, a zero coefficient skipping its update; otherwise one at a time,
  each against the vector as it stands (modified Gram–Schmidt).  Twice, both give orthogonality
  to working precision; their bits differ, and each caller keeps the one its bits were made with.

The arguments are the caller's validated numbers (a worker: no checks here).  Its callers:
:mod:`~purepca.linalg.power` (modified: the start vectors and the block of subspace iteration) and
:mod:`~purepca.linalg.krylov` (classical: the Lanczos basis, grown block by block).

>>> import random
>>> from purepca.numeric import FLOAT
>>> Q = gram_schmidt([[3.0, 4.0], [1.0, 0.0]], FLOAT, random.Random(0))
>>> [[round(x, 12) for x in q] for q in Q]
[[0.6, 0.8], [0.8, -0.6]]
"""

from __future__ import annotations

import random
from typing import Callable, Optional, Sequence

from ..errors import PurePCAError
from ..numeric import Context, Scalar

__all__: list[str] = []  # a worker of the solvers (arguments validated by them), not a door


def gaussian_vector(rng: random.Random, d: int, ctx: Context) -> list[Scalar]:
    """``d`` standard normal draws from ``rng``, converted to ``ctx``: the solvers' random start (and
    replacement) vectors, the same bits for the same seed.

    >>> from purepca.numeric import FLOAT
    >>> len(gaussian_vector(random.Random(0), 3, FLOAT))
    3
    """
    return [ctx.convert(rng.gauss(0.0, 1.0)) for _ in range(d)]


def gram_schmidt(vectors: Sequence[Sequence[Scalar]], ctx: Context, rng: random.Random, *,
                 against: Sequence[Sequence[Scalar]] = (), classical: bool = False, limit: int = 16,
                 attempts: int = 4, room: Optional[int] = None, what: str = "could not extend the basis",
                 random_vector: Callable[[random.Random, int, Context], list[Scalar]] = gaussian_vector,
                 ) -> list[list[Scalar]]:
    """``vectors`` made orthonormal to ``against`` and to each other, in order (the module's contract).

    >>> import random
    >>> from purepca.numeric import FLOAT
    >>> gram_schmidt([[2.0, 0.0], [5.0, 0.0]], FLOAT, random.Random(1), against=[[0.0, 1.0]], room=1)
    [[1.0, 0.0]]
    """
    out: list[list[Scalar]] = []
    floor = ctx.convert(limit) * ctx.eps
    sweep = _classical_sweep if classical else _modified_sweep
    for v in vectors:
        if room is not None and len(out) >= room:
            break
        v = list(v)
        for _attempt in range(attempts):
            original = ctx.norm(v)
            for _pass in range(2):  # "twice is enough"
                v = sweep(sweep(v, against, ctx), out, ctx)
            nv = ctx.norm(v)
            if nv > floor * original and nv > 0:
                out.append([x / nv for x in v])
                break
            v = random_vector(rng, len(v), ctx)
        else:  # every random vector inside the span of the ones before: no room left
            raise PurePCAError(what)
    return out


def project_out(v: Sequence[Scalar], basis: Sequence[Sequence[Scalar]], ctx: Context, *,
                classical: bool = False) -> list[Scalar]:
    """One sweep of Gram–Schmidt: ``v`` less its component along each vector of the orthonormal ``basis``
    (modified: each coefficient from ``v`` as it stands; ``classical``: all from ``v`` as given, a zero
    one skipped).  A new list; run it twice for orthogonality to working precision.

    >>> from purepca.numeric import FLOAT
    >>> project_out([3.0, 4.0, 5.0], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], FLOAT)
    [0.0, 0.0, 5.0]
    """
    return (_classical_sweep if classical else _modified_sweep)(list(v), basis, ctx)


def _modified_sweep(v: list[Scalar], basis: Sequence[Sequence[Scalar]], ctx: Context) -> list[Scalar]:
    """``v`` less its component along each basis vector in turn, each coefficient from ``v`` as it stands."""
    dot = ctx.dot
    for u in basis:
        c = dot(u, v)
        v = [a - c * b for a, b in zip(v, u)]
    return v


def _classical_sweep(v: list[Scalar], basis: Sequence[Sequence[Scalar]], ctx: Context) -> list[Scalar]:
    """``v`` less its components along the basis vectors, the coefficients all from ``v`` as given."""
    if not basis:
        return v
    for c, u in zip(ctx.dots(basis, v), basis):
        if c:
            v = [a - c * b for a, b in zip(v, u)]
    return v
