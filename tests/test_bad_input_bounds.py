"""Bad input, round 4 (issue 45): readers bounded before parsing, loaders and targets.

Every case is cheap: the wide files are refused on their header, the small ones before
any fit. Tables, not hand-written tests: add a row to extend.
"""

import time

import numpy as np
import pytest

from calibsim.cli import main
from calibsim.datasets import from_sklearn, load_arff, load_csv
from calibsim.sources import DatasetSource

from _caps import capped
from _studies import tiny_study


def _wide_csv(path, n_cols, n_rows=3):
    with open(path, "w") as fh:
        fh.write(",".join(f"c{i}" for i in range(n_cols)) + "\n")
        for _ in range(n_rows):
            fh.write(",".join(["1"] * (n_cols - 1)) + ",a\n")
    return path


def test_a_csv_of_a_million_columns_is_refused_on_its_header_within_a_second(tmp_path):
    import pandas  # noqa: F401  (imported before the clock starts, as the CLI has it)
    p = _wide_csv(tmp_path / "wide.csv", 10**6)
    t0 = time.perf_counter()
    with capped(10), pytest.raises(ValueError, match=r"1,000,000 columns.*CALIBSIM_MAX_COLUMNS"):
        load_csv(p)
    assert time.perf_counter() - t0 < 1.0


def test_the_column_limit_is_raised_by_keyword_or_environment(tmp_path, monkeypatch):
    p = _wide_csv(tmp_path / "w.csv", 50, n_rows=4)
    with pytest.raises(ValueError, match="more than the limit of 10"):
        load_csv(p, max_columns=10)
    monkeypatch.setenv("CALIBSIM_MAX_COLUMNS", "10")
    with pytest.raises(ValueError, match="`max_columns`"):
        load_csv(p)
    assert load_csv(p, max_columns=50).X.shape == (4, 49)
    monkeypatch.setenv("CALIBSIM_MAX_COLUMNS", "ten")
    with pytest.raises(ValueError, match="CALIBSIM_MAX_COLUMNS must be a positive integer"):
        load_csv(p)


@pytest.mark.parametrize("where", ["header", "body"])
def test_a_line_wider_than_the_limit_is_refused(tmp_path, where):
    p = tmp_path / "long.csv"
    cell = "x" * 5000
    p.write_text(f"a{cell if where == 'header' else ''},class\n1,a\n{cell},b\n1,a\n")
    with pytest.raises(ValueError, match=r"more than the limit of 1,000 \(`max_line_bytes`\)"):
        load_csv(p, max_line_bytes=1000)


def test_an_arff_header_of_too_many_attributes_is_refused_before_parsing(tmp_path):
    p = tmp_path / "wide.arff"
    n = 30_000
    p.write_text("@relation w\n" + "".join(f"@attribute a{i} numeric\n" for i in range(n))
                 + "@attribute class {x,y}\n@data\n" + ",".join(["1"] * n) + ",x\n")
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=r"30,001 attributes.*CALIBSIM_MAX_COLUMNS"):
        load_arff(p)
    assert time.perf_counter() - t0 < 1.0


@pytest.mark.parametrize("bad, kind", [(None, TypeError), (3, TypeError), (b"x.csv", TypeError)])
def test_load_csv_names_its_path_parameter(bad, kind):
    with pytest.raises(kind, match="`path`"):
        load_csv(bad)


# --- loaders and targets -------------------------------------------------------------------

@pytest.mark.parametrize("loader", ["load_sample_images", "load_svmlight_file",
                                    "load_linnerud", "load_files",
                                    "load_sample_image", "fetch_covtype", "load_nothing"])
def test_only_classification_loaders_are_admitted(loader):
    with pytest.raises(ValueError, match="`sklearn` must name one of scikit-learn's"):
        DatasetSource(sklearn=loader)


def test_the_shipped_regression_loader_is_admitted_as_a_regression_set():
    src = DatasetSource(sklearn="load_diabetes")
    assert src.is_regression and src.n_classes == 0 and "task=regression" in src.identity


