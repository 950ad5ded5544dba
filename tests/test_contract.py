"""The contract fuzzer (issue 41): every public callable and every command option, hostile values.

The callables are read from the package (every name in every module's ``__all__``, the public
methods of public classes and objects) and the options from the parsers (``purepca``'s argparse
tree; the option literals and usage of the hand-parsed ``python -m purepca.micro``,
``purepca.certified`` and ``purepca.golden``): see ``tests/contract_values.py``.  Each parameter,
in turn, gets each hostile value (None, NaN, +-inf, 1e+-308, 5e-324, 10**400, True, 0, -1, str,
bytes, Decimal NaN and sNaN, Fraction, set, empty and ragged nests, a wrong shape, values at the
top of the float range, and for paths a FIFO, a directory and a missing file) with the others at a
valid value.  The contract: a valid result (no NaN in it) or a PurePCAError; a command exits 0, 1
with one error line, or 2; nothing past the time limit.

The findings still to fix are listed in ``tests/contract_known.txt``, one group (kind, callable,
parameter) a line: a finding outside it fails, and so does a line that no longer occurs (the list
only shrinks; ``PUREPCA_CONTRACT_WRITE_KNOWN=1`` rewrites it - read the diff).

Tiers: ``test_contract_sample`` and the self-tests are the fast tier; the whole sweep is
``@pytest.mark.slow`` (CI's 3.11 stage, within 3 minutes on 2 cores).  A longer run draws several
parameters hostile at once, seeded::

    PUREPCA_CONTRACT_EXAMPLES=20 PUREPCA_CONTRACT_SEED=1 python -m pytest tests/test_contract.py -m slow -s
"""

from __future__ import annotations

import math
import os
import random
import sys
import tempfile
import time
from typing import Any, Iterator

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import contract_values as cv  # noqa: E402

from purepca.errors import PurePCAError  # noqa: E402

cv.targets()  # the package imported once, at collection: the tests below then take well under a second

EXAMPLES = int(os.environ.get("PUREPCA_CONTRACT_EXAMPLES", "0"))
SEED = int(os.environ.get("PUREPCA_CONTRACT_SEED", "0"))


@pytest.fixture()
def run() -> Iterator[cv.Run]:
    with tempfile.TemporaryDirectory() as root:
        yield cv.Run(root)


def _report(run: cv.Run, what: str, reached: int, total: int) -> str:
    lines = [f"contract fuzzer: {what} reached {reached}/{total} ({100.0 * reached / max(total, 1):.1f} %), "
             f"{run.calls} calls, {len(run.findings)} findings"]
    lines += [f"  UNREACHED {name}: {why}" for name, why in sorted(run.unreached.items())]
    lines += ["  " + f.line() for f in run.findings]
    return "\n".join(lines)


# ------------------------------------------------------------------ the whole sweep (slow tier)


@pytest.mark.slow
@pytest.mark.parametrize("shard", [0, 1])
def test_contract_every_callable(run: cv.Run, shard: int) -> None:
    """Every public callable reached with a valid call, then each parameter at each hostile value:
    nothing but a valid result or a PurePCAError, nothing past the time limit.  In two halves
    (every other callable), one per core."""
    every = cv.targets()
    slow = [t for t in every if t.name in cv.SLOW_DOORS or t.name.startswith(("purepca.player.", "purepca.svg."))]
    rest = [t for t in every if t not in slow]
    found = slow[shard::2] + rest[shard::2]  # the slow doors dealt out first
    run.reach_all(found)
    rng = random.Random(SEED)
    start = time.monotonic()
    for target in found:
        run.fuzz(target)
        for _ in range(EXAMPLES):  # on demand: several parameters hostile at once
            run.fuzz_many(target, rng)
    report = _report(run, "callables", len(run.reached), len(found))
    new, gone = cv.judge_known(run.findings, commands=False, names={t.name for t in found} - run.cut_short)
    print(report, f"\n  {time.monotonic() - start:.0f} s; {len(new)} new, {len(gone)} known groups gone")
    assert not run.unreached, report
    assert not new, "new findings (not in tests/contract_known.txt):\n" + "\n".join(f.line() for f in new)
    assert not gone, "fixed: take these lines out of tests/contract_known.txt:\n" + "\n".join(gone)


