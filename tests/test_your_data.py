"""Your data, your design (issue 23): any design answers, DataFrames and pipelines reach the
estimators as they are, learner specs never execute, the result carries its partitions."""

import warnings

import numpy as np
import pandas as pd
import pytest

import calibsim
from calibsim.cli import main
from calibsim.datasets import load_uci
from calibsim.engine._safe_spec import build_estimator
from calibsim.schemes import RandomSubsampling, StratifiedRepeatedCV
from _studies import tiny_study


@pytest.fixture(scope="module")
def vote():
    return load_uci("vote")


# --------------------------------------------------------------------------- designs

@pytest.mark.parametrize("design, source", [
    ("5x5", "∞ (normal limit)"), ("2x2", "∞ (normal limit)"), ("3x10", "calibrated on"),
    ("1x10", "textbook df"), ("subsampling:15", "textbook df")])
def test_every_design_gets_a_verdict_from_the_cli(capsys, design, source):
    assert main(["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45",
                 "--design", design]) == 0
    out = capsys.readouterr().out
    assert "verdict:" in out and source in out and "df + 1 stands where" in out


def test_an_infinite_calibrated_df_is_the_normal_limit(vote):
    res = calibsim.compare("naive_bayes", "c45", vote, design="5x5")
    assert res.df == np.inf and "shipped table" in res.df_source
    m = res.scores["difference"].to_numpy()
    z = m.mean() / np.sqrt((1 / 4) * m.var(ddof=1))          # n2/n1 = 1/(k - 1)
    from scipy import stats
    assert res.statistic == pytest.approx(z, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
    assert "normal limit" in str(res)


def test_one_run_falls_back_instead_of_bootstrapping(vote):
    with pytest.warns(calibsim.DesignWarning):
        res = calibsim.compare("naive_bayes", "c45", vote, design="1x10")
    assert np.isnan(res.replicability) and "one" in res.replicability_method
    assert "replicability: not estimated" in str(res)


# --------------------------------------------------------------------------- partitions

def test_random_state_means_the_schemes_splits_and_the_result_carries_them(vote):
    res = calibsim.compare("naive_bayes", "c45", vote, design="10x10", random_state=0,
                           replicability=None)
    masks = StratifiedRepeatedCV(n_folds=10, n_runs=10, random_state=0).test_masks(vote.y)
    np.testing.assert_array_equal(res.test_masks, masks)
    splits = res.splits()
    assert len(splits) == 100 and splits[13][:2] == (1, 3)
    run, fold, train, test = splits[13]
    np.testing.assert_array_equal(test, np.flatnonzero(masks[1, 3]))
    assert len(train) + len(test) == len(vote.y)
    # refitting one fold reproduces its row of the score table
    from calibsim.learners import C45
    est = C45().fit(vote.X[train], vote.y[train], n_values=vote.n_values, classes=[0, 1])
    acc = float(np.mean(est.predict(vote.X[test]) == vote.y[test]))
    assert acc == pytest.approx(res.scores.query("run == 1 and fold == 3")["accuracy_b"].item())


def test_subsampling_partitions_are_the_schemes(vote):
    res = calibsim.compare("naive_bayes", "c45", vote, design="subsampling:10", random_state=3,
                           replicability=None, df="textbook")
    np.testing.assert_array_equal(
        res.test_masks, RandomSubsampling(n_runs=10, test_fraction=0.1,
                                          random_state=3).test_masks(vote.y))


# --------------------------------------------------------------------------- your data

def _frame(n=160, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"x1": rng.normal(size=n), "x2": rng.normal(size=n),
                      "colour": rng.choice(["red", "green", "blue"], n)})
    X.loc[rng.random(n) < 0.1, "x1"] = np.nan
    y = (X["x2"] + (X["colour"] == "red") + rng.normal(size=n) > 0.5).astype(int)
    return X, y


_PIPE = ("make_pipeline(make_column_transformer((SimpleImputer(), make_column_selector("
         "dtype_include='number')), (OneHotEncoder(handle_unknown='ignore'), ['colour'])), {})")


def test_a_dataframe_reaches_pipelines_that_select_columns_by_name_and_dtype():
    from sklearn.compose import make_column_selector, make_column_transformer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.tree import DecisionTreeClassifier

    def pre():
        return make_column_transformer(
            (SimpleImputer(), make_column_selector(dtype_include="number")),
            (OneHotEncoder(handle_unknown="ignore"), ["colour"]))
    X, y = _frame()
    a = make_pipeline(pre(), LogisticRegression())
    b = make_pipeline(pre(), DecisionTreeClassifier(random_state=0))
    res = calibsim.compare(a, b, X, y, design="5x2cv")
    assert 0 <= res.pvalue <= 1 and res.test == "cv5x2_t"
    # the same pipelines written as specs give the same scores
    spec = calibsim.compare(_PIPE.format("LogisticRegression()"),
                            _PIPE.format("DecisionTreeClassifier(random_state=0)"), X, y,
                            design="5x2cv")
    np.testing.assert_array_equal(spec.scores.to_numpy(), res.scores.to_numpy())


def test_a_csv_with_text_and_missing_values_from_the_cli(tmp_path, capsys):
    X, y = _frame()
    path = tmp_path / "mine.csv"
    X.assign(label=np.where(y == 1, "yes", "no")).to_csv(path, index=False)
    pipe = ("make_pipeline(make_column_transformer((SimpleImputer(), make_column_selector("
            "dtype_include='number')), (OneHotEncoder(handle_unknown='ignore'), "
            "make_column_selector(dtype_include='category'))), {})")
    assert main(["compare", "--data", str(path), "--a", pipe.format("LogisticRegression()"),
                 "--b", pipe.format("DecisionTreeClassifier(random_state=0)"),
                 "--design", "5x2cv"]) == 0
    assert "p = " in capsys.readouterr().out


