"""calibsim: calibration and simulation studies of tests that compare learning algorithms."""

__version__ = "0.1.0"
