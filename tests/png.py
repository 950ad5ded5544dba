"""For the browser tests: where Chromium is and whether this run renders; a small PNG reader (8-bit RGB
or RGBA, not interlaced: what Chromium writes).

Standard library only (zlib); returns rows of (r, g, b) tuples.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import struct
import sys
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def browser_or_skip() -> str:
    """Chromium's path, or a pytest skip saying why: no browser here, or not the one run that renders.

    CI runs the suite five times (CPython 3.11, the unpacked sdist, PyPy, 3.9, 3.13); the browser
    tests run in the first only: CPython 3.11 in a git checkout.  ``PUREPCA_BROWSER_TESTS=1`` forces
    them anywhere."""
    import pytest

    forced = bool(os.environ.get("PUREPCA_BROWSER_TESTS"))
    if sys.version_info[:2] != (3, 11) and not forced:
        pytest.skip("the browser tests run under CPython 3.11 only (PUREPCA_BROWSER_TESTS=1 forces them)")
    if not (ROOT / ".git").exists() and not forced:
        pytest.skip("the browser tests run in the checkout, not in the unpacked sdist")
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no headless Chromium here (Debian: apt-get install chromium; .ci/test installs it)")
    raise AssertionError  # unreachable


def read_png(data: bytes) -> list[list[tuple[int, int, int]]]:
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, chunks, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows: list[list[tuple[int, int, int]]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 255
            elif kind != 0:
                raise ValueError(f"row {y}: unknown filter {kind}")
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])  # type: ignore[misc]
        previous = line
    return rows
