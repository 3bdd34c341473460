"""Paired t tests for comparing two learning algorithms, with explicit df.

Public API: the tests of Bouckaert (2003) (``repeated_cv_ttest`` and friends),
their result types, and the registry of tests used for calibration.
"""

from ._registry import FIGURE2_TESTS, TESTS, TestSpec, get_test
from ._results import ConfidenceInterval, TTestResult
from ._ttests import (
    CV_METHODS,
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    kfold_cv_ttest,
    repeated_cv_ttest,
    resampled_ttest,
)

__all__ = [
    "repeated_cv_ttest",
    "kfold_cv_ttest",
    "resampled_ttest",
    "corrected_resampled_ttest",
    "corrected_repeated_cv_ttest",
    "CV_METHODS",
    "TTestResult",
    "ConfidenceInterval",
    "TestSpec",
    "TESTS",
    "FIGURE2_TESTS",
    "get_test",
]
