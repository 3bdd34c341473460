"""Sphinx configuration of calibsim's documentation (build: see README)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import calibsim  # noqa: E402

project = "calibsim"
author = "the calibsim developers"
copyright = "2026, the calibsim developers"
release = calibsim.__version__

extensions = ["myst_nb", "numpydoc", "sphinx.ext.autodoc", "sphinx.ext.autosummary",
              "sphinx.ext.mathjax"]
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
autosummary_generate = True
autodoc_typehints = "none"
nb_execution_mode = "force"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
exclude_patterns = ["_build", "_readme_head.md", "**.ipynb_checkpoints"]
suppress_warnings = ["myst.xref_missing", "myst.header"]
html_theme = "furo"
html_title = f"calibsim {release}"
