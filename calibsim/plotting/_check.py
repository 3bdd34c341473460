"""The figure checklist of docs/guide/figures.md, as a test can check it on a Figure.

:func:`check_figure` inspects a :class:`matplotlib.figure.Figure` before it is saved and
returns what breaks the checklist (an empty list when nothing does). The test suite runs
it on every figure calibsim draws (tests/test_figure_images.py); a study's own figure can
be checked the same way.
"""

from __future__ import annotations

import re

import numpy as np

from ._style import SAME_Y

__all__ = ["check_figure", "IDENTIFIER", "SAME_Y"]

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
#: Number words a title may count series with ("five tests").
_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
_COUNTED = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r"|\d+)\s+(tests|methods|series)\b",
                      re.IGNORECASE)
#: Tick labels of this many characters in common (start or end) repeat what the axis
#: label should say once.
_MIN_REPEAT = 12


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


def _data_points(ax):
    """Display coordinates (n, 2) of what ``ax`` draws as data: the series' lines (their
    segments sampled), markers, error bars, scatter points and bars; references left out."""
    from matplotlib.collections import LineCollection
    pts = []

    def add(xy, joined):
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        xy = xy[np.isfinite(xy).all(axis=1)]
        if not len(xy):
            return
        disp = ax.transData.transform(xy)
        if joined and len(disp) > 1:
            t = np.linspace(0.0, 1.0, 25)[:, None, None]
            disp = (disp[:-1][None] * (1 - t) + disp[1:][None] * t).reshape(-1, 2)
        pts.append(disp)
    for line in ax.get_lines():
        if not line.get_visible() or _is_reference(line) or _is_grey(_hex(line.get_color())):
            continue
        joined = line.get_linestyle() not in ("None", "", " ", "none")
        x = np.asarray(line.get_xdata(), dtype=float)
        y = np.asarray(line.get_ydata(), dtype=float)
        add(np.column_stack([x, y]), joined)
    for coll in ax.collections:
        if not coll.get_visible():
            continue
        if isinstance(coll, LineCollection):
            for seg in coll.get_segments():
                add(seg, True)
        elif coll.__class__.__name__ == "PathCollection":
            add(coll.get_offsets(), False)
    from matplotlib.container import BarContainer
    for c in ax.containers:
        if isinstance(c, BarContainer):
            for p in c.patches:
                add([[p.get_x() + p.get_width() / 2, p.get_y() + p.get_height()]], False)
    return np.concatenate(pts) if pts else np.empty((0, 2))


def _hex(colour) -> str:
    from matplotlib.colors import to_hex
    try:
        return to_hex(colour)
    except ValueError:
        return "#000000"


def _legend_over_data(fig, axes, renderer) -> list:
    """Panels whose data a legend (of the panel or of the figure) covers."""
    legends = [(ax.get_legend(), ax) for ax in axes if ax.get_legend() is not None]
    legends += [(leg, None) for leg in fig.legends]
    out = []
    for leg, own in legends:
        if not leg.get_visible():
            continue
        box = leg.get_window_extent(renderer).padded(-2.0)
        for ax in axes:
            if own is not None and ax is not own:
                continue
            if not box.overlaps(ax.get_window_extent(renderer)):
                continue
            pts = _data_points(ax)
            inside = ((pts[:, 0] > box.x0) & (pts[:, 0] < box.x1) &
                      (pts[:, 1] > box.y0) & (pts[:, 1] < box.y1))
            if inside.any():
                out.append(f"panel {ax.get_title()!r}: the legend covers data; place it "
                           "where nothing is drawn or outside the panels")
    return out


def _tick_problems(ax, renderer) -> list:
    """Tick labels that overlap, run past their axis, repeat a long common text, or carry
    more decimals than a reader can use."""
    out = []
    name = ax.get_title()
    for axis, ticks in (("x", ax.get_xticklabels()), ("y", ax.get_yticklabels())):
        ticks = [t for t in ticks if t.get_visible() and t.get_text()]
        if not ticks:
            continue
        boxes = [t.get_window_extent(renderer) for t in ticks]
        span = ax.get_window_extent(renderer)
        length = span.width if axis == "x" else span.height
        for t, b in zip(ticks, boxes):
            if (b.width if axis == "x" else b.height) > length:
                out.append(f"panel {name!r}: the {axis} tick label {t.get_text()!r} is longer "
                           "than its axis")
                break
        if _overlap(ticks, boxes, renderer):
            out.append(f"panel {name!r}: the {axis} tick labels overlap; shorten them (the "
                       "common part belongs in the axis label) or use fewer")
        texts = [t.get_text() for t in ticks]
        if len(set(texts)) >= 3 and not any(x.startswith("$") for x in texts):
            head = _common(texts)                 # back to the last whole word
            head = head[:head.rfind(" ") + 1] if " " in head else ""
            tail = _common([x[::-1] for x in texts])[::-1]
            tail = tail[tail.find(" "):] if " " in tail else ""
            common = max(head, tail, key=len)
            if len(common.strip(" ,;:=")) >= _MIN_REPEAT:
                out.append(f"panel {name!r}: every {axis} tick label repeats {common!r}; say "
                           "it once in the axis label and keep what varies on the ticks")
        decimals = [len(m.group(1)) for x in texts
                    for m in [re.fullmatch(r"[−-]?\d*\.(\d+)%?", x.strip())] if m]
        if decimals and max(decimals) > 3:
            out.append(f"panel {name!r}: {axis} tick labels with {max(decimals)} decimals; "
                       "use at most 3 (a tick formatter or fewer ticks)")
    return out


