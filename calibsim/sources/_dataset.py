"""A real data set as a study source: the same data in every repeat, new partitions each time."""

from __future__ import annotations

import difflib
import hashlib
from pathlib import Path

import numpy as np

from .._validation import check_random_state

__all__ = ["DatasetSource"]


def _digest(dataset) -> str:
    """12 hex digits of SHA-256 over the data (X, y, n_values): a changed file or loader
    gives a new identity, so saved scores of the old data are never reused."""
    h = hashlib.sha256()
    for a in (dataset.X, dataset.y, dataset.n_values):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:12]


def _one_vs_rest(dataset, positive):
    """``dataset`` with class ``positive`` (a label of its ``class_values``) as class 0
    and every other class as class 1, ``"rest"``."""
    from dataclasses import replace
    values = tuple(str(v) for v in dataset.class_values)
    if not isinstance(positive, str) or positive not in values:
        hit = difflib.get_close_matches(str(positive), values, n=1)
        raise ValueError(f"`positive_class` must be one of the data set's classes {list(values)}; "
                         f"got {positive!r}" + (f" (did you mean {hit[0]!r}?)." if hit else "."))
    k = values.index(positive)
    y = np.where(np.asarray(dataset.y) == k, 0, 1).astype(np.int64)
    rest = "rest" if positive != "rest" else "other"
    return replace(dataset, name=f"{dataset.name}-{positive}-vs-rest", y=y,
                   class_values=(positive, rest))


def _check_subsample(value, n: int) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not 0 < value <= 1:
        raise ValueError(f"`subsample` must be a share of the instances in (0, 1]; got {value!r}.")
    if value < 1 and int(np.floor(value * n)) < 2:
        raise ValueError(f"`subsample` {value!r} of {n} instances leaves fewer than 2; give a "
                         "larger share.")
    return float(value)


