"""device_check.py is MicroPython's script (tests/test_micropython.py runs it there), not a test module."""

collect_ignore = ["device_check.py"]
