"""Reading a CSV file into a :class:`calibsim.datasets.Dataset` (pandas does the parsing)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["load_csv"]


def load_csv(path, *, class_attribute=None):
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

    Returns
    -------
    calibsim.datasets.Dataset

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    ValueError
        If the class column is unknown or holds a missing value, two columns share a
        header, a value or header holds a NUL character, or the file has no attribute
        column or no row.

    Examples
    --------
    >>> p = getfixture("tmp_path") / "toy.csv"
    >>> _ = p.write_text("outlook,temp,play\\nsunny,85,no\\nrainy,,yes\\nsunny,70,yes\\n")
    >>> ds = load_csv(p)
    >>> ds.n_values, ds.class_values, ds.has_missing
    (array([2, 0]), ('no', 'yes'), True)
    """
    import pandas as pd

    from ._dataset import _make
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"`path` {str(p)!r} does not exist.")
    if not p.is_file():
        raise ValueError(f"`path` {str(p)!r} is not a regular file (a folder, device or FIFO).")
    _refuse_nul(p)
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
    if target.isna().any():
        raise ValueError(f"the class column {cls!r} of {p} must not hold missing values; row "
                         f"{int(np.flatnonzero(target.isna())[0])} does.")
    columns, n_values, labels = [], [], []
    for name in frame.columns:
        col = frame[name]
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
    class_values, y = np.unique(target.astype(str).to_numpy(), return_inverse=True)
    X = np.column_stack(columns)
    return _make(p.stem, X, y.reshape(-1), np.asarray(n_values, np.int64),
                 [str(c) for c in frame.columns], labels, str(cls), class_values)


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
