"""Paired t tests for comparing two learning algorithms, with explicit df.

Public API: the tests of Bouckaert (2003) (``repeated_cv_ttest`` and friends),
the classic tests of Dietterich (1998) and Alpaydin (1999) (``mcnemar_test``,
``proportions_test``, ``cv5x2_ttest``, ``cv5x2_ftest``, ``sign_test``), their
result types, the registry of tests used for calibration, and effect sizes with
their magnitude labels (``effect_size_magnitude``, ``cohens_d``, ``cliffs_delta``).
"""

from ._bayes import (BayesianResult, bayesian_signed_rank_test, correlated_bayesian_ttest,
                     correlated_t_rho_threshold)
from ._hierarchical import (HierarchicalDiagnosticWarning, HierarchicalResult,
                            compilation_cache_dir, hierarchical_bayesian_batch,
                            hierarchical_bayesian_test)
from ._classic import ClassicTestResult, mcnemar_test, proportions_test
from ._effect_size import (EFFECT_SIZE_THRESHOLDS, EffectSizes, cliffs_delta, cohens_d,
                           effect_size_magnitude, effect_sizes_vs_best)
from ._multiple import (
    FriedmanResult,
    PairwiseRankResult,
    average_ranks,
    friedman_test,
    rank_z_test,
    sign_test_datasets,
    wilcoxon_datasets,
)
from ._posthoc import (
    BERGMANN_HOMMEL_MAX_LEARNERS,
    bergmann_hommel_test,
    bonferroni_dunn_test,
    critical_difference,
    holm_test,
    nemenyi_test,
    shaffer_test,
)
from ._cv5x2 import cv5x2_ftest, cv5x2_ttest, sign_test
from ._multitest import CORRECTIONS, PAIRWISE_TESTS, MultiTestResult, multitest, multitest_order
from ._multitest_ranks import POSTHOC_METHODS, friedman_from_ranks, posthoc_from_ranks
from ._multitest_datasets import (Multi2TestResult, multi2test, multi2test_from_ranks,
                                  normalised_cost)
from ._registry import (BAYES_TESTS, FIGURE2_TESTS, INSTANCE_TESTS, TESTS, TestSpec,
                        check_calibratable, check_fits_design, fits_design, get_test,
                        needs_instances, takes_df)
from ._cv_inference import (CV_CLT_VARIANCES, BootstrapCVResult, NestedCVResult,
                            bootstrap_cv_test,
                            bootstrap_cv_train_size, cv_clt_test, nested_cv_test)
from ._results import ConfidenceInterval, TTestResult
from ._onesample import (
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    kfold_cv_ttest,
    resampled_ttest,
)
from ._ttests import CV_METHODS, repeated_cv_ttest

__all__ = [
    "BAYES_TESTS",
    "INSTANCE_TESTS",
    "needs_instances",
    "cv_clt_test",
    "nested_cv_test",
    "NestedCVResult",
    "BootstrapCVResult",
    "CV_CLT_VARIANCES",
    "bootstrap_cv_test",
    "bootstrap_cv_train_size",
    "BayesianResult",
    "bayesian_signed_rank_test",
    "correlated_bayesian_ttest",
    "correlated_t_rho_threshold",
    "hierarchical_bayesian_test",
    "hierarchical_bayesian_batch",
    "compilation_cache_dir",
    "HierarchicalResult",
    "HierarchicalDiagnosticWarning",
    "repeated_cv_ttest",
    "kfold_cv_ttest",
    "resampled_ttest",
    "corrected_resampled_ttest",
    "corrected_repeated_cv_ttest",
    "mcnemar_test",
    "proportions_test",
    "cv5x2_ttest",
    "cv5x2_ftest",
    "sign_test",
    "CV_METHODS",
    "TTestResult",
    "ClassicTestResult",
    "ConfidenceInterval",
    "TestSpec",
    "TESTS",
    "FIGURE2_TESTS",
    "get_test",
    "fits_design",
    "check_fits_design",
    "takes_df",
    "check_calibratable",
    "average_ranks",
    "friedman_test",
    "rank_z_test",
    "critical_difference",
    "nemenyi_test",
    "bonferroni_dunn_test",
    "holm_test",
    "shaffer_test",
    "bergmann_hommel_test",
    "BERGMANN_HOMMEL_MAX_LEARNERS",
    "wilcoxon_datasets",
    "sign_test_datasets",
    "FriedmanResult",
    "PairwiseRankResult",
    "multitest",
    "multitest_order",
    "multi2test",
    "multi2test_from_ranks",
    "friedman_from_ranks",
    "posthoc_from_ranks",
    "normalised_cost",
    "MultiTestResult",
    "Multi2TestResult",
    "PAIRWISE_TESTS",
    "CORRECTIONS",
    "POSTHOC_METHODS",
    "EFFECT_SIZE_THRESHOLDS",
    "EffectSizes",
    "cohens_d",
    "cliffs_delta",
    "effect_size_magnitude",
    "effect_sizes_vs_best",
]
