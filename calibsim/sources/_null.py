"""The null data source of Bouckaert (2003), Section 4.

Independent binary attributes and a binary class independent of them, so that
no learner can beat another in expectation: every difference a test finds is a
Type I error.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._docstrings import fill_doc
from .._validation import check_int, check_probability, check_random_state

__all__ = ["NullSource"]


@fill_doc
@dataclass(frozen=True)
class NullSource:
    """Binary attributes independent of each other and of a binary class.

    Each data set draws, once, the probability ``P(attribute j = 1)`` of every
    attribute from Uniform(0, 1); each instance then draws its attributes and
    its class independently. Bouckaert (2003, §4) only says the attributes are
    independent "with various different probabilities"; the uniform draw is
    what Weka's ``BayesNetGenerator`` (written by Bouckaert) does for a binary
    node without parents: it cuts [0, 1000) at a uniform integer.

    Parameters
    ----------
    n_instances : int, default 300
        Instances per data set (>= 2).
    n_attributes : int, default 10
        Binary attributes per data set (>= 1).
    class_prior : float, default 0.5
        Probability in (0, 1) of class 1 (the second class value).

    Attributes
    ----------
    n_values : ndarray of shape (n_attributes,)
        Number of values of every attribute (all 2).
    n_classes : int
        Number of class values (2).

    {references:bouckaert2003}

    Examples
    --------
    >>> src = NullSource(n_instances=6, n_attributes=3)
    >>> X, y = src.sample(rng=0)
    >>> X.shape, y.shape, X.dtype.name
    ((6, 3), (6,), 'int64')
    """

    n_instances: int = 300
    n_attributes: int = 10
    class_prior: float = 0.5

    def __post_init__(self):
        check_int("n_instances", self.n_instances, min_value=2)
        check_int("n_attributes", self.n_attributes, min_value=1)
        check_probability("class_prior", self.class_prior)

    @property
    def identity(self) -> str:
        """Canonical description used to key the source's random streams."""
        return (f"null(n_instances={self.n_instances}, n_attributes={self.n_attributes}, "
                f"class_prior={self.class_prior!r})")

    @property
    def n_values(self) -> np.ndarray:
        return np.full(self.n_attributes, 2, dtype=np.int64)

    @property
    def n_classes(self) -> int:
        return 2

    def sample(self, rng=None) -> tuple[np.ndarray, np.ndarray]:
        """Draw one data set.

        Parameters
        ----------
        rng : None, int, SeedSequence or Generator
            Source of randomness, normalised with ``numpy.random.default_rng``.
            Draws, in order: the attribute probabilities (n_attributes), the
            attribute values (n_instances * n_attributes), the classes
            (n_instances).

        Returns
        -------
        X : ndarray of shape (n_instances, n_attributes), int64
            Attribute values in {0, 1}, C-contiguous.
        y : ndarray of shape (n_instances,), int64
            Class values in {0, 1}.
        """
        n, m = self.n_instances, self.n_attributes
        from .._validation import check_memory_estimate   # one data set: floats, then codes
        check_memory_estimate([(16.0 * n * m, "n_instances", n, 1),
                               (16.0 * n * m, "n_attributes", m, 1)], what="a null data set")
        rng = np.random.default_rng(check_random_state("rng", rng, generator=True))
        p_one = rng.random(self.n_attributes)
        X = (rng.random((self.n_instances, self.n_attributes)) < p_one).astype(np.int64)
        y = (rng.random(self.n_instances) < self.class_prior).astype(np.int64)
        return X, y
