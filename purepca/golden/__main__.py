"""``python -m purepca.golden [FOLDER]``: compute the golden cases at 50 digits and write them (a file per case)."""

import sys

from . import write_cases

for path in write_cases(sys.argv[1] if len(sys.argv) > 1 else None):
    print(path)
