"""The classroom's foundations: hostile titles and numbers, the one writer door, the one escaper.

A title holding a template marker or ``<!--<script>`` must stay text and the
player must still run; the replay must give the right digits or one clear
error on matrices near the ends of the float range; ``teach -o`` must write
as ``fit -o`` does (``-``, links, devices, FIFOs, ``/dev/stdout`` as a link to
``/proc/self/fd/1``), in a scratch directory, never in the machine's /dev.
"""

from __future__ import annotations

import ast
import json
import os
import pathlib
import re
import stat
import subprocess
import sys
import threading

import pytest

from purepca.cli import main
from purepca.markup import escape_text, fill_template, json_for_script
from purepca.player import jacobi_run, player_html, teach

ROOT = pathlib.Path(__file__).resolve().parent.parent
M3 = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.3], [0.5, 0.3, 2.0]]
HOSTILE = ["%CSS%", "%SCRIPT%", "%DATA%", "%TITLE%", "<!--<script>", "</script><!--<script>", "a & 'b' \"c\""]


def _blob(page: str) -> str:
    match = re.search(r'<script type="application/json" id="run-data">(.*?)</script>', page, re.S)
    assert match is not None
    return match.group(1)


@pytest.mark.parametrize("title", HOSTILE)
def test_player_html_title_with_markers_or_markup_stays_text(title: str) -> None:
    # On 768b701 %SCRIPT% in a title became the page's script (three copies of it), %CSS% its style sheet,
    # and <!--<script> opened an escaped comment in the data block, so that </script> did not end it.
    page = player_html(jacobi_run(M3, title=title))
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert page.count('"use strict"') == 1 and page.count("<style>") == 1
    assert f"<title>{escape_text(title)}</title>" in page and f'<h1 id="title">{escape_text(title)}</h1>' in page
    blob = _blob(page)
    assert "<" not in blob and json.loads(blob)["run"]["title"] == title


def test_escape_text_escapes_the_five_characters_and_nothing_else() -> None:
    assert escape_text("<a href='x' title=\"y\">&amp;</a>é") == \
        "&lt;a href=&#x27;x&#x27; title=&quot;y&quot;&gt;&amp;amp;&lt;/a&gt;é"


def test_fill_template_never_rescans_a_value() -> None:
    assert fill_template("%A%|%B%|%A%", {"A": "%B%", "B": "%A%"}) == "%B%|%A%|%B%"


def test_fill_template_names_a_marker_without_value() -> None:
    from purepca import PurePCAError
    with pytest.raises(PurePCAError, match=r"the template marker %DATA% has no value"):
        fill_template("<p>%DATA%</p>", {})


def test_json_for_script_reads_back_the_same_value() -> None:
    value = {"t": "<!--<script></script>\u2028\u2029"}
    text = json_for_script(json.dumps(value))
    assert "<" not in text and "\u2028" not in text and json.loads(text) == value


def test_svg_escapes_through_the_one_escaper() -> None:
    import purepca.svg as svg
    assert svg.escape is escape_text


def test_player_imports_nothing_from_the_command_line() -> None:
    # player.teach_command imported cli's reader, cli imports player: a circle across the house's layers.
    tree = ast.parse((ROOT / "purepca" / "player.py").read_text(encoding="utf-8"))
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "cli" not in modules and "purepca.cli" not in modules, modules


def test_teach_output_dash_prints(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # On 768b701 'teach -o -' wrote a file named '-' (fit prints).
    monkeypatch.chdir(tmp_path)
    assert main(["teach", "--dataset", "toy", "--replay-digits", "0", "-o", "-"]) == 0
    assert not (tmp_path / "-").exists()
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>") and out.endswith("</html>\n")


def test_teach_output_link_replaces_its_target_and_keeps_the_link(tmp_path: pathlib.Path) -> None:
    target = tmp_path / "page.html"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    link = tmp_path / "link.html"
    link.symlink_to(target)
    assert main(["teach", "--dataset", "toy", "--replay-digits", "0", "-o", str(link)]) == 0
    assert link.is_symlink() and target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "page.html"]  # no page.html.tmp left


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs as on POSIX")
def test_teach_output_fifo_is_written_into(tmp_path: pathlib.Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main(["teach", "--dataset", "toy", "--replay-digits", "0", "-o", str(fifo)]) == 0
    reader.join(10)
    assert fifo.is_fifo() and got and got[0].startswith(b"<!DOCTYPE html>")


@pytest.mark.skipif(not hasattr(os, "mknod") or os.geteuid() != 0, reason="a device node needs root")
def test_teach_output_device_in_a_scratch_directory_stays_a_device(tmp_path: pathlib.Path) -> None:
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of our own, not the machine's
    except OSError as err:
        pytest.skip(f"cannot make a device node here: {err}")
    assert main(["teach", "--dataset", "toy", "--replay-digits", "0", "-o", str(null)]) == 0
    assert stat.S_ISCHR(null.stat().st_mode)


@pytest.mark.skipif(not os.path.exists("/proc/self/fd/1"), reason="/proc/self/fd as on Linux")
def test_teach_output_link_to_proc_self_fd_1_prints(tmp_path: pathlib.Path) -> None:
    # What /dev/stdout is: on 768b701, as root, the page replaced the link by a regular file.
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "purepca", "teach", "--dataset", "toy", "--replay-digits", "0",
                           "-o", str(link)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"
    assert done.stdout.startswith("<!DOCTYPE html>") and sorted(p.name for p in tmp_path.iterdir()) == ["stdout"]
