"""Registry of the tests compared in Bouckaert (2003), Figure 2.

Each entry is a frozen :class:`TestSpec`. ``spec.func(x, df)`` takes the data
of its *scheme*:

- ``"cv"``: the full r x k cross-validation array of shape (..., r, k);
- ``"kfold"``: also an r x k cross-validation array (..., r, k), of which only
  the FIRST run ``x[..., 0, :]`` is used (a single k-fold cv);
- ``"subsampling"``: an array of shape (..., n) of n random-subsampling runs.
- ``"cv5x2"``: five replications of 2-fold cross-validation, (..., 5, 2).
- ``"holdout"``: McNemar's counts (..., 4) = n00, n01, n10, n11 of one train/test
  split (Dietterich 1998); these tests have no df (``df`` must be None).
- ``"instances"``: per-instance outcomes of r x k cv in the masked layout (..., r, k, n)
  (instance i's A-minus-B correctness where it is in fold (run, fold)'s test set, NaN
  elsewhere), of which the first run is used (Bayle et al. 2020); no df.
- ``"nested"``: per-instance outcomes of R repetitions of nested K-fold cv in the masked
  layout (..., R, K, K, n) of :func:`calibsim.stats.nested_cv_test` (Bates et al. 2023);
  no df.
- ``"bootstrap"``: accuracy differences (..., 1 + B, C) of the bootstrap of the cv
  estimate (:class:`calibsim.schemes.BootstrapCV`: row 0 the C splits of the data as they
  are, rows 1..B the C splits of each bootstrap sample; Cai et al. 2023); no df.

``spec.default_df(n_runs, n_folds)`` is the textbook df (for subsampling,
``n_runs`` is the number n of subsampling runs and ``n_folds`` is ignored).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from typing import Callable

from .._validation import check_finite_array
from ._classic import ClassicTestResult, mcnemar_test, proportions_test
from ._cv5x2 import cv5x2_ftest, cv5x2_ttest
from ._cv_inference import bootstrap_cv_test, cv_clt_test, nested_cv_test
from ._results import TTestResult
from ._onesample import (
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    kfold_cv_ttest,
    resampled_ttest,
)
from ._ttests import CV_METHODS, default_cv_df, repeated_cv_ttest

__all__ = ["TestSpec", "TESTS", "FIGURE2_TESTS", "get_test", "fits_design",
           "check_fits_design", "designs_text", "takes_df", "check_calibratable",
           "INSTANCE_TESTS", "needs_instances"]

SCHEMES = ("cv", "kfold", "subsampling", "cv5x2", "holdout", "instances", "nested",
           "bootstrap")


@dataclass(frozen=True)
class TestSpec:
    """Description of one registered test.

    Attributes
    ----------
    name : str
        Registry key, e.g. ``"use_all_data"``.
    label : str
        The paper's human-readable name, e.g. ``"use all data"``.
    scheme : {"cv", "kfold", "subsampling", "cv5x2", "holdout", "instances", "nested", \
"bootstrap"}
        Which data ``func`` takes (see the module docstring).
    func : callable
        ``func(x, df=None, **kwargs) -> TTestResult`` (``ClassicTestResult``
        for the 5x2cv F test).
    default_df : callable
        ``default_df(n_runs, n_folds) -> int``, the textbook df.
    """

    __test__ = False  # not a pytest test class despite its name

    name: str
    label: str
    scheme: str
    func: Callable[..., TTestResult | ClassicTestResult]
    default_df: Callable[[int, int], int]

    def __call__(self, x, df=None, **kwargs) -> TTestResult | ClassicTestResult:
        """Shorthand for ``self.func(x, df, **kwargs)``."""
        return self.func(x, df, **kwargs)


def _cv_func(method):
    def func(x, df=None, *, alternative="two-sided"):
        return repeated_cv_ttest(x, method=method, df=df, alternative=alternative)
    func.__name__ = method
    func.__doc__ = f"``repeated_cv_ttest(x, method={method!r}, df=df)`` on x (..., r, k)."
    return func


def _cv_default(method):
    def default_df(n_runs, n_folds):
        return default_cv_df(method, n_runs, n_folds)
    return default_df


def _kfold_cv(x, df=None, *, alternative="two-sided"):
    """k-fold cv t test on the first run ``x[..., 0, :]`` of x (..., r, k)."""
    x = check_finite_array("x", x)
    if x.ndim < 2:
        raise ValueError("`x` must have shape (..., r, k) (the k-fold cv test uses "
                         f"the first run x[..., 0, :]); got shape {x.shape}.")
    return kfold_cv_ttest(x[..., 0, :], df=df, alternative=alternative)


def _resampling(x, df=None, *, alternative="two-sided"):
    """Resampled t test on x (..., n)."""
    return resampled_ttest(x, df=df, alternative=alternative)


def _corrected_resampling(x, df=None, *, test_train_ratio=1 / 9, alternative="two-sided"):
    """Corrected resampled t test on x (..., n); n2/n1 = 1/9 (90%/10% splits)."""
    return corrected_resampled_ttest(x, test_train_ratio=test_train_ratio, df=df,
                                     alternative=alternative)


def _corrected_repeated_cv(x, df=None, *, test_train_ratio=None, alternative="two-sided"):
    """Corrected repeated k-fold cv t test on x (..., r, k); n2/n1 = 1/(k-1)."""
    return corrected_repeated_cv_ttest(x, test_train_ratio=test_train_ratio, df=df,
                                       alternative=alternative)


def _cv5x2_t(x, df=None, *, alternative="two-sided"):
    """Dietterich's 5x2cv paired t test on x (..., 5, 2); df only in the reference t."""
    return cv5x2_ttest(x, df=df, alternative=alternative)


