"""Work split across processes, with the same bits as one process.

=============================  ================================================
``check_n_jobs(n_jobs)``       None/1 -> 1, -1 -> one per core, else an int >= 1
``parallel_gram(ctx, jobs)``   a Gram-matrix function that splits the inner
                               products over ``jobs`` processes (None for 1)
``ParallelProducts(Z, ...)``   ``V -> [Zᵀ(Z·v) for v in V]`` with the rows of Z
                               and of Zᵀ shared out (the Krylov operator)
=============================  ================================================

Why the bits do not change.  Each entry of a Gram matrix (a covariance before
its correction, a kernel-free Gram of rows) is one compensated dot product of
two whole vectors.  The processes share out the *entries*, never the terms
of a sum, and every entry is computed by the same function on the same
numbers as in one process: the result is identical, whatever the number of
processes and however the work is shared.

The vectors reach the workers by ``fork`` where the platform has it and the
process runs one thread (nothing is copied until written); elsewhere, and
while other threads run (a lock one of them holds would stay held in a forked
worker), they are pickled once per worker started by a fork server.  Where
no process can be started at all (Pyodide, a sandbox without ``fork`` or
semaphores), the work runs in this process with a ``RuntimeWarning`` saying
so.  The standard library's :mod:`multiprocessing` is the only machinery.

>>> from purepca.numeric import FLOAT
>>> parallel_gram(FLOAT, 1) is None
True
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import warnings
from typing import Any, Callable, Optional

from .errors import PurePCAError
from .params import is_int
from .numeric import Context, GramWork, Scalar

__all__ = ["MIN_PARALLEL_WORK", "ParallelProducts", "check_n_jobs", "parallel_gram"]

Gram = Callable[[list[list[Scalar]]], list[list[Scalar]]]

#: Products (entries x vector length) below which one process is faster than
#: starting more (measured: at 10,000 x 50, 12.75 million products, two
#: processes took 325 ms against 300 ms for one; a worker costs tens of
#: milliseconds to start and a product 5 to 15 ns).
MIN_PARALLEL_WORK = 20_000_000

# The work of each call under way, by a token of its own: a forked worker
# inherits the table as it was when its pool started (a spawned one gets its
# entry from the pool's initializer), and every task names its call's token,
# so threads that run parallel fits at once never read each other's data.
_WORK: dict[int, Any] = {}
_TOKENS = itertools.count(1)
_LOCK = threading.Lock()


def _register(value: Any) -> int:
    """Put a call's work in the table; return its token."""
    with _LOCK:
        token = next(_TOKENS)
        _WORK[token] = value
    return token


def _set_work(token: int, value: Any) -> None:
    """Pool initializer of spawned workers: the one entry they need."""
    _WORK[token] = value


def _release(token: int) -> None:
    with _LOCK:
        _WORK.pop(token, None)


def _python_threads() -> int:
    """The threads running Python in this process, this one included.

    ``threading.active_count()`` sees only the threads ``threading`` started; one started by
    ``_thread.start_new_thread`` (pytest-xdist's execnet starts its I/O thread so) has a frame in
    ``sys._current_frames()`` all the same, and a lock it holds would stay held in a forked child.

    >>> _python_threads() >= 1
    True
    """
    frames = getattr(sys, "_current_frames", None)  # CPython and PyPy have it
    return max(threading.active_count(), len(frames()) if frames is not None else 0)


def _pool(jobs: int, token: int, value: Any) -> Any:
    """A pool of ``jobs`` workers that can read ``value`` under ``token``: forked where the platform
    can and this process runs one thread (they inherit the table), else started by a fork server
    (or spawned) with an initializer.

    ``fork`` copies only the thread that calls it: a lock another thread holds at that moment (PyPy's
    import lock, a stream's) stays held in the child for ever, and the worker hangs.  Eight threads
    fitting with ``n_jobs=2`` at once hung 2 runs in 12 under PyPy that way (tests/test_threads.py;
    CPython 3.12+ warns of the same).  A fork server forks from a process of one thread."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and _python_threads() == 1:
        return multiprocessing.get_context("fork").Pool(jobs)
    method = "forkserver" if "forkserver" in methods else methods[0]
    return multiprocessing.get_context(method).Pool(jobs, initializer=_set_work, initargs=(token, value))


def _warn_no_processes(jobs: int, err: BaseException) -> None:
    """Say that n_jobs falls back to this process, and why."""
    warnings.warn(
        f"n_jobs={jobs}: worker processes cannot be started here ({type(err).__name__}: {err}); "
        "computing in this process instead (same result, one core)",
        RuntimeWarning,
        stacklevel=3,
    )


def check_n_jobs(n_jobs: Any) -> int:
    """The number of processes ``n_jobs`` asks for.

    >>> check_n_jobs(None), check_n_jobs(2), check_n_jobs(-1) >= 1
    (1, 2, True)
    """
    if n_jobs is None:
        return 1
    if is_int(n_jobs):
        n_jobs = int(n_jobs.__index__())  # numpy's int64 and the like
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or not (n_jobs >= 1 or n_jobs == -1):
        raise PurePCAError(f"n_jobs must be None, a positive int or -1 (one process per core), got {n_jobs!r}")
    if n_jobs == -1:
        return max(1, os.cpu_count() or 1)
    return int(n_jobs)


def _rows_of(work: GramWork, rows: list[int]) -> list[tuple[int, list[Scalar]]]:
    """The rows ``i`` of the upper triangle of the Gram work."""
    with work.ctx.local():
        return [(i, work.row(i)) for i in rows]


def _gram_rows(task: tuple[int, list[int]]) -> list[tuple[int, list[Scalar]]]:
    """Worker: the rows of the upper triangle of the Gram work under the task's token."""
    token, rows = task
    return _rows_of(_WORK[token], rows)


