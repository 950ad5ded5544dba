"""What the command says on stderr while it works: progress, warnings, the source of an error.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
import warnings
from typing import Iterator, Optional, TextIO
from ..errors import PurePCAError

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


@contextlib.contextmanager
def _warnings_to_stderr() -> Iterator[None]:
    """The library's warnings, each once, as one line of stderr (no source line, no file name).
    The degenerate-eigenvalue warning is among them: equal eigenvalues show in the tables, but that
    their loadings are then any rotation within the tie (not only a sign flip) shows nowhere else."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            said: set[str] = set()
            for w in caught:
                line = f"purepca: warning: {' '.join(str(w.message).split())} ({w.category.__name__})"
                if line not in said:
                    said.add(line)
                    print(line, file=sys.stderr)


class Progress:
    """Progress of reading a file, on one line of stderr, at most every ``every`` seconds.

    Shown only when stderr is a terminal (``enabled`` None asks ``isatty``);
    a pipe or a file gets nothing.

    >>> import io
    >>> err = io.StringIO()
    >>> show = Progress(2_000_000, stream=err, enabled=True, every=0.0)
    >>> show(1_000_000, 5000); show(2_000_000, -1)
    >>> err.getvalue().split("\\r")[1:]
    ['purepca: read 1.0 MB of 2.0 MB (50 %), 5,000 rows', 'purepca: read 2.0 MB of 2.0 MB (100 %), 5,000 rows\\n']
    """

    def __init__(self, total: int, *, stream: Optional[TextIO] = None, enabled: Optional[bool] = None,
                 every: float = 0.5) -> None:
        self.total, self.every = total, every
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.last = -math.inf
        self.rows = 0

    def __call__(self, done: int, rows: int) -> None:
        if not self.enabled:
            return
        final = rows < 0
        self.rows = self.rows if final else rows
        now = time.monotonic()
        if not final and now - self.last < self.every:
            return
        self.last = now
        share = f" ({100 * done // self.total} %)" if self.total else ""
        self.stream.write(f"\rpurepca: read {done / 1e6:.1f} MB of {self.total / 1e6:.1f} MB{share}, "
                          f"{self.rows:,} rows" + ("\n" if final else ""))
        self.stream.flush()


@contextlib.contextmanager
def _about(source: str) -> Iterator[None]:
    """Errors of the analysis name the file (or data set) they are about."""
    try:
        yield
    except PurePCAError as err:
        if str(err).startswith(f"{source}:"):
            raise
        raise PurePCAError(f"{source}: {err}") from None


class TerminalProgress:
    """Progress of a long fit as one line on a terminal, redrawn in place (``\\r``) and erased at the end.

    Nothing is drawn before ``delay`` seconds have passed (a short run shows nothing), nor more
    often than every 0.1 s; :func:`terminal_progress` gives one only when the stream is a terminal,
    so pipes, files and CI logs never see it.  Called as ``progress(stage, done, total)``
    (:meth:`purepca.KernelPCA.fit`).

    >>> import io
    >>> out = io.StringIO()
    >>> p = TerminalProgress(out, delay=0.0)
    >>> p("kernel matrix", 64, 128); p.close()
    >>> out.getvalue().split("\\r")[1].rstrip()
    'purepca: kernel matrix 50 % (0 s)'
    """

    def __init__(self, stream: TextIO, delay: float = 1.5) -> None:
        self.stream = stream
        self.delay = delay
        self.start = time.monotonic()
        self.drawn = 0  # width of the line on screen
        self.last = -math.inf

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.start < self.delay or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        amount = f"{100 * done // total} %" if 0 < done <= total and stage != "eigenvectors" else "..."
        line = f"purepca: {stage} {amount} ({now - self.start:.0f} s)"
        self.stream.write("\r" + line.ljust(self.drawn))
        self.stream.flush()
        self.drawn = len(line)

    def close(self) -> None:
        """Erase the line, if one was drawn."""
        if self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()
            self.drawn = 0


@contextlib.contextmanager
def terminal_progress(stream: TextIO) -> Iterator[Optional[TerminalProgress]]:
    """A :class:`TerminalProgress` on ``stream`` when it is a terminal (and ``TERM`` is not ``dumb``),
    else None; the line is erased on the way out, before warnings or errors are printed.

    >>> import io
    >>> with terminal_progress(io.StringIO()) as progress:
    ...     progress is None
    True
    """
    isatty = getattr(stream, "isatty", None)
    if not (callable(isatty) and isatty()) or os.environ.get("TERM") == "dumb":
        yield None
        return
    progress = TerminalProgress(stream)
    try:
        yield progress
    finally:
        progress.close()
