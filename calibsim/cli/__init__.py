"""The ``calibsim`` command (``calibsim --help``; :func:`main` is its entry point)."""

from ._main import main

__all__ = ["main"]
