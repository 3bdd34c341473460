"""Bad input fails fast and clear, part 2 (issue 24): sizes, study files, the store.

Every case runs under a time cap and an address-space cap (the memory this process
has plus 3 GiB), so an allocation above the estimate or a hang fails the case instead
of the machine. Tables, not hand-written tests: add a row to extend.
"""

import copy
import re
import os
import threading

import numpy as np
import pytest

from calibsim.cli import main
from calibsim.engine.spec import StudyFileError, study_from_dict


from _caps import capped  # noqa: E402  (tests/ is on sys.path: no __init__.py)
from _studies import tiny_study  # noqa: E402


# --- study files: every key of a small study x values it must refuse ---------------------

BASE = {
    "study": {"name": "s", "seed": 1, "block_size": 5},
    "sources": {"null": {"kind": "null", "n_instances": 60, "n_attributes": 5,
                         "class_prior": 0.5, "n_datasets": 5}},
    "learners": {"names": ["naive_bayes", "c45"]},
    "schemes": {"cv": {"kind": "repeated_kfold", "n_folds": 5, "n_runs": 4},
                "sub": {"kind": "subsampling", "n_runs": 10, "test_fraction": 0.1}},
    "analysis": [{"kind": "calibrate", "tests": ["corrected_repeated_cv"], "df_max": 50},
                 {"kind": "rejection_rate", "name": "rate", "tests": ["resampling"],
                  "alphas": [0.05]}],
}

#: key path (as the message names it) -> path into BASE
KEYS = {
    "sources.null.n_instances": ("sources", "null", "n_instances"),
    "sources.null.n_attributes": ("sources", "null", "n_attributes"),
    "sources.null.n_datasets": ("sources", "null", "n_datasets"),
    "sources.null.class_prior": ("sources", "null", "class_prior"),
    "sources.null.seed": ("sources", "null", "seed"),
    "schemes.cv.n_folds": ("schemes", "cv", "n_folds"),
    "schemes.cv.n_runs": ("schemes", "cv", "n_runs"),
    "schemes.sub.n_runs": ("schemes", "sub", "n_runs"),
    "schemes.sub.test_fraction": ("schemes", "sub", "test_fraction"),
    "study.seed": ("study", "seed"),
    "study.block_size": ("study", "block_size"),
    "analysis[0].df_max": ("analysis", 0, "df_max"),
    "analysis[1].alphas": ("analysis", 1, "alphas"),
    "analysis[1].df": ("analysis", 1, "df"),
    "analysis[1].runs": ("analysis", 1, "runs"),
}

BAD_VALUES = {
    "negative": -1, "zero": 0, "fraction": 1.5, "text": "10", "bool": True, "table": {"a": 1},
    "empty list": [], "huge": 10**12, "enormous": 10**30, "nan": float("nan"),
    "inf": float("inf"), "list of text": ["a"], "nested": [[1]],
}

#: (key, value) pairs that are legal and documented, not errors: any seed >= 0, any
#: block size >= 1 (blocks never exceed the data sets)
LEGAL = ({(k, v) for k in ("sources.null.seed", "study.seed")
          for v in ("zero", "huge", "enormous")}
         | {("study.block_size", v) for v in ("huge", "enormous")}
         | {("analysis[1].df", v) for v in ("fraction", "huge", "enormous", "inf")})

STUDY_CASES = [(k, v) for k in KEYS for v in BAD_VALUES if (k, v) not in LEGAL]


def _with(path, value):
    doc = copy.deepcopy(BASE)
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return doc


def test_the_base_study_is_valid(tmp_path):
    study = study_from_dict(copy.deepcopy(BASE), tmp_path / "s.toml")
    assert len(study.sources) == 1 and len(study.analyses) == 2


@pytest.mark.parametrize("key, bad", STUDY_CASES, ids=[f"{k}={v}" for k, v in STUDY_CASES])
def test_a_study_file_refuses_a_bad_value_naming_its_key(key, bad, tmp_path):
    doc = _with(KEYS[key], BAD_VALUES[bad])
    with capped():
        with pytest.raises(StudyFileError) as info:
            study_from_dict(doc, tmp_path / "s.toml")
    assert f"`{key}" in str(info.value), str(info.value)


@pytest.mark.parametrize("key, value", [
    ("sources.null.n_instances", 10**8), ("sources.null.n_attributes", 10**9),
    ("sources.null.n_datasets", 10**9), ("schemes.cv.n_runs", 10**9),
    ("schemes.sub.n_runs", 10**10), ("analysis[0].df_max", 10**9),
])
def test_one_memory_estimate_names_the_size_to_lower(key, value, tmp_path):
    doc = _with(KEYS[key], value)
    with capped():
        with pytest.raises(StudyFileError,
                           match=re.escape(f"`{key}` = {value} makes study s need an "
                                           "estimated ") + ".* of memory.*lower it"):
            study_from_dict(doc, tmp_path / "s.toml")