class DatasetSource:
    """A fixed data set: shipped UCI file, ARFF or CSV file or scikit-learn loader.

    A classification set (class labels) or a regression set (a numeric target:
    :attr:`is_regression`, ``y`` float64, ``n_classes`` 0; a shipped
    :data:`calibsim.datasets.REGRESSION_DATASETS` set, a file whose class is numeric,
    ``sklearn="load_diabetes"``). Its identity says ``task=regression`` for a
    regression set, so it never equals a classification identity.

    Give exactly one of ``name``, ``path`` or ``sklearn``. Data set index i of a study
    source is the same data for every i (``sample`` ignores its ``rng``); what differs
    between indices are the partitions, drawn from the index's own seeds, so i is an
    independent repeat of every scheme on the same data.

    Parameters
    ----------
    name : str, optional
        A shipped UCI data set (:data:`calibsim.datasets.UCI_DATASETS`, or a regression
        set of :data:`calibsim.datasets.REGRESSION_DATASETS`).
    path : str or path-like, optional
        An ARFF or CSV file (by ``format``, else by extension: ``.csv`` is CSV).
    sklearn : str, optional
        A loader of :mod:`sklearn.datasets` that ships a data set: classification
        ``"load_breast_cancer"``, ``"load_digits"``, ``"load_iris"`` or ``"load_wine"``;
        regression ``"load_diabetes"``.
    class_attribute : str, optional
        Class attribute of an ARFF or CSV file (default: the last); part of the
        source's identity, so a store never mixes two class columns.
    format : {"arff", "csv"}, optional
        How to read ``path`` (default: by extension).
    class_nominal : bool, default False
        Declare a numeric class column of a CSV file as class labels (else one with a
        non-integer value or more than 30 distinct values is a regression target);
        part of the source's identity when True.
    permute_class : bool, default False
        Make null data sets shaped like this one: each index draws a random
        permutation of the class labels (of a regression set: of the target values)
        from its ``rng``, so the attributes, their
        missing values and the class prior stay as they are but the class no longer
        depends on the attributes. That does **not** make two learners equally good:
        on a permuted null every learner's expected accuracy is the chance accuracy
        of its predictions, sum over classes c of P(class c) x (share of c among its
        predictions), which is highest for a learner that falls back on the majority
        class. With an unbalanced prior C4.5 (majority leaf) beats naive Bayes (it
        fits the noise): on breast-cancer (prior 70/30) 70.2% vs 67.1%. To calibrate
        a test on data like these, balance the classes (``balance_class``) and centre
        the differences on their null mean (``null = "centred"`` of a calibrate
        analysis), as :func:`calibsim.calibrate_like` does. On a regression set the
        target no longer depends on the attributes either, and a learner's expected
        squared error is that of its predictions against the target's marginal.
    balance_class : bool, default False
        With ``permute_class``: permute a label vector with (as nearly as possible)
        equal class counts instead of the data's own, so every learner's expected
        accuracy under stratified cross-validation is 1/C whatever it predicts
        (the class prior is then not the data's). Compared with the other
        constructions in ``studies/null_construction.toml``. Refused for a
        regression set (it has no classes).
    positive_class : str, optional
        One class against the rest: the named class label (one of the data set's
        ``class_values``) becomes class 0, every other class class 1 (labelled
        ``"rest"``), e.g. ``name = "glass"``, ``positive_class = "headlamps"``. Part of
        the source's identity. Refused for a regression set.
    subsample : float, default 1
        Share of the instances in each data set, in (0, 1]: below 1 every index draws
        its own random subsample of ``floor(subsample * n)`` instances without
        replacement from its ``rng`` (new data per repeat, as Dietterich 1998, §5,
        drew his data sets of 300 from a larger pool); 1 keeps all the data in every
        repeat. Part of the source's identity when below 1.

    Raises
    ------
    ValueError
        If not exactly one of ``name``, ``path``, ``sklearn`` is given, or the name or
        loader is unknown or not a loader of a classification or regression set (the
        message names the closest known one); if ``positive_class`` is not a class of
        the data set; if ``balance_class`` or ``positive_class`` is given for a
        regression set; if ``subsample`` is outside (0, 1] or leaves fewer than 2
        instances.
    FileNotFoundError
        If ``path`` does not exist.

    Examples
    --------
    >>> src = DatasetSource("iris")
    >>> src.identity, src.n_instances, src.n_classes, src.is_nominal_codes
    ('dataset(name=iris, sha256=ec791dccf153)', 150, 3, False)
    >>> reg = DatasetSource("cpu", permute_class=True)
    >>> reg.is_regression, reg.n_classes, reg.identity
    (True, 0, 'dataset(name=cpu, sha256=a8f17c5b21b8, task=regression, permute_class=True)')
    >>> X, y = reg.sample(rng=0)
    >>> y.dtype.name, sorted(y) == sorted(reg.dataset.y)
    ('float64', True)
    """

    def __init__(self, name=None, *, path=None, sklearn=None, class_attribute=None,
                 permute_class=False, balance_class=False, format=None, class_nominal=False,
                 positive_class=None, subsample=1.0):
        given = [k for k, v in (("name", name), ("path", path), ("sklearn", sklearn))
                 if v is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of `name`, `path` or `sklearn`; got "
                             f"{given or 'none'}.")
        from ..datasets import REGRESSION_DATASETS, UCI_DATASETS, from_sklearn, load_uci
        from ..datasets._loaders import load_file
        if name is not None:
            if name not in UCI_DATASETS and name not in REGRESSION_DATASETS:
                known = UCI_DATASETS + REGRESSION_DATASETS
                hit = difflib.get_close_matches(str(name), known, n=1)
                raise ValueError(f"`name` must be one of {list(UCI_DATASETS)} (classification) "
                                 f"or {list(REGRESSION_DATASETS)} (regression); got {name!r}"
                                 + (f" (did you mean {hit[0]!r}?)." if hit else "."))
            self.dataset = load_uci(name, class_attribute=class_attribute)
            self.identity = f"dataset(name={name}, sha256={_digest(self.dataset)})"
        elif path is not None:
            p = Path(path)
            if not p.is_file():
                raise FileNotFoundError(f"`path` {str(p)!r} does not exist.")
            self.dataset = load_file(p, class_attribute=class_attribute, format=format,
                                     class_nominal=class_nominal)
            digest = hashlib.sha256(p.read_bytes()).hexdigest()[:12]
            self.identity = f"dataset(path={p.name}, sha256={digest})"
        else:
            import sklearn.datasets as skd
            from ..datasets._loaders import SKLEARN_LOADERS, SKLEARN_REGRESSION_LOADERS
            known = SKLEARN_LOADERS + SKLEARN_REGRESSION_LOADERS
            if not isinstance(sklearn, str) or sklearn not in known:
                hit = difflib.get_close_matches(str(sklearn), known, n=1)
                why = (" (it does not return a classification or regression data set (X, y) "
                       "that ships with scikit-learn)"
                       if isinstance(sklearn, str) and hasattr(skd, sklearn) else "")
                raise ValueError(f"`sklearn` must name one of scikit-learn's shipped "
                                 f"classification loaders {list(SKLEARN_LOADERS)} or regression "
                                 f"loaders {list(SKLEARN_REGRESSION_LOADERS)}; got "
                                 f"{sklearn!r}{why}"
                                 + (f" (did you mean {hit[0]!r}?)." if hit and not why
                                    else "."))
            self.dataset = from_sklearn(getattr(skd, sklearn)(),
                                        name=sklearn.removeprefix("load_"))
            self.identity = f"dataset(sklearn={sklearn}, sha256={_digest(self.dataset)})"
        if class_attribute is not None:     # another class column is another data set
            self.identity = self.identity[:-1] + f", class_attribute={class_attribute})"
        if class_nominal:
            self.identity = self.identity[:-1] + ", class_nominal=True)"
        self.is_regression = bool(self.dataset.is_regression)
        if self.is_regression:              # never equal to a classification identity
            self.identity = self.identity[:-1] + ", task=regression)"
            for key, value in (("positive_class", positive_class),
                               ("balance_class", balance_class or None)):
                if value is not None:
                    raise ValueError(f"`{key}` applies to class labels, and data set "
                                     f"{self.dataset.name!r} has a numeric (regression) "
                                     f"target {self.dataset.class_name!r}; got {key}={value!r}.")
        if positive_class is not None:
            self.dataset = _one_vs_rest(self.dataset, positive_class)
            self.identity = self.identity[:-1] + f", positive_class={positive_class})"
        self.subsample = _check_subsample(subsample, self.dataset.X.shape[0])
        if self.subsample < 1.0:
            self.identity = self.identity[:-1] + f", subsample={self.subsample:g})"
        self.permute_class = bool(permute_class)
        self.balance_class = bool(balance_class)
        if self.balance_class and not self.permute_class:
            raise ValueError("`balance_class` needs `permute_class` (it chooses which labels "
                             "are permuted); got balance_class=True, permute_class=False.")
        if self.permute_class:
            self.identity = self.identity[:-1] + ", permute_class=True)"
        if self.balance_class:
            self.identity = self.identity[:-1] + ", balance_class=True)"
        self.n_values = np.asarray(self.dataset.n_values, np.int64)
        self.n_classes = int(self.dataset.n_classes)
        self.n_instances = int(self.dataset.X.shape[0])

    @property
    def is_nominal_codes(self) -> bool:
        """True when every attribute is nominal and nothing is missing (the fast path)."""
        return bool((self.n_values > 0).all() and not self.dataset.has_missing)

    def X_int(self, X=None) -> np.ndarray:
        """The attributes as int64 codes (only when :attr:`is_nominal_codes`): of the
        whole data set, or of ``X`` (rows :meth:`sample` returned, e.g. a subsample)."""
        if X is not None:
            return np.asarray(X).astype(np.int64)
        return self.dataset.nominal_codes()

    def sample(self, rng=None):
        """The data ``(X, y)``: float64 (n, a) and int64 (n,) (a regression set: float64).

        The same for every ``rng`` unless ``subsample`` or ``permute_class``. With
        ``subsample`` below 1, ``rng`` (a Generator, SeedSequence or seed, required)
        first draws ``floor(subsample * n)`` instances without replacement (kept in
        their order in the data set). With ``permute_class`` ``y`` is then a random
        permutation of the class labels (or target values) drawn from ``rng``: of the
        data's own labels,
        or with ``balance_class`` of n labels with class counts differing by at most
        one (the first n mod C classes one more).
        """
        X, y = np.array(self.dataset.X), np.array(self.dataset.y)
        if self.subsample < 1.0:
            if rng is None:
                raise ValueError("`rng` is required to draw a subsample of the instances.")
            rng = np.random.default_rng(check_random_state("rng", rng, generator=True))
            m = int(np.floor(self.subsample * y.size))
            rows = np.sort(rng.choice(y.size, size=m, replace=False))
            X, y = X[rows], y[rows]
        if self.permute_class:
            if rng is None:
                raise ValueError("`rng` is required to permute the class labels.")
            if self.balance_class:
                y = (np.arange(y.size) % self.n_classes).astype(y.dtype)
            y = np.random.default_rng(
                check_random_state("rng", rng, generator=True)).permutation(y)
        return X, y

    def __eq__(self, other):
        return isinstance(other, DatasetSource) and other.identity == self.identity

    def __hash__(self):
        return hash(self.identity)

    def __repr__(self):
        return f"DatasetSource({self.identity})"
