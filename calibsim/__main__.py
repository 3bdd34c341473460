"""``python -m calibsim``: the ``calibsim`` command."""

from .cli import command

command()