@pytest.mark.parametrize("change, match", [
    ({"learners": {"names": ["naive_bayes"]}}, "`learners.names` must name at least two"),
    ({"schemes": {"cv": {"kind": "repeated_kfold", "n_folds": 61, "n_runs": 2},
                  "sub": {"kind": "subsampling"}}},
     "`schemes.cv.n_folds` must not exceed the 60 instances"),
    ({"schemes": {"cv": {"kind": "test_set", "n_test": 100}, "sub": {"kind": "subsampling"}}},
     "`schemes.cv` is a test_set scheme"),
])
def test_scheme_and_source_combinations_are_checked_at_load(change, match, tmp_path):
    doc = copy.deepcopy(BASE)
    doc.update(change)
    doc["analysis"] = [{"kind": "accuracy"}]
    with pytest.raises(StudyFileError, match=match):
        study_from_dict(doc, tmp_path / "s.toml")


def test_a_deeply_nested_or_huge_study_file_is_refused(tmp_path):
    from calibsim.engine.spec import load_study
    deep = tmp_path / "deep.toml"
    deep.write_text("[study]\nname = 'd'\nseed = 1\n[x]\ny = " + "[" * 10000 + "]" * 10000)
    with capped(), pytest.raises(StudyFileError, match="nests arrays or tables too deeply"):
        load_study(deep)
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 2_000_000)
    with pytest.raises(StudyFileError, match="must be at most"):
        load_study(big)
    with pytest.raises(StudyFileError, match="is a folder"):
        load_study(tmp_path)
    with pytest.raises(StudyFileError, match="not a regular file"):
        load_study("/dev/null")


# --- public functions: sizes a user can mistype ------------------------------------------

def _api_cases():
    from calibsim import calibration, stats, tuning
    x = np.random.default_rng(0).normal(0, 0.03, (50, 10, 10))
    return {
        "nemenyi 3x5000": ("scores", lambda: stats.nemenyi_test(np.ones((3, 5000)))),
        "shaffer 10x2000": ("scores", lambda: stats.shaffer_test(np.ones((10, 2000)))),
        "friedman 10x5000": ("scores", lambda: stats.friedman_test(np.ones((10, 5000)))),
        "holm 3x1001": ("scores", lambda: stats.holm_test(np.ones((3, 1001)))),
        "critical_difference": ("n_learners", lambda: stats.critical_difference(10**12, 10)),
        "critical_difference S": ("n_datasets", lambda: stats.critical_difference(4, 10**12)),
        "calibrate 1e7 alphas": ("alphas", lambda: calibration.calibrate(
            "use_all_data", x, alphas=np.linspace(0.001, 0.5, 10**7))),
        "calibrate huge dfs": ("dfs", lambda: calibration.calibrate(
            "use_all_data", np.zeros((10**6, 2, 2)), alphas=0.05, dfs=np.arange(1, 10**5))),
        "quantile_interval": ("n", lambda: calibration.quantile_interval(10**18, 0.5)),
        "quantile_interval float": ("n", lambda: calibration.quantile_interval(1e3, 0.5)),
        "threshold_df rtol": ("rtol", lambda: calibration.threshold_df(
            "use_all_data", x, 0.05, rtol=-1)),
        "threshold_df max_iter": ("max_iter", lambda: calibration.threshold_df(
            "use_all_data", x, 0.05, max_iter=0)),
        "tuned_accuracy": ("labels", lambda: tuning.tuned_accuracy(10**9, 10**8, 10**8)),
        "poisson_binomial_pmf": ("p", lambda: tuning.poisson_binomial_pmf(np.full(10**5, .5))),
        "class_entropy nan": ("counts", lambda: tuning.class_entropy([np.nan, 5])),
    }


API = list(_api_cases())


@pytest.mark.parametrize("name", API)
def test_a_size_a_user_can_mistype_is_refused_at_once(name):
    param, call = _api_cases()[name]
    with capped(10):
        with pytest.raises((ValueError, TypeError)) as info:
            call()
    assert f"`{param}`" in str(info.value), str(info.value)


@pytest.mark.parametrize("random_state, kind", [("x", TypeError), (-1, ValueError),
                                                (1.5, TypeError), (True, TypeError)])
