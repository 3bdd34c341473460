"""Bad input fails fast and clear (issue 24): a table of public calls x bad values.

Each case must raise ``ValueError`` or ``TypeError`` whose message names the parameter
(in backticks, as calibsim's messages do), within a time cap; no other exception type,
no hang, no silent acceptance. The tables are cheap to extend: add a function to
``CALLS`` or a value to ``BAD``.
"""

import numpy as np
import pytest

from calibsim import calibration, measures, stats
from calibsim.cli import main

from _caps import time_cap

X = np.random.default_rng(0).normal(0, 0.03, (10, 10))

#: name -> (parameter named in the message, call taking the bad value)
CALLS = {
    "repeated_cv_ttest": ("x", lambda v: stats.repeated_cv_ttest(v)),
    "corrected_repeated_cv_ttest": ("x", lambda v: stats.corrected_repeated_cv_ttest(v)),
    "kfold_cv_ttest": ("x", lambda v: stats.kfold_cv_ttest(v)),
    "resampled_ttest": ("x", lambda v: stats.resampled_ttest(v)),
    "corrected_resampled_ttest": ("x", lambda v: stats.corrected_resampled_ttest(
        v, test_train_ratio=0.1)),
    "cv5x2_ttest": ("x", lambda v: stats.cv5x2_ttest(v)),
    "cv5x2_ftest": ("x", lambda v: stats.cv5x2_ftest(v)),
    "correlated_bayesian_ttest": ("x", lambda v: stats.correlated_bayesian_ttest(v)),
    "bayesian_signed_rank_test": ("x", lambda v: stats.bayesian_signed_rank_test(
        v, n_samples=100)),
    "friedman_test": ("scores", lambda v: stats.friedman_test(v)),
    "nemenyi_test": ("scores", lambda v: stats.nemenyi_test(v)),
    "holm_test": ("scores", lambda v: stats.holm_test(v)),
    "shaffer_test": ("scores", lambda v: stats.shaffer_test(v)),
    "bergmann_hommel_test": ("scores", lambda v: stats.bergmann_hommel_test(v)),
    "sign_test": ("x", lambda v: stats.sign_test(v)),
    "corrected_repeated_cv_ttest df": ("df", lambda v: stats.corrected_repeated_cv_ttest(
        X, df=v)),
    "repeated_cv_ttest df": ("df", lambda v: stats.repeated_cv_ttest(X, df=v)),
    "correlated_bayesian_ttest rope": ("rope", lambda v: stats.correlated_bayesian_ttest(
        X, rope=v)),
    "correlated_bayesian_ttest rho": ("rho", lambda v: stats.correlated_bayesian_ttest(
        X, rho=v)),
    "lookup_df alpha": ("alpha", lambda v: calibration.lookup_df("use_all_data", alpha=v)),
    "rejection_rate alpha": ("alpha", lambda v: measures.rejection_rate(
        np.full(10, 0.5), v)),
}

#: name -> a value no call above may accept
BAD = {
    "complex": X.astype(complex) + 1j,
    "strings": X.astype(str),
    "booleans": X > 0,
    "nan": np.where(X > 0, np.nan, X),
    "inf": np.where(X > 0, np.inf, X),
    "None": None,
    "dict": {"a": 1},
    "text": "0.05",
    "bool scalar": True,
    "complex scalar": 0.05 + 1j,
    "nested text": [["a", "b"], ["c", "d"]],
    "negative": -X - 1,
}

#: calls for which a value of this kind is legal (documented), not an error
LEGAL = {
    ("corrected_repeated_cv_ttest df", "inf"), ("repeated_cv_ttest df", "negative"),
    ("corrected_repeated_cv_ttest df", "negative"),
}
LEGAL |= {("corrected_repeated_cv_ttest df", "None"), ("repeated_cv_ttest df", "None"),
          ("correlated_bayesian_ttest rho", "None")}          # None: the documented default
for _name in ("friedman_test", "nemenyi_test", "holm_test", "shaffer_test",
              "bergmann_hommel_test"):
    LEGAL.add((_name, "negative"))                  # scores may be losses, any sign
for _name in ("repeated_cv_ttest", "corrected_repeated_cv_ttest", "kfold_cv_ttest",
              "resampled_ttest", "corrected_resampled_ttest", "cv5x2_ttest", "cv5x2_ftest",
              "correlated_bayesian_ttest", "bayesian_signed_rank_test", "sign_test"):
    LEGAL.add((_name, "negative"))                  # differences may be negative


CASES = [(c, b) for c in CALLS for b in BAD if (c, b) not in LEGAL]


