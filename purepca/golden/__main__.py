"""``python -m purepca.golden [FOLDER]``: compute the golden cases at 50 digits and write them (a file per case)."""

import sys

from ..errors import PurePCAError, one_line
from . import write_cases

try:
    for path in write_cases(sys.argv[1] if len(sys.argv) > 1 else None):
        print(path)
except PurePCAError as err:  # a folder that is not a directory, a file it cannot write: one line, exit 1
    print(f"python -m purepca.golden: error: {one_line(str(err))}", file=sys.stderr)
    sys.exit(1)