def test_random_state_is_checked_by_calibsim(random_state, kind):
    from calibsim.engine.scoring import repeat_seeds
    with pytest.raises(kind, match="`random_state` must be"):
        repeat_seeds(random_state, 1)


# --- the command line ---------------------------------------------------------------------

CLI_SIZE_CASES = [
    (["calibrate", "--test", "use_all_data", "--n-instances", "1000000000000"],
     "`--n-instances` = 1000000000000 makes"),
    (["calibrate", "--test", "use_all_data", "--df-max", "1000000000"], "`--df-max` = "),
    (["calibrate", "--test", "use_all_data", "--n-attributes", "1000000000"],
     "`--n-attributes` = "),
    (["calibrate", "--test", "use_all_data", "--n-datasets", "1000000000000"],
     "`--n-datasets` = "),
    (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--design",
      "100000000x10"], "asks for r·k = 1,000,000,000 fits"),
    (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--design",
      "subsampling:1000000000"], "1,000,000,000 subsamples"),
    (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--workers", "1000"],
     "`n_workers` \\(--workers\\) must be at most"),
    (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--scores",
      "pyproject.toml/x.csv"], "must be in a folder; 'pyproject.toml'"),
    (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--scores", "."],
     "must be a file name, not a folder"),
    (["run", "/dev/null"], "is not a regular file"),
    (["rank", "--scores", "."], "is a folder"),
]


#: every numeric flag of `calibsim calibrate` x text argparse must refuse (exit 2, no work)
CLI_SIZE_CASES += [
    (["calibrate", "--test", "use_all_data", flag, value], f"argument {flag}")
    for flag in ("--n-instances", "--n-attributes", "--n-datasets", "--df-max", "--folds",
                 "--runs", "--class-prior", "--test-fraction", "--alpha", "--seed")
    for value in ("-1", "x", "", "nan", "1e400")
    if not (flag == "--seed" and value == "1e400")
]


@pytest.mark.parametrize("argv, match", CLI_SIZE_CASES,
                         ids=[" ".join(a)[:60] for a, _ in CLI_SIZE_CASES])
def test_cli_refuses_sizes_and_paths_before_any_work(argv, match, capsys, tmp_path):
    import re
    argv = argv + (["--results", str(tmp_path)] if argv[0] == "calibrate" else [])
    with capped(30):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert "Traceback" not in err and re.search(match, err), err


def test_cli_names_a_file_it_cannot_write(tmp_path, capsys):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(SystemExit) as info:
        main(["run", "studies/example_ban_tan_ib1_5x2cv.toml", "--n-datasets", "2",
              "--out", str(tmp_path / "afile"), "--workers", "0"])
    code, err = info.value.code, capsys.readouterr().err
    assert code == 2 and "is an existing file" in err and "Dask" not in err


def test_a_silent_or_foreign_scheduler_ends_with_one_line():
    """A port that accepts and never answers: the whole call ends within the bound."""
    import socket
    import time
    from calibsim.engine.runner import cluster
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(5)
    port = srv.getsockname()[1]
    t0 = time.perf_counter()
    try:
        with pytest.raises(OSError, match="`--scheduler` .* did not answer as a Dask "
                                          "scheduler|no Dask scheduler answered"):
            with cluster(scheduler=f"tcp://127.0.0.1:{port}", timeout=1):
                pass
    finally:
        srv.close()
    assert time.perf_counter() - t0 < 15


# --- the store guards everything that shapes a score ---------------------------------------

def test_a_block_copied_into_another_keys_folder_is_refused(tmp_path):
    import shutil
    from calibsim.engine.store import Store, fingerprint
    store = Store(tmp_path)
    a, b = fingerprint({"x": 1}), fingerprint({"x": 2})
    store.save(a, 0, 3, {"s": np.arange(3.0)}, identity={"x": 1})
    store.save(b, 0, 3, {"s": np.arange(3.0) + 10}, identity={"x": 2})
    shutil.copy(store.folder(a) / "00000000-00000003.npz", store.folder(b) / "00000000-00000003.npz")
    assert store.available(b).size == 0                   # refused, not used as b's
    assert (store.folder(b) / "quarantine").is_dir()
    assert store.load(a, 3)["s"].tolist() == [0.0, 1.0, 2.0]