@pytest.mark.parametrize("call, bad", CASES, ids=[f"{c}-{b}" for c, b in CASES])
def test_bad_value_is_refused_naming_the_parameter(call, bad):
    param, func = CALLS[call]
    with time_cap(10):
        try:
            func(BAD[bad])
        except (ValueError, TypeError) as exc:
            assert f"`{param}`" in str(exc), str(exc)
            return
    pytest.fail(f"{call} accepted {bad}")


CLI_CASES = [
    ["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--design", d]
    for d in ("", "0x10", "10x1", "x", "subsampling:1", "subsampling:x", "10x10x10",
              "-1x10", "1e9x10")
] + [
    ["compare", "--data", "vote", "--a", spec, "--b", "c45"]
    for spec in ("subprocess.run", "os.system('x')", "numpy.ndarray", "lambda: 1",
                 "sklearn.svm.SVC(C=open('x'))", "naive_bais", "", "(", "SVC(**{})",
                 "sklearn.linear_model.LinearRegression()")
] + [
    ["compare", "--data", d, "--a", "naive_bayes", "--b", "c45"]
    for d in ("no-such-data", "/dev/null.arff", "votes", "sklearn:load_nothing")
] + [
    ["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--alpha", a]
    for a in ("0", "1", "-0.1", "x", "nan", "2")
] + [
    ["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--method", "bayes",
     "--rope", r] for r in ("-1", "nan")
] + [
    ["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--test", t]
    for t in ("no_test", "cv5x2_t", "mcnemar")
] + [
    ["df", "--test", "nope"], ["run", "no/such/study.toml"], ["rank", "--scores", "nope.csv"],
]


@pytest.mark.parametrize("argv", CLI_CASES, ids=[" ".join(a[1:])[:60] for a in CLI_CASES])
def test_cli_refuses_bad_input_in_one_line(argv, capsys):
    with time_cap(60):
        try:
            code = main(argv)
        except SystemExit as exc:             # argparse's own refusals (exit status 2)
            code = exc.code
    err = capsys.readouterr().err.strip()
    assert code == 2, (code, err)
    assert "Traceback" not in err and err


def test_the_tables_are_large():
    assert len(CASES) + len(CLI_CASES) >= 250


def test_a_string_is_not_a_list_of_learners():
    from calibsim import compare_all
    from calibsim.datasets import load_uci
    with pytest.raises(ValueError, match="`estimators` must be a list or dict"):
        compare_all("naive_bayes", load_uci("vote"))


@pytest.mark.parametrize("a, y, match", [
    ("sklearn.linear_model.LinearRegression()", "labels", "is a regressor"),
    ("LinearRegression()", "labels", "is a regressor"),
    ("sklearn.naive_bayes.GaussianNB()", "nan", "missing \\(NaN\\) label"),
    ("sklearn.naive_bayes.GaussianNB()", "one class", "at least two classes"),
    ("sklearn.naive_bayes.GaussianNB()", "numeric", "regression target"),
])
def test_compare_refuses_what_is_not_a_classification(a, y, match):
    from calibsim import compare
    X = np.random.default_rng(0).normal(size=(60, 3))
    ys = {"labels": (X[:, 0] > 0).astype(int), "nan": np.full(60, np.nan),
          "one class": np.zeros(60), "numeric": X[:, 1]}
    with pytest.raises(ValueError, match=match):
        compare(a, "sklearn.tree.DecisionTreeClassifier()", X, ys[y], design="2x2")


def test_nonsense_inputs_to_measures_and_tuning():
    from calibsim.measures import replicability
    from calibsim.tuning import channel_labels
    with pytest.raises(ValueError, match="`rejected` must hold"):
        replicability(np.full((5, 10), 0.5))
    with pytest.raises(ValueError, match="`bits` must be finite"):
        channel_labels(np.inf, 2.5)


def test_readers_and_loops_that_could_hang_fail_fast(tmp_path):
    from calibsim import compare
    from calibsim.datasets import load_arff, load_uci
    with time_cap(10):
        with pytest.raises(ValueError, match="not a regular file"):
            load_arff("/dev/zero")
        (tmp_path / "bin.arff").write_bytes(bytes(range(256)) * 4)
        with pytest.raises(ValueError, match="not UTF-8"):
            load_arff(tmp_path / "bin.arff")
        vote = load_uci("vote")
        with pytest.raises(ValueError, match="`n_repeats`"):
            compare("naive_bayes", "c45", vote, replicability="rerun", n_repeats=10**9)
        with pytest.raises(ValueError, match="`n_boot`"):
            compare("naive_bayes", "c45", vote, n_boot=0)