@pytest.mark.slow
def test_contract_every_command_option(run: cv.Run) -> None:
    """Every option of every subcommand (read from the parser) with hostile words and its own choices,
    on a valid command line; then the hand-parsed commands with every option and usage word."""
    options = 0
    reached = 0
    for command in cv.cli_commands(run.paths):
        base = [w.replace("$MODEL", run.model_file()).replace("$MATRIX", run.matrix_file())
                .replace("$ANSWER", run.answer_file()) for w in command.base]
        for option, takes_value in command.options:
            options += 1
            words = (cv.hostile_words(run.paths) + command.valid_values.get(option, [])) if takes_value else [None]
            for word in words:
                argv = base + [option] + ([] if word is None else [word])
                run.run_command(command.name, command.run, argv)
            reached += 1
    for name, module, opts, usage in cv.module_commands():
        for argv in cv.module_command_lines(run, name, opts, usage):
            run.run_command(name, cv.module_runner(name), argv)
        options += len(opts) + 1
        reached += len(opts) + 1
    report = _report(run, "command options", reached, options)
    new, gone = cv.judge_known(run.findings, commands=True)
    print(report, f"\n  {len(new)} new, {len(gone)} known groups gone")
    assert reached == options
    assert not new, "new findings (not in tests/contract_known.txt):\n" + "\n".join(f.line() for f in new)
    assert not gone, "fixed: take these lines out of tests/contract_known.txt:\n" + "\n".join(gone)


# ------------------------------------------------------------------ the fast tier


def test_contract_enumerates_every_module() -> None:
    """The enumeration reads the package: every module with an ``__all__`` gives its names, classes give
    their methods, the public contexts theirs (a new name is a new target without a list to edit)."""
    names = {t.name for t in cv.targets()}
    for expected in ("purepca.pca.PCA.fit", "purepca.testing.assess.lre", "purepca.conventions.sign_flips",
                     "purepca.numeric.DecimalContext.convert", "purepca.player.teach", "purepca.certified.load_case",
                     "purepca.solvers.register_solver", "purepca.moments.Moments.from_bytes"):
        assert expected in names, expected
    assert len(names) > 400


def test_contract_sample(run: cv.Run) -> None:
    """A seeded sample of doors, each parameter at a few hostile values (the fast tier's share)."""
    found = [t for t in cv.targets() if not t.inside]
    rng = random.Random(SEED)
    for target in rng.sample(found, 4):  # a door whose valid call takes over 0.1 s is only reached here
        run.fuzz(target, values=3, rng=rng, budget=0.1)
    new = [f for f in run.findings if f.group() not in cv.known()]
    assert not new, _report(run, "sampled callables", len(run.reached), 4)


def _planted(name: str, fn: Any) -> cv.Target:
    """The enumerated target ``name`` with its function replaced by ``fn`` (the planted defect)."""
    target = next(t for t in cv.targets() if t.name == name)
    target.get = lambda r: fn
    return target


def test_contract_finds_a_planted_raw_exception(run: cv.Run) -> None:
    """The self-test: a public function that raises TypeError for None is found, by name and value."""
    from purepca.linalg import matrix

    def planted(A: Any) -> Any:
        if A is None:
            raise TypeError("planted")
        return matrix.transpose(A)

    target = _planted("purepca.linalg.matrix.transpose", planted)
    run.fuzz(target)
    assert target.name in run.reached
    assert [f.kind for f in run.findings if "A=None" in f.value] == ["RAW"], run.findings
    assert "TypeError: planted" in run.findings[0].detail


