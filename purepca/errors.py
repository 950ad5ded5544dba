"""Exceptions raised by purepca.

Every error purepca raises on purpose derives from :class:`PurePCAError`,
which is a :class:`ValueError`, so ``except ValueError`` keeps working for
callers who do not know this package.

>>> from purepca.errors import PurePCAError, ConvergenceError
>>> issubclass(ConvergenceError, PurePCAError) and issubclass(PurePCAError, ValueError)
True
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterator

__all__ = ["user_stacklevel", "ConvergenceError", "DegenerateEigenvalueWarning", "NotFittedError", "PurePCAError",
           "PurePCATypeError", "float_range"]


#: The characters ``str.splitlines()`` breaks a line at.
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def one_line(text: str) -> str:
    r"""``text`` with each character that would break its line written as its escape: a command's
    error is one line whatever a file's name or a parser's message holds (PyPy's json names the
    form feed it met, and the message went out in two lines).

    >>> print(one_line("data.csv: not JSON (Unexpected '\x0c')\r\nline 2"))
    data.csv: not JSON (Unexpected '\x0c')\r\nline 2
    """
    return text.translate({ord(c): repr(c)[1:-1] for c in _LINE_BREAKS})


class PurePCAError(ValueError):
    """Bad input or an impossible request; the message names what and where.

    >>> raise PurePCAError("row 2, column 0: NaN is not allowed")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: row 2, column 0: NaN is not allowed
    """


class ConvergenceError(PurePCAError):
    """An iterative method stopped before meeting its tolerance.

    ``iterations`` is the number of sweeps or iterations performed and
    ``residual`` the measure of error reached when it stopped (an
    off-diagonal norm for Jacobi, a residual norm for power methods).

    >>> err = ConvergenceError("no convergence", iterations=3, residual=0.5)
    >>> (err.iterations, err.residual)
    (3, 0.5)
    """

    def __init__(self, message: str, *, iterations: int, residual: float) -> None:
        super().__init__(message)
        self.iterations = iterations
        self.residual = residual


class NotFittedError(PurePCAError, AttributeError):
    """A method that needs a fitted estimator was called before ``fit``.

    >>> issubclass(NotFittedError, AttributeError)
    True
    """


class PurePCATypeError(PurePCAError, TypeError):
    """An entry of the input is not a number at all (a dict, an object):
    a :class:`PurePCAError`, and a ``TypeError`` as Python and scikit-learn
    raise for it.

    >>> issubclass(PurePCATypeError, TypeError) and issubclass(PurePCATypeError, PurePCAError)
    True
    """


class DegenerateEigenvalueWarning(UserWarning):
    """Two eigenvalues that matter are equal to within rounding.

    Their eigenvectors are then not unique: any rotation within the plane (or
    space) they span is an equally valid answer, and two correct programs can
    return different vectors.  Compare the subspaces, not the vectors.

    >>> issubclass(DegenerateEigenvalueWarning, UserWarning)
    True
    """


class AccuracyWarning(UserWarning):
    """A solver chosen by the user may have lost digits that the data allow.

    The covariance and Gram paths square the data's condition: an eigenvalue
    λ_i comes out with an error of about ``sqrt(d)·eps·λ_max``, so its
    relative error is about ``sqrt(d)·eps·λ_max/λ_i``.  Where that exceeds
    ``ACCURACY_TARGET`` (1e-9), ``solver="auto"`` takes the SVD path; a
    solver named explicitly keeps its answer and says so.

    >>> issubclass(AccuracyWarning, UserWarning)
    True
    """


@contextlib.contextmanager
def float_range(what: str) -> Iterator[None]:
    """Turn an overflow inside a computation into a :class:`PurePCAError` naming ``what``.

    Float arithmetic overflows quietly to inf, but ``math.fsum`` raises
    (``OverflowError``, or ``ValueError`` on ``inf - inf``) and so do
    ``math.ldexp`` and ``float ** int``.  Where no scaling can keep the work
    inside the float range, this is the error the user sees.

    >>> import math
    >>> with float_range("the test sum"):
    ...     math.fsum([1e308, 1e308])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: the test sum: an intermediate result is beyond the float range (intermediate
    overflow...); rescale the input
    """
    try:
        yield
    except PurePCAError:
        raise
    except (OverflowError, ValueError) as err:
        text = str(err)
        if isinstance(err, ValueError) and not any(w in text for w in ("fsum", "range", "inf", "overflow")):
            raise  # not an overflow: a defect to be seen, not renamed
        raise PurePCAError(f"{what}: an intermediate result is beyond the float range ({text}); "
                           "rescale the input") from None


_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def user_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning issued by the caller point at the first frame outside
    purepca (the user's line, not the estimator's insides), however deep the call that warns.

    >>> user_stacklevel() >= 1
    True
    """
    getframe = getattr(sys, "_getframe", None)
    if getframe is None:  # an interpreter without frames: the caller's caller
        return 2
    frame, level = getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level
