"""The ``calibsim`` command (``calibsim --help``; :func:`main` runs one command and returns
its status, :func:`command` is the executable's entry point)."""

from ._main import command, main

__all__ = ["command", "main"]
