"""Tests of the test registry (Bouckaert 2003, Figure 2 set)."""

import dataclasses

import numpy as np
import pytest
from numpy.testing import assert_allclose

from calibsim.stats import (
    CV_METHODS,
    FIGURE2_TESTS,
    TESTS,
    TestSpec,
    TTestResult,
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    cv5x2_ftest,
    cv5x2_ttest,
    get_test,
    kfold_cv_ttest,
    repeated_cv_ttest,
    resampled_ttest,
)


@pytest.fixture
def rng():
    return np.random.default_rng(2003)


def test_names_order_and_figure2_set():
    assert FIGURE2_TESTS == CV_METHODS + ("kfold_cv", "resampling", "corrected_resampling")
    assert len(FIGURE2_TESTS) == 13
    assert list(TESTS) == list(FIGURE2_TESTS) + ["corrected_repeated_cv", "cv5x2_t", "cv5x2_f",
                                                 "mcnemar", "mcnemar_exact", "proportions"]
    for name, spec in TESTS.items():
        assert isinstance(spec, TestSpec) and spec.name == name


def test_labels_and_schemes():
    # Labels as the paper names the tests (Bouckaert 2003, Table 1 and Figure 3).
    expected = {
        "use_all_data": "use all data", "folds": "folds",
        "folds_averaged_var": "folds averaged var", "folds_averaged_t": "folds averaged T",
        "runs": "runs", "runs_averaged_var": "runs averaged var",
        "runs_averaged_t": "runs averaged T", "sorted_runs": "sorted runs",
        "sorted_runs_averaged_var": "sorted runs averaged var",
        "sorted_runs_averaged_t": "sorted runs averaged T",
        "kfold_cv": "k-fold cv", "resampling": "resampling",
        "corrected_resampling": "corrected resampling",
        "corrected_repeated_cv": "corrected repeated cv",
        "cv5x2_t": "5x2cv t", "cv5x2_f": "5x2cv F", "mcnemar": "McNemar",
        "mcnemar_exact": "McNemar exact", "proportions": "difference of proportions",
    }
    assert {n: s.label for n, s in TESTS.items()} == expected
    schemes = {n: s.scheme for n, s in TESTS.items()}
    assert schemes.pop("kfold_cv") == "kfold"
    assert schemes.pop("resampling") == schemes.pop("corrected_resampling") == "subsampling"
    assert schemes.pop("cv5x2_t") == schemes.pop("cv5x2_f") == "cv5x2"
    assert {schemes.pop(n) for n in ("mcnemar", "mcnemar_exact", "proportions")} == {"holdout"}
    assert set(schemes.values()) == {"cv"}


def test_default_df():
    r, k = 5, 10
    expected = {
        "use_all_data": 49, "folds": 4, "folds_averaged_var": 4, "folds_averaged_t": 9,
        "runs": 9, "runs_averaged_var": 9, "runs_averaged_t": 4, "sorted_runs": 9,
        "sorted_runs_averaged_var": 9, "sorted_runs_averaged_t": 4, "kfold_cv": 9,
        "resampling": 4, "corrected_resampling": 4, "corrected_repeated_cv": 49,
        "cv5x2_t": 5, "cv5x2_f": 5, "mcnemar": None, "mcnemar_exact": None,
        "proportions": None,
    }
    assert {n: s.default_df(r, k) for n, s in TESTS.items()} == expected


def test_default_df_agrees_with_function_default(rng):
    x = rng.normal(size=(7, 6))                                  # r = 7, k = 6
    for name, spec in TESTS.items():
        if spec.scheme in ("cv5x2", "holdout"):
            continue                          # see test_cv5x2_entries and the holdout test
        xx = x[:, 0] if spec.scheme == "subsampling" else x       # n = 7 subsampling runs
        assert spec.func(xx, None).df == spec.default_df(7, 6), name


