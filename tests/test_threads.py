"""Fits in several threads at once: each call's parallel work is its own (issue 20, line 1).

parallel.py kept the Gram work and the Krylov operator's data in one module-level slot, so threads
running ``n_jobs=2`` fits at once read each other's sums (7 of 12 fits wrong, variances up to 1 % off).
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from purepca import PCA, parallel


def data(n: int, d: int, seed: int) -> list[list[float]]:
    rng = random.Random(seed)
    return [[rng.gauss(0.0, 1.0 + j + seed) + 1e3 * seed for j in range(d)] for _ in range(n)]


# Eight fits, all different: data, solver (Gram of the covariance, Gram of wide data, Krylov) and
# precision (floats, 20 and 30 digits).
JOBS: list[tuple[dict[str, Any], tuple[int, int]]] = [
    ({}, (120, 10)),
    ({"scale": True}, (150, 8)),
    ({"n_components": 3, "solver": "krylov"}, (100, 20)),
    ({"precision": 20}, (40, 5)),
    ({}, (12, 30)),
    ({"precision": 30, "scale": True}, (30, 4)),
    ({"n_components": 2, "solver": "krylov"}, (15, 60)),
    ({"solver": "gram"}, (25, 9)),
]


# CPython 3.12+ says that fork() in a process with threads may deadlock the child; the workers here
# only compute sums from the data they inherited, under no lock a thread could hold.
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_threads_fitting_with_n_jobs_give_the_same_bits_as_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_WORK", 0)  # processes even for small data
    inputs = [data(n, d, seed) for seed, (_, (n, d)) in enumerate(JOBS)]
    alone = [PCA(**kwargs).fit(X) for (kwargs, _), X in zip(JOBS, inputs)]
    results: list[Any] = [None] * len(JOBS)
    start = threading.Barrier(len(JOBS))

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = PCA(n_jobs=2, **JOBS[i][0]).fit(inputs[i])
        except BaseException as err:  # reported below, with the job that raised it
            results[i] = err

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(JOBS))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    for i, (one, many) in enumerate(zip(alone, results)):
        assert isinstance(many, PCA), (JOBS[i], many)
        assert many.explained_variance_ == one.explained_variance_, JOBS[i]
        assert many.components_ == one.components_, JOBS[i]
        assert many.high_precision_ == one.high_precision_, JOBS[i]
        assert many.transform(inputs[i]) == one.transform(inputs[i]), JOBS[i]
