"""``warnings`` for MicroPython: ``warn``, ``simplefilter`` and ``catch_warnings``.

A warning prints ``Category: message`` to standard error once per message
(``"default"``), always, never (``"ignore"``) or raises (``"error"``), as the
last ``simplefilter`` says; ``catch_warnings`` restores the filter on exit.

>>> simplefilter("error")
>>> warn("careful")
Traceback (most recent call last):
...
UserWarning: careful
>>> simplefilter("default")
"""

from __future__ import annotations

import sys
from typing import Any, Optional

_state: dict[str, Any] = {"action": "default", "seen": set()}


def _user_warning() -> Any:
    try:
        return UserWarning
    except NameError:  # pragma: no cover - MicroPython
        from .runtime import _mp_UserWarning

        return _mp_UserWarning


def simplefilter(action: str, category: Any = None, *args: Any, **kwargs: Any) -> None:
    """Set what ``warn`` does: ``"default"``, ``"always"``, ``"ignore"`` or ``"error"``."""
    _state["action"] = action


def warn(message: Any, category: Any = None, stacklevel: int = 1, *args: Any, **kwargs: Any) -> None:
    """Issue ``message`` (a string or a warning instance) under the current filter."""
    if category is None:
        category = type(message) if isinstance(message, Exception) else _user_warning()
    action = _state["action"]
    if action == "ignore":
        return
    if action == "error":
        raise message if isinstance(message, Exception) else category(message)
    key = (category.__name__, str(message))
    if action != "always" and key in _state["seen"]:
        return
    _state["seen"].add(key)
    print(f"{category.__name__}: {message}", file=sys.stderr)


class catch_warnings:
    """Save the filter on entry and restore it on exit (no recording)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.saved: Optional[str] = None

    def __enter__(self) -> None:
        self.saved = _state["action"]

    def __exit__(self, *exc: Any) -> None:
        _state["action"] = self.saved
