"""python -m purepca demo: the README's first command."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from purepca.cli import demo, main

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Published in seed 003 (R's prcomp and the eigen-decomposition of cov(X)).
SEED_003 = ["1.1331495", "0.2215477", "0.03681869", "0.6778734", "0.7351787"]


def test_demo_reproduces_the_published_numbers() -> None:
    text = demo()
    for number in SEED_003:
        assert number in text
    assert "0.9631813" in text  # the proportion of variance of PC1, as printed by R


def test_demo_at_50_digits_prints_the_same_table() -> None:
    assert demo(50).splitlines()[1:] == demo().splitlines()[1:]
    assert demo(50).splitlines()[0].endswith("computed with 50 digits")


def test_python_m_purepca_demo_runs_from_a_checkout_without_install(tmp_path: pathlib.Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # -S: no site-packages, so an installed copy cannot be the one that runs.
    out = subprocess.run([sys.executable, "-S", "-m", "purepca", "demo"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    assert "[1] 1.1331495 0.2215477" in out.stdout


def test_cli_rejects_unknown_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err
