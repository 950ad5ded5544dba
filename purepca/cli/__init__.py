"""The command line: ``purepca demo`` (the console script) or ``python -m purepca demo``.

======================  ===================================================
``definition.py``       every command's options, as data, and the parser
``checks.py``           what argparse cannot check alone, one function per
                        concern (one source of data, ranges, files)
``options.py``          the values argparse reads through a function
``commands.py``         demo, fit, transform, kernel, plot, trace, dataset
``verify.py``           verify and assess: another PCA's output checked
``results.py``          the one reader of another library's results
``selfcheck.py``        ``purepca check``
``reports.py``          the reports: text tables, CSV and JSON
``tables.py``           the table the options describe
``progress.py``         progress, warnings and errors on stderr
``png.py``              ``plot --png``
======================  ===================================================

The face computes no statistic of its own: it asks the library.

>>> main(["demo"]) == 0  # doctest: +ELLIPSIS
PCA of the toy data ...
True
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Optional, Sequence

from .. import exercise as _exercise, lessons as _lessons
from ..errors import PurePCAError, one_line
from ..files import check_output_path
from ..player import teach_command
from .checks import _check_argv, _check_distinct_files, check_args
from .commands import (_dataset_command, _fit_command, _kernel_command, _plot_command, _trace_command,
                       _transform_command)
# Names the tests and docs import from purepca.cli (the package's modules hold them), re-exported explicitly:
from .commands import demo as demo
from .progress import Progress as Progress, TerminalProgress as TerminalProgress
from .progress import terminal_progress as terminal_progress
from .reports import factominer_summary as factominer_summary
from .tables import standardised as standardised
from .definition import build_parser
from .results import read_result
from .selfcheck import self_check
from .verify import _assess_command, _verify_command, verify_data, verify_report

__all__ = ["main", "read_result", "verify_data", "verify_report"]

#: What each command runs: None from the ones that exit 0 unless they raise, an exit status from the others.
_COMMANDS: dict[str, Callable[[argparse.Namespace], Optional[int]]] = {
    "demo": lambda args: print(demo(args.precision)),
    "fit": _fit_command,
    "transform": _transform_command,
    "kernel": _kernel_command,
    "plot": _plot_command,
    "trace": _trace_command,
    "dataset": _dataset_command,
    "teach": lambda args: (_lessons.lesson_command if args.lesson else teach_command)(args),
    "exercise": lambda args: _exercise.exercise_command(args),
    "assess": _assess_command,
    "verify": _verify_command,
    "check": lambda args: _check_command(),
}


def _parser(prog: str) -> argparse.ArgumentParser:
    """The parser of every command (:func:`purepca.cli.definition.build_parser`)."""
    return build_parser(prog)


def _check_command() -> int:
    """``purepca check``: one PASS/FAIL line per check, then the count; exit 1 if any failed."""
    results = self_check()
    for ok, line in results:
        print(f"{'PASS' if ok else 'FAIL'}  {line}")
    failed = sum(not ok for ok, _ in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv: Optional[Sequence[str]] = None, prog: str = "purepca") -> int:
    """Entry point of ``python -m purepca``; returns the exit status.

    >>> main(["--version"])
    Traceback (most recent call last):
    ...
    SystemExit: 0
    """
    _check_argv(argv, "main")
    parser = _parser(prog)
    args = parser.parse_args(argv)
    check_args(parser, args)
    try:
        _check_distinct_files(args)
        for option in ("output", "save", "scores"):
            check_output_path(getattr(args, option, None), "--" + option)
        return _COMMANDS[args.command](args) or 0
    except BrokenPipeError:  # e.g. piped into head
        pass
    except PurePCAError as err:
        # One line, whatever a file's names hold (a quoted header may carry a newline).
        print(f"{parser.prog}: error: {one_line(str(err))}", file=sys.stderr)
        return 1
    return 0
