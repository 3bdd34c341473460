"""Data sets from calibsim's shipped UCI files, scikit-learn bunches and arrays."""

from __future__ import annotations

from importlib import resources

import numpy as np

from ._arff import _parse_arff
from ._dataset import Dataset, _make

__all__ = ["UCI_DATASETS", "REGRESSION_DATASETS", "load_uci", "from_sklearn", "from_arrays"]

#: The loaders of :mod:`sklearn.datasets` that ship a classification data set (X, y)
#: and are accepted as ``sklearn:<loader>``; the others return images, a regression or
#: multi-output target, or need a file argument.
SKLEARN_LOADERS = ("load_breast_cancer", "load_digits", "load_iris", "load_wine")
#: The loaders of :mod:`sklearn.datasets` that ship a regression data set (X, y) with one
#: numeric target and no download (``fetch_california_housing`` downloads, and
#: ``load_linnerud`` has three targets), also accepted as ``sklearn:<loader>``.
SKLEARN_REGRESSION_LOADERS = ("load_diabetes",)

#: Names accepted by :func:`load_uci`, one per file in ``calibsim/data/uci/``: Weka 3.6's
#: examples and, converted by ``scripts/convert_datasets.py`` from offline copies, more
#: of Bouckaert & Frank's (2004) UCI sets and of Ulas, Yildiz & Alpaydin's (2012) UCI and
#: Delve sets (sources and differences in the README there).
UCI_DATASETS = ("breast-cancer", "contact-lenses", "credit-g", "diabetes", "glass",
                "ionosphere", "iris", "labor", "soybean", "vote", "weather.nominal",
                "weather.numeric",
                # converted (appended, so the indices of the sets above stay as they were)
                "anneal", "audiology", "autos", "balance-scale", "breast-w", "colic",
                "credit-a", "ecoli", "lymph", "primary-tumor", "sonar", "vehicle", "vowel",
                "zoo",
                # converted for Ulas, Yildiz & Alpaydin (2012), appended likewise
                "bupa", "car", "cmc", "flags", "flare", "haberman", "heart-statlog",
                "hepatitis", "monks-2", "mushroom", "optdigits", "pendigits", "ringnorm",
                "segment", "spambase", "tae", "tic-tac-toe", "titanic", "twonorm", "wine",
                "yeast",
                # converted for Dietterich (1998), section 5; shipped gzip-compressed
                "letter")

#: The regression data sets (a numeric target) shipped in ``calibsim/data/regression/``,
#: also read by :func:`load_uci`: converted by ``scripts/convert_datasets.py --group
#: regression`` from Weka 3.6's examples (cpu) and Orange 2.7.8 (servo, auto-mpg); sources,
#: licences and differences from UCI's files in ``calibsim/data/uci/README.md``. Apart
#: from :data:`UCI_DATASETS`, whose every set has class labels.
REGRESSION_DATASETS = ("cpu", "servo", "auto-mpg")


def _uci_text(name: str) -> str:
    """The ARFF text of a shipped set: ``<name>.arff``, or ``<name>.arff.gz`` (gzip), in
    ``data/uci/`` (or, for :data:`REGRESSION_DATASETS`, ``data/regression/``)."""
    folder = resources.files("calibsim") / "data" / (
        "regression" if name in REGRESSION_DATASETS else "uci")
    plain = folder / f"{name}.arff"
    if plain.is_file():
        return plain.read_text(encoding="utf-8")
    import gzip
    return gzip.decompress((folder / f"{name}.arff.gz").read_bytes()).decode("utf-8")


