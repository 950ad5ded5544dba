"""The end of .ci/test: where the time went, and the checks that need every stage.

    python .ci/report.py WORK [--partial]

WORK is the folder .ci/test wrote into: ``stages.tsv`` (stage, seconds), ``run.jsonl`` (one line per
test and stage, written by conftest.py), ``collected.txt`` (every test id CPython 3.11 collects) and
``hashes/`` (each stage's hash of the reference-mode fits, tests/test_fast.py).  Prints the stages'
durations and the 10 slowest tests; unless ``--partial`` (a failed run: the table only), fails when a
collected test never ran in any stage, or two stages' reference bits differ.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Dict, List, Tuple


def minutes(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def stage_table(work: str) -> None:
    rows: List[Tuple[str, int]] = []
    with open(os.path.join(work, "stages.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                name, seconds = line.rstrip("\n").rsplit("\t", 1)
                rows.append((name, int(seconds)))
    width = max([len(name) for name, _ in rows] + [5])
    print(f"\n{'stage':<{width}}  {'time':>6}")
    for name, seconds in rows:
        print(f"{name[:width]:<{width}}  {minutes(seconds):>6}")
    # suites run side by side have their own rows, and the pool's wall clock one more: counted once
    total = sum(s for name, s in rows if not name.endswith("(side by side)"))
    print(f"{'total':<{width}}  {minutes(total):>6}")


def read_runs(work: str) -> List[Dict[str, object]]:
    path = os.path.join(work, "run.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def slowest(runs: List[Dict[str, object]], count: int = 10) -> None:
    print(f"\nthe {count} slowest tests (seconds of wall clock less waits for a core; conftest.py):")
    for run in sorted(runs, key=lambda r: -float(r["seconds"]))[:count]:  # type: ignore[arg-type]
        print(f"  {float(run['seconds']):8.2f}  {run['stage']:<16} {run['id']}")  # type: ignore[arg-type]


def gaps(work: str, runs: List[Dict[str, object]]) -> List[str]:
    with open(os.path.join(work, "collected.txt"), encoding="utf-8") as f:
        collected = [line.strip() for line in f if line.strip()]
    outcomes: Dict[str, set] = {}
    why: Dict[str, str] = {}
    for run in runs:
        outcomes.setdefault(str(run["id"]), set()).add(str(run["outcome"]))
        if "why" in run:
            why[str(run["id"])] = str(run["why"])
    never = [i for i in collected if i not in outcomes]
    skipped = [i for i in collected if i in outcomes and outcomes[i] == {"skipped"}]
    ran = len(collected) - len(never) - len(skipped)
    print(f"\n{len(collected)} test ids collected on CPython 3.11: {ran} ran in at least one stage, "
          f"{len(skipped)} skipped in every stage, {len(never)} never selected")
    # A test every stage skips says why (a tool that could not be installed, a platform without the
    # case): listed, not failed; a test that no stage selected is a gap in the tiers: failed.
    for i in skipped:
        print(f"  skipped in every stage: {i}: {why.get(i, '')}")
    return [f"never run in any stage: {i}" for i in never]


def hashes(work: str) -> List[str]:
    folder = os.path.join(work, "hashes")
    found: Dict[str, str] = {}
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            found[name] = f.read().strip()
    print("\nreference-mode bits, one hash per stage (tests/test_fast.py), each by the stage's interpreter:")
    for name, line in found.items():
        print(f"  {name:<16} {line}")
    digests = {line.split()[0] for line in found.values()}
    if len(found) < 2:
        return [f"only {len(found)} stage(s) hashed the reference-mode fits: nothing to compare"]
    return [] if len(digests) == 1 else ["the reference-mode bits differ between stages (above)"]


def main(argv: List[str]) -> int:
    work, partial = argv[0], "--partial" in argv[1:]
    stage_table(work)
    runs = read_runs(work)
    if runs:
        slowest(runs)
    if partial:
        return 0
    problems = gaps(work, runs) + hashes(work)
    for p in problems[:50]:
        print(f"FAILED: {p}")
    if len(problems) > 50:
        print(f"FAILED: ... and {len(problems) - 50} more")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
