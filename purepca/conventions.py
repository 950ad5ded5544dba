"""What each library means by "PCA": divisor, scaling, sign rule, names.

Libraries agree on the principal axes and disagree on everything around them.
A *convention* fixes all of it at once; every field can still be overridden
one by one on :class:`purepca.PCA`.

==============  =======  =======  ====================  ===========
convention      ddof     scale    sign rule             names
==============  =======  =======  ====================  ===========
``sklearn``     1        False    ``max_abs_positive``  PC1, PC2 ...
``prcomp``      1        False    ``none``              PC1, PC2 ...
``princomp``    0        False    ``first_positive``    Comp.1 ...
``factominer``  0        True     ``sum_positive``      Dim.1 ...
==============  =======  =======  ====================  ===========

* **ddof**: the variance divisor is ``n - ddof``: scikit-learn and R's
  ``prcomp`` use the sample covariance (``n - 1``), ``princomp`` and
  FactoMineR the maximum-likelihood one (``n``).
* **scale**: standardise the columns first (R's ``scale.=TRUE``,
  ``cor=TRUE``, FactoMineR's default ``scale.unit=TRUE``), dividing by the
  standard deviation computed with the same divisor.
* **sign**: an eigenvector is only defined up to sign; each library fixes it
  its own way (see :func:`apply_sign_rule`).

>>> CONVENTIONS["princomp"].ddof
0
>>> apply_sign_rule([[-0.6, -0.8], [0.8, 0.6]], "max_abs_positive")
[[0.6, 0.8], [0.8, 0.6]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .errors import PurePCAError
from .numeric import Scalar

__all__ = ["CONVENTIONS", "Convention", "SIGN_RULES", "apply_sign_rule", "sign_flips"]

#: The sign rules :func:`apply_sign_rule` knows.
SIGN_RULES = ("max_abs_positive", "first_positive", "sum_positive", "none")


@dataclass(frozen=True)
class Convention:
    """A library's choices: divisor, scaling, sign rule and component names.

    >>> CONVENTIONS["sklearn"].component_name(0)
    'PC1'
    """

    name: str
    ddof: int
    scale: bool
    sign: str
    prefix: str

    def component_name(self, i: int) -> str:
        """The name of component ``i`` (0-based) as this library prints it."""
        return f"{self.prefix}{i + 1}"


CONVENTIONS = {
    "sklearn": Convention("sklearn", 1, False, "max_abs_positive", "PC"),
    "prcomp": Convention("prcomp", 1, False, "none", "PC"),
    "princomp": Convention("princomp", 0, False, "first_positive", "Comp."),
    "factominer": Convention("factominer", 0, True, "sum_positive", "Dim."),
}


def sign_flips(components: Sequence[Sequence[Scalar]], rule: str) -> list[bool]:
    """For each component (a row), whether the rule flips its sign.

    * ``max_abs_positive`` (scikit-learn >= 1.5, ``svd_flip`` with
      ``u_based_decision=False``): the entry of largest absolute value is
      positive; among equal largest values, the first one decides.
    * ``first_positive`` (R ``princomp(fix_sign=TRUE)``): the first entry is
      non-negative (``v[0] >= 0``).
    * ``sum_positive``: the sum of the entries is non-negative; when it is
      zero, the first non-zero entry is made positive.
    * ``none``: keep the signs the solver produced (R ``prcomp`` does this with
      LAPACK's signs; purepca's solvers are deterministic, so the result is
      reproducible but not LAPACK's).

    >>> sign_flips([[0.1, -0.9], [0.5, 0.5]], "max_abs_positive")
    [True, False]
    >>> sign_flips([[-0.0, 1.0]], "first_positive")
    [False]
    """
    if rule not in SIGN_RULES:
        raise PurePCAError(f"sign must be one of {', '.join(map(repr, SIGN_RULES))}; got {rule!r}")
    flips = []
    for v in components:
        if rule == "none" or not len(v):
            flips.append(False)
        elif rule == "max_abs_positive":
            largest = max(range(len(v)), key=lambda j: abs(v[j]))  # first of equals
            flips.append(v[largest] < 0)
        elif rule == "first_positive":
            flips.append(v[0] < 0)
        else:
            total = sum(v)
            if total == 0:
                first = next((x for x in v if x != 0), 0)
                flips.append(first < 0)
            else:
                flips.append(total < 0)
    return flips


def apply_sign_rule(components: Sequence[Sequence[Scalar]], rule: str) -> list[list[Scalar]]:
    """The components (rows) with the signs fixed by ``rule`` (a new list).

    >>> apply_sign_rule([[-1.0, 0.5]], "first_positive")
    [[1.0, -0.5]]
    """
    return [[-x for x in v] if flip else list(v) for v, flip in zip(components, sign_flips(components, rule))]
