"""Gaussian attributes and a class drawn from a logistic model (Bates, Hastie & Tibshirani 2023).

The low-dimensional logistic regression example of Bates et al. (2023; their
experiment code ``lowd_logistic.R``): p independent standard normal attributes
and a binary class with ``P(y = 1 | x) = 1 / (1 + exp(-s x_1))``, only the first
attribute carrying signal, of strength s. Logistic regression is then the right
model, and its expected error is known by simulation (``scripts/
cv_inference_truth.py``), which an interval's coverage needs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_int, check_random_state

__all__ = ["LogisticSource"]


@dataclass(frozen=True)
class LogisticSource:
    """Standard normal attributes and a class from a logistic model in the first one.

    Parameters
    ----------
    n_instances : int, default 100
        Instances per data set (>= 2).
    n_attributes : int, default 10
        Attributes p per data set (>= 1), each standard normal, independent.
    strength : float, default 1.0
        The coefficient s of the first attribute (the others are 0):
        ``P(y = 1 | x) = 1 / (1 + exp(-s x_1))``. 0 makes the class independent of
        the attributes (a null); the larger s, the lower the Bayes error.

    Attributes
    ----------
    n_values : ndarray of shape (n_attributes,)
        All 0: every attribute is numeric.
    n_classes : int
        2.

    Raises
    ------
    ValueError
        If ``n_instances`` < 2, ``n_attributes`` < 1, or ``strength`` is not a
        finite number.

    References
    ----------
    .. [1] Bates, S., Hastie, T. & Tibshirani, R. (2023). Cross-validation: what
           does it estimate and how well does it do it? JASA 119(546), 1434-1445;
           arXiv:2104.00673. The setting: their experiment code
           github.com/stephenbates19/nestedcv_experiments, ``lowd_logistic.R``
           (n = 100, p = 10, s in {1, 2}).

    Examples
    --------
    >>> src = LogisticSource(n_instances=5, n_attributes=3, strength=2.0)
    >>> X, y = src.sample(rng=0)
    >>> X.shape, X.dtype.name, y.dtype.name, sorted(set(y.tolist())) <= [0, 1]
    ((5, 3), 'float64', 'int64', True)
    """

    n_instances: int = 100
    n_attributes: int = 10
    strength: float = 1.0

    def __post_init__(self):
        check_int("n_instances", self.n_instances, min_value=2)
        check_int("n_attributes", self.n_attributes, min_value=1)
        s = self.strength
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not np.isfinite(s):
            raise ValueError(f"`strength` must be a finite number; got {s!r}.")

    @property
    def identity(self) -> str:
        """Canonical description used to key the source's random streams."""
        return (f"logistic(n_instances={self.n_instances}, n_attributes={self.n_attributes}, "
                f"strength={float(self.strength)!r})")

    @property
    def n_values(self) -> np.ndarray:
        return np.zeros(self.n_attributes, dtype=np.int64)

    @property
    def n_classes(self) -> int:
        return 2

    @property
    def is_nominal_codes(self) -> bool:
        """False: the attributes are real numbers (the general, fit-per-split path)."""
        return False

    def probability(self, X) -> np.ndarray:
        """``P(y = 1 | x)`` of the rows of ``X`` (n, n_attributes), shape (n,)."""
        X = np.asarray(X, dtype=np.float64)
        return 1.0 / (1.0 + np.exp(-float(self.strength) * X[:, 0]))

    def sample(self, rng=None, n=None) -> tuple[np.ndarray, np.ndarray]:
        """Draw one data set.

        Parameters
        ----------
        rng : None, int, SeedSequence or Generator
            Draws, in order: the attributes (n x n_attributes standard normals, row
            by row), then n uniforms for the classes.
        n : int, optional
            Instances to draw (default ``n_instances``; the truth script draws large
            test sets).

        Returns
        -------
        X : ndarray of shape (n, n_attributes), float64
        y : ndarray of shape (n,), int64
            ``y = 1`` where the uniform is below ``P(y = 1 | x)``.
        """
        n = self.n_instances if n is None else check_int("n", n, min_value=1)
        rng = np.random.default_rng(check_random_state("rng", rng, generator=True))
        X = rng.standard_normal((n, self.n_attributes))
        y = (rng.random(n) < self.probability(X)).astype(np.int64)
        return X, y
