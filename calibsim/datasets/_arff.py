"""Reading ARFF files (Weka's format, via liac-arff) into :class:`calibsim.datasets.Dataset`."""

from __future__ import annotations

import os

import numpy as np

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ._dataset import Dataset

__all__ = ["load_arff"]


def load_arff(path, *, class_attribute=None, max_columns=None, max_line_bytes=None) -> Dataset:
    """Read an ARFF file (Weka's format) into a :class:`Dataset`.

    Parameters
    ----------
    path : str or path-like or file-like
        The ARFF file, or an open text stream.
    class_attribute : str or int, optional
        Name or 0-based index of the class attribute; by default the last
        attribute, as in Weka's command-line tools. The other attributes keep
        their file order in ``X``.
    max_columns : int, optional
        Most attributes the header may declare, checked before the data are parsed
        (default: the environment variable ``CALIBSIM_MAX_COLUMNS``, else 20,000).
    max_line_bytes : int, optional
        Longest line in characters (default: ``CALIBSIM_MAX_LINE_BYTES``, else 8 MiB).

    Returns
    -------
    Dataset
        Nominal values coded by their declaration order, ``?`` as NaN. A nominal
        class gives a classification set; a numeric class (``numeric``, ``real``,
        ``integer``) a regression set (``y`` float64, ``class_values == ()``), as
        Weka takes a numeric class.

    Raises
    ------
    ValueError
        If the file does not parse as ARFF; if it has a string, date or
        relational attribute other than as the class (unsupported); if the
        class attribute does not exist or is neither nominal nor numeric; if a
        class value is missing (for a numeric class the message counts them);
        if the file has no instances; or if it declares more than
        ``max_columns`` attributes or has a line longer than ``max_line_bytes`` (the
        message says how to raise the limit).

    Notes
    -----
    Parsed with liac-arff [1]_. Numbers are read with Python's correctly
    rounded ``float``, as Weka 3.6 reads them with ``Double.valueOf``, so both
    see identical doubles.

    References
    ----------
    .. [1] liac-arff, https://github.com/renatopp/liac-arff

    Examples
    --------
    >>> import io
    >>> text = '''@relation toy
    ... @attribute size numeric
    ... @attribute colour {red, green}
    ... @attribute class {yes, no}
    ... @data
    ... 1.5, red, yes
    ... ?, green, no
    ... '''
    >>> ds = load_arff(io.StringIO(text))
    >>> ds.X
    array([[1.5, 0. ],
           [nan, 1. ]])
    >>> ds.y, ds.n_values, ds.class_values
    (array([0, 1]), array([0, 2]), ('yes', 'no'))

    A numeric class makes a regression set:

    >>> reg = load_arff(io.StringIO(text.replace("?", "2.5")), class_attribute="size")
    >>> reg.task, reg.y, reg.class_name
    ('regression', array([1.5, 2.5]), 'size')
    """
    from ._csv import MAX_COLUMNS, MAX_LINE_BYTES, _limit
    max_columns = _limit(max_columns, "CALIBSIM_MAX_COLUMNS", MAX_COLUMNS, "max_columns")
    max_line_bytes = _limit(max_line_bytes, "CALIBSIM_MAX_LINE_BYTES", MAX_LINE_BYTES,
                            "max_line_bytes")
    if hasattr(path, "read"):
        text, where = path.read(), "<stream>"
    else:
        where = os.fspath(path)
        if os.path.exists(where) and not os.path.isfile(where):
            raise ValueError(f"ARFF file {where!r} is not a regular file (a device, pipe or "
                             "folder would be read forever or not at all).")
        try:
            with open(where, encoding="utf-8") as fh:
                text = fh.read()
        except UnicodeDecodeError as exc:
            raise ValueError(f"ARFF file {where!r} is not UTF-8 text (byte {exc.start}): is it "
                             "a binary file?") from None
    if not isinstance(text, str):
        raise TypeError(f"`path` must be an ARFF file name or a text stream; got a stream "
                        f"giving {type(text).__name__}.")
    _check_arff_bounds(text, where, max_columns, max_line_bytes)
    return _parse_arff(text, where, class_attribute)


