"""``collections.abc`` for MicroPython: ``Mapping`` and ``Set`` as their built-in kinds.

>>> isinstance({}, Mapping), isinstance(frozenset(), Set)
(True, True)
"""

Mapping = (dict,)
Set = (set, frozenset)
