"""Tuned learners in the one engine, the .632 bootstrap and the Scheffer & Herbrich simulation."""

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal

from calibsim.schemes import Bootstrap632, bootstrap632_accuracy
from calibsim.engine import _tuned
from calibsim.engine.cells import CellSpec, run_cell
from calibsim.engine.learners import LearnerSpec
from calibsim.engine.run import store_key
from calibsim.engine.spec import StudyFileError, load_study
from calibsim.evaluate import score_splits
from calibsim.learners import C45
from calibsim.schemes import StratifiedRepeatedCV
from calibsim.sources import NullSource

REPO = Path(__file__).resolve().parents[1]
STUDY = REPO / "studies" / "scheffer_herbrich1997_simulation.toml"
NV = np.full(10, 2)

BASE = """
[study]
name = "t"
seed = 5

[sources.null]
kind = "null"
n_instances = 60
n_datasets = 3

[learners]
names = ["c45_tuned", "naive_bayes"]
pairs = [["c45_tuned", "naive_bayes"]]

[learners.c45_tuned]
kind = "c45"
grid = {confidence = [0.25, 0.5], min_obj = [2, 1]}
tuning = ["test_set", "nested_cv", "holdout", "bootstrap632"]
n_settings = [1, 4]
inner_folds = 3
n_bootstrap = 3

[schemes.cv]
kind = "repeated_kfold"
n_folds = 5
n_runs = 2

[[analysis]]
kind = "accuracy"
"""


def _study(tmp_path, text=BASE):
    path = tmp_path / "s.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_study(path)


# ---------------------------------------------------------------------------
# the .632 bootstrap splitter

def test_bootstrap_split_properties():
    boot = Bootstrap632(n_bootstrap=40)
    counts = boot.counts(25, rng=7)
    assert counts.shape == (40, 25) and counts.dtype == np.int64
    assert_array_equal(counts.sum(axis=1), 25)                      # n draws per sample
    assert_array_equal(boot.test_masks(np.zeros(25), rng=7), counts == 0)
    for b, (train, test) in enumerate(boot.split(np.zeros((25, 2)), rng=7)):
        assert train.size == 25 and np.all(np.diff(train) >= 0)
        assert_array_equal(np.bincount(train, minlength=25), counts[b])   # repeats kept
        assert not np.isin(test, train).any()                             # out of bag
        assert_array_equal(np.union1d(train, test), np.arange(25))
    assert boot.get_n_splits() == 40


def test_bootstrap_is_repeatable_and_prefix_consistent():
    assert_array_equal(Bootstrap632(5).counts(30, rng=3), Bootstrap632(5).counts(30, rng=3))
    assert_array_equal(Bootstrap632(8).indices(30, rng=3)[:5], Bootstrap632(5).indices(30, rng=3))
    fixed = Bootstrap632(4, random_state=11)
    assert_array_equal(fixed.counts(9), fixed.counts(9))
    assert not np.array_equal(Bootstrap632(5).counts(30, rng=3), Bootstrap632(5).counts(30, rng=4))


def test_out_of_bag_share_is_one_minus_one_over_n_to_the_n():
    n, B = 40, 4000
    share = Bootstrap632(B).test_masks(np.zeros(n), rng=2024).mean(axis=1)
    mc_se = share.std(ddof=1) / np.sqrt(B)
    assert abs(share.mean() - (1 - 1 / n) ** n) < 4 * mc_se


def test_bootstrap_estimate_and_errors():
    assert bootstrap632_accuracy(1.0, 0.5) == pytest.approx(0.368 + 0.316, abs=1e-12)
    assert_array_equal(bootstrap632_accuracy([0.9, 0.8], [np.nan, 0.5]),
                       [0.9, 0.368 * 0.8 + 0.632 * 0.5])
    with pytest.raises(ValueError, match="`n_bootstrap` must be an integer >= 1"):
        Bootstrap632(0)
    with pytest.raises(TypeError, match="`n_bootstrap` must be an integer"):
        Bootstrap632(2.5)
    with pytest.raises(TypeError, match="`random_state` must be None"):
        Bootstrap632(2, random_state="x")
    with pytest.raises(ValueError, match="`y` must be a 1-D array"):
        Bootstrap632(2).test_masks(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="`n` must be an integer >= 1"):
        Bootstrap632(2).counts(0)


