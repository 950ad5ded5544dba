"""The rooms' static rules, read from purepca's source (``ast``): the same answer on every interpreter,
so they run once, not in every stage of .ci/test (conftest.py's tiers; test_fast.py tests the kernel room
itself on each interpreter).

* Only the kernel room (purepca/fast/) looks at the interpreter or at ``math.sumprod``.
* The kernel room imports nothing of purepca's from outside itself.
* No import circle among purepca's modules, lazy imports included.
"""

from __future__ import annotations

import ast
import pathlib
from typing import Optional

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "purepca"


def _modules() -> list[pathlib.Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "_micro" not in p.parts)


# ------------------------------------------------------------------ only the kernel room looks

def _interpreter_checks(tree: ast.AST) -> list[str]:
    """What in ``tree`` tests the interpreter or reaches for ``math.sumprod``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            base = node.value
            if isinstance(base, ast.Name) and base.id == "sys" and node.attr in ("implementation", "version_info",
                                                                                  "pypy_version_info"):
                found.append(f"line {node.lineno}: sys.{node.attr}")
            if isinstance(base, ast.Name) and base.id == "platform" and node.attr == "python_implementation":
                found.append(f"line {node.lineno}: platform.python_implementation")
            if isinstance(base, ast.Name) and base.id == "math" and node.attr == "sumprod":
                found.append(f"line {node.lineno}: math.sumprod")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            args = node.args
            if len(args) >= 2 and isinstance(args[1], ast.Constant) and args[1].value == "sumprod":
                found.append(f"line {node.lineno}: {node.func.id}(..., 'sumprod')")
        if isinstance(node, ast.ImportFrom) and node.module == "math" and any(a.name == "sumprod" for a in node.names):
            found.append(f"line {node.lineno}: from math import sumprod")
    return found


@pytest.mark.slow
def test_rooms_only_the_kernel_room_tests_the_interpreter() -> None:
    offenders = []
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("fast/"):
            continue
        checks = _interpreter_checks(ast.parse(path.read_text(encoding="utf-8")))
        if rel == "__init__.py":  # the version guard: Python >= 3.9
            checks = [c for c in checks if "version_info" not in c]
        if rel == "micro.py":  # the MicroPython build tool names what the bundle runs on, not a fast path
            checks = [c for c in checks if "implementation" not in c]
        offenders += [f"{rel} {c}" for c in checks]
    assert not offenders, "interpreter checks outside purepca/fast/: " + "; ".join(offenders)


def test_rooms_the_scan_finds_what_it_looks_for() -> None:
    # the test above must be able to fail
    source = "import sys, math, platform\nA = sys.implementation.name\nB = getattr(math, 'sumprod', None)\n" \
             "C = math.sumprod\nD = platform.python_implementation()\nE = sys.version_info >= (3, 12)\n"
    assert len(_interpreter_checks(ast.parse(source))) == 5


def test_rooms_the_kernel_room_imports_nothing_of_purepcas() -> None:
    for path in sorted((ROOT / "fast").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 1, f"{path.name} imports from outside the room: {ast.dump(node)}"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("purepca") for a in node.names), path.name


# ------------------------------------------------------------------ no import circle

def _imports(path: pathlib.Path) -> set[str]:
    """The purepca modules ``path`` imports, at module level or inside functions (lazily)."""
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    package = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "purepca"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] != "purepca":
                continue
            out.add(module)
            for alias in node.names:  # "from . import fast" imports the module purepca.fast
                out.add(f"{module}.{alias.name}")
    return out


def _import_graph() -> dict[str, set[str]]:
    names = {}
    for path in _modules():
        rel = path.relative_to(ROOT.parent).with_suffix("").parts
        names[".".join(rel[:-1] if rel[-1] == "__init__" else rel)] = path
    graph = {}
    for name, path in names.items():
        graph[name] = {m for m in _imports(path) if m in names and m != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> Optional[list[str]]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> Optional[list[str]]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            # a package's __init__ importing its own submodules is how packages are built, not a circle
            if nxt.startswith(node + "."):
                continue
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


@pytest.mark.slow
def test_rooms_no_import_circle_among_purepcas_modules_lazy_imports_included() -> None:
    graph = _import_graph()
    cycle = _cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_rooms_the_circle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "p": {"p.x"}, "p.x": set()}) is None
