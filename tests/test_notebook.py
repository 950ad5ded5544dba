"""A notebook that fits a PCA, shows R's importance table and the step player inline, executed by a
real Jupyter kernel (nbclient + ipykernel, CPython test extras): it must run without error, and its
HTML outputs must hold the summary table and the player page."""

from __future__ import annotations

import html
import os
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_notebook_shows_the_summary_table_and_the_player_inline(tmp_path: pathlib.Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # On 768b701 PCA had no _repr_html_ and teach no inline=True: the notebook failed in cell 2.
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("from purepca import PCA\nfrom purepca.datasets import toy_data\n"
                                  "pca = PCA(convention='prcomp').fit(toy_data())\npca"),
        nbformat.v4.new_code_cell("from purepca.player import teach\n"
                                  "teach('jacobi', data=toy_data(), title='<toy & \"data\">', replay_digits=30, "
                                  "inline=True)"),
        nbformat.v4.new_code_cell("import purepca; purepca.__file__"),
    ]
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [cell.outputs for cell in nb.cells]
    assert not any(o.output_type == "error" for cell in outputs for o in cell)
    assert str(ROOT / "purepca") in outputs[2][0].data["text/plain"]  # this checkout's purepca ran
    summary = outputs[0][0].data["text/html"]
    assert "<caption>Importance of components</caption>" in summary
    assert '<th scope="row">Standard deviation</th><td>1.1331</td><td>0.22155</td>' in summary
    assert "10 samples, 2 features: convention prcomp" in summary
    player = outputs[1][0].data["text/html"]
    # the frame, then the notebook's listener that sizes it to the height the page posts (issue 43)
    match = re.fullmatch(r'<iframe class="purepca-player" srcdoc="([^"]*)" style="[^"]*" sandbox="allow-scripts" '
                         r'id="(purepca-player-[0-9a-f]+)"></iframe><script>[^<]*</script>', player)
    assert match is not None, player[:300]
    page = html.unescape(match.group(1))
    assert page.startswith("<!DOCTYPE html>") and '<script type="application/json" id="run-data">' in page
    assert "<title>&lt;toy &amp; &quot;data&quot;&gt;</title>" in page and page.count("</script>") == 2
