"""One door that never breaks (issue 32): the scores you already have, any scikit-learn
splitter, parallel fits from a plain script, quiet progress, Ctrl-C in one line, and the
small things a new user saw."""

import dataclasses
import gc
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import calibsim
from calibsim.cli import main
from calibsim.datasets import load_uci
from _studies import tiny_study

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def vote():
    return load_uci("vote")


@pytest.fixture(scope="module")
def res_3x5(vote):
    return calibsim.compare("naive_bayes", "c45", vote, design="3x5", progress=False)


# --------------------------------------------------------------------------- compare_scores

def test_compare_scores_equals_compare_on_the_same_scores(res_3x5):
    res = res_3x5
    again = calibsim.compare_scores(res.scores, design=res.design,
                                    labels=(res.learner_a, res.learner_b))
    assert again.test_masks is None and again.splitter.startswith("not known")
    assert dataclasses.replace(res, test_masks=None, splitter=again.splitter) == again
    # the same from arrays, a long table and per-learner tables
    a = res.scores["accuracy_a"].to_numpy().reshape(3, 5)
    b = res.scores["accuracy_b"].to_numpy().reshape(3, 5)
    from_arrays = calibsim.compare_scores(a, b, labels=(res.learner_a, res.learner_b))
    assert from_arrays.pvalue == res.pvalue and from_arrays.df == res.df
    long = pd.concat([pd.DataFrame({"run": res.scores["run"], "fold": res.scores["fold"],
                                    "learner": name, "score": res.scores[col]})
                      for name, col in (("nb", "accuracy_a"), ("j48", "accuracy_b"))])
    from_long = calibsim.compare_scores(long.sample(frac=1, random_state=0))
    assert (from_long.learner_a, from_long.learner_b) == ("nb", "j48")
    assert from_long.statistic == res.statistic and from_long.replicability == res.replicability


def test_compare_scores_takes_what_cross_validate_returns():
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier
    X, y = load_breast_cancer(return_X_y=True)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    nb = cross_validate(GaussianNB(), X, y, cv=cv, return_estimator=True)
    tree = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=cv)
    res = calibsim.compare_scores(nb, tree, design=cv)
    assert res.design == "2x5" and res.learner_a == "GaussianNB"
    assert "RepeatedStratifiedKFold(n_repeats=2, n_splits=5, random_state=0)" in res.splitter
    np.testing.assert_array_equal(res.scores["accuracy_a"], nb["test_score"])
    # ... and equals compare with the same splitter on the same data
    fitted = calibsim.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y,
                              cv=cv, progress=False)
    assert fitted.pvalue == pytest.approx(res.pvalue, rel=1e-12)


@pytest.mark.parametrize("bad, match", [
    (dict(scores_a=np.ones((3, 5)), scores_b=np.ones((3, 4))), "same shape"),
    (dict(scores_a=np.ones(15), scores_b=np.ones(15)), "`design` is needed"),
    (dict(scores_a=np.ones((3, 5)), scores_b=np.ones((3, 5)), design="holdout"),
     "each instance's predictions"),
    (dict(scores_a=np.ones((3, 5)), scores_b=np.ones((3, 5)), test="cv5x2_f"),
     r"does not fit the design '3x5'; it fits 5x2cv"),
    (dict(scores_a={"fit_time": [1.0]}, scores_b={"fit_time": [1.0]}, design="1x2"),
     "test_score"),
    (dict(scores_a=np.ones((3, 5)), scores_b=np.ones((3, 5)), replicability="rerun"),
     "needs new partitions"),
])
def test_compare_scores_refuses_in_one_line(bad, match):
    with pytest.raises(ValueError, match=match):
        calibsim.compare_scores(**bad)


def test_cli_scores_in_reads_what_scores_writes_and_wekas_csv(tmp_path, capsys):
    out = tmp_path / "folds.csv"
    assert main(["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45",
                 "--design", "3x5", "--scores", str(out), "--no-progress"]) == 0
    first = capsys.readouterr().out
    assert main(["compare", "--scores-in", str(out), "--a", "naive_bayes", "--b", "c45"]) == 0
    again = capsys.readouterr().out
    line = next(x for x in first.splitlines() if x.strip().startswith("statistic"))
    assert line in again and "3x5" in again
    folds = pd.read_csv(out)
    weka = pd.DataFrame({"Key_Dataset": "vote", "Key_Run": np.tile(folds["run"] + 1, 2),
                         "Key_Fold": np.tile(folds["fold"] + 1, 2),
                         "Key_Scheme": np.repeat(["weka.classifiers.bayes.NaiveBayes",
                                                  "weka.classifiers.trees.J48"], len(folds)),
                         "Percent_correct": 100 * np.concatenate([folds["accuracy_a"],
                                                                  folds["accuracy_b"]])})
    weka.to_csv(tmp_path / "weka.csv", index=False)
    assert main(["compare", "--scores-in", str(tmp_path / "weka.csv")]) == 0
    assert line in capsys.readouterr().out
    assert main(["compare", "--scores-in", str(out), "--data", "vote"]) == 2
    assert "not both" in capsys.readouterr().err


