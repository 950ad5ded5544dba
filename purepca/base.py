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
import importlib
import importlib.util
from typing import Any, Callable, Optional, TypeVar, cast

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
            # attribute by attribute: MicroPython's instance __dict__ is read-only
            for name in [key for key in self.__dict__ if key not in saved]:
                delattr(self, name)
            for name, value in saved.items():
                object.__setattr__(self, name, value)
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
        purepca.errors.PurePCAError: invalid parameter 'colour' for PCA; valid parameters: n_components, ...
        """
        name = type(self).__name__
        for key in params:
            if key not in self._PARAMS:
                raise PurePCAError(f"invalid parameter {key!r} for {name}; valid parameters: {', '.join(self._PARAMS)}")
        for key, value in params.items():
            setattr(self, key, value)
        return self

    # ------------------------------------------- scikit-learn's protocol
    #
    # What scikit-learn asks of an estimator, without importing it here:
    # tags (built from scikit-learn's own classes only when it asks, so it
    # is installed), whether the model is fitted, and set_output.

    def _is_fitted(self) -> bool:  # pragma: no cover - each estimator says
        raise NotImplementedError

    def __sklearn_is_fitted__(self) -> bool:
        """Whether ``fit`` has succeeded (scikit-learn's ``check_is_fitted`` asks this).

        >>> from purepca import PCA
        >>> PCA().__sklearn_is_fitted__(), PCA().fit([[0, 1], [1, 0]]).__sklearn_is_fitted__()
        (False, True)
        """
        return self._is_fitted()

    def _pairwise(self) -> bool:
        return False

    def __sklearn_tags__(self) -> Any:
        """scikit-learn's tags: a transformer, no target, dense or sparse 2-D
        input (sparse is densified), ``pairwise`` for a precomputed kernel.
        Output dtypes are not preserved: the results are lists of Python
        floats, which carry no dtype (float32 in, float64 out).

        >>> from purepca import KernelPCA
        >>> KernelPCA(kernel="precomputed").__sklearn_tags__().input_tags.pairwise  # doctest: +SKIP
        True
        """
        utils = importlib.import_module("sklearn.utils")
        return utils.Tags(
            estimator_type=None,
            target_tags=utils.TargetTags(required=False),
            transformer_tags=utils.TransformerTags(preserves_dtype=[]),
            input_tags=utils.InputTags(sparse=True, pairwise=self._pairwise()),
        )

    def set_output(self: E, *, transform: Optional[str] = None) -> E:
        """The container of ``transform`` and ``fit_transform`` results, as
        scikit-learn's ``set_output``: ``"default"`` (lists), ``"pandas"``
        (a DataFrame with ``get_feature_names_out()`` as columns and the
        input's index) or ``"polars"``; None leaves it unchanged.

        >>> from purepca import PCA
        >>> PCA().set_output(transform="default").fit_transform([[0.0], [2.0]])
        [[-1.0], [1.0]]
        >>> PCA().set_output(transform="arrow")
        Traceback (most recent call last):
        ...
        purepca.errors.PurePCAError: set_output: transform must be 'default', 'pandas', 'polars' or None; got 'arrow'
        """
        if transform is None:
            return self
        if transform not in ("default", "pandas", "polars"):
            raise PurePCAError(f"set_output: transform must be 'default', 'pandas', 'polars' or None; "
                               f"got {transform!r}")
        if transform != "default" and importlib.util.find_spec(transform) is None:
            raise PurePCAError(f"set_output(transform={transform!r}) needs {transform}, which is not installed")
        self._sklearn_output_config = {"transform": transform}
        return self

    def _output(self, rows: list[list[float]], X: Any) -> list[list[float]]:
        """``rows`` in the container chosen by :meth:`set_output` (typed as
        the default, lists; a DataFrame only after ``set_output``)."""
        kind = getattr(self, "_sklearn_output_config", {}).get("transform", "default")
        if kind == "default":
            return rows
        names = self.get_feature_names_out()  # type: ignore[attr-defined]
        if kind == "pandas":
            index = getattr(X, "index", None) if hasattr(X, "columns") else None
            frame = importlib.import_module("pandas").DataFrame(rows, columns=names, index=index)
        else:
            frame = importlib.import_module("polars").DataFrame(rows, schema=names, orient="row")
        return cast("list[list[float]]", frame)

    def __repr__(self) -> str:
        defaults = type(self)()
        changed = [f"{k}={_printable(v)}" for k, v in self.get_params().items() if v != getattr(defaults, k)]
        return f"{type(self).__name__}({', '.join(changed)})"

    def _check_printable(self) -> None:
        """Refuse a parameter that is an int too long to print (past 4,300 digits ``repr`` raises
        ValueError, and every message naming the value would): no setting needs one.  A seed may be
        any int (``random.Random`` takes it whole)."""
        for name in self._PARAMS:
            value = getattr(self, name)
            if name != "seed" and isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 2_000:
                raise PurePCAError(f"{name} is {_printable(value)}; no setting of {name} is that large")


def _printable(value: Any) -> str:
    """``repr``, or for an int too long to print, how many digits it has.

    >>> _printable(3), _printable(10 ** 5000)
    ('3', 'an int of 5001 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 2_000:
        from .params import _digits

        return f"an int of {_digits(value)} digits"
    return repr(value)
