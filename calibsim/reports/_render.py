"""The one renderer of calibsim's reports: parts rendered to Markdown, LaTeX or HTML.

A report is a title and a list of parts (:class:`Heading`, :class:`Paragraph`,
:class:`Table`, :class:`Figure`, :class:`Code`). :meth:`Report.render` turns it into
text; :meth:`Report.save` writes it with its figures. The same parts give the same bytes:
numbers are formatted here or by the caller, never with the locale; figures are PNGs
drawn by Agg with no software or date stamp; nothing reads the clock.
"""

from __future__ import annotations

import base64
import html
import io
import math
import numbers
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Report", "Heading", "Paragraph", "Table", "Figure", "Code", "Reportable",
           "FORMATS", "format_of"]

#: Suffix -> format of :meth:`Report.save`.
FORMATS = {".md": "markdown", ".markdown": "markdown", ".tex": "latex", ".html": "html",
           ".htm": "html"}
_DPI = 150
_MISSING = "—"


# --- Parts ---

@dataclass(frozen=True)
class Heading:
    """A heading; ``level`` 2 is a section of the report (1 is the report's title)."""

    text: str
    level: int = 2

    def __post_init__(self):
        if self.level not in (1, 2, 3):
            raise ValueError(f"`level` must be 1, 2 or 3; got {self.level!r}.")


@dataclass(frozen=True)
class Paragraph:
    """Plain text; a span in backticks (```RepeatedStratifiedKFold(...)```) is code."""

    text: str


@dataclass(frozen=True)
class Table:
    """A table from a DataFrame, its column names as the header (put units there:
    ``"accuracy (%)"``).

    Parameters
    ----------
    frame : pandas.DataFrame
        Cells are written as they are (strings), integers as integers, floats with
        ``formats[column]`` (a format spec such as ``".2f"``, or a callable) or
        ``.4g``; NaN and None as "—", booleans as "yes"/"no".
    caption : str, optional
    formats : dict, optional
    index : bool, default False
        Also write the index, as the first column (its name as the header).
    """

    frame: object
    caption: str = ""
    formats: dict = field(default_factory=dict)
    index: bool = False


@dataclass(frozen=True)
class Figure:
    """A matplotlib figure, written as ``<stem>_<name>.png`` (Markdown, LaTeX) or embedded
    (HTML).

    ``figure`` is a :class:`matplotlib.figure.Figure`, an Axes (its figure is taken), or
    a callable returning either (drawn when the report is rendered), e.g. a result's
    ``plot_cd_diagram``. ``name`` must be unique in the report: letters, digits, ``-``
    and ``_``.
    """

    figure: object
    name: str
    caption: str = ""

    def __post_init__(self):
        if not re.fullmatch(r"[A-Za-z0-9_-]+", str(self.name)):
            raise ValueError(f"`name` of a figure must be letters, digits, '-' or '_' (it "
                             f"names a file); got {self.name!r}.")

    def png(self) -> bytes:
        """The figure as PNG bytes (150 dpi, no metadata but the image: reproducible)."""
        fig = self.figure() if callable(self.figure) and not hasattr(self.figure, "savefig") \
            else self.figure
        fig = getattr(fig, "figure", fig)           # an Axes -> its Figure
        if not hasattr(fig, "savefig"):
            raise TypeError(f"figure {self.name!r} must be a matplotlib Figure or Axes (or a "
                            f"callable returning one); got {type(fig).__name__}.")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=_DPI, metadata={"Software": None})
        return buf.getvalue()


@dataclass(frozen=True)
class Code:
    """A block of code or a command, shown verbatim (``language`` as in Markdown fences)."""

    text: str
    language: str = ""


# --- The report ---

