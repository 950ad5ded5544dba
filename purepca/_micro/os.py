"""``os`` for MicroPython: the few names the bundle uses (``path.dirname``,
``path.abspath``, ``cpu_count``).

>>> path.dirname("/lib/purepca/errors.py"), path.abspath("/a/b")
('/lib/purepca', '/a/b')
"""

from __future__ import annotations

from typing import Optional


class path:
    """``os.path``: ``dirname``, ``abspath`` and ``join`` on ``/`` paths."""

    @staticmethod
    def dirname(p: str) -> str:
        """Everything before the last ``/``."""
        i = p.rfind("/")
        return p[:i] if i > 0 else ("/" if i == 0 else "")

    @staticmethod
    def abspath(p: str) -> str:
        """``p`` itself (the bundle's ``__file__`` paths are absolute or compared as they are)."""
        return p

    @staticmethod
    def join(*parts: str) -> str:
        """The parts joined by ``/``."""
        return "/".join(parts)


def cpu_count() -> Optional[int]:
    """``None``: the number of processors is not known (the host runs one thread)."""
    return None