def test_the_cli_refuses_a_non_classification_loader_in_one_line(capsys):
    assert main(["compare", "--data", "sklearn:load_sample_images", "--a", "naive_bayes",
                 "--b", "c45"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "classification" in err, err


def test_a_regression_bunch_is_a_regression_set_unless_declared_nominal():
    from sklearn.datasets import load_diabetes
    reg = from_sklearn(load_diabetes())
    assert reg.is_regression and reg.n_classes == 0 and reg.y.dtype == np.float64
    assert np.array_equal(reg.y, load_diabetes().target)
    assert from_sklearn(load_diabetes(), class_nominal=True).n_classes == 214
    with pytest.raises(TypeError, match="`bunch`"):
        from_sklearn(object())


def _csv(path, rows, header="a,b,class"):
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    return path


def test_a_numeric_class_with_many_values_is_a_regression_target(tmp_path):
    rng = np.random.default_rng(0)
    p = _csv(tmp_path / "reg.csv", [f"{rng.random()},{rng.random()},{v:.3f}"
                                    for v in rng.random(40) * 100])
    reg = load_csv(p)
    assert reg.is_regression and reg.y.dtype == np.float64 and reg.class_values == ()
    assert load_csv(p, class_nominal=True).n_classes == 40
    ints = _csv(tmp_path / "ints.csv", [f"{i},{i % 3},{i}" for i in range(40)])
    assert load_csv(ints).is_regression and load_csv(ints).y.tolist() == list(range(40))
    digits = _csv(tmp_path / "digits.csv", [f"{i},{i % 3},{i % 10}" for i in range(40)])
    assert load_csv(digits).n_classes == 10          # a few integer codes are labels


def test_a_column_of_400_digit_integers_is_refused_not_nominal(tmp_path):
    big = "9" * 400
    p = _csv(tmp_path / "big.csv", [f"{big},1,x", f"{big[:-1]}8,2,y", f"{big},3,x"])
    with pytest.raises(ValueError, match="column 'a'.*beyond float64's range"):
        load_csv(p)
    longint = "1" + "0" * 30                         # too long for int64, fine as float64
    ds = load_csv(_csv(tmp_path / "long.csv", [f"{longint},1,x", f"{longint}1,2,y"]))
    assert ds.n_values.tolist() == [0, 0] and ds.X[0, 0] == 1e30


@pytest.mark.parametrize("rows, design, match", [
    (["1,2,x", "3,4,y"], "2x2", "too small for the design '2x2'"),
    (["1,2,x", "3,4,y"], "10x10", "too small for the design '10x10'"),
    ([f"{i},{i},k{i}" for i in range(30)], "2x2", "at least two classes of two or more"),
    ([f"{i},{i},k{i // 2}" for i in range(60)], "10x10", "needs at least 5 per class"),
    ([f"{i},{i},{'xy'[i % 2]}" for i in range(30)], "subsampling:5",
     None),
])
def test_instances_per_class_and_per_fold_are_checked_before_any_fit(tmp_path, rows, design,
                                                                     match, capsys):
    import calibsim.engine.scoring as scoring
    p = _csv(tmp_path / "small.csv", rows)
    if match is None:
        from calibsim.engine.scoring import check_sample_sizes, parse_design
        check_sample_sizes(load_csv(p).y, parse_design(design))
        return
    called = []
    orig = scoring.blocks_for
    try:
        scoring.blocks_for = lambda *a, **k: called.append(1) or orig(*a, **k)
        assert main(["compare", "--data", str(p), "--a", "naive_bayes", "--b", "c45",
                     "--design", design]) == 2
    finally:
        scoring.blocks_for = orig
    assert not called
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and match in err[0], err


# --- scores on a declared scale --------------------------------------------------------------

def _scores(scale=1.0, shift=0.0):
    rng = np.random.default_rng(0)
    a = 0.80 + 0.03 * rng.standard_normal((10, 10))
    return (a + shift) * scale, (a - 0.02 + 0.01 * rng.standard_normal((10, 10)) + shift) * scale


def test_accuracy_as_a_percentage_is_recognised_and_said():
    from calibsim import compare_scores
    frac = compare_scores(*_scores())
    pct = compare_scores(*_scores(100))
    assert "fractions in [0, 1]" in frac.splitter
    assert "percentages" in pct.splitter and "divided by 100" in pct.splitter
    assert pct.pvalue == pytest.approx(frac.pvalue, rel=1e-9)
    assert pct.accuracy_a == pytest.approx(frac.accuracy_a)


@pytest.mark.parametrize("scale, shift", [(1, -1.6), (100, 0.3), (-1, 0), (1000, 0)])
def test_accuracy_outside_both_scales_is_refused(scale, shift):
    from calibsim import compare_scores
    with pytest.raises(ValueError, match=r"accuracies must lie in \[0, 1\].*`metric`"):
        compare_scores(*_scores(scale, shift))


def test_another_metric_only_when_named_with_a_note():
    from calibsim import compare_scores
    res = compare_scores(*_scores(-1), metric="log_loss")
    assert "'log_loss'" in res.splitter and "calibrated on accuracy" in res.splitter
    for bad in ("", None, 3):
        with pytest.raises(ValueError, match="`metric`"):
            compare_scores(*_scores(), metric=bad)


def test_scores_in_recognises_percentages_and_refuses_off_scale(tmp_path, capsys):
    import pandas as pd
    a, b = _scores(100)
    rows = [(r, k, name, v[r, k]) for r in range(10) for k in range(10)
            for name, v in (("A", a), ("B", b))]
    pd.DataFrame(rows, columns=["run", "fold", "learner", "score"]).to_csv(
        tmp_path / "pct.csv", index=False)
    assert main(["compare", "--scores-in", str(tmp_path / "pct.csv")]) == 0
    assert "percentages" in capsys.readouterr().out
    pd.DataFrame([(r, k, n, -v / 100) for r, k, n, v in rows],
                 columns=["run", "fold", "learner", "score"]).to_csv(tmp_path / "neg.csv",
                                                                     index=False)
    assert main(["compare", "--scores-in", str(tmp_path / "neg.csv")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "accuracies must lie in" in err[0]
    assert main(["compare", "--scores-in", str(tmp_path / "neg.csv"), "--metric",
                 "log_loss"]) == 0
    assert "calibrated on accuracy" in capsys.readouterr().out
    assert main(["compare", "--data", "iris", "--a", "naive_bayes", "--b", "c45",
                 "--metric", "auc"]) == 2
    assert "`--metric` goes with `--scores-in`" in capsys.readouterr().err


# --- the store checks its identity --------------------------------------------------------

TINY = tiny_study('tiny', seed=7, block_size=4, n_instances=40, n_datasets=8, n_runs=2) + """[[analysis]]
kind = "rejection_rate"
name = "rate"
tests = ["corrected_repeated_cv"]
alphas = [0.05]
"""


def test_run_and_report_detect_an_edited_identity_and_count_the_whole_source(tmp_path,
                                                                            capsys, caplog):
    study = tmp_path / "tiny.toml"
    study.write_text(TINY)
    results = tmp_path / "results"
    args = [str(study), "--results", str(results)]
    assert main(["run", *args, "--workers", "0", "--no-progress"]) == 0
    before = (tmp_path / "figures" / "tiny_rate.csv").read_bytes()
    (key,) = [p for p in (results / "store").iterdir() if p.is_dir()]
    blocks = sorted(key.glob("*.npz"))
    blocks[1].write_bytes(b"damaged")                 # one of two blocks: 4 of 8 missing
    capsys.readouterr()
    assert main(["report", *args]) == 2
    err = capsys.readouterr().err
    assert "4 of 8 data sets have no saved scores" in err, err
    assert main(["run", *args, "--workers", "0", "--no-progress"]) == 0
    ident = key / "identity.json"
    ident.write_text(ident.read_text().replace('"seed": 7', '"seed": 9'))
    capsys.readouterr()
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert main(["report", *args]) == 2
    assert "8 of 8 data sets have no saved scores" in capsys.readouterr().err
    said = [r.getMessage() for r in caplog.records if "identity.json" in r.getMessage()]
    assert len(said) == 1 and "does not match its key" in said[0]
    assert "\n" not in said[0]
    assert main(["run", *args, "--workers", "0", "--no-progress"]) == 0
    assert (tmp_path / "figures" / "tiny_rate.csv").read_bytes() == before


# --- a killed parent's workers end ---------------------------------------------------------

CHILD = """
import os, subprocess, sys, time
grandchild = subprocess.Popen([sys.executable, "-c", '''
import os, sys, time
sys.path.insert(0, {root!r})
from calibsim.engine.runner import _worker_init
_worker_init({{parent}})
print("ready", flush=True)
time.sleep(60)
'''.format(parent=os.getpid())], stdout=subprocess.PIPE, text=True)
print(grandchild.pid, flush=True)
print(grandchild.stdout.readline().strip(), flush=True)
time.sleep(60)
"""


def test_a_worker_ends_within_a_second_of_its_parents_kill_9():
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path
    root = str(Path(__file__).resolve().parents[1])
    parent = subprocess.Popen([sys.executable, "-c", CHILD.format(root=root)],
                              stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
        assert parent.stdout.readline().strip() == "ready"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 5:
            try:
                with open(f"/proc/{worker}/stat") as fh:
                    if fh.read().split()[2] == "Z":
                        break
            except FileNotFoundError:
                break
            time.sleep(0.01)
        assert time.perf_counter() - t0 < 1.0
    finally:
        parent.kill()
        parent.wait()
        parent.stdout.close()
        try:
            os.kill(worker, signal.SIGKILL)
        except (ProcessLookupError, UnboundLocalError):
            pass


# --- deep errors and silent cases ------------------------------------------------------------

def _frames_3d():
    import pandas as pd
    idx = pd.MultiIndex.from_product([range(2), range(3), range(4)])
    yield pd.DataFrame({"x": np.linspace(0, 0.1, 24)}, index=idx)
    yield pd.DataFrame({"a": [np.zeros((2, 2))] * 3, "b": [np.zeros((2, 2))] * 3})
    yield pd.concat({i: pd.DataFrame(np.full((4, 5), 0.01 * i)) for i in range(3)}, axis=1)


@pytest.mark.parametrize("call", [
    lambda x: __import__("calibsim").stats.multitest(x, cost=np.arange(len(x))),
    lambda x: __import__("calibsim").stats.multi2test(x, cost=np.arange(len(x))),
    lambda x: __import__("calibsim").calibration.type1_error_curve(
        "corrected_repeated_cv", x, alphas=[0.05]),
    lambda x: __import__("calibsim").calibration.calibrate("corrected_repeated_cv", x,
                                                           alphas=[0.05]),
    lambda x: __import__("calibsim").calibration.threshold_df("corrected_repeated_cv", x, 0.05),
    lambda x: __import__("calibsim").calibration.calibrate_rho(x),
    lambda x: __import__("calibsim").calibration.decision_rate(x),
], ids=["multitest", "multi2test", "type1_error_curve", "calibrate", "threshold_df",
        "calibrate_rho", "decision_rate"])
def test_a_3d_frame_is_refused_naming_the_parameter(call):
    for frame in _frames_3d():
        with capped(20), pytest.raises((ValueError, TypeError), match="`"):
            call(frame)


def test_scores_from_study_names_its_parameter():
    from calibsim.ranking import scores_from_study
    with pytest.raises(TypeError, match="`scores` must be a study's saved scores"):
        scores_from_study("x")


@pytest.mark.parametrize("n", [0, -1, 1.5, True, 10**8])
def test_bayesian_pairs_refuses_a_non_positive_number_of_samples(n):
    import pandas as pd
    from calibsim.ranking import bayesian_pairs
    with pytest.raises(ValueError, match="`n_samples`"):
        bayesian_pairs(pd.DataFrame({"a": [.8, .7, .9], "b": [.7, .6, .8]}), n_samples=n)


@pytest.mark.parametrize("spec, ok", [
    ("sklearn.linear_model.LogisticRegression(C=True)", False),
    ("sklearn.ensemble.RandomForestClassifier(max_depth=True)", False),
    ("sklearn.svm.SVC(tol=False)", False),
    ("sklearn.linear_model.LogisticRegression(fit_intercept=False, verbose=True)", True),
    ("sklearn.svm.SVC(probability=True)", True),
])
def test_a_boolean_where_a_number_is_declared_is_refused(spec, ok):
    from calibsim.engine._safe_spec import build_estimator
    if ok:
        build_estimator(spec)
    else:
        with pytest.raises(ValueError, match="is a boolean where a number is expected"):
            build_estimator(spec)


@pytest.mark.parametrize("name", [".", "..", ".hidden"])
def test_a_study_name_starting_with_a_dot_is_refused(name):
    from calibsim.engine.spec import StudyFileError, study_from_dict
    doc = {"study": {"name": name, "seed": 1, "block_size": 5},
           "sources": {"null": {"kind": "null", "n_instances": 60, "n_datasets": 5}},
           "learners": {"names": ["naive_bayes", "c45"]},
           "schemes": {"cv": {"kind": "repeated_kfold", "n_folds": 5, "n_runs": 4}},
           "analysis": [{"kind": "calibrate", "tests": ["corrected_repeated_cv"]}]}
    with pytest.raises(StudyFileError, match="`study.name`.*not starting with '.'"):
        study_from_dict(doc, "x.toml")


def test_a_refused_scheduler_port_is_said_at_once():
    import socket
    from calibsim.engine.runner import cluster
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()                                           # nothing listens there now
    t0 = time.perf_counter()
    with pytest.raises(OSError, match=r"`scheduler` \(--scheduler\).*refused"):
        with cluster(scheduler=f"tcp://127.0.0.1:{port}", timeout=10):
            pass
    assert time.perf_counter() - t0 < 2


# --- a budget for what one fit may cost -----------------------------------------------------

@pytest.mark.parametrize("spec, match", [
    ("sklearn.neural_network.MLPClassifier(hidden_layer_sizes=[10000, 10000, 10000, 10000, "
     "10000])", "400,000,000 weights between hidden layers"),
    ("sklearn.neural_network.MLPClassifier(hidden_layer_sizes=[3000] + [3000])",
     "neither a literal"),
    ("sklearn.svm.SVC(tol=1e-300)", r"`tol` = 1e-300 in SVC is below 1e-12"),
])
def test_the_spec_budget_refuses_before_building_anything_big(spec, match):
    from calibsim.engine._safe_spec import build_estimator
    with capped(10), pytest.raises(ValueError, match=match):
        build_estimator(spec)


def _c30(tmp_path):
    rng = np.random.default_rng(1)
    p = tmp_path / "c30.csv"
    rows = [",".join(f"{v:.3f}" for v in rng.random(30)) + f",{'xy'[i % 2]}" for i in range(300)]
    p.write_text(",".join(f"a{i}" for i in range(30)) + ",class\n" + "\n".join(rows) + "\n")
    return p


@pytest.mark.parametrize("spec, match", [
    ("sklearn.pipeline.make_pipeline(sklearn.preprocessing.PolynomialFeatures(degree=10), "
     "sklearn.linear_model.LogisticRegression())", "847,660,528 output features"),
    ("sklearn.ensemble.RandomForestClassifier(n_estimators=10000)",
     "1,000,000 over the 100 fits"),
    ("sklearn.ensemble.HistGradientBoostingClassifier(max_iter=100000)",
     "100,000 models per fit"),
    ("sklearn.ensemble.BaggingClassifier(sklearn.ensemble.BaggingClassifier(n_estimators=1000),"
     " n_estimators=100)", "100,000 models per fit"),
])
def test_the_fit_budget_stops_a_comparison_before_any_fit(tmp_path, spec, match, capsys):
    import calibsim.engine.scoring as scoring
    called = []
    orig = scoring.blocks_for
    try:
        scoring.blocks_for = lambda *a, **k: called.append(1) or orig(*a, **k)
        with capped(30):
            assert main(["compare", "--data", str(_c30(tmp_path)), "--a", "naive_bayes",
                         "--b", spec]) == 2
    finally:
        scoring.blocks_for = orig
    assert not called
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and match in err[0] and "before any fit" in err[0], err


def test_the_model_budget_is_raised_in_the_environment(monkeypatch):
    from sklearn.ensemble import RandomForestClassifier

    from calibsim.engine._safe_spec import check_fit_budget
    est = RandomForestClassifier(n_estimators=10000)
    with pytest.raises(ValueError, match="CALIBSIM_MAX_MODELS"):
        check_fit_budget(est, 100, 5, "rf", n_fits=100)
    monkeypatch.setenv("CALIBSIM_MAX_MODELS", "2000000")
    check_fit_budget(est, 100, 5, "rf", n_fits=100)


def test_the_first_layer_of_an_mlp_counts_the_attributes():
    from sklearn.neural_network import MLPClassifier

    from calibsim.engine._safe_spec import check_fit_budget
    with pytest.raises(ValueError, match="5,000 x 10,000 = 50,000,000 input weights"):
        check_fit_budget(MLPClassifier(hidden_layer_sizes=(10000,)), 100, 5000, "mlp")
    check_fit_budget(MLPClassifier(hidden_layer_sizes=(100,)), 100, 5000, "mlp")


def test_a_fit_past_the_memory_cap_fails_in_one_line_naming_the_learner(monkeypatch):
    import resource

    from sklearn.base import BaseEstimator, ClassifierMixin

    import calibsim
    from calibsim.engine.learners import LearnerFailed

    class Hog(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.big_ = np.ones(2**32 // 8 * 4)           # 4 GiB
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return np.full(len(X), self.classes_[0])

    monkeypatch.setenv("CALIBSIM_MEMORY_LIMIT", str(2**30))
    before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(LearnerFailed, match=r"'Hog' failed: MemoryError.*at most 1\.0 GiB.*"
                                            "CALIBSIM_MEMORY_LIMIT.*resumes"):
        calibsim.compare(Hog(), "naive_bayes", calibsim.load_uci("iris"), design="2x2",
                         n_jobs=0, progress=False, replicability=None)
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_fit_past_its_time_budget_is_stopped_naming_the_learner(monkeypatch):
    from sklearn.base import BaseEstimator, ClassifierMixin

    import calibsim
    from calibsim.engine.learners import LearnerFailed

    class Slow(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < 30:       # Python-level work: stoppable
                time.sleep(0.01)
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return np.full(len(X), self.classes_[0])

    monkeypatch.setenv("CALIBSIM_FIT_SECONDS", "0.3")
    t0 = time.perf_counter()
    with pytest.raises(LearnerFailed, match=r"'Slow' failed: FitTimeout: one fit took more "
                                            r"than 0\.3 s.*CALIBSIM_FIT_SECONDS"):
        calibsim.compare(Slow(), "naive_bayes", calibsim.load_uci("iris"), design="2x2",
                         n_jobs=0, progress=False, replicability=None)
    assert time.perf_counter() - t0 < 10
    monkeypatch.setenv("CALIBSIM_FIT_SECONDS", "-1")
    with pytest.raises(ValueError, match="CALIBSIM_FIT_SECONDS must be a positive number"):
        calibsim.compare("naive_bayes", "c45", calibsim.load_uci("iris"), design="2x2",
                         n_jobs=0, progress=False, replicability=None)


# --- one warnings summary across worker processes ------------------------------------------

def test_workers_warnings_are_summarised_by_category_and_learner(capsys, monkeypatch):
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from calibsim.cli._main import _warnings_in_one_line
    from calibsim.engine import learners, runner

    def block(spec):
        with learners._learner_warnings("mlp"):
            warnings.warn("did not converge", ConvergenceWarning)
        return spec

    monkeypatch.setattr(learners, "WORKER_WARNINGS", [])     # as in a local worker
    result, records = runner._collecting(block, 7)
    assert result == 7 and records == [(ConvergenceWarning, "mlp", "did not converge")]
    for verbose in (False, True):
        with _warnings_in_one_line("run", verbose):
            runner._repeat_warnings(records * 3)
        err = capsys.readouterr().err
        assert ("calibsim run: 3 ConvergenceWarnings from learner mlp (first: did not "
                "converge)") in err
        assert err.count("ConvergenceWarning (mlp): did not converge") == (3 if verbose else 0)


def test_an_mlp_object_of_huge_layers_is_stopped_before_any_fit():
    from sklearn.neural_network import MLPClassifier

    import calibsim
    with capped(30), pytest.raises(ValueError, match="400,000,000 weights between hidden "
                                                     "layers.*nothing was fitted"):
        calibsim.compare(MLPClassifier(hidden_layer_sizes=[10000] * 5), "naive_bayes",
                         calibsim.load_uci("sonar"), n_jobs=0, progress=False)
