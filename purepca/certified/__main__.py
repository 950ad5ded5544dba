"""``python -m purepca.certified build [NAME ...] [--folder DIR]``: regenerate the corpus (every case, or
those named); ``python -m purepca.certified list``: the cases with their tiers."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    """Run the command; returns the exit status."""
    if not argv or argv[0] not in ("build", "list"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "list":
        from . import case_names, load_case

        for name in case_names():
            case = load_case(name)
            print(f"{name:32} {case.tier:8} {case.n_samples:4} x {case.n_features:<3} "
                  f"digits at risk {case.certificate['difficulty']['digits_at_risk']}")
        return 0
    rest = argv[1:]
    folder = None
    if "--folder" in rest:
        at = rest.index("--folder")
        if at + 1 >= len(rest):
            print("python -m purepca.certified build: --folder needs a directory", file=sys.stderr)
            return 2
        folder = rest[at + 1]
        rest = rest[:at] + rest[at + 2:]
    from ..errors import PurePCAError
    from .build import write_cases
    from .cases import CASES

    unknown = [name for name in rest if name not in CASES]
    if unknown:
        print(f"python -m purepca.certified build: no certified case named {unknown[0]!r}; the cases: "
              f"{', '.join(sorted(CASES))}", file=sys.stderr)
        return 1
    try:
        for path in write_cases(rest or None, folder):
            print(path)
    except (OSError, PurePCAError) as err:
        print(f"python -m purepca.certified build: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
