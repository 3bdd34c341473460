"""Data sources: simulated data sets with known learner differences, and real data sets."""

from ._dataset import DatasetSource
from ._dietterich_tasks import DietterichTaskSource
from ._ban import null_ban, random_ban, read_network, write_network
from ._ban_source import BANSource
from ._epsilon_point import EpsilonPointSource, EpsilonPointTrials, epsilon_pair
from ._logistic import LogisticSource
from ._null import NullSource

__all__ = ["NullSource", "LogisticSource", "DatasetSource", "DietterichTaskSource", "EpsilonPointSource", "EpsilonPointTrials", "epsilon_pair",
           "BANSource", "random_ban", "null_ban", "read_network", "write_network"]
