"""Block Lanczos with full reorthogonalisation and thick restarts: top-k
eigenpairs of a symmetric operator that is only ever applied, never formed.

==============================  ===============================================
``lanczos(op, d, k)``           the k algebraically largest (or largest in
                                magnitude) eigenpairs, matrix-free
``BlockOperator``               ``[v, ...] -> [A·v, ...]``: one call, one pass
                                over the data for a whole block
==============================  ===============================================

Why Krylov.  Subspace iteration multiplies a block by A again and again and
keeps only the last block: after t steps the error of pair i has shrunk by
``|λ_(b+1)/λ_i|^t``.  Lanczos keeps *every* vector it has made, so its Ritz
values are the best the whole Krylov space ``span{Q, AQ, A²Q, ...}`` offers;
convergence goes with the square root of the gap ratio (Kaniel–Paige–Saad),
and for a slowly decaying spectrum that is many times fewer products with
A.  The method here (see Golub and Van Loan, *Matrix Computations*, 4th ed.,
§10.3, and Wu and Simon, "Thick-restart Lanczos method for large symmetric
eigenvalue problems", SIAM J. Matrix Anal. Appl. 22, 2000):

1. start from a block of ``b`` seeded random orthonormal vectors;
2. extend the basis block by block with the images of the newest block,
   orthogonalised against the whole basis twice ("twice is enough"), so no
   spurious copies of converged eigenvalues appear;
3. when the basis holds ``m`` vectors, Rayleigh–Ritz: the projected matrix
   ``H = Vᵀ·(AV)`` is computed from the stored images (not from a
   recurrence), its eigenpairs give Ritz pairs ``(θ, x = V·y)`` and
   ``A·x = (AV)·y`` comes without another product;
4. stop when every wanted pair has the honest residual
   ``‖A·x - θ·x‖ <= tol·max|θ|``; otherwise restart from the best Ritz
   vectors and continue the Krylov space from their residuals.

A block of b vectors finds eigenvalues of multiplicity up to b (a single
vector would see only one direction of a repeated eigenvalue).  Non-convergence
raises :class:`~purepca.errors.ConvergenceError` with the residual reached.

>>> A = [[5, 1, 0, 0], [1, 4, 0, 0], [0, 0, 1, 0], [0, 0, 0, -7]]
>>> r = lanczos(A, k=2)
>>> [round(v, 9) for v in r.values]
[5.618033989, 3.381966011]
>>> [round(v, 9) for v in lanczos(A, k=1, which="magnitude").values]
[-7.0]
"""

from __future__ import annotations

import random
from typing import Any, Callable, Optional, Sequence

from ..errors import ConvergenceError, PurePCAError, float_range
from ..numeric import FLOAT, Context, Scalar, check_context
from .eigen import _eigh, choose_eigh_method
from .gram_schmidt import gaussian_vector as _random_vector
from .gram_schmidt import gram_schmidt
from ..params import _not_one_of, as_int, as_real, is_int
from .power import IterationResult, _as_operator, _check_k, _scaled_result

__all__ = ["BlockOperator", "WHICH", "lanczos"]

#: ``[v1, v2, ...] -> [A·v1, A·v2, ...]``
BlockOperator = Callable[[list[list[Scalar]]], list[list[Scalar]]]
WHICH = ("largest", "magnitude")


def _orthonormal_block(
    block: list[list[Scalar]], basis: list[list[Scalar]], rng: random.Random, ctx: Context, d: int
) -> list[list[Scalar]]:
    """The block orthogonalised against ``basis`` and within itself (:func:`~purepca.linalg.gram_schmidt.
    gram_schmidt`, classical); a vector that collapses (the Krylov space became invariant) is replaced by
    a fresh random one (six tries), so the basis keeps growing until it fills the space.  Returns at most
    ``d - len(basis)`` vectors."""
    return gram_schmidt(block, ctx, rng, against=basis, classical=True, limit=64, attempts=6, room=d - len(basis),
                        what="lanczos: could not extend the basis")


def _combine(Y: Sequence[Sequence[Scalar]], vectors: list[list[Scalar]], ctx: Context) -> list[list[Scalar]]:
    """Rows ``Σ_l Y[i][l]·vectors[l]``: one dot product per coordinate."""
    columns = list(zip(*vectors))
    return [ctx.dots(columns, y) for y in Y]


