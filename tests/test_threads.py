"""Fits in several threads at once: each call's parallel work is its own (issue 20, line 1).

parallel.py kept the Gram work and the Krylov operator's data in one module-level slot, so threads
running ``n_jobs=2`` fits at once read each other's sums (7 of 12 fits wrong, variances up to 1 % off).
"""

from __future__ import annotations

import multiprocessing
import random
import subprocess
import sys
import threading
from typing import Any

import pytest

from purepca import PCA, parallel

#: threads beside worker processes (each interpreter its own): seconds a test, on every interpreter
pytestmark = [pytest.mark.slow, pytest.mark.interpreter]


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


def test_a_thread_started_by_thread_start_new_thread_is_seen_before_a_fork() -> None:
    # threading.active_count() does not see it (pytest-xdist's execnet starts its I/O thread so, and
    # under xdist purepca forked beside it: CPython 3.13 warned 12 times that the fork may deadlock).
    import _thread

    started, release, done = threading.Event(), threading.Event(), threading.Event()

    def wait() -> None:
        started.set()
        release.wait()
        done.set()

    before = parallel._python_threads()
    _thread.start_new_thread(wait, ())
    started.wait(10)
    try:
        assert parallel._python_threads() == before + 1
        token = parallel._register(["the work"])
        pool = parallel._pool(1, token, ["the work"])
        try:
            assert pool._ctx.get_start_method() != "fork"
            assert pool.apply(parallel._WORK.get, (token,)) == ["the work"]
        finally:
            pool.close()
            pool.join()
            parallel._release(token)
    finally:
        release.set()
        done.wait(10)


def test_pools_are_not_forked_while_other_threads_run() -> None:
    # fork copies only its own thread: a lock another thread held stays held in the worker, which
    # then hung (2 runs in 12 of the test above under PyPy).  With other threads alive the pool is
    # started by a fork server, the worker given its work by the pool's initializer.
    token = parallel._register(["the work"])
    seen: dict[str, Any] = {}
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        pool = parallel._pool(1, token, ["the work"])
        try:
            seen["method"] = pool._ctx.get_start_method()
            seen["work"] = pool.apply(parallel._WORK.get, (token,))
        finally:
            pool.close()
            pool.join()
    finally:
        release.set()
        other.join()
        parallel._release(token)
    assert seen["method"] != "fork" and seen["work"] == ["the work"]
    if "fork" in multiprocessing.get_all_start_methods():  # a process of one thread forks, as before
        # in a process of its own: a pytest-xdist worker runs execnet's thread beside its tests
        code = ("from purepca import parallel; t = parallel._register(['w']); p = parallel._pool(1, t, None); "
                "print(p._ctx.get_start_method(), p.apply(parallel._WORK.get, (t,))); p.close(); p.join()")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert out.stdout.split() == ["fork", "['w']"], out.stderr
