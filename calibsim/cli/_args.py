"""Argument types and option groups shared by the ``calibsim`` subcommands."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

__all__ = ["int_type", "alpha_type", "add_execution", "add_outputs", "add_verbose",
           "output_file", "output_dir", "input_file", "report_file", "add_report",
           "command_line"]


def int_type(minimum):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer; got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}; got {value}")
        return value
    return parse


def alpha_type(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number; got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must lie in the open interval (0, 1); got {value}")
    return value


def _stat_errors(func):
    """An argument type whose OS errors (a name too long, a loop of links) are one line."""
    import functools

    @functools.wraps(func)
    def checked(text):
        try:
            return func(text)
        except OSError as exc:
            raise argparse.ArgumentTypeError(f"cannot use {_clip(text)!r}: "
                                             f"{exc.strerror or exc}") from None
    return checked


def _clip(text: str) -> str:
    return text if len(text) <= 120 else text[:80] + "..." + text[-30:]


@_stat_errors
def output_file(text):
    """A file to write, checked at once rather than after the computation: not a folder,
    not a device, FIFO or socket (``/dev/full`` would take the bytes and lose them), and
    writable; its folder is created now if missing, and must not be a file."""
    path = Path(text)
    if not text or path.is_dir():
        raise argparse.ArgumentTypeError(f"must be a file name, not a folder; got {_clip(text)!r}")
    if path.exists() and not path.is_file():
        raise argparse.ArgumentTypeError(f"{_clip(text)!r} is not a regular file (a device, "
                                         "FIFO or socket); give a file name to write")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise argparse.ArgumentTypeError(f"must be in a folder; {_clip(str(path.parent))!r} (or "
                                         f"a folder above it) is a file (got {_clip(text)!r})"
                                         ) from None
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"its folder {_clip(str(path.parent))!r} cannot be "
                                         f"created ({exc.strerror}); got {_clip(text)!r}") from None
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        raise argparse.ArgumentTypeError(f"{_clip(text)!r} cannot be written (no permission)")
    return path


def report_file(text):
    """A report to write, checked before any work: its suffix names the format (.md, .tex,
    .html), its folder exists (or is created now) and a file can be written there (tried,
    then removed; an existing report is opened for appending and left as it is)."""
    from ..reports import FORMATS
    path = output_file(text)
    if path.suffix.lower() not in FORMATS:
        raise argparse.ArgumentTypeError(f"must end in .md (Markdown), .tex (LaTeX) or .html "
                                         f"(HTML); got {text!r}")
    try:
        if path.exists():
            open(path, "a", encoding="utf-8").close()
        else:
            open(path, "x", encoding="utf-8").close()
            path.unlink()
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot be written ({exc.strerror or exc}); got "
                                         f"{text!r}") from None
    return path


def add_report(p, holds: str):
    """``--report PATH``: a report of what the command ``holds``, format by suffix."""
    p.add_argument("--report", type=report_file, default=None, metavar="PATH",
                   help=f"write a report to publish: {holds}, a paragraph in words and how to "
                        "reproduce it; Markdown (.md), LaTeX (.tex, booktabs tables) or HTML "
                        "(.html), by the suffix; figures beside it as <stem>_<name>.png "
                        "(embedded in HTML)")


def command_line(args) -> str:
    """The command that was run, as one shell line (for a report's reproducibility)."""
    import shlex
    argv = getattr(args, "_argv", None)
    return "calibsim " + shlex.join(argv) if argv is not None else ""


@_stat_errors
def output_dir(text):
    """A folder to write into: it may be created, but must not be an existing file."""
    path = Path(text)
    if not text:
        raise argparse.ArgumentTypeError("must be a folder; got an empty string")
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"must be a folder; {_clip(text)!r} is an existing file")
    nearest = path.absolute()
    while not nearest.exists():                # the folder it would be made in
        nearest = nearest.parent
    if not nearest.is_dir():
        raise argparse.ArgumentTypeError(f"must be a folder; {_clip(str(nearest))!r} above it is "
                                         "a file")
    if not os.access(nearest, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{_clip(text)!r} cannot be written (no permission on "
                                         f"{_clip(str(nearest))!r})")
    return path


@_stat_errors
def input_file(text):
    """A file to read: it must exist and be a regular file (not a folder, FIFO or device)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must name a file (or a folder of study files); got "
                                         "an empty string")
    path = Path(text)
    if path.is_dir():
        return path                    # a folder of study files, where a command takes one
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{_clip(text)!r} does not exist")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{_clip(text)!r} is not a regular file (a device, FIFO "
                                         "or socket)")
    return path


def add_execution(p):
    p.add_argument("--workers", type=int_type(0), default=None,
                   help="local worker processes (default: all cores; 0 = run here, in "
                        "the command's own process)")
    p.add_argument("--scheduler", default=None,
                   help="address of an existing Dask scheduler (tcp://host:port)")
    p.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    add_verbose(p)


def add_verbose(p):
    p.add_argument("--verbose", action="store_true",
                   help="show Dask's and distributed's own log lines (hidden by default: a "
                        "lost cluster or a failed task is reported in one line)")


def add_outputs(p):
    p.add_argument("--n-datasets", type=int_type(1), default=None,
                   help="a quick look: data sets per simulated source and real data sets "
                        "per group, here and in the studies it takes calibrated df from; "
                        "outputs go to <results>/reduced/ unless --out says where")
    p.add_argument("--results", type=output_dir, default=None,
                   help="folder of the score store, here and in the studies it takes "
                        "calibrated df from (default: the file's [outputs] results)")
    p.add_argument("--out", type=output_dir, default=None,
                   help="folder for tables, figures and report (default: the study's "
                        "[outputs] figures; <results>/reduced/... for a reduced run)")