# --------------------------------------------------------------------------- splitters

def test_a_scikit_learn_splitter_gives_its_own_splits_and_design(vote):
    from sklearn.model_selection import RepeatedStratifiedKFold
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=0)
    res = calibsim.compare("naive_bayes", "c45", vote, cv=cv, progress=False)
    assert res.design == "3x5" and res.test == "corrected_repeated_cv"
    assert res.splitter == ("sklearn.model_selection.RepeatedStratifiedKFold(n_repeats=3, "
                            "n_splits=5, random_state=0)")
    ours = [(tr, te) for _, _, tr, te in res.splits()]
    theirs = list(cv.split(np.zeros((len(vote.y), 1)), vote.y))
    assert len(ours) == len(theirs) == 15
    for (a, b), (c, d) in zip(ours, theirs):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    assert f"splits: {res.splitter}" in str(res)


@pytest.mark.parametrize("make, design", [
    (lambda: 4, "1x4"),
    (lambda: __import__("sklearn.model_selection").model_selection.StratifiedKFold(
        5, shuffle=True, random_state=1), "1x5"),
    (lambda: __import__("sklearn.model_selection").model_selection.RepeatedKFold(
        n_splits=2, n_repeats=5, random_state=1), "5x2"),
    (lambda: __import__("sklearn.model_selection").model_selection.ShuffleSplit(
        n_splits=6, test_size=0.1, random_state=1), "subsampling:6@0.1"),
    (lambda: __import__("sklearn.model_selection").model_selection.StratifiedShuffleSplit(
        n_splits=1, test_size=0.25, random_state=1), "holdout@0.25"),
])
def test_the_design_is_read_from_the_splitter(vote, make, design):
    cv = make()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", calibsim.DesignWarning)      # 1 run: textbook df
        res = calibsim.compare("naive_bayes", "c45", vote, cv=cv, progress=False,
                               replicability=None)
    assert res.design == design
    if not isinstance(cv, int):
        theirs = [np.sort(te) for _, te in cv.split(np.zeros((len(vote.y), 1)), vote.y)]
        assert all(np.array_equal(te, t) for (_, _, _, te), t in zip(res.splits(), theirs))
    assert 0 <= res.pvalue <= 1


def test_another_test_share_is_off_the_df_table(vote):
    from sklearn.model_selection import ShuffleSplit
    with pytest.warns(calibsim.DesignWarning, match="90/10 subsampling only"):
        res = calibsim.compare("naive_bayes", "c45", vote, progress=False,
                               cv=ShuffleSplit(n_splits=8, test_size=0.2, random_state=0))
    assert res.design == "subsampling:8@0.2" and res.df_source.startswith("textbook")


def _sk(name, *args, **kw):
    import sklearn.model_selection as ms
    return lambda: getattr(ms, name)(*args, **kw)


@pytest.mark.parametrize("kwargs, match", [
    (dict(cv=_sk("TimeSeriesSplit", 3)), "does not train on every instance"),
    (dict(cv=lambda: 5, design="10x10"), "not both"),
    (dict(cv=_sk("KFold", 3), replicability="rerun"), "no random_state to re-seed"),
    (dict(cv=lambda: 1), "int k >= 2"),
    (dict(cv=lambda: object()), "scikit-learn splitter"),
    (dict(cv=lambda: None, design="10x10", groups=np.zeros(435)), "group splitter"),
])
def test_splitters_that_cannot_serve_are_refused_in_one_line(vote, kwargs, match):
    kwargs = {**kwargs, "cv": kwargs["cv"]()}
    with pytest.raises(ValueError, match=match):
        calibsim.compare("naive_bayes", "c45", vote, progress=False, **kwargs)