def _overlap(ticks, boxes, renderer) -> bool:
    """Whether two tick labels overlap: their boxes, or for labels turned by an angle
    other than 0 or 90°, their turned rectangles (parallel labels overlap when their
    anchors are closer across the text than its height and along it than its length)."""
    angle = ticks[0].get_rotation() % 180
    if np.isclose(angle, 0) or np.isclose(angle, 90):
        return any(boxes[i].padded(-1.0).overlaps(boxes[j].padded(-1.0))
                   for i in range(len(boxes)) for j in range(i + 1, len(boxes)))
    theta = np.deg2rad(angle)
    along, across = np.array([np.cos(theta), np.sin(theta)]), \
        np.array([-np.sin(theta), np.cos(theta)])
    anchors = [t.get_transform().transform(t.get_unitless_position()) for t in ticks]
    sizes = []
    for t in ticks:              # (length, height) of the label, line by line
        lines = [renderer.get_text_width_height_descent(x, t.get_fontproperties(),
                                                        ismath=False)[:2]
                 for x in t.get_text().splitlines() or [" "]]
        sizes.append((max(w for w, _ in lines), sum(h for _, h in lines)))
    for i in range(len(ticks)):
        for j in range(i + 1, len(ticks)):
            d = np.asarray(anchors[j]) - np.asarray(anchors[i])
            height = 0.9 * max(sizes[i][1], sizes[j][1])
            if abs(d @ across) < height and abs(d @ along) < max(sizes[i][0], sizes[j][0]):
                return True
    return False


def _common(texts) -> str:
    """The longest start all ``texts`` share."""
    first = min(texts, key=len)
    n = 0
    while n < len(first) and all(x[n] == first[n] for x in texts):
        n += 1
    return first[:n]


def _y_groups(axes) -> list:
    """The panels in groups of shared y axes (a panel alone is its own group)."""
    groups, seen = [], set()
    for ax in axes:
        if id(ax) in seen:
            continue
        group = [a for a in ax.get_shared_y_axes().get_siblings(ax) if a in axes]
        seen.update(id(a) for a in group)
        groups.append(group)
    return groups


def _series_y(ax) -> np.ndarray:
    """The y values of the data series of ``ax`` (no error bars, no references)."""
    ys = [np.asarray(s[5], dtype=float) for s in _series(ax) if s[5] is not None]
    ys += [np.array([p.get_y() + p.get_height() for p in c.patches])
           for c in ax.containers if c.__class__.__name__ == "BarContainer"]
    ys = np.concatenate(ys) if ys else np.empty(0)
    return ys[np.isfinite(ys)]


def _shared_y_problems(axes) -> list:
    """Panels declared to share one y range (gid ``same-y:<name>``, set by
    :func:`~calibsim.plotting._style.share_y`) that do not, and flat panels (every value
    the same) that share their axis with no panel that varies."""
    out = []
    declared = {}
    for ax in axes:
        gid = ax.get_gid() or ""
        if gid.startswith(SAME_Y):
            declared.setdefault(gid[len(SAME_Y):], []).append(ax)
    for name, group in declared.items():
        limits = {tuple(np.round(a.get_ylim(), 9)) for a in group}
        if len(limits) > 1:
            out.append(f"panels {[a.get_title() for a in group]} are declared to share one "
                       f"y range ({name}) but have {len(limits)}: share the y axis")
    for group in _y_groups(axes):
        flat = []
        varies = False
        for ax in group:
            y = _series_y(ax)
            if not y.size:
                continue
            if np.ptp(y) <= 1e-9 * max(1.0, np.abs(y).max()):
                flat.append((ax, y[0]))
            else:
                varies = True
        if not varies:
            for ax, value in flat:
                out.append(f"panel {ax.get_title()!r} is flat at {value:g}: say it in a "
                           "table or a note, or share its y axis with panels that vary")
    return out


