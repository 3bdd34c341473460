"""The three tasks of Dietterich (1998, §5): EXP6, letter recognition and Pima diabetes.

Each data set of a study is a random draw of ``n_instances`` (300 in the paper) from
the task; each task also has the *calibration examples* on which Dietterich matched
the two learners' errors:

- ``exp6``: Kong & Dietterich's (1995) EXP6, a synthetic task on a square, whose
  definition could not be recovered (the ICML paper is not readable here and no
  public copy of its generator was found). calibsim uses a stated **substitute** of
  the same kind: two attributes uniform on [0, 15]^2 and six classes, 3 angular
  sectors around the centre (7.5, 7.5) times inside / outside the circle of radius
  5 around it (:func:`exp6_class`), with no label noise; the calibration examples
  are the uniform grid of resolution 0.1 on [0, 15]^2 (151^2 = 22 801 points, the
  size the paper's grid had as we recall it; the number is lost from the text we
  have);
- ``letter``: Frey & Slate's letter recognition (``load_uci("letter")``), split once
  at random into 10 000 calibration and 10 000 experimental instances; data sets
  are drawn without replacement from the experimental half;
- ``pima``: the Pima Indians diabetes data (``load_uci("diabetes")``, 768); each
  data set is 300 instances drawn without replacement and its calibration examples
  are the other 468.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .._rng import source_key
from .._validation import check_int, check_random_state

__all__ = ["DietterichTaskSource", "exp6_class", "TASKS"]

#: The tasks and their classes.
TASKS = {"exp6": 6, "letter": 26, "pima": 2}
_LETTER_CALIBRATION = 10_000


def exp6_class(X) -> np.ndarray:
    """Class of points of calibsim's EXP6 substitute (not Kong & Dietterich's EXP6).

    Parameters
    ----------
    X : array_like of shape (n, 2)
        Points of [0, 15]^2.

    Returns
    -------
    ndarray of shape (n,), int64
        ``3 * outside + sector``: ``outside`` is 1 when the point lies farther than
        5 from the centre (7.5, 7.5), ``sector`` in {0, 1, 2} the third of the full
        angle (counted from the positive first axis) the point lies in.

    Examples
    --------
    >>> exp6_class([[7.6, 7.6], [7.5, 14.0], [0.0, 0.0]]).tolist()
    [0, 3, 4]
    """
    X = np.asarray(X, dtype=np.float64)
    dx, dy = X[:, 0] - 7.5, X[:, 1] - 7.5
    outside = (dx * dx + dy * dy > 25.0).astype(np.int64)
    angle = np.mod(np.arctan2(dy, dx), 2 * np.pi)
    sector = np.minimum((angle / (2 * np.pi / 3)).astype(np.int64), 2)
    return 3 * outside + sector


@dataclass(frozen=True)
class DietterichTaskSource:
    """Data sets of one task of Dietterich (1998, §5), with their calibration examples.

    Parameters
    ----------
    task : {"exp6", "letter", "pima"}
        See the module docstring (``exp6`` is a substitute).
    n_instances : int, default 300
        Instances per data set (>= 2; at most 10 000 for letter, 767 for Pima).

    Raises
    ------
    ValueError
        If ``task`` is unknown or ``n_instances`` out of range.

    Examples
    --------
    >>> src = DietterichTaskSource("pima")
    >>> X, y, Xc, yc = src.sample_with_calibration(0)
    >>> X.shape, Xc.shape, src.n_classes
    ((300, 8), (468, 8), 2)
    """

    task: str = "exp6"
    n_instances: int = 300

    def __post_init__(self):
        if self.task not in TASKS:
            raise ValueError(f"`task` must be one of {list(TASKS)}; got {self.task!r}.")
        top = {"exp6": 10**7, "letter": 20_000 - _LETTER_CALIBRATION, "pima": 767}[self.task]
        check_int("n_instances", self.n_instances, min_value=2, max_value=top)

    @property
    def identity(self) -> str:
        """Canonical description used to key the source's random streams."""
        return f"dietterich_task(task={self.task}, n_instances={self.n_instances})"

    @property
    def n_classes(self) -> int:
        return TASKS[self.task]

    @property
    def n_values(self) -> np.ndarray:
        """All attributes numeric (0)."""
        return np.zeros(2 if self.task == "exp6" else (16 if self.task == "letter" else 8),
                        np.int64)

    @property
    def is_nominal_codes(self) -> bool:
        return False

    @cached_property
    def _pool(self):
        """(X, y, calibration X, calibration y) of the whole task; the cal. part for letter."""
        from ..datasets import load_uci
        if self.task == "exp6":
            g = np.round(np.arange(151) * 0.1, 1)
            Xc = np.column_stack([np.repeat(g, 151), np.tile(g, 151)])
            return None, None, Xc, exp6_class(Xc)
        ds = load_uci("letter" if self.task == "letter" else "diabetes")
        X, y = np.asarray(ds.X, np.float64), np.asarray(ds.y, np.int64)
        if self.task == "pima":
            return X, y, None, None
        # one fixed random halving, keyed by the task's name (not by the study's seed)
        perm = np.random.default_rng(np.random.SeedSequence(
            source_key("dietterich1998 letter calibration split"))).permutation(len(y))
        cal, exp = perm[:_LETTER_CALIBRATION], perm[_LETTER_CALIBRATION:]
        return X[exp], y[exp], X[cal], y[cal]

    def calibration_set(self):
        """The fixed calibration examples ``(X, y)`` (EXP6's grid, letter's half).

        Raises
        ------
        ValueError
            For Pima, whose calibration examples depend on the data set
            (:meth:`sample_with_calibration`).
        """
        if self.task == "pima":
            raise ValueError("Pima's calibration examples are each data set's complement: "
                             "use `sample_with_calibration`.")
        return self._pool[2], self._pool[3]

    def sample_with_calibration(self, rng=None):
        """One data set and its calibration examples: ``(X, y, X_cal, y_cal)``.

        Parameters
        ----------
        rng : None, int, SeedSequence or Generator
            EXP6 draws 2 n uniforms (the points, row by row); letter and Pima draw
            one permutation of their pool and take its first ``n_instances``.

        Returns
        -------
        X : ndarray of shape (n_instances, a), float64
        y : ndarray of shape (n_instances,), int64
        X_cal, y_cal : the task's calibration examples (Pima: the rest of the 768).
        """
        rng = np.random.default_rng(check_random_state("rng", rng, generator=True))
        X, y, Xc, yc = self._pool
        if self.task == "exp6":
            Xs = rng.random((self.n_instances, 2)) * 15.0
            return Xs, exp6_class(Xs), Xc, yc
        perm = rng.permutation(len(y))
        take, rest = perm[:self.n_instances], perm[self.n_instances:]
        if self.task == "pima":
            return X[take], y[take], X[rest], y[rest]
        return X[take], y[take], Xc, yc

    def sample(self, rng=None):
        """One data set ``(X, y)``: float64 (n_instances, a) and int64 (n_instances,)."""
        return self.sample_with_calibration(rng)[:2]