def _check_arff_bounds(text: str, where: str, max_columns: int, max_line_bytes: int) -> None:
    """Refuse, before liac-arff parses it, a header declaring more than ``max_columns``
    attributes or a line longer than ``max_line_bytes`` characters."""
    import re

    from ._csv import _too_many
    data = re.search(r"^[ \t]*@data\b", text, re.IGNORECASE | re.MULTILINE)
    header = text[:data.start()] if data else text
    n_attrs = len(re.findall(r"^[ \t]*@attribute\b", header, re.IGNORECASE | re.MULTILINE))
    if n_attrs > max_columns:
        raise _too_many(f"ARFF file {where!r}: the header", n_attrs, max_columns,
                        "max_columns", "CALIBSIM_MAX_COLUMNS", "attributes")
    widest = max(map(len, text.splitlines()), default=0)
    if widest > max_line_bytes:
        raise _too_many(f"ARFF file {where!r}: a line", widest, max_line_bytes,
                        "max_line_bytes", "CALIBSIM_MAX_LINE_BYTES", "characters")


def _parse_arff(text: str, where: str, class_attribute, name=None) -> Dataset:
    """:func:`load_arff` on the text of a file; ``name`` overrides the relation name."""
    import arff  # liac-arff

    from ._dataset import _make

    try:
        raw = arff.loads(text, encode_nominal=True, return_type=arff.DENSE)
    except Exception as exc:  # liac-arff raises several exception types
        raise ValueError(f"could not parse {where!r} as ARFF: {exc}") from exc
    attrs = raw["attributes"]
    names = [a[0] for a in attrs]
    if class_attribute is None:
        ci = len(attrs) - 1
    elif isinstance(class_attribute, (int, np.integer)) and not isinstance(class_attribute, bool):
        ci = int(class_attribute)
        if not -len(attrs) <= ci < len(attrs):
            raise ValueError(f"`class_attribute` index {ci} is out of range for {where!r}, "
                             f"which has {len(attrs)} attributes.")
        ci %= len(attrs)
    elif class_attribute in names:
        ci = names.index(class_attribute)
    else:
        raise ValueError(f"`class_attribute` {class_attribute!r} is not an attribute of {where!r}; "
                         f"its attributes are {names}.")
    numeric_class = _is_numeric_type(attrs[ci][1])
    if not isinstance(attrs[ci][1], list) and not numeric_class:
        raise ValueError(f"the class attribute {names[ci]!r} of {where!r} must be nominal "
                         f"(classification) or numeric (regression); got type "
                         f"{attrs[ci][1]!r}.")
    cols = [j for j in range(len(attrs)) if j != ci]
    n_values, labels = [], []
    for j in cols:
        t = attrs[j][1]
        if isinstance(t, list):
            n_values.append(len(t))
            labels.append(tuple(t))
        elif _is_numeric_type(t):
            n_values.append(0)
            labels.append(None)
        else:
            raise ValueError(f"attribute {names[j]!r} of {where!r} has type {t!r}; only nominal "
                             "and numeric attributes are supported.")
    data = raw["data"]
    if len(data) == 0:
        raise ValueError(f"data set {raw['relation']!r} in {where!r} is empty: it has no "
                         "instances.")
    table = np.array([[np.nan if v is None else v for v in row] for row in data],
                     dtype=np.float64)
    yf = table[:, ci]
    if numeric_class:
        from ._dataset import _make_regression, _missing_target
        _missing_target(yf, f"the class attribute {names[ci]!r} of {where!r}")
        return _make_regression(name or raw["relation"], table[:, cols], yf, n_values,
                                [names[j] for j in cols], labels, names[ci])
    if np.isnan(yf).any():
        i = int(np.flatnonzero(np.isnan(yf))[0])
        raise ValueError(f"the class value of instance {i} of {where!r} is missing; remove "
                         "instances with a missing class first.")
    return _make(name or raw["relation"], table[:, cols], yf.astype(np.int64), n_values,
                 [names[j] for j in cols], labels, names[ci], attrs[ci][1])




def _is_numeric_type(t) -> bool:
    """Whether a liac-arff attribute type is numeric (``numeric``, ``real``, ``integer``)."""
    return isinstance(t, str) and t.upper() in ("NUMERIC", "REAL", "INTEGER")
