"""What MicroPython lacks, for the bundle that :mod:`purepca.micro` builds.

These modules are copied into the bundle as ``purepca/_mp/`` (annotations
stripped like every other module); the bundle's modules import them in place of
the standard ones.  On CPython they import and their doctests compare them with
the standard library: a correctly rounded ``fsum`` and ``hypot`` give
CPython's bits.
"""
