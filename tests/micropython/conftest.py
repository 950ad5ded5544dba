"""device_check.py and sensor_check.py are MicroPython's scripts (tests/test_micropython.py and
tests/test_sensor_device.py run them there), not test modules."""

collect_ignore = ["device_check.py", "sensor_check.py", "full_check.py"]