def test_contract_finds_a_planted_hang(run: cv.Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """A call past the time limit is a HANG, and the run goes on."""
    from purepca.linalg import matrix

    def planted(A: Any) -> Any:
        if A is None:
            time.sleep(5)
        return matrix.transpose(A)

    monkeypatch.setattr(cv, "TIME_LIMIT", 0.2)
    target = _planted("purepca.linalg.matrix.transpose", planted)
    run.fuzz(target)
    assert [f.kind for f in run.findings] == ["HANG"], run.findings


def test_contract_finds_a_planted_nan_and_a_bad_exit(run: cv.Run) -> None:
    """A NaN returned for a hostile value, and a command that exits 1 with two lines, are findings."""
    from purepca.linalg import matrix

    target = _planted("purepca.linalg.matrix.transpose", lambda A: [[float("nan")]] if A is None else matrix.transpose(A))
    run.fuzz(target)
    assert any(f.kind == "NAN" and "A=None" in f.value for f in run.findings), run.findings

    def two_lines(argv: list[str]) -> int:
        print("one\ntwo", file=sys.stderr)
        return 1

    run.run_command("planted", two_lines, ["x"])
    assert run.findings[-1].kind == "MESSAGE"


def test_contract_refusal_is_the_contract(run: cv.Run) -> None:
    """A PurePCAError is not a finding; the real transpose refuses every hostile value or answers."""
    target = next(t for t in cv.targets() if t.name == "purepca.linalg.matrix.transpose")
    run.fuzz(target)
    assert target.name in run.reached and not run.findings, run.findings
    with pytest.raises(PurePCAError):
        __import__("purepca").transpose(None)


# ------------------------------------------------------------------ what the fuzzer found, fixed at the door


@pytest.mark.parametrize("call", [
    lambda: __import__("purepca").linalg.dot([1.0], None), lambda: __import__("purepca").linalg.dot(None, [1.0]),
    lambda: __import__("purepca").linalg.matvec([[1.0, 2.0]], "xy"), lambda: __import__("purepca").linalg.matmul([[1.0]], [[1.0], [2.0, 3.0]]),
    lambda: __import__("purepca").linalg.max_abs(None), lambda: __import__("purepca").linalg.max_abs([[1.0, float("nan")]]),
    lambda: __import__("purepca").linalg.norm_fro([[1.0], [2.0, 3.0]]), lambda: __import__("purepca").linalg.norm_1([[None]]),
])
def test_linalg_helpers_validate_their_input(call: Any) -> None:
    """A None, a string, a ragged or a NaN matrix is a PurePCAError naming it (was TypeError, IndexError or NaN)."""
    with pytest.raises(PurePCAError, match=r"^(A|B|x|y)\b"):
        call()


@pytest.mark.parametrize("name", ["as_matrix", "as_symmetric", "as_vector", "dot", "matvec", "matmul", "identity",
                                  "norm_1", "norm_fro", "eigh"])
def test_linalg_doors_check_the_context(name: str) -> None:
    from purepca import linalg

    args = {"dot": ([1.0], [1.0]), "matvec": ([[1.0]], [1.0]), "matmul": ([[1.0]], [[1.0]]), "identity": (2,),
            "as_vector": ([1.0],)}.get(name, ([[1.0]],))
    with pytest.raises(PurePCAError, match="context must be a number context"):
        getattr(linalg, name)(*args, context=None)


def test_identity_checks_n_before_the_work() -> None:
    from purepca.linalg import identity

    with pytest.raises(PurePCAError, match="n must be"):
        identity(10 ** 400)
    with pytest.raises(PurePCAError, match="n must be"):
        identity(True)
    assert identity(0) == [] and identity(1) == [[1.0]]


@pytest.mark.parametrize("solver", ["jacobi_eigh", "tridiagonal_eigh", "power_iteration", "subspace_iteration"])
def test_solvers_refuse_a_trace_that_is_not_a_function(solver: str) -> None:
    import purepca

    with pytest.raises(PurePCAError, match="trace must be None or a function"):
        getattr(purepca, solver)([[2.0, 1.0], [1.0, 2.0]], trace=3)


def test_kernel_pca_refuses_a_progress_that_is_not_a_function() -> None:
    import purepca

    with pytest.raises(PurePCAError, match="progress must be None or a function"):
        purepca.KernelPCA(1).fit([[1.0, 2.0], [2.0, 1.0], [0.0, 0.5]], progress="x")


def test_golden_write_cases_refuses_a_folder_that_is_not_a_directory(tmp_path: Any) -> None:
    from purepca.golden import write_cases

    for folder in (str(tmp_path / "missing"), "-", 3):
        with pytest.raises(PurePCAError, match="golden: the folder must be an existing directory"):
            write_cases(folder)  # type: ignore[arg-type]


def test_golden_command_refuses_a_folder_in_one_line(run: cv.Run) -> None:
    """``python -m purepca.golden FOLDER`` on a path that is no directory: exit 1, one line (was a traceback)."""
    run.run_command("purepca.golden", cv.module_runner("purepca.golden.__main__"), [run.paths.missing])
    assert not run.findings, run.findings
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exit_:
        cv.module_runner("purepca.golden.__main__")([run.paths.fifo])
    assert exit_.value.code == 1 and err.getvalue().count("\n") == 1
    assert "golden: the folder must be an existing directory" in err.getvalue()


def test_limits_are_checked_before_the_work() -> None:
    """broken_stick's count, svg.ticks' target and offset_rows' n are checked before the loop they size
    (10**400 hung each of them)."""
    from purepca.distributed import offset_rows
    from purepca.selection import broken_stick
    from purepca.svg import ticks

    with pytest.raises(PurePCAError, match="count must be an int between 1 and 1000000"):
        broken_stick([0.5], 10 ** 400)
    with pytest.raises(PurePCAError, match="count must be an int between 2 and"):
        broken_stick([0.5, 0.5], 1)  # fewer pieces than components
    with pytest.raises(PurePCAError, match="ratios: None is not a sequence of numbers"):
        broken_stick(None, 3)  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="target must be an int between 1 and 1000"):
        ticks(0.0, 1.0, 10 ** 400)
    with pytest.raises(PurePCAError, match="hi must be a finite real number"):
        ticks(0.0, math.inf)
    with pytest.raises(PurePCAError, match="offset_rows: n must be a positive int up to 10,000,000, got int of 401"):
        offset_rows(10 ** 400)
    assert broken_stick([0.62, 0.25, 0.09, 0.04], 4) == 1 and ticks(-0.3, 2.7)[1] == 0.5