def test_bootstrap_is_a_scikit_learn_splitter():
    from sklearn.model_selection import cross_val_score

    from calibsim.learners import NaiveBayes
    X, y = np.tile([[0], [1]], (10, 1)), np.tile([0, 1], 10)
    scores = cross_val_score(NaiveBayes(), X, y, cv=Bootstrap632(3, random_state=0))
    assert_array_equal(scores, 1.0)


# ---------------------------------------------------------------------------
# identities: untuned learners keep theirs (saved stores stay valid)

def test_untuned_identity_is_unchanged():
    assert LearnerSpec("naive_bayes", "naive_bayes").identity() == "naive_bayes()"
    c45 = LearnerSpec("c", "c45", params=(("confidence", 0.1), ("min_obj", 5)))
    assert c45.identity() == "c45(confidence=0.1, min_obj=5)"
    lr = LearnerSpec("lr", "estimator", "sklearn.linear_model.LogisticRegression",
                     (("max_iter", 2000),), ("sklearn.preprocessing.StandardScaler",))
    assert lr.identity() == ("sklearn.preprocessing.StandardScaler() | "
                             "sklearn.linear_model.LogisticRegression(max_iter=2000)")
    assert c45.settings() == (c45,)


def test_existing_store_keys_are_unchanged():
    # fingerprints computed with the code before tuned learners existed (git HEAD 5369b0b)
    study = load_study(REPO / "studies" / "bouckaert2003_figure2.toml")
    keys = [store_key(study, study.sources[0], s)[0] for s in study.schemes]
    assert keys == ["22097570090da0d70550", "39ded7cb0fffec3da0cc"]


# ---------------------------------------------------------------------------
# the study file: expansion, identities, errors

def test_tuned_learners_expand_with_grid_and_protocol_in_identity(tmp_path):
    study = _study(tmp_path)
    labels = [lrn.label for lrn in study.learners]
    assert labels[:2] == ["c45_tuned[tuning=test_set, n_settings=1]",
                          "c45_tuned[tuning=test_set, n_settings=4]"]
    assert len(labels) == 9 and labels[-1] == "naive_bayes"
    assert study.pairs == tuple((lab, "naive_bayes") for lab in labels[:-1])
    nested = study.learners[3]
    assert nested.tuning == "nested_cv" and nested.tuning_params == (("inner_folds", 3),)
    assert [dict(s) for s in nested.grid] == [{"confidence": 0.25, "min_obj": 2},
                                              {"confidence": 0.25, "min_obj": 1},
                                              {"confidence": 0.5, "min_obj": 2},
                                              {"confidence": 0.5, "min_obj": 1}]
    ids = [lrn.identity() for lrn in study.learners]
    assert len(set(ids)) == len(ids)
    assert ids[3] == ("c45().tuned('nested_cv', inner_folds=3, settings=[confidence=0.25, "
                      "min_obj=2; confidence=0.25, min_obj=1; confidence=0.5, min_obj=2; "
                      "confidence=0.5, min_obj=1])")
    assert all(lrn.fast_path() for lrn in study.learners)


@pytest.mark.parametrize("old, new, match", [
    ('tuning = ["test_set", "nested_cv", "holdout", "bootstrap632"]', 'tuning = "nested"',
     r"`learners.c45_tuned.tuning\[0\]` must be one of .*did you mean 'nested_cv'"),
    ('tuning = ["test_set", "nested_cv", "holdout", "bootstrap632"]', '',
     r"`learners.c45_tuned.tuning` is required with `grid`"),
    ("n_settings = [1, 4]", "n_settings = [1, 5]", r"n_settings\[1\]` must be <= 4; got 5"),
    ('tuning = ["test_set", "nested_cv", "holdout", "bootstrap632"]', 'tuning = "test_set"',
     r"`learners.c45_tuned.inner_folds` applies only to tuning \['nested_cv'\]"),
    ("inner_folds = 3", "inner_folds = 1", r"inner_folds` must be >= 2; got 1"),
    ("n_bootstrap = 3", "confidence = 0.1", r"sets \['confidence'\] both as fixed"),
    ("grid = {confidence = [0.25, 0.5], min_obj = [2, 1]}", "grid = [1, 2]",
     r"`learners.c45_tuned.grid` must be a table of lists"),
    ("grid = {confidence = [0.25, 0.5], min_obj = [2, 1]}",
     "grid = [{min_obj = 2}, {min_obj = 2}]", r"must not repeat a setting"),
    ("grid = {confidence = [0.25, 0.5], min_obj = [2, 1]}",
     "grid = {confidence = [0.25, 0.5], min_obj = [2, 1], depth = [3]}",
     r"`learners.c45_tuned` cannot be made"),
])
def test_tuned_learner_errors(tmp_path, old, new, match):
    with pytest.raises(StudyFileError, match=match):
        _study(tmp_path, BASE.replace(old, new))


