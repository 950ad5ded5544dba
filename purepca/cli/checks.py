"""The checks of a command line that argparse cannot make alone, one function per concern.
"""

from __future__ import annotations

import argparse
import math
import os
from typing import Any, Callable, NoReturn
from ..errors import PurePCAError
from ..params import _show
from ..files import written_in_place

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


#: The options that name a file a command writes, and those that name a file it reads.
_OUTPUT_OPTIONS = ("output", "save", "scores")


_INPUT_OPTIONS = (("file", "FILE"), ("model", "--model"), ("matrix", "--matrix"), ("result", "--result"),
                  ("answer", "ANSWER"))


def _written_files(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(option, path) of every file the command will write, ``plot --png``'s picture among them."""
    out = [(f"--{name}", getattr(args, name)) for name in _OUTPUT_OPTIONS
           if getattr(args, name, None) not in (None, "-")]
    if getattr(args, "png", False) and getattr(args, "output", None) not in (None, "-"):
        out.append(("--png", os.path.splitext(args.output)[0] + ".png"))
    return out


def _check_distinct_files(args: argparse.Namespace) -> None:
    """Refuse, before any work, two outputs that name one file (by real path: a link and its target
    are one file), or an output that names a file the command reads: one write would destroy the other.

    >>> _check_distinct_files(argparse.Namespace(file="d.csv", output="out.csv", scores="./out.csv"))
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: --output out.csv and --scores ./out.csv name the same file; give each its own
    """
    inputs: dict[str, tuple[str, str]] = {}
    for attribute, option in _INPUT_OPTIONS:
        path = getattr(args, attribute, None)
        if isinstance(path, str) and path != "-":
            inputs.setdefault(os.path.realpath(path), (option, path))
    seen: dict[str, tuple[str, str]] = {}
    for option, path in _written_files(args):
        real = os.path.realpath(path)
        if written_in_place(real):  # /dev/null, /dev/stdout, a FIFO: written into, nothing is replaced
            continue
        if real in inputs:
            first, named = inputs[real]
            raise PurePCAError(f"{option} {path} would overwrite {first} {named}, which the command reads; "
                               "write elsewhere")
        if real in seen:
            first, named = seen[real]
            raise PurePCAError(f"{first} {named} and {option} {path} name the same file; give each its own")
        seen[real] = (option, path)


def _check_argv(argv: Any, where: str) -> None:
    """A command's door: ``argv`` None (the command line) or a list of str.

    >>> _check_argv(["pca", "x.csv"], "main")
    >>> _check_argv("pca", "main")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: main: argv must be None or a list of str, got 'pca'
    """
    if argv is not None and (not isinstance(argv, (list, tuple)) or not all(isinstance(a, str) for a in argv)):
        raise PurePCAError(f"{where}: argv must be None or a list of str, got {_show(argv)}")


def _usage_error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """Exit 2 with ``message`` (it starts with the command's name)."""
    parser.exit(2, f"{parser.prog} {message}\n")


def _one_source(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Exactly one source of data: FILE (``--data`` for verify) or --dataset, or --matrix (trace, teach),
    or --golden (verify)."""
    file_name = "--data" if args.command == "verify" else "FILE"
    given = [name for name, present in ((file_name, args.file is not None), ("--dataset", args.dataset is not None),
                                        ("--matrix", getattr(args, "matrix", None) is not None),
                                        ("--golden", getattr(args, "golden", None) is not None)) if present]
    if len(given) != 1:
        choices = f"{file_name}, --dataset NAME" + (" or --matrix FILE" if args.command in ("trace", "teach") else "")
        choices += " or --golden NAME" if args.command == "verify" else ""
        parser.exit(2, f"{parser.prog} {args.command}: error: give one of {choices}"
                    + (f" (got {' and '.join(given)})" if given else "")
                    + f" (see {parser.prog} {args.command} --help)\n")


def _components_at_least(low: int) -> Callable[[argparse.ArgumentParser, argparse.Namespace], None]:
    """``--components`` of kernel (>= 0) and trace (>= 1): argparse reads an int, this its range."""
    def check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
        if args.components < low:
            _usage_error(parser, f"{args.command}: error: --components must be >= {low}, got {args.components}")
    return check


def _em_needs_an_int(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--missing em`` imputes with a number of components, not a share of the variance."""
    if getattr(args, "missing", None) == "em" and not isinstance(args.components, int):
        _usage_error(parser, f"{args.command}: error: --missing em imputes with the model's own components: "
                     "give their number as an int, --components K")


def _summary_needs_table(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``fit --summary`` chooses among the tables of ``--format table``."""
    if args.summary is not None and args.format != "table":
        _usage_error(parser, "fit: error: --summary chooses the tables of --format table; --format "
                     f"{args.format} writes its own (the importance rows and the loadings)")


def _plot_components_need_em(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``plot --components`` is the rank of ``--missing em``'s imputation, nothing else."""
    if args.components is not None and args.missing != "em":
        _usage_error(parser, "plot: error: --components K is the rank of --missing em's imputation; "
                     "the plot draws every component (choose two with --pcs)")


def _verify_numbers(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """verify's divisors, tolerances and scaling: in range, and not both --scale and --unscaled."""
    for option, value in (("--ddof", args.ddof), ("--scale-ddof", args.scale_ddof)):
        if value is not None and value < 0:
            _usage_error(parser, f"verify: error: {option} must be >= 0, got {value}")
    if args.scale and args.unscaled:
        _usage_error(parser, "verify: error: --scale and --unscaled contradict each other; give one")
    for option, value, low in (("--rtol", args.rtol, "> 0"), ("--residual", args.residual, ">= 0")):
        if value is not None and not (math.isfinite(value) and (value > 0 if low == "> 0" else value >= 0)):
            _usage_error(parser, f"verify: error: {option} must be a finite number {low}, got {value}")


def _weights_read_whole(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``fit --weights`` needs the file whole: not with ``--stream always``."""
    if getattr(args, "weights", None) is not None and getattr(args, "stream", "never") == "always":
        _usage_error(parser, f"{args.command}: error: --weights is not read by --stream always")


ArgCheck = Callable[[argparse.ArgumentParser, argparse.Namespace], None]

#: Each command's checks after :func:`_one_source`, in the order they are made (the first failing one
#: is the error); a command not named here (a lesson, exercise) checks its own options.
CHECKS: dict[str, tuple[ArgCheck, ...]] = {
    "fit": (_em_needs_an_int, _summary_needs_table, _weights_read_whole),
    "kernel": (_components_at_least(0),),
    "plot": (_em_needs_an_int, _plot_components_need_em),
    "trace": (_components_at_least(1), _em_needs_an_int),
    "verify": (_verify_numbers,),
    "teach": (_em_needs_an_int,),
}


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """What argparse cannot say alone: exactly one source of data (FILE or --dataset, or --matrix for
    trace) and the range of --components; else usage, exit 2."""
    if not hasattr(args, "dataset") or getattr(args, "lesson", None):
        return  # a lesson checks its own sources (purepca/lessons.py)
    _one_source(parser, args)
    for check in CHECKS.get(args.command, ()):
        check(parser, args)