def test_funcs_match_direct_calls(rng):
    x = rng.normal(0.0, 0.05, size=(20, 5, 10))
    dfs = np.array([[3.0], [12.5]])
    for method in CV_METHODS:
        assert_allclose(TESTS[method].func(x, dfs).pvalue,
                        repeated_cv_ttest(x, method=method, df=dfs).pvalue, rtol=1e-15)
    # k-fold cv uses the FIRST run of the r x k array.
    assert_allclose(TESTS["kfold_cv"].func(x, dfs).statistic,
                    kfold_cv_ttest(x[:, 0, :], df=dfs).statistic, rtol=1e-15)
    xs = x[:, :, 0]                                              # (N, n) subsampling
    assert_allclose(TESTS["resampling"].func(xs, dfs).statistic,
                    resampled_ttest(xs, df=dfs).statistic, rtol=1e-15)
    # corrected resampling: 90%/10% subsampling -> n2/n1 = 1/9 by default.
    assert_allclose(TESTS["corrected_resampling"].func(xs, dfs).statistic,
                    corrected_resampled_ttest(xs, test_train_ratio=1 / 9, df=dfs).statistic,
                    rtol=1e-15)
    assert_allclose(TESTS["corrected_resampling"].func(xs, dfs, test_train_ratio=0.5).statistic,
                    corrected_resampled_ttest(xs, test_train_ratio=0.5, df=dfs).statistic,
                    rtol=1e-15)
    assert_allclose(TESTS["corrected_repeated_cv"](x, None).statistic,
                    corrected_repeated_cv_ttest(x).statistic, rtol=1e-15)
    res = TESTS["use_all_data"](x, 10, alternative="greater")
    assert isinstance(res, TTestResult)
    assert_allclose(res.pvalue, repeated_cv_ttest(x, df=10, alternative="greater").pvalue)


def test_cv5x2_entries(rng):
    x = rng.normal(0.0, 0.05, size=(20, 5, 2))
    dfs = np.array([[3.0], [5.0], [12.5]])
    res = TESTS["cv5x2_t"](x, None)
    assert res.df == TESTS["cv5x2_t"].default_df(5, 2) == 5
    assert_allclose(res.pvalue, cv5x2_ttest(x).pvalue, rtol=1e-15)
    assert_allclose(TESTS["cv5x2_t"](x, dfs, alternative="less").pvalue,
                    cv5x2_ttest(x, df=dfs, alternative="less").pvalue, rtol=1e-15)
    f = TESTS["cv5x2_f"](x, None)
    assert f.df == (10.0, 5.0)
    assert_allclose(f.pvalue, cv5x2_ftest(x).pvalue, rtol=1e-15)
    assert TESTS["cv5x2_f"](x, dfs).pvalue.shape == (3, 20)          # calibration layout
    assert TESTS["cv5x2_f"](x, None, alternative="two-sided").pvalue.shape == (20,)
    with pytest.raises(ValueError, match="`alternative` must be 'two-sided' for the combined"):
        TESTS["cv5x2_f"](x, None, alternative="greater")
    with pytest.raises(ValueError, match=r"must have shape \(\.\.\., 5, 2\)"):
        TESTS["cv5x2_t"](rng.normal(size=(20, 10, 10)), None)


def test_kfold_entry_validates_x():
    with pytest.raises(ValueError, match=r"`x` must have shape \(\.\.\., r, k\).*first run"):
        TESTS["kfold_cv"].func(np.zeros(5), None)


def test_get_test():
    spec = get_test("use_all_data")
    assert spec is TESTS["use_all_data"]
    assert get_test(spec) is spec
    with pytest.raises(ValueError, match=r"`test` must be one of .*'use_all_data'.*'ttest'"):
        get_test("ttest")


def test_spec_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        TESTS["folds"].label = "mean folds"


def test_holdout_tests_take_mcnemar_counts():
    from calibsim.stats import mcnemar_test, proportions_test
    counts = np.array([[10, 5, 15, 70], [3, 9, 2, 86]])
    np.testing.assert_allclose(TESTS["mcnemar"](counts).pvalue,
                               mcnemar_test(counts[:, 1], counts[:, 2]).pvalue)
    np.testing.assert_allclose(TESTS["mcnemar_exact"](counts).pvalue,
                               mcnemar_test(counts[:, 1], counts[:, 2], exact=True).pvalue)
    np.testing.assert_allclose(TESTS["proportions"](counts).pvalue,
                               proportions_test(*counts.T).pvalue)
    assert TESTS["mcnemar"].default_df(1, 1) is None
    with pytest.raises(ValueError, match="shape \\(..., 4\\)"):
        TESTS["mcnemar"](np.ones((3, 5)))
    with pytest.raises(ValueError, match="`df` must be None"):
        TESTS["proportions"](counts, 5)
