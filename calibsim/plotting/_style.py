"""The one style of calibsim's figures: palette, markers, panels, titles, stamps, saving.

Every figure calibsim writes — the generic figure of each analysis
(:mod:`calibsim.engine.outputs`), the paper layouts (:mod:`calibsim.papers`) and the
public plotting functions — draws its series with :func:`series_style`, its reference
lines with :data:`REFERENCE`, its title with :func:`finish_figure` and saves with
:func:`save_figure`, so that the checklist of docs/guide/figures.md holds everywhere and a
new figure inherits it. :func:`calibsim.plotting.check_figure` tests a figure against
the checklist.

Nothing here changes matplotlib's global state: figures are
:class:`matplotlib.figure.Figure` objects made without pyplot.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["PALETTE", "MARKERS", "LINESTYLES", "MAX_SERIES", "REFERENCE", "series_style",
           "new_figure", "finish_figure", "save_figure", "reduced_stamp", "reduced_size",
           "legend_outside", "share_y",
           "reference_line", "dodge", "chunks", "figure_bytes", "save_later",
           "figures_later", "FigureJob", "render_figure", "write_rendered", "load_matplotlib"]

#: Okabe & Ito's colour-blind-safe palette: the only colours of data series (yellow, the
#: faintest on white, last: only a panel of eight series uses it).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000",
           "#F0E442")
#: One marker per palette colour; series 8-15 shift the marker by one, so that up to 64
#: series have distinct colour + marker pairs (a panel shows at most :data:`MAX_SERIES`).
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", "-.", ":")
#: At most this many series in one panel; more go to further panels (facets).
MAX_SERIES = 8
#: The gid prefix of panels declared to share one y range (:func:`share_y`), which
#: :func:`~calibsim.plotting.check_figure` checks.
SAME_Y = "same-y:"
#: Reference lines (α, chance, a paper's value): grey, thin, dotted; never a palette colour.
REFERENCE = {"color": "0.35", "lw": 0.9, "ls": ":"}


def series_style(i: int, *, line: bool = True, n: int | None = None) -> dict:
    """Colour, marker and line style of the ``i``-th series of a figure.

    The colour + marker pairs of ``series_style(0)`` to ``series_style(55)`` are all
    distinct, and any seven consecutive series have seven distinct colours (eight
    when the figure has at most eight series).

    Parameters
    ----------
    i : int
        The series' index in the figure (keep it fixed across panels, so a series
        looks the same in every panel).
    line : bool, default True
        False for points not to be joined (categorical x): ``ls="none"``.
    n : int, optional
        The number of series in the figure. Above eight, the faint yellow is left out
        (the colours repeat anyway, with another marker).

    Returns
    -------
    dict
        ``color``, ``marker`` and ``ls``, for :meth:`matplotlib.axes.Axes.plot` and
        :meth:`~matplotlib.axes.Axes.errorbar`.

    Examples
    --------
    >>> from calibsim.plotting import series_style
    >>> series_style(0)
    {'color': '#0072B2', 'marker': 'o', 'ls': '-'}
    >>> series_style(8)["color"] == series_style(0)["color"], series_style(8)["marker"]
    (True, 's')
    >>> series_style(7, n=9)["color"] == series_style(0)["color"]
    True
    """
    i = int(i)
    k = 7 if n is not None and n > 8 else 8
    return {"color": PALETTE[i % k], "marker": MARKERS[(i % k + i // k) % 8],
            "ls": LINESTYLES[i % 4] if line else "none"}


def new_figure(n_panels: int, *, n_cols: int = 3, panel_size=(4.3, 3.3), sharex=False,
               sharey=False):
    """A figure of ``n_panels`` panels (a grid ``n_cols`` wide), constrained layout.

    Returns
    -------
    (matplotlib.figure.Figure, list of matplotlib.axes.Axes)
        The axes of the panels in reading order; cells of the grid left over are hidden.
    """
    from matplotlib.figure import Figure
    n_panels = max(int(n_panels), 1)
    n_cols = min(n_cols, n_panels)
    n_rows = -(-n_panels // n_cols)
    fig = Figure(figsize=(max(panel_size[0] * n_cols, 6.0), panel_size[1] * n_rows + 0.7),
                 layout="constrained")
    axes = fig.subplots(n_rows, n_cols, squeeze=False, sharex=sharex, sharey=sharey).ravel()
    for ax in axes[n_panels:]:
        ax.set_visible(False)
    for ax in axes[:n_panels]:
        ax.grid(True, lw=0.3, color="0.88")
    return fig, list(axes[:n_panels])


def reduced_size(study) -> int | None:
    """Data sets per source of a reduced run of ``study`` (None at the declared size),
    for :func:`finish_figure`'s ``reduced``."""
    if not getattr(study, "reduced", False):
        return None
    if len(study.sources) < getattr(study, "declared_sources", 0):
        return len(study.sources)              # real data: the data sets kept
    return max((s.n_datasets for s in study.sources), default=None)


