"""The estimator protocol shared by :class:`~purepca.PCA` and :class:`~purepca.KernelPCA`.

As in scikit-learn: the constructor stores its keyword arguments as
attributes of the same names and does nothing else; ``get_params`` and
``set_params`` read and write them; the repr shows those that differ from
the defaults.

>>> from purepca import PCA
>>> PCA(2, whiten=True)
PCA(n_components=2, whiten=True)
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

from .errors import PurePCAError

__all__ = ["Estimator", "atomic"]

E = TypeVar("E", bound="Estimator")
F = TypeVar("F", bound=Callable[..., Any])


def atomic(method: F) -> F:
    """Make a fitting method all or nothing: if it raises, the estimator's
    attributes are put back exactly as they were before the call.

    Fitting assigns new objects to attributes and never changes the old ones
    in place, so a shallow copy of ``__dict__`` is a complete snapshot.

    >>> from purepca import PCA
    >>> pca = PCA().fit([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    >>> try:
    ...     pca.fit([[0.0, 1.0], [1.0, float("nan")]])
    ... except Exception:
    ...     pass
    >>> pca.n_samples_
    3
    """

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        saved = dict(self.__dict__)
        try:
            return method(self, *args, **kwargs)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(saved)
            raise

    return wrapper  # type: ignore[return-value]


class Estimator:
    """Parameters by name: ``get_params``, ``set_params`` and a readable repr.

    Subclasses list their constructor parameters in ``_PARAMS``.
    """

    _PARAMS: tuple[str, ...] = ()

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor's parameters, as scikit-learn's ``get_params``.

        >>> from purepca import PCA
        >>> PCA(3).get_params()["n_components"]
        3
        """
        return {name: getattr(self, name) for name in self._PARAMS}

    def set_params(self: E, **params: Any) -> E:
        """Set constructor parameters; returns self.  Unknown names are an error.

        >>> from purepca import PCA
        >>> PCA().set_params(whiten=True).whiten
        True
        >>> PCA().set_params(colour="red")
        Traceback (most recent call last):
        ...
        purepca.errors.PurePCAError: invalid parameter 'colour' for PCA; valid parameters: n_components, center, scale, ddof, whiten, solver, sign, convention, precision, seed, n_jobs
        """
        name = type(self).__name__
        for key in params:
            if key not in self._PARAMS:
                raise PurePCAError(f"invalid parameter {key!r} for {name}; valid parameters: {', '.join(self._PARAMS)}")
        for key, value in params.items():
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        defaults = type(self)()
        changed = [f"{k}={v!r}" for k, v in self.get_params().items() if v != getattr(defaults, k)]
        return f"{type(self).__name__}({', '.join(changed)})"