def load_uci(name: str, *, class_attribute: str | None = None) -> Dataset:
    """Load one of the small UCI data sets shipped with calibsim.

    Parameters
    ----------
    name : str
        One of :data:`UCI_DATASETS` (classification), e.g. ``"iris"`` or
        ``"credit-g"``, or of :data:`REGRESSION_DATASETS` (a numeric target:
        ``"cpu"``, ``"servo"``, ``"auto-mpg"``); the files are those distributed with
        Weka 3.6's examples and others converted from offline copies (see
        ``calibsim/data/uci/README.md`` for attribution); ``"letter"`` (20000
        instances) is read from ``letter.arff.gz``.
    class_attribute : str, optional
        Name of the attribute to use as the class; default the last one, as in
        Weka. A nominal one gives a classification set, a numeric one a regression
        set.

    Returns
    -------
    Dataset

    Raises
    ------
    ValueError
        If ``name`` is not a shipped data set, or ``class_attribute`` is not one of
        its attributes, is neither nominal nor numeric, or has a missing value.

    Examples
    --------
    >>> ds = load_uci("iris")
    >>> ds
    Dataset(name='iris', n_instances=150, n_attributes=4 (0 nominal, 4 numeric), n_classes=3, missing=0)
    >>> load_uci("servo")
    Dataset(name='servo', n_instances=167, n_attributes=4 (2 nominal, 2 numeric), target 'class' (numeric), missing=0)
    """
    if name not in UCI_DATASETS and name not in REGRESSION_DATASETS:
        raise ValueError(f"`name` must be one of {list(UCI_DATASETS)} (classification) or "
                         f"{list(REGRESSION_DATASETS)} (regression); got {name!r}.")
    return _parse_arff(_uci_text(name), f"{name}.arff", class_attribute, name=name)


def from_sklearn(bunch, *, name=None, class_nominal=False) -> Dataset:
    """Convert a scikit-learn data bunch (e.g. ``load_iris()``) to a :class:`Dataset`.

    Parameters
    ----------
    bunch : sklearn.utils.Bunch
        With ``data`` (numeric, array or DataFrame of shape (n, a)) and
        ``target`` (class labels, or a numeric regression target);
        ``feature_names`` and ``target_names`` are used when present. Every
        attribute is taken as numeric.
    name : str, optional
        Name of the data set; defaults to ``"sklearn"``.
    class_nominal : bool, default False
        Declare a numeric ``target`` without ``target_names`` as class labels; without
        it one with a non-integer value or more than 30 distinct values is a
        regression target (e.g. ``load_diabetes()``).

    Returns
    -------
    Dataset
        Classification: class codes follow ``target_names`` when the target holds
        their indices, otherwise the sorted distinct target values. Regression (a
        numeric target as above): ``y`` the target as float64, named ``"target"``,
        ``class_values == ()``.

    Raises
    ------
    ValueError
        If ``data`` is not 2-D numeric, holds an infinite value, ``target``
        does not have one value per row or holds a missing (NaN) value, or the
        data set is empty.
    TypeError
        If ``bunch`` has no ``data`` or ``target`` (e.g. ``load_sample_images()``).

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes, load_iris
    >>> ds = from_sklearn(load_iris(), name="iris")
    >>> ds.n_values, ds.class_values
    (array([0, 0, 0, 0]), ('setosa', 'versicolor', 'virginica'))
    >>> from_sklearn(load_diabetes(), name="diabetes")
    Dataset(name='diabetes', n_instances=442, n_attributes=10 (0 nominal, 10 numeric), target 'target' (numeric), missing=0)
    """
    if not (hasattr(bunch, "data") and hasattr(bunch, "target")):
        raise TypeError(f"`bunch` must be a data set with `data` and `target` (as load_iris() "
                        f"or load_diabetes() returns); got {type(bunch).__name__} without "
                        "them.")
    X = np.asarray(bunch.data, dtype=np.float64)
    target = np.asarray(bunch.target)
    if X.ndim != 2 or target.shape != (X.shape[0],):
        raise ValueError(f"`bunch.data` must be 2-D with one `bunch.target` value per row; got "
                         f"shapes {X.shape} and {target.shape}.")
    names = getattr(bunch, "feature_names", None)      # a list or a numpy array
    names = [f"x{j}" for j in range(X.shape[1])] if names is None or len(names) == 0 else [
        str(v) for v in names]
    tn = getattr(bunch, "target_names", None)
    if tn is None or len(tn) == 0:
        from ._dataset import _is_regression_target, _make_regression, _missing_target
        if _is_regression_target(target, class_nominal):
            _missing_target(target, "`bunch.target`")
            return _make_regression(name or "sklearn", X, target, np.zeros(X.shape[1], np.int64),
                                    names, [None] * X.shape[1], "target")
    if (tn is not None and np.issubdtype(target.dtype, np.integer) and target.size
            and target.min() >= 0 and target.max() < len(tn)):
        y, class_values = target.astype(np.int64), [str(t) for t in tn]
    else:
        if target.size and target.dtype.kind == "f" and np.isnan(target).any():
            raise ValueError("`bunch.target` must not hold missing (NaN) class values.")
        class_values, y = np.unique(target, return_inverse=True)
    return _make(name or "sklearn", X, y.reshape(-1), np.zeros(X.shape[1], np.int64), names,
                 [None] * X.shape[1], "class", class_values)