def lanczos(
    op: Any,
    d: Optional[int] = None,
    k: int = 1,
    *,
    which: str = "largest",
    block_size: Optional[int] = None,
    max_basis: Optional[int] = None,
    tol: Optional[float] = None,
    max_restarts: int = 200,
    seed: int = 0,
    blocked: bool = False,
    context: Context = FLOAT,
) -> IterationResult:
    """The ``k`` top eigenpairs of a symmetric operator by thick-restart block Lanczos.

    Parameters
    ----------
    op : d x d symmetric matrix, a function ``v -> A·v`` (then give ``d``),
        or with ``blocked=True`` a function ``[v, ...] -> [A·v, ...]``.
    d : dimension, needed when ``op`` is a function
    k : number of eigenpairs
    which : ``"largest"`` (algebraically: what a kernel or covariance needs)
        or ``"magnitude"``
    block_size : vectors per block, default 2: the largest multiplicity
        found with certainty (larger ones are found in practice, as rounding
        and the restarts bring in the missing directions, but not promised)
    max_basis : vectors kept before a restart, default
        ``min(d, max(2k + 2·block_size, 20))``
    tol : stop when every residual is ``<= tol·max|θ|``; default the larger
        of ``eps**0.8`` and ``64·sqrt(d)·eps`` (above the rounding floor of a
        residual)
    max_restarts : past it, :class:`ConvergenceError`
    seed : seed of the start block's generator
    context : number context

    Returns
    -------
    IterationResult with ``values`` (in the order ``which`` asks), ``vectors``
    (rows), ``iterations`` (products with A, counted per vector) and the
    final ``residuals``.

    >>> import math
    >>> n = 30
    >>> A = [[2.0 if i == j else (-1.0 if abs(i - j) == 1 else 0.0) for j in range(n)] for i in range(n)]
    >>> r = lanczos(A, k=3)
    >>> exact = [2 - 2 * math.cos(math.pi * j / (n + 1)) for j in (n, n - 1, n - 2)]
    >>> max(abs(a - b) for a, b in zip(r.values, exact)) < 1e-12
    True
    """
    ctx = check_context(context)
    seed = as_int(seed, "seed")
    if which not in WHICH:
        raise _not_one_of("which", WHICH, which)
    if not isinstance(blocked, bool):
        raise PurePCAError(f"blocked must be True or False, got {blocked!r}")
    max_restarts = as_int(max_restarts, "max_restarts", low=1)
    with ctx.local(), float_range("lanczos"):
        e = 0
        if blocked:
            if not callable(op):
                raise PurePCAError("op: blocked=True needs a function [v, ...] -> [A·v, ...]")
            if d is None or isinstance(d, bool) or not isinstance(d, int) or d < 1:
                raise PurePCAError(f"d: a callable operator needs its dimension d as a positive int, got {d!r}")
            apply_block = _checked_block(op, d, ctx)
        else:
            apply_one, d, e = _as_operator(op, d, ctx)

            def apply_block(V: list[list[Scalar]]) -> list[list[Scalar]]:
                return [apply_one(v) for v in V]

        k = _check_k(k, d)
        b = _block_size(block_size, k, d)
        m = _basis_size(max_basis, k, b, d)
        tol_ = _default_tol(d, ctx) if tol is None else ctx.convert(as_real(tol, "tol", low=0.0, low_open=True))
        return _scaled_result(_lanczos(apply_block, d, k, which, b, m, tol_, max_restarts, seed, ctx), e, ctx)


def _checked_block(op: Callable[..., Any], d: int, ctx: Context) -> BlockOperator:
    from .matrix import as_matrix

    def apply(V: list[list[Scalar]]) -> list[list[Scalar]]:
        W = as_matrix(op([list(v) for v in V]), name="op(V)", context=ctx)
        if len(W) != len(V) or len(W[0]) != d:
            raise PurePCAError(f"op(V): returned {len(W)} x {len(W[0])} for {len(V)} vectors of dimension {d}")
        return W

    return apply


def _block_size(block_size: Any, k: int, d: int) -> int:
    if block_size is None:
        return min(d, 2)
    if not is_int(block_size) or not 1 <= block_size <= d:
        raise PurePCAError(f"block_size must be an int between 1 and d = {d}, got {block_size!r}")
    return int(block_size)