def test_clean_removes_leftovers_stale_and_quarantined_blocks(tmp_path):
    from calibsim.engine.store import Store, fingerprint
    store = Store(tmp_path)
    key = fingerprint({"x": 1})
    store.save(key, 0, 2, {"s": np.zeros(2)}, identity={"x": 1})
    folder = store.folder(key)
    (folder / ".00000002-00000004.npz.tmp-999999999").write_bytes(b"half")   # a dead writer
    (folder / f".00000004-00000006.npz.tmp-{os.getpid()}").write_bytes(b"live")
    (folder / "stale").mkdir()
    (folder / "stale" / "00000000-00000001.npz").write_bytes(b"old")
    (folder / "quarantine").mkdir()
    (folder / "quarantine" / "00000001-00000002.npz").write_bytes(b"bad")
    assert store.clean(dry_run=True) == {"temporary": 1, "stale": 1, "quarantine": 1,
                                         "bytes": 10}
    assert store.clean()["temporary"] == 1
    assert not (folder / "stale").exists() and not (folder / "quarantine").exists()
    assert (folder / f".00000004-00000006.npz.tmp-{os.getpid()}").exists()   # still writing
    assert store.available(key).tolist() == [0, 1]


def test_the_readers_are_part_of_the_code_version():
    import calibsim
    from calibsim.engine import store
    root = os.path.dirname(calibsim.__file__)
    hashed = {os.path.relpath(f, root) for f in store.score_files()}
    for reader in ("datasets/_arff.py", "datasets/_csv.py", "datasets/_loaders.py",
                   "sources/_dataset.py"):
        assert reader in hashed


def test_a_reader_change_makes_old_blocks_stale(tmp_path, monkeypatch):
    from calibsim.engine import store as S
    monkeypatch.setenv("CALIBSIM_CODE_VERSION", "reader-v1")
    S.code_version.cache_clear()
    st = S.Store(tmp_path)
    key = S.fingerprint({"x": 1})
    st.save(key, 0, 2, {"s": np.zeros(2)}, identity={"x": 1})
    monkeypatch.setenv("CALIBSIM_CODE_VERSION", "reader-v2")   # e.g. _arff.py edited
    S.code_version.cache_clear()
    try:
        assert st.available(key).size == 0 and (st.folder(key) / "stale").is_dir()
    finally:
        monkeypatch.delenv("CALIBSIM_CODE_VERSION")
        S.code_version.cache_clear()


def test_class_attribute_is_part_of_a_data_sets_identity():
    from calibsim.sources import DatasetSource
    a = DatasetSource(name="breast-cancer")
    b = DatasetSource(name="breast-cancer", class_attribute="breast")
    assert a.identity != b.identity
    assert a.n_classes == 2 and b.n_classes == 2
    assert not np.array_equal(a.dataset.y, b.dataset.y)
    with pytest.raises(ValueError, match="`class_attribute` 'nope' is not an attribute"):
        DatasetSource(name="vote", class_attribute="nope")


def test_a_lost_cluster_ends_in_one_line_that_says_how_to_resume():
    from distributed import Client, LocalCluster
    from calibsim.engine.runner import ClusterLost, map_blocks

    class Spec:
        def __init__(self, i):
            self.key = f"b{i}"
            self.i = i

    local = LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                         dashboard_address=":0")
    client = Client(local)
    got = []

    def keep(spec, result):
        got.append(result)
        if len(got) == 1:
            threading.Thread(target=local.close).start()   # the scheduler goes away

    try:
        with capped(60, extra_bytes=6 * 2**30):
            with pytest.raises(ClusterLost, match=r"after 1 of 20 blocks .* resumes"):
                map_blocks(_slow_square, [Spec(i) for i in range(20)], client=client,
                           on_result=keep)
    finally:
        client.close()
        local.close()
    assert got == [0] or got[0] in range(20)


def _slow_square(spec):
    import time
    time.sleep(0.2)
    return spec.i * spec.i


def test_a_reduced_runs_report_says_so(tmp_path):
    from types import SimpleNamespace
    from calibsim.engine.pipeline import REDUCED_BANNER, _label_reduced
    rep = tmp_path / "x_report.md"
    rep.write_text("# X\n\nThe paper's 1000 data sets give 5.1%.\n")
    study = SimpleNamespace(sources=[SimpleNamespace(n_datasets=10)],
                            declared_n_datasets=(1000,))
    _label_reduced(study, {"report": rep, "table": tmp_path / "t.csv"})
    _label_reduced(study, {"report": rep})                    # once only
    text = rep.read_text()
    assert text.startswith(REDUCED_BANNER) and text.count(REDUCED_BANNER) == 1
    assert "10 data sets per simulated source instead of the 1000" in text


def test_the_tables_are_large():
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location(
        "bad_input_part1", Path(__file__).with_name("test_bad_input.py"))
    part1 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(part1)
    CASES, CLI_CASES = part1.CASES, part1.CLI_CASES
    n = len(CASES) + len(CLI_CASES) + len(STUDY_CASES) + len(API) + len(CLI_SIZE_CASES)
    assert n >= 500, n


