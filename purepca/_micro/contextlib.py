"""``contextlib`` for MicroPython: ``contextmanager``, ``nullcontext``, ``AbstractContextManager``.

>>> @contextmanager
... def tag(log):
...     log.append("in")
...     try:
...         yield len(log)
...     finally:
...         log.append("out")
>>> log = []
>>> with tag(log) as n:
...     log.append(n)
>>> log
['in', 1, 'out']
>>> with nullcontext(5) as v:
...     v
5
"""

from __future__ import annotations

from typing import Any, Callable, Iterator


class AbstractContextManager:
    """Base of context managers: ``__enter__`` returns ``self``."""

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> Any:
        return None


class _GeneratorContextManager(AbstractContextManager):
    def __init__(self, gen: Iterator[Any]) -> None:
        self.gen = gen

    def __enter__(self) -> Any:
        return next(self.gen)

    def __exit__(self, kind: Any, value: Any, tb: Any) -> bool:
        if kind is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError("generator didn't stop")
        if value is None:
            value = kind()
        try:
            self.gen.throw(value)  # type: ignore[attr-defined]
        except StopIteration as stop:
            return stop is not value
        except BaseException as err:
            if err is value:
                return False
            raise
        raise RuntimeError("generator didn't stop after throw()")


def contextmanager(func: Callable[..., Iterator[Any]]) -> Callable[..., Any]:
    """A generator function as a context manager factory (``yield`` once)."""

    def helper(*args: Any, **kwargs: Any) -> _GeneratorContextManager:
        return _GeneratorContextManager(func(*args, **kwargs))

    return helper


class nullcontext(AbstractContextManager):
    """A context manager that does nothing and gives ``enter_result``."""

    def __init__(self, enter_result: Any = None) -> None:
        self.enter_result = enter_result

    def __enter__(self) -> Any:
        return self.enter_result
