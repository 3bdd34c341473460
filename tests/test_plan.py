"""calibsim.plan and ``calibsim plan`` (issue 42): Type I error, power and replicability of
designs and tests on the user's data, from Dietterich's damaged learners."""

import numpy as np
import pandas as pd
import pytest

import calibsim
from calibsim.cli import main
from calibsim.plotting import check_figure


@pytest.fixture(scope="module")
def small():
    return calibsim.plan("naive_bayes", "c45", "breast-cancer", differences=[0.02, 0.1],
                         designs=["1x10", "holdout"], n_datasets=20, progress=False)


def test_the_table_holds_every_design_test_and_difference_with_mc_errors(small):
    t = small.table
    assert small.differences == (0.0, 0.02, 0.1)
    assert set(t["design"]) == {"1x10", "holdout"}
    assert set(t[t["design"] == "1x10"]["test"]) == {"kfold_cv", "corrected_repeated_cv"}
    assert set(t[t["design"] == "holdout"]["test"]) == {"mcnemar", "mcnemar_exact",
                                                        "proportions"}
    assert len(t) == 5 * 3
    for col in ("rejection_rate", "replicability"):
        assert t[col].between(0, 1).all()
    n = small.n_datasets
    r = t["rejection_rate"]
    assert np.allclose(t["rejection_se"], np.sqrt(r * (1 - r) / n))
    assert t["replicability_se"].notna().all()
    assert (t[t["design"] == "1x10"]["fits"] == 20).all()
    assert (t[t["design"] == "holdout"]["fits"] == 2).all()
    # the shift estimate needs per-fold differences: none for the counts of one split
    assert t[t["design"] == "holdout"]["shift_rate"].isna().all()
    assert t[t["design"] == "1x10"]["shift_rate"].notna().all()


def test_the_damaged_null_has_equal_learners_within_its_se(small):
    for r in small.null.itertuples():
        assert 0 <= r.damage_rate < 0.5
        assert abs(r.difference) < 4 * np.hypot(r.difference_se, r.calibration_se)


def test_power_grows_with_the_difference(small):
    t = small.table.groupby("difference")["rejection_rate"].mean()
    assert t[0.1] > t[0.0]


def test_the_recommendation_is_a_row_per_difference_in_words(small):
    rec = small.recommendation
    assert list(rec["difference"]) == [0.02, 0.1]
    for r in rec.itertuples():
        assert r.statement.startswith(f"Δ = {100 * r.difference:g} points:")
        if r.design is not None:
            row = small.table[(small.table["design"] == r.design)
                              & (small.table["test"] == r.test)
                              & (small.table["difference"] == r.difference)].iloc[0]
            assert row["rejection_rate"] >= small.power
            assert row["replicability"] >= small.replicability
    text = str(small)
    assert "the real-data null (Δ = 0)" in text and "not evidence of equality" in text


def test_the_figure_passes_the_checklist_and_the_report_renders(small):
    fig = small.plot_power()
    assert check_figure(fig) == []
    ax = fig.axes[0]
    assert len(ax.containers) == 2          # one error-bar series per design
    md = small.report("markdown")
    assert "report_power.png" in md and "| design |" in md
    assert isinstance(small.summary(), pd.DataFrame)


def test_a_rerun_gives_the_same_table():
    kw = dict(differences=[0.05], designs=["holdout"], n_datasets=8, progress=False,
              random_state=3)
    a = calibsim.plan("naive_bayes", "c45", "breast-cancer", **kw)
    b = calibsim.plan("naive_bayes", "c45", "breast-cancer", **kw)
    pd.testing.assert_frame_equal(a.table, b.table)


def test_a_store_keeps_every_repeat_so_a_plan_resumes(tmp_path):
    kw = dict(differences=[0.05], designs=["holdout"], progress=False, random_state=2)
    plain = calibsim.plan("naive_bayes", "c45", "breast-cancer", n_datasets=6, **kw)
    calibsim.plan("naive_bayes", "c45", "breast-cancer", n_datasets=4, results=tmp_path, **kw)
    blocks = sorted((tmp_path / "store").rglob("*.npz"))
    assert len(blocks) == 4                         # one per repeat, saved as it finished
    blocks[1].unlink()                              # as if interrupted before repeat 1
    resumed = calibsim.plan("naive_bayes", "c45", "breast-cancer", n_datasets=6,
                            results=tmp_path, **kw)
    assert len(list((tmp_path / "store").rglob("*.npz"))) == 6
    pd.testing.assert_frame_equal(resumed.table, plain.table)