@dataclass
class Report:
    """A report: a title and parts, rendered to Markdown, LaTeX (booktabs) or HTML.

    Examples
    --------
    >>> import pandas as pd
    >>> from calibsim.reports import Report, Paragraph, Table
    >>> rep = Report("Two learners", [Paragraph("C4.5 is more accurate."),
    ...     Table(pd.DataFrame({"learner": ["C4.5"], "accuracy (%)": [96.3]}))])
    >>> print(rep.render("markdown"))
    # Two learners
    <BLANKLINE>
    C4.5 is more accurate.
    <BLANKLINE>
    | learner | accuracy (%) |
    | :-- | --: |
    | C4.5 | 96.3 |
    <BLANKLINE>
    """

    title: str
    parts: list = field(default_factory=list)

    def figures(self) -> list:
        """The :class:`Figure` parts, in order."""
        figs = [p for p in self.parts if isinstance(p, Figure)]
        names = [f.name for f in figs]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"figure names must be unique in a report; {dup} repeat.")
        return figs

    def render(self, format: str = "markdown", *, stem: str = "report") -> str:
        """The report as text.

        Parameters
        ----------
        format : {"markdown", "latex", "html"}
        stem : str, default "report"
            Markdown and LaTeX refer to each figure as ``<stem>_<name>.png`` (the
            files :meth:`save` writes beside the report); HTML embeds them.

        Returns
        -------
        str
        """
        fmt = _check_format(format)
        self.figures()                                  # names unique
        writer = {"markdown": _Markdown, "latex": _Latex, "html": _Html}[fmt](stem)
        return writer.document(self.title, self.parts)

    def save(self, path) -> list:
        """Write the report, the format taken from the suffix (``.md``, ``.tex``, ``.html``).

        Markdown and LaTeX get their figures beside them as ``<stem>_<name>.png``; HTML
        embeds them. Files are written as UTF-8 with ``\\n`` line ends.

        Returns
        -------
        list of pathlib.Path
            The report first, then the figures written.

        Raises
        ------
        ValueError
            If the suffix is not one of :data:`FORMATS`.
        """
        path = Path(path)
        fmt = format_of(path)
        text = self.render(fmt, stem=path.stem)
        written = [path]
        path.write_text(text, encoding="utf-8", newline="\n")
        if fmt != "html":
            for fig in self.figures():
                out = path.with_name(f"{path.stem}_{fig.name}.png")
                out.write_bytes(fig.png())
                written.append(out)
        return written


class Reportable:
    """Gives a result ``report(format)`` and ``save_report(path)`` from its ``_report()``,
    a method returning a :class:`Report` (docs/guide/results.md)."""

    def _report(self) -> Report:                       # pragma: no cover - overridden
        raise NotImplementedError

    def report(self, format: str = "markdown") -> str:
        """The report as a string: ``"markdown"``, ``"latex"`` (booktabs tables) or
        ``"html"`` (figures embedded). Markdown and LaTeX refer to their figures as
        ``report_<name>.png``; :meth:`save_report` writes them."""
        return self._report().render(format)

    def save_report(self, path) -> list:
        """Write the report to ``path`` (``.md``, ``.tex`` or ``.html``), the figures beside
        it as ``<stem>_<name>.png`` (embedded in HTML); returns the paths written."""
        return self._report().save(path)


