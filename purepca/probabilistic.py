"""The probabilistic PCA model of a fitted PCA (Tipping and Bishop 1999), as scikit-learn gives it.

The data are modelled as Gaussian with covariance ``Wᵀ·diag(λ - σ²)·W + σ²·I``:
``W`` the kept components (multiplied by ``sqrt(λ)`` when whitening, as
scikit-learn does), ``λ`` their variances and ``σ²`` the noise variance (the
mean of the discarded eigenvalues).  Functions of a fitted record
(:class:`~purepca.fitting.PCAState`), computed at its precision.

========================  ====================================================
``get_covariance``        the model covariance
``get_precision``         its inverse, by the matrix inversion lemma
``score_samples``         the log-likelihood of each validated row
========================  ====================================================

>>> from purepca import PCA
>>> state = PCA().fit([[0.0, 0.0], [2.0, 2.0], [1.0, 0.0]])._state
>>> [[round(float(v), 12) for v in row] for row in get_covariance(state, whiten=False)]
[[1.0, 1.0], [1.0, 1.333333333333]]
"""

from __future__ import annotations

import math

from .errors import PurePCAError, float_range
from .fitting import PCAState
from .linalg.cholesky import _spd_inverse
from .linalg.eigen import _eigh
from .numeric import Scalar

__all__ = ["get_covariance", "get_precision", "score_samples"]

Rows = list[list[Scalar]]


def _covariance_model(state: PCAState, whiten: bool) -> tuple[Rows, list[Scalar]]:
    """Components (scaled by sqrt(variance) when whitening, as scikit-learn does) and the excess
    variances max(λ - σ², 0)."""
    ctx = state.ctx
    beyond = [j for j, v in enumerate(state.variance) if not math.isfinite(ctx.to_float(v))]
    if beyond:
        raise PurePCAError(
            f"the model covariance needs the variance of component {beyond[0]}, which is beyond the float range "
            "(reported as inf); rescale the data or fit with precision=N"
        )
    W = state.components
    if whiten:
        W = [[x * s for x in w] for w, s in zip(W, state.roots)]
    noise = state.noise
    return W, [v - noise if v > noise else ctx.zero for v in state.variance]


def get_covariance(state: PCAState, whiten: bool) -> Rows:
    """The model covariance ``Wᵀ·diag(λ - σ²)·W + σ²·I`` at the fit's precision (d x d)."""
    ctx = state.ctx
    d = state.n_features_in_
    with ctx.local(), float_range("the model covariance"):
        W, diff = _covariance_model(state, whiten)
        cols = list(zip(*W)) or [()] * d  # n_components=0: the covariance is σ²·I
        cov = [[ctx.sum(a * l * b for a, l, b in zip(cols[i], diff, cols[j])) for j in range(d)] for i in range(d)]
        for i in range(d):
            cov[i][i] = cov[i][i] + state.noise
        return cov


def get_precision(state: PCAState, whiten: bool) -> Rows:
    """The inverse of :func:`get_covariance`, by the matrix inversion lemma (as scikit-learn).

    >>> from purepca import PCA
    >>> state = PCA(1).fit([[0.0, 0.0], [2.0, 2.1], [1.0, 0.0], [3.0, 2.5]])._state
    >>> P, C = get_precision(state, False), get_covariance(state, False)
    >>> [[round(sum(a * b for a, b in zip(row, col)), 12) for col in zip(*C)] for row in P]
    [[1.0, 0.0], [0.0, 1.0]]
    """
    ctx = state.ctx
    d = state.n_features_in_
    noise = state.noise
    with ctx.local():
        if noise == 0:
            return _spd_inverse(get_covariance(state, whiten), ctx, "the model covariance")
        if not state.components:  # n_components=0: the covariance is σ²·I
            return [[ctx.one / noise if i == j else ctx.zero for j in range(d)] for i in range(d)]
        W, diff = _covariance_model(state, whiten)
        if any(v == 0 for v in diff):
            return _spd_inverse(get_covariance(state, whiten), ctx, "the model covariance")
        k = len(W)
        inner = [[ctx.dot(W[i], W[j]) / noise for j in range(k)] for i in range(k)]
        for i in range(k):
            inner[i][i] = inner[i][i] + ctx.one / diff[i]
        inv = _spd_inverse(inner, ctx, "the k x k inner matrix")
        cols = list(zip(*W))
        noise2 = noise * noise
        P = [[-ctx.sum(cols[i][a] * inv[a][b] * cols[j][b] for a in range(k) for b in range(k)) / noise2
              for j in range(d)] for i in range(d)]
        for i in range(d):
            P[i][i] = P[i][i] + ctx.one / noise
        return P


