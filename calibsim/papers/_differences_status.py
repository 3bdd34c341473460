"""Status and evidence of the differences from the papers: the hand-typed part of the register.

Each rule matches the register's rows by paper and by regular expressions on their
``where`` and ``cell`` columns; the first matching rule gives the row its status
("explained by experiment", "explained by argument" or "open"), its evidence (the
study, test or argument, with its result in a sentence) and, optionally, the variant
study whose number :mod:`calibsim.papers._differences` puts beside the paper's.
Rows no rule matches are "open". Numbers quoted here are checked by
``tests/test_differences.py`` against the outputs, so they cannot drift silently.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["STATUS", "Rule"]


@dataclass(frozen=True)
class Rule:
    """Status and evidence of the differences whose ``where`` and ``cell`` match."""

    paper: str
    where: str            # regular expression searched in the ``where`` column
    cell: str             # regular expression searched in the ``cell`` column
    status: str
    evidence: str
    variant: str = ""     # a key of calibsim.papers._differences._VARIANTS


STATUS = (
)