def _cv5x2_f(x, df=None, *, alternative="two-sided"):
    """Alpaydin's combined 5x2cv F test on x (..., 5, 2); df is the denominator df.

    The test pools squared differences, so only ``alternative="two-sided"``
    (accepted for a uniform registry interface) is allowed.
    """
    if alternative != "two-sided":
        raise ValueError("`alternative` must be 'two-sided' for the combined 5x2cv F test "
                         f"(it pools squared differences); got {alternative!r}.")
    return cv5x2_ftest(x, df=df)


def _counts(x, df):
    x = np.asarray(x)
    if x.shape[-1:] != (4,):
        raise ValueError("`x` must hold McNemar's counts n00, n01, n10, n11 along its last "
                         f"axis, shape (..., 4); got shape {x.shape}.")
    if df is not None:
        raise ValueError(f"`df` must be None for a test without degrees of freedom; got {df!r}.")
    return x[..., 0], x[..., 1], x[..., 2], x[..., 3]


def _mcnemar(x, df=None, *, alternative="two-sided"):
    """McNemar's chi-square test with continuity correction on counts x (..., 4)."""
    _, n01, n10, _ = _counts(x, df)
    return mcnemar_test(n01, n10, correction=True, alternative=alternative)


def _mcnemar_exact(x, df=None, *, alternative="two-sided"):
    """McNemar's exact (binomial) test on counts x (..., 4)."""
    _, n01, n10, _ = _counts(x, df)
    return mcnemar_test(n01, n10, exact=True, alternative=alternative)


def _proportions(x, df=None, *, alternative="two-sided"):
    """Dietterich's difference of two proportions on counts x (..., 4)."""
    return proportions_test(*_counts(x, df), alternative=alternative)


def _bayes_t(rope):
    def func(x, df=None, *, alternative="two-sided"):
        """The correlated Bayesian t test's decision, read as a p-value (df unused)."""
        from ._bayes import correlated_bayesian_ttest
        return correlated_bayesian_ttest(x, rope=rope)
    func.__name__ = f"bayes_correlated_t_rope{rope:g}"
    return func


