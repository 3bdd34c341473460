"""The simulated data of Nadeau & Bengio (2003): a regression and a classification problem.

Nadeau & Bengio (2003), *Inference for the generalization error* (Machine Learning 52,
239-281), compare the tests of two learners' generalization errors by simulation on
problems whose expected errors are known: in its simulation study (section 6),

* **prediction in simple normal linear regression**: ``X ~ N(mu_X, sigma_X^2)``,
  ``Y | X ~ N(a + b X, sigma_{Y|X}^2)``; learner A predicts the training sample's mean of
  ``Y`` (scikit-learn's ``DummyRegressor(strategy="mean")``), learner B the least-squares
  line (``LinearRegression()``), both scored by squared error. Their expected errors at
  training size n1 are in closed form (:func:`nadeau_bengio_regression_errors`), and
  they are equal exactly when ``b^2 sigma_X^2 = sigma_{Y|X}^2 / (n1 - 3)``, so a slope
  chosen so makes a null whose truth is exact (:class:`NadeauBengioRegressionSource`);
* **classification of two Gaussian populations**: a binary class and a Gaussian input
  in the plane whose covariance differs between the classes, so that the best boundary
  is curved; learner A is a least-squares regression tree and learner B least-squares
  linear regression, each thresholded at 1/2 (:class:`NadeauBengioClassificationSource`).
  Their expected errors have no closed form; :func:`nadeau_bengio_classification_errors`
  estimates them by Monte Carlo, and the class-1 covariance is the knob that brings them
  together at a chosen n1 (to within that estimate's error).

Provenance: only the opening of the paper (abstract and section 1) could be read when
these sources were written; the text of section 6 was not. What is exact here does not
depend on it: the regression model, its two learners and the exact-null condition are
derived in :func:`nadeau_bengio_regression_errors` and checked by Monte Carlo in
``tests/test_nadeau_bengio.py``. What does depend on it is recalled, not read: the
default parameters (``mu_X = 10``, ``a = 100``, ``sigma_X^2 = 1``,
``sigma_{Y|X}^2 = 97`` at ``n = 200``, ``n1 = n/2 = 100``, which meet the null
condition exactly with ``b = 1``), the classification design (equal priors, class 0
``N((0, 0), I)``, class 1 ``N((1, 1), v I)`` with ``v`` in 1/2, 1/6, 0.173) and the
tree's settings (calibsim's). Check them against the tables of section 6 before citing
them as the paper's numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_int, check_probability, check_random_state

__all__ = ["NadeauBengioRegressionSource", "NadeauBengioClassificationSource",
           "nadeau_bengio_regression_errors", "nadeau_bengio_null_slope",
           "nadeau_bengio_classification_errors"]

_REFERENCE = """Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error.
           Machine Learning 52(3), 239-281. doi:10.1023/A:1024068626366"""


def _check_real(name: str, value, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not np.isfinite(value) or (positive and value <= 0):
        rule = "a finite number > 0" if positive else "a finite number"
        raise ValueError(f"`{name}` must be {rule}; got {value!r}.")
    return float(value)


def nadeau_bengio_regression_errors(n_train, b, *, x_variance=1.0, noise_variance=97.0):
    """Expected squared prediction errors of the sample mean and of least squares.

    For the model of :class:`NadeauBengioRegressionSource` (``X ~ N(mu_X, sigma_X^2)``,
    ``Y | X ~ N(a + b X, sigma^2)``, ``sigma^2 = noise_variance``), a learner trained on
    ``n_train`` = n1 independent instances and scored by squared error on a new one:

    * sample mean (``DummyRegressor(strategy="mean")``): the prediction ``Ybar`` misses
      a new ``Y`` by ``Var(Y) (1 + 1/n1)``, ``Var(Y) = b^2 sigma_X^2 + sigma^2``;
    * least squares (``LinearRegression()``): ``sigma^2 (1 + 1/n1 + E[(X0 - Xbar)^2 /
      S_xx])`` with ``E[(X0 - Xbar)^2] = sigma_X^2 (1 + 1/n1)`` independent of ``S_xx``
      and ``E[1 / S_xx] = 1 / (sigma_X^2 (n1 - 3))`` (``S_xx / sigma_X^2`` is chi-square
      with n1 - 1 degrees of freedom), so ``sigma^2 (1 + 1/n1) (1 + 1/(n1 - 3))``.

    They are equal exactly when ``b^2 sigma_X^2 = sigma^2 / (n1 - 3)``
    (:func:`nadeau_bengio_null_slope`); neither depends on ``mu_X`` or ``a``.

    Parameters
    ----------
    n_train : int
        Training-set size n1 (>= 4: least squares' expected error is infinite below).
    b : float
        Slope of ``Y`` on ``X``.
    x_variance : float, default 1.0
        ``sigma_X^2`` (> 0), in squared units of ``X``.
    noise_variance : float, default 97.0
        ``sigma^2 = Var(Y | X)`` (> 0), in squared units of ``Y``.

    Returns
    -------
    mean_error, ols_error : float
        Expected squared errors (units of ``Y`` squared) of the sample mean and of
        least squares.

    Raises
    ------
    ValueError
        If ``n_train`` < 4, or ``b``, ``x_variance`` or ``noise_variance`` is not a
        finite number (the variances > 0).
    TypeError
        If ``n_train`` is not an integer.

    Examples
    --------
    >>> [round(e, 9) for e in nadeau_bengio_regression_errors(100, 1.0)]  # the null
    [98.98, 98.98]
    >>> [round(e, 9) for e in nadeau_bengio_regression_errors(100, 2.0)]
    [102.01, 98.98]
    """
    n1 = check_int("n_train", n_train, min_value=4)
    b = _check_real("b", b)
    vx = _check_real("x_variance", x_variance, positive=True)
    s2 = _check_real("noise_variance", noise_variance, positive=True)
    mean_error = (b * b * vx + s2) * (1 + 1 / n1)
    ols_error = s2 * (1 + 1 / n1) * (1 + 1 / (n1 - 3))
    return float(mean_error), float(ols_error)


def nadeau_bengio_null_slope(n_train, *, x_variance=1.0, noise_variance=97.0) -> float:
    """The slope ``b >= 0`` at which the sample mean and least squares are equally good.

    ``b = sqrt(sigma^2 / ((n1 - 3) sigma_X^2))``, the root of
    ``b^2 sigma_X^2 = sigma^2 / (n1 - 3)`` (see :func:`nadeau_bengio_regression_errors`);
    ``-b`` is the other.

    Parameters
    ----------
    n_train : int
        Training-set size n1 (>= 4) at which the two expected errors are to be equal.
    x_variance, noise_variance : float
        ``sigma_X^2`` and ``sigma^2 = Var(Y | X)``, both > 0.

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        As :func:`nadeau_bengio_regression_errors`.

    Examples
    --------
    >>> nadeau_bengio_null_slope(100), nadeau_bengio_null_slope(1000, noise_variance=9.97)
    (1.0, 0.1)
    """
    n1 = check_int("n_train", n_train, min_value=4)
    vx = _check_real("x_variance", x_variance, positive=True)
    s2 = _check_real("noise_variance", noise_variance, positive=True)
    return float(round(math.sqrt(s2 / ((n1 - 3) * vx)), 15))


@dataclass(frozen=True)
class NadeauBengioRegressionSource:
    """Nadeau & Bengio (2003)'s simple normal linear regression: one input, one target.

    Each instance draws ``X ~ N(x_mean, x_variance)`` and ``Y = intercept + b X + e``,
    ``e ~ N(0, noise_variance)``. The two learners of the paper's comparison are the
    sample mean of ``Y`` (scikit-learn's ``DummyRegressor(strategy="mean")``) and
    least-squares linear regression (``LinearRegression()``), scored by squared error;
    their expected errors at training size n1 are
    :func:`nadeau_bengio_regression_errors`. Given ``n_train`` = n1, the slope is
    :func:`nadeau_bengio_null_slope`: the two learners' expected errors are then equal
    exactly at training size n1 (the sample mean is better below n1, least squares
    above), a null whose truth needs no simulation. Given ``b``, the source is that
    model (``b = 0``: least squares is worse at every size; a large ``b``: better).

    Give exactly one of ``n_train`` and ``b``.

    Parameters
    ----------
    n_instances : int, default 200
        Instances per data set (>= 2); the paper's n (200 or 2000, as recalled).
    n_train : int, optional
        The training-set size n1 (>= 4) at which the null is exact, e.g. ``n_instances
        // 2`` for 2-fold cross-validation or the 5x2 design. Part of the identity.
    b : float, optional
        The slope itself (finite). Part of the identity.
    x_mean : float, default 10.0
        ``mu_X``, the mean of ``X``.
    x_variance : float, default 1.0
        ``sigma_X^2 > 0``.
    intercept : float, default 100.0
        ``a``, the intercept of ``E[Y | X] = a + b X``.
    noise_variance : float, default 97.0
        ``sigma^2 = Var(Y | X) > 0``; with the defaults and ``n_train = 100`` the slope
        is exactly 1 (``97 / (100 - 3) = 1``).

    Attributes
    ----------
    slope : float
        ``b``, given or derived from ``n_train``.
    n_values : ndarray of shape (1,)
        0: the one attribute is numeric.
    n_classes : int
        0 (a regression source: ``y`` is float64).

    Raises
    ------
    ValueError
        If not exactly one of ``n_train`` and ``b`` is given, ``n_instances`` < 2,
        ``n_train`` < 4, or a real parameter is not finite (the variances > 0).
    TypeError
        If ``n_instances`` or ``n_train`` is not an integer.

    See Also
    --------
    NadeauBengioClassificationSource : the paper's classification problem.

    Notes
    -----
    The engine's cells score classifiers by accuracy; they do not yet score a regression
    source (its ``y`` is float64). Use :meth:`sample` directly, or a study once the
    engine scores regression.

    References
    ----------
    .. [1] {reference}; section 6 (simulation study), "prediction in simple normal
           linear regression". See the module docstring for what was and was not
           checked against the text.

    Examples
    --------
    >>> src = NadeauBengioRegressionSource(n_instances=200, n_train=100)
    >>> src.slope, [round(e, 9) for e in src.expected_errors()]
    (1.0, [98.98, 98.98])
    >>> X, y = src.sample(rng=0)
    >>> X.shape, X.dtype.name, y.dtype.name
    ((200, 1), 'float64', 'float64')
    >>> src.identity
    'nadeau_bengio_regression(n_instances=200, n_train=100, x_mean=10.0, x_variance=1.0, intercept=100.0, noise_variance=97.0)'
    """

    n_instances: int = 200
    n_train: int | None = None
    b: float | None = None
    x_mean: float = 10.0
    x_variance: float = 1.0
    intercept: float = 100.0
    noise_variance: float = 97.0

    def __post_init__(self):
        check_int("n_instances", self.n_instances, min_value=2)
        if (self.n_train is None) == (self.b is None):
            raise ValueError("give exactly one of `n_train` (the training-set size at which "
                             "the two learners are equally good) and `b` (the slope); got "
                             f"n_train={self.n_train!r}, b={self.b!r}.")
        if self.n_train is not None:
            check_int("n_train", self.n_train, min_value=4)
        else:
            _check_real("b", self.b)
        _check_real("x_mean", self.x_mean)
        _check_real("x_variance", self.x_variance, positive=True)
        _check_real("intercept", self.intercept)
        _check_real("noise_variance", self.noise_variance, positive=True)

    @property
    def identity(self) -> str:
        """Canonical description used to key the source's random streams."""
        size = (f"n_train={self.n_train}" if self.n_train is not None
                else f"b={float(self.b)!r}")
        return (f"nadeau_bengio_regression(n_instances={self.n_instances}, {size}, "
                f"x_mean={float(self.x_mean)!r}, x_variance={float(self.x_variance)!r}, "
                f"intercept={float(self.intercept)!r}, "
                f"noise_variance={float(self.noise_variance)!r})")

    @property
    def slope(self) -> float:
        if self.b is not None:
            return float(self.b)
        return nadeau_bengio_null_slope(self.n_train, x_variance=self.x_variance,
                                        noise_variance=self.noise_variance)

    @property
    def n_values(self) -> np.ndarray:
        return np.zeros(1, dtype=np.int64)

    @property
    def n_classes(self) -> int:
        return 0

    @property
    def is_regression(self) -> bool:
        """True: ``y`` is a numeric target."""
        return True

    @property
    def is_nominal_codes(self) -> bool:
        """False: the attribute is a real number (the general, fit-per-split path)."""
        return False

    def expected_errors(self, n_train=None) -> tuple[float, float]:
        """Expected squared errors ``(sample mean, least squares)`` at training size
        ``n_train`` (default: the source's own n1; required when it was given ``b``).
        See :func:`nadeau_bengio_regression_errors`."""
        n1 = self.n_train if n_train is None else n_train
        if n1 is None:
            raise ValueError("`n_train` is required: this source was given the slope `b`, "
                             "not a training-set size.")
        return nadeau_bengio_regression_errors(n1, self.slope, x_variance=self.x_variance,
                                               noise_variance=self.noise_variance)

    def _draw(self, rng, n: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(check_random_state("rng", rng, generator=True))
        x = self.x_mean + math.sqrt(self.x_variance) * rng.standard_normal(n)
        y = (self.intercept + self.slope * x
             + math.sqrt(self.noise_variance) * rng.standard_normal(n))
        return x.reshape(n, 1), y

    def sample(self, rng=None, n=None) -> tuple[np.ndarray, np.ndarray]:
        """Draw one data set.

        Parameters
        ----------
        rng : None, int, SeedSequence or Generator
            Draws, in order: n standard normals for ``X``, then n for the noise.
        n : int, optional
            Instances to draw (default ``n_instances``; e.g. a large test set).

        Returns
        -------
        X : ndarray of shape (n, 1), float64
        y : ndarray of shape (n,), float64
        """
        n = self.n_instances if n is None else check_int("n", n, min_value=1)
        return self._draw(rng, n)


NadeauBengioRegressionSource.__doc__ = NadeauBengioRegressionSource.__doc__.replace(
    "{reference}", _REFERENCE)


@dataclass(frozen=True)
class NadeauBengioClassificationSource:
    """Nadeau & Bengio (2003)'s classification of two Gaussian populations.

    Each instance draws its class ``Y = 1`` with probability ``class_prior``, then two
    attributes ``X | Y = 0 ~ N((0, 0), I)`` and ``X | Y = 1 ~ N((mean1, mean1),
    variance1 * I)``. With ``variance1 != 1`` the Bayes boundary is a circle, not a line,
    so neither learner of the paper's comparison is right: least-squares linear regression
    of ``Y`` on ``X`` thresholded at 1/2 (scikit-learn's ``LinearRegression()``; the
    direction of Fisher's linear discriminant) is biased, a least-squares regression tree
    of ``Y`` on ``X`` thresholded at 1/2 (``DecisionTreeRegressor``) can follow the curve
    but is noisy. Which is better depends on ``variance1``, the tree's settings and the
    training size; their expected errors have no closed form, so
    :func:`nadeau_bengio_classification_errors` estimates them, and ``variance1`` is the
    knob that brings them together at a chosen n1 (the paper, as recalled, used ``I/2``,
    ``I/6`` and ``0.173 I``). Unlike the regression source's, such a null holds only to
    within the Monte Carlo error of that estimate.

    Parameters
    ----------
    n_instances : int, default 200
        Instances per data set (>= 2).
    mean1 : float, default 1.0
        Both coordinates of class 1's mean (class 0's is the origin).
    variance1 : float, default 0.5
        Class 1's covariance is ``variance1 * I`` (> 0); class 0's is ``I``.
    class_prior : float, default 0.5
        ``P(Y = 1)`` in (0, 1).

    Attributes
    ----------
    n_values : ndarray of shape (2,)
        All 0: both attributes are numeric.
    n_classes : int
        2.

    Raises
    ------
    ValueError
        If ``n_instances`` < 2, ``mean1`` is not finite, ``variance1`` is not a finite
        number > 0, or ``class_prior`` is outside (0, 1).
    TypeError
        If ``n_instances`` is not an integer.

    Notes
    -----
    Measured with :func:`nadeau_bengio_classification_errors` (default tree, 100 training
    sets, 20,000 test instances, ``rng=1``), the mean difference tree minus linear rule
    is, at n1 = 100: +0.046 for ``variance1 = 1/2`` (linear better), -0.0005 for 1/6 and
    +0.001 for 0.173 (SE 0.003 each, so equal within the estimate's error); at n1 = 1000:
    +0.052, +0.003 and +0.005 (SE 0.001). The engine's cells can run this source as they
    run :class:`LogisticSource` (its ``y`` is int64 class codes).

    References
    ----------
    .. [1] {reference}; section 6 (simulation study), "classification of two Gaussian
           populations". The design here is the paper's as recalled (see the module
           docstring); the tree's settings are calibsim's.

    Examples
    --------
    >>> src = NadeauBengioClassificationSource(n_instances=6)
    >>> X, y = src.sample(rng=0)
    >>> X.shape, X.dtype.name, y.dtype.name, set(y.tolist()) <= {0, 1}
    ((6, 2), 'float64', 'int64', True)
    >>> src.identity
    'nadeau_bengio_classification(n_instances=6, mean1=1.0, variance1=0.5, class_prior=0.5)'
    """

    n_instances: int = 200
    mean1: float = 1.0
    variance1: float = 0.5
    class_prior: float = 0.5

    def __post_init__(self):
        check_int("n_instances", self.n_instances, min_value=2)
        _check_real("mean1", self.mean1)
        _check_real("variance1", self.variance1, positive=True)
        check_probability("class_prior", self.class_prior)

    @property
    def identity(self) -> str:
        """Canonical description used to key the source's random streams."""
        return (f"nadeau_bengio_classification(n_instances={self.n_instances}, "
                f"mean1={float(self.mean1)!r}, variance1={float(self.variance1)!r}, "
                f"class_prior={float(self.class_prior)!r})")

    @property
    def n_values(self) -> np.ndarray:
        return np.zeros(2, dtype=np.int64)

    @property
    def n_classes(self) -> int:
        return 2

    @property
    def is_regression(self) -> bool:
        """False: ``y`` holds class codes."""
        return False

    @property
    def is_nominal_codes(self) -> bool:
        """False: the attributes are real numbers (the general, fit-per-split path)."""
        return False

    def _draw(self, rng, n: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(check_random_state("rng", rng, generator=True))
        y = (rng.random(n) < self.class_prior).astype(np.int64)
        z = rng.standard_normal((n, 2))
        scale = np.where(y == 1, math.sqrt(self.variance1), 1.0)[:, None]
        X = z * scale + np.where(y == 1, float(self.mean1), 0.0)[:, None]
        return np.ascontiguousarray(X), y

    def sample(self, rng=None, n=None) -> tuple[np.ndarray, np.ndarray]:
        """Draw one data set.

        Parameters
        ----------
        rng : None, int, SeedSequence or Generator
            Draws, in order: n uniforms for the classes, then n x 2 standard normals
            (row by row) for the attributes.
        n : int, optional
            Instances to draw (default ``n_instances``).

        Returns
        -------
        X : ndarray of shape (n, 2), float64
        y : ndarray of shape (n,), int64
        """
        n = self.n_instances if n is None else check_int("n", n, min_value=1)
        return self._draw(rng, n)


NadeauBengioClassificationSource.__doc__ = NadeauBengioClassificationSource.__doc__.replace(
    "{reference}", _REFERENCE)


def nadeau_bengio_classification_errors(source, n_train, *, n_datasets=200, n_test=20_000,
                                        tree=None, rng=None):
    """Monte Carlo expected errors of the tree and the linear rule at a training size.

    Draws ``n_datasets`` training sets of ``n_train`` instances from ``source``, fits both
    learners of :class:`NadeauBengioClassificationSource` to each (class codes 0/1 as
    the regression target, prediction 1 where the fitted value exceeds 1/2) and scores
    them on one common test set of ``n_test`` instances.

    Parameters
    ----------
    source : NadeauBengioClassificationSource
    n_train : int
        Training-set size n1 (>= 2).
    n_datasets : int, default 200
        Training sets drawn (>= 2).
    n_test : int, default 20000
        Size of the test set (>= 1).
    tree : scikit-learn regressor, optional
        Learner A; default ``DecisionTreeRegressor(min_samples_leaf=5,
        random_state=0)`` (calibsim's choice: the paper's tree settings are not
        restated here). Learner B is ``LinearRegression()``.
    rng : None, int, SeedSequence or Generator
        Draws the test set, then the training sets in order.

    Returns
    -------
    dict
        ``tree`` and ``linear`` (mean test error rates), ``difference`` (tree minus
        linear, mean over training sets) and ``se_tree``, ``se_linear``,
        ``se_difference`` (their Monte Carlo standard errors over the training sets;
        the test set's own sampling error, about ``sqrt(e (1 - e) / n_test)``, is
        common to every training set and not included).

    Raises
    ------
    ValueError, TypeError
        If a count is out of range or not an integer.

    Examples
    --------
    >>> src = NadeauBengioClassificationSource()
    >>> out = nadeau_bengio_classification_errors(src, 100, n_datasets=5, n_test=2000, rng=0)
    >>> sorted(out), 0 < out["linear"] < 0.5
    (['difference', 'linear', 'se_difference', 'se_linear', 'se_tree', 'tree'], True)
    """
    from sklearn.base import clone
    from sklearn.linear_model import LinearRegression
    from sklearn.tree import DecisionTreeRegressor
    n1 = check_int("n_train", n_train, min_value=2)
    m = check_int("n_datasets", n_datasets, min_value=2)
    n_test = check_int("n_test", n_test, min_value=1)
    rng = np.random.default_rng(check_random_state("rng", rng, generator=True))
    tree = DecisionTreeRegressor(min_samples_leaf=5, random_state=0) if tree is None else tree
    Xt, yt = source.sample(rng, n=n_test)
    err = np.empty((m, 2))
    for i in range(m):
        X, y = source.sample(rng, n=n1)
        for k, est in enumerate((clone(tree), LinearRegression())):
            pred = (est.fit(X, y.astype(np.float64)).predict(Xt) > 0.5).astype(np.int64)
            err[i, k] = np.mean(pred != yt)
    d = err[:, 0] - err[:, 1]
    se = lambda v: float(np.std(v, ddof=1) / math.sqrt(m))   # noqa: E731
    return {"tree": float(err[:, 0].mean()), "linear": float(err[:, 1].mean()),
            "difference": float(d.mean()), "se_tree": se(err[:, 0]),
            "se_linear": se(err[:, 1]), "se_difference": se(d)}
