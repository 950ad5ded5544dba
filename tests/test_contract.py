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

Tiers: ``test_contract_sample`` and the self-tests are the fast tier; the whole sweep is
``@pytest.mark.slow`` (CI's 3.11 stage, within 3 minutes on 2 cores).  A longer run draws several
parameters hostile at once, seeded::

    PUREPCA_CONTRACT_EXAMPLES=20 PUREPCA_CONTRACT_SEED=1 python -m pytest tests/test_contract.py -m slow -s
"""

from __future__ import annotations

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
def test_contract_every_callable(run: cv.Run) -> None:
    """Every public callable reached with a valid call, then each parameter at each hostile value:
    nothing but a valid result or a PurePCAError, nothing past the time limit."""
    found = cv.targets()
    run.reach_all(found)
    rng = random.Random(SEED)
    start = time.monotonic()
    for target in found:
        run.fuzz(target)
        for _ in range(EXAMPLES):  # on demand: several parameters hostile at once
            run.fuzz_many(target, rng)
    report = _report(run, "callables", len(run.reached), len(found))
    print(report, f"\n  {time.monotonic() - start:.0f} s")
    assert not run.unreached, report
    assert not run.findings, report


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
            before = len(run.findings)
            for word in words:
                argv = base + [option] + ([] if word is None else [word])
                run.run_command(command.name, command.run, argv)
            reached += 1
            del before
    for name, module, opts, usage in cv.module_commands():
        for argv in cv.module_command_lines(run, name, opts, usage):
            run.run_command(name, cv.module_runner(name), argv)
        options += len(opts) + 1
        reached += len(opts) + 1
    report = _report(run, "command options", reached, options)
    print(report)
    assert not run.findings, report


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
    start = time.monotonic()
    for target in rng.sample(found, 6):
        if time.monotonic() - start > 0.5:
            break
        run.fuzz(target, values=3, rng=rng, budget=0.1)
    assert not run.findings, _report(run, "sampled callables", len(run.reached), 6)


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
        if A == []:
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
