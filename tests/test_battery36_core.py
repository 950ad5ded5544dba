"""Issue 36, the core findings: the MicroPython build's OUT, Moments and their
bytes, the distributed helpers, and numerics at the ends of the float range.
Each test failed on 768b701."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import purepca
from purepca import micro
from purepca.errors import PurePCAError

PACKAGE = pathlib.Path(purepca.__file__).parent


# -- the micro build's OUT ------------------------------------------------------------------------

@pytest.fixture()
def checkout(tmp_path: pathlib.Path) -> pathlib.Path:
    """A copy of the package in a checkout of its own (never the real tree)."""
    root = tmp_path / "checkout"
    shutil.copytree(PACKAGE, root / "purepca", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _snapshot(root: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def _build(cwd: pathlib.Path, root: pathlib.Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([sys.executable, "-m", "purepca.micro", "build", *args], cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("where, out, message", [
    ("root", "", "OUT is empty"),
    ("root", ".", "contains the purepca package the build reads"),
    ("root", "$PWD", "contains the purepca package the build reads"),
    ("package", ".", "is the purepca package the build reads"),
    ("package", "$PWD", "is the purepca package the build reads"),
    ("package", "..", "contains the purepca package the build reads"),
    ("package", "linalg", "is inside the purepca package the build reads"),
    ("package", "new/dir", "is inside the purepca package the build reads"),
])
def test_micro_build_refuses_the_package_it_reads(checkout: pathlib.Path, where: str, out: str, message: str) -> None:
    cwd = checkout if where == "root" else checkout / "purepca"
    before = _snapshot(checkout)
    done = _build(cwd, checkout, str(cwd) if out == "$PWD" else out)
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr, done.stderr
    assert done.stdout == ""
    assert _snapshot(checkout) == before
    assert not (checkout / "purepca" / "new").exists() and not (checkout / micro.MARKER).exists()


def test_micro_build_refuses_a_symbolic_link_to_the_package(checkout: pathlib.Path, tmp_path: pathlib.Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(checkout)
    before = _snapshot(checkout)
    done = _build(tmp_path, checkout, str(link))
    assert done.returncode == 2 and "contains the purepca package the build reads" in done.stderr
    assert _snapshot(checkout) == before


def test_micro_build_refuses_a_directory_that_is_not_empty(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(PurePCAError, match=r"is a directory that is not empty \(1 entries\) and holds no bundle"):
        micro.build(str(out))
    with pytest.raises(PurePCAError, match="holds no bundle"):
        micro.build(str(out), replace=True)
    assert os.listdir(out) == ["notes.txt"]


def test_micro_build_replaces_only_a_bundle_it_recognises(tmp_path: pathlib.Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bundle"
    first = micro.build(str(out))
    assert (out / micro.MARKER).read_text(encoding="utf-8").splitlines()[1:] == first
    assert micro.main(["build", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds a bundle of an earlier build: pass --replace" in err
    (out / "purepca" / "stale.py").write_text("x = 1\n")  # a file of the user's, not the build's: kept
    (out / "purepca" / "fitting.py").write_text("BROKEN\n")
    assert micro.main(["build", str(out), "--replace"]) == 0
    assert (out / "purepca" / "stale.py").read_text() == "x = 1\n"
    assert "BROKEN" not in (out / "purepca" / "fitting.py").read_text(encoding="utf-8")


def test_micro_build_refuses_a_purepca_link_inside_out(tmp_path: pathlib.Path, checkout: pathlib.Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "purepca").symlink_to(checkout / "purepca")
    with pytest.raises(PurePCAError, match="its purepca is not a directory the build made"):
        micro.build(str(out))


@pytest.mark.parametrize("argv, message", [
    (["build", "--bogus"], "unknown option '--bogus'"),
    (["build", "-"], "unknown option '-'"),
])
def test_micro_main_refuses_an_option_as_out(argv: list[str], message: str, tmp_path: pathlib.Path,
                                            capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert micro.main(argv) == 2
    assert message in capsys.readouterr().err
    assert os.listdir(tmp_path) == []