@pytest.mark.parametrize("content, match", [
    (b'a,b,class\n1,2,x\n3,"4,y\n', "cannot be read as CSV"),
    (bytes(range(128, 256)) * 8, "is not UTF-8 text"),
    (b"", "cannot be read as CSV"),
])
def test_a_garbled_csv_is_one_clear_error(content, match, tmp_path):
    from calibsim.datasets import load_csv
    path = tmp_path / "x.csv"
    path.write_bytes(content)
    with capped(), pytest.raises(ValueError, match=match):
        load_csv(path)
    with pytest.raises(ValueError, match="not a regular file"):
        load_csv("/dev/null")


# --- issue 33: specs that can only build estimators, no hangs, strict where silent ---------

_FILE_SPECS = [
    "make_pipeline(StandardScaler(), LogisticRegression(), memory={dir!r})",
    "sklearn.pipeline.make_pipeline(sklearn.preprocessing.StandardScaler(), "
    "sklearn.linear_model.LogisticRegression(), memory={dir!r})",
    "sklearn.pipeline.Pipeline([('s', StandardScaler()), ('c', SVC())], memory={dir!r})",
    "make_pipeline(FeatureAgglomeration(memory={dir!r}), SVC())",
    "make_pipeline(sklearn.feature_extraction.text.CountVectorizer(input='filename'), "
    "MultinomialNB())",
    "make_pipeline(HashingVectorizer(input='file'), MultinomialNB())",
]


