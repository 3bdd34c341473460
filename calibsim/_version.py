"""calibsim's version, in a module of its own so any module can read it without a circle."""

__version__ = "0.2.0"