def from_arrays(X, y, *, n_values=None, name="arrays", attribute_names=None,
                allow_missing: bool = True) -> Dataset:
    """Build a :class:`Dataset` from arrays.

    Parameters
    ----------
    X : array_like of shape (n_instances, n_attributes)
        Attribute values. NaN marks a missing value, in nominal and numeric
        attributes alike; infinite values are rejected.
    y : array_like of shape (n_instances,)
        Class labels of any sortable type, never missing; codes follow the
        sorted distinct labels (``np.unique``).
    n_values : array_like of shape (n_attributes,), optional
        Number of values of each nominal attribute, 0 for a numeric one. By
        default an integer or boolean ``X`` is all nominal with
        ``X.max(axis=0) + 1`` values, and a float ``X`` all numeric.
    name : str, default "arrays"
    attribute_names : sequence of str, optional
        Defaults to ``x0, x1, ...``.
    allow_missing : bool, default True
        Whether NaN may mark missing values. With False, a NaN anywhere in
        ``X`` is an error (data that should be complete).

    Returns
    -------
    Dataset

    Raises
    ------
    ValueError
        If ``X`` is not 2-D numeric with at least one row, ``y`` is not 1-D
        with one label per row or holds a missing (NaN/None) label,
        ``n_values`` does not have one non-negative integer per column, a
        nominal column holds a value that is not a code below its
        ``n_values``, or ``X`` holds NaN while ``allow_missing`` is False.

    Examples
    --------
    >>> ds = from_arrays([[0, 1.5], [1, float("nan")], [2, -0.5]], ["a", "b", "a"],
    ...                  n_values=[3, 0])
    >>> ds.y, ds.class_values, ds.has_missing
    (array([0, 1, 0]), ('a', 'b'), True)
    """
    Xa = np.asarray(X)
    if Xa.ndim != 2:
        raise ValueError(f"`X` must be a 2-D array of shape (n_instances, n_attributes); got "
                         f"shape {Xa.shape}.")
    if Xa.dtype == bool:
        Xa = Xa.astype(np.int64)
    if not (np.issubdtype(Xa.dtype, np.integer) or np.issubdtype(Xa.dtype, np.floating)):
        raise ValueError(f"`X` must be numeric (codes or values); got dtype {Xa.dtype}.")
    if not allow_missing and np.issubdtype(Xa.dtype, np.floating) and np.isnan(Xa).any():
        i, j = np.argwhere(np.isnan(Xa))[0]
        raise ValueError(f"`X` holds NaN (row {int(i)}, column {int(j)}) but missing values are "
                         f"not declared: pass `allow_missing=True` if NaN marks a missing value.")
    ya = np.asarray(y)
    if ya.ndim != 1 or ya.shape[0] != Xa.shape[0]:
        raise ValueError(f"`y` must be 1-D with one label per row of `X`; got shape {ya.shape} "
                         f"for {Xa.shape[0]} rows.")
    if ya.dtype == object and any(v is None for v in ya.tolist()):
        raise ValueError("`y` must not hold missing (None) class labels.")
    if ya.dtype.kind == "f" and np.isnan(ya).any():
        raise ValueError("`y` must not hold missing (NaN) class labels.")
    a = Xa.shape[1]
    if n_values is None:
        if np.issubdtype(Xa.dtype, np.integer):
            if Xa.size and Xa.min() < 0:
                raise ValueError(f"integer `X` must hold non-negative codes; got {Xa.min()!r}.")
            nv = (Xa.max(axis=0) + 1) if Xa.shape[0] else np.ones(a, np.int64)
        else:
            nv = np.zeros(a, np.int64)
    else:
        nv = np.asarray(n_values)
        if nv.shape != (a,) or not np.issubdtype(nv.dtype, np.integer) or (nv < 0).any():
            raise ValueError(f"`n_values` must be {a} non-negative integers (0 = numeric), one "
                             f"per column of `X`; got {n_values!r}.")
    if Xa.shape[0] == 0:
        raise ValueError(f"data set {name!r} is empty: it must have at least one instance; "
                         f"got `X` with shape {Xa.shape}.")
    class_values, y_codes = np.unique(ya, return_inverse=True)
    names = list(attribute_names) if attribute_names is not None else [f"x{j}" for j in range(a)]
    if len(names) != a:
        raise ValueError(f"`attribute_names` must have {a} names; got {len(names)}.")
    labels = [None if v == 0 else tuple(str(k) for k in range(v)) for v in nv.tolist()]
    return _make(name, Xa, y_codes.reshape(-1), nv, names, labels, "class", class_values)


