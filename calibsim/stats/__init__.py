"""Paired t tests for comparing two learning algorithms, with explicit df.

Public API: the tests of Bouckaert (2003) (``repeated_cv_ttest`` and friends),
the classic tests of Dietterich (1998) and Alpaydin (1999) (``mcnemar_test``,
``proportions_test``, ``cv5x2_ttest``, ``cv5x2_ftest``, ``sign_test``), their
result types, and the registry of tests used for calibration.
"""

from ._classic import ClassicTestResult, mcnemar_test, proportions_test
from ._cv5x2 import cv5x2_ftest, cv5x2_ttest, sign_test
from ._registry import FIGURE2_TESTS, TESTS, TestSpec, get_test
from ._results import ConfidenceInterval, TTestResult
from ._onesample import (
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    kfold_cv_ttest,
    resampled_ttest,
)
from ._ttests import CV_METHODS, repeated_cv_ttest

__all__ = [
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
]
