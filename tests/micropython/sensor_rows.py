# Readings of d sensors for the sensor profile's checks, the same numbers on CPython and on
# MicroPython (a 31-bit linear congruential generator; every float operation the same IEEE
# double one on both): three latent factors of spread 3, 1.5 and 0.7, a noise of 0.1 and a
# common offset (1e3 by default, as a sensor's raw counts sit far from zero).  Plain
# MicroPython: no typing.


class Rows:
    def __init__(self, d=8, seed=44, offset=1e3):
        self.d = d
        self.state = seed
        self.offset = offset
        self.row = [0.0] * d  # one row, refilled by next_row (a board's reading buffer)

    def _uniform(self):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state / 2147483648.0

    def _normal(self):
        return (self._uniform() + self._uniform() + self._uniform() + self._uniform() - 2.0) * 1.7320508075688772

    def next_row(self):
        f1 = 3.0 * self._normal()
        f2 = 1.5 * self._normal()
        f3 = 0.7 * self._normal()
        for j in range(self.d):
            a = 1.0 - j / 8.0
            b = (j % 3 - 1) * 0.5
            c = 0.25 if j % 2 else -0.25
            self.row[j] = self.offset + (a * f1 + b * f2 + c * f3) + 0.1 * self._normal()
        return self.row