def dataset_table():
    """The shipped data sets: one row each, for ``calibsim list datasets``.

    Returns
    -------
    pandas.DataFrame
        Columns ``name, instances, attributes, nominal, numeric, classes, missing``
        (number of missing values) and ``source`` (from the file's header comment;
        "Weka 3.6 examples" for the files copied unchanged from Weka).

    Examples
    --------
    >>> from calibsim.datasets._loaders import dataset_table
    >>> t = dataset_table()
    >>> len(t) == len(UCI_DATASETS), t.loc[t.name == "vote", "instances"].item()
    (True, 435)
    """
    import pandas as pd
    from importlib import resources
    rows = []
    for name in UCI_DATASETS:
        ds = load_uci(name)
        text = _uci_text(name)[:4000]
        source = next((line[len("% Source:"):].split(",")[0].strip().rstrip(".") for line in
                       text.splitlines() if line.startswith("% Source:")), "Weka 3.6 examples")
        n_num = int(ds.is_numeric.sum())
        rows.append({"name": name, "instances": ds.X.shape[0], "attributes": ds.X.shape[1],
                     "nominal": ds.X.shape[1] - n_num, "numeric": n_num,
                     "classes": ds.n_classes, "missing": int(np.isnan(ds.X).sum()),
                     "source": source})
    return pd.DataFrame(rows)


def load_file(path, *, class_attribute=None, format=None, class_nominal=False):
    """Read a data file as ARFF or CSV, by ``format`` or else by its extension.

    Parameters
    ----------
    path : str or path-like
    class_attribute : str, optional
        The class column (default: the last).
    format : {"arff", "csv"}, optional
        Default: ``"csv"`` for a ``.csv`` file, ``"arff"`` otherwise.
    class_nominal : bool, default False
        For a CSV file: declare a numeric class column as labels (see
        :func:`calibsim.datasets.load_csv`).

    Returns
    -------
    calibsim.datasets.Dataset

    Raises
    ------
    ValueError
        If ``format`` is neither, or the file cannot be read as that format.
    FileNotFoundError
        If the file does not exist.
    """
    from pathlib import Path

    from ._arff import load_arff
    from ._csv import load_csv
    fmt = format or ("csv" if Path(path).suffix.lower() == ".csv" else "arff")
    if fmt not in ("arff", "csv"):
        raise ValueError(f"`format` must be 'arff' or 'csv'; got {format!r}.")
    if fmt == "csv":
        return load_csv(path, class_attribute=class_attribute, class_nominal=class_nominal)
    return load_arff(path, class_attribute=class_attribute)
