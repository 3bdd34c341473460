"""The coverage analysis at a calibrated df (issue 43: "interval coverage ... before and
after df calibration"): the df enters the interval as it enters the test, so on the null
(truth 0) the coverage at the calibrated df is exactly 1 - the rejection rate at that df."""

import textwrap

import pytest

from calibsim.engine import load_study, run_analyses
from _studies import scored_study, tiny_study


def _analysis(kind, name, extra=""):
    return (f'[[analysis]]\nkind = "{kind}"\nname = "{name}"\n'
            f'tests = ["kfold_cv", "corrected_resampling"]\nalphas = [0.2]\n{extra}\n')


BODY = ('[schemes.sub]\nkind = "subsampling"\nn_runs = 6\n\n'
        + _analysis("calibrate", "calibration")
        + _analysis("rejection_rate", "rates", 'df = "calibrated"\n')
        + _analysis("coverage", "cov", 'df = "calibrated"\ntruth = { null = 0.0 }\n')
        + _analysis("coverage", "cov_textbook", "truth = { null = 0.0 }\n"))
TINY = tiny_study("tiny_cov_cal", seed=11, n_datasets=30, n_instances=60) + BODY


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return scored_study(tmp_path_factory, TINY, "cov_cal")


def test_coverage_at_the_calibrated_df_is_one_minus_the_rate_there(tiny):
    study, scores = tiny
    out = run_analyses(study, scores)
    cov = out["cov"].set_index("test")
    rates = out["rates"].set_index("test")
    for test in ("kfold_cv", "corrected_resampling"):
        assert cov.loc[test, "df"] == rates.loc[test, "df"]
        assert cov.loc[test, "df_rule"] == "calibrated"
        assert cov.loc[test, "coverage"] == pytest.approx(1 - rates.loc[test, "rate"])
    # the textbook table keeps its columns of before (no df), and differs where df does
    assert "df" not in out["cov_textbook"].columns
    tb = out["cov_textbook"].set_index("test")
    assert (cov["mean_width"] != tb["mean_width"]).any()


def test_a_test_without_df_is_refused_at_a_calibrated_df(tmp_path):
    path = tmp_path / "bad.toml"
    head = tiny_study("tiny_cov_cal", seed=11, cv_extra="correctness = true")
    bad = BODY.replace('name = "cov"\ntests = ["kfold_cv", "corrected_resampling"]',
                       'name = "cov"\ntests = ["kfold_cv", "bayle_cv_clt"]')
    assert bad != BODY
    path.write_text(textwrap.dedent(head + bad), encoding="utf-8")
    with pytest.raises(ValueError, match=r"`analysis\[2\]\.df` is 'calibrated', but "
                                         r"\['bayle_cv_clt'\] take\(s\) no df"):
        load_study(path)