def _build():
    # Labels as in the paper: "use all data", "folds averaged var", "runs averaged T", ...
    specs = [TestSpec(m, m.replace("_", " ").removesuffix(" t") + (" T" if m.endswith("_t") else ""),
                      "cv", _cv_func(m), _cv_default(m))
             for m in CV_METHODS]
    specs += [
        TestSpec("kfold_cv", "k-fold cv", "kfold", _kfold_cv,
                 lambda n_runs, n_folds: n_folds - 1),
        TestSpec("resampling", "resampling", "subsampling", _resampling,
                 lambda n_runs, n_folds: n_runs - 1),
        TestSpec("corrected_resampling", "corrected resampling", "subsampling",
                 _corrected_resampling, lambda n_runs, n_folds: n_runs - 1),
        TestSpec("corrected_repeated_cv", "corrected repeated cv", "cv",
                 _corrected_repeated_cv, lambda n_runs, n_folds: n_runs * n_folds - 1),
        # Dietterich (1998) and Alpaydin (1999): df 5 whatever the scheme's size.
        TestSpec("cv5x2_t", "5x2cv t", "cv5x2", _cv5x2_t, lambda n_runs, n_folds: 5),
        TestSpec("cv5x2_f", "5x2cv F", "cv5x2", _cv5x2_f, lambda n_runs, n_folds: 5),
        # Dietterich (1998) on one holdout split: no df.
        TestSpec("mcnemar", "McNemar", "holdout", _mcnemar, lambda n_runs, n_folds: None),
        TestSpec("mcnemar_exact", "McNemar exact", "holdout", _mcnemar_exact,
                 lambda n_runs, n_folds: None),
        TestSpec("proportions", "difference of proportions", "holdout", _proportions,
                 lambda n_runs, n_folds: None),
    ]
    return {s.name: s for s in specs}


#: Ordered mapping name -> :class:`TestSpec`: the 13 tests of Bouckaert (2003)
#: Figure 2 (the ten Table-1 tests, k-fold cv, resampling, corrected
#: resampling), Bouckaert & Frank's (2004) corrected repeated cv, then
#: Dietterich's (1998) 5x2cv t and Alpaydin's (1999) 5x2cv F (default df 5;
#: for the F test df is the denominator df, the numerator df stays 10), and
#: Dietterich's holdout tests: McNemar (continuity corrected, and exact) and the
#: difference of two proportions.
TESTS: dict[str, TestSpec] = _build()

#: The Bayesian comparisons usable wherever a test name is (analyses, ``compare``): the
#: correlated Bayesian t test (Corani & Benavoli 2015, rho = 1/k) without and with a ROPE
#: of one percentage point. Their ``pvalue`` is 1 - max(P(A better), P(B better)), so a
#: rejection rate at α is the decision rate at threshold 1 - α; they take no df (the df
#: argument is ignored), hence they are kept apart from the df-explicit :data:`TESTS`.
BAYES_TESTS: dict[str, TestSpec] = {s.name: s for s in (
    TestSpec("bayes_correlated_t", "correlated Bayesian t", "cv", _bayes_t(0.0),
             lambda n_runs, n_folds: n_runs * n_folds - 1),
    TestSpec("bayes_correlated_t_rope1", "correlated Bayesian t, ROPE 1 point", "cv",
             _bayes_t(0.01), lambda n_runs, n_folds: n_runs * n_folds - 1),
)}

def _no_df(name, df):
    if df is not None and not (isinstance(df, float) and np.isnan(df)):
        raise ValueError(f"`df` must be None for {name!r}, whose reference is the standard "
                         f"normal; got {df!r}.")


