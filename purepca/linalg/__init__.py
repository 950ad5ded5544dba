"""The linear-algebra layer: plain-list matrices, Jacobi, tridiagonal QL, Lanczos, power and
subspace iteration.

Nothing here knows about statistics.

>>> from purepca.linalg import jacobi_eigh
>>> jacobi_eigh([[2, 0], [0, 3]]).values
[3.0, 2.0]
"""

from .eigen import eigh
from .jacobi import EighResult, JacobiStep, SVDResult, jacobi_eigh, jacobi_svd
from .krylov import lanczos
from .matrix import (
    as_matrix,
    as_symmetric,
    as_vector,
    dot,
    identity,
    matmul,
    matvec,
    max_abs,
    norm_1,
    norm_fro,
    transpose,
)
from .tridiagonal import TridiagonalStep, tridiagonal_eigh

__all__ = [
    "EighResult",
    "JacobiStep",
    "SVDResult",
    "TridiagonalStep",
    "as_matrix",
    "as_symmetric",
    "as_vector",
    "dot",
    "eigh",
    "identity",
    "jacobi_eigh",
    "jacobi_svd",
    "lanczos",
    "matmul",
    "matvec",
    "max_abs",
    "norm_1",
    "norm_fro",
    "transpose",
    "tridiagonal_eigh",
]