# ---------------------------------------------------------------------------
# scoring

def _data(n=60, seed=3):
    X, y = NullSource(n_instances=n).sample(rng=seed)
    outer = StratifiedRepeatedCV(5, 2).test_masks(y, rng=1)
    return X, y, outer


def _tuned_spec(tuning, params=()):
    grid = tuple(tuple(sorted(d.items())) for d in (
        {"confidence": 0.25, "min_obj": 2}, {"confidence": 0.5, "min_obj": 1},
        {"confidence": 0.05, "min_obj": 5}))
    return LearnerSpec(f"c45[{tuning}]", "c45", grid=grid, tuning=tuning,
                       tuning_params=params, group="c45")


def test_test_set_protocol_reports_the_best_setting_on_the_test_folds():
    X, y, outer = _data()
    spec = _tuned_spec("test_set")
    res = _tuned.score_with_tuning(X, y, outer, [spec], fast=True, rng=0, n_values=NV,
                                   n_classes=2)
    per = np.stack([score_splits(X, y, outer, learners=("c45",), c45_confidence=dict(s)[
        "confidence"], c45_min_obj=dict(s)["min_obj"]).correct[0] for s in spec.grid])
    best = int(np.argmax(per.reshape(3, -1).sum(axis=1)))
    assert_array_equal(res["setting"][0], best)
    assert_array_equal(res["correct"][0], per[best])
    assert res["correct"][0].sum() == per.reshape(3, -1).sum(axis=1).max()
    assert np.isnan(res["fit_time"]).all()


@pytest.mark.parametrize("tuning, params", [("nested_cv", (("inner_folds", 3),)),
                                            ("holdout", ()),
                                            ("bootstrap632", (("n_bootstrap", 3),))])
def test_fast_path_equals_fitting_every_split(tuning, params):
    X, y, outer = _data()
    kw = {"rng": np.random.SeedSequence(9), "n_values": NV, "n_classes": 2}
    spec = _tuned_spec(tuning, params)
    fast = _tuned.score_with_tuning(X, y, outer, [spec], fast=True, **kw)
    slow = _tuned.score_with_tuning(X, y, outer, [spec], fast=False, **kw)
    assert_array_equal(fast["correct"], slow["correct"])
    assert_array_equal(fast["setting"], slow["setting"])
    assert np.all(slow["fit_time"] > 0)


@pytest.mark.parametrize("tuning, params", [("test_set", ()),
                                            ("nested_cv", (("inner_folds", 3),)),
                                            ("holdout", ()),
                                            ("bootstrap632", (("n_bootstrap", 3),))])
def test_settings_sharing_a_grown_tree_equal_one_call_per_setting(tuning, params, monkeypatch):
    # four confidences for each of two min_obj: C4.5's tree grown once per min_obj and
    # split, pruned per confidence, gives the counts, sizes and choices of separate calls
    X, y, outer = _data(n=90, seed=5)
    grid = tuple((("confidence", c), ("min_obj", m)) for c in (0.25, 0.05, 0.1, 0.5)
                 for m in (2, 1))
    spec = LearnerSpec(f"c45[{tuning}]", "c45", grid=grid, tuning=tuning,
                       tuning_params=params, group="c45")
    assert [len(g) for g in _tuned._c45_groups(spec.settings(), True)] == [4, 4]
    kw = {"rng": np.random.SeedSequence(9), "n_values": NV, "n_classes": 2,
          "return_correctness": True}
    shared = _tuned.score_with_tuning(X, y, outer, [spec], fast=True, **kw)
    monkeypatch.setattr(_tuned, "_c45_groups", lambda settings, fast: [[i] for i in
                                                                       range(len(settings))])
    alone = _tuned.score_with_tuning(X, y, outer, [spec], fast=True, **kw)
    for name in ("correct", "model_size", "setting", "correctness"):
        assert_array_equal(shared[name], alone[name])
    assert len(np.unique(shared["model_size"])) > 1


