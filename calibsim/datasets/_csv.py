"""Reading a CSV file into a :class:`calibsim.datasets.Dataset` (pandas does the parsing)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

__all__ = ["load_csv"]

#: Default bounds on a data file, checked before it is parsed; raised per call with
#: ``max_columns`` / ``max_line_bytes`` or for every reader (CLI, study files, workers)
#: with the environment variables ``CALIBSIM_MAX_COLUMNS`` / ``CALIBSIM_MAX_LINE_BYTES``.
MAX_COLUMNS = 20_000
MAX_LINE_BYTES = 8 * 2**20


def _limit(value, env: str, default: int, param: str) -> int:
    """The bound ``value``, else the environment variable ``env``, else ``default``."""
    where = f"`{param}`"
    if value is None:
        text = os.environ.get(env)
        if text is None:
            return default
        value, where = text.strip(), f"the environment variable {env}"
        try:
            value = int(value)
        except ValueError:
            raise ValueError(f"{where} must be a positive integer; got {text!r}.") from None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{where} must be a positive integer; got {value!r}.")
    return int(value)


def _too_many(what: str, count: int, limit: int, param: str, env: str, unit: str) -> ValueError:
    return ValueError(f"{what} has {count:,} {unit}, more than the limit of {limit:,} "
                      f"(`{param}`); raise it with {env}=N in the environment (or "
                      f"`{param}=` in the API) if the file is meant to be this wide.")


def _check_csv_bounds(p: Path, max_columns: int, max_line_bytes: int) -> None:
    """Refuse, before pandas reads the body, a header with too many columns, a line
    longer than ``max_line_bytes`` or a NUL byte (pandas would cut or keep it silently)."""
    import csv
    import io
    with open(p, "rb") as fh:
        head = fh.readline(max_line_bytes + 1)
        if len(head) > max_line_bytes and not head.endswith(b"\n"):
            raise _too_many(f"CSV file {p}: the header line", len(head) - 1, max_line_bytes,
                            "max_line_bytes", "CALIBSIM_MAX_LINE_BYTES", "bytes or more")
        text = head.decode("utf-8", errors="replace")
        n_cols = len(next(csv.reader(io.StringIO(text)), []))
        if n_cols > max_columns:
            raise _too_many(f"CSV file {p}: the header", n_cols, max_columns, "max_columns",
                            "CALIBSIM_MAX_COLUMNS", "columns")
        fh.seek(0)
        offset, run = 0, 0       # run: bytes since the last newline
        while chunk := fh.read(1 << 20):
            at = chunk.find(b"\x00")
            if at >= 0:
                raise ValueError(f"CSV file {p} holds a NUL byte at offset {offset + at} (is "
                                 "it a binary file?); values must be text without NUL.")
            nl = np.flatnonzero(np.frombuffer(chunk, np.uint8) == 10)
            if nl.size == 0:
                widest = run + len(chunk)
                run = widest
            else:
                widest = max(run + int(nl[0]), int(np.diff(nl).max(initial=0)))
                run = len(chunk) - int(nl[-1]) - 1
            if widest > max_line_bytes:
                raise _too_many(f"CSV file {p}: a line near byte {offset:,}", widest,
                                max_line_bytes, "max_line_bytes", "CALIBSIM_MAX_LINE_BYTES",
                                "bytes or more")
            offset += len(chunk)


def load_csv(path, *, class_attribute=None, class_nominal=False, max_columns=None,
             max_line_bytes=None):
    """Load a CSV file with a header row; the class is the last column unless named.

    Columns that pandas reads as numbers are numeric attributes; any other column is a
    nominal attribute whose values, in sorted order, get the codes 0, 1, ... . Empty
    cells, pandas' default NA markers (``NA``, ``NaN``, ...) and ``?`` (Weka's and the
    UCI repository's marker) are missing values.

    Parameters
    ----------
    path : str or path-like
    class_attribute : str, optional
        Header of the class column (default: the last column).
    class_nominal : bool, default False
        Declare a numeric class column as class labels. Without it a numeric class
        with a non-integer value or more than 30 distinct values is a regression
        target: the data set is a regression set (``y`` float64, ``class_values ==
        ()``). A class column of text is always class labels.
    max_columns : int, optional
        Most columns the header may have, checked on the header before the body is
        parsed (default: the environment variable ``CALIBSIM_MAX_COLUMNS``, else 20,000).
    max_line_bytes : int, optional
        Longest line in bytes (default: ``CALIBSIM_MAX_LINE_BYTES``, else 8 MiB).

    Returns
    -------
    calibsim.datasets.Dataset
        A classification set, or a regression set for a numeric target (see
        ``class_nominal``).

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    ValueError
        If the class column is unknown or holds a missing value (the message counts
        them), two columns share a header, a value or header holds a NUL character,
        the file has no attribute column or no row, a number is too large for
        float64, or it is wider than ``max_columns`` or ``max_line_bytes``
        (the message says how to raise the limit).

    Examples
    --------
    >>> p = getfixture("tmp_path") / "toy.csv"
    >>> _ = p.write_text("outlook,temp,play\\nsunny,85,no\\nrainy,,yes\\nsunny,70,yes\\n")
    >>> ds = load_csv(p)
    >>> ds.n_values, ds.class_values, ds.has_missing
    (array([2, 0]), ('no', 'yes'), True)

    A numeric class with non-integer values is a regression target:

    >>> _ = p.write_text("outlook,temp,hours\\nsunny,85,1.5\\nrainy,,0.25\\nsunny,70,2\\n")
    >>> reg = load_csv(p)
    >>> reg.task, reg.y, reg.class_name
    ('regression', array([1.5 , 0.25, 2.  ]), 'hours')
    """
    import pandas as pd

    from ._dataset import _is_regression_target, _make, _make_regression
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"`path` must be a file name (str or path-like); got "
                        f"{type(path).__name__} {path!r}.")
    max_columns = _limit(max_columns, "CALIBSIM_MAX_COLUMNS", MAX_COLUMNS, "max_columns")
    max_line_bytes = _limit(max_line_bytes, "CALIBSIM_MAX_LINE_BYTES", MAX_LINE_BYTES,
                            "max_line_bytes")
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"`path` {str(p)!r} does not exist.")
    if not p.is_file():
        raise ValueError(f"`path` {str(p)!r} is not a regular file (a folder, device or FIFO).")
    _check_csv_bounds(p, max_columns, max_line_bytes)
    try:
        frame = pd.read_csv(p, encoding="utf-8", na_values=["?"])
        _refuse_duplicate_headers(p, f"CSV file {p}")
    except UnicodeDecodeError as exc:
        raise ValueError(f"CSV file {p} is not UTF-8 text (byte {exc.start}: "
                         f"{exc.reason}); is it a binary file?") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise ValueError(f"CSV file {p} cannot be read as CSV: {str(exc).strip()}") from None
    if frame.shape[1] < 2 or frame.shape[0] < 1:
        raise ValueError(f"CSV file {p} must have a header, at least one row and at least two "
                         f"columns (attributes and the class); got shape {frame.shape}.")
    cls = frame.columns[-1] if class_attribute is None else class_attribute
    if cls not in frame.columns:
        raise ValueError(f"`class_attribute` must be one of the columns {list(frame.columns)}; "
                         f"got {class_attribute!r}.")
    target = frame.pop(cls)
    numeric = (pd.api.types.is_numeric_dtype(target)
               and not pd.api.types.is_bool_dtype(target))
    regression = numeric and _is_regression_target(target.to_numpy(dtype=np.float64),
                                                   class_nominal)
    if target.isna().any():
        missing = target.isna().to_numpy()
        raise ValueError(f"the class column {cls!r} of {p} must not hold missing values; row "
                         f"{int(np.flatnonzero(missing)[0])} does ({int(missing.sum())} of "
                         f"{missing.size} rows are missing"
                         + (", in a numeric (regression) target)." if regression else ")."))
    columns, n_values, labels = [], [], []
    for name in frame.columns:
        col = _as_numbers(frame[name], name, p)
        if pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col):
            columns.append(col.to_numpy(dtype=np.float64))
            n_values.append(0)
            labels.append(None)
        else:
            values = sorted(col.dropna().astype(str).unique())
            codes = col.astype("string").map({v: i for i, v in enumerate(values)})
            columns.append(codes.to_numpy(dtype=np.float64, na_value=np.nan))
            n_values.append(max(1, len(values)))
            labels.append(tuple(values))
    X = np.column_stack(columns)
    if regression:
        return _make_regression(p.stem, X, target.to_numpy(dtype=np.float64),
                                np.asarray(n_values, np.int64),
                                [str(c) for c in frame.columns], labels, str(cls))
    class_values, y = np.unique(target.astype(str).to_numpy(), return_inverse=True)
    return _make(p.stem, X, y.reshape(-1), np.asarray(n_values, np.int64),
                 [str(c) for c in frame.columns], labels, str(cls), class_values)


_NUMBER = r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?"


def _as_numbers(col, name, p):
    """A text column whose every value is a number (pandas leaves integers too long for
    int64 as text) as float64; refused if a value is beyond float64's range."""
    import pandas as pd
    if col.dtype != object:
        return col
    text = col.dropna().astype(str).str.strip()
    if text.empty or not text.str.fullmatch(_NUMBER).all():
        return col
    values = pd.to_numeric(text.map(float), errors="raise")
    if np.isinf(values).any():
        i = int(np.flatnonzero(np.isinf(values.to_numpy()))[0])
        raise ValueError(f"column {name!r} of CSV file {p} holds the number "
                         f"{text.iloc[i][:20]}... ({len(text.iloc[i])} characters), beyond "
                         "float64's range (about 1.8e308); scale the column.")
    return pd.Series(values.reindex(col.index), index=col.index, dtype=np.float64)


def _refuse_nul(p: Path) -> None:
    """Refuse a file holding a NUL byte (pandas would cut or keep it silently)."""
    with open(p, "rb") as fh:
        offset = 0
        while chunk := fh.read(1 << 20):
            at = chunk.find(b"\x00")
            if at >= 0:
                raise ValueError(f"CSV file {p} holds a NUL byte at offset {offset + at} (is it "
                                 "a binary file?); values must be text without NUL.")
            offset += len(chunk)


def _refuse_duplicate_headers(p: Path, what: str) -> None:
    """Refuse two columns of one name (pandas would rename the second ``a.1`` silently)."""
    import pandas as pd
    header = pd.read_csv(p, encoding="utf-8", header=None, nrows=1, dtype=str,
                         keep_default_na=False).iloc[0].tolist()
    seen: dict = {}
    for j, name in enumerate(header):
        if name in seen:
            raise ValueError(f"{what}: columns {seen[name]} and {j} share the header "
                             f"{name!r}; give every column its own name.")
        seen[name] = j