def _bayle_cv_clt(x, df=None, *, alternative="two-sided", variance="all-pairs"):
    """Bayle et al.'s cv CLT test on the first run ``x[..., 0, :, :]`` of per-instance
    outcomes x (..., r, k, n) in the masked layout (NaN off the fold's test set)."""
    _no_df("bayle_cv_clt", df)
    x = np.asarray(x, dtype=float)
    if x.ndim < 3:
        raise ValueError("`x` must hold per-instance outcomes of shape (..., r, k, n) (NaN "
                         f"where an instance is not in the fold's test set); got shape {x.shape}.")
    return cv_clt_test(x[..., 0, :, :], variance=variance, alternative=alternative)


def _ncv(x, df=None, *, alternative="two-sided"):
    """Bates et al.'s nested cv test on per-instance outcomes x (..., R, K, K, n)."""
    _no_df("ncv", df)
    return nested_cv_test(x, alternative=alternative)


def _bootstrap_cv(x, df=None, *, n_instances, n_train, alternative="two-sided",
                  adjust=True):
    """Cai et al.'s bootstrap of the cv estimate on x (..., 1 + B, C): the estimate is the
    mean of row 0 (the C splits of the data as they are, training size ``n_train``), the
    random-effects standard error from rows 1..B (the bootstrap samples' splits), with
    the authors' adjustment for the bootstrap's fewer distinct training instances
    (``adjust``; their ``CV.confint(adj=...)``)."""
    _no_df("bootstrap_cv" if adjust else "bootstrap_cv_unadjusted", df)
    x = check_finite_array("x", x, min_ndim=2)
    if x.shape[-2] < 3:
        raise ValueError("`x` must hold the C splits of the data as they are (row 0) and "
                         "B >= 2 bootstrap samples' splits, shape (..., 1 + B, C); got "
                         f"shape {x.shape}.")
    return bootstrap_cv_test(x[..., 1:, :], x[..., 0, :].mean(axis=-1),
                             n_instances=n_instances, n_train=n_train, adjust=adjust,
                             alternative=alternative)


def _bootstrap_cv_unadjusted(x, df=None, **kwargs):
    """:func:`_bootstrap_cv` without the adjustment for the training size."""
    return _bootstrap_cv(x, df, adjust=False, **kwargs)


#: The tests that need more than the per-fold accuracies of an ordinary design. On
#: per-instance outcomes (0/1 correctness of every test instance of every fit):
#: Bayle, Bayle, Janson & Mackey's (2020) k-fold cv central limit theorem test
#: (all-pairs variance; on the first run of r x k cv) and Bates, Hastie & Tibshirani's
#: (2023) nested cv (NCV), which needs a nested design (``"ncv:RxK"``). On bootstrap
#: samples: Cai et al.'s (2023) bootstrap of the cv estimate, which needs the bootstrap
#: cv design (``"bootcv:BxC"``), with the authors' adjustment for the bootstrap's training
#: size and without it (their ``CV.confint(adj=FALSE)``). All use the standard normal, so they take no df; only
#: :func:`calibsim.compare` (which keeps each fit's per-instance outcomes, or fits the
#: bootstrap samples) runs them.
INSTANCE_TESTS: dict[str, TestSpec] = {s.name: s for s in (
    TestSpec("bayle_cv_clt", "cv CLT (Bayle et al. 2020)", "instances", _bayle_cv_clt,
             lambda n_runs, n_folds: None),
    TestSpec("ncv", "nested cv (Bates et al. 2023)", "nested", _ncv,
             lambda n_runs, n_folds: None),
    TestSpec("bootstrap_cv", "bootstrap cv (Cai et al. 2023)", "bootstrap", _bootstrap_cv,
             lambda n_runs, n_folds: None),
    TestSpec("bootstrap_cv_unadjusted", "bootstrap cv, unadjusted (Cai et al. 2023)",
             "bootstrap", _bootstrap_cv_unadjusted, lambda n_runs, n_folds: None),
)}

#: Names of the 13 tests of Bouckaert (2003) Figure 2, in registry order.
FIGURE2_TESTS: tuple[str, ...] = tuple(TESTS)[:13]


