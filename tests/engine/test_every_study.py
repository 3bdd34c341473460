"""Every committed study runs on the one engine at reduced size, and `calibsim report` redoes it."""

from pathlib import Path

import pytest

from calibsim.cli import main

REPO = Path(__file__).resolve().parents[2]
# Real-data studies keep their data sets whatever --n-datasets says; the heavy ones run
# as reduced copies (fewer data sets, runs or learners) in test_cli_examples.py,
# test_paper_bouckaert_frank2004.py and test_paper_ulas2012.py. The df table study takes its 10,000 data sets down to 4
# here like the others.
HEAVY = {"example_uci_four_learners", "bouckaert_frank2004_tables234", "ulas2012_real"}
STUDIES = sorted(p for p in (REPO / "studies").glob("*.toml") if p.stem not in HEAVY)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return tmp_path_factory.mktemp("shared_results")       # shared: Figure 2 is computed once


@pytest.mark.parametrize("study", STUDIES, ids=[p.stem for p in STUDIES])
def test_run_then_report(study, results, tmp_path, capsys, monkeypatch):
    """... and every figure the report writes (generic or paper layout) draws finite data
    in each panel, with no 'nan' tick (issue 18)."""
    from matplotlib.figure import Figure
    args = ["--n-datasets", "4", "--results", str(results), "--out", str(tmp_path)]
    assert main(["run", str(study), "--workers", "0", "--no-progress", *args]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert any(n.endswith(".csv") for n in written), written
    for p in tmp_path.iterdir():
        p.unlink()
    checked, save = [], Figure.savefig

    def check_then_save(self, fname, *a, **kw):
        self.canvas.draw()                  # tick labels exist after a draw
        _check_figure(self, Path(str(fname)).name)
        checked.append(Path(str(fname)).name)
        return save(self, fname, *a, **kw)

    monkeypatch.setattr(Figure, "savefig", check_then_save)
    assert main(["report", str(study), *args]) == 0, capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == written
    assert {n for n in written if n.endswith(".png")} <= set(checked)


def _check_figure(fig, where):
    """Each visible axes holds data with finite values, and no tick label reads 'nan'."""
    import numpy as np
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison:     # a legend panel, a CD diagram's canvas
            continue
        data = []
        for line in ax.get_lines():
            data.append(np.asarray(line.get_ydata(), dtype=float))
        for coll in ax.collections:
            offsets = np.asarray(coll.get_offsets(), dtype=float)
            if offsets.size:
                data.append(offsets[:, 1])
            for path in getattr(coll, "get_paths", lambda: [])():
                data.append(np.asarray(path.vertices, dtype=float).ravel())
        for patch in ax.patches:
            data.append(np.asarray([patch.get_height()] if hasattr(patch, "get_height")
                                   else [], dtype=float))
        for img in ax.images:
            data.append(np.asarray(img.get_array(), dtype=float).ravel())
        finite = [d[np.isfinite(d)] for d in data if d.size]
        assert finite and any(d.size for d in finite), f"{where}: axes {ax.get_title()!r} is empty"
        ticks = [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        assert not any(t.strip().lower() == "nan" for t in ticks), f"{where}: a 'nan' tick"
