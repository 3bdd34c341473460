"""``calibsim differences``: the register of differences from the papers (issue 22)."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["add_parser", "run"]

_DESCRIPTION = """\
Set every number the studies report beside the paper's and write, into each
figures/<paper>/ folder, differences.csv and differences.md: the cells where ours and the
paper's differ by more than 3 Monte Carlo standard errors (or a claim's verdict differs or
ties where the paper says "more") and the cells that cannot be compared (no paper value),
each with its status (not comparable / explained by experiment / partly explained /
explained by argument / open), its evidence, and the variant studies that tested it
(figures/<paper>/variants/) with their effect on every cell they touch. With a docs folder
(default: docs/ beside the figures folder, when it exists) the counts and rows also go
into the generated block of each docs/papers/<paper>.md and of docs/guide/differences.md.
Reads the tracked outputs only: no learner is fitted. Prints the counts per paper.
"""


def add_parser(subparsers):
    """Register ``calibsim differences`` on an ``argparse`` subparsers object."""
    from ..papers._differences_status import PAPERS
    p = subparsers.add_parser("differences", help="write the register of differences from "
                              "the papers (figures/<paper>/differences.md)",
                              description=_DESCRIPTION,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--figures", type=Path, default=Path("figures"),
                   help="folder holding the papers' output folders (default ./figures)")
    p.add_argument("--paper", action="append", choices=PAPERS,
                   help="only this paper (repeatable; default all five)")
    p.add_argument("--docs", type=Path, default=None,
                   help="documentation folder whose pages get the generated register "
                        "blocks (default: docs/ beside --figures, if it exists)")
    return p


def run(args) -> int:
    """Write the registers and print one line of counts per paper."""
    from tabulate import tabulate

    from ..papers._differences import PAPERS, write_registers
    if not args.figures.is_dir():
        raise FileNotFoundError(f"`--figures` folder {str(args.figures)!r} does not exist.")
    docs = args.docs
    if docs is None:
        beside = args.figures.resolve().parent / "docs"
        docs = beside if (beside / "papers").is_dir() else None
    elif not docs.is_dir():
        raise FileNotFoundError(f"`--docs` folder {str(docs)!r} does not exist.")
    papers = tuple(args.paper or PAPERS)
    summary = write_registers(args.figures, papers=papers)
    if docs is not None:
        from ..papers._differences_pages import write_pages
        write_pages(args.figures, docs, papers)
    print(tabulate(summary, headers="keys", tablefmt="github", showindex=False))
    for paper in summary["paper"]:
        print(f"wrote {args.figures / paper / 'differences.md'}")
    if docs is not None:
        print(f"updated the generated register blocks under {docs}")
    return 0