def test_subsampled_repeats_draw_new_data():
    res = calibsim.plan("naive_bayes", "c45", "breast-cancer", differences=[0.05],
                        designs=["holdout"], n_datasets=6, n_instances=150, progress=False)
    assert "random subsample of 150 instances" in res.data
    assert 95 <= res.null["n_train"].iloc[0] <= 105          # 2/3 of 150


def test_refuses_a_difference_beyond_the_margin_over_chance():
    with pytest.raises(ValueError, match="margin over chance"):
        calibsim.plan("naive_bayes", "c45", "breast-cancer", differences=[0.4],
                      designs=["holdout"], n_datasets=4, progress=False)


@pytest.mark.parametrize("kw, match", [
    ({"differences": [5]}, r"`differences` must be a difference in accuracy units.*0.05 "
                           r"for 5 points"),
    ({"tests": ["mcnemar"], "designs": ["1x10"]}, "none fits the design '1x10'"),
    ({"designs": []}, "at least one design"),
    ({"designs": ["1x10", "1x10"]}, "names a design twice"),
    ({"df": "exact"}, "`df` must be 'calibrated' or 'textbook'"),
    ({"n_datasets": 1}, "n_datasets"),
    ({"damage": "worse"}, "`damage` must be 'better', 'a' or 'b'"),
])
def test_bad_input_is_refused_in_one_line(kw, match):
    with pytest.raises(ValueError, match=match):
        calibsim.plan("naive_bayes", "c45", "breast-cancer", progress=False, **kw)


def test_the_cli_prints_the_plan(capsys, tmp_path):
    table = tmp_path / "plan.csv"
    assert main(["plan", "--data", "breast-cancer", "--a", "naive_bayes", "--b", "c45",
                 "--difference", "5", "--design", "holdout", "--n-datasets", "5",
                 "--no-progress", "--table", str(table), "--results", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Type I (%)" in out and "power Δ=5 (%)" in out
    assert len(pd.read_csv(table)) == 3 * 2


def test_the_cli_refuses_a_bad_difference(capsys):
    assert main(["plan", "--data", "breast-cancer", "--a", "naive_bayes", "--b", "c45",
                 "--difference", "one"]) != 0
    assert "`--difference` must be comma-separated accuracy points" in capsys.readouterr().err


def test_the_time_estimate_is_within_a_quarter_of_the_work_it_predicts(monkeypatch, capsys):
    """The estimate printed before the work, on a fake clock: each scoring call costs a
    start, a time per fit, and the first call of the process compiling kernels on top
    (what made the old estimate, a pilot's seconds per fit, 7x too high on credit-g).
    The work after the estimate then takes n_designs x start + per_fit x fits exactly;
    the estimate must be within a factor 1.25 of it."""
    from calibsim.engine import planning
    clock = {"now": 0.0, "calls": 0}
    start, per_fit, compile_once = 0.3, 0.0007, 5.0
    real = planning.repeat_scores

    def timed(learners, X, y, d, seeds, rows, **kw):
        out = real(learners, X, y, d, seeds, rows, **kw)
        fits = 2 * len(seeds) * int(np.prod(d.shape))
        clock["now"] += start + per_fit * fits + (compile_once if not clock["calls"] else 0)
        clock["calls"] += 1
        return out

    class FakeTime:
        @staticmethod
        def perf_counter():
            return clock["now"]

    monkeypatch.setattr(planning, "repeat_scores", timed)
    monkeypatch.setattr(planning, "time", FakeTime)
    res = calibsim.plan("naive_bayes", "c45", "breast-cancer", differences=[0.05],
                        designs=["1x10", "5x2cv"], n_datasets=4, progress=True)
    actual = 2 * start + per_fit * 4 * (20 + 20)
    assert res.work_seconds == pytest.approx(actual)
    assert 1 / 1.25 <= res.estimated_seconds / res.work_seconds <= 1.25
    assert "ms per fit" in capsys.readouterr().err


def test_the_estimator_separates_the_start_from_the_time_per_fit():
    from calibsim.engine.planning import estimate_seconds
    est, per_fit, start = estimate_seconds([(20, 0.314), (60, 0.342)], 221_000, 6)
    assert per_fit == pytest.approx(0.0007) and start == pytest.approx(0.3)
    assert est == pytest.approx(6 * 0.3 + 0.0007 * 221_000)
    # noise that makes the time per fit or the start negative: the pilot's own per fit
    assert estimate_seconds([(20, 0.03), (60, 0.02)], 100, 1)[1:] == (0.02 / 60, 0.0)
    assert estimate_seconds([(20, 0.01), (60, 0.05)], 100, 1)[1:] == (0.06 / 80, 0.0)
    with pytest.raises(ValueError, match="two different sizes"):
        estimate_seconds([(20, 0.3), (20, 0.31)], 100, 1)
