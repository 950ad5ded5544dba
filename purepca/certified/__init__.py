"""The certified PCA corpus: exact decimal inputs and their certificates, in three tiers.

NIST's Statistical Reference Datasets certify regressions and univariate
statistics; this corpus does the same for PCA.  Each case is a CSV file of
exact decimal numbers (the certified problem is those numbers, not their
nearest floats) and a JSON certificate: eigenvalues under each divisor,
explained-variance ratios, singular values, components or cluster projectors
and scores up to sign, each to 25 significant digits and certified twice
(docs/certified.md; :mod:`purepca.certified.build` says how).

======================================  ===========================================
``case_names()``                        the cases, sorted
``load_case(name)``                     a case: its rows (text and floats), certificate
``python -m purepca.certified build``   regenerate every file, bit for bit
======================================  ===========================================

>>> case = load_case("longley")
>>> case.tier, case.n_samples, case.n_features
('higher', 16, 7)
>>> case.certificate["eigenvalues"]["n-1"][0][:12]
'9.9392326980'
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Optional

from ..errors import PurePCAError

__all__ = ["CertifiedCase", "DATA", "case_names", "load_case"]

#: The folder of the corpus's files (``NAME.csv`` and ``NAME.json``).
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


@dataclass(frozen=True)
class CertifiedCase:
    """A corpus case as read from its files: ``text`` rows as in the CSV, ``rows`` as floats."""

    name: str
    columns: tuple[str, ...]
    text: tuple[tuple[str, ...], ...]
    certificate: dict[str, Any]

    @property
    def rows(self) -> list[list[float]]:
        """The data as floats (each decimal rounded once)."""
        return [[float(v) for v in row] for row in self.text]

    @property
    def tier(self) -> str:
        """``lower``, ``average`` or ``higher`` (docs/certified.md gives the rule)."""
        return str(self.certificate["tier"])

    @property
    def n_samples(self) -> int:
        """The number of rows."""
        return int(self.certificate["n_samples"])

    @property
    def n_features(self) -> int:
        """The number of columns."""
        return int(self.certificate["n_features"])


def case_names(folder: Optional[str] = None) -> list[str]:
    """The names of the cases in the corpus, sorted.

    >>> "wampler1" in case_names()
    True
    """
    folder = folder or DATA
    return sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".json"))


def _read_csv(path: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    with open(path, encoding="ascii") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    return tuple(lines[0].split(",")), tuple(tuple(line.split(",")) for line in lines[1:])


def load_case(name: str, folder: Optional[str] = None) -> CertifiedCase:
    """The case called ``name``: its CSV and its certificate.

    >>> load_case("wampler1").columns
    ('x', 'x2', 'x3', 'x4', 'x5', 'y')
    >>> load_case("nope")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: no certified case named 'nope'; the cases: ...
    """
    folder = folder or DATA
    path = os.path.join(folder, str(name) + ".json")
    if not isinstance(name, str) or os.sep in name or "/" in name or not os.path.isfile(path):
        raise PurePCAError(f"no certified case named {name!r}; the cases: {', '.join(case_names(folder))}")
    with open(path, encoding="ascii") as f:
        cert = json.load(f)
    columns, text = _read_csv(os.path.join(folder, cert["data"]))
    return CertifiedCase(name, columns, text, cert)