def test_calibsims_own_splitter_no_longer_takes_scikit_learns_name():
    import calibsim.schemes as schemes
    with pytest.warns(FutureWarning, match="renamed StratifiedRepeatedCV"):
        old = schemes.RepeatedStratifiedKFold
    assert old is schemes.StratifiedRepeatedCV
    with pytest.warns(FutureWarning, match="renamed RepeatedCV"):
        assert schemes.RepeatedKFold is schemes.RepeatedCV
    res = calibsim.compare_scores(np.full((2, 2), 0.8), np.full((2, 2), 0.7))
    assert "StratifiedRepeatedCV" not in res.splitter         # scores: the splitter is unknown


def test_the_result_names_calibsims_splitter(res_3x5):
    assert res_3x5.splitter == ("calibsim.schemes.StratifiedRepeatedCV(n_folds=5, n_runs=3, "
                                "random_state=0)")


# --------------------------------------------------------------------------- n_jobs

PLAIN_SCRIPT = """
import numpy as np
import calibsim
from calibsim.datasets import load_uci
vote = load_uci("vote")
kw = dict(design="2x5", progress=False, replicability=None)
here = calibsim.compare("naive_bayes", "sklearn.tree.DecisionTreeClassifier(random_state=0)",
                        vote, **kw)
pool = calibsim.compare("naive_bayes", "sklearn.tree.DecisionTreeClassifier(random_state=0)",
                        vote, n_jobs=2, **kw)
print("same", here.pvalue == pool.pvalue and bool((here.scores == pool.scores).all().all()))
"""


def test_n_jobs_works_from_a_plain_script(tmp_path):
    script = tmp_path / "plain.py"                 # no `if __name__ == "__main__":`
    script.write_text(textwrap.dedent(PLAIN_SCRIPT))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=900, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "same True"
    assert "Traceback" not in out.stderr and "Nanny" not in out.stderr


# --------------------------------------------------------------------------- progress, logs

def test_progress_estimates_once_without_the_first_results(monkeypatch, capsys):
    from calibsim.engine import runner
    clock = iter([0.0, 30.0, 31.0, 32.0, 33.0])         # start; first result after 30 s
    monkeypatch.setattr(runner.time, "perf_counter", lambda: next(clock))
    bar = runner.Progress(True, "compare", unit="block", estimate=True)
    bar.start(40, workers=2)
    for _ in range(3):
        bar.advance(1)
    bar.close()
    err = capsys.readouterr().err
    assert err.count("take about") == 1
    assert "the first after 30 s, with compiling and start-up" in err
    assert "the other 37 take about 37 s" in err                  # 1 block/s, not 1 per 10 s


def test_progress_is_silent_when_off_and_quick_calls_show_no_bar(vote, capsys):
    calibsim.compare("naive_bayes", "c45", vote, design="2x2", progress=False)
    assert capsys.readouterr().err == ""
    calibsim.compare("naive_bayes", "c45", vote, design="2x2")          # < 3 s: no bar
    assert "block" not in capsys.readouterr().err


def test_dasks_log_lines_are_hidden_unless_verbose(caplog):
    from calibsim.engine import runner
    with caplog.at_level(logging.INFO):
        with runner._quiet_dask():
            logging.getLogger("distributed.client").error("Worker process still alive")
            logging.getLogger("calibsim.x").error("ours")
        assert "Worker process still alive" not in caplog.text and "ours" in caplog.text
        runner.show_dask_logs(True)
        try:
            with runner._quiet_dask():
                logging.getLogger("distributed.nanny").error("shown with --verbose")
        finally:
            runner.show_dask_logs(False)
    assert "shown with --verbose" in caplog.text


# --------------------------------------------------------------------------- Ctrl-C, lost

def test_ctrl_c_ends_compare_in_one_line(monkeypatch, capsys):
    from calibsim.cli import _compare

    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(_compare, "cmd_compare", interrupted)
    argv = ["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45"]
    assert main(argv) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == ("calibsim compare: interrupted; nothing was saved (this command keeps "
                       "no partial results); run it again: calibsim compare --data vote --a "
                       "naive_bayes --b c45")


def test_ctrl_c_ends_calibrate_like_with_what_was_saved(monkeypatch, capsys, tmp_path):
    from calibsim.cli import _compare

    def interrupted(args, progress):
        raise KeyboardInterrupt
    monkeypatch.setattr(_compare, "cmd_calibrate_like", interrupted)
    argv = ["calibrate", "--test", "corrected_repeated_cv", "--like", "vote",
            "--results", str(tmp_path)]
    assert main(argv) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len([x for x in err if x]) == 1
    assert err[-1].startswith(f"calibsim calibrate: interrupted; the null data sets scored so "
                              f"far are saved in {tmp_path}/store; resume with: calibsim "
                              "calibrate --test corrected_repeated_cv --like vote")