def test_c45_confidences_kernel_equals_one_call_per_confidence():
    # multi-valued attributes and three classes: subtree raising and the general counts
    from calibsim.evaluate._kernels import _evaluate_c45_confidences
    rng = np.random.default_rng(5)
    n, nv = 200, np.array([2, 3, 4, 5, 3, 2, 4])
    X = np.stack([rng.integers(0, v, n) for v in nv], axis=1)
    y = (X[:, 0] + X[:, 1] + rng.integers(0, 3, n)) % 3
    masks = StratifiedRepeatedCV(10, 3).test_masks(y, rng=2).reshape(30, n)
    conf = np.array([0.25, 0.05, 0.5, 0.01])
    for min_obj in (1, 3):
        correct, n_test, size, corr = _evaluate_c45_confidences(X, y, nv, np.int64(3), masks,
                                                                conf, np.int64(min_obj), True)
        for p, cf in enumerate(conf):
            one = score_splits(X, y, masks, learners=("c45",), n_values=nv, n_classes=3,
                               c45_confidence=cf, c45_min_obj=min_obj, return_correctness=True)
            assert_array_equal(correct[p], one.correct[0])
            assert_array_equal(size[p], one.model_size[0])
            assert_array_equal(corr[p], one.correctness[0])
            assert_array_equal(n_test, one.n_test)
        assert len(np.unique(size.mean(axis=1))) == len(conf)   # the confidences prune apart


def test_inner_jobs_never_see_the_outer_test_fold():
    _, y, outer = _data()
    flat = outer.reshape(-1, y.size)
    rng = np.random.default_rng(0)
    for plan in (_tuned._nested_plan(flat, y, rng, 3), _tuned._holdout_plan(flat, y, rng, 0.3),
                 _tuned._bootstrap_plan(flat, y, rng, 4)):
        j = 0
        for rows, masks, count in plan.chunks:
            for te, ev in zip(masks, count):
                train = ~flat[plan.owner[j]]
                assert train[rows[~te]].all() and train[rows[ev]].all()
                j += 1
    nested = _tuned._nested_plan(flat, y, rng, 3)
    rows, _, count = nested.chunks[0]
    for s in range(flat.shape[0]):        # inner folds cover the outer training part once
        assert_array_equal(count[nested.owner == s].sum(axis=0), ~flat[s])


def test_bootstrap632_estimate_by_hand():
    X, y, outer = _data()
    flat = outer.reshape(-1, y.size)
    plan = _tuned._bootstrap_plan(flat, y, np.random.default_rng(4), 3)
    st = LearnerSpec("c", "c45", params=(("confidence", 0.5), ("min_obj", 1)))
    (c, t, _), = _tuned._plan_counts(plan, X, y, [st], fast=True, n_values=NV, n_classes=2)
    est = _tuned._estimates("bootstrap632", plan, c, t, flat.shape[0])
    rng = np.random.default_rng(4)                 # the plan's draws, outer split by outer split
    for s in range(flat.shape[0]):
        tr = np.flatnonzero(~flat[s])
        counts = Bootstrap632(3).counts(tr.size, rng)
        hits = oob = 0
        for b in range(3):
            drawn = np.repeat(tr, counts[b])
            out = tr[counts[b] == 0]
            model = C45(confidence=0.5, min_obj=1).fit(X[drawn], y[drawn], n_values=NV)
            hits += int(np.sum(model.predict(X[out]) == y[out]))
            oob += out.size
        model = C45(confidence=0.5, min_obj=1).fit(X[tr], y[tr], n_values=NV)
        resub = np.mean(model.predict(X[tr]) == y[tr])
        assert est[s] == pytest.approx(0.368 * resub + 0.632 * hits / oob, abs=1e-12)


def test_cells_are_bit_identical_for_any_block_and_learner_set(tmp_path):
    study = _study(tmp_path)
    src = study.sources[0]
    whole = run_cell(CellSpec(src, study.learners, study.schemes, 0, 3))["cv"]
    parts = [run_cell(CellSpec(src, study.learners, study.schemes, a, b))["cv"]
             for a, b in ((0, 1), (1, 3))]
    for name in ("correct", "setting", "n_test"):
        assert_array_equal(whole[name], np.concatenate([p[name] for p in parts]))
    # a learner alone sees the same inner splits as beside the others
    alone = run_cell(CellSpec(src, (study.learners[3],), study.schemes, 0, 3))["cv"]
    assert_array_equal(alone["correct"][:, 0], whole["correct"][:, 3])
    # p = 1 is the untuned default C4.5 whatever the protocol
    untuned = run_cell(CellSpec(src, (LearnerSpec("c45", "c45"),), study.schemes, 0, 3))["cv"]
    for i in (0, 2, 4, 6):
        assert_array_equal(whole["correct"][:, i], untuned["correct"][:, 0])
    assert_array_equal(whole["setting"][:, -1], -1)
    assert "setting" not in untuned


