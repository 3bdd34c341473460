"""Reports you can publish: one renderer for every result (docs/guide/results.md).

A report is built as a list of parts — :class:`Heading`, :class:`Paragraph`,
:class:`Table` (from a DataFrame, units in its column names), :class:`Figure` (from a
matplotlib figure) and :class:`Code` (a command or call) — and rendered by
:meth:`Report.render` to Markdown, LaTeX (a document for pdflatex on A4: booktabs
longtables that break across pages and fit the text width, formulas marked with
:func:`math` set as math) or HTML (figures embedded as base64 PNG), or written by :meth:`Report.save` with its figures beside it as
``<stem>_<name>.png``. The output is a function of the parts alone: the same result gives
the same bytes.

The result objects build their reports here and give them as ``result.report(format)``
and ``result.save_report(path)`` (through :class:`Reportable`):
:class:`calibsim.CompareResult`, the table of :func:`calibsim.compare_all` and
:class:`calibsim.RankingResult`. No result class renders by hand. To add a figure of any
result to a report, give its plotting method: ``Figure(result.plot_cd_diagram, "cd")``.
"""

from ._render import (FORMATS, Code, Figure, Heading, Paragraph, Report, Reportable, Table,
                      format_of, math)

__all__ = ["Report", "Heading", "Paragraph", "Table", "Figure", "Code", "Reportable",
           "FORMATS", "format_of", "math"]
