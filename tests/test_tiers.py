"""The test tiers and the time budget of conftest.py hold themselves (issue 40).

A planted test that sleeps 1.5 s with no marker fails, naming itself and its time; the same test
marked ``slow`` or given a ``budget`` passes; the default tier leaves slow tests out and says so; and
a test module that reads the interpreter, or imports the kernel room, carries the ``interpreter``
marker, so every stage of ``.ci/test`` still runs it.
"""

from __future__ import annotations

import ast
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

PLANTED = '''
import time
import pytest

def test_planted_sleeps():
    time.sleep(1.5)

@pytest.mark.slow
def test_planted_slow_sleeps():
    time.sleep(1.5)

@pytest.mark.budget(3)  # the reason: a planted test of the allowance
def test_planted_budgeted_sleeps():
    time.sleep(1.5)

def test_planted_quick():
    assert True
'''


def _run_planted(tmp_path: pathlib.Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "tests").mkdir(exist_ok=True)
    shutil.copy(ROOT / "tests" / "helpers.py", tmp_path / "tests" / "helpers.py")
    (tmp_path / "tests" / "test_planted.py").write_text(PLANTED, encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PUREPCA_") and k != "PYTEST_XDIST_WORKER"}
    environ.update(env or {}, PUREPCA_WARM="0")  # the planted tests import no cross-check library
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q",
                           "-rf", *args, "tests"], cwd=tmp_path, capture_output=True, text=True, env=environ,
                          timeout=120)


@pytest.mark.slow
def test_tiers_a_planted_slow_test_fails_with_its_name_and_time(tmp_path: pathlib.Path) -> None:
    done = _run_planted(tmp_path, "--tier=all")
    out = done.stdout
    assert done.returncode == 1, out
    found = re.search(r"tests/test_planted\.py::test_planted_sleeps took (\d+\.\d\d) s, over its 1 s budget", out)
    assert found and 1.4 <= float(found.group(1)) < 5, out
    assert "1 failed, 3 passed" in out, out  # the slow one and the budgeted one pass
    quiet = _run_planted(tmp_path, "--tier=all", env={"PUREPCA_BUDGET_SCALE": "0"})
    assert quiet.returncode == 0, quiet.stdout


@pytest.mark.slow
def test_tiers_the_default_tier_leaves_slow_tests_out_and_says_so(tmp_path: pathlib.Path) -> None:
    done = _run_planted(tmp_path, "-k", "not test_planted_sleeps")
    assert done.returncode == 0, done.stdout
    assert "2 passed" in done.stdout and "--tier=fast: 1 tests of other tiers not run" in done.stdout, done.stdout
    only = _run_planted(tmp_path, "--tier=slow")
    assert only.returncode == 0 and "1 passed" in only.stdout, only.stdout


_WORDS = ("purepca.fast", "implementation", "IS_PYPY", "PUREPCA_REFERENCE")


def _reads_the_interpreter(node: ast.AST) -> bool:
    """Code (not comments, docstrings or decorators) that imports the kernel room or reads the interpreter."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Import) and any(a.name.startswith("purepca.fast") for a in sub.names):
            return True
        if isinstance(sub, ast.ImportFrom) and (sub.module or "").startswith("purepca.fast"):
            return True
        if isinstance(sub, ast.Attribute) and ast.unparse(sub) in ("sys.implementation", "platform.python_implementation",
                                                                   "purepca.fast"):
            return True
        if isinstance(sub, ast.Name) and sub.id == "IS_PYPY":
            return True
        if _reads_the_mode(sub):
            return True
    return False


def _reads_the_mode(node: ast.AST) -> bool:
    """``os.environ.get("PUREPCA_REFERENCE")``, ``os.getenv(...)``, ``os.environ[...]`` or ``... in os.environ``:
    the mode read, not set for a child (a child given the mode runs it whatever this process runs)."""
    def names_the_mode(n: ast.AST) -> bool:
        return isinstance(n, ast.Constant) and n.value == "PUREPCA_REFERENCE"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "getenv"):
        return any(names_the_mode(a) for a in node.args)
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return names_the_mode(node.slice) or names_the_mode(getattr(node.slice, "value", None) or node.slice)
    if isinstance(node, ast.Compare):
        return names_the_mode(node.left)
    return False


def _marks(decorators: list[ast.expr]) -> str:
    return " ".join(ast.unparse(d) for d in decorators)


def _unmarked_readers(tree: ast.Module) -> list[str]:
    module_marked = any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                          for t in n.targets) and "interpreter" in ast.unparse(n.value)
                        for n in tree.body)
    if module_marked:
        return []
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            body = ast.Module(body=node.body, type_ignores=[])
            if not _reads_the_interpreter(body):
                continue
            if node.name.startswith(("test_", "Test")):
                if "interpreter" not in _marks(node.decorator_list):
                    found.append(node.name)
            else:
                found.append(f"{node.name} (a helper: mark the module)")
        elif not isinstance(node, ast.Expr) and _reads_the_interpreter(node):
            found.append(f"line {node.lineno} (module level: mark the module)")
            break
    return found


def test_tiers_tests_that_read_the_interpreter_carry_the_marker() -> None:
    """The rule of docs/contributing.md: a test that imports the kernel room (``purepca.fast``) or reads
    the interpreter or the mode carries ``@pytest.mark.interpreter`` (or its module a ``pytestmark``)."""
    unmarked = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        if path.name != "test_tiers.py" and any(word in source for word in _WORDS):  # parse only the candidates
            unmarked += [f"{path.name}: {name}" for name in _unmarked_readers(ast.parse(source))]
    assert not unmarked, "read the interpreter or the mode without the interpreter marker:\n" + "\n".join(unmarked)
