"""Files in and out of the ``purepca`` command: the one door every command writes through.

=================================  ==============================================
``write_output(text, output)``     print (``None`` or ``-``), or write ``output``
                                   through a temporary file renamed into place, with
                                   the permissions of the user's umask; a symbolic
                                   link's target is replaced, a device, a FIFO or
                                   anything in /dev or /proc is written into
``check_output_path(path, opt)``   refuse, before any work, an output whose directory
                                   is missing or not writable, that is a directory, that
                                   ends in a slash, or the empty name
``_utf8(text)``                    the bytes every text is written as (UTF-8 always)
``folder_targets(folder, names)``  the paths a set of files will take in a folder, each
                                   refused before any work unless absent or a regular file
``read_text(name, encoding)``      a file's text (``-``: standard input), an error
                                   naming the first byte that is not ``encoding``
``text_lines(text)``               the lines of a text for the CSV reader
=================================  ==============================================

Every command (``fit``, ``transform``, ``plot``, ``trace``, ``teach``, ...)
writes through :func:`write_output`: a defect fixed here is fixed for all.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
>>> check_output_path(path, "--output")
>>> write_output("hello", path)
>>> read_text(path)
'hello\\n'
"""

from __future__ import annotations

import io
import os
import stat
import sys
import tempfile
from typing import Optional, Sequence, Union

from .csvdata import decode_text
from .errors import PurePCAError
from .params import _show, check_text

__all__ = ["check_output_path", "file_mode", "folder_targets", "read_text", "text_lines", "write_output",
           "written_in_place"]