def get_test(name) -> TestSpec:
    """Return the registered :class:`TestSpec` called ``name``.

    Parameters
    ----------
    name : str or TestSpec
        A key of :data:`TESTS`; a :class:`TestSpec` is returned unchanged.

    Returns
    -------
    TestSpec

    Raises
    ------
    ValueError
        If ``name`` is not registered; the message lists the known names.

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import get_test
    >>> spec = get_test("corrected_resampling")
    >>> spec.label, spec.scheme, spec.default_df(30, 10)
    ('corrected resampling', 'subsampling', 29)
    >>> x = np.array([0.01, 0.03, -0.02, 0.02, 0.04, 0.00, 0.01, 0.02])
    >>> round(float(spec.func(x, None).pvalue), 4)
    0.1693
    """
    if isinstance(name, TestSpec):
        return name
    if isinstance(name, str) and name in BAYES_TESTS:
        return BAYES_TESTS[name]
    if isinstance(name, str) and name in INSTANCE_TESTS:
        return INSTANCE_TESTS[name]
    if name not in TESTS:
        import difflib
        known = list(TESTS) + list(BAYES_TESTS) + list(INSTANCE_TESTS)
        near = difflib.get_close_matches(str(name), known, n=2)
        hint = f" (did you mean {' or '.join(near)}?)" if near else ""
        raise ValueError(f"`test` must be one of the registered tests {known}; "
                         f"got {name!r}{hint}.")
    return TESTS[name]



# --- Which designs a test fits ---------------------------------------------------------
#: Design kinds (as :func:`calibsim.compare` parses them): ``"cv"`` r runs of k-fold cv,
#: ``"cv5x2"`` 5x2cv, ``"subsampling"`` n random train/test splits, ``"holdout"`` one split,
#: ``"nested"`` R repetitions of nested K-fold cv (``"ncv:RxK"``), ``"bootstrap"`` B bootstrap
#: samples x C splits (``"bootcv:BxC"``).
DESIGN_KINDS = ("cv", "cv5x2", "subsampling", "holdout", "nested", "bootstrap")


def needs_instances(test) -> bool:
    """Whether ``test`` runs on per-instance outcomes of every fit (:data:`INSTANCE_TESTS`)
    rather than per-fold accuracies, so that given per-fold scores cannot feed it."""
    return get_test(test).scheme in ("instances", "nested")


def _one_run_ok(spec) -> bool:
    """Tests that need no second run: the corrected repeated cv t (Nadeau & Bengio's
    correction on one k-fold cv) and the correlated Bayesian t."""
    return spec.name == "corrected_repeated_cv" or spec.name in BAYES_TESTS


def fits_design(test, kind: str, n_runs: int, n_folds: int) -> bool:
    """Whether ``test`` applies to a design of ``kind`` with r = ``n_runs``, k = ``n_folds``.

    Parameters
    ----------
    test : str or TestSpec
    kind : {"cv", "cv5x2", "subsampling", "holdout", "nested", "bootstrap"}
    n_runs, n_folds : int
        r and k (for subsampling n_runs is the number of splits, n_folds 0; for the
        bootstrap B and C).

    Returns
    -------
    bool

    Examples
    --------
    >>> fits_design("cv5x2_f", "cv5x2", 5, 2), fits_design("cv5x2_f", "cv", 10, 10)
    (True, False)
    >>> fits_design("corrected_repeated_cv", "cv", 1, 10), fits_design("use_all_data", "cv", 1, 10)
    (True, False)
    """
    spec = get_test(test)
    if spec.scheme == "cv":
        return kind in ("cv", "cv5x2") and (n_runs >= 2 or _one_run_ok(spec))
    if spec.scheme == "instances":          # one k-fold cv: the first run
        return kind in ("cv", "cv5x2")
    if spec.scheme == "nested":             # the inner cv runs on K - 1 >= 2 folds
        return kind == "nested" and n_folds >= 3
    if spec.scheme == "bootstrap":          # random effects: B >= 2 samples, C >= 2 splits
        return kind == "bootstrap" and n_runs >= 2 and n_folds >= 2
    if spec.scheme == "kfold":
        return kind in ("cv", "cv5x2")
    if spec.scheme == "cv5x2":
        return kind in ("cv", "cv5x2") and (n_runs, n_folds) == (5, 2)
    if spec.scheme == "subsampling":
        return kind == "subsampling" and n_runs >= 2
    return kind == spec.scheme