def _counted_series(fig, axes, sup: str) -> list:
    """A title that counts tests or series ("five tests") must count what is drawn."""
    labels = set()
    counts = set()
    for ax in axes:
        series = [s for s in _series(ax) if not _is_grey(s[0])]
        counts.add(len({(s[0], s[1]) for s in series}))
        names = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
        if _categorical(ax):
            counts.add(len(set(names)))
        names = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
        if _categorical(ax, "y"):
            counts.add(len(set(names)))
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab and not lab.startswith("_") and not _is_grey(_hex(_handle_colour(h))):
                labels.add(lab)
    for leg in fig.legends:
        for h, t in zip(leg.legend_handles, leg.get_texts()):
            if not _is_grey(_hex(_handle_colour(h))):
                labels.add(t.get_text())
    counts.add(len(labels))
    out = []
    titles = [("title", sup)] + [("panel title", ax.get_title()) for ax in axes]
    for where, text in titles:
        for m in _COUNTED.finditer(text or ""):
            word = m.group(1).lower()
            n = int(word) if word.isdigit() else _NUMBER_WORDS[word]
            if n not in counts:
                out.append(f"{where} counts {m.group(0)!r} but the figure draws "
                           f"{' or '.join(str(c) for c in sorted(counts - {0}))}")
    return out


def _handle_colour(h):
    """The colour of a legend handle (a line, an error bar container, a patch)."""
    from matplotlib.container import Container
    if isinstance(h, Container):
        h = h[0] if len(h) and h[0] is not None else None
    if h is None:
        return "black"
    for get in ("get_color", "get_facecolor"):
        if hasattr(h, get):
            c = getattr(h, get)()
            if isinstance(c, np.ndarray) and c.ndim == 2:
                c = c[0] if len(c) else "black"
            return c
    return "black"


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
    drawn (panels that share a y axis, together); the stamp ``reduced run: N data sets``
    when ``reduced`` is given.

    Also what a reader sees on the printed figure: no legend over data (a legend inside a
    panel must sit where nothing is drawn); panels declared to share one y range
    (:func:`~calibsim.plotting.share_y`, the gid ``same-y:<name>``: the parts of one
    comparison split into panels, "tests 1–5 of 9" and "tests 6–9 of 9") have one y
    range; a panel flat at one value (every rate 100%) shares its axis with panels that
    vary, or is a table; a title that counts what it shows ("five tests") counts the
    series, legend entries or categories drawn; titles and axis labels stay inside the
    figure; tick labels fit (none longer than its axis, none overlapping, no long text
    repeated on every tick, at most 3 decimals).

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
        # panels sharing a y axis are fitted together: their data span the range
        exts = [e for e in (_y_extent(a) for a in ax.get_shared_y_axes().get_siblings(ax)
                            if a in data_axes) if e is not None]
        ext = (min(e[0] for e in exts), max(e[1] for e in exts)) if exts else None
        lo, hi = ax.get_ylim()
        if ext is not None and ax.get_yscale() == "linear":
            span = abs(hi - lo)
            data = ext[1] - ext[0]
            if span > 0 and data > 0 and data / span < 0.5:
                problems.append(f"panel {ax.get_title()!r}: the y range {lo:g}..{hi:g} is not "
                                f"fitted to the data ({ext[0]:g}..{ext[1]:g})")
    renderer = fig._get_renderer()          # what draw_without_rendering drew with
    canvas = fig.bbox
    for text in [fig._suptitle] * (fig._suptitle is not None) + [
            t for ax in data_axes for t in (ax.xaxis.label, ax.yaxis.label, ax.title)]:
        if text.get_text() and text.get_visible():
            box = text.get_window_extent(renderer)
            if box.x0 < canvas.x0 - 1 or box.x1 > canvas.x1 + 1 or box.y0 < canvas.y0 - 1 \
                    or box.y1 > canvas.y1 + 1:
                problems.append(f"{text.get_text()!r} runs off the figure: shorten it")
    problems += _legend_over_data(fig, data_axes, renderer)
    for ax in data_axes:
        problems += _tick_problems(ax, renderer)
    problems += _shared_y_problems(data_axes)
    problems += _counted_series(fig, data_axes, sup)
    if data_axes and n_points < min_points:
        problems.append(f"{n_points} data points: fewer than {min_points}, make it a table")
    if any_errorbars and not any(_ERRORBAR_WORDS.search(t) for _, t in texts):
        problems.append("error bars are drawn but the figure does not say what they are")
    if reduced is not None:
        stamp = reduced_stamp(reduced)
        if not any(stamp.lower() in t.lower() for _, t in texts):
            problems.append(f"a reduced run's figure must carry {stamp!r}")
    return problems