def _degenerate_density(state: PCAState, whiten: bool) -> tuple[Rows, Scalar]:
    """The pseudo-inverse of a noiseless model covariance and the density's constant.

    With no noise the model covariance is ``Σ μ_j·u_j·u_jᵀ`` over the components, singular when
    fewer than d have ``μ_j > 0``.  The density is then that of the degenerate Gaussian on its
    support (pseudo-inverse and pseudo-determinant), as scikit-learn's score returns a number there,
    not an error; with d positive ``μ_j`` it is the ordinary density.
    """
    ctx = state.ctx
    d = state.n_features_in_
    W, diff = _covariance_model(state, whiten)
    P = [[ctx.zero] * d for _ in range(d)]
    logdet, rank = ctx.zero, 0
    norms = [ctx.dot(w, w) for w in W]
    mus = [m * nw for m, nw in zip(diff, norms)]
    # An eigenvalue within rounding of zero (d·eps of the largest, numpy's pinv rule) is zero: the
    # rank-1 data [[1, 2], [2, 4], [3, 6]] leave about 1e-32 in the second, whose log would
    # dominate every score (2.3e15 on the line, -5e30 off it).
    cut = max(mus, default=ctx.zero) * ctx.convert(d) * ctx.eps
    for w, nw, mu in zip(W, norms, mus):
        if mu > cut:
            rank += 1
            logdet = logdet - ctx.ln(mu)
            for a in range(d):
                for b in range(d):
                    P[a][b] = P[a][b] + w[a] * w[b] / (nw * mu)
    return P, ctx.convert(rank) * ctx.ln(ctx.two * ctx.pi()) - logdet


def score_samples(state: PCAState, M: Rows, whiten: bool) -> list[float]:
    """The log-likelihood of each validated row: ``-(xᵀPx + d·log 2π - log det P)/2`` with ``x`` the
    centred row and P the precision.

    >>> from purepca import PCA
    >>> state = PCA(1).fit([[0.0, 0.0], [2.0, 2.1], [1.0, 0.0], [3.0, 2.5]])._state
    >>> [round(v, 6) for v in score_samples(state, [[1.0, 1.0]], False)]
    [-1.697449]
    """
    ctx = state.ctx
    with ctx.local():
        # A noise variance within rounding of zero (d·eps of the largest variance) is zero: with
        # n <= d and k = n - 1 the discarded eigenvalues are exactly 0, but the Gram and SVD paths
        # leave 1e-15 or 1e-34 there, whose precision is not positive definite in floats.
        top = max(state.variance, default=ctx.zero)
        if state.noise <= top * ctx.convert(state.n_features_in_) * ctx.eps:
            P, const = _degenerate_density(state, whiten)
        else:
            P = get_precision(state, whiten)
            eig = _eigh(P, "jacobi", ctx)
            if not all(v > 0 for v in eig.values):
                raise PurePCAError("the precision matrix is not positive definite; score_samples is undefined")
            logdet = ctx.sum(ctx.ln(v) for v in eig.values)
            const = ctx.convert(state.n_features_in_) * ctx.ln(ctx.two * ctx.pi()) - logdet
        out = []
        for i, row in enumerate(M):
            try:
                r = [(a - h) - l for a, h, l in zip(row, state.mean_hi, state.mean_lo)]
                Pr = [ctx.dot(p, r) for p in P]
                value = ctx.to_float(-(ctx.dot(r, Pr) + const) / ctx.two)
            except (OverflowError, ValueError):  # fsum: an intermediate overflow, or inf - inf
                value = -math.inf
            if not math.isfinite(value):
                raise PurePCAError(f"X: the log-likelihood of row {i} is beyond the float range; rescale the data")
            out.append(value)
        return out
