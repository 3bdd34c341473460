"""Image regression on key figures: redrawn from the committed tables, compared with the
committed PNGs (matplotlib's compare_images, RMS tolerance), so a change in how a figure is
drawn shows up here, not only in a reviewer's eyes (issue 18, item 3)."""

from pathlib import Path

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
FIG = REPO / "figures" / "bouckaert_frank2004"


def test_bouckaert_frank_replicability_against_runs(tmp_path):
    from matplotlib.testing.compare import compare_images

    from calibsim.papers.bouckaert_frank2004 import _runs_figure
    frames = {k: pd.read_csv(FIG / f"bouckaert_frank2004_tables234_{k}.csv")
              for k in ("table2", "table3")}
    out = _runs_figure(frames, tmp_path / "runs.png")
    baseline = FIG / "bouckaert_frank2004_tables234_replicability_vs_runs.png"
    if not baseline.is_file():
        pytest.skip("baseline not committed")
    assert compare_images(str(baseline), str(out), tol=2) is None


def test_generic_replicability_figure_from_its_table(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.testing.compare import compare_images

    from calibsim.engine import load_study
    from calibsim.engine.outputs import write_figures
    study = load_study(REPO / "studies" / "bouckaert_frank2004_table1.toml")
    table = pd.read_csv(FIG / "bouckaert_frank2004_table1_replicability.csv")
    paths = write_figures(study, study.analyses, {"replicability": table}, tmp_path)
    out = paths["replicability.png"]
    assert compare_images(str(FIG / out.name), str(out), tol=2) is None
