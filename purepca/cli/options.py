"""The values of the options that argparse reads through a function: precision, components, pcs, top.
"""

from __future__ import annotations

import argparse
from typing import Union

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


#: Digits the command accepts for ``--precision``: from the least a decimal
#: context has (more than a float's 17) to a bound that keeps a run short.
PRECISION_RANGE = (17, 10_000)


def _precision(text: str) -> int:
    """argparse type of ``--precision``: an int in :data:`PRECISION_RANGE`."""
    low, high = PRECISION_RANGE
    try:
        digits = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an int: {text!r}") from None
    if not low <= digits <= high:
        raise argparse.ArgumentTypeError(f"must be between {low} and {high} digits, got {digits}")
    return digits


def _components(text: str) -> Union[int, float]:
    """argparse type of ``--components``: an int >= 1, or a fraction of the variance in (0, 1)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value.is_integer() and value >= 1 and "." not in text:
        return int(value)
    if 0.0 < value < 1.0:
        return value
    raise argparse.ArgumentTypeError(f"an int >= 1 or a fraction strictly between 0 and 1, got {text!r}")


def _pcs(text: str) -> tuple[int, int]:
    """argparse type of ``--pcs``: two different component numbers from 1, as ``1,3``."""
    parts = text.split(",")
    try:
        pair = tuple(int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"two component numbers such as 1,3, got {text!r}") from None
    if len(pair) != 2 or pair[0] == pair[1] or min(pair) < 1:
        raise argparse.ArgumentTypeError(f"two different component numbers from 1, such as 1,3, got {text!r}")
    return pair[0], pair[1]


def _top(text: str) -> int:
    """argparse type of ``plot --top``: how many variables to draw, an int >= 1, or 0 for all."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an int: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"how many variables to draw: an int >= 1, or 0 for all; got {value}")
    return value
