"""``python -m purepca.certified build [NAME ...] [--folder DIR]``: regenerate the corpus (every case, or
those named); ``python -m purepca.certified list``: the cases with their tiers."""

from __future__ import annotations

import os
import sys


def _quiet_pipe() -> int:
    """Standard output's reader has gone (``... | head -1``): stop quietly, and let nothing more be
    written to it at exit (the interpreter's flush would print a BrokenPipeError)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return 0


def main(argv: list[str]) -> int:
    """Run the command; returns the exit status."""
    try:
        return _main(argv)
    except BrokenPipeError:
        return _quiet_pipe()


def _main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("build", "list"):
        print(__doc__, file=sys.stderr)
        return 2
    from ..errors import PurePCAError, one_line

    if argv[0] == "list":
        from . import case_names, load_case

        if len(argv) > 1:
            print(f"python -m purepca.certified list: takes no arguments, got {argv[1]!r}", file=sys.stderr)
            return 2
        try:
            for name in case_names():
                case = load_case(name)
                print(f"{name:32} {case.tier:8} {case.n_samples:4} x {case.n_features:<3} "
                      f"digits at risk {case.certificate['difficulty']['digits_at_risk']}", flush=True)
        except PurePCAError as err:
            print(f"python -m purepca.certified list: {one_line(str(err))}", file=sys.stderr)
            return 1
        return 0
    rest = argv[1:]
    folder = None
    if "--folder" in rest:
        at = rest.index("--folder")
        if at + 1 >= len(rest) or not rest[at + 1]:
            print("python -m purepca.certified build: --folder needs a directory", file=sys.stderr)
            return 2
        folder = rest[at + 1]
        rest = rest[:at] + rest[at + 2:]
    from .build import write_cases
    from .cases import CASES

    unknown = [name for name in rest if name not in CASES]
    if unknown:
        print(f"python -m purepca.certified build: no certified case named {one_line(repr(unknown[0]))}; the cases: "
              f"{', '.join(sorted(CASES))}", file=sys.stderr)
        return 1
    try:
        for path in write_cases(rest or None, folder):
            print(path, flush=True)
    except (OSError, PurePCAError) as err:
        shown = str(err).replace("folder ", "--folder ", 1) if str(err).startswith("folder ") else str(err)
        print(f"python -m purepca.certified build: {one_line(shown)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
