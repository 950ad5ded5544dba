"""The reading path: what a learner reads to follow one ``PCA().fit`` of 300 x 8 float rows.

In reference mode (PUREPCA_REFERENCE=1: no kernel bound) the fit's calls are traced with
``sys.settrace``; every purepca function entered counts once, whole (docstring included), and
code nested in it (a comprehension, a lambda, an inner function) counts as part of it.  The path
must stay short enough to read: few lines in at most 9 files, few changes of file (each a turn of
the reader to another file), no function over 60 lines.
docs/architecture.md prints the path; this test checks the page against it, so it cannot go
stale (``python tests/test_reading_path.py --write`` rewrites the page's block).
"""

from __future__ import annotations

import ast
import json
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "architecture.md"
BEGIN, END = "<!-- reading-path: begin (tests/test_reading_path.py writes this block) -->", "<!-- reading-path: end -->"

#: Run in a fresh interpreter, so that the switch is read at import.
_TRACE = r'''
import ast, json, os, random, sys
sys.path.insert(0, sys.argv[1])
import purepca
from purepca import PCA
root = os.path.dirname(purepca.__file__)
rng = random.Random(1)
X = [[rng.gauss(0, 1) * (j + 1) + 3 for j in range(8)] for _ in range(300)]
PCA().fit(X)  # once, so that lazy imports and first-call caches are not on the path
calls = []
seen = set()
def tracer(frame, event, arg):
    if event == "call":
        co = frame.f_code
        if co.co_filename.startswith(root) and (co.co_filename, co.co_firstlineno) not in seen:
            seen.add((co.co_filename, co.co_firstlineno))
            calls.append((os.path.relpath(co.co_filename, root), co.co_firstlineno, co.co_name))
    return None
sys.settrace(tracer)
PCA().fit(X)
sys.settrace(None)
print(json.dumps(calls))
'''


