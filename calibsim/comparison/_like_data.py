"""The user's data for ``calibrate --like`` and ``plan``: where it comes from and its shape
in words (shared by :mod:`._calibrate_like`, :mod:`._damage` and :mod:`._plan`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["data_source"]


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


def _describe_data(dataset, label) -> str:
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