def designs_text(test) -> str:
    """The designs ``test`` fits, in words with examples (for error messages)."""
    spec = get_test(test)
    return {
        "cv": ("r runs of k-fold cv, e.g. '10x10', '1x10' or '5x2cv'" if _one_run_ok(spec)
               else "r runs of k-fold cv with r >= 2, e.g. '10x10' or '5x2cv'"),
        "kfold": "k-fold cv (the first run of r x k cv), e.g. '1x10' or '10x10'",
        "cv5x2": "5x2cv ('5x2cv'; five runs of 2-fold cv)",
        "subsampling": ("random subsampling with n >= 2 splits, e.g. 'subsampling:30' or "
                        "'subsampling:30@0.2'"),
        "holdout": ("one holdout split, e.g. 'holdout' or 'holdout@0.33' (the counts n01, "
                    "n10 need each instance's predictions: calibsim.compare only)"),
        "instances": ("k-fold cv, the first run of r x k cv, e.g. '1x10' or '10x10' (it needs "
                      "each instance's outcome: calibsim.compare only)"),
        "nested": ("nested cv, R repetitions of K-fold cv with an inner cv in each outer "
                   "training set, K >= 3, e.g. 'ncv:50x10' (it needs each instance's "
                   "outcome: calibsim.compare only)"),
        "bootstrap": ("the bootstrap of the cv estimate, B >= 2 bootstrap samples of C >= 2 "
                      "random splits each, e.g. 'bootcv:50x10' or 'bootcv:50x10@0.5' (test "
                      "share 0.5; it fits on bootstrap samples: calibsim.compare only)"),
    }[spec.scheme]


def check_fits_design(test, kind: str, n_runs: int, n_folds: int, name: str) -> None:
    """Refuse, in one ValueError, a test on a design it does not fit.

    Raises
    ------
    ValueError
        Naming the test, the design ``name`` and the designs the test fits.
    """
    if not fits_design(test, kind, n_runs, n_folds):
        spec = get_test(test)
        raise ValueError(f"`test` {spec.name!r} does not fit the design {name!r}; it fits "
                         f"{designs_text(spec)}. Choose another test or design "
                         "(calibsim list tests).")


def takes_df(test) -> bool:
    """Whether ``test`` has a df to calibrate (not McNemar's, the proportions test, the
    Bayesian tests or the tests on per-instance outcomes, which use the normal)."""
    spec = get_test(test)
    return (spec.scheme not in ("holdout", "instances", "nested", "bootstrap")
            and spec.name not in BAYES_TESTS)


def check_calibratable(test) -> None:
    """Refuse, in one ValueError, to calibrate the df of a test that has none.

    Raises
    ------
    ValueError
        Naming the test, why it has no df, and the tests that have one.
    """
    spec = get_test(test)
    if not takes_df(spec):
        why = ("a posterior probability" if spec.name in BAYES_TESTS else
               "a standard normal reference from bootstrap samples"
               if spec.scheme == "bootstrap" else
               "a standard normal reference from per-instance outcomes"
               if spec.name in INSTANCE_TESTS else
               "counts of one holdout split (chi-square, binomial or normal reference)")
        raise ValueError(f"`test` {spec.name!r} takes no df ({why}), so there is none to "
                         f"calibrate; the tests with a df: {', '.join(n for n in TESTS if takes_df(n))}.")
