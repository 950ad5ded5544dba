"""``KernelPCA``: PCA in the feature space of a kernel, with scikit-learn's and kernlab's conventions.

The derivation (seed 003): an eigenvector ``v`` of the feature-space
covariance with a positive eigenvalue is a combination ``v = Σ α_i φ̃(x_i)`` of
the centred images of the training points, and the coefficients solve the
eigenproblem of the centred kernel matrix, ``K̃·α = μ·α``.  Normalising
``‖v‖ = 1`` gives ``α = u/sqrt(μ)`` for a unit eigenvector ``u`` of ``K̃``, and
the score of any point is ``z(x) = Σ α_i k̃(x, x_i)``: only kernel values are
ever needed.

What the two libraries report differs by powers of n:

==========================  ===========================  ==========================
                            ``convention="sklearn"``     ``convention="kernlab"``
==========================  ===========================  ==========================
``eigenvalues_``            μ (eigenvalues of K̃)        μ/n (``eig``)
training scores             ``u·sqrt(μ)``               ``K̃·pcv = √n·u·sqrt(μ)`` (``rotated``)
coefficients                ``u/sqrt(μ)``               ``pcv = u/sqrt(μ/n)``
sign rule (default)         ``max_abs_positive``         ``none``
==========================  ===========================  ==========================

With the linear kernel the sign rule is applied to the principal axis in
feature space, ``Xcᵀ·u``, exactly as :class:`purepca.PCA` applies it, so
``KernelPCA(kernel="linear")`` and ``PCA`` give the same scores, signs
included.  (scikit-learn's KernelPCA applies its rule to ``u``, so its linear
KernelPCA and its PCA can disagree in sign.)  For other kernels the rule is
applied to ``u``, as scikit-learn does.

>>> from purepca import KernelPCA
>>> from purepca.datasets import toy_data
>>> kp = KernelPCA(convention="kernlab").fit(toy_data())
>>> [round(v, 8) for v in kp.eig]
[1.15562494, 0.04417506]
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Sequence

from .base import Estimator, atomic
from .conventions import SIGN_RULES, sign_flips
from .errors import NotFittedError, PurePCAError
from .kernels import (
    KernelSpec,
    KernelStats,
    _center_kernel,
    _center_test_kernel,
    _kernel_matrix,
    canonical_kernel,
    check_kernel_params,
)
from .linalg.cholesky import _cholesky, _cholesky_solve
from .linalg.matrix import as_matrix
from .numeric import FLOAT, Context, Scalar, get_context  # noqa: F401 (FLOAT: the doctests' context)
from .params import _not_one_of, as_int, as_real, check_callback, is_int
from .projection import _float_rows
from .solvers import kernel_eigenpairs, report_degenerate

__all__ = ["KernelErrorBounds", "KernelPCA", "NonPSDKernelWarning"]

_PARAMS = (
    "n_components", "kernel", "gamma", "degree", "coef0", "alpha", "fit_inverse_transform",
    "eigen_solver", "remove_zero_eig", "negative", "sign", "convention", "precision", "seed",
)
_CONVENTIONS = {"sklearn": "max_abs_positive", "kernlab": "none"}
EIGEN_SOLVERS = ("auto", "jacobi", "tridiagonal", "krylov", "power")
#: ``progress(stage, done, total)``: see :meth:`KernelPCA.fit`.
Progress = Callable[[str, int, int], None]

# scikit-learn's thresholds (utils.validation._check_psd_eigenvalues, float64).
SIGNIFICANT_NEGATIVE_RATIO = 1e-5
SIGNIFICANT_NEGATIVE_VALUE = 1e-10
SMALL_POSITIVE_RATIO = 1e-12


class NonPSDKernelWarning(UserWarning):
    """The kernel matrix has significantly negative eigenvalues (it is not positive semidefinite)."""


def _precomputed(X: Any, ctx: Context) -> list[list[Scalar]]:
    """A precomputed training kernel, validated: square, and symmetric once centred.

    scikit-learn accepts a kernel matrix that is not symmetric when its double-centred form
    ``K_ij - r_i - c_j + t`` (``r`` the row means, ``c`` the column means) is: that is what its
    ``KernelCenterer`` computes and its eigensolver reads.  Such a K is replaced by its symmetric part
    ``(K + Kᵀ)/2``, whose centred form is the same; one whose centred form is not symmetric (to 1e-10
    of its largest entry) is refused, naming the entry, rather than read from one triangle.

    >>> _precomputed([[1, 2], [3, 40]], FLOAT)
    [[1.0, 2.5], [2.5, 40.0]]
    """
    if isinstance(X, Sequence) and not isinstance(X, (str, bytes)) and len(X) == 0:
        raise PurePCAError("K: empty kernel matrix")
    K = as_matrix(X, name="K", context=ctx)
    n = len(K)
    if len(K[0]) != n:
        raise PurePCAError(f"K must be square, got {n} rows and {len(K[0])} columns")
    if all(K[i][j] == K[j][i] for i in range(n) for j in range(i + 1, n)):
        return K
    with ctx.local():
        nn = ctx.convert(n)
        r = [ctx.sum(row) / nn for row in K]
        c = [ctx.sum(col) / nn for col in zip(*K)]
        limit = ctx.convert(1e-10) * max(abs(v) for row in K for v in row)
        for i in range(n):
            for j in range(i + 1, n):
                # (K_ij - r_i - c_j) - (K_ji - r_j - c_i): the asymmetry of the centred matrix.
                if abs((K[i][j] - K[j][i]) - (r[i] - r[j]) - (c[j] - c[i])) > limit:
                    raise PurePCAError(
                        f"K is not symmetric: K[{i}][{j}] = {K[i][j]!r} but K[{j}][{i}] = {K[j][i]!r}, and its "
                        "centred form is not symmetric either (scikit-learn would read one triangle of it)")
        two = ctx.two
        return [[(K[i][j] + K[j][i]) / two for j in range(n)] for i in range(n)]


def _symmetric_callable(K: list[list[Scalar]], ctx: Context) -> list[list[Scalar]]:
    """The training kernel of a callable, computed on both triangles: refused, naming the pair,
    where ``k(x_i, x_j)`` and ``k(x_j, x_i)`` differ by more than 1e-10 of the largest entry (the
    rounding a symmetric function may show); else its upper triangle, mirrored.

    >>> _symmetric_callable([[1.0, 2.0], [2.0, 5.0]], FLOAT)
    [[1.0, 2.0], [2.0, 5.0]]
    """
    n = len(K)
    with ctx.local():
        limit = ctx.convert(1e-10) * max(abs(v) for row in K for v in row)
        for i in range(n):
            for j in range(i + 1, n):
                if abs(K[i][j] - K[j][i]) > limit:
                    raise PurePCAError(
                        f"the kernel callable is not symmetric: k(X[{i}], X[{j}]) = {ctx.to_float(K[i][j])!r} but "
                        f"k(X[{j}], X[{i}]) = {ctx.to_float(K[j][i])!r}; a kernel must give k(x, y) = k(y, x)")
                K[j][i] = K[i][j]
    return K


@dataclass(frozen=True)
class KernelErrorBounds:
    """Rigorous bounds on a fitted KernelPCA's float result (``KernelPCA.error_bounds_``).

    >>> KernelErrorBounds([(1.0, 1.0)], [0.0], [[0]]).eigenvalues_
    [(1.0, 1.0)]
    """

    eigenvalues_: list[tuple[float, float]]
    eigenvectors_: list[float]
    clusters: list[list[int]]


class KernelPCA(Estimator):
    """Kernel principal component analysis.

    Parameters
    ----------
    n_components : None or int
        None keeps every component with a positive eigenvalue; an int keeps
        that many (at most n_samples).
    kernel : "linear", "poly", "rbf", "sigmoid", "cosine", "laplacian",
        "precomputed" or a callable ``k(x, y)``; see :mod:`purepca.kernels`.
    gamma, degree, coef0 : kernel parameters (scikit-learn's meaning and
        defaults: gamma None is 1/n_features; kernlab's sigma is gamma).
    alpha : float
        Ridge regularisation of the pre-image map (``inverse_transform``).
    fit_inverse_transform : bool
        Learn the pre-image map (kernel ridge regression from the scores back
        to X, solved by Cholesky).
    eigen_solver : "auto", "jacobi", "tridiagonal", "krylov" or "power"
        ``jacobi`` and ``tridiagonal`` find every eigenvalue (Householder +
        QL is several times faster for n > 16 and as accurate on a kernel,
        whose entries are rounded anyway); ``krylov`` (block Lanczos) finds
        the k algebraically largest; ``power`` (subspace iteration, for
        teaching) the k largest in magnitude.  ``auto``: ``krylov`` when an
        int ``n_components`` is given and the cost model finds it cheaper
        (:func:`purepca.solvers.kernel_eigenpairs`), else Jacobi for n <= 16
        and the tridiagonal method above.
    remove_zero_eig : bool
        Drop components with zero eigenvalue (always done when n_components
        is None).
    negative : "error" or "drop"
        What to do when a kept component has a significantly negative
        eigenvalue (a kernel that is not positive semidefinite: below
        -1e-5 times the largest, as scikit-learn): raise, or drop those
        components with a :class:`NonPSDKernelWarning`.  Small negative
        eigenvalues from rounding are set to zero either way.
    sign : sign rule or None (from the convention)
    convention : "sklearn" or "kernlab"
    precision : None or int (decimal digits; see :class:`purepca.PCA`)
    seed : int, start vectors of the krylov and power solvers

    Attributes
    ----------
    eigenvalues_ : k eigenvalues (μ for sklearn, μ/n for kernlab)
    eigenvectors_ : n x k, unit eigenvectors of the centred kernel as columns
    explained_variance_ratio_ : k fractions of the sum of all non-negative eigenvalues
    X_fit_ : the training rows (None for a precomputed kernel)
    negative_eigenvalues_ : the significantly negative eigenvalues found (reported, never hidden)
    high_precision_ : None, or with ``precision=N`` a dict of ``eigenvalues_`` and
        ``eigenvectors_`` (n x k, as the float attribute) as N-digit Decimals
    gamma_ : the gamma used, for the kernel on X and for the pre-image kernel on the scores
        (1/n_features when ``gamma`` is None, as scikit-learn >= 1.3)
    n_components_, n_samples_, n_features_in_

    >>> kp = KernelPCA(2, kernel="rbf", gamma=0.5).fit([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [3.0, 3.0]])
    >>> len(kp.transform([[0.5, 0.5]])[0])
    2
    """

    _PARAMS = _PARAMS
    _x: Optional[list[list[float]]] = None
    _fit_input: Optional[list[list[Any]]] = None
    _bounds: Optional["KernelErrorBounds"] = None

    def __init__(
        self,
        n_components: Optional[int] = None,
        *,
        kernel: KernelSpec = "linear",
        gamma: Optional[float] = None,
        degree: int = 3,
        coef0: float = 1.0,
        alpha: float = 1.0,
        fit_inverse_transform: bool = False,
        eigen_solver: str = "auto",
        remove_zero_eig: bool = False,
        negative: str = "error",
        sign: Optional[str] = None,
        convention: str = "sklearn",
        precision: Optional[int] = None,
        seed: int = 0,
    ) -> None:
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.alpha = alpha
        self.fit_inverse_transform = fit_inverse_transform
        self.eigen_solver = eigen_solver
        self.remove_zero_eig = remove_zero_eig
        self.negative = negative
        self.sign = sign
        self.convention = convention
        self.precision = precision
        self.seed = seed

    # ---------------------------------------------------------------- fitting

    def _settings(self) -> tuple[Context, KernelSpec, str, Optional[float]]:
        self._check_printable()
        kernel = canonical_kernel(self.kernel)
        gamma = check_kernel_params(self.gamma, self.degree, self.coef0)[0]
        if not isinstance(self.convention, str) or self.convention not in _CONVENTIONS:
            raise PurePCAError(f"convention must be 'sklearn' or 'kernlab'; got {self.convention!r}")
        sign = _CONVENTIONS[self.convention] if self.sign is None else self.sign
        if sign not in SIGN_RULES:
            raise _not_one_of("sign", SIGN_RULES, self.sign, " or None")
        if self.eigen_solver not in EIGEN_SOLVERS:
            raise _not_one_of("eigen_solver", EIGEN_SOLVERS, self.eigen_solver)
        if self.negative not in ("error", "drop"):
            raise PurePCAError(f"negative must be 'error' or 'drop'; got {self.negative!r}")
        if self.n_components is not None and not (is_int(self.n_components) and self.n_components >= 1):
            raise PurePCAError(f"n_components must be None or an int >= 1, got {self.n_components!r}")
        as_int(self.seed, "seed")
        as_real(self.alpha, "alpha", low=0.0)
        if self.fit_inverse_transform and kernel == "precomputed":
            raise PurePCAError(
                "Cannot fit_inverse_transform with a precomputed kernel: the pre-image map needs the training rows"
            )
        for flag in ("fit_inverse_transform", "remove_zero_eig"):
            if not isinstance(getattr(self, flag), bool):
                raise PurePCAError(f"{flag} must be True or False, got {getattr(self, flag)!r}")
        return get_context(self.precision), kernel, sign, gamma

    def _kernel(self, A: Any, B: Any, ctx: Context, kernel: KernelSpec, gamma: Optional[float]) -> list[list[Scalar]]:
        # A and B are validated rows (the training rows, new rows or scores).
        return _kernel_matrix(A, B, kernel, gamma, self.degree, self.coef0, ctx)

    @atomic
    def fit(self, X: Any, y: Any = None, *, progress: Optional[Progress] = None) -> "KernelPCA":
        """Fit on the rows of X (or on the n x n kernel matrix when ``kernel="precomputed"``).

        ``progress(stage, done, total)``, when given, is called as the fit goes:
        ``("kernel matrix", done, total)`` every 64 rows (``done/total`` the share of the kernel
        computed), then
        ``("eigenvectors", 0, 1)`` and ``("eigenvectors", 1, 1)`` around the
        eigensolver (the command draws it on a terminal).

        >>> [round(v, 12) for v in KernelPCA(1).fit([[0.0], [1.0], [3.0]]).eigenvalues_]
        [4.666666666667]
        """
        self._fit(X, progress)
        return self

    def _fit(self, X: Any, progress: Optional[Progress]) -> Optional[list[list[Scalar]]]:
        """The fit; returns the centred training kernel when the eigensolver left it as it was (the
        Krylov and power solvers only apply it), for :meth:`fit_transform`, else None."""
        check_callback(progress, "progress")
        ctx, kernel, sign, gamma = self._settings()
        if kernel == "precomputed":
            K = _precomputed(X, ctx)
            M = None
            # scikit-learn sets gamma_ = 1/n_features of what fit was given, the kernel matrix here.
            self.gamma_ = 1.0 / len(K) if gamma is None else gamma
        else:
            M = as_matrix(X, name="X", context=ctx)
            # gamma=None is 1/n_features of X, for the kernel on X and, as in
            # scikit-learn >= 1.3, for the pre-image kernel on the scores.
            self.gamma_ = 1.0 / len(M[0]) if gamma is None else gamma
            if callable(kernel):
                # Both triangles: a kernel must be symmetric, and mirroring one triangle (as
                # scikit-learn does) would silently fit another function.
                K = _symmetric_callable(self._kernel(M, M, ctx, kernel, self.gamma_), ctx)
            else:
                # Row i of the triangle is n - i entries long: report the share of the n²/2 entries done.
                rows_done = None if progress is None else (
                    lambda i, n: progress("kernel matrix", i * (2 * n - i), n * n))
                # Rows packed as array('d') with floats: a quarter of the memory of lists of floats, and
                # the products with them stream through memory (the objects of a mirrored list are scattered).
                K = _kernel_matrix(M, None, kernel, self.gamma_, self.degree, self.coef0, ctx, rows_done, packed=True)
        n = len(K)
        if n < 2:
            raise PurePCAError(
                f"{'K' if M is None else 'X'}: KernelPCA needs at least 2 samples, got n_samples = {n} "
                "(one point has no spread, so no principal component)"
            )
        nc = self.n_components
        if nc is not None and nc > n:
            raise PurePCAError(f"n_components={nc} must be at most n_samples = {n}")
        k_wanted = n if nc is None else int(nc)
        with ctx.local():
            Kc, stats = _center_kernel(K, ctx, packed=True)  # K is ours (built here or copied by _precomputed)
            k_top = None if nc is None else k_wanted
            if progress is not None:
                progress("eigenvectors", 0, 1)
            seed = as_int(self.seed, "seed")
            values, vectors, solver = kernel_eigenpairs(Kc, k_top, self.eigen_solver, ctx, seed=seed)
            if progress is not None:
                progress("eigenvectors", 1, 1)
            try:
                if len(values) < n:
                    total = ctx.sum(Kc[i][i] for i in range(n))  # the trace: every eigenvalue
                else:
                    total = ctx.sum(v for v in values if v > 0)
            except OverflowError:
                raise PurePCAError("the kernel's eigenvalues add up to more than a float can hold; scale the data "
                                   "down (or use precision=N)") from None
            if kernel == "linear" and M is not None and not total > 0 and any(row != M[0] for row in M):
                # The rows differ, but every product of two of them underflows: the kernel is all
                # zeros, and zero scores would be silently wrong (the exact ones are representable).
                raise PurePCAError(
                    "X: the rows differ, but the linear kernel's values (products of the data) underflow a float "
                    "(a spread below about 1e-154 squares to below 1e-308); multiply X by a large constant (the "
                    "components do not change), or use PCA, which rescales such data itself")
            report_degenerate([ctx.to_float(v) for v in values[: k_wanted + 1]], k_wanted, stacklevel=4,
                              dim=n if solver in ("jacobi", "tridiagonal") else 0, eps=ctx.to_float(ctx.eps))
            values, vectors, negatives = self._check_spectrum(values, vectors, k_wanted, ctx)
            if M is not None and kernel == "linear":
                # The sign rule acts on the axis in feature space, Xcᵀu, as PCA's does.
                mu = [ctx.sum(col) / ctx.convert(n) for col in zip(*M)]
                cols = [[x - m for x in col] for col, m in zip(zip(*M), mu)]
                axes = [[ctx.dot(c, u) for c in cols] for u in vectors]
                flips = sign_flips(axes, sign)
            else:
                flips = sign_flips(vectors, sign)
            vectors = [[-x for x in u] if f else u for u, f in zip(vectors, flips)]
        self._store(ctx, kernel, M, stats, values, vectors, total, negatives, n)
        self._solver = solver
        self._fit_input = K if M is None else None  # a precomputed matrix, for error_bounds_
        self._bounds = None
        if self.fit_inverse_transform:
            self._fit_inverse(M)  # type: ignore[arg-type]
        return Kc if solver in ("krylov", "power") else None

    def _check_spectrum(
        self, values: list[Scalar], vectors: list[list[Scalar]], k: int, ctx: Context
    ) -> tuple[list[Scalar], list[list[Scalar]], list[float]]:
        """scikit-learn's PSD check, then the choice of components."""
        top = max(values) if values else ctx.zero
        if top < 0:
            raise PurePCAError(
                f"all eigenvalues of the centred kernel matrix are negative (largest {ctx.to_float(top):.3e}): "
                "the kernel is not positive semidefinite"
            )
        # A zero spectrum (all rows alike in feature space) has no principal
        # component: n_components=None or remove_zero_eig=True keep none,
        # an int keeps that many with eigenvalue 0, as scikit-learn does.
        neg_limit = -ctx.convert(SIGNIFICANT_NEGATIVE_RATIO) * top
        neg_floor = -ctx.convert(SIGNIFICANT_NEGATIVE_VALUE)
        negatives = [ctx.to_float(v) for v in values if v < neg_limit and v < neg_floor]
        kept_values, kept_vectors = values[:k], vectors[:k]
        bad = [i for i, v in enumerate(kept_values) if v < neg_limit and v < neg_floor]
        if negatives and not bad:
            warnings.warn(
                f"the kernel matrix is not positive semidefinite: {len(negatives)} eigenvalue(s) are significantly "
                f"negative (smallest {min(negatives):.3e}, largest positive {ctx.to_float(top):.3e}); "
                "none of them is among the kept components",
                NonPSDKernelWarning,
                stacklevel=4,
            )
        if bad:
            message = (
                f"the kernel matrix is not positive semidefinite: {len(bad)} of the {len(kept_values)} components "
                f"asked for have significantly negative eigenvalues (smallest {min(negatives):.3e}, "
                f"largest positive {ctx.to_float(top):.3e})"
            )
            if self.negative == "error":
                # "There are significant negative eigenvalues": scikit-learn's words, which its tests match.
                raise PurePCAError(
                    "There are significant negative eigenvalues: " + message
                    + "; use a positive semidefinite kernel, fewer components, or negative='drop'"
                )
            warnings.warn(message + "; they are dropped (negative='drop')", NonPSDKernelWarning, stacklevel=4)
            keep = [i for i in range(len(kept_values)) if i not in bad]
            kept_values = [kept_values[i] for i in keep]
            kept_vectors = [kept_vectors[i] for i in keep]
        small = ctx.convert(SMALL_POSITIVE_RATIO) * top
        kept_values = [v if v > small else ctx.zero for v in kept_values]  # rounding noise, both signs
        if self.remove_zero_eig or self.n_components is None:
            keep = [i for i, v in enumerate(kept_values) if v > 0]
            kept_values = [kept_values[i] for i in keep]
            kept_vectors = [kept_vectors[i] for i in keep]
        return kept_values, kept_vectors, negatives

    def _store(
        self,
        ctx: Context,
        kernel: KernelSpec,
        M: Optional[list[list[Scalar]]],
        stats: KernelStats,
        values: list[Scalar],
        vectors: list[list[Scalar]],
        total: Scalar,
        negatives: list[float],
        n: int,
    ) -> None:
        f = ctx.to_float
        nn = ctx.convert(n)
        kernlab = self.convention == "kernlab"
        with ctx.local():
            # Coefficients α with scores = K̃_test·α; zero eigenvalues get zero
            # coefficients, never a division by zero.
            inv_roots = [ctx.one / ctx.sqrt(v) if v > 0 else ctx.zero for v in values]
            if kernlab:
                inv_roots = [r * ctx.sqrt(nn) for r in inv_roots]
            self._alphas = [[x * r for x in u] for u, r in zip(vectors, inv_roots)]
            reported = [v / nn for v in values] if kernlab else list(values)
            ratios = [v / total if total > 0 else ctx.zero for v in values]
        self._ctx = ctx
        self._kernel_name = kernel
        self._stats = stats
        self._X = M
        self._values = values
        self.eigenvalues_ = [f(v) for v in reported]
        self.eigenvectors_ = [[f(x) for x in row] for row in zip(*vectors)] if vectors else [[] for _ in range(n)]
        self.explained_variance_ratio_ = [f(r) for r in ratios]
        self.negative_eigenvalues_ = negatives
        self.X_fit_ = None if M is None else [[f(x) for x in row] for row in M]
        self.n_components_ = len(values)
        self.n_samples_ = n
        self.n_features_in_ = None if M is None else len(M[0])
        # The same shapes as the float attributes: eigenvectors_ is n x k.
        self.high_precision_ = None if self.precision is None else {
            "eigenvalues_": reported,
            "eigenvectors_": [list(row) for row in zip(*vectors)] if vectors else [[] for _ in range(n)],
        }
        self._x = None

    def _fit_inverse(self, M: list[list[Scalar]]) -> None:
        """Kernel ridge regression from the training scores back to X (sklearn's pre-image map)."""
        ctx = self._ctx
        Z = self._transform_matrix(self._centred_train())
        Kz = self._kernel(Z, None, ctx, self._kernel_name, self.gamma_)
        with ctx.local():
            a = ctx.convert(self.alpha)
            for i in range(len(Kz)):
                Kz[i][i] = Kz[i][i] + a
        try:
            L = _cholesky(Kz, ctx)
        except PurePCAError as err:
            raise PurePCAError(
                f"the pre-image map needs K(scores) + alpha·I positive definite, and it is not ({err}); "
                "increase alpha"
            ) from None
        self._dual_coef = _cholesky_solve(L, M, ctx)
        self._z_fit = Z

    # ---------------------------------------------------------------- using it

    def _is_fitted(self) -> bool:
        return hasattr(self, "eigenvalues_")

    def _pairwise(self) -> bool:
        return self.kernel == "precomputed"

    def _fitted(self) -> None:
        if not hasattr(self, "eigenvalues_"):
            raise NotFittedError("this KernelPCA is not fitted yet; call fit first")

    def _centred_train(self) -> list[list[Scalar]]:
        ctx = self._ctx
        if self._X is not None:
            K = self._kernel(self._X, self._X, ctx, self._kernel_name, self.gamma_)
        else:
            raise PurePCAError("internal: a precomputed kernel keeps no training rows")
        return _center_test_kernel(K, self._stats, ctx)

    def _transform_matrix(self, Kc: list[list[Scalar]]) -> list[list[Scalar]]:
        ctx = self._ctx
        with ctx.local():
            out = []
            for i, row in enumerate(Kc):
                try:
                    out.append([ctx.dot(row, a) for a in self._alphas])
                except (OverflowError, ValueError):  # fsum: an intermediate overflow, or inf - inf
                    raise PurePCAError(f"the score of row {i} is beyond the float range (its centred kernel "
                                       "entries overflow); rescale the data") from None
            return out

    def _test_kernel(self, X: Any) -> list[list[Scalar]]:
        ctx = self._ctx
        if self._kernel_name == "precomputed":
            K = as_matrix(X, name="K", context=ctx)
            if len(K[0]) != self.n_samples_:
                raise PurePCAError(
                    f"K: a precomputed test kernel needs one column per training sample ({self.n_samples_}); "
                    f"got {len(K[0])}"
                )
            return K
        A = as_matrix(X, name="X", context=ctx)
        if len(A[0]) != self.n_features_in_:
            raise PurePCAError(f"X has {len(A[0])} features, but KernelPCA is expecting {self.n_features_in_} "
                               "features as input")
        return self._kernel(A, self._X, ctx, self._kernel_name, self.gamma_)

    def transform(self, X: Any) -> list[list[float]]:
        """Scores of new rows (or of a precomputed m x n_train test kernel).

        >>> kp = KernelPCA(1).fit([[0.0], [1.0], [3.0]])
        >>> kp.transform([[2.0]])
        [[0.6666666666666667]]
        """
        return self._output(self._scores(X), X)

    def _scores(self, X: Any) -> list[list[float]]:
        self._fitted()
        ctx = self._ctx
        Kc = _center_test_kernel(self._test_kernel(X), self._stats, ctx)
        return _float_rows(self._transform_matrix(Kc), ctx, "the score")

    @property
    def error_bounds_(self) -> "KernelErrorBounds":
        """Rigorous bounds on the float eigenvalues and eigenvectors (computed on first use; see
        :mod:`purepca.bounds`).

        ``eigenvalues_[i]`` is an interval ``(low, high)`` containing the exact
        i-th eigenvalue of the exactly centred kernel matrix of the training
        rows as given (divided by n under the kernlab convention); the kernel
        values are computed at 60 digits with a bound on their rounding.
        ``eigenvectors_[i]`` bounds the angle (radians) between column i of
        ``eigenvectors_`` and the exact eigenvector; ``clusters`` groups
        components whose eigenvalues could not be separated.  A callable
        kernel cannot be bounded (its rounding is unknown).

        The error of the float eigenvalue is then at most its distance to the
        far end of the interval.

        >>> X = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [3.0, 3.0]]
        >>> kp = KernelPCA(2, kernel="rbf", gamma=0.5).fit(X)
        >>> (low, high) = kp.error_bounds_.eigenvalues_[0]
        >>> exact = KernelPCA(2, kernel="rbf", gamma=0.5, precision=50).fit(X).high_precision_["eigenvalues_"][0]
        >>> low <= exact <= high, high - low < 1e-15, kp.error_bounds_.eigenvectors_[0] < 1e-14
        (True, True, True)
        """
        from decimal import Decimal

        from .bounds import enclose, kernel_entry_error, kernel_operator
        from .kernels import kernel_matrix
        from .numeric import DecimalContext

        if not hasattr(self, "eigenvalues_"):
            raise NotFittedError("This KernelPCA instance is not fitted yet; call fit(X) first")
        if self._bounds is None:
            name = self._kernel_name
            if callable(name):
                raise PurePCAError("error_bounds_: a callable kernel's rounding is unknown, so it cannot be bounded")
            if name == "precomputed":
                assert self._fit_input is not None
                K = [[Decimal(float(x)) for x in row] for row in self._fit_input]
                entry = Decimal(0)
            else:
                assert self._X is not None
                rows = [[float(x) for x in row] for row in self._X]
                K = kernel_matrix(rows, kernel=name, gamma=self.gamma_, degree=self.degree, coef0=self.coef0,
                                  context=DecimalContext(60))
                entry = kernel_entry_error(str(name), rows, float(self.gamma_ or 0.0), int(self.degree),
                                           float(self.coef0), K)
            apply, error = kernel_operator(K, entry)
            columns = [list(col) for col in zip(*self.eigenvectors_)]
            found = enclose(apply, self.n_samples_, columns, error, psd=False)
            values = found.values
            if self.convention == "kernlab":
                n = self.n_samples_
                values = [(math.nextafter(lo / n, -math.inf), math.nextafter(hi / n, math.inf)) for lo, hi in values]
            self._bounds = KernelErrorBounds(values, found.angles, found.clusters)
        return self._bounds

    @atomic
    def fit_transform(self, X: Any, y: Any = None, *, progress: Optional[Progress] = None) -> list[list[float]]:
        """Fit, then the scores of the training data (equal to ``fit(X).transform(X)``, bit for bit);
        ``progress`` as for :meth:`fit`.

        >>> [[round(v, 12) for v in row] for row in KernelPCA(1).fit_transform([[0.0], [1.0], [3.0]])]
        [[-1.333333333333], [-0.333333333333], [1.666666666667]]
        """
        array_like = any(hasattr(X, a) for a in ("shape", "columns", "__array__", "toarray"))
        if isinstance(X, Iterable) and not isinstance(X, Sequence) and not array_like:
            X = [list(row) if isinstance(row, Iterable) else row for row in X]  # read a generator once
        Kc = self._fit(X, progress)
        if Kc is None:
            self._x = self._scores(X)
        else:
            # The centred training kernel is what transform(X) would compute again, bit for bit (the
            # kernel is symmetric to the last bit and both centrings use the same expression): use it.
            self._x = _float_rows(self._transform_matrix(Kc), self._ctx, "the score")
        return self._output([list(r) for r in self._x], X)

    def get_feature_names_out(self, input_features: Any = None) -> list[str]:
        """scikit-learn's output names: ``kernelpca0``, ``kernelpca1``, ...

        >>> KernelPCA(2).fit([[0, 1], [1, 0], [2, 2]]).get_feature_names_out()
        ['kernelpca0', 'kernelpca1']
        """
        self._fitted()
        return [f"kernelpca{i}" for i in range(self.n_components_)]

    def inverse_transform(self, Z: Any) -> list[list[float]]:
        """Pre-images of scores through the learned ridge map (needs ``fit_inverse_transform=True``).

        >>> kp = KernelPCA(kernel="rbf", gamma=1.0, fit_inverse_transform=True, alpha=1e-3)
        >>> X = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.5], [1.0, 1.0]]   # not a square: a square's eigenvalues tie
        >>> back = kp.fit(X).inverse_transform(kp.transform(X))
        >>> max(abs(a - b) for r, s in zip(back, X) for a, b in zip(r, s)) < 0.01
        True
        """
        self._fitted()
        if not self.fit_inverse_transform or not hasattr(self, "_dual_coef"):
            raise NotFittedError("inverse_transform needs KernelPCA(fit_inverse_transform=True) before fit")
        ctx = self._ctx
        S = as_matrix(Z, name="Z", context=ctx)
        if len(S[0]) != self.n_components_:
            raise PurePCAError(f"Z has {len(S[0])} columns, but KernelPCA has {self.n_components_} components")
        K = self._kernel(S, self._z_fit, ctx, self._kernel_name, self.gamma_)
        with ctx.local():
            cols = list(zip(*self._dual_coef))
            return _float_rows([[ctx.dot(row, c) for c in cols] for row in K], ctx, "the pre-image")

    # ---------------------------------------------------------- kernlab views

    @property
    def eig(self) -> list[float]:
        """kernlab's ``eig``: the eigenvalues of K̃/n."""
        self._fitted()
        ctx = self._ctx
        with ctx.local():
            return [ctx.to_float(v / ctx.convert(self.n_samples_)) for v in self._values]

    @property
    def pcv(self) -> list[list[float]]:
        """kernlab's ``pcv`` (n x k): the eigenvectors of K̃/n divided by the square roots of ``eig``."""
        self._fitted()
        ctx = self._ctx
        with ctx.local():
            nn = ctx.convert(self.n_samples_)
            cols = [[x / ctx.sqrt(v / nn) if v > 0 else ctx.zero for x in u]
                    for u, v in zip(zip(*self.eigenvectors_), self._values)]
            return [[ctx.to_float(x) for x in row] for row in zip(*cols)]

    @property
    def rotated(self) -> list[list[float]]:
        """kernlab's ``rotated`` (n x k): ``K̃·pcv``, the training data in kernel PC space."""
        self._fitted()
        pcv = self.pcv
        ctx = self._ctx
        Kc = _center_test_kernel(self._training_kernel(), self._stats, ctx)
        with ctx.local():
            cols = list(zip(*pcv))
            return [[ctx.to_float(ctx.dot(row, [ctx.convert(x) for x in c])) for c in cols] for row in Kc]

    def _training_kernel(self) -> list[list[Scalar]]:
        if self._X is None:
            raise NotFittedError("rotated needs the training rows; with a precomputed kernel use transform(K)")
        return self._kernel(self._X, self._X, self._ctx, self._kernel_name, self.gamma_)

    @property
    def xmatrix(self) -> Optional[list[list[float]]]:
        """kernlab's ``xmatrix``: the training rows."""
        self._fitted()
        return self.X_fit_
