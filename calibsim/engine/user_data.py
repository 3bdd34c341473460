"""The user's data for ``calibrate --like``, ``calibrate_damage`` and ``plan``: where it comes
from and its shape in words (shared by :func:`calibsim.calibrate_like`,
:mod:`calibsim.engine.damage` and :mod:`calibsim.engine.planning`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["data_source", "resolve_data", "describe_data"]


def data_source(data: str) -> dict:
    """A study's dataset-source keys for ``data``: a shipped UCI name, an ARFF path or a
    scikit-learn loader (``"load_breast_cancer"`` or ``"sklearn:load_breast_cancer"``).

    Raises
    ------
    ValueError
        If ``data`` is none of these (the message lists the shipped names).
    """
    from ..datasets import UCI_DATASETS
    text = str(data)
    if text in UCI_DATASETS:
        return {"name": text}
    if text.startswith("sklearn:") or text.startswith("load_"):
        return {"sklearn": text.removeprefix("sklearn:")}
    if Path(text).suffix.lower() in (".arff", ".csv"):
        return {"path": str(Path(text).resolve())}
    raise ValueError(f"`data` must be a shipped data set {list(UCI_DATASETS)}, an ARFF or CSV file "
                     f"or a scikit-learn loader such as 'sklearn:load_iris'; got {data!r}.")


def resolve_data(X, y=None):
    """``(data, y)`` as :func:`calibsim.compare` takes them; a string or path is loaded as
    ``calibsim compare --data`` loads it (a shipped name, a CSV or ARFF file, a
    scikit-learn loader)."""
    if isinstance(X, (str, Path)):
        if y is not None:
            raise ValueError("`y` must be None when `X` names a data set (it holds its class).")
        from ..datasets import load_csv
        from ..sources import DatasetSource
        if Path(str(X)).suffix.lower() == ".csv":
            return load_csv(str(X)), None
        return DatasetSource(**data_source(str(X))).dataset, None
    return X, y


def describe_data(dataset, label) -> str:
    """"breast-cancer: 286 instances, 9 attributes (9 nominal), 2 classes (70.3% / 29.7%)"."""
    y = np.asarray(dataset.y)
    counts = np.bincount(y, minlength=dataset.n_classes)
    shares = " / ".join(f"{100 * c / counts.sum():.1f}%" for c in counts)
    n_num = int(np.sum(dataset.is_numeric))
    kinds = ", ".join(p for p in (f"{dataset.X.shape[1] - n_num} nominal" if
                                  dataset.X.shape[1] - n_num else "",
                                  f"{n_num} numeric" if n_num else "") if p)
    missing = int(np.isnan(np.asarray(dataset.X, dtype=float)).sum())
    return (f"{label}: {dataset.X.shape[0]} instances, {dataset.X.shape[1]} attributes "
            f"({kinds}), {dataset.n_classes} classes (prior {shares})"
            + (f", {missing} missing values" if missing else ""))