def test_a_command_can_say_what_it_saved(monkeypatch, capsys):
    from calibsim.cli import _compare

    def interrupted(args):
        args.interrupt.saved = "3 of 9 blocks are in x"
        args.interrupt.resume = "resume with: calibsim compare --go-on"
        raise KeyboardInterrupt
    monkeypatch.setattr(_compare, "cmd_compare", interrupted)
    assert main(["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45"]) == 130
    assert capsys.readouterr().err.strip().endswith(
        "interrupted; 3 of 9 blocks are in x; resume with: calibsim compare --go-on")


def _blocks_done(proc, total, timeout=240):
    """Read the command's stderr until its progress bar shows 1 to total-1 blocks done."""
    import re
    seen, start = b"", time.monotonic()
    pattern = re.compile(rf"compare:\s+\d+%.*?\b([1-9]\d*)/{total}\b".encode())
    while time.monotonic() - start < timeout:
        chunk = os.read(proc.stderr.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
        found = [int(n) for n in pattern.findall(seen)]
        if found and 0 < max(found) < total:
            return seen
    raise AssertionError(f"no progress within {timeout} s: {seen[-2000:]!r}")


def test_a_real_ctrl_c_during_parallel_fits(tmp_path):
    """SIGINT to the whole process group, as a terminal sends it, once the first blocks are
    done and while the others are fitted: one line, status 130, no traceback from the
    command, its worker processes or loky's manager thread (which printed a KeyError for
    the blocks still queued)."""
    cmd = [sys.executable, "-m", "calibsim", "compare", "--data", "sklearn:load_digits",
           "--a", "sklearn.svm.SVC()", "--b", "naive_bayes", "--design", "20x10",
           "--workers", "2"]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        early = _blocks_done(proc, 20)
        # not at the very moment the bar is drawn: tqdm notes a delayed bar as shown only
        # after drawing it, and an interrupt in between leaves the bar's line open
        time.sleep(0.3)
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        out, late = proc.communicate(timeout=300)
    err = (early + late).decode()
    if proc.returncode == 0:
        pytest.skip("the comparison finished before the interrupt")
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-2000:]
    assert err.strip().splitlines()[-1].startswith("calibsim compare: interrupted; nothing was "
                                                   "saved")


def test_a_ctrl_c_once_the_command_is_done_is_ignored(monkeypatch):
    """After the command's work, Ctrl-C is ignored while Python ends loky's pool (it printed
    a traceback from loky's exit handler, or ended the process with status -2)."""
    from calibsim.cli import _main, command
    previous = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(_main, "main", lambda: 0)
    try:
        with pytest.raises(SystemExit) as ended:
            command()
        assert ended.value.code == 0
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert gc.get_freeze_count() > 0     # Python's exit skips the run's objects
    finally:
        signal.signal(signal.SIGINT, previous)
        gc.unfreeze()                        # this test process goes on


