"""Argument types and option groups shared by the ``calibsim`` subcommands."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["int_type", "alpha_type", "add_execution", "add_outputs", "output_file",
           "output_dir", "input_file"]


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


def output_file(text):
    """A file to write, checked at once rather than after the computation: not a folder;
    its folder is created now if missing, and must not be a file."""
    path = Path(text)
    if not text or path.is_dir():
        raise argparse.ArgumentTypeError(f"must be a file name, not a folder; got {text!r}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise argparse.ArgumentTypeError(f"must be in a folder; {str(path.parent)!r} (or a "
                                         f"folder above it) is a file (got {text!r})") from None
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"its folder {str(path.parent)!r} cannot be created "
                                         f"({exc.strerror}); got {text!r}") from None
    return path


def output_dir(text):
    """A folder to write into: it may be created, but must not be an existing file."""
    path = Path(text)
    if not text or (path.exists() and not path.is_dir()):
        raise argparse.ArgumentTypeError(f"must be a folder; {text!r} is an existing file")
    return path


def input_file(text):
    """A file to read: it must exist and be a regular file (not a folder, FIFO or device)."""
    path = Path(text)
    if path.is_dir():
        return path                    # a folder of study files, where a command takes one
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text!r} does not exist")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text!r} is not a regular file (a device, FIFO "
                                         "or socket)")
    return path


def add_execution(p):
    p.add_argument("--workers", type=int_type(0), default=None,
                   help="local Dask workers (default: all cores; 0 = no Dask, run here)")
    p.add_argument("--scheduler", default=None,
                   help="address of an existing Dask scheduler (tcp://host:port)")
    p.add_argument("--no-progress", action="store_true", help="do not show a progress bar")


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
