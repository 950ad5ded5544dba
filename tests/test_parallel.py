"""n_jobs: the same bits as one process, and a clear fallback where processes cannot start."""

from __future__ import annotations

import multiprocessing
import random
import warnings

import pytest

from purepca import PCA, PurePCAError, parallel, solvers
from purepca.parallel import _share_rows, check_n_jobs, parallel_gram
from purepca.numeric import FLOAT, DecimalContext

#: worker processes (fork, forkserver: each interpreter its own): seconds a test, on every interpreter
pytestmark = [pytest.mark.slow, pytest.mark.interpreter]


def data(n: int, d: int, seed: int = 0) -> list[list[float]]:
    rng = random.Random(seed)
    return [[rng.gauss(0.0, 1.0 + j) + 1e6 for j in range(d)] for _ in range(n)]


@pytest.mark.parametrize(
    "shape,kwargs",
    [
        ((300, 12), {}),
        ((300, 12), {"scale": True}),
        ((20, 40), {}),
        ((300, 30), {"n_components": 3, "solver": "krylov"}),
        ((20, 300), {"n_components": 3, "solver": "krylov"}),
    ],
)
def test_n_jobs_gives_the_same_bits(shape: tuple[int, int], kwargs: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_WORK", 0)  # use processes even for small data
    X = data(*shape)
    one = PCA(**kwargs).fit(X)
    two = PCA(n_jobs=2, **kwargs).fit(X)
    assert one.solver_ == two.solver_
    assert one.components_ == two.components_
    assert one.explained_variance_ == two.explained_variance_
    assert one.transform(X) == two.transform(X)


@pytest.mark.parametrize("form", ["data", "gram", "covariance"])
def test_krylov_products_over_processes_give_the_same_bits(form: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_WORK", 0)
    monkeypatch.setattr(solvers, "MIN_PARALLEL_PRODUCT", 0)
    X = data(60, 40, seed=2)
    mean = [sum(c) / len(X) for c in zip(*X)]
    Z = [[x - m for x, m in zip(row, mean)] for row in X]
    one = solvers.solve_krylov(Z, 3, 59.0, FLOAT, form=form, gram=FLOAT.fast_gram)
    two = solvers.solve_krylov(Z, 3, 59.0, FLOAT, form=form, jobs=2, gram=parallel_gram(FLOAT, 2, fast=True))
    assert one == two


def test_parallel_gram_equals_the_serial_one_in_both_contexts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_WORK", 0)
    rng = random.Random(3)
    vectors = [[rng.gauss(0.0, 1.0) for _ in range(50)] for _ in range(9)]
    assert parallel_gram(FLOAT, 3)(vectors) == FLOAT.gram(vectors)  # type: ignore[misc]
    ctx = DecimalContext(30)
    with ctx.local():
        dec = [[ctx.convert(x) for x in v] for v in vectors]
    assert parallel_gram(ctx, 2)(dec) == ctx.gram(dec)  # type: ignore[misc]


def test_small_sums_stay_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("no process should start for a 3 x 3 Gram matrix")

    monkeypatch.setattr(multiprocessing, "get_context", refuse)
    assert parallel_gram(FLOAT, 2)([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]) == FLOAT.gram([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # type: ignore[misc]


def test_rows_are_shared_out_evenly() -> None:
    parts = _share_rows(100, 3)
    assert sorted(i for p in parts for i in p) == list(range(100))
    loads = [sum(100 - i for i in p) for p in parts]
    assert max(loads) - min(loads) <= 100


def test_without_processes_it_warns_and_computes_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_WORK", 0)
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no semaphores in this sandbox")

    monkeypatch.setattr(multiprocessing, "get_context", refuse)
    X = data(50, 6)
    with pytest.warns(RuntimeWarning, match=r"n_jobs=2: worker processes cannot be started here \(OSError: no semaphores in this sandbox\); computing in this process"):
        two = PCA(n_jobs=2).fit(X)
    assert two.components_ == PCA().fit(X).components_


@pytest.mark.parametrize("bad", [0, -2, 1.5, "2", True])
def test_n_jobs_is_checked(bad: object) -> None:
    with pytest.raises(PurePCAError, match=r"n_jobs must be None, a positive int or -1 \(one process per core\), got"):
        check_n_jobs(bad)
    with pytest.raises(PurePCAError, match="n_jobs must be"):
        PCA(n_jobs=bad).fit([[1.0, 2.0], [3.0, 5.0]])  # type: ignore[arg-type]


def test_n_jobs_minus_one_is_one_per_core() -> None:
    assert check_n_jobs(-1) == max(1, multiprocessing.cpu_count())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PCA(n_jobs=1).fit(data(10, 3))
