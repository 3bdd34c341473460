"""Bouckaert (2003): Figure 2 (calibrated df), Tables 2-7 and Figure 4, beside the paper.

Only what is the paper's own lives here: its reference values
(``calibsim/data/reference/bouckaert2003/``), the rules that check its claims and
the layouts that copy its tables and figures. Every number comes from the
engine's analyses of a study file (``studies/bouckaert2003_*.toml``).

{references:bouckaert2003}
"""

from __future__ import annotations

import os

import pandas as pd

from .._docstrings import fill
from ._bouckaert2003_figure2 import write_figure2
from ._bouckaert2003_tables import write_table

__doc__ = fill(__doc__)

__all__ = ["LAYOUTS"]


def _figure2(*, study, tables, scores, folder, wall=None, calibrations=None):
    cal = next((a for a in study.analyses if a.kind == "calibrate"), None)
    if cal is None:
        raise ValueError(f"study {study.name!r}: the Figure 2 layout needs a `calibrate` "
                         "analysis; the study has none.")
    path = study.path.parent / f"{study.name}_discussion.md"
    discussion = path.read_text(encoding="utf-8") if path.is_file() else None
    if discussion and study.reduced:     # written about the full-size run's numbers
        discussion = (f"*The discussion written for the full-size run ({path.name}) is left "
                      "out of this reduced run: its numbers would not be this run's.*\n")
    return write_figure2(study, scores, tables[cal.name], folder, wall_seconds=wall,
                         discussion=discussion)


def _table(which):
    def write(*, study, tables, scores, folder, wall=None, calibrations=None):
        names = [a.name for a in study.analyses if a.kind in ("rejection_rate", "replicability")]
        table = pd.concat([tables[n] for n in names], ignore_index=True)
        cal = next(iter(calibrations or {}), None)
        shown = None if cal is None else os.path.relpath(cal, study.path.parent.parent)
        return write_table(which, study, table, folder, wall=wall, calibration=shown)
    write.__name__ = which
    write.__doc__ = f"Bouckaert (2003) {which}: the paper's layout, its values beside ours."
    return write


def _table3(*, study, tables, scores, folder, wall=None, calibrations=None):
    from ._bouckaert2003_table3 import write_table3
    return write_table3(study=study, tables=tables, scores=scores, folder=folder, wall=wall)


LAYOUTS = {"figure2": _figure2, "table3": _table3, **{t: _table(t) for t in
                                   ("table2", "figure4", "table4", "table56", "table7")}}