def test_a_lost_cluster_ends_in_one_line_and_status_3(monkeypatch, capsys):
    from calibsim.cli import _compare
    from calibsim.engine.runner import ClusterLost

    def lost(args):
        raise ClusterLost("the Dask cluster was lost after 2 of 9 blocks (CommClosedError)")
    monkeypatch.setattr(_compare, "cmd_compare", lost)
    assert main(["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["calibsim compare: error: the Dask cluster was lost after 2 of 9 blocks "
                   "(CommClosedError)."]


# --------------------------------------------------------------------------- small ones

def test_few_runs_make_the_bootstrap_replicability_a_rough_estimate(vote):
    res = calibsim.compare("naive_bayes", "c45", vote, design="2x2", progress=False)
    assert "only 2 runs to resample, so a rough estimate" in str(res)


def test_no_decision_does_not_read_as_if_a_probability_reached_the_threshold():
    rng = np.random.default_rng(0)
    a = 0.8 + 0.02 * rng.standard_normal((10, 10))
    res = calibsim.compare_scores(a, a + 0.001 * rng.standard_normal((10, 10)),
                                  method="bayes")
    assert res.posterior.decision == "none"
    assert "verdict: no decision (no posterior probability reached 0.95)" in str(res)


def test_an_infinite_df_interval_is_printed_too():
    rng = np.random.default_rng(1)
    res = calibsim.compare_scores(0.8 + 0.02 * rng.standard_normal((5, 5)),
                                  0.8 + 0.02 * rng.standard_normal((5, 5)))
    assert "95% interval ∞ to ∞ (Type I error below alpha at every df)" in str(res)


def test_the_5x2cv_f_test_says_it_has_no_interval(vote):
    res = calibsim.compare("naive_bayes", "c45", vote, design="5x2cv", test="cv5x2_f",
                           progress=False)
    assert np.isnan(res.confidence_interval[0]) and 0 <= res.pvalue <= 1
    assert "no 95% CI (the 5x2cv F test pools the ten squared differences" in str(res)


def test_cli_df_explains_the_integer_df_beside_infinity(capsys):
    assert main(["df", "--test", "corrected_repeated_cv", "--folds", "5", "--runs", "5"]) == 0
    out = capsys.readouterr().out
    assert "calibrated df ∞ (the normal limit)" in out and "the top of Bouckaert's grid" in out


def test_cli_df_refuses_a_level_the_table_does_not_hold(capsys):
    assert main(["df", "--alpha", "0.02"]) == 2
    err = capsys.readouterr().err
    assert "`--alpha` must be one of the table's levels 0.01, 0.025, 0.05, 0.1; got 0.02" in err


@pytest.mark.parametrize("argv", [
    ["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--test", "use_al_data"],
    ["calibrate", "--test", "use_al_data"]])
def test_a_test_typo_is_reported_as_the_flag(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "`--test` must be one of the registered tests" in err
    assert "did you mean use_all_data" in err


def test_calibrate_help_names_csv(capsys):
    with pytest.raises(SystemExit):
        main(["calibrate", "--help"])
    assert "CSV file" in capsys.readouterr().out


def test_the_docs_count_the_shipped_data_sets():
    from calibsim.datasets._loaders import dataset_table
    n = len(dataset_table())
    assert f"the {n} data sets that ship" in (REPO / "README.md").read_text()
    assert f"the {n} shipped data sets" in (REPO / "docs/guide/your_data.md").read_text()


def test_rank_says_which_friedman_to_report_and_what_an_order_without_costs_is():
    rng = np.random.default_rng(0)
    rows = [{"dataset": f"d{s}", "learner": n, "fold": f,
             "accuracy": float(rng.uniform(0.6, 0.9)) + 0.05 * i}
            for s in range(6) for i, n in enumerate(("nb", "c45", "svm")) for f in range(10)]
    text = str(calibsim.rank(pd.DataFrame(rows)))
    assert "Friedman on the scores (the test to report for the learners' ranks)" in text
    assert "Friedman on the MultiTest ranks (Multi²Test's own step, for its order only" in text
    assert "no cost given: the prior order is the table's column order" in text
    costed = str(calibsim.rank(pd.DataFrame(rows), cost=["nb", "c45", "svm"]))
    assert "no cost given" not in costed


# --------------------------------------------------------------------------- reduced studies

SMALL = tiny_study('tiny', seed=7, block_size=4, n_datasets=6) + """[[analysis]]
kind = "calibrate"
tests = ["use_all_data"]
runs = [2]
alphas = [0.05]
df_max = 20

[[analysis]]
kind = "rejection_rate"
name = "calibrated"
tests = ["use_all_data"]
runs = [2]
df = "calibrated"

[[analysis]]
kind = "replicability"
name = "replicated"
tests = ["use_all_data"]
runs = [2]
repeats = 2
df = "calibrated"
alphas = [0.05]

[outputs]
results = "results"
figures = "figures"
"""


def test_where_no_df_passes_the_tables_say_so(tmp_path, monkeypatch):
    from calibsim.engine import analyses
    from calibsim.engine.pipeline import run_study_file
    path = tmp_path / "tiny.toml"
    path.write_text(SMALL)
    monkeypatch.setattr(analyses.CalibratedDF, "__call__", lambda self, test, r, alpha: 0)
    paths = run_study_file(path, n_workers=0)
    rate = pd.read_csv(next(p for k, p in paths.items() if str(p).endswith("calibrated.csv")))
    assert rate["rate"].isna().all() and (rate["df"] == 0).all()
    assert rate["note"].str.startswith("no df keeps Type I ≤ α = 0.05 on 6 data sets").all()
    rep = pd.read_csv(next(p for k, p in paths.items() if str(p).endswith("replicated.csv")))
    assert rep["note"].str.startswith("no df keeps Type I ≤ α").all()
