"""The table of :func:`calibsim.compare_all`: a DataFrame that also reports itself."""

from __future__ import annotations

import pandas as pd

from ..reports import Reportable

__all__ = ["CompareAllTable"]


class CompareAllTable(Reportable, pd.DataFrame):
    """One row per pair of learners (see :func:`calibsim.compare_all`), with the report.

    A :class:`pandas.DataFrame` in every respect; it also keeps what the comparison
    recorded (design, test, df and its source, the correction, each learner's per-split
    accuracies, the seed and the call), so that ``report(format)`` and
    ``save_report(path)`` can say how the table was made. Frames derived from it
    (slices, copies) are plain DataFrames.
    """

    _metadata = ["_info"]
    _info = None

    def to_frame(self) -> pd.DataFrame:
        """The table as a plain DataFrame (one row per pair)."""
        return pd.DataFrame(self).copy()

    def pvalue_matrix(self) -> pd.DataFrame:
        """The adjusted p-values as a learner × learner DataFrame (1 on the diagonal), as
        scikit-posthocs gives them."""
        from ._report import pvalue_matrix
        learners = (self._info or {}).get("learners") or list(dict.fromkeys(
            list(self["learner_a"]) + list(self["learner_b"])))
        return pvalue_matrix(self, list(learners))

    def _report(self):
        from ._report import compare_all_report
        return compare_all_report(self)
