"""``plot --png``: the SVG drawn as PNG by a program found on this machine (rsvg-convert, Chromium).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Optional
from ..errors import PurePCAError

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


def png_converter() -> Optional[tuple[str, str]]:
    """The SVG-to-PNG converter this machine has, as (kind, path): rsvg-convert first (small, exact),
    then a headless Chromium; None when there is neither.

    >>> found = png_converter()
    >>> found is None or found[0] in ("rsvg-convert", "chromium")
    True
    """
    path = shutil.which("rsvg-convert")
    if path:
        return "rsvg-convert", path
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return "chromium", path
    return None


def _svg_to_png(svg: str, converter: tuple[str, str], scale: int = 2) -> bytes:
    """The PNG of ``svg`` drawn by ``converter`` (from :func:`png_converter`), at ``scale`` pixels per unit."""
    head = svg.split(">", 1)[0]
    _, _, vw, vh = head.split('viewBox="')[1].split('"')[0].split()
    width, height = int(float(vw)), int(float(vh))
    kind, path = converter
    with tempfile.TemporaryDirectory(prefix="purepca-png-") as folder:
        source = os.path.join(folder, "picture.svg")
        shot = os.path.join(folder, "picture.png")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(svg)
        if kind == "rsvg-convert":
            cmd = [path, "--zoom", str(scale), "--background-color", "white", "-o", shot, source]
        else:
            cmd = [path, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                   f"--force-device-scale-factor={scale}", f"--window-size={width},{height}",
                   f"--screenshot={shot}", "file://" + source]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                                  env={**os.environ, "HOME": folder})
        except (OSError, subprocess.TimeoutExpired) as err:
            raise PurePCAError(f"--png: {kind} failed ({err})") from None
        if not os.path.exists(shot):
            raise PurePCAError(f"--png: {kind} wrote no picture: {done.stderr.strip()[-300:]}")
        with open(shot, "rb") as handle:
            return handle.read()
