"""Data sources: simulated data sets with known learner differences, and real data sets."""

from .._lazy import _lazy_exports

# public name -> module that defines it, loaded on first use: the main process of a run
# builds its sources without importing numba for the BAN and epsilon-point kernels
# (issue 46)
_API = {"DatasetSource": "_dataset", "DietterichTaskSource": "_dietterich_tasks",
        "null_ban": "_ban", "random_ban": "_ban", "read_network": "_ban",
        "write_network": "_ban", "BANSource": "_ban_source",
        "EpsilonPointSource": "_epsilon_point", "EpsilonPointTrials": "_epsilon_point",
        "epsilon_pair": "_epsilon_point", "LogisticSource": "_logistic",
        "NullSource": "_null",
        "NadeauBengioRegressionSource": "_nadeau_bengio",
        "NadeauBengioClassificationSource": "_nadeau_bengio",
        "nadeau_bengio_regression_errors": "_nadeau_bengio",
        "nadeau_bengio_null_slope": "_nadeau_bengio",
        "nadeau_bengio_classification_errors": "_nadeau_bengio"}

__all__ = ["NullSource", "LogisticSource", "DatasetSource", "DietterichTaskSource", "EpsilonPointSource", "EpsilonPointTrials", "epsilon_pair",
           "BANSource", "random_ban", "null_ban", "read_network", "write_network",
           "NadeauBengioRegressionSource", "NadeauBengioClassificationSource",
           "nadeau_bengio_regression_errors", "nadeau_bengio_null_slope",
           "nadeau_bengio_classification_errors"]

__getattr__, __dir__ = _lazy_exports(__name__, _API)