@pytest.mark.parametrize("spec", _FILE_SPECS)
def test_a_spec_that_names_a_file_or_cache_is_refused_and_nothing_is_written(spec, tmp_path,
                                                                             capsys):
    from calibsim.engine.scoring import parse_learner
    cache = tmp_path / "cache"
    text = spec.format(dir=str(cache))
    with pytest.raises(ValueError, match=r"refused: `(memory|input)` = .* (names a file, "
                                         r"folder or cache|read the files)"):
        parse_learner(text, "a")
    assert main(["compare", "--data", "vote", "--a", text, "--b", "c45", "--design", "2x2",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "refused" in err
    assert not cache.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("spec, match", [
    ("sklearn.cluster.KMeans()", "KMeans, a clusterer; the learner .* must be a classifier"),
    ("StandardScaler()", "a transformer; the learner .* must be a classifier"),
    ("make_pipeline(SVC(), StandardScaler())", "last step is a transformer"),
    ("sklearn.linear_model.Ridge()", "is a regressor, not a classifier"),
    ("sklearn.conftest.X", "not a classifier or transformer that scikit-learn or calibsim "
                           "declares"),
    ("sklearn.utils.validation.check_array", "not a classifier or transformer"),
    ("sklearn.SVC()", r"not where scikit-learn or calibsim exports SVC \(did you mean "
                      r"sklearn.svm.SVC"),
    ("GridSearchCV(SVC(), {'C': [1]})", "neither a classifier nor a transformer"),
    ("sklearn.ensemble.RandomForestClassifier(n_estimators=1000000000)",
     "`n_estimators` in RandomForestClassifier makes one fit train 1,000,000,000 models"),
    ("BaggingClassifier(RandomForestClassifier(n_estimators=1000), n_estimators=1000)",
     "makes one fit train 1,000,000 models"),
    ("MLPClassifier(max_iter=1000000000)", "`max_iter` = 1,000,000,000 in MLPClassifier"),
    ("RandomForestClassifier(n_jobs=100000)", "`n_jobs` = 100000 in RandomForestClassifier"),
    ("SVC(cache_size=1e15)", "`cache_size` = 1000000000000000.0 makes SVC's kernel cache"),
    ("make_pipeline(" * 100 + "SVC()" + ")" * 100, "nests calls, lists, tuples or dicts more "
                                                   "than 8 deep"),
    ("SVC(C=1, C=2)", "`C` is given twice"),
    ("SVC()\x00", "refused"),
    ("calibsim.learners.VotedPerceptron(n_iterations=10**9)", "neither a literal"),
    ("calibsim.learners.VotedPerceptron(n_iterations=1000000000)", "`n_iterations`"),
])
def test_a_spec_is_refused_by_name_role_or_size_at_once(spec, match):
    import sys
    import time
    from calibsim.engine.scoring import parse_learner
    parse_learner("SVC()", "warm")                  # the allow-list, built once per process
    before = set(sys.modules)
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=match):
        parse_learner(spec, "a")
    assert time.perf_counter() - t0 < 5
    assert not {m for m in set(sys.modules) - before if m.startswith(("sklearn", "pytest"))}


def test_the_allow_list_is_what_scikit_learn_and_calibsim_declare():
    from sklearn.utils import all_estimators
    from calibsim.engine._safe_spec import allowed
    names = {p.rpartition(".")[2] for p in allowed()}
    for name, _ in all_estimators(type_filter=["classifier", "transformer"]):
        assert name in names, name
    assert {"C45", "IB1", "NaiveBayes", "TAN", "VotedPerceptron", "NominalOneHot",
            "make_pipeline", "Pipeline"} <= names
    assert not {n for n, _ in all_estimators(type_filter="regressor")
                if n not in {c for c, _ in all_estimators(type_filter=["classifier",
                                                                       "transformer"])}} & names


def test_a_study_file_with_a_file_parameter_is_refused(tmp_path, capsys):
    study = tmp_path / "s.toml"
    study.write_text(tiny_study("s", seed=1, n_datasets=2, n_instances=40, n_attributes=3,
                                n_folds=2, n_runs=2, learners=("naive_bayes", "x")) + f"""
[learners.x]
estimator = "sklearn.ensemble.RandomForestClassifier"
n_estimators = 5
memory = "{tmp_path / 'cache'}"
[[analysis]]
kind = "accuracy"
""")
    assert main(["run", str(study), "--out", str(tmp_path / "out"), "--workers", "0"]) == 2
    err = capsys.readouterr().err
    assert "`learners.x` cannot be made" in err and "`memory`" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


@pytest.mark.parametrize("content, match", [
    ("a,b,cls\n" + "?,?,?\n" * 30, "class column 'cls' .* must not hold missing values"),
    ("a,b,cls\n" + "?,?,p\n" * 30, "must hold at least two classes .* class 'p'"),
    ("a,b,cls\n" + "1,2,p\n" * 30, "must hold at least two classes"),
    ("a,b,a,cls\n" + "1,2,3,p\n4,5,6,q\n" * 10, "columns 0 and 2 share the header 'a'"),
    ("a,b,cls\n" + "1,x\x00y,p\n2,z,q\n" * 10, "NUL byte at offset"),
])
def test_compare_on_a_csv_answers_within_seconds(content, match, tmp_path):
    import time
    from calibsim import compare
    from calibsim.cli._compare import load_data
    path = tmp_path / "x.csv"
    path.write_text(content)
    t0 = time.perf_counter()
    with capped(30), pytest.raises(ValueError, match=match):
        compare("naive_bayes", "c45", load_data(str(path)), design="2x2")
    assert time.perf_counter() - t0 < 10


def test_question_marks_in_a_csv_are_missing_values(tmp_path):
    from calibsim.datasets import load_csv
    path = tmp_path / "x.csv"
    path.write_text("a,b,cls\n1,x,p\n?,?,q\n3,y,p\n")
    ds = load_csv(path)
    assert ds.has_missing and ds.n_values.tolist() == [0, 2] and np.isnan(ds.X[1]).all()


def test_a_one_class_data_set_is_refused_by_compare_in_every_form(tmp_path):
    from calibsim import compare
    from calibsim.datasets import from_arrays, load_arff
    arff = tmp_path / "x.arff"
    arff.write_text("@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n"
                    + "".join(f"{i},p\n" for i in range(20)))
    for X, y in ((load_arff(arff), None), (from_arrays(np.ones((20, 2)), np.zeros(20)), None),
                 (np.ones((20, 2)), np.zeros(20))):
        with pytest.raises(ValueError, match="at least two classes"):
            compare("naive_bayes", "c45", X, y, design="2x2")


@pytest.mark.parametrize("call, param", [
    (lambda: __import__("calibsim").stats.posthoc_from_ranks(np.linspace(1, 3000, 3000), 10,
                                                             method="shaffer"),
     "average_ranks"),
    (lambda: __import__("calibsim").calibration.type1_error_curve(
        "use_all_data", np.zeros((200, 10, 10)), alphas=0.05, dfs=np.arange(2, 10**7)), "dfs"),
    (lambda: __import__("calibsim").tuning.sum_pmf(*[[0.5, 0.5]] * 10**6), "pmfs"),
    (lambda: __import__("calibsim").tuning.sum_pmf(np.full(10**6, 1e-6), [0.5, 0.5]), "pmfs"),
    (lambda: __import__("calibsim").tuning.labels_needed(10**12, 1, 0.9, 0.95), "m"),
    (lambda: __import__("calibsim").calibration.type1_error_curve(
        "use_all_data", np.zeros((20, 2, 2)), alphas="0.05"), "alphas"),
    (lambda: __import__("calibsim").calibration.calibrated_df([2, 3], [1.5, 2.0], 0.05),
     "type1"),
    (lambda: __import__("calibsim").calibration.calibrated_df([2, 3], [-0.1, 0.0], 0.05),
     "type1"),
    (lambda: __import__("calibsim").stats.friedman_from_ranks([1.0, 1.0, 1.0], 5),
     "average_ranks"),
    (lambda: __import__("calibsim").stats.posthoc_from_ranks([1.0, 1.0, 4.0], 5,
                                                             method="holm"), "average_ranks"),
    (lambda: __import__("calibsim").stats.posthoc_from_ranks([1.0, 3.0, 2.0], 1,
                                                             method="holm"), "n_datasets"),
    (lambda: __import__("calibsim").stats.holm_test([[0.8, 0.7, 0.6]]), "scores"),
    (lambda: __import__("calibsim").stats.nemenyi_test([[0.8, 0.7, 0.6]]), "scores"),
    (lambda: __import__("calibsim").stats.critical_difference(3, 1), "n_datasets"),
    (lambda: __import__("calibsim").calibration.calibrate_rho(np.zeros((5, 2, 2)) > 0), "x"),
    (lambda: __import__("calibsim").calibration.calibrate_rho(np.zeros((5, 2, 2)) + 1j), "x"),
    (lambda: __import__("calibsim").measures.rejection_rate(np.full(5, 0.5) + 0j, 0.05),
     "pvalue"),
    (lambda: __import__("calibsim").measures.rejection_rate(
        np.full(5, np.datetime64("2020-01-01")), 0.05), "pvalue"),
    (lambda: __import__("calibsim").tuning.poisson_binomial_pmf(np.ones(4, bool)), "p"),
    (lambda: __import__("calibsim").tuning.poisson_binomial_pmf(np.full(4, 0.5) + 0j), "p"),
    (lambda: __import__("calibsim").stats.bayesian_signed_rank_test(
        np.arange(5.0), n_samples=10, random_state=True), "random_state"),
    (lambda: __import__("calibsim").stats.bayesian_signed_rank_test(
        np.arange(5.0), n_samples=10, random_state=-1), "random_state"),
    (lambda: __import__("calibsim").stats.bayesian_signed_rank_test(
        np.arange(5.0), n_samples=10, random_state=1.5), "random_state"),
    (lambda: __import__("calibsim").stats.bayesian_signed_rank_test(
        np.arange(5.0), n_samples=10, random_state="a"), "random_state"),
    (lambda: __import__("calibsim").ranking.bayesian_pairs(
        __import__("pandas").DataFrame(np.eye(4)[:, :3] + 0.5), n_samples=10,
        random_state=True), "random_state"),
    (lambda: __import__("calibsim").sources.NullSource(20, 2).sample(True), "rng"),
    (lambda: __import__("calibsim").schemes.Holdout(random_state=-1), "random_state"),
])
def test_issue_33_api_cases_are_refused_naming_the_parameter(call, param):
    with capped(20):
        with pytest.raises((ValueError, TypeError)) as info:
            call()
    assert f"`{param}`" in str(info.value), str(info.value)


@pytest.mark.parametrize("table, match", [
    (lambda pd: pd.DataFrame(np.ones((5, 3), bool)), "column 0 has dtype bool"),
    (lambda pd: pd.DataFrame(np.ones((5, 3), complex)), "column 0 has dtype complex128"),
    (lambda pd: pd.DataFrame(np.random.default_rng(0).random((5, 3)), columns=list("aba")),
     "two learner columns named 'a'"),
    (lambda pd: pd.DataFrame(np.random.default_rng(0).random((4, 3)), index=list("aabc")),
     "two data sets \\(rows\\) named 'a'"),
    (lambda pd: pd.DataFrame({"dataset": list("aabbcc"), "learner": list("xyxyxy"),
                              "score": [True, False] * 3}), "must hold real numbers"),
])
def test_rank_refuses_tables_it_would_misread(table, match):
    import pandas as pd
    from calibsim import rank
    with pytest.raises((ValueError, TypeError), match=match):
        rank(table(pd))


def test_learners_sharing_a_label_are_named_in_a_warning():
    from calibsim import compare
    from calibsim.engine.scoring import LabelWarning
    from calibsim.datasets import load_uci
    with pytest.warns(LabelWarning, match="'c45' -> 'c45_1', 'c45' -> 'c45_2'"):
        res = compare("c45", "c45", load_uci("contact-lenses"), design="2x2")
    assert (res.learner_a, res.learner_b) == ("c45_1", "c45_2")


@pytest.mark.parametrize("argv, match", [
    (["run", ""], "must name a file .* got an empty string"),
    (["run", "x" * 5000], "File name too long"),
    (["rank", "--scores", "{scores}", "--cd-diagram", "/dev/full"], "'/dev/full' is not a "
                                                                    "regular file"),
    (["rank", "--scores", "{scores}", "--graph", "/dev/full"], "is not a regular file"),
    (["rank", "--scores", "{dup}"], "columns 1 and 3 share the header 'L0'"),
    (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--test", ""],
     "`--test` must name a test"),
    (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--cd-diagram",
      "{tmp}/cd.png"], "`--cd-diagram` needs two or more data sets"),
    (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--scores",
      "/dev/full"], "is not a regular file"),
    (["run", "studies/example_ban_tan_ib1_5x2cv.toml", "--out", "pyproject.toml/x"],
     "above it is a file"),
])
def test_issue_33_cli_cases_end_in_one_line_before_any_work(argv, match, tmp_path, capsys):
    scores = tmp_path / "s.csv"
    scores.write_text("dataset,L0,L1,L2\nd1,.8,.7,.6\nd2,.7,.75,.6\nd3,.9,.8,.7\n")
    dup = tmp_path / "d.csv"
    dup.write_text("dataset,L0,L1,L0\nd1,.8,.7,.6\nd2,.7,.75,.6\nd3,.9,.8,.7\n")
    argv = [a.format(scores=scores, dup=dup, tmp=tmp_path) for a in argv]
    with capped(60):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    err = capsys.readouterr().err.strip()
    assert code == 2 and "Traceback" not in err and re.search(match, err), err
    assert not (tmp_path / "cd.png").exists()


