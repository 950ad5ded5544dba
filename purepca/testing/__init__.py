"""purepca as the oracle in another PCA's tests: the reference, and comparisons that know
about signs, degenerate eigenvalues, divisors and how accurate each kind of method can be.

===========================================  ===================================
``reference(X, convention=...)``             the reference answer (floats,
                                             refined; or N digits), cached per
                                             data set within the process
``assert_pca_close(result, X, ...)``         compare another library's fitted
                                             PCA (or a dict, R's ``sdev`` and
                                             ``rotation``, statsmodels, numpy's
                                             ``eigh``) with the reference,
                                             within the error model of its
                                             method; ``compare_pca`` gives
                                             every check
``assert_kernel_pca_close(result, X, ...)``  the same for Kernel PCA
                                             (scikit-learn, kernlab)
``subspace_distance(A, B)``                  the largest principal angle between
                                             two spans, accurate down to 1e-16
``align_signs(components, reference)``       flip rows to agree with a reference
``eigen_clusters(values, tol)``              groups of (nearly) equal eigenvalues
``residual_bound(A_or_X, values, vectors)``  ``‖A·v - λ·v‖`` per pair: some
                                             eigenvalue lies within it of λ
``sign_determined(v, rule, angle)``          whether a sign rule fixes v's sign
                                             despite an error of ``angle``
``purepca.testing.strategies``               hypothesis strategies for hard
                                             PCA inputs (needs hypothesis)
===========================================  ===================================

Inputs may be lists, tuples or numpy arrays (read row by row; numpy is never
imported).  A failed comparison raises ``AssertionError`` with one line per
mismatch: the quantity, the component, the size of the error, the tolerance
and the digits lost.

>>> X = [[2.5, 2.4], [0.5, 0.7], [2.2, 2.9], [1.9, 2.2], [3.1, 3.0], [2.3, 2.7], [2.0, 1.6], [1.0, 1.1],
...      [1.5, 1.6], [1.1, 0.9]]
>>> ref = reference(X)
>>> [round(v, 10) for v in ref.explained_variance_]
[1.2840277122, 0.0490833989]
>>> theirs = {"components_": [[-0.6778734, -0.7351787], [0.7351787, -0.6778734]],
...           "explained_variance_": [1.2840277, 0.0490834]}
>>> assert_pca_close(theirs, X, convention="prcomp", rtol=1e-6)   # seven digits, signs free under prcomp
"""

from __future__ import annotations

from .compare import METHODS, Check, assert_pca_close, compare_pca, iterative_residuals, summary, tolerances
from .geometry import (align_signs, angle_from, angle_inside, eigen_clusters, residual_bound, sign_determined,
                       subspace_distance)
from .kernel import assert_kernel_pca_close, compare_kernel_pca, kernel_reference
from .answer import Reference, clear_cache, fingerprint, reference
from .assess import assess  # noqa: E402  (the certified corpus: docs/certified.md)

# The distributed PCAs' checks (Spark MLlib, dask-ml) against merged exact moments: docs/distributed.md.
from ..distributed import compare_sklearn_like_pca, compare_spark_pca, covariance_error, reference_pca  # noqa: E402

__all__ = [
    "Check",
    "METHODS",
    "Reference",
    "align_signs",
    "angle_from",
    "angle_inside",
    "assert_kernel_pca_close",
    "assert_pca_close",
    "assess",
    "clear_cache",
    "compare_kernel_pca",
    "compare_pca",
    "compare_sklearn_like_pca",
    "compare_spark_pca",
    "covariance_error",
    "eigen_clusters",
    "fingerprint",
    "iterative_residuals",
    "kernel_reference",
    "reference",
    "reference_pca",
    "residual_bound",
    "sign_determined",
    "subspace_distance",
    "summary",
    "tolerances",
]