def format_of(path) -> str:
    """The report format a file name asks for, from its suffix.

    Raises
    ------
    ValueError
        If the suffix is not ``.md``, ``.markdown``, ``.tex``, ``.html`` or ``.htm``.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"a report's file name must end in .md (Markdown), .tex (LaTeX) or "
                         f".html (HTML); got {str(path)!r}.")
    return FORMATS[suffix]


def _check_format(format) -> str:
    aliases = {"md": "markdown", "tex": "latex", "htm": "html"}
    fmt = aliases.get(format, format)
    if fmt not in ("markdown", "latex", "html"):
        raise ValueError(f"`format` must be 'markdown', 'latex' or 'html'; got {format!r}.")
    return fmt


# --- Cells ---

def _cell(value, fmt=None) -> str:
    if value is None:
        return _MISSING
    if isinstance(value, (bool,)) or type(value).__name__ == "bool_":
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isnan(v):
            return _MISSING
        if math.isinf(v):
            return "∞" if v > 0 else "−∞"
        if callable(fmt):
            return str(fmt(v))
        return format(v, fmt or ".4g")
    if callable(fmt):
        return str(fmt(value))
    return str(value).replace("\n", " ")


_NUM_CHARS = r"[\d.,+\-−eE%∞\[\]() <>=]"
_NUMERIC = re.compile(rf"{_NUM_CHARS}*[\d∞]{_NUM_CHARS}*|—")


def _rows(table: Table):
    """(header, rows, right-aligned flags) of a table, every cell a string."""
    frame = table.frame
    if table.index:
        frame = frame.reset_index()
    header = [str(c) for c in frame.columns]
    rows = [[_cell(v, table.formats.get(c)) for c, v in zip(frame.columns, rec)]
            for rec in frame.itertuples(index=False, name=None)]
    right = []
    for j, col in enumerate(frame.columns):
        cells = [r[j] for r in rows]
        numeric_dtype = frame[col].dtype.kind in "iuf"
        right.append(bool(cells) and (numeric_dtype or all(_NUMERIC.fullmatch(c) for c in cells))
                     and not all(c == _MISSING for c in cells))
    return header, rows, right


def _split_code(text: str):
    """Alternating (is_code, text) spans of a paragraph, code in backticks."""
    pieces = re.split(r"(`[^`]+`)", text)
    return [(p.startswith("`") and p.endswith("`") and len(p) > 1, p.strip("`") if
             p.startswith("`") else p) for p in pieces if p]


# --- Writers ---

class _Markdown:
    def __init__(self, stem):
        self.stem = stem

    def document(self, title, parts) -> str:
        out = [f"# {self.text(title)}"]
        out += [self.part(p) for p in parts]
        return "\n\n".join(out) + "\n"

    @staticmethod
    def text(s) -> str:
        s = str(s).replace("\\", "\\\\").replace("*", "\\*")
        return re.sub(r"^#", r"\\#", s)

    def inline(self, s) -> str:
        return "".join(f"`{t}`" if code else self.text(t) for code, t in _split_code(s))

    def part(self, p) -> str:
        if isinstance(p, Heading):
            return "#" * p.level + " " + self.text(p.text)
        if isinstance(p, Paragraph):
            return self.inline(p.text)
        if isinstance(p, Code):
            return f"```{p.language}\n{p.text.rstrip()}\n```"
        if isinstance(p, Figure):
            alt = self.text(p.caption or p.name).replace("[", "(").replace("]", ")")
            lines = [f"![{alt}]({self.stem}_{p.name}.png)"]
            if p.caption:
                lines.append(f"*Figure: {self.inline(p.caption)}*")
            return "\n\n".join(lines)
        if isinstance(p, Table):
            header, rows, right = _rows(p)

            def line(cells):
                return "| " + " | ".join(self.inline(c).replace("|", "\\|") for c in cells) + " |"
            body = [line(header), "| " + " | ".join("--:" if r else ":--" for r in right) + " |"]
            body += [line(r) for r in rows]
            table = "\n".join(body)
            return (f"**{self.inline(p.caption)}**\n\n" + table) if p.caption else table
        raise TypeError(f"a report part must be a Heading, Paragraph, Table, Figure or Code; "
                        f"got {type(p).__name__}.")


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}
# Characters pdflatex cannot set from UTF-8 alone, as LaTeX.
_LATEX_UNICODE = {"α": r"$\alpha$", "δ": r"$\delta$", "ρ": r"$\rho$", "χ": r"$\chi$",
                  "σ": r"$\sigma$", "λ": r"$\lambda$", "ε": r"$\varepsilon$", "τ": r"$\tau$",
                  "²": r"$^2$", "∞": r"$\infty$", "≤": r"$\le$", "≥": r"$\ge$",
                  "±": r"$\pm$", "−": r"$-$", "×": r"$\times$", "·": r"$\cdot$",
                  "√": r"$\surd$", "–": "--", "—": "---", "→": r"$\rightarrow$",
                  "<": r"$<$", ">": r"$>$", "≈": r"$\approx$", "|": r"$|$", "…": r"\ldots{}",
                  "“": "``", "”": "''", "’": "'", "ı": r"{\i}", "\u00a0": "~"}


# Combining accents -> LaTeX accent commands, for letters such as í, ñ, Š, ç.
_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u030c": "v", "\u0327": "c",
            "\u0303": "~", "\u0302": "^", "\u0306": "u", "\u030a": "r", "\u0304": "="}


def _latex_accent(ch: str) -> str:
    """A Latin letter with one accent as LaTeX (``í`` -> ``\\'{\\i}``); else ``ch``."""
    if ord(ch) < 128:
        return ch
    import unicodedata
    parts = unicodedata.normalize("NFD", ch)
    if len(parts) == 2 and parts[0].isascii() and parts[1] in _ACCENTS:
        base = {"i": "\\i", "j": "\\j"}.get(parts[0], parts[0])
        return f"\\{_ACCENTS[parts[1]]}{{{base}}}"
    return ch


class _Latex:
    def __init__(self, stem):
        self.stem = stem

    def document(self, title, parts) -> str:
        head = ["% calibsim report (LaTeX fragment): \\input it into a document that loads",
                "% \\usepackage{booktabs} and \\usepackage{graphicx}; figures are",
                f"% {self.stem}_<name>.png beside this file.",
                f"\\section*{{{self.text(title)}}}"]
        return "\n".join(head) + "\n\n" + "\n\n".join(self.part(p) for p in parts) + "\n"

    @staticmethod
    def text(s) -> str:
        return "".join(_LATEX_SPECIAL.get(ch) or _LATEX_UNICODE.get(ch) or _latex_accent(ch)
                       for ch in str(s))

    def inline(self, s) -> str:
        return "".join(f"\\texttt{{{self.text(t)}}}" if code else self.text(t)
                       for code, t in _split_code(s))

    def part(self, p) -> str:
        if isinstance(p, Heading):
            cmd = {1: "section", 2: "subsection", 3: "subsubsection"}[p.level]
            return f"\\{cmd}*{{{self.text(p.text)}}}"
        if isinstance(p, Paragraph):
            return self.inline(p.text)
        if isinstance(p, Code):
            return "\\begin{verbatim}\n" + p.text.rstrip() + "\n\\end{verbatim}"
        if isinstance(p, Figure):
            lines = ["\\begin{figure}[htbp]", "\\centering",
                     f"\\includegraphics[width=\\linewidth]{{{self.stem}_{p.name}.png}}"]
            if p.caption:
                lines.append(f"\\caption{{{self.inline(p.caption)}}}")
            return "\n".join(lines + ["\\end{figure}"])
        if isinstance(p, Table):
            header, rows, right = _rows(p)
            lines = ["\\begin{table}[htbp]", "\\centering"]
            if p.caption:
                lines.append(f"\\caption{{{self.inline(p.caption)}}}")
            lines += ["\\begin{tabular}{" + "".join("r" if r else "l" for r in right) + "}",
                      "\\toprule",
                      " & ".join(self.inline(c) for c in header) + " \\\\",
                      "\\midrule"]
            lines += [" & ".join(self.inline(c) for c in r) + " \\\\" for r in rows]
            lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
            return "\n".join(lines)
        raise TypeError(f"a report part must be a Heading, Paragraph, Table, Figure or Code; "
                        f"got {type(p).__name__}.")


_CSS = ("body{font-family:sans-serif;max-width:52em;margin:2em auto;padding:0 1em;"
        "line-height:1.45}table{border-collapse:collapse;margin:.5em 0 1.2em}"
        "caption{caption-side:top;text-align:left;font-weight:bold;padding-bottom:.3em}"
        "thead th{border-top:2px solid #000;border-bottom:1px solid #000}"
        "tbody tr:last-child td{border-bottom:2px solid #000}th,td{padding:.2em .7em}"
        ".num{text-align:right}pre{background:#f5f5f5;padding:.6em;overflow-x:auto}"
        "figure{margin:1em 0}figure img{max-width:100%}figcaption{font-size:.9em}")


class _Html:
    def __init__(self, stem):
        self.stem = stem

    def document(self, title, parts) -> str:
        body = "\n".join(self.part(p) for p in parts)
        return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                f"<title>{html.escape(str(title))}</title>\n<style>{_CSS}</style>\n</head>\n"
                f"<body>\n<h1>{html.escape(str(title))}</h1>\n{body}\n</body>\n</html>\n")

    @staticmethod
    def inline(s) -> str:
        return "".join(f"<code>{html.escape(t)}</code>" if code else html.escape(t)
                       for code, t in _split_code(str(s)))

    def part(self, p) -> str:
        if isinstance(p, Heading):
            return f"<h{p.level}>{html.escape(p.text)}</h{p.level}>"
        if isinstance(p, Paragraph):
            return f"<p>{self.inline(p.text)}</p>"
        if isinstance(p, Code):
            cls = f' class="language-{html.escape(p.language)}"' if p.language else ""
            return f"<pre><code{cls}>{html.escape(p.text.rstrip())}</code></pre>"
        if isinstance(p, Figure):
            data = base64.b64encode(p.png()).decode("ascii")
            cap = f"\n<figcaption>{self.inline(p.caption)}</figcaption>" if p.caption else ""
            alt = html.escape(p.caption or p.name)
            return (f"<figure>\n<img alt=\"{alt}\" src=\"data:image/png;base64,{data}\">"
                    f"{cap}\n</figure>")
        if isinstance(p, Table):
            header, rows, right = _rows(p)

            def cells(tag, values):
                num = ' class="num"'
                return "".join(f"<{tag}{num if r else ''}>{self.inline(v)}</{tag}>"
                               for v, r in zip(values, right))
            cap = f"<caption>{self.inline(p.caption)}</caption>\n" if p.caption else ""
            body = "\n".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
            return (f"<table>\n{cap}<thead><tr>{cells('th', header)}</tr></thead>\n"
                    f"<tbody>\n{body}\n</tbody>\n</table>")
        raise TypeError(f"a report part must be a Heading, Paragraph, Table, Figure or Code; "
                        f"got {type(p).__name__}.")
