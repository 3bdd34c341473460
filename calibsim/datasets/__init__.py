"""Data sets in calibsim's encoding, read from ARFF or CSV files, scikit-learn or arrays.

calibsim's learners take one encoding of general data, shared by every learner
(:class:`Dataset`): ``X`` float64 with nominal codes ``0 .. n_values[j] - 1`` and
numeric values, NaN for a missing value; ``n_values[j]`` the number of values of
nominal attribute ``j`` (0 for a numeric one); ``y`` int64 class codes, or for a
regression set (a numeric target, ``class_values == ()``) float64 target values. The
UCI files shipped in ``calibsim/data/uci/`` (classification, :data:`UCI_DATASETS`) and
``calibsim/data/regression/`` (:data:`REGRESSION_DATASETS`) are read with
:func:`load_uci`.
"""

from ._arff import load_arff
from ._csv import load_csv
from ._dataset import Dataset
from ._loaders import REGRESSION_DATASETS, UCI_DATASETS, from_arrays, from_sklearn, load_uci

__all__ = ["Dataset", "UCI_DATASETS", "REGRESSION_DATASETS", "load_arff", "load_csv",
           "load_uci", "from_sklearn", "from_arrays"]