def test_scikit_learn_grid_runs_on_the_general_path(tmp_path):
    knn = ('estimator = "sklearn.neighbors.KNeighborsClassifier"\nalgorithm = "brute"\n'
           'grid = {n_neighbors = [1, 5, 9, 15]}')
    text = (BASE.replace('kind = "c45"\ngrid = {confidence = [0.25, 0.5], min_obj = [2, 1]}',
                         knn)
            .replace('"test_set", "nested_cv", "holdout", "bootstrap632"',
                     '"test_set", "nested_cv"')
            .replace("n_settings = [1, 4]", "n_settings = 4").replace("n_bootstrap = 3", ""))
    study = _study(tmp_path, text)
    assert [lrn.label for lrn in study.learners] == ["c45_tuned[tuning=test_set]",
                                                     "c45_tuned[tuning=nested_cv]",
                                                     "naive_bayes"]
    assert not study.learners[0].fast_path()
    assert study.learners[1].identity().startswith(
        "sklearn.neighbors.KNeighborsClassifier(algorithm='brute').tuned('nested_cv'")
    res = run_cell(CellSpec(study.sources[0], study.learners, study.schemes, 0, 1))["cv"]
    assert res["setting"][0, :2].min() >= 0 and res["setting"][0, :2].max() <= 3
    assert np.all(res["fit_time"][0, :2] > 0)


# ---------------------------------------------------------------------------
# the study and its claims

def test_claim_rules_can_fail():
    from calibsim.papers.scheffer_herbrich1997 import simulation_claims
    rng = np.random.default_rng(1)
    base = rng.normal(0.5, 0.02, 400)
    rows, per = [], {}
    for p, shift in ((1, 0.0), (2, 0.0), (4, 0.0)):
        lab = f"t{p}"
        gain = base + shift - base
        per[("s", lab, "gain")] = gain
        for m, v in (("accuracy", base + shift), ("gain", gain)):
            rows.append({"source": "s", "group": "g", "learner": lab, "protocol": "test_set",
                         "n_settings": p, "measure": m, "value": v.mean(), "mc_se": 0.001,
                         "n": 400, "alpha": np.nan, "df_rule": np.nan, "analysis": np.nan,
                         "test": np.nan, "label": np.nan})
    claims = simulation_claims(pd.DataFrame(rows), per)
    assert [c["verdict"] for c in claims] == ["differs"]
    per[("s", "t4", "gain")] = per[("s", "t4", "gain")] + 0.01
    assert [c["verdict"] for c in simulation_claims(pd.DataFrame(rows), per)] == ["agrees"]


def test_simulation_study_at_reduced_size(tmp_path):
    from calibsim.cli import main
    study = load_study(STUDY)
    assert len(study.learners) == 21 and len(study.pairs) == 20
    assert study.paper == "scheffer_herbrich1997.simulation"
    out = tmp_path / "out"
    args = ["--n-datasets", "3", "--results", str(tmp_path / "results"), "--out", str(out)]
    assert main(["run", str(STUDY), "--workers", "0", "--no-progress", *args]) == 0
    name = study.name
    for suffix in ("_results.csv", "_results.md", "_report.md", ".png"):
        assert (out / f"{name}{suffix}").is_file()
    table = pd.read_csv(out / f"{name}_results.csv")
    acc = table[(table["measure"] == "accuracy") & (table["n_settings"] == 1)]
    assert acc["value"].nunique() == 1 and len(acc) == 4      # p = 1: the same default C4.5
    gain = table[(table["measure"] == "gain") & (table["protocol"] == "test_set")]
    assert (gain.sort_values("n_settings")["value"].diff().dropna() >= 0).all()
    t1 = table[table["measure"] == "type1"]
    assert set(t1["df_rule"]) == {"calibrated", "textbook"} and t1["value"].between(0, 1).all()
    report = (out / f"{name}_report.md").read_text(encoding="utf-8")
    assert "## The claims as rules" in report and "**agrees**" in report