def file_mode(path: str) -> int:
    """The permissions a new file gets from ``open`` (0o666 less the umask), or those of the file it replaces.

    >>> file_mode("/no/such/file") & 0o111
    0
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise PurePCAError(f"file_mode: path must be a file name, got {_show(path)}")
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)  # reading the umask means setting it; put it back at once
        os.umask(mask)
        return 0o666 & ~mask


def written_in_place(real: str) -> bool:
    """Whether an output whose real path (links resolved) is ``real`` is written into rather than
    replaced: a device, a FIFO, anything in /dev or /proc (/dev/stdout's target is no path).  As
    root, replacing /dev/null by a regular file would break it for the whole machine.

    >>> written_in_place("/dev/null"), written_in_place("/no/such/file")
    (True, False)
    """
    if not isinstance(real, str):
        raise PurePCAError(f"written_in_place: real must be a file name (str), got {_show(real)}")
    if real.startswith(("/dev/", "/proc/")):
        return True
    try:
        return not stat.S_ISREG(os.stat(real).st_mode)
    except OSError:  # nothing there yet
        return False


def write_output(text: Union[str, bytes], output: Optional[str]) -> None:
    """Print (``output`` None or ``-``), or write to ``output`` through a temporary file renamed into
    place (never half-written), with the permissions ``open`` would give it (the user's umask), not
    the temporary file's 0600; a symbolic link's target is replaced, and a device or FIFO (or
    anything in /dev or /proc) is written into.  Text gets one line end; bytes are written as they are.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "page.html")
    >>> write_output("<p>", path)
    >>> open(path, encoding="utf-8").read()
    '<p>\\n'
    >>> write_output("x", os.path.join(path, "inside"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: .../page.html/inside: cannot write it (Not a directory)
    """
    if not isinstance(text, (str, bytes)):
        raise PurePCAError(f"write_output: text must be a str or bytes, got {_show(text)}")
    if output is None or output == "-":
        if sys.stdout is None:
            raise PurePCAError("standard output is closed; name a file with -o FILE")
        try:
            buffer = getattr(sys.stdout, "buffer", None)
            if buffer is not None:
                # UTF-8 bytes, whatever the terminal's encoding (an é in a title raised UnicodeEncodeError
                # under PYTHONIOENCODING=ascii): what purepca writes it reads back as UTF-8.
                sys.stdout.flush()
                buffer.write(text if isinstance(text, bytes) else _utf8(text + "\n"))
                buffer.flush()
            elif isinstance(text, bytes):  # bytes to a text stream: as UTF-8, what purepca writes
                sys.stdout.write(text.decode("utf-8", "replace"))
                sys.stdout.flush()
            else:  # a text stream without bytes below it (a doctest's, a StringIO)
                print(_utf8(text).decode("utf-8"))
                sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            sys.stdout = None  # nothing more to say there, not even at exit
            raise PurePCAError(f"standard output: cannot write it ({err.strerror or err})") from None
        return
    _refuse_unnamed(output, "output")
    payload = text if isinstance(text, bytes) else _utf8(text + "\n")
    real = os.path.realpath(output)  # a symbolic link: its target is replaced, the link kept
    if written_in_place(real):
        try:
            with open(output, "wb") as handle:  # by its own name: /dev/stdout's target is no path
                handle.write(payload)
        except OSError as err:
            raise PurePCAError(f"{output}: cannot write it ({err.strerror or err})") from None
        return
    output = real
    directory = os.path.dirname(os.path.abspath(output))
    mode = file_mode(output)
    try:
        fd, temporary = tempfile.mkstemp(prefix=".purepca-", dir=directory)
    except OSError as err:
        raise PurePCAError(f"{output}: cannot write it ({err.strerror or err})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.chmod(temporary, mode)
        os.replace(temporary, output)
    except BaseException as err:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(err, OSError):
            raise PurePCAError(f"{output}: cannot write it ({err.strerror or err})") from None
        raise


def folder_targets(folder: str, names: Sequence[str], what: str = "the files") -> list[str]:
    """The paths ``names`` take in ``folder``, each refused before any work unless it is absent or a
    regular file: a symbolic link (which :func:`write_output` would follow out of the folder,
    replacing its target), a FIFO (which would block), a device or a directory.  ``what`` names the
    set in the messages.  Every command that writes a set of files (the golden cases, the certified
    corpus) checks its targets here, then writes each through :func:`write_output`.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> [os.path.basename(p) for p in folder_targets(folder, ["a.json", "b.json"])]
    ['a.json', 'b.json']
    >>> os.mkdir(os.path.join(folder, "b.json"))
    >>> folder_targets(folder, ["a.json", "b.json"], "the cases")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: .../b.json: is not a regular file (a directory, a FIFO or a device); the cases is ...
    """
    if not isinstance(folder, str):
        raise PurePCAError(f"folder_targets: folder must be a directory's path (str), got {_show(folder)}")
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) and n for n in names):
        raise PurePCAError(f"folder_targets: names must be a list of file names (str), got {_show(names)}")
    for name in names:
        if name in (".", "..") or os.path.basename(name) != name or (os.altsep and os.altsep in name):
            raise PurePCAError(f"folder_targets: {_show(name)} is not a file name in the folder (a path, . or ..)")
    what = check_text(what, "folder_targets: what")
    paths = []
    for file in names:
        path = os.path.join(folder, file)
        if os.path.islink(path):
            raise PurePCAError(f"{path}: is a symbolic link (to {os.readlink(path)}); {what} is written as "
                               f"regular files in the folder: remove the link first")
        if os.path.lexists(path) and not os.path.isfile(path):
            raise PurePCAError(f"{path}: is not a regular file (a directory, a FIFO or a device); "
                               f"{what} is written as regular files in the folder")
        paths.append(path)
    return paths


def _utf8(text: str) -> bytes:
    """``text`` as UTF-8, always: a lone surrogate (the escape Python gives a byte of a command-line
    argument or a file name that is not UTF-8, ``$'\\xe9'``) cannot be encoded and becomes U+FFFD, the
    replacement character, as a UTF-8 reader shows such a byte.

    >>> _utf8("caf\\xe9"), _utf8("\\udce9!")
    (b'caf\\xc3\\xa9', b'\\xef\\xbf\\xbd!')
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text).encode("utf-8")


def _refuse_unnamed(path: str, option: str) -> None:
    """Refuse an output that names no file: the empty name, or one that ends in a slash (a directory's
    name: ``x.html/`` was written as x.html)."""
    if not isinstance(path, str):
        raise PurePCAError(f"{option}: expected a file name (text), got {type(path).__name__} {path!r:.60}")
    if not path:
        raise PurePCAError(f"{option} '': an empty file name; name a file (or - for standard output)")
    if path.endswith(("/", os.sep) + ((os.altsep,) if os.altsep else ())) and not os.path.isdir(path):
        raise PurePCAError(f"{option} {path}: ends in {path[-1]}, so it names a directory, which does not exist; "
                           "name a file (without the trailing slash)")


def check_output_path(path: Optional[str], option: str) -> None:
    """Refuse, before any work, an output path whose directory does not exist or that is a directory.

    >>> check_output_path("/no/such/dir/out.csv", "--output")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: --output /no/such/dir/out.csv: the directory /no/such/dir does not exist
    """
    if path is None or path == "-":
        return
    _refuse_unnamed(path, option)
    if os.path.isdir(path):
        raise PurePCAError(f"{option} {path}: is a directory; name a file in it")
    real = os.path.realpath(path)
    if written_in_place(real):
        if os.path.exists(real) and not os.access(real, os.W_OK):
            raise PurePCAError(f"{option} {path}: is not writable")
        return
    directory = os.path.dirname(real)
    if not os.path.isdir(directory):
        raise PurePCAError(f"{option} {path}: the directory {directory} does not exist")
    if not os.access(directory, os.W_OK):
        raise PurePCAError(f"{option} {path}: the directory {directory} is not writable")


def read_text(name: str, encoding: str = "utf-8") -> str:
    """The text of a file (or of standard input for ``-``), decoded with ``encoding``; a file that is
    not text in that encoding is an error naming the first bad byte and its line.

    >>> read_text("/no/such/file.csv")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: /no/such/file.csv: cannot read it (No such file or directory)
    """
    if not isinstance(name, str):  # an int would be a file descriptor to open (and close): never meant
        raise PurePCAError(f"expected a file's name (text), got {type(name).__name__} {name!r:.60}")
    source = "<stdin>" if name == "-" else name
    try:
        if name == "-":
            if sys.stdin is None:
                raise PurePCAError("<stdin>: standard input is closed; name the file instead of -")
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
        else:
            with open(name, "rb") as handle:
                data = handle.read()
    except OSError as err:
        raise PurePCAError(f"{source}: cannot read it ({err.strerror or err})") from None
    return decode_text(data, encoding, source)


def text_lines(text: str) -> io.StringIO:
    """The lines of a text for the CSV reader: split at line ends only (a form feed stays in its cell),
    each with its end, so that a quoted cell may hold a newline.

    >>> list(text_lines("a,b\\r\\n1,\\f2\\n"))
    ['a,b\\r\\n', '1,\\x0c2\\n']
    """
    check_text(text, "text_lines: text")
    return io.StringIO(text, newline="")
