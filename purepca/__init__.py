"""purepca: Principal Component Analysis in pure Python, with no runtime dependencies.

Matrices are plain lists of rows.  Every algorithm is written out by hand in
the modules below and takes a *number context*, so the same code gives a
float answer or a 50-digit reference (``precision=50`` / ``DecimalContext``).

=========================  ====================================================
``covariance_matrix``      two-pass covariance with compensated sums
``correlation_matrix``     correlation of the columns
``Moments``                streaming (mergeable) mean and covariance
``eigh``                   symmetric eigenproblem: Jacobi or tridiagonal QL
``jacobi_eigh``            symmetric eigenproblem by cyclic Jacobi
``tridiagonal_eigh``       Householder + implicit QL (large formed matrices)
``jacobi_svd``             one-sided Jacobi SVD (accurate PCA of collinear data)
``power_iteration``        top eigenpairs one by one (for teaching)
``subspace_iteration``     top-k eigenpairs, matrix-free
``lanczos``                top-k eigenpairs by block Lanczos, matrix-free
``DecimalContext``         arithmetic at N significant digits
``PCA``                    the estimator: fit, transform, R's and scikit-learn's names
``KernelPCA``              Kernel PCA, with scikit-learn's and kernlab's conventions
=========================  ====================================================

The toy data of R's ``prcomp`` example (seed 003): the square roots of the
covariance eigenvalues are prcomp's standard deviations 1.1331495 and
0.2215477.

>>> import math, purepca
>>> X = [[2.5, 2.4], [0.5, 0.7], [2.2, 2.9], [1.9, 2.2], [3.1, 3.0],
...      [2.3, 2.7], [2.0, 1.6], [1.0, 1.1], [1.5, 1.6], [1.1, 0.9]]
>>> C = purepca.covariance_matrix(X)
>>> [round(math.sqrt(v), 7) for v in purepca.jacobi_eigh(C).values]
[1.1331495, 0.2215477]
"""

import sys

if sys.version_info < (3, 9):  # pragma: no cover - checked by running CPython 3.8 (tests/test_cli_real_data.py)
    raise ImportError("purepca requires Python >= 3.9; this is Python " + sys.version.split()[0])

from .covariance import (
    center,
    column_means,
    column_std,
    correlation_matrix,
    covariance_matrix,
    standardize,
)
from .errors import (
    AccuracyWarning,
    ConvergenceError,
    DegenerateEigenvalueWarning,
    NotFittedError,
    PurePCAError,
    PurePCATypeError,
)
from .linalg.eigen import eigh
from .linalg.tridiagonal import TridiagonalStep, tridiagonal_eigh
from .linalg.jacobi import EighResult, JacobiStep, SVDResult, jacobi_eigh, jacobi_svd
from .linalg.matrix import as_matrix, transpose
from .moments import Moments
from . import datasets
from .linalg.krylov import lanczos
from .linalg.power import IterationResult, power_iteration, subspace_iteration
from .numeric import FLOAT, Context, DecimalContext, FloatContext, get_context
from .kernel_pca import KernelPCA, NonPSDKernelWarning
from .kernels import center_kernel, center_test_kernel, kernel_matrix
from .pca import PCA, PCASummary

__version__ = "0.1.0"

__all__ = [
    "AccuracyWarning",
    "Context",
    "ConvergenceError",
    "DecimalContext",
    "DegenerateEigenvalueWarning",
    "EighResult",
    "FLOAT",
    "FloatContext",
    "IterationResult",
    "JacobiStep",
    "KernelPCA",
    "Moments",
    "NonPSDKernelWarning",
    "NotFittedError",
    "PCA",
    "PCASummary",
    "PurePCAError",
    "PurePCATypeError",
    "SVDResult",
    "TridiagonalStep",
    "as_matrix",
    "center",
    "center_kernel",
    "center_test_kernel",
    "column_means",
    "column_std",
    "correlation_matrix",
    "covariance_matrix",
    "datasets",
    "eigh",
    "get_context",
    "jacobi_eigh",
    "jacobi_svd",
    "kernel_matrix",
    "lanczos",
    "power_iteration",
    "standardize",
    "subspace_iteration",
    "transpose",
    "tridiagonal_eigh",
]