def _basis_size(max_basis: Any, k: int, b: int, d: int) -> int:
    if max_basis is None:
        return min(d, max(2 * k + 2 * b, 20))
    if not is_int(max_basis) or not min(d, k + b) <= max_basis:
        raise PurePCAError(f"max_basis must be an int of at least min(d, k + block_size) = {min(d, k + b)}, "
                           f"got {max_basis!r}")
    return min(d, int(max_basis))


def _default_tol(d: int, ctx: Context) -> Scalar:
    floor = ctx.convert(64) * ctx.sqrt(ctx.convert(d)) * ctx.eps
    power = ctx.eps ** (ctx.convert(4) / ctx.convert(5))
    return floor if floor > power else power


#: Restarts without halving the residual after which the basis is doubled.
_STALL = 8


def _lanczos(
    apply_block: BlockOperator,
    d: int,
    k: int,
    which: str,
    b: int,
    m: int,
    tol: Scalar,
    max_restarts: int,
    seed: int,
    ctx: Context,
) -> IterationResult:
    """The worker: arguments checked, inside ``ctx.local()``."""
    rng = random.Random(seed)
    basis = _orthonormal_block([_random_vector(rng, d, ctx) for _ in range(b)], [], rng, ctx, d)
    images = apply_block(basis)
    products = len(basis)
    newest = len(basis)  # the newest block: basis[-newest:]
    history: list[Scalar] = []
    worst = ctx.zero
    scale = ctx.zero
    for _restart in range(1, max_restarts + 1):
        while len(basis) < m:
            block = _orthonormal_block([list(w) for w in images[-newest:]], basis, rng, ctx, d)
            block = block[: m - len(basis)]
            if not block:
                break
            basis.extend(block)
            images.extend(apply_block(block))
            products += len(block)
            newest = len(block)
        size = len(basis)
        H = [ctx.dots(images, b) for b in basis]
        H = [[(H[i][j] + H[j][i]) * ctx.half for j in range(size)] for i in range(size)]
        ritz = _eigh(H, choose_eigh_method(size), ctx)
        if which == "largest":
            order = list(range(size))  # eigh returns descending order
        else:
            order = sorted(range(size), key=lambda i: (-abs(ritz.values[i]), -ritz.values[i]))
        theta = [ritz.values[i] for i in order]
        Y = [ritz.vectors[i] for i in order]
        scale = max(abs(t) for t in theta)
        keep = size if size == d else min(size - b, max(k + b, (size + k) // 2))
        X = _combine(Y[:keep], basis, ctx)
        AX = _combine(Y[:keep], images, ctx)
        residual_vectors = [[a - theta[i] * x for a, x in zip(AX[i], X[i])] for i in range(keep)]
        res = [ctx.norm(r) for r in residual_vectors]
        worst = max(res[:k])
        history.append(worst)
        if worst <= tol * scale or worst == 0 or size == d:
            return IterationResult(theta[:k], [list(x) for x in X[:k]], products, res[:k])
        # Thick restart: keep the best Ritz pairs (orthonormal, with their
        # images), and continue the Krylov space from the residuals of the
        # unconverged wanted pairs (in exact arithmetic they span the next block).
        if len(history) > _STALL and not history[-1] < history[-1 - _STALL] / 2 and m < d:
            # Stalled (a wanted pair inside a cluster of tiny eigenvalues: a 50-digit sigmoid kernel's
            # fourth pair): a larger basis separates the cluster, and at m = d the answer is exact.
            m = min(d, 2 * m)
        pending = [i for i in range(keep) if res[i] > tol * scale][:b] or list(range(b))
        basis, images = X, AX
        extension = _orthonormal_block([residual_vectors[i] for i in pending], basis, rng, ctx, d)
        basis.extend(extension)
        images.extend(apply_block(extension))
        products += len(extension)
        newest = max(1, len(extension))
    raise ConvergenceError(
        f"lanczos did not converge in {max_restarts} restarts ({products} products with the operator): "
        f"largest residual {float(worst):.3e} (tolerance {float(tol * scale):.3e}); "
        f"increase max_basis or max_restarts",
        iterations=products,
        residual=float(worst),
    )