def _functions(path: pathlib.Path) -> list[tuple[int, int, str]]:
    """``(first line, last line, qualified name)`` of every function and class body in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                out.append((first, child.end_lineno or child.lineno, prefix + child.name))
                walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    return out


def reading_path(python: str = sys.executable, reference: bool = True) -> list[tuple[str, int, int, str]]:
    """The functions the reference-mode fit (the default mode's with ``reference=False``) enters,
    outermost enclosing function of each call, in the order first entered: ``(file, first line,
    lines, name)``."""
    env = dict(os.environ, PUREPCA_REFERENCE="1" if reference else "0")
    env.pop("PYTHONPATH", None)
    out = subprocess.run([python, "-c", _TRACE, str(REPO)], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    calls = json.loads(out.stdout.strip().splitlines()[-1])
    path: list[tuple[str, int, int, str]] = []
    taken: set[tuple[str, int]] = set()
    root = REPO / "purepca"
    cache: dict[str, list[tuple[int, int, str]]] = {}
    for rel, line, name in calls:
        spans = cache.setdefault(rel, _functions(root / rel))
        enclosing = [s for s in spans if s[0] <= line <= s[1]]
        if enclosing:  # the outermost function holding the code entered
            first, last, qual = min(enclosing, key=lambda s: s[0])
        else:  # a lambda at module level: its own line
            first, last, qual = line, line, name
        if (rel, first) not in taken:
            taken.add((rel, first))
            path.append((rel, first, last - first + 1, qual))
    return path


def changes_of_file(path: list[tuple[str, int, int, str]]) -> int:
    """How many times the reader turns to another file, following the path in order.

    >>> changes_of_file([("a.py", 1, 2, "f"), ("a.py", 5, 2, "g"), ("b.py", 1, 3, "h"), ("a.py", 9, 1, "k")])
    2
    """
    return sum(1 for before, after in zip(path, path[1:]) if before[0] != after[0])


def docstring_lines(rel: str, first: int) -> int:
    """How many lines the docstring of the function at ``purepca/rel:first`` takes (0 without one)."""
    tree = ast.parse((REPO / "purepca" / rel).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                min([node.lineno] + [d.lineno for d in node.decorator_list]) == first:
            doc = node.body[0]
            if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str):
                return (doc.end_lineno or doc.lineno) - doc.lineno + 1
            return 0
    return 0


def _table(path: list[tuple[str, int, int, str]]) -> str:
    total = sum(p[2] for p in path)
    docs = [docstring_lines(rel, first) for rel, first, _, _ in path]
    files = sorted({p[0] for p in path})
    rows = [f"| {i} | `{name}` | `purepca/{rel}:{first}` | {lines} | {doc} |"
            for i, ((rel, first, lines, name), doc) in enumerate(zip(path, docs), 1)]
    return "\n".join([BEGIN, "", f"{len(path)} functions, {total} lines ({sum(docs)} of them docstrings), in "
                      f"{len(files)} files ({', '.join(files)}), changing file {changes_of_file(path)} times:", "",
                      "| # | function | where | lines | docstring |",
                      "|---|---|---|---|---|", *rows, "", END])


@pytest.mark.slow
def test_reading_path_of_a_reference_fit_is_short_and_the_page_prints_it() -> None:
    path = reading_path()
    total = sum(p[2] for p in path)
    files = {p[0] for p in path}
    jumps = changes_of_file(path)
    long = [f"{rel}:{name} ({lines} lines)" for rel, _, lines, name in path if lines > 60]
    listing = "\n".join(f"{rel}:{first} {name} {lines}" for rel, first, lines, name in path)
    # Issue 33 asks for at most 700 lines; 768b701's path was 1,335 (13 files), 5008693's 1,099 (9 files),
    # then 950 (9 files), 284 of them docstrings; 925 after issue 41 (its checks at the public doors, with the fit
    # calling the workers behind them), changing file 39 times.  Issue 45 asks for 560 lines and 15 changes of file;
    # its first steps (auto decided by the shape, the mean without Dekker's product, the covariance formed by the
    # fit and handed to the solver, centring and forming in covariance.py) reached 832 lines and 20 changes;
    # then 669 lines (106 of them docstrings) and 19 changes (the solve in one function of fitting.py, the
    # Gram row by row from ctx.dots, the derivations in the module docstrings); then 639 and 17 (the tie
    # report beside the sign rule, the count converted once where the room begins, weighted-only code
    # out of fit_rows and _solve, the fit door's second example left to docs/analysis.md, the float
    # context's dots bound once, the correlation its own function); then 560 and 15 (Jacobi's floor as
    # sqrt(A·A) of the scaled matrix, no turn to numeric.py mid-sweep; the refusals' messages and the rare
    # branches, overflowing sums, near-overflow units, ties among small eigenvalues, in functions of their
    # own that a fit of ordinary data does not enter).
    assert total <= 560 and jumps <= 15 and len(files) <= 9 and not long, \
        f"{total} lines, {jumps} changes of file, in {len(files)} files; long: {long}\n{listing}"
    text = PAGE.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    assert text[start:end] == _table(path), "docs/architecture.md's reading path is stale: python tests/test_reading_path.py --write"


def test_reading_path_counts_enclosing_functions_whole() -> None:
    spans = _functions(REPO / "purepca" / "fast" / "rows.py")
    names = [s[2] for s in spans]
    assert "float_rows" in names and all(last >= first for first, last, _ in spans)


def test_reading_path_counts_changes_of_file() -> None:
    path = [("a.py", 1, 2, "f"), ("a.py", 5, 2, "g"), ("b.py", 1, 3, "h"), ("a.py", 9, 1, "k")]
    assert changes_of_file(path) == 2 and changes_of_file(path[:3]) == 1 and changes_of_file(path[:2]) == 0
    assert changes_of_file([]) == 0


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    text = PAGE.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    PAGE.write_text(text[:start] + _table(reading_path()) + text[end:], encoding="utf-8")
    print(_table(reading_path()))
