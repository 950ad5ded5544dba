"""``numbers`` for MicroPython: the abstract classes as tuples of the built-in types
(``isinstance`` is the only use; nested tuples go through ``_mp_isinstance``).

>>> isinstance(2, Integral), isinstance(2.5, Integral), isinstance(2.5, Real)
(True, False, True)
"""

Integral = (int,)
Real = (int, float)
Complex = (int, float, complex)
Rational = (int,)
