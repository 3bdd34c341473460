"""Resampling schemes: splitters that say which instances each fold tests.

Schemes follow scikit-learn's splitter protocol (``split(X, y=None, groups=None)``,
``get_n_splits``, ``random_state``), so any of them can be passed as ``cv=`` to
``cross_val_score`` or ``GridSearchCV``, and they also report what the variance
corrections and df calibration need (``test_train_ratio``, ``n_runs``). The .632
bootstrap (Efron 1983) serves the tuning protocols of the study engine.
"""

from ._bootstrap import WEIGHT_OUT_OF_BAG, Bootstrap632, bootstrap632_accuracy
from ._splitters import (
    FiveByTwoCV,
    Holdout,
    RandomSubsampling,
    RepeatedKFold,
    RepeatedStratifiedKFold,
)

__all__ = ["RepeatedStratifiedKFold", "RepeatedKFold", "FiveByTwoCV", "RandomSubsampling", "Holdout",
           "Bootstrap632", "bootstrap632_accuracy", "WEIGHT_OUT_OF_BAG"]
