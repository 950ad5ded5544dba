"""``importlib.util`` for MicroPython (``from importlib.util import find_spec``).

>>> find_spec("json") is not None
True
"""

from .importlib import util

find_spec = util.find_spec