@pytest.mark.parametrize("how", ["huge_header", "object_dtype", "truncated", "memory"])
def test_the_store_quarantines_a_block_whatever_the_error(how, tmp_path, monkeypatch, caplog):
    import io
    import zipfile
    from calibsim.engine import store as S
    st = S.Store(tmp_path)
    key = S.fingerprint({"x": 1})
    path = st.save(key, 0, 3, {"s": np.arange(3.0)}, identity={"x": 1})
    with zipfile.ZipFile(path) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    head = io.BytesIO()
    shape, descr = ((2**40,), "<f8") if how == "huge_header" else ((3,), "|O")
    np.lib.format.write_array_header_1_0(head, {"descr": descr, "fortran_order": False,
                                                "shape": shape})
    members["s.npy"] = head.getvalue() + np.arange(3.0).tobytes()
    if how == "truncated":
        path.write_bytes(path.read_bytes()[:50])
    elif how == "memory":                  # whatever np.load raises is caught, MemoryError too
        def boom(*a, **k):
            raise MemoryError("Unable to allocate 8.00 TiB")
        monkeypatch.setattr(S.np, "load", boom)
    else:
        with zipfile.ZipFile(path, "w") as zf:
            for k, v in members.items():
                zf.writestr(k, v)
    with capped(20):
        fresh = S.Store(tmp_path)
        assert fresh.available(key).size == 0
    assert (fresh.folder(key) / "quarantine" / path.name).is_file()
    lines = [r.getMessage() for r in caplog.records if "quarantine" in r.getMessage()]
    assert len(lines) == 1 and "\n" not in lines[0] and "cannot be read" in lines[0]


@pytest.mark.parametrize("name", ["NaiveBayes", "C45", "IB1", "TAN", "VotedPerceptron"])
@pytest.mark.parametrize("kind", ["int", "float", "float with NaN", "DataFrame"])
def test_one_rule_for_zero_rows_across_the_five_learners(name, kind):
    """As scikit-learn (learners/__init__.py): fit, predict and predict_proba raise on 0 rows."""
    import pandas as pd
    from calibsim import learners
    X = np.random.default_rng(0).integers(0, 2, (20, 3))
    X = X if kind == "int" else X.astype(float)
    if kind == "float with NaN":
        X[0, 0] = np.nan
    if kind == "DataFrame":
        X = pd.DataFrame(X, columns=list("abc"))
    est = getattr(learners, name)().fit(X, np.arange(20) % 2)
    for method in ("predict", "predict_proba"):
        with pytest.raises(ValueError, match="`X` must have at least one row"):
            getattr(est, method)(X[:0])
    with pytest.raises(ValueError, match="`X` must have at least one row"):
        getattr(learners, name)().fit(X[:0], np.arange(20)[:0])
