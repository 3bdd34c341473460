"""Resampling schemes: splitters that say which instances each fold tests.

Schemes follow scikit-learn's splitter protocol (``split(X, y=None, groups=None)``,
``get_n_splits``, ``random_state``), so any of them can be passed as ``cv=`` to
``cross_val_score`` or ``GridSearchCV``, and they also report what the variance
corrections and df calibration need (``test_train_ratio``, ``n_runs``). The .632
bootstrap (Efron 1983) serves the tuning protocols of the study engine; the bootstrap of
the cv estimate (Cai et al. 2023, :class:`BootstrapCV`) fits on resampled data sets.
"""

from ._bootstrap import WEIGHT_OUT_OF_BAG, Bootstrap632, BootstrapCV, bootstrap632_accuracy
from ._splitters import (
    FiveByTwoCV,
    Holdout,
    NestedCV,
    RandomSubsampling,
    RepeatedCV,
    StratifiedRepeatedCV,
)

__all__ = ["StratifiedRepeatedCV", "RepeatedCV", "FiveByTwoCV", "RandomSubsampling", "Holdout",
           "NestedCV", "Bootstrap632", "BootstrapCV", "bootstrap632_accuracy", "WEIGHT_OUT_OF_BAG"]


#: Former names of calibsim's own splitters, which are not scikit-learn's classes of the
#: same name (other parameters, other folds): kept for one release with a FutureWarning.
_RENAMED = {"RepeatedStratifiedKFold": "StratifiedRepeatedCV", "RepeatedKFold": "RepeatedCV"}


def __getattr__(name):
    if name in _RENAMED:
        import warnings
        new = _RENAMED[name]
        warnings.warn(f"calibsim.schemes.{name} is renamed {new} (it is calibsim's own "
                      f"splitter with n_folds/n_runs, not scikit-learn's {name}); the old name "
                      "goes in calibsim 0.3.", FutureWarning, stacklevel=2)
        return globals()[new]
    raise AttributeError(f"module 'calibsim.schemes' has no attribute {name!r}")
