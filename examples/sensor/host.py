"""Fit the board's model on a host from logged readings, and write the model file the board reads.

    python host.py readings.csv model.json [--components K] [--scale]

The readings (a CSV file: one reading a line, numbers separated by commas, an optional header
line) are streamed into the same moments the board computes (:mod:`purepca.sensor`), so the
model is the one the board would learn from the same readings, to the bit; copy model.json to
the board (``mpremote cp model.json :``) and main.py scores with it.  ``purepca fit
readings.csv --components K --save model.json`` writes a model file the board reads as well
(the full package's two-pass fit: the same model to about 1e-15).
"""

from __future__ import annotations

import argparse
import csv
import sys
from typing import Optional, Sequence

from purepca.errors import PurePCAError
from purepca.sensor import Streaming, fit


def fit_csv(path: str, components: int, scale: bool = False) -> str:
    """The model file's text for the readings in the CSV file ``path``."""
    stream: Optional[Streaming] = None
    with open(path, newline="", encoding="utf-8") as fh:
        for number, line in enumerate(csv.reader(fh)):
            if not line:
                continue
            try:
                row = [float(v) for v in line]
            except ValueError:
                if number == 0:
                    continue  # a header
                raise PurePCAError(f"{path}: line {number + 1} is not a row of numbers: {line!r}") from None
            if stream is None:
                stream = Streaming(len(row))
            stream.update(row)
    if stream is None:
        raise PurePCAError(f"{path}: no readings")
    return fit(stream, components, scale).to_json()


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("readings")
    parser.add_argument("model")
    parser.add_argument("--components", type=int, default=2)
    parser.add_argument("--scale", action="store_true", help="the correlation (columns in different units)")
    args = parser.parse_args(argv)
    try:
        text = fit_csv(args.readings, args.components, args.scale)
    except (OSError, PurePCAError) as err:
        print(f"host.py: error: {err}", file=sys.stderr)
        return 1
    with open(args.model, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {args.model}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
