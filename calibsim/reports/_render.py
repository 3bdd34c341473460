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
import math as math_
import numbers
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Report", "Heading", "Paragraph", "Table", "Figure", "Code", "Reportable",
           "FORMATS", "format_of", "math"]

#: Suffix -> format of :meth:`Report.save`.
FORMATS = {".md": "markdown", ".markdown": "markdown", ".tex": "latex", ".html": "html",
           ".htm": "html"}
_DPI = 150
_MISSING = "—"
# A formula inside a paragraph, caption or cell: written in Unicode (χ²_F, R_i − R_j,
# √(L(L+1)/(6S))) between these two private-use characters; Markdown and HTML show it as
# it is, LaTeX sets it as math ($\chi^2_F$).
_MATH_OPEN, _MATH_CLOSE = "\ue000", "\ue001"


def math(formula: str) -> str:
    r"""Mark ``formula`` (Unicode, ``_`` for a subscript, ``√(...)`` for a root) as a
    formula: LaTeX sets it in math mode, Markdown and HTML show it as written.

    Parameters
    ----------
    formula : str
        E.g. ``"χ²_F"``, ``"z = (R_i − R_j) / √(L(L+1)/(6S))"``.

    Returns
    -------
    str
        The formula between two private-use marks, to put into the text of a
        :class:`Paragraph`, a caption or a table cell.

    Examples
    --------
    >>> from calibsim.reports import Paragraph, Report, math
    >>> rep = Report("F", [Paragraph(f"Friedman: {math('χ²_F = 9.28')}.")])
    >>> rep.render("markdown").splitlines()[2]
    'Friedman: χ²_F = 9.28.'
    >>> r"Friedman: $\chi^{2}_{F} = 9.28$." in rep.render("latex")
    True
    """
    return f"{_MATH_OPEN}{formula}{_MATH_CLOSE}"


def _plain_math(s: str) -> str:
    return s.replace(_MATH_OPEN, "").replace(_MATH_CLOSE, "")


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
        if math_.isnan(v):
            return _MISSING
        if math_.isinf(v):
            return "∞" if v > 0 else "−∞"
        if callable(fmt):
            return str(fmt(v))
        return format(v, fmt or ".4g")
    if callable(fmt):
        return str(fmt(value))
    return str(value).replace("\n", " ")


_NUM_CHARS = r"[\d.,+\-−eE%∞\[\]() <>=]"
_NUMERIC = re.compile(rf"{_NUM_CHARS}*[\d∞]{_NUM_CHARS}*|—")


def _column_format(values) -> str:
    """One format for a column of floats, so that its numbers line up: as many decimals
    as the most precise value needs at 4 significant digits (0.749 beside 0.8137 becomes
    0.7490 and 0.8137), or scientific notation for the whole column when a value needs it."""
    x = [float(v) for v in values if isinstance(v, numbers.Real)
         and not isinstance(v, (bool, numbers.Integral)) and math_.isfinite(float(v))]
    if not x:
        return ".4g"
    shown = [format(v, ".4g") for v in x]
    if any("e" in t for t in shown):
        return ".3e"
    return f".{max(len(t.split('.')[1]) if '.' in t else 0 for t in shown)}f"


