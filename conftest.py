"""The test tiers, declared once (docs/contributing.md says how to use them).

=====================  ==========================================================
marker                 meaning
=====================  ==========================================================
(none)                 the fast tier: every test under 1 s; the default ``pytest``
``slow``               over 1 s (browsers, installs, MicroPython, Pyodide, engines,
                       long statistics): run once, in the full command's first stage
``interpreter``        the answer depends on the interpreter or on reference mode
                       (the kernel room, the golden bits, number contexts, text and
                       files): run by every interpreter and mode, slow or not
``budget(seconds)``    a fast-tier test allowed more than 1 s, the reason beside it
=====================  ==========================================================

``--tier`` chooses what runs: ``fast`` (the default: unmarked and ``interpreter``
tests that are not ``slow``), ``interpreter`` (the fast tier and every
``interpreter`` test: what each later stage of ``.ci/test`` runs), ``slow`` (the
``slow`` tests only) or ``all``.  A test named on the command line by its node id
runs whatever its tier.

The time budget: a test that is not ``slow`` fails when its setup and call take
more than its allowance (1 s, or its ``budget``), naming the test and its time.
The time is the wall clock less the time the process waited for a free core
(``/proc/self/schedstat``), so a busy machine does not fail a test while a test
that sleeps or waits on a child still counts in full.  ``PUREPCA_BUDGET_SCALE``
multiplies every allowance (``.ci/test`` states its factor per interpreter;
``0`` turns the budget off, for a debugger).

Hypothesis runs under a profile chosen by ``PUREPCA_PROFILE``: ``dev`` (the
default: a quarter of each test's examples, at least 5) or ``ci`` (every example
the test asks for; ``.ci/test`` sets it in its first stage).  A hypothesis test's
allowance grows with its examples under ``ci``.

When ``PUREPCA_RUN_LOG`` names a file, each test's outcome and time are appended
to it (one JSON line per test): ``.ci/test`` reads them to check that every test
collected on CPython 3.11 ran at least once and to print the slowest tests.  When
``PUREPCA_COLLECTED`` names a file that does not exist yet, the ids collected (before
the tier chooses) are written to it by the first worker: the list that check starts from.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Dict, List, Optional, Tuple

import pytest

from tests.helpers import PROFILE, PROFILE_SHARE, examples

TIERS = ("fast", "interpreter", "slow", "all")
DEFAULT_BUDGET = 1.0  # seconds: SciPy's --fail-slow threshold


def pytest_addoption(parser: Any) -> None:
    parser.addoption("--tier", choices=TIERS, default=os.environ.get("PUREPCA_TIER", "fast"),
                     help="which tests run: fast (default), interpreter, slow or all (conftest.py)")


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "slow: over 1 s; runs once, in the full command's first stage")
    config.addinivalue_line("markers", "interpreter: depends on the interpreter or reference mode; "
                                       "every stage runs it")
    config.addinivalue_line("markers", "budget(seconds): a fast-tier test allowed more than 1 s")
    _load_hypothesis_profile()


# ------------------------------------------------------------------ hypothesis profiles

def _load_hypothesis_profile() -> None:
    if PROFILE not in PROFILE_SHARE:
        raise pytest.UsageError(f"PUREPCA_PROFILE must be one of {sorted(PROFILE_SHARE)}, not {PROFILE!r}")
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return
    common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                  derandomize=os.environ.get("CI") == "true")
    settings.register_profile("dev", max_examples=examples(100), **common)  # type: ignore[arg-type]
    settings.register_profile("ci", max_examples=100, **common)  # type: ignore[arg-type]
    settings.load_profile(PROFILE)


# ------------------------------------------------------------------ tiers

#: A doctest cannot carry a decorator: the tier or allowance of each one that needs it, with the reason.
DOCTEST_MARKS: Dict[str, Tuple[str, float, str]] = {  # (marker, seconds for a budget, why)
    "purepca/micro.py::purepca.micro": ("slow", 0, "builds a MicroPython bundle: about 2 s"),
    "purepca/micro.py::purepca.micro.build": ("slow", 0, "builds a MicroPython bundle: about 2 s"),
    "purepca/micro.py::purepca.micro.main": ("slow", 0, "builds a MicroPython bundle: about 2 s"),
    "docs/cli.md::cli.md": ("slow interpreter", 0, "the command's page runs the command in child processes: "
                                                   "about 2 s, on every interpreter (text and files)"),
    "docs/analysis.md::analysis.md": ("budget", 3, "the decathlon analysis, every reader on one page: 1.1-1.6 s measured"),
}


def _mark_doctests(items: List[Any]) -> None:
    for item in items:
        declared = DOCTEST_MARKS.get(item.nodeid)
        if declared is not None:
            kinds, seconds, _reason = declared
            for kind in kinds.split():
                item.add_marker(pytest.mark.budget(seconds) if kind == "budget" else getattr(pytest.mark, kind))


def _explicit_ids(config: Any) -> List[str]:
    return [arg.split("[")[0] for arg in config.args if "::" in arg]


def pytest_collection_modifyitems(config: Any, items: List[Any]) -> None:
    _mark_doctests(items)
    collected = os.environ.get("PUREPCA_COLLECTED")
    if collected and os.environ.get("PYTEST_XDIST_WORKER", "gw0") == "gw0":
        try:  # the first session only: a pytest that a test starts inherits the variable
            with open(collected, "x", encoding="utf-8") as f:
                f.writelines(item.nodeid + "\n" for item in items)
        except FileExistsError:
            pass
    tier = config.getoption("--tier")
    explicit = _explicit_ids(config)
    keep, drop = [], []
    for item in items:
        slow = item.get_closest_marker("slow") is not None
        interp = item.get_closest_marker("interpreter") is not None
        wanted = (tier == "all" or (tier == "fast" and not slow) or (tier == "slow" and slow)
                  or (tier == "interpreter" and (interp or not slow)))
        if wanted or any(item.nodeid.startswith(e) for e in explicit):
            keep.append(item)
        else:
            drop.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        config._purepca_left = (tier, len(drop))
    # Slow tests first (a stable sort: each module's tests stay in their order), so that the long ones
    # start early and the short ones fill in beside them, not at the end.  This needs pytest-xdist's
    # "worksteal" (pyproject's addopts): its default "load" hands each worker a first chunk of a
    # quarter of its share, so one worker got every slow test in its chunk and ran 513 s of tests
    # while the other, its short ones done at 214 s, waited (3.11, --tier=all); "worksteal" lets the
    # idle worker take half of the busy one's queue.
    keep.sort(key=lambda item: item.get_closest_marker("slow") is None)
    items[:] = keep


def pytest_terminal_summary(terminalreporter: Any, config: Any) -> None:
    tier, left = getattr(config, "_purepca_left", (config.getoption("--tier"), 0))
    if left:
        terminalreporter.write_line(f"--tier={tier}: {left} tests of other tiers not run "
                                    f"(--tier=all runs every test; docs/contributing.md)")


# ------------------------------------------------------------------ the time budget

#: The cross-check libraries, imported once per process before the first test: whichever test
#: imported scikit-learn first paid about 1 s for it, and its budget failed by turns.
_WARM = ("numpy", "scipy.linalg", "sklearn.decomposition", "statsmodels.multivariate.pca", "mpmath", "pandas")


def pytest_sessionstart(session: Any) -> None:
    """Import the cross-checks' libraries once, before the first test: whichever test imported
    scikit-learn first paid about 1 s of its budget.  ``PUREPCA_WARM=0`` leaves them out (the
    planted sessions of tests/test_tiers.py, which import none of them)."""
    if os.environ.get("PUREPCA_WARM") == "0":
        return
    import importlib
    for name in _WARM:
        try:
            importlib.import_module(name)
        except Exception:  # absent (PyPy) or broken: the tests that need it skip or fail on their own
            pass


def _waited() -> float:
    """Seconds this process has waited for a core (Linux), 0.0 where the kernel does not say."""
    try:
        with open("/proc/self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def _scale() -> float:
    try:
        return float(os.environ.get("PUREPCA_BUDGET_SCALE", "1"))
    except ValueError:
        raise pytest.UsageError("PUREPCA_BUDGET_SCALE must be a number") from None


def allowance(item: Any) -> Optional[float]:
    """The seconds ``item`` may take, or None when no budget applies (``slow``, or the budget off)."""
    scale = _scale()
    if scale <= 0 or item.get_closest_marker("slow") is not None:
        return None
    marker = item.get_closest_marker("budget")
    seconds = float(marker.args[0]) if marker is not None else DEFAULT_BUDGET
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        seconds *= PROFILE_SHARE.get(PROFILE, 1.0) / PROFILE_SHARE["dev"]
    return seconds * scale


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    try:
        import resource
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime
    except ImportError:  # not on every platform
        return time.process_time()


_STARTS: Dict[str, Tuple[float, float, float]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: Any) -> Any:
    _STARTS[item.nodeid] = (time.perf_counter(), _waited(), _cpu())
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    outcome = yield
    report = outcome.get_result()
    if call.when != "call" or item.nodeid not in _STARTS:
        return
    t0, w0, c0 = _STARTS.pop(item.nodeid)
    spent = max(0.0, (time.perf_counter() - t0) - (_waited() - w0))
    report.user_properties.append(("spent", spent))
    report.user_properties.append(("cpu", _cpu() - c0))
    report.user_properties.append(("start", time.time() - (time.perf_counter() - t0)))
    limit = allowance(item)
    if limit is not None and spent > limit and report.outcome == "passed":
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} took {spent:.2f} s, over its {limit:g} s budget: make it faster, "
                           f"mark it @pytest.mark.slow, or give it @pytest.mark.budget(seconds) with the "
                           f"reason beside it (conftest.py)")


# ------------------------------------------------------------------ the run log

def pytest_runtest_logreport(report: Any) -> None:
    path = os.environ.get("PUREPCA_RUN_LOG")
    if not path or "PYTEST_XDIST_WORKER" in os.environ:  # the controller writes what workers report
        return
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        measured = dict(report.user_properties)
        line = {"id": report.nodeid, "outcome": report.outcome,
                "seconds": round(float(measured.get("spent", report.duration)), 3),
                "cpu": round(float(measured.get("cpu", 0.0)), 3), "stage": os.environ.get("PUREPCA_STAGE", ""),
                "start": round(float(measured.get("start", 0.0)), 2),
                "worker": getattr(getattr(getattr(report, "node", None), "gateway", None), "id", "")}
        if report.outcome == "skipped" and isinstance(report.longrepr, tuple):
            line["why"] = str(report.longrepr[-1])
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
