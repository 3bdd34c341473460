"""Every committed study runs on the one engine at --n-datasets 10, and `calibsim report` redoes it.

One reduced run of the whole folder (`calibsim run studies/ --n-datasets 10`, as a user's
quick look runs it) is shared by the tests below: it must end with every study `ok`
(issue 32: a study whose reduced calibration finds no df said so in its tables instead of
failing). The study files are copied with their folder (networks, variants) so that every
output, published or reduced, lands in a temporary folder and never in the repository.
Real-data studies keep their data sets whatever --n-datasets says (the heavy ones are left
out, see HEAVY).
"""

import shutil
from pathlib import Path

import pytest

from calibsim.cli import main

REPO = Path(__file__).resolve().parents[2]
# Real-data studies keep their data sets whatever --n-datasets says; the heavy ones (tens of
# minutes: 25 UCI data sets x 3,000 splits, ...) run as reduced copies (fewer data sets, runs
# or learners) in test_cli_examples.py, test_paper_bouckaert_frank2004.py and
# test_paper_ulas2012.py, and are left out of this folder run (`calibsim run studies/
# --n-datasets 10` runs them in full).
HEAVY = {"example_uci_four_learners", "bouckaert_frank2004_tables234", "ulas2012_real"}
STUDIES = sorted(p for p in (REPO / "studies").glob("*.toml") if p.stem not in HEAVY)
N = "10"


@pytest.fixture(scope="module")
def folder_run(tmp_path_factory):
    """(copied studies folder, shared results, the run's stdout) of one folder run."""
    import contextlib
    import io
    root = tmp_path_factory.mktemp("repo")
    shutil.copytree(REPO / "studies", root / "studies")
    for name in HEAVY:
        (root / "studies" / f"{name}.toml").unlink()
    (root / "figures").mkdir()
    results = root / "results"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["run", str(root / "studies"), "--n-datasets", N, "--results", str(results),
                   "--workers", "0", "--no-progress"])
    return root / "studies", results, out.getvalue(), rc


def test_the_folder_runs_every_study_reduced_and_each_is_ok(folder_run):
    _, _, text, rc = folder_run
    cells = [[c.strip() for c in line.strip().strip("|").split("|")]
             for line in text.splitlines() if line.startswith("|")]
    rows = {c[0]: c[-1] for c in cells if c[0] != "study" and not c[0].startswith("-")}
    assert set(rows) == {p.stem for p in STUDIES}, text[-3000:]
    assert {k: v for k, v in rows.items() if v != "ok"} == {}, text[-3000:]
    assert rc == 0 and f"{len(STUDIES)} studies in" in text


@pytest.mark.parametrize("study", STUDIES, ids=[p.stem for p in STUDIES])
def test_report_redoes_each_study_from_its_saved_scores(study, folder_run, tmp_path, capsys,
                                                        monkeypatch):
    """... and every figure the report writes (generic or paper layout) draws finite data
    in each panel, with no 'nan' tick (issue 18)."""
    from matplotlib.figure import Figure
    studies, results, _, _ = folder_run
    checked, save = [], Figure.savefig

    def check_then_save(self, fname, *a, **kw):
        # figures are saved to bytes (calibsim.plotting._style.figure_bytes) and written
        # by the caller, so a save knows its format, not its file name
        fmt = kw.get("format") or Path(str(fname)).suffix.lstrip(".")
        self.canvas.draw()                  # tick labels exist after a draw
        _check_figure(self, f"a {fmt} of {study.stem}")
        checked.append(fmt)
        return save(self, fname, *a, **kw)

    monkeypatch.setattr(Figure, "savefig", check_then_save)
    args = ["--n-datasets", N, "--results", str(results), "--out", str(tmp_path)]
    assert main(["report", str(studies / study.name), *args]) == 0, capsys.readouterr().err
    written = sorted(p.name for p in tmp_path.iterdir())
    assert any(n.endswith(".csv") for n in written), written
    assert checked.count("png") >= sum(n.endswith(".png") for n in written), checked
    reduced = results / "reduced" / f"{study.stem}_n{N}"
    if reduced.is_dir():                    # the folder run wrote the same files there
        assert sorted(p.name for p in reduced.iterdir()) == written


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