def reduced_stamp(n_datasets: int) -> str:
    """The stamp of a reduced run's figures: ``'reduced run: N data sets'``."""
    return f"reduced run: {int(n_datasets)} data sets"


def finish_figure(fig, title: str, *, subtitle: str | None = None,
                  error_bars: str | None = None, reduced: int | None = None):
    """Title the figure in words, say what its error bars are, stamp a reduced run.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    title : str
        What the figure shows, in words (never a file name).
    subtitle : str, optional
        A second line: the design (data, runs, α, ...).
    error_bars : str, optional
        What the error bars are (e.g. ``"95% Clopper–Pearson intervals"``); shown as
        ``"error bars: ..."``. Give it whenever the figure has error bars.
    reduced : int, optional
        Data sets per source of a reduced run: stamps ``reduced run: N data sets``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    lines = [title]
    second = "; ".join(s for s in (subtitle, f"error bars: {error_bars}" if error_bars
                                   else None) if s)
    if second:
        lines.append(second)
    if reduced is not None:
        lines.append(f"{reduced_stamp(reduced)}, not the published size")
    import textwrap
    width = max(int(fig.get_figwidth() * 14), 40)      # characters of 10 pt text a line
    lines = [w for line in lines for w in textwrap.wrap(line, width) or [""]]
    fig.suptitle("\n".join(lines), fontsize=10, x=0.01, ha="left")
    return fig


def legend_outside(fig, axes, *, title: str | None = None, ncols: int = 1):
    """One legend for the figure, below the panels (clear of the title): every labelled
    artist once, in as many columns as the figure's width holds."""
    handles, labels = [], []
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab and not lab.startswith("_") and lab not in labels:
                handles.append(h)
                labels.append(lab)
    if labels:
        width = fig.get_figwidth()
        longest = max(len(lab) for lab in labels)
        ncols = max(ncols, min(len(labels), max(1, int(width * 12 // (longest + 6)))))
        fig.legend(handles, labels, loc="outside lower center", fontsize=8, frameon=False,
                   title=title, title_fontsize=8, ncols=ncols)
    return fig


def share_y(axes, name: str):
    """Give ``axes`` one y range and declare it (the gid ``same-y:<name>``), so that
    :func:`~calibsim.plotting.check_figure` checks the panels keep sharing it: panels
    split from one comparison (tests 1–5 and 6–9 of one data source) are read
    against each other, and a panel flat at 100% reads as "always" beside panels that
    vary instead of on a 94–100 axis of its own.

    Parameters
    ----------
    axes : sequence of matplotlib.axes.Axes
        The panels; the first one's y axis becomes the others'.
    name : str
        What the panels have in common (a source, a threshold), for the checker's messages.

    Returns
    -------
    list of matplotlib.axes.Axes

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from calibsim.plotting import share_y
    >>> left, right = Figure().subplots(1, 2)
    >>> _ = left.plot([1, 2], [0.6, 0.9]), right.plot([1, 2], [0.98, 0.99])
    >>> _ = share_y([left, right], "Set 4")
    >>> left.get_ylim() == right.get_ylim(), right.get_gid()
    (True, 'same-y:Set 4')
    """
    axes = list(axes)
    for ax in axes:
        if ax is not axes[0]:
            ax.sharey(axes[0])
        ax.set_gid(f"{SAME_Y}{name}")
    return axes


def reference_line(ax, y: float, label: str | None = None, **kw):
    """A horizontal reference line (α, chance) in :data:`REFERENCE` style, labelled for
    the legend (``label=None`` keeps it out of the legend)."""
    style = {**REFERENCE, **kw}
    return ax.axhline(y, label=label if label else "_nolegend_", **style)


def dodge(i: int, n: int, width: float = 0.7) -> float:
    """Offset of the ``i``-th of ``n`` series at a categorical x position."""
    if n <= 1:
        return 0.0
    return (i - (n - 1) / 2) * min(width / n, 0.18)


def chunks(names, size: int = MAX_SERIES) -> list:
    """``names`` cut into as few groups of at most ``size`` as possible, of even sizes."""
    names = list(names)
    if not names:
        return []
    k = -(-len(names) // size)
    per = -(-len(names) // k)
    return [names[i:i + per] for i in range(0, len(names), per)]


def figure_bytes(fig, suffix: str, *, dpi: int = 110) -> bytes:
    """The file of ``fig`` as PNG or PDF (``suffix`` ``".png"`` or ``".pdf"``), with no
    date or software stamp, so that a rerun gives the same bytes.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> figure_bytes(Figure(figsize=(1, 1)), ".png")[:4]
    b'\\x89PNG'
    """
    fmt = suffix.lower().lstrip(".")
    meta = ({"CreationDate": None, "Producer": None, "Creator": None}
            if fmt == "pdf" else {"Software": None})
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi, metadata=meta)
    return buf.getvalue()


def load_matplotlib() -> bool:
    """Import the matplotlib modules a figure is drawn and saved with (its Figure, the
    PNG and PDF backends): about 0.3 s of CPU in a fresh process, which a run's workers
    spend while the main process writes tables and reports (issue 46). Returns True.

    Examples
    --------
    >>> load_matplotlib()
    True
    """
    import matplotlib.backends.backend_agg  # noqa: F401 - PNG
    import matplotlib.backends.backend_pdf  # noqa: F401 - PDF
    import matplotlib.figure  # noqa: F401
    return True


def save_figure(fig, path, *, dpi: int = 110) -> Path:
    """Save ``fig`` to ``path`` (PNG or PDF, by suffix) with no date or software stamp,
    so that a rerun writes the same bytes; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(figure_bytes(fig, path.suffix, dpi=dpi))
    return path


@dataclass(frozen=True)
class FigureJob:
    """One figure to draw: ``draw(*args, **kwargs)`` saved to each of ``paths`` in turn.

    ``draw`` is a module-level function (picklable, so a worker process can run the
    job) returning a :class:`matplotlib.figure.Figure`, or None when there is nothing to
    draw (the files of an earlier run are then removed). The files are saved from the
    one figure, in order, as :func:`save_figure` called once per path would: a
    constrained layout carries over from one save to the next, so a PDF saved after the
    PNG of the same figure differs in its last digits from one saved first. ``key``
    names the job for the engine's runner (:func:`calibsim.engine.runner.map_blocks`).
    """

    paths: tuple
    draw: object
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    dpi: int = 110

    @property
    def key(self) -> str:
        return f"figure|{self.paths[0]}"


def render_figure(job: FigureJob) -> tuple | None:
    """The bytes of each of ``job``'s files (:func:`figure_bytes`), or None when its
    ``draw`` returns None. A pure function of the job: the same bytes in any process."""
    fig = job.draw(*job.args, **job.kwargs)
    if fig is None:
        return None
    return tuple(figure_bytes(fig, Path(path).suffix, dpi=job.dpi) for path in job.paths)


def write_rendered(job: FigureJob, data: tuple | None) -> tuple | None:
    """Write what :func:`render_figure` returned for ``job``: its files, or — for None —
    remove the files an earlier run left there. Returns the paths written, or None."""
    paths = tuple(Path(p) for p in job.paths)
    if data is None:
        for path in paths:
            path.unlink(missing_ok=True)
        return None
    for path, content in zip(paths, data):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    return paths


#: The jobs collected by the innermost :func:`figures_later` block (None outside one).
_LATER = contextvars.ContextVar("calibsim_figures_later", default=None)


def save_later(path, draw, *args, dpi: int = 110, **kwargs):
    """Save the figure ``draw(*args, **kwargs)`` to ``path`` — now, or, inside a
    :func:`figures_later` block, when that block's owner draws the collected figures
    (a study run draws them on its worker processes, in parallel).

    Parameters
    ----------
    path : path-like or sequence of path-like
        The file (PNG or PDF, by suffix), or several files of the one figure, saved in
        this order.
    draw : callable
        A module-level function (picklable) returning a Figure, or None when there is
        nothing to draw: then no file is written and those left by an earlier run are
        removed.
    *args, **kwargs
        Arguments of ``draw`` (picklable).
    dpi : int, default 110

    Returns
    -------
    pathlib.Path, tuple of pathlib.Path, or None
        The path (a tuple of them for a sequence); drawing now, None when ``draw``
        returned None. Inside :func:`figures_later` the paths are returned at once and
        the figure is drawn later.

    Examples
    --------
    >>> import tempfile
    >>> from matplotlib.figure import Figure
    >>> def blank(width):
    ...     return Figure(figsize=(width, 1))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     with figures_later() as jobs:
    ...         path = save_later(Path(tmp) / "blank.png", blank, 2)
    ...     print(path.name, path.exists(), len(jobs))
    blank.png False 1
    """
    one = isinstance(path, (str, Path))
    job = FigureJob(tuple(Path(p) for p in ([path] if one else path)), draw, tuple(args),
                    dict(kwargs), int(dpi))
    jobs = _LATER.get()
    if jobs is not None:
        jobs.append(job)
        written = job.paths
    else:
        written = write_rendered(job, render_figure(job))
    return None if written is None else written[0] if one else written


@contextlib.contextmanager
def figures_later():
    """Collect the figures :func:`save_later` is asked for in this block, undrawn.

    Yields
    ------
    list of FigureJob
        Filled as the block runs; the caller draws them (:func:`render_figure`, for
        instance on worker processes) and writes them (:func:`write_rendered`).
    """
    jobs = []
    token = _LATER.set(jobs)
    try:
        yield jobs
    finally:
        _LATER.reset(token)
