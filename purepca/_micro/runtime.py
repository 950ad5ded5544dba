"""Helpers the rewritten modules call where MicroPython lacks a construct.

>>> _mp_isinstance(1.5, ((int, float), str)), _mp_merge({"a": 1}, {"b": 2}), _mp_getitem([5, 7])(1)
(True, {'a': 1, 'b': 2}, 7)
"""

from __future__ import annotations

from typing import Any, Callable


def _flatten(kinds: Any) -> tuple[Any, ...]:
    if isinstance(kinds, tuple):
        out: tuple[Any, ...] = ()
        for k in kinds:
            out += _flatten(k)
        return out
    return (kinds,)


def _mp_isinstance(value: Any, kinds: Any) -> bool:
    """``isinstance`` with nested tuples of classes (MicroPython takes one level).

    >>> _mp_isinstance(True, (str, (bool,)))
    True
    """
    return isinstance(value, _flatten(kinds))


def _mp_merge(*parts: Any) -> dict[Any, Any]:
    """``{**a, k: v, **b}`` as a call: the mappings merged left to right.

    >>> _mp_merge({"a": 1}, {"a": 2})
    {'a': 2}
    """
    out: dict[Any, Any] = {}
    for p in parts:
        out.update(p)
    return out


def _mp_getitem(container: Any) -> Callable[[Any], Any]:
    """``container.__getitem__`` (MicroPython's lists have no bound one).

    >>> sorted(range(3), key=_mp_getitem([2.0, 9.0, 1.0]))
    [2, 0, 1]
    """
    return lambda key: container[key]


def _mp_is_iterable(value: Any) -> bool:
    """``isinstance(value, typing.Iterable)``: whether ``iter(value)`` works.

    >>> _mp_is_iterable([1]), _mp_is_iterable(3)
    (True, False)
    """
    try:
        iter(value)
    except TypeError:
        return False
    return True


def _mp_index(value: Any) -> int:
    """``value.__index__()`` (MicroPython's ``int`` has no such method).

    >>> _mp_index(7)
    7
    """
    if isinstance(value, int):
        return value
    return int(value.__index__())


def _mp_bound(value: Any, name: str) -> Callable[[Any], Any]:
    """``value.__mul__`` and the like as a one-argument function (MicroPython's
    floats have no bound arithmetic methods).

    >>> list(map(_mp_bound(0.5, "__mul__"), [2.0, 4.0])), _mp_bound(1.0, "__sub__")(3.0)
    ([1.0, 2.0], -2.0)
    """
    if name == "__add__":
        return lambda other: value + other
    if name == "__sub__":
        return lambda other: value - other
    if name == "__mul__":
        return lambda other: value * other
    return lambda other: value / other


def _mp_bit_length(value: int) -> int:
    """``value.bit_length()`` (MicroPython's ``int`` has no such method).

    >>> [_mp_bit_length(v) for v in (0, 1, -8, 2 ** 100)]
    [0, 1, 4, 101]
    """
    from .math import _bit_length

    return _bit_length(abs(value))


def _mp_is_sequence(value: Any) -> bool:
    """``isinstance(value, typing.Sequence)`` for the built-in sequences.

    >>> _mp_is_sequence((1,)), _mp_is_sequence(iter([1]))
    (True, False)
    """
    return isinstance(value, (list, tuple, str, bytes, range))


class _mp_vars:
    """``vars(obj)`` where MicroPython has none and an instance's ``__dict__`` is
    read-only: ``get``, ``pop`` and ``update`` go through the attributes.

    >>> class A:
    ...     pass
    >>> a = A()
    >>> _mp_vars(a).update(x=1, y=2)
    >>> _mp_vars(a).pop("x", None), _mp_vars(a).get("x"), a.y
    (1, None, 2)
    """

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def get(self, key: str, default: Any = None) -> Any:
        """The instance attribute ``key``, or ``default``."""
        return self.obj.__dict__.get(key, default)

    def pop(self, key: str, default: Any = None) -> Any:
        """Remove the instance attribute ``key`` and return it (``default`` when absent)."""
        if key not in self.obj.__dict__:
            return default
        value = self.obj.__dict__[key]
        delattr(self.obj, key)
        return value

    def update(self, **values: Any) -> None:
        """Set the instance attributes ``values``."""
        for key, value in values.items():
            object.__setattr__(self.obj, key, value)


class _mp_Warning(Exception):
    """``Warning`` (MicroPython has none)."""


class _mp_UserWarning(_mp_Warning):
    """``UserWarning`` (MicroPython has none)."""


class _mp_RuntimeWarning(_mp_Warning):
    """``RuntimeWarning`` (MicroPython has none)."""
