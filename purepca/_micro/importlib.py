"""``importlib`` for MicroPython: ``import_module`` and ``util.find_spec``.

>>> import_module("json").__name__, util.find_spec("json") is not None, util.find_spec("no_such_module_x") is None
('json', True, True)
"""

from __future__ import annotations

from typing import Any, Optional


def import_module(name: str) -> Any:
    """The module ``name`` (dotted), imported."""
    module = __import__(name)
    for part in name.split(".")[1:]:
        module = getattr(module, part)
    return module


class util:
    """``importlib.util``: only ``find_spec``, answered by trying the import."""

    @staticmethod
    def find_spec(name: str) -> Optional[object]:
        """A true value when ``name`` imports, else ``None``."""
        try:
            found: object = import_module(name)
        except ImportError:
            return None
        return found
