"""``dataclasses`` for MicroPython.  MicroPython drops class annotations, so
:mod:`purepca.micro` writes each dataclass's field names into its decorator
(``@dataclass(frozen=True, _fields=("a", "b"))``); this ``dataclass`` builds
``__init__`` (defaults and ``field(default_factory=...)``, ``__post_init__``),
``__eq__``, ``__repr__`` and, for ``frozen=True``, refuses assignment.

>>> @dataclass(frozen=True, _fields=("x", "y", "tags"))
... class P:
...     y = 0.0
...     tags = field(default_factory=list)
>>> p = P(1.0)
>>> p, p == P(1.0, 0.0, []), replace(p, y=2.0).y, [f.name for f in fields(p)]
(P(x=1.0, y=0.0, tags=[]), True, 2.0, ['x', 'y', 'tags'])
>>> p.x = 3.0
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

from typing import Any, Callable, Optional


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen dataclass."""


FrozenInstanceError.__module__ = "dataclasses"


class Field:
    """One field: its name, default or default factory, and whether it takes part in ``==``."""

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, compare: bool = True,
                 repr: bool = True, init: bool = True, **ignored: Any) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.repr = repr
        self.init = init


def field(**kwargs: Any) -> Any:
    """A :class:`Field` (``default=``, ``default_factory=``, ``compare=``, ``repr=``, ``init=``)."""
    return Field(**kwargs)


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def dataclass(cls: Optional[type] = None, *, frozen: bool = False, eq: bool = True,
              _fields: tuple[str, ...] = (), **ignored: Any) -> Any:
    """The class with ``__init__``, ``__eq__`` and ``__repr__`` over ``_fields`` (and its bases' fields)."""

    def wrap(klass: type) -> type:
        inherited: list[Field] = []
        for base in klass.__bases__:
            for f in getattr(base, "__dataclass_fields__", ()):
                if all(g.name != f.name for g in inherited):
                    inherited.append(f)
        own: list[Field] = []
        for name in _fields:
            value = klass.__dict__.get(name, MISSING)
            f = value if isinstance(value, Field) else Field(default=value)
            f.name = name
            if isinstance(value, Field):
                if f.default is MISSING:
                    delattr(klass, name)
                else:
                    setattr(klass, name, f.default)
            own.append(f)
        all_fields = [f for f in inherited if all(g.name != f.name for g in own)] + own
        klass.__dataclass_fields__ = tuple(all_fields)  # type: ignore[attr-defined]
        _install(klass, all_fields, frozen, eq)
        return klass

    return wrap if cls is None else wrap(cls)


def _install(klass: type, all_fields: list[Field], frozen: bool, eq: bool) -> None:
    names = [f.name for f in all_fields]
    post_init: Optional[Callable[..., Any]] = getattr(klass, "__post_init__", None)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{klass.__name__}() takes {len(names)} positional arguments but {len(args)} were given")
        for name in kwargs:
            if name not in names:
                raise TypeError(f"{klass.__name__}() got an unexpected keyword argument {name!r}")
        for i, f in enumerate(all_fields):
            if i < len(args):
                value = args[i]
            elif f.name in kwargs:
                value = kwargs[f.name]
            elif f.default is not MISSING:
                value = f.default
            elif f.default_factory is not MISSING:
                value = f.default_factory()
            else:
                raise TypeError(f"{klass.__name__}() missing required argument: {f.name!r}")
            object.__setattr__(self, f.name, value)
        if post_init is not None:
            post_init(self)

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in all_fields if f.repr)
        return f"{klass.__name__}({inner})"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in all_fields if f.compare)

    klass.__init__ = __init__  # type: ignore[misc]
    if "__repr__" not in klass.__dict__:
        klass.__repr__ = __repr__  # type: ignore[method-assign,assignment]
    if eq and "__eq__" not in klass.__dict__:
        klass.__eq__ = __eq__  # type: ignore[method-assign,assignment]
    if frozen:
        klass.__setattr__ = _frozen_setattr  # type: ignore[method-assign,assignment]


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a dataclass or of one of its instances, in order."""
    return tuple(obj.__dataclass_fields__)


def is_dataclass(obj: Any) -> bool:
    """Whether ``obj`` is a dataclass or an instance of one."""
    return hasattr(obj, "__dataclass_fields__")


def replace(obj: Any, **changes: Any) -> Any:
    """A new instance of ``obj``'s class with ``changes`` applied to its fields."""
    values = {f.name: getattr(obj, f.name) for f in fields(obj) if f.init}
    values.update(changes)
    return obj.__class__(**values)


def asdict(obj: Any) -> dict[str, Any]:
    """The fields of ``obj`` as a dict (not recursive)."""
    return {f.name: getattr(obj, f.name) for f in fields(obj)}
