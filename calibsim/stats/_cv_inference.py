r"""Cross-validation inference from per-instance outcomes: Bayle et al. (2020), Bates et al. (2023).

Both tests read the loss (or the difference of two learners' losses, or of their
0/1 correctness) of every test instance of every split, not one accuracy per fold.
The per-instance values are given in a *masked layout*: one row per split of
length n (the number of instances), holding the instance's value where the
instance is in that split's test set and NaN elsewhere. calibsim's ``compare``
builds this layout from each fit's per-instance correctness.

- :func:`cv_clt_test`: the k-fold cv central limit theorem of Bayle, Bayle, Janson
  & Mackey (2020), its interval for the k-fold test error and its test comparing
  two learners from per-instance loss differences pooled across folds.
- :func:`nested_cv_test`: the nested cross-validation (NCV) interval of Bates,
  Hastie & Tibshirani (2023), for one learner's error or the difference of two.
- :func:`bootstrap_cv_test`: the bootstrap of the cv estimate with a random-effects
  variance (Cai et al. 2023), on bootstrap cv results; the engine's design for it is
  :class:`calibsim.schemes.BootstrapCV` (scheme kind ``bootstrap_cv``, ``compare``'s
  ``"bootcv:BxC"``), registered as ``"bootstrap_cv"``.

**Equation numbers.** The docstrings cite sections, the algorithm and the authors'
code, not equation numbers: the papers' stored texts (arXiv 2007.12671v2, 2104.00673,
2307.00260) could be read only up to their introductions, so no equation number could
be confirmed, and none is given from memory. Each formula was instead checked against
the authors' public code (read, not copied): Bayle et al.'s ``cv_num_exper.py``
(``aggr_ours``: the all-pairs ``version="out"`` and within-fold ``version="in"``
standard deviations), Bates et al.'s ``nestedcv`` package (``naive_cv``, ``nested_cv``:
the MSE estimate, the inflation and its clipping, the bias factor) and Cai et al.'s
``Boot.CV`` and ``CV.confint``. The validation study
``studies/cv_inference_validation.toml`` runs all three (``figures/cv_inference/``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import check_choice, check_real_dtype
from ._classic import _pvalue_z
from ._results import TTestResult

__all__ = ["cv_clt_test", "nested_cv_test", "NestedCVResult", "BootstrapCVResult",
           "CV_CLT_VARIANCES",
           "bootstrap_cv_test", "bootstrap_cv_train_size"]

#: The variance estimators of Bayle et al. (2020), Section 3: ``"all-pairs"`` (the
#: default) and ``"within-fold"``.
CV_CLT_VARIANCES = ("all-pairs", "within-fold")


def _iv_masked(x, name: str, min_ndim: int) -> np.ndarray:
    check_real_dtype(name, x)
    x = np.asarray(x, dtype=np.float64)
    if x.ndim < min_ndim:
        raise ValueError(f"`{name}` must have at least {min_ndim} dimensions (see the "
                         f"docstring's layout); got shape {x.shape}.")
    if np.isinf(x).any():
        raise ValueError(f"`{name}` must hold finite values or NaN (not in the split's "
                         f"test set); got {int(np.isinf(x).sum())} infinite value(s).")
    return x


def _iv_alternative(alternative) -> str:
    return check_choice("alternative", alternative, ("two-sided", "greater", "less"))


def _statistic(est, se, alternative, method, df=np.inf, cls=TTestResult, **extra):
    """z = est / se with a normal reference; se = 0 gives z = 0 (est = 0) or ±inf."""
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, est / np.where(se > 0, se, 1.0),
                     np.where(est == 0, 0.0, np.sign(est) * np.inf))
    p = _pvalue_z(z, alternative)
    return cls(z[()], np.asarray(p, float)[()], df, _estimate=np.asarray(est)[()],
               _stderr=np.asarray(se)[()], _alternative=alternative, _method=method,
               **extra)


# ---------------------------------------------------------------------------
# Bayle, Bayle, Janson & Mackey (2020)
# ---------------------------------------------------------------------------

def _iv_folds(x):
    present = ~np.isnan(x)                           # (..., k, n)
    per_instance = present.sum(axis=-2)
    if (per_instance > 1).any():
        raise ValueError("`x` must hold each instance's value in at most one fold (the "
                         "folds of one k-fold cv partition the instances); an instance "
                         f"has values in {int(per_instance.max())} folds.")
    sizes = present.sum(axis=-1)                     # (..., k)
    if (sizes < 1).any():
        raise ValueError("`x` must hold at least one test instance in every fold; a fold "
                         "has none.")
    return present, sizes


def cv_clt_test(x, *, variance: str = "all-pairs", alternative: str = "two-sided"
                ) -> TTestResult:
    r"""Bayle et al.'s k-fold cv interval and test, from per-instance losses.

    The k-fold cv estimate is the mean of the n per-instance values
    :math:`h_i` (the loss of instance i under the model trained without its
    fold, or for two learners the difference of their losses),
    :math:`\hat R = \frac1n\sum_i h_i`. Bayle et al.'s central limit theorem
    gives :math:`\sqrt n(\hat R - R)/\hat\sigma \to N(0, 1)` for the k-fold
    test error R, so the interval is :math:`\hat R \pm z_{1-\alpha/2}
    \hat\sigma/\sqrt n` and the test of :math:`R = 0` (two learners equally
    good) uses :math:`z = \sqrt n\,\hat R/\hat\sigma` against the standard
    normal [1]_ (Section 3: the interval and the tests comparing two
    algorithms built from the per-instance loss differences pooled across
    folds; equation numbers not confirmed, see the module docstring; the
    estimators as in the authors' ``cv_num_exper.py``, ``aggr_ours`` [2]_).

    Two consistent estimators of :math:`\sigma^2` are defined [1]_ (Section 3,
    the within-fold and the all-pairs estimator):

    - ``"all-pairs"`` (default): :math:`\hat\sigma^2_{out} = \frac1n
      \sum_{i=1}^n (h_i - \hat R)^2`, all n values about the overall mean;
    - ``"within-fold"``: :math:`\hat\sigma^2_{in} = \frac1k \sum_{j=1}^k
      \frac{1}{|B_j| - 1} \sum_{i \in B_j} (h_i - \bar h_j)^2`, each fold
      about its own mean :math:`\bar h_j` (:math:`|B_j| = n/k` in the paper;
      here the fold's own size, as stratified folds differ by one).

    The default is the all-pairs estimator because it is defined for every k,
    leave-one-out included (the within-fold one needs two instances per fold),
    it pools all n values rather than averaging k variances of n/k values each
    (with 0/1 losses and small folds a fold's variance is often 0), and both
    are consistent under the same stability conditions, so nothing is lost
    asymptotically.

    Parameters
    ----------
    x : array_like of shape (..., k, n)
        Per-instance values in the masked layout of one k-fold cv: ``x[..., j,
        i]`` is instance i's value if it is in fold j's test set, NaN if not;
        each instance in at most one fold (an instance in none is left out of
        n). For two learners A and B, the per-instance difference of their 0/1
        correctness (A minus B, so in {-1, 0, 1}: the estimate is the accuracy
        difference in [-1, 1]) or of their losses; for one learner, its 0/1
        loss (the estimate is the error rate in [0, 1]).
    variance : {"all-pairs", "within-fold"}, default "all-pairs"
        The variance estimator (see above).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        Against :math:`R = 0`; ``"greater"``: R > 0.

    Returns
    -------
    TTestResult
        ``statistic`` z and ``pvalue`` of shape (...,); ``df`` is ``inf`` (the
        normal reference of the central limit theorem);
        ``confidence_interval(cl)`` is :math:`\hat R \pm z_{(1+cl)/2}
        \hat\sigma/\sqrt n`.

    Raises
    ------
    ValueError
        If ``x`` has fewer than 2 dimensions or infinite values, an instance has
        values in two folds, a fold is empty, ``variance="within-fold"`` with a
        fold of one instance, or ``variance``/``alternative`` is unknown.
    TypeError
        If ``x`` does not hold real numbers.

    Notes
    -----
    :math:`\hat\sigma = 0` (all values equal; e.g. two learners that agree on
    every instance) gives z = 0 and p = 1 when :math:`\hat R = 0`, and
    z = ±inf (p = 0) otherwise. The statistic's reference is the normal: Bayle
    et al. give no small-sample df.

    References
    ----------
    .. [1] Bayle, P., Bayle, A., Janson, L. & Mackey, L. (2020). Cross-validation
           confidence intervals for test error. NeurIPS 33, 16339-16350;
           arXiv:2007.12671.
    .. [2] Bayle, A. cvci (experiment code), github.com/alexandre-bayle/cvci,
           ``cv_num_exper.py``: ``aggr_ours`` (``version="out"``: all-pairs;
           ``"in"``: within-fold, pooled over folds of equal size).

    Examples
    --------
    Two folds of two instances; A minus B correctness:

    >>> import numpy as np
    >>> nan = np.nan
    >>> x = [[1, 0, nan, nan], [nan, nan, 1, 1]]
    >>> res = cv_clt_test(x)
    >>> float(res._estimate), round(float(res._stderr), 4), round(float(res.statistic), 4)
    (0.75, 0.2165, 3.4641)
    >>> round(float(cv_clt_test(x, variance="within-fold")._stderr), 4)
    0.25
    """
    x = _iv_masked(x, "x", 2)
    variance = check_choice("variance", variance, CV_CLT_VARIANCES)
    alternative = _iv_alternative(alternative)
    present, sizes = _iv_folds(x)
    n = present.sum(axis=(-2, -1))
    vals = np.where(present, x, 0.0)
    est = vals.sum(axis=(-2, -1)) / n                                   # R-hat
    if variance == "all-pairs":
        dev = np.where(present, x - est[..., None, None], 0.0)
        s2 = (dev ** 2).sum(axis=(-2, -1)) / n                          # sigma^2_out
    else:
        if (sizes < 2).any():
            raise ValueError("`variance` 'within-fold' needs at least two instances in "
                             "every fold (use 'all-pairs', defined for leave-one-out too); "
                             f"a fold has {int(sizes.min())}.")
        fold_mean = vals.sum(axis=-1) / sizes                           # h-bar_j
        dev = np.where(present, x - fold_mean[..., None], 0.0)
        s2 = ((dev ** 2).sum(axis=-1) / (sizes - 1)).mean(axis=-1)      # sigma^2_in
    se = np.sqrt(s2 / n)
    return _statistic(est, se, alternative, f"cv_clt ({variance})")


# ---------------------------------------------------------------------------
# Bates, Hastie & Tibshirani (2023)
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class NestedCVResult(TTestResult):
    """Result of :func:`nested_cv_test`: a :class:`TTestResult` (normal reference,
    ``df`` inf) with the steps of Bates et al.'s Algorithm 1.

    Attributes
    ----------
    statistic, pvalue, df
        As :class:`TTestResult`: z = estimate / stderr against the standard normal.
    err_ncv : float or ndarray
        The mean of all inner-cv values (Err^NCV, before the bias correction).
    err_cv : float or ndarray
        The mean of the outer (ordinary k-fold cv) values over the repetitions.
    bias : float or ndarray
        ``(1 + ((K-2)/K)**1.5) * (err_ncv - err_cv)``; the estimate is
        ``err_ncv - bias``.
    mse : float or ndarray
        The NCV estimate of the mean squared error of the cv point estimate
        (mean of a_k^2 - b_k over repetitions and outer folds; may be < 0).
    inflation : float or ndarray
        The factor on the naive standard error, sqrt(max(0, mse)) over the naive
        standard error at the inner training size, clipped to [1, sqrt(K)].
    """

    err_ncv: float | np.ndarray = field(default=np.nan)
    err_cv: float | np.ndarray = field(default=np.nan)
    bias: float | np.ndarray = field(default=np.nan)
    mse: float | np.ndarray = field(default=np.nan)
    inflation: float | np.ndarray = field(default=np.nan)


def nested_cv_test(x, *, bias_correction: bool = True, alternative: str = "two-sided"
                   ) -> NestedCVResult:
    r"""Bates, Hastie & Tibshirani's nested cv (NCV) interval and test.

    Naive cv intervals treat the n per-instance losses as independent and
    under-cover. NCV estimates the mean squared error of the cv estimate
    directly: in each of R repetitions, for every outer fold k an inner
    (K-1)-fold cv on the other folds gives :math:`\bar e_{in}` while the model
    trained without fold k gives :math:`\bar e_{out}` on fold k;
    :math:`a_k = \bar e_{in} - \bar e_{out}`, :math:`b_k = \widehat{\mathrm
    {var}}(e_{out})/|I_k|` and :math:`\widehat{MSE} = \mathrm{mean}(a_k^2 -
    b_k)` [1]_ (Section 4, Algorithm 1; equation numbers not confirmed, see
    the module docstring). Following the authors' algorithm and their code
    [2]_:

    - point estimate :math:`\widehat{Err}^{NCV}`: the mean of all inner-cv
      values;
    - bias correction: :math:`\widehat{Err}^{NCV} - (1 + ((K-2)/K)^{1.5})
      (\widehat{Err}^{NCV} - \widehat{Err}^{CV})`, with
      :math:`\widehat{Err}^{CV}` the ordinary K-fold cv estimate (here the
      mean over the R outer cvs of the same repetitions; the authors run
      separate cvs for it: same distribution, no extra fits);
    - standard error :math:`\mathrm{sd}/\sqrt n \cdot f`, sd the standard
      deviation of the inner-cv values, with the inflation
      :math:`f = \sqrt{\max(0, \widehat{MSE})} / (\mathrm{sd}/\sqrt{n_{sub}})`,
      :math:`n_{sub} = \lfloor n (K-1)/K \rfloor` (the MSE is that of a cv on
      the outer training size), clipped to the bounds they state,
      :math:`1 \le f \le \sqrt K`: never narrower than the naive interval,
      never wider than :math:`\sqrt K` times it;
    - interval estimate ± :math:`z_{1-\alpha/2}` · standard error; the test
      of zero uses z = estimate / standard error against the standard normal.

    The authors recommend many repetitions (R = 200 in their experiments; their
    code's default is 50) since the MSE estimate is noisy.

    Parameters
    ----------
    x : array_like of shape (..., R, K, K, n)
        Per-instance values in the masked layout of R repetitions of nested
        K-fold cv: ``x[..., r, k, k, i]`` is instance i's value from the model
        trained without fold k (i in fold k), ``x[..., r, k, j, i]`` (j != k)
        its value from the model trained without folds k and j (i in fold j),
        NaN where i is not in fold j. Values as in :func:`cv_clt_test`: 0/1 loss
        of one learner (estimate an error rate in [0, 1]) or the per-instance
        difference of two learners' correctness (accuracy difference in
        [-1, 1]).
    bias_correction : bool, default True
        Apply the bias correction (False: the estimate is Err^NCV).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"

    Returns
    -------
    NestedCVResult
        ``statistic``, ``pvalue`` of shape (...,), ``df`` inf,
        ``confidence_interval(cl)``, and the algorithm's steps (``err_ncv``,
        ``err_cv``, ``bias``, ``mse``, ``inflation``).

    Raises
    ------
    ValueError
        If ``x`` is not (..., R, K, K, n) with K >= 3, holds infinite values,
        its inner rows do not test exactly the instances of their fold
        (``x[..., r, k, j, :]`` present where ``x[..., r, j, j, :]`` is), a fold
        has fewer than two instances, or ``alternative`` is unknown.
    TypeError
        If ``x`` does not hold real numbers.

    Notes
    -----
    A zero standard deviation of the inner values (e.g. two learners that agree
    everywhere) gives inflation 1, standard error 0 and z = 0 (p = 1) when the
    estimate is 0, ±inf otherwise.

    References
    ----------
    .. [1] Bates, S., Hastie, T. & Tibshirani, R. (2023). Cross-validation: what
           does it estimate and how well does it do it? Journal of the American
           Statistical Association 119(546), 1434-1445; arXiv:2104.00673.
    .. [2] Bates, S. nestedcv (R package), github.com/stephenbates19/nestedcv,
           ``nested_cv``: the bias factor and the clipping of the inflation.
    """
    x = _iv_masked(x, "x", 4)
    alternative = _iv_alternative(alternative)
    R, K, K2, n = x.shape[-4:]
    if K != K2 or K < 3:
        raise ValueError("`x` must have shape (..., R, K, K, n) with K >= 3 folds (the "
                         f"inner cv runs on K - 1 >= 2 folds); got shape {x.shape}.")
    present = ~np.isnan(x)
    diag = np.arange(K)
    fold = present[..., diag, diag, :]                            # (..., R, K, n)
    if (fold.sum(axis=-2) > 1).any():
        raise ValueError("`x` must hold each instance in at most one outer fold per "
                         "repetition (x[..., r, k, k, :]).")
    if not (present == fold[..., None, :, :]).all():
        raise ValueError("`x[..., r, k, j, :]` must hold values exactly for the instances "
                         "of fold j (those present in x[..., r, j, j, :]), for every k.")
    sizes = fold.sum(axis=-1)                                      # (..., R, K)
    if (sizes < 2).any():
        raise ValueError("`x` must hold at least two instances in every fold (the "
                         f"variance of the outer values needs them); a fold has "
                         f"{int(sizes.min())}.")
    vals = np.where(present, x, 0.0)
    off = ~np.eye(K, dtype=bool)[:, :, None]                       # j != k
    inner = present & off                                          # (..., R, K, K, n)
    outer = vals[..., diag, diag, :]                               # (..., R, K, n)
    # a_k: mean of the inner cv inside outer training set k minus the outer mean
    in_sum = np.where(off, vals, 0.0).sum(axis=(-2, -1))           # (..., R, K)
    in_cnt = inner.sum(axis=(-2, -1))
    out_mean = outer.sum(axis=-1) / sizes
    a = in_sum / in_cnt - out_mean
    out_dev = np.where(fold, outer - out_mean[..., None], 0.0)
    b = (out_dev ** 2).sum(axis=-1) / (sizes - 1) / sizes          # var(e_out) / |I_k|
    mse = (a ** 2 - b).mean(axis=(-2, -1))
    # Err^NCV and the sd of all inner values
    n_in = inner.sum(axis=(-4, -3, -2, -1))
    err_ncv = np.where(off, vals, 0.0).sum(axis=(-4, -3, -2, -1)) / n_in
    dev = np.where(inner, x - err_ncv[..., None, None, None, None], 0.0)
    sd = np.sqrt((dev ** 2).sum(axis=(-4, -3, -2, -1)) / (n_in - 1))
    err_cv = outer.sum(axis=(-3, -2, -1)) / sizes.sum(axis=(-2, -1))
    bias = ((1 + ((K - 2) / K) ** 1.5) * (err_ncv - err_cv) if bias_correction
            else np.zeros_like(err_ncv))
    est = err_ncv - bias
    n_inst = fold.sum(axis=(-3, -2, -1)) / R                           # instances per repetition
    n_sub = np.floor(n_inst * (K - 1) / K)
    with np.errstate(divide="ignore", invalid="ignore"):
        infl = np.sqrt(np.maximum(mse, 0.0)) / (sd / np.sqrt(n_sub))
    infl = np.where(sd > 0, np.clip(infl, 1.0, np.sqrt(K)), 1.0)
    se = sd / np.sqrt(n_inst) * infl
    return _statistic(est, se, alternative, "ncv", cls=NestedCVResult,
                      err_ncv=err_ncv[()], err_cv=err_cv[()], bias=bias[()], mse=mse[()],
                      inflation=infl[()])


# ---------------------------------------------------------------------------
# Cai et al. (2023): the bootstrap of the cv estimate
# ---------------------------------------------------------------------------

def bootstrap_cv_train_size(n_instances: int, n_train: int, *, lambda0: float = 0.368) -> int:
    r"""Cai et al.'s adjusted training size :math:`m_{adj}` for the bootstrap's cv splits.

    A bootstrap sample holds about 63.2% distinct instances, so training on m of its
    instances is like training on fewer. The authors pick :math:`m_{adj}` among the
    candidates :math:`m \le m' \le n - \mathrm{round}(0.05 n)` (100 evenly spaced ones
    when there are more) minimising :math:`(m / (m'(1-\lambda_0)) - 1)^2 + \lambda_0
    ((n - m)/(n - m') - 1)^2` [1]_ (their code's ``Boot.CV``).

    Parameters
    ----------
    n_instances : int
        n, the data set's size (>= 2).
    n_train : int
        m, the training size of the cv on the original data, 1 <= m < n.
    lambda0 : float, default 0.368
        The authors' tuning constant (the share of instances a bootstrap sample leaves
        out).

    Returns
    -------
    int
        :math:`m_{adj}`.

    Raises
    ------
    ValueError
        If the sizes are not integers with 1 <= m < n, or no candidate exists.

    References
    ----------
    .. [1] Cai, B., Luo, Y., Guo, X., Pellegrini, F., Pang, M., de Moor, C., Shen, C.,
           Charu, V. & Tian, L. (2023). Bootstrapping the cross-validation estimate.
           arXiv:2307.00260.

    Examples
    --------
    >>> bootstrap_cv_train_size(90, 50)
    61
    """
    from .._validation import check_int
    n = check_int("n_instances", n_instances, min_value=2)
    m = check_int("n_train", n_train, min_value=1)
    if m >= n:
        raise ValueError(f"`n_train` must be below `n_instances` ({n}); got {m}.")
    top = n - int(round(0.05 * n))
    if top < m:
        raise ValueError(f"`n_train` = {m} leaves no candidate training size below "
                         f"n - round(0.05 n) = {top}.")
    cand = (np.arange(m, top + 1) if n - m < 100
            else np.round(np.linspace(m, top, 100)).astype(int))
    crit = (m / (cand * (1 - lambda0)) - 1) ** 2 + lambda0 * ((n - m) / (n - cand) - 1) ** 2
    return int(cand[np.argmin(crit)])


@dataclass(frozen=True)
class BootstrapCVResult(TTestResult):
    """Result of :func:`bootstrap_cv_test`: a :class:`TTestResult` (normal reference,
    ``df`` inf) with the random-effects fit behind its standard error.

    Attributes
    ----------
    statistic, pvalue, df
        As :class:`TTestResult`: z = estimate / stderr against the standard normal.
    variance_component : float or ndarray
        :math:`\\hat\\sigma^2_u = \\max(0, (MS_B - MS_W) / C)`, the between-bootstrap
        variance component (before the training-size factor).
    at_bound : bool or ndarray of bool
        True where :math:`\\hat\\sigma^2_u` is 0 (the between-sample mean square at
        most the within one) and the standard error is the stated bound
        :math:`\\sqrt{MS_W / C}` instead (see :func:`bootstrap_cv_test`).
    """

    variance_component: float | np.ndarray = field(default=np.nan)
    at_bound: bool | np.ndarray = field(default=False)


def bootstrap_cv_test(x, estimate, *, n_instances: int, n_train: int,
                      adjust: bool = True, alternative: str = "two-sided"
                      ) -> BootstrapCVResult:
    r"""Cai et al.'s bootstrap of the cv estimate: a random-effects standard error.

    Bootstrapping a cv estimate naively needs many cv repetitions per bootstrap
    sample. Cai et al. run only a few, C, on each of B bootstrap samples and read
    the bootstrap variance of the (infinitely repeated) cv estimate off a one-way
    random-effects model :math:`x_{bc} = \mu + u_b + \varepsilon_{bc}` [1]_
    (Section 3): :math:`\hat\sigma^2_u` is the between-bootstrap variance
    component. For this balanced layout the REML estimate the authors fit (R's
    ``lmer``) is the ANOVA one cut at zero, :math:`\hat\sigma^2_u = \max(0,
    (MS_B - MS_W)/C)`. With ``adjust`` the standard error is :math:`\hat\sigma_u
    \sqrt{(n - m_{adj} + 0.632\, m_{adj})/n}`, the factor for the reduced number
    of distinct training instances in a bootstrap sample
    (:func:`bootstrap_cv_train_size`); the interval is estimate ± :math:`z_{1-\alpha/2}`
    · standard error, and the test of zero uses z = estimate / standard error.

    Each :math:`x_{bc}` comes from bootstrap sample b (multinomial counts of the n
    instances) split at random into m_adj training and n - m_adj test instances of
    the original indices, copies kept together: the model is trained on the
    training instances' copies and scored on the test instances' copies. This is
    the design :class:`calibsim.schemes.BootstrapCV` draws: the engine fits each
    bootstrap sample as a data set of resampled rows (scheme kind ``bootstrap_cv``
    in a study file, ``design="bootcv:BxC"`` in :func:`calibsim.compare`, test
    ``"bootstrap_cv"``, whose estimate is the mean of the design's C splits of the
    data as they are). Followed from the authors' code: the multinomial draw, the
    splits of the original indices at m_adj with every copy on its instance's side,
    the balanced random-effects fit, the factor, the normal interval. Different:
    the variance component is the ANOVA one (REML's for this balanced layout
    unless the fit is at the boundary, where both give 0); a split with no copy on
    a side is drawn again (the authors drop it); the estimate uses the design's C
    splits, not 400.

    At the boundary. Where :math:`MS_B \le MS_W` the component is cut to 0: B
    samples of C splits cannot separate the bootstrap variance from the noise of the
    splits (likely when B·C is small or the test sides hold few instances). A zero
    standard error there would give z = ±inf and p = 0 from a noisy fit, so the
    standard error is instead the bound :math:`\sqrt{MS_W / C}` times the factor. At
    the boundary it is at least :math:`\sqrt{MS_B / C}`, the observed spread of the
    bootstrap samples' means, whose square estimates :math:`\sigma^2_u +
    \sigma^2_\varepsilon / C \ge \sigma^2_u`: the test is conservative there, and
    ``at_bound`` marks it. (The authors' REML fit reports 0 and a zero-width
    interval.) The relative standard deviation of :math:`\hat\sigma^2_u` is about
    :math:`\sqrt{2/(B-1)}\,(1 + s/C)` with :math:`s = \sigma^2_\varepsilon /
    \sigma^2_u`, so the remedy is more bootstrap samples: B of several hundred, as
    the authors use. Only where every value of ``x`` is the same (:math:`MS_W = 0`)
    is the standard error 0: z is ±inf unless the estimate is 0, as for the t tests'
    zero variance.

    Parameters
    ----------
    x : array_like of shape (..., B, C)
        Bootstrap cv results, B >= 2 bootstrap samples with C >= 2 cv splits each: a
        loss, an accuracy in [0, 1], or the difference of two learners' (A minus B).
    estimate : float or array_like of shape (...,)
        The cv estimate on the original data (the authors: the mean over many random
        train/test splits of training size m), in the units of ``x``.
    n_instances, n_train : int
        n and m, the original data's size and the cv training size.
    adjust : bool, default True
        Apply the factor for the bootstrap's reduced training information.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"

    Returns
    -------
    BootstrapCVResult
        ``statistic`` z, ``pvalue``, ``df`` inf (standard normal reference),
        ``confidence_interval(cl)``, ``variance_component`` and ``at_bound``.

    Raises
    ------
    ValueError
        If ``x`` is not (..., B, C) with B, C >= 2 and finite values, ``estimate`` does
        not broadcast against ``x.shape[:-2]``, or the sizes are invalid.
    TypeError
        If ``x`` or ``estimate`` does not hold real numbers.

    References
    ----------
    .. [1] Cai, B. et al. (2023). Bootstrapping the cross-validation estimate.
           arXiv:2307.00260.

    Examples
    --------
    >>> res = bootstrap_cv_test([[1, 3], [2, 2], [5, 7]], 3.0, n_instances=90, n_train=50,
    ...                         adjust=False)
    >>> round(float(res._stderr), 4)     # sqrt((MS_B - MS_W) / C) = sqrt((32/3 - 4/3) / 2)
    2.1602
    >>> res = bootstrap_cv_test([[1, 3], [3, 1], [2, 2]], 1.0, n_instances=90, n_train=50,
    ...                         adjust=False)    # MS_B = 0 <= MS_W = 4/3: at the bound
    >>> bool(res.at_bound), round(float(res._stderr), 4)    # sqrt(MS_W / C)
    (True, 0.8165)
    """
    from .._validation import check_finite_array
    x = check_finite_array("x", x, min_ndim=2)
    est = check_finite_array("estimate", estimate)
    alternative = _iv_alternative(alternative)
    B, C = x.shape[-2:]
    if B < 2 or C < 2:
        raise ValueError("`x` must hold B >= 2 bootstrap samples of C >= 2 cv splits each, "
                         f"shape (..., B, C); got shape {x.shape}.")
    try:
        est = np.broadcast_to(est, x.shape[:-2])
    except ValueError:
        raise ValueError(f"`estimate` of shape {est.shape} does not broadcast against the "
                         f"leading dimensions {x.shape[:-2]} of `x`.") from None
    factor = 1.0
    if adjust:
        m_adj = bootstrap_cv_train_size(n_instances, n_train)
        factor = np.sqrt(n_instances - m_adj + 0.632 * m_adj) / np.sqrt(n_instances)
    row = x.mean(axis=-1)
    msb = C * ((row - row.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1) / (B - 1)
    msw = ((x - row[..., None]) ** 2).sum(axis=(-2, -1)) / (B * (C - 1))
    var_u = np.maximum(0.0, (msb - msw) / C)
    at_bound = var_u <= 0
    se = np.sqrt(np.where(at_bound, msw / C, var_u)) * factor
    return _statistic(np.asarray(est, float), se, alternative,
                      "bootstrap cv (random effects)", cls=BootstrapCVResult,
                      variance_component=var_u[()], at_bound=at_bound[()])
