"""The figure checklist of docs/guide/figures.md, as a test can check it on a Figure.

:func:`check_figure` inspects a :class:`matplotlib.figure.Figure` before it is saved and
returns what breaks the checklist (an empty list when nothing does). The test suite runs
it on every figure calibsim draws (tests/test_figure_images.py); a study's own figure can
be checked the same way.
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["check_figure", "IDENTIFIER"]

#: What an identifier looks like in a label: ``key[param=value]``, ``snake_case``,
#: ``set1``, a file name.
IDENTIFIER = re.compile(
    r"\w\[[^\]]*=|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b|\bset\d+\b"
    r"|\.(?:png|pdf|csv|md|toml|txt)\b")
_ERRORBAR_WORDS = re.compile(r"\bSE\b|standard error|interval|\bCI\b|error bar|Clopper|±|"
                             r"\bSD\b|standard deviation", re.IGNORECASE)
_UNITLESS = re.compile(r"\bdf\b|replicability|\bR\b|probability|rank|λ|ε|α|count|number|"
                       r"settings|\bruns?\b|folds", re.IGNORECASE)
_GREY_TOL = 0.02


def _texts(fig):
    """(where, text) of every text a reader sees: titles, labels, ticks, legends, notes."""
    out = []
    if fig._suptitle is not None:
        out.append(("title", fig._suptitle.get_text()))
    for t in fig.texts:
        out.append(("figure text", t.get_text()))
    for leg in fig.legends:
        out += [("legend", t.get_text()) for t in leg.get_texts()]
        out.append(("legend title", leg.get_title().get_text()))
    for ax in _axes(fig):
        out += [("panel title", ax.get_title(loc)) for loc in ("left", "center", "right")]
        out += [("axis label", ax.get_xlabel()), ("axis label", ax.get_ylabel())]
        out += [("tick label", t.get_text()) for t in ax.get_xticklabels() + ax.get_yticklabels()]
        out += [("text", t.get_text()) for t in ax.texts]
        leg = ax.get_legend()
        if leg is not None:
            out += [("legend", t.get_text()) for t in leg.get_texts()]
            out.append(("legend title", leg.get_title().get_text()))
    return [(w, t) for w, t in out if t]


def _axes(fig):
    return [ax for ax in fig.get_axes() if ax.get_visible()]


def _is_reference(line) -> bool:
    """axhline/axvline: drawn in axes coordinates along one direction."""
    from matplotlib.transforms import BlendedGenericTransform
    return isinstance(line.get_transform(), BlendedGenericTransform) or \
        line.get_gid() == "reference"


def _series(ax):
    """(colour, marker, n points, joined, xdata, ydata) of each data series of ``ax``."""
    from matplotlib.colors import to_hex
    from matplotlib.container import ErrorbarContainer
    out, seen = [], set()
    for c in ax.containers:
        if isinstance(c, ErrorbarContainer):
            seen.update(id(cap) for cap in c.lines[1])        # caps are not series
            if c.lines[0] is not None:
                seen.add(id(c.lines[0]))
                out.append(_line_entry(c.lines[0], to_hex))
    for line in ax.get_lines():
        if id(line) in seen or _is_reference(line) or not line.get_visible():
            continue
        if line.get_marker() in (None, "None", "", " ") and line.get_linestyle() in (
                "None", "", " ", "none"):
            continue
        out.append(_line_entry(line, to_hex))
    from matplotlib.container import BarContainer
    for c in ax.containers:
        if isinstance(c, BarContainer) and len(c.patches):
            faces = [to_hex(p.get_facecolor()) for p in c.patches]
            for colour in sorted(set(faces)):
                out.append((colour, "bar", faces.count(colour), False, None, None))
    for coll in ax.collections:
        offs = coll.get_offsets()
        if coll.__class__.__name__ == "PathCollection" and len(offs):
            fc = coll.get_facecolor()
            colour = to_hex(fc[0]) if len(fc) else "none"
            out.append((colour, "scatter", len(offs), False, np.asarray(offs)[:, 0],
                        np.asarray(offs)[:, 1]))
    return out


def _line_entry(line, to_hex):
    x = np.asarray(line.get_xdata(), dtype=object)
    y = np.asarray(line.get_ydata(), dtype=object)
    joined = line.get_linestyle() not in ("None", "", " ", "none")
    face = line.get_markerfacecolor()
    filled = "open" if face in ("none", "None") or to_hex(face) in ("#ffffff",) else ""
    return (to_hex(line.get_color()), f"{line.get_marker()}{filled}", len(x), joined, x, y)


def _is_grey(colour: str) -> bool:
    """Grey or white: references and annotations (black is the palette's eighth colour)."""
    from matplotlib.colors import to_rgb
    r, g, b = to_rgb(colour)
    return abs(r - g) < _GREY_TOL and abs(g - b) < _GREY_TOL and r > 0.1


def _categorical(ax, axis: str = "x") -> bool:
    """True when the axis is labelled by names (text ticks), not numbers."""
    ticks = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
    labels = [t.get_text() for t in ticks if t.get_text()]
    if not labels:
        return False
    def numeric(s):
        try:
            float(s.replace("−", "-").replace("%", "").replace(",", ""))
            return True
        except ValueError:
            return False
    return not all(numeric(s) for s in labels)


def _y_extent(ax):
    """Lowest and highest y of what is drawn in data coordinates (series, error bars,
    reference lines), or None."""
    from matplotlib.collections import LineCollection
    ys = []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        if _is_reference(line):
            from matplotlib.transforms import BlendedGenericTransform
            x = np.asarray(line.get_xdata(), dtype=float)
            if isinstance(line.get_transform(), BlendedGenericTransform) and not (
                    x.size == 2 and np.allclose(x, [0, 1])):
                continue                                         # axvline: no y extent
        y = np.asarray(line.get_ydata(), dtype=float)
        ys += list(y[np.isfinite(y)])
    from matplotlib.container import BarContainer
    for c in ax.containers:
        if isinstance(c, BarContainer):
            for p in c.patches:
                ys += [p.get_y(), p.get_y() + p.get_height()]
    for coll in ax.collections:
        if isinstance(coll, LineCollection):
            for seg in coll.get_segments():
                if len(seg):
                    y = np.asarray(seg)[:, 1]
                    ys += list(y[np.isfinite(y)])
        elif coll.__class__.__name__ == "PathCollection":
            offs = np.asarray(coll.get_offsets())
            if offs.size:
                ys += list(offs[:, 1][np.isfinite(offs[:, 1])])
    if not ys:
        return None
    return min(ys), max(ys)


def check_figure(fig, *, reduced: int | None = None, min_points: int = 5) -> list:
    """What in ``fig`` breaks the figure checklist (docs/guide/figures.md).

    Checks, on a figure before it is saved: a title in words (a suptitle, or a title
    on every panel; never a file name or identifier); an x and a y label on every
    panel with axes (a shared axis may carry it once), a y label with a unit in
    brackets unless its quantity has none (df, R, a probability, a rank); no
    identifier in any title, label, tick or legend entry (``key[param=value]``,
    ``snake_case``, ``set1``, file names); at most 8 series per panel, with distinct
    colour + marker pairs, in the one palette (:data:`~calibsim.plotting.PALETTE`;
    greys and black for references); no line joining the values of a categorical
    axis; error bars stated in a title, label or legend when there are any; at least
    ``min_points`` data points (fewer: make it a table); a y range fitted to what is
    drawn; the stamp ``reduced run: N data sets`` when ``reduced`` is given.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    reduced : int, optional
        The reduced run's number of data sets, whose stamp must be on the figure.
    min_points : int, default 5

    Returns
    -------
    list of str
        One sentence per problem; empty when the figure passes.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from calibsim.plotting import check_figure
    >>> fig = Figure()
    >>> ax = fig.add_subplot()
    >>> _ = ax.plot([1, 2], [3, 4], color="tab:red")
    >>> problems = check_figure(fig)
    >>> any("title" in p for p in problems), any("palette" in p for p in problems)
    (True, True)
    """
    from matplotlib.container import ErrorbarContainer

    from ._style import PALETTE, reduced_stamp
    fig.draw_without_rendering()
    problems = []
    texts = _texts(fig)
    axes = _axes(fig)
    data_axes = [ax for ax in axes if ax.axison]
    # 1. a title in words
    sup = fig._suptitle.get_text() if fig._suptitle is not None else ""
    if not sup and not (axes and all(ax.get_title() for ax in axes)):
        problems.append("no title: give the figure a title in words")
    first = sup.splitlines()[0] if sup else ""
    if first and (IDENTIFIER.search(first) or re.search(r"^\w+:\s", first) and "_" in first):
        problems.append(f"the title looks like a file name or identifier: {first!r}")
    # 2. identifiers anywhere a reader looks
    for where, text in texts:
        if where == "title":
            text = "\n".join(text.splitlines()[1:])
        if IDENTIFIER.search(text):
            problems.append(f"{where} {text!r} is an identifier, not a name")
    # 3. axis labels with units
    for ax in data_axes:
        sx = [a for a in ax.get_shared_x_axes().get_siblings(ax) if a.get_visible()]
        sy = [a for a in ax.get_shared_y_axes().get_siblings(ax) if a.get_visible()]
        if not any(a.get_xlabel() for a in sx):
            problems.append(f"panel {ax.get_title()!r} has no x-axis label")
        if not any(a.get_ylabel() for a in sy):
            problems.append(f"panel {ax.get_title()!r} has no y-axis label")
        yl = ax.get_ylabel()
        if yl and "(" not in yl and not _UNITLESS.search(yl) and not _categorical(ax, "y"):
            problems.append(f"y label {yl!r} gives no unit")
    # 4. series: at most 8 a panel, distinct colour + marker, one palette, no categorical lines
    palette = {c.lower() for c in PALETTE}
    n_points = 0
    any_errorbars = False
    for ax in data_axes:
        series = _series(ax)
        n_points += sum(s[2] for s in series)
        any_errorbars |= any(isinstance(c, ErrorbarContainer) and
                             (c.has_yerr or c.has_xerr) for c in ax.containers)
        coloured = [s for s in series if not _is_grey(s[0])]
        if len(coloured) > 8:
            problems.append(f"panel {ax.get_title()!r} draws {len(coloured)} series; at most "
                            "8 a panel (facet the rest)")
        pairs = [(s[0], s[1]) for s in coloured if s[1] != "bar"]
        if len(set(pairs)) < len(pairs):
            problems.append(f"panel {ax.get_title()!r} repeats a colour + marker pair")
        for s in coloured:
            if s[0].lower() not in palette:
                problems.append(f"panel {ax.get_title()!r} uses colour {s[0]}, not the "
                                "colour-blind-safe palette")
        if _categorical(ax) and any(s[3] and s[2] > 1 for s in series):
            problems.append(f"panel {ax.get_title()!r} joins categorical x values by lines")
        ext = _y_extent(ax)
        lo, hi = ax.get_ylim()
        if ext is not None and ax.get_yscale() == "linear":
            span = abs(hi - lo)
            data = ext[1] - ext[0]
            if span > 0 and data > 0 and data / span < 0.5:
                problems.append(f"panel {ax.get_title()!r}: the y range {lo:g}..{hi:g} is not "
                                f"fitted to the data ({ext[0]:g}..{ext[1]:g})")
    if data_axes and n_points < min_points:
        problems.append(f"{n_points} data points: fewer than {min_points}, make it a table")
    if any_errorbars and not any(_ERRORBAR_WORDS.search(t) for _, t in texts):
        problems.append("error bars are drawn but the figure does not say what they are")
    if reduced is not None:
        stamp = reduced_stamp(reduced)
        if not any(stamp.lower() in t.lower() for _, t in texts):
            problems.append(f"a reduced run's figure must carry {stamp!r}")
    return problems
