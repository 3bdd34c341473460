"""Calibrating a test's degrees of freedom (df) on its Type I error (Bouckaert 2003).

Run a test on many data sets on which the null hypothesis holds, at df = 2, ..., 100,
and take the df whose Type I error is closest to, and not above, the significance
level α (:func:`calibrate`); or, continuously, the df at which the Type I error
crosses α, with a distribution-free interval (:func:`continuous_calibration`). The
df calibrated on 10,000 null data sets for every test and design of the paper are
shipped in a table (:func:`lookup_df`, :func:`df_table`). The correlated Bayesian
t test's ρ is calibrated the same way (:func:`calibrate_rho`), and shipped in a table
of its own (:func:`lookup_rho`, :func:`rho_table`).
"""

from ._calibrate import CalibrationResult, calibrate, calibrated_df, type1_error_curve
from ._continuous import (ContinuousCalibration, continuous_calibration, quantile_interval,
                          threshold_df)
from ._dftable import (TableDF, df_table, df_table_metrics, lookup_df, metrics_provenance,
                       provenance)
from ._rho import RhoCalibration, calibrate_rho, decision_rate
from ._rhotable import TableRho, lookup_rho, rho_provenance, rho_table

__all__ = ["type1_error_curve", "calibrated_df", "calibrate", "CalibrationResult",
           "threshold_df", "continuous_calibration", "ContinuousCalibration",
           "quantile_interval", "lookup_df", "df_table", "provenance", "TableDF",
           "df_table_metrics", "metrics_provenance",
           "calibrate_rho", "RhoCalibration", "decision_rate", "lookup_rho", "rho_table",
           "rho_provenance", "TableRho"]
