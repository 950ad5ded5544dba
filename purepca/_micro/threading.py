"""``threading`` for MicroPython builds without threads: the bundle runs in one
thread there (``n_jobs`` above 1 falls back to this process, as on a host
without semaphores), so a lock has nothing to exclude.

>>> with Lock():
...     pass
"""

from __future__ import annotations

from typing import Any


class Lock:
    """A lock in a single-threaded interpreter: acquiring always succeeds."""

    def acquire(self, *args: Any) -> bool:
        """Take the lock (always succeeds)."""
        return True

    def release(self) -> None:
        """Give the lock back."""

    def __enter__(self) -> bool:
        return True

    def __exit__(self, *exc: Any) -> None:
        return None


class Thread:
    """Threads are not available: starting one raises ``OSError`` (as a host without threads does)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise OSError("threads are not available on this interpreter")