def _share_rows(k: int, jobs: int) -> list[list[int]]:
    """Rows of the upper triangle dealt to ``jobs`` parts of about equal work
    (row i has k - i entries): longest first, each to the lightest part."""
    parts: list[list[int]] = [[] for _ in range(jobs)]
    load = [0] * jobs
    for i in range(k):
        j = load.index(min(load))
        parts[j].append(i)
        load[j] += k - i
    return parts


def _in_processes(work: GramWork, jobs: int) -> list[list[Scalar]]:
    parts = _share_rows(work.k, jobs)
    token = _register(work)
    try:
        pool = _pool(jobs - 1, token, work)
        try:
            pending = pool.map_async(_gram_rows, [(token, part) for part in parts[1:]])
            rows = _rows_of(work, parts[0])
            for chunk in pending.get():
                rows.extend(chunk)
        finally:
            pool.close()
            pool.join()
    finally:
        _release(token)
    return work.assemble(rows)


def parallel_gram(ctx: Context, jobs: int, fast: bool = False) -> Optional[Gram]:
    """A function ``vectors -> Gram matrix`` that uses ``jobs`` processes (this
    one and ``jobs - 1`` workers), or None when ``jobs`` is 1.  With ``fast``
    the entries are those of :meth:`~purepca.numeric.Context.fast_gram`,
    otherwise those of :meth:`~purepca.numeric.Context.gram`: the same bits
    either way as in one process.

    >>> from purepca.numeric import FLOAT
    >>> import warnings
    >>> parallel_gram(FLOAT, 2)([[1.0, 2.0], [3.0, 4.0]])  # small: computed here
    [[5.0, 11.0], [11.0, 25.0]]
    """
    if jobs <= 1:
        return None

    def gram(vectors: list[list[Scalar]]) -> list[list[Scalar]]:
        work = GramWork(vectors, ctx, fast)
        k = len(vectors)
        if k < 2 or k * (k + 1) // 2 * len(vectors[0]) < MIN_PARALLEL_WORK:
            return work.compute()  # too little to pay for starting processes
        try:
            return _in_processes(work, min(jobs, len(vectors)))
        except (OSError, ImportError, NotImplementedError, RuntimeError) as err:
            _warn_no_processes(jobs, err)
            return work.compute()

    return gram


def _products_of(data: tuple[list[list[Scalar]], list[list[Scalar]], Context], which: int, a: int, b: int,
                 vectors: list[list[Scalar]]) -> list[list[Scalar]]:
    """Rows ``a:b`` of Z (``which = 0``) or of Zᵀ (1) of ``data = (Z, Zᵀ, ctx)`` times each vector."""
    Z, ZT, ctx = data
    M = (Z if which == 0 else ZT)[a:b]
    with ctx.local():
        return [ctx.dots(M, v) for v in vectors]


def _products(task: tuple[int, int, int, int, list[list[Scalar]]]) -> list[list[Scalar]]:
    """Worker: the products of :func:`_products_of` for the Krylov operator under the task's token."""
    token, which, a, b, vectors = task
    return _products_of(_WORK[token], which, a, b, vectors)


class ParallelProducts:
    """The Krylov operator ``V -> [Zᵀ(Z·v) for v in V]`` over ``jobs`` processes.

    Each product is one dot product per row of Z, then one per row of Zᵀ
    (a column of Z); the processes share out the rows, never the terms of a
    sum, so the result has the same bits as one process.  A ``with`` block
    keeps the workers for the whole Lanczos run; where they cannot start, the
    products run here with a ``RuntimeWarning``.

    >>> from purepca.numeric import FLOAT
    >>> Z = [[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]
    >>> with ParallelProducts(Z, [list(c) for c in zip(*Z)], FLOAT, 1) as apply:
    ...     apply([[1.0, 0.0]])
    [[2.0, 1.0]]
    """

    def __init__(self, Z: list[list[Scalar]], ZT: list[list[Scalar]], ctx: Context, jobs: int) -> None:
        self.Z, self.ZT, self.ctx, self.jobs = Z, ZT, ctx, jobs
        self.pool: Any = None
        self.token = 0

    def __enter__(self) -> "ParallelProducts":
        if self.jobs > 1:
            data = (self.Z, self.ZT, self.ctx)
            self.token = _register(data)
            try:
                self.pool = _pool(self.jobs - 1, self.token, data)
            except (OSError, ImportError, NotImplementedError, RuntimeError) as err:
                _warn_no_processes(self.jobs, err)
                self.pool = None
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool.join()
            self.pool = None
        _release(self.token)

    def _times(self, which: int, vectors: list[list[Scalar]]) -> list[list[Scalar]]:
        """Rows of Z (0) or Zᵀ (1) times each vector: ``[[row·v for row] for v]``."""
        M = self.Z if which == 0 else self.ZT
        if self.pool is None:
            return [self.ctx.dots(M, v) for v in vectors]
        parts = self.jobs
        size = -(-len(M) // parts)
        bounds = [(a, min(a + size, len(M))) for a in range(0, len(M), size)]
        pending = self.pool.map_async(_products, [(self.token, which, a, b, vectors) for a, b in bounds[1:]])
        first = _products_of((self.Z, self.ZT, self.ctx), which, bounds[0][0], bounds[0][1], vectors)
        rest = pending.get()
        return [sum((chunk[i] for chunk in rest), first[i]) for i in range(len(vectors))]

    def __call__(self, V: list[list[Scalar]]) -> list[list[Scalar]]:
        return self._times(1, self._times(0, V))