def test_a_learner_that_cannot_take_missing_values_is_named_with_a_remedy():
    X, y = _frame()
    with pytest.raises(ValueError, match=r"learner 'LogisticRegression' failed.*impute"):
        calibsim.compare("sklearn.linear_model.LogisticRegression()", "naive_bayes",
                         X[["x1", "x2"]], y, design="2x2")


# --------------------------------------------------------------------------- safe specs

@pytest.mark.parametrize("spec", [
    "subprocess.run(args=['touch', '{m}'])", "os.system('touch {m}')",
    "__import__('os').system('touch {m}')", "builtins.print('{m}')", "numpy.ndarray",
    "sklearn.svm.SVC(C=open('{m}', 'w'))", "(lambda: open('{m}', 'w'))()",
    "sklearn.svm.SVC(**{{'C': 1}})", "sklearn.svm.SVC.__init__.__globals__",
    "sklearn.base._is_fitted", "pathlib.Path('{m}').touch()",
    "sklearn.utils.validation.check_array([[1]])"])
def test_a_spec_that_is_not_an_estimator_is_refused_and_nothing_runs(tmp_path, spec, capsys):
    marker = tmp_path / "pwned"
    text = spec.format(m=marker)
    with pytest.raises(ValueError, match="refused"):
        build_estimator(text)
    assert main(["compare", "--data", "vote", "--a", text, "--b", "naive_bayes"]) == 2
    err = capsys.readouterr().err
    assert "refused" in err and len(err.strip().splitlines()) == 1
    assert not marker.exists()


def test_a_study_file_naming_subprocess_is_refused_before_anything_runs(tmp_path, capsys):
    marker = tmp_path / "pwned"
    study = tmp_path / "evil.toml"
    study.write_text(tiny_study("evil", seed=1, n_datasets=2, n_folds=2, n_runs=2,
                                learners=("naive_bayes", "evil")) + f"""
[learners.evil]
estimator = "subprocess.run"
args = ["touch", "{marker}"]
[[analysis]]
kind = "rejection_rate"
tests = ["corrected_repeated_cv"]
""")
    assert main(["run", str(study), "--out", str(tmp_path / "out")]) == 2
    assert "refused" in capsys.readouterr().err
    assert not marker.exists()


def test_did_you_mean_for_learner_names(vote):
    with pytest.raises(ValueError, match="did you mean naive_bayes"):
        calibsim.compare("naive_bais", "c45", vote)
    with pytest.raises(ValueError, match="did you mean LogisticRegression"):
        calibsim.compare("LogisticRegresion", "c45", vote)


def test_a_string_of_letters_is_not_a_list_of_learners(vote):
    assert build_estimator("GaussianNB()").__class__.__name__ == "GaussianNB"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert build_estimator("sklearn.pipeline.make_pipeline(StandardScaler(), SVC(C=2.0))"
                               ).steps[1][1].C == 2.0


def test_csv_wherever_arff_is_accepted(tmp_path, capsys):
    from calibsim.sources import DatasetSource
    X, y = _frame(n=80)
    path = tmp_path / "mine.csv"
    X.assign(label=np.where(y == 1, "yes", "no")).to_csv(path, index=False)
    src = DatasetSource(path=str(path))
    assert src.n_instances == 80 and src.n_classes == 2
    other = DatasetSource(path=str(path), class_attribute="colour")
    assert other.n_classes == 3 and other.identity != src.identity   # the store tells them apart
    assert main(["calibrate", "--test", "corrected_repeated_cv", "--like", str(path),
                 "--n-datasets", "4", "--folds", "2", "--runs", "2", "--no-progress",
                 "--results", str(tmp_path / "results")]) == 0
    assert "calibrated df" in capsys.readouterr().out


def test_rank_steers_to_the_corrected_t_and_names_cli_flags(tmp_path, capsys):
    rng = np.random.default_rng(5)
    rows = [{"dataset": f"d{d}", "learner": lrn, "fold": f, "accuracy": base + rng.normal(0, .02)}
            for d in range(6) for lrn, base in (("a", .8), ("b", .75), ("c", .7))
            for f in range(20)]                                  # 2 runs x 10 folds
    path = tmp_path / "scores.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    assert main(["rank", "--scores", str(path)]) == 2             # 5x2cv F needs 10 folds
    err = capsys.readouterr()
    assert "--pairwise-test" in err.err and "corrected_repeated_cv" in err.err
    assert "pairwise_test=" not in err.err
    assert "breaks ties by the table's learner order" in err.out
    assert main(["rank", "--scores", str(path), "--pairwise-test", "corrected_repeated_cv",
                 "--folds-per-run", "10"]) == 0
    assert "Multi²Test" in capsys.readouterr().out


def test_several_data_sets_keep_their_scores_and_say_the_order(tmp_path, capsys):
    out = tmp_path / "acc.csv"
    assert main(["compare", "--data", "vote", "--data", "iris", "--a", "naive_bayes",
                 "--b", "c45", "--scores", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "cheapest first: naive_bayes, c45" in text and out.is_file()
    assert len(pd.read_csv(out)) == 2 * 2 * 10
