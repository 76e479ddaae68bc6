"""What every command prints with: the words of lessons/text/cli.md, escaping for the terminal, the notes and the
output, the one-line message for a file that cannot be used, and the exit statuses."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterable, Sequence

from components.course import prose

EXIT_BAD_FILE = 1
EXIT_BROKEN_PIPE = 128 + 13  # what a shell shows for a program killed by SIGPIPE (signal 13)


def text(section: str, **values) -> str:
    """A section of lessons/text/cli.md, its placeholders filled."""
    return prose.text(prose.CLI, section, **values)


def printable(line_text: str, one_line: bool = False) -> str:
    """text with each character that is not printable written as ``repr`` does (ESC as ``\\x1b``); line breaks kept,
    unless ``one_line`` (a message of one line: its line breaks are written ``\\n`` too).

    Examples
    --------
    >>> print(printable("\\x1b[2J\\x1b]0;pwned\\x07q1\\tcaf\\u00e9\\nnext line"))
    \\x1b[2J\\x1b]0;pwned\\x07q1\\tcafé
    next line
    >>> print(printable("cannot read a\\nb", one_line=True))
    cannot read a\\nb
    """
    lines = [line_text] if one_line else line_text.split("\n")
    return "\n".join(line if line.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)
                     for line in lines)


def file_error(err: Exception, files: Sequence[Path]) -> int:
    """Say on stderr, in one line, why the files could not be used; return 1.

    ``err`` is an ``OSError`` (missing, unreadable), a ``MemoryError`` (the
    reader's names the file; another names ``files``) or the reader's error.
    """
    if isinstance(err, OSError):
        message = text("Error unreadable", file=err.filename or text("A file"), reason=err.strerror or err)
    elif isinstance(err, MemoryError) and not str(err):
        message = text("Error memory", files=" and ".join(map(str, files)))
    else:
        message = text("Error", message=err)
    print(printable(message, one_line=True), file=sys.stderr)
    return EXIT_BAD_FILE


def emit(output: str, notes_to_stderr: Iterable[str], escaped: bool = False) -> int:
    """Print the notes on stderr and the output on stdout, :func:`printable` (unless the output is ``escaped``
    already, as trec_eval's layout is, whose tabs separate columns); return 0 (or the broken-pipe status)."""
    try:
        for note in notes_to_stderr:
            print(printable(note), file=sys.stderr)
        print(output if escaped else printable(output))
        sys.stdout.flush()
    except BrokenPipeError:
        return _stop_writing()
    return 0


def _stop_writing() -> int:
    """After a broken pipe: send what is left of stdout to devnull, so the exit's flush fails no more.

    Returns the status to exit with (:data:`EXIT_BROKEN_PIPE`). The remedy is
    the one Python's documentation gives for SIGPIPE.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_BROKEN_PIPE