def _rows(table: Table):
    """(header, rows, right-aligned flags) of a table, every cell a string; a float
    column without a format in ``table.formats`` gets one format for all its cells."""
    frame = table.frame
    if table.index:
        frame = frame.reset_index()
    header = [str(c) for c in frame.columns]
    fmts = {c: table.formats.get(c) or (_column_format(frame[c]) if frame[c].dtype.kind == "f"
                                        else None) for c in frame.columns}
    rows = [[_cell(v, fmts[c]) for c, v in zip(frame.columns, rec)]
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
        s = _plain_math(str(s)).replace("\\", "\\\\").replace("*", "\\*")
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
                  "√": r"$\surd$", "Σ": r"$\Sigma$", "³": r"$^3$", "ν": r"$\nu$",
                  "μ": r"$\mu$", "Δ": r"$\Delta$", "≠": r"$\ne$", "–": "--", "—": "---", "→": r"$\rightarrow$",
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


# Math-mode spellings of the characters a formula (:func:`math`) may hold.
_LATEX_MATH = {"α": r"\alpha ", "δ": r"\delta ", "ρ": r"\rho ", "χ": r"\chi", "σ": r"\sigma ",
               "λ": r"\lambda ", "ε": r"\varepsilon ", "τ": r"\tau ", "ν": r"\nu ",
               "μ": r"\mu ", "Σ": r"\sum ", "²": "^{2}", "³": "^{3}", "∞": r"\infty ",
               "≤": r"\le ", "≥": r"\ge ", "±": r"\pm ", "−": "-", "×": r"\times ",
               "·": r"\cdot ", "≈": r"\approx ", "…": r"\ldots ", "%": r"\%", "&": r"\&",
               "#": r"\#", "$": r"\$", "{": r"\{", "}": r"\}"}

# A4 with 2.5 cm margins: the text width in points, and the width of one character of
# the table's font (\small, 9 pt: about half an em, taken generously) and of verbatim code.
_TEXT_WIDTH_PT = 595.3 - 2 * 70.87
_FONT_PT = {"small": 9.0, "footnotesize": 8.0, "scriptsize": 7.0}
# Widths of Computer Modern Roman characters in em (rounded up), for the estimate.
_EM = {**dict.fromkeys("iljI.,;:'|!()[]`", 0.3), **dict.fromkeys("ftr -", 0.4),
       **dict.fromkeys("mMW", 0.92), **dict.fromkeys("w+=<>±×−—%&#", 0.8),
       **dict.fromkeys("ABCDEFGHJKLNOPQRSTUVXYZ", 0.76)}


def _width_pt(text: str, size: str) -> float:
    """Estimated width of ``text`` in the table's font (10% margin)."""
    return 1.1 * _FONT_PT[size] * sum(_EM.get(ch, 0.55) for ch in text)
_TABCOLSEP_PT = 4.0
_CODE_CHARS = 92                     # \footnotesize verbatim (cmtt 8 pt, 4.2 pt a character)


def _latex_formula(f: str) -> str:
    """A Unicode formula as math: ``χ²_F`` -> ``\\chi^{2}_{F}``, ``√(x)`` -> ``\\sqrt{x}``."""
    out, i = [], 0
    while i < len(f):
        ch = f[i]
        if ch == "√" and i + 1 < len(f) and f[i + 1] == "(":
            depth, j = 0, i + 1
            while j < len(f):
                depth += {"(": 1, ")": -1}.get(f[j], 0)
                if depth == 0:
                    break
                j += 1
            out.append(r"\sqrt{" + _latex_formula(f[i + 2:j]) + "}")
            i = j + 1
            continue
        if ch == "_":
            m = re.match(r"_([A-Za-z0-9]+)", f[i:])
            if m:
                out.append("_{" + m.group(1) + "}")
                i += len(m.group(0))
                continue
        out.append(_LATEX_MATH.get(ch) or _latex_accent(ch))
        i += 1
    return "".join(out).replace(" }", "}").replace(" ^", "^").replace(" _", "_").strip()


def _breakable(tex: str) -> str:
    """Let a line break after ``/ . , ( = -`` in code (``\\texttt``); after ``_`` the
    text writer allows one already."""
    return re.sub(r"(/|\.|,|\(|=|-)(?=[^\s\\])", r"\1\\allowbreak{}", tex)


def _code(tex: str) -> str:
    """Code as LaTeX: no hyphenation tricks (typewriter does not hyphenate), breaks after
    punctuation."""
    return _breakable(tex.replace("\\nobreak\\hspace{0pt}", ""))


def _tokens(cell: str) -> list:
    """The pieces of a cell that cannot be broken across lines in LaTeX."""
    parts = []
    for code, t in _split_code(_plain_math(cell)):
        if code:
            parts += re.split(r"(?<=[/.,(=_-])", t)
        else:
            parts += t.split()
    return [p for p in parts if p] or [""]


def _column_widths(header, rows, right, size, force=False):
    """Widths (fractions of the line) of p-columns that fit the text width, or None when
    the natural widths fit already (then l and r columns are used), or False when a word
    is wider than its column can be; ``force``: no column wider than its share of the
    line needs (words longer than that are then broken)."""
    n = len(header)
    room = _TEXT_WIDTH_PT - 2 * _TABCOLSEP_PT * n
    natural = [max(_width_pt(_plain_math(c), size) for c in [h] + [r[j] for r in rows])
               for j, h in enumerate(header)]
    if sum(natural) <= room:
        return None
    least = [max(_width_pt(t, size) for c in [h] + [r[j] for r in rows] for t in _tokens(c))
             for j, h in enumerate(header)]
    least = [max(w, _width_pt("000", size)) for w in least]
    if force:
        least = [min(w, room / n * (1 - 1e-9)) for w in least]
    if sum(least) > room:
        return False                                  # does not fit at this size
    width = list(least)                               # water-filling above the minimum
    open_ = [j for j in range(n) if natural[j] > width[j]]
    while open_:
        share = (room - sum(width)) / len(open_)
        done = [j for j in open_ if natural[j] - width[j] <= share]
        if not done:
            for j in open_:
                width[j] += share
            break
        for j in done:
            width[j] = natural[j]
        open_ = [j for j in open_ if j not in done]
    return [(w + 2 * _TABCOLSEP_PT) / _TEXT_WIDTH_PT for w in width]


_BREAK = "\ue002"                  # a place a word too long for its column may break


def _break_long(cell: str, room: float, size: str) -> str:
    """``cell`` with a break allowed after every character of a word wider than ``room``
    points (outside code and formulas, which keep their own breaks)."""
    if _MATH_OPEN in cell or "`" in cell:
        return cell
    return " ".join(_BREAK.join(word) if _width_pt(word, size) > room else word
                    for word in cell.split(" "))


class _Latex:
    def __init__(self, stem):
        self.stem = stem

    def document(self, title, parts) -> str:
        head = ["% calibsim report: a LaTeX document for pdflatex (A4). To put it into a paper,",
                "% copy the body between \\begin{document} and \\end{document}, and load the",
                "% packages below; figures are " + f"{self.stem}_<name>.png beside this file.",
                "\\documentclass[a4paper]{article}",
                "\\usepackage[margin=2.5cm]{geometry}",
                "\\usepackage{array,booktabs,longtable,graphicx}",
                "\\setlength{\\tabcolsep}{4pt}",
                "\\setlength{\\emergencystretch}{3em}",
                "\\begin{document}",
                f"\\section*{{{self.inline(title)}}}"]
        return ("\n".join(head) + "\n\n" + "\n\n".join(self.part(p) for p in parts)
                + "\n\n\\end{document}\n")

    @staticmethod
    def text(s) -> str:
        out = "".join(_LATEX_SPECIAL.get(ch) or _LATEX_UNICODE.get(ch) or _latex_accent(ch)
                      for ch in str(s))
        # long names break too: after an underscore, and a word after a bracket may be
        # hyphenated (TeX hyphenates only words that follow glue)
        out = re.sub(r"\\_(?=[A-Za-z0-9])", r"\\_\\allowbreak{}", out)
        return re.sub(r"(\\\{|\()(?=[A-Za-z])", r"\1\\nobreak\\hspace{0pt}", out)

    def inline(self, s) -> str:
        out = []
        for piece in re.split(f"({_MATH_OPEN}[^{_MATH_CLOSE}]*{_MATH_CLOSE})", str(s)):
            if piece.startswith(_MATH_OPEN):
                out.append("$" + _latex_formula(piece[1:-1]) + "$")
                continue
            out += [f"\\texttt{{{_code(self.text(t))}}}" if code else self.text(t)
                    for code, t in _split_code(piece)]
        return "".join(out)

    def part(self, p) -> str:
        if isinstance(p, Heading):
            cmd = {1: "section", 2: "subsection", 3: "subsubsection"}[p.level]
            return f"\\{cmd}*{{{self.inline(p.text)}}}"
        if isinstance(p, Paragraph):
            return self.inline(p.text)
        if isinstance(p, Code):
            return ("{\\footnotesize\n\\begin{verbatim}\n" + _wrap_code(p.text, p.language)
                    + "\n\\end{verbatim}\n}")
        if isinstance(p, Figure):
            lines = ["\\begin{figure}[htbp]", "\\centering",
                     "\\includegraphics[width=\\linewidth,height=0.75\\textheight,"
                     f"keepaspectratio]{{{self.stem}_{p.name}.png}}"]
            if p.caption:
                lines.append(f"\\caption{{{self.inline(p.caption)}}}")
            return "\n".join(lines + ["\\end{figure}"])
        if isinstance(p, Table):
            return self.table(p)
        raise TypeError(f"a report part must be a Heading, Paragraph, Table, Figure or Code; "
                        f"got {type(p).__name__}.")

    def table(self, p) -> str:
        """A booktabs longtable (it breaks across pages) that fits the text width: l and
        r columns where the natural widths fit, else ragged p-columns sized to the
        content, at the largest of \\small, \\footnotesize, \\scriptsize that fits."""
        header, rows, right = _rows(p)
        for size in ("small", "footnotesize", "scriptsize"):
            widths = _column_widths(header, rows, right, size)
            if widths is not False:
                break
        else:                          # words too long for any size: break them anywhere
            widths = _column_widths(header, rows, right, size, force=True)
            room = [w * _TEXT_WIDTH_PT - 2 * _TABCOLSEP_PT for w in widths]
            header = [_break_long(c, room[j], size) for j, c in enumerate(header)]
            rows = [[_break_long(c, room[j], size) for j, c in enumerate(r)] for r in rows]
        if widths is None:
            spec = "".join("r" if r else "l" for r in right)
        else:
            spec = "".join(
                (">{\\raggedleft\\arraybackslash}" if r else ">{\\raggedright\\arraybackslash}")
                + f"p{{\\dimexpr {w:.3f}\\linewidth-2\\tabcolsep\\relax}}"
                for w, r in zip(widths, right))
        def cell(c):
            return self.inline(c).replace(_BREAK, "\\allowbreak{}")
        head = " & ".join(cell(c) for c in header) + " \\\\"
        lines = [f"{{\\{size}", f"\\begin{{longtable}}{{@{{}}{spec}@{{}}}}"]
        if p.caption:
            lines.append(f"\\caption{{{self.inline(p.caption)}}}\\\\")
        lines += ["\\toprule", head, "\\midrule", "\\endfirsthead",
                  "\\toprule", head, "\\midrule", "\\endhead",
                  "\\bottomrule", "\\endlastfoot"]
        lines += [" & ".join(cell(c) for c in r) + " \\\\" for r in rows]
        lines += ["\\end{longtable}", "}"]
        return "\n".join(lines)


def _wrap_code(text: str, language: str) -> str:
    """Code lines longer than the page holds, broken at a space (a shell line continues
    with ``\\``; Python inside brackets needs nothing)."""
    out = []
    for line in text.rstrip().splitlines():
        indent = "    "
        while len(line) > _CODE_CHARS:
            cut = line.rfind(" ", 0, _CODE_CHARS - 2)
            if cut <= len(indent):
                break
            out.append(line[:cut] + (" \\" if language in ("bash", "sh", "shell") else ""))
            line = indent + line[cut + 1:]
        out.append(line)
    return "\n".join(out)


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
                f"<title>{self.inline(title)}</title>\n<style>{_CSS}</style>\n</head>\n"
                f"<body>\n<h1>{self.inline(title)}</h1>\n{body}\n</body>\n</html>\n")

    @staticmethod
    def inline(s) -> str:
        return "".join(f"<code>{html.escape(t)}</code>" if code else html.escape(t)
                       for code, t in _split_code(_plain_math(str(s))))

    def part(self, p) -> str:
        if isinstance(p, Heading):
            return f"<h{p.level}>{self.inline(p.text)}</h{p.level}>"
        if isinstance(p, Paragraph):
            return f"<p>{self.inline(p.text)}</p>"
        if isinstance(p, Code):
            cls = f' class="language-{html.escape(p.language)}"' if p.language else ""
            return f"<pre><code{cls}>{html.escape(p.text.rstrip())}</code></pre>"
        if isinstance(p, Figure):
            data = base64.b64encode(p.png()).decode("ascii")
            cap = f"\n<figcaption>{self.inline(p.caption)}</figcaption>" if p.caption else ""
            alt = html.escape(_plain_math(p.caption or p.name))
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
