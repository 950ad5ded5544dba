"""The end of the test command (.ci/report.py): the stage table, the ids check and the hashes check.

The command's own run is the real test of these; here each verdict is planted in a folder laid
out as .ci/test writes it, so a regression in the checks shows without a 20-minute run.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import pathlib
from typing import Dict, List, Tuple

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _work(tmp: pathlib.Path, stages: str, collected: List[str], runs: List[Dict[str, object]],
          hashes: Dict[str, str]) -> pathlib.Path:
    (tmp / "stages.tsv").write_text(stages, encoding="utf-8")
    (tmp / "collected.txt").write_text("".join(i + "\n" for i in collected), encoding="utf-8")
    (tmp / "run.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs), encoding="utf-8")
    (tmp / "hashes").mkdir()
    for stage, line in hashes.items():
        (tmp / "hashes" / stage).write_text(line, encoding="utf-8")
    return tmp


_SPEC = importlib.util.spec_from_file_location("ci_report", ROOT / ".ci" / "report.py")
assert _SPEC is not None and _SPEC.loader is not None
REPORT = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(REPORT)


def _report(work: pathlib.Path, *args: str) -> Tuple[int, str]:
    """``(exit status, what it printed)`` of ``python .ci/report.py WORK ARGS``."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = REPORT.main([str(work), *args])
    return status, out.getvalue()


def _run(test_id: str, stage: str, outcome: str = "passed", seconds: float = 0.1) -> Dict[str, object]:
    return {"id": test_id, "outcome": outcome, "seconds": seconds, "cpu": seconds, "stage": stage}


STAGES = ("installs\t20\nCPython 3.11: every test\t300\nmypy\t10\n"
          "PyPy 3.9 (side by side)\t290\nCPython 3.9 (side by side)\t170\n"
          "the 2 suites above, side by side: wall clock\t300\nengines\t170\n")


def test_ci_report_counts_suites_side_by_side_once_in_the_total(tmp_path: pathlib.Path) -> None:
    work = _work(tmp_path, STAGES, ["t::a"], [_run("t::a", "3.11", seconds=2.5)],
                 {"3.11": "abc 7 fits", "pypy": "abc 7 fits"})
    status, out = _report(work)
    assert status == 0, out
    total = [line for line in out.splitlines() if line.startswith("total")]
    assert total and total[0].split()[-1] == "13:20", out  # 20+300+10+300+170 s, not 460 more
    assert "2.50  3.11" in out  # the slowest tests, with their stage


def test_ci_report_fails_on_a_collected_id_no_stage_ran(tmp_path: pathlib.Path) -> None:
    work = _work(tmp_path, STAGES, ["t::a", "t::never"], [_run("t::a", "3.11")],
                 {"3.11": "abc 7 fits", "pypy": "abc 7 fits"})
    status, out = _report(work)
    assert status == 1 and "FAILED: never run in any stage: t::never" in out, out


def test_ci_report_lists_but_passes_an_id_every_stage_skipped(tmp_path: pathlib.Path) -> None:
    runs = [_run("t::a", "3.11"), dict(_run("t::b", "3.11", "skipped"), why="no chromium here")]
    work = _work(tmp_path, STAGES, ["t::a", "t::b"], runs, {"3.11": "abc 7 fits", "pypy": "abc 7 fits"})
    status, out = _report(work)
    assert status == 0 and "skipped in every stage: t::b: no chromium here" in out, out


def test_ci_report_fails_when_two_stages_reference_bits_differ(tmp_path: pathlib.Path) -> None:
    work = _work(tmp_path, STAGES, ["t::a"], [_run("t::a", "3.11")], {"3.11": "abc 7 fits", "pypy": "abd 7 fits"})
    status, out = _report(work)
    assert status == 1 and "FAILED: the reference-mode bits differ between stages" in out, out
    (tmp_path / "one").mkdir()
    one = _work(tmp_path / "one", STAGES, ["t::a"], [_run("t::a", "3.11")], {"3.11": "abc 7 fits"})
    assert "only 1 stage(s) hashed" in _report(one)[1]


def test_ci_report_partial_prints_the_table_and_never_fails(tmp_path: pathlib.Path) -> None:
    work = _work(tmp_path, STAGES + "PyPy 3.9 (failed)\t12\n", ["t::never"], [], {})
    status, out = _report(work, "--partial")
    assert status == 0 and "PyPy 3.9 (failed)" in out and "FAILED" not in out, out
