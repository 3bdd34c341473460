"""``calibsim compare --scoring NAME``: the metric two fitted learners are compared on."""

import pytest

from calibsim.cli import main
from calibsim.cli._compare import _CLASSIFICATION_SCORERS, _REGRESSION_SCORERS
from calibsim.metrics import METRICS

RIDGE = "sklearn.linear_model.Ridge()"
TREE = "sklearn.tree.DecisionTreeRegressor(random_state=0)"
FAST = ["--design", "2x5", "--no-progress", "--replicability", "none"]


def test_help_lists_every_metric(capsys):
    assert set(_CLASSIFICATION_SCORERS) | set(_REGRESSION_SCORERS) == set(METRICS)
    for name, names in (("classification", _CLASSIFICATION_SCORERS),
                        ("regression", _REGRESSION_SCORERS)):
        assert {m for m in names if METRICS[m].task == name} == set(names)
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--scoring NAME" in text
    for m in METRICS:
        assert m in text
    assert "greater is better" in text
    assert "(default neg_mean_squared_error)" in text


@pytest.mark.parametrize("data", ["sklearn:load_diabetes", "cpu"])
def test_regressors_default_mean_squared_error(data, capsys):
    assert main(["compare", "--data", data, "--a", RIDGE, "--b", TREE, *FAST]) == 0
    out = capsys.readouterr().out
    assert "mean squared error Ridge:" in out
    assert "scoring='neg_mean_squared_error'" in out
    assert "RepeatedCV(n_folds=5, n_runs=2" in out and "Stratified" not in out


def test_regressors_r2(capsys):
    assert main(["compare", "--data", "cpu", "--a", RIDGE, "--b", TREE, "--scoring", "r2",
                 *FAST]) == 0
    out = capsys.readouterr().out
    assert "scoring='r2'" in out and "higher is better" in out


def test_roc_auc_on_vote(capsys):
    assert main(["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45",
                 "--scoring", "roc_auc", *FAST]) == 0
    out = capsys.readouterr().out
    assert "ROC AUC naive_bayes:" in out and "scoring='roc_auc'" in out
    assert "calibrated for accuracy" in out


def test_accuracy_by_name_is_the_default(capsys):
    args = ["compare", "--data", "weather.nominal", "--a", "naive_bayes", "--b", "c45",
            "--design", "2x2", "--no-progress", "--replicability", "none"]
    assert main(args) == 0
    default = capsys.readouterr().out
    assert main(args + ["--scoring", "accuracy"]) == 0
    named = capsys.readouterr().out
    strip = [line for line in default.splitlines() if not line.endswith(" s")]
    assert strip == [line for line in named.splitlines() if not line.endswith(" s")]


def test_unknown_name_refused_with_suggestion(capsys):
    assert main(["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45",
                 "--scoring", "auc", *FAST]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("calibsim compare: error: `--scoring` must be a scikit-learn "
                             "scorer name")
    assert "'roc_auc'" in err[0]


def test_loss_without_neg_refused(capsys):
    assert main(["compare", "--data", "cpu", "--a", RIDGE, "--b", TREE,
                 "--scoring", "mean_squared_error", *FAST]) == 2
    assert "'neg_mean_squared_error'" in capsys.readouterr().err


def test_three_learners_refuse_other_than_accuracy(capsys):
    assert main(["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45",
                 "--learner", "ib1", "--scoring", "roc_auc", *FAST]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "`--scoring` other than accuracy needs two learners on one data set" in err[0]
    assert "3 learners" in err[0] and "'roc_auc'" in err[0]


def test_three_learners_accuracy_runs(capsys):
    assert main(["compare", "--data", "weather.nominal", "--a", "naive_bayes", "--b", "c45",
                 "--learner", "ib1", "--design", "2x2", "--no-progress",
                 "--scoring", "accuracy"]) == 0
    assert "accuracy_a" in capsys.readouterr().out


def test_three_regressors_refused(capsys):
    assert main(["compare", "--data", "cpu", "--a", RIDGE, "--b", TREE,
                 "--learner", "sklearn.linear_model.Lasso()", *FAST]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "numeric target is compared with two regressors" in err[0]


def test_several_data_sets_refuse_other_than_accuracy(capsys):
    assert main(["compare", "--data", "vote", "--data", "iris", "--a", "naive_bayes",
                 "--b", "c45", "--scoring", "f1_macro", *FAST]) == 2
    assert "several data sets" in capsys.readouterr().err


def test_scoring_with_scores_in_refused(tmp_path, capsys):
    path = tmp_path / "s.csv"
    path.write_text("run,fold,accuracy_a,accuracy_b\n0,0,0.9,0.8\n0,1,0.8,0.7\n")
    assert main(["compare", "--scores-in", str(path), "--scoring", "roc_auc"]) == 2
    err = capsys.readouterr().err
    assert "`--scoring`" in err and "`--metric`" in err
