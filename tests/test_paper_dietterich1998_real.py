"""Dietterich (1998, §5): the tasks, the damaged learners, their calibration, the studies."""

import pathlib

import numpy as np
import pandas as pd
import pytest

from calibsim.learners._damaged import DamagedNN, RandomErrors, damage_at
from calibsim.papers.dietterich1998 import calibrate_damage, claims, learning_curves
from calibsim.sources import DietterichTaskSource
from calibsim.sources._dietterich_tasks import exp6_class

REPO = pathlib.Path(__file__).resolve().parents[1]


def test_tasks_draw_the_papers_data_sets():
    exp6, letter, pima = (DietterichTaskSource(t) for t in ("exp6", "letter", "pima"))
    X, y, Xc, yc = exp6.sample_with_calibration(0)
    assert X.shape == (300, 2) and Xc.shape == (151 ** 2, 2)     # grid of resolution 0.1
    assert X.min() >= 0 and X.max() <= 15 and set(np.unique(yc)) == set(range(6))
    np.testing.assert_array_equal(y, exp6_class(X))
    X, y, Xc, yc = letter.sample_with_calibration(1)
    assert X.shape == (300, 16) and Xc.shape == (10_000, 16)
    # the data sets come from the experimental half; the halves together are the 20000
    exp_X, exp_y = letter._pool[:2]
    assert len(exp_y) == 10_000
    assert np.isin(X.view([("", X.dtype)] * 16), exp_X.view([("", X.dtype)] * 16)).all()
    np.testing.assert_array_equal(np.bincount(np.concatenate([exp_y, yc])),
                                  [789, 766, 736, 805, 768, 775, 773, 734, 755, 747, 739, 761,
                                   792, 783, 753, 803, 783, 758, 748, 796, 813, 764, 752, 787,
                                   786, 734])
    X, y, Xc, yc = pima.sample_with_calibration(2)
    assert X.shape == (300, 8) and Xc.shape == (468, 8)
    both = np.vstack([np.column_stack([X, y]), np.column_stack([Xc, yc])])
    assert len(np.unique(both, axis=0)) == len(np.unique(
        np.column_stack([pima._pool[0], pima._pool[1]]), axis=0))          # a partition
    with pytest.raises(ValueError, match="`task` must be one of"):
        DietterichTaskSource("waveform")
    with pytest.raises(ValueError, match="n_instances"):
        DietterichTaskSource("pima", 768)


def test_damage_curve_interpolates_and_checks():
    assert damage_at([(150, 0.1), (270, 0.7)], 210) == pytest.approx(0.4)
    assert damage_at([(150, 0.1), (270, 0.7)], 300) == 0.7
    with pytest.raises(ValueError, match="increase strictly"):
        damage_at([(200, 0.1), (150, 0.2)], 100)
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match="`weight` must lie in"):
        DamagedNN(damaged=[0], curve=[(2, 1.5)]).fit(X, [0, 1])
    with pytest.raises(ValueError, match="`damaged` must index"):
        DamagedNN(damaged=[2]).fit(X, [0, 1])
    with pytest.raises(ValueError, match="`base` must be one of"):
        RandomErrors(base="svm").fit(X, [0, 1])


@pytest.mark.parametrize("rate,k", [(0.1, 2), (0.3, 4)])
def test_random_errors_err_at_their_rate(rate, k):
    # a base learner that is never wrong: the damaged learner's error is the rate, and
    # every error goes to another class uniformly
    X = np.repeat(np.arange(k, dtype=float), 5)[:, None]
    y = np.repeat(np.arange(k), 5)
    clf = RandomErrors(base="c45", curve=[(1, rate)], random_state=np.random.SeedSequence(7))
    clf.fit(X, y, n_values=[0], classes=np.arange(k))
    Xt = np.repeat(np.arange(k, dtype=float), 5000)[:, None]
    yt = np.repeat(np.arange(k), 5000)
    pred = clf.predict(Xt)
    n = len(yt)
    assert abs(np.mean(pred != yt) - rate) < 4 * np.sqrt(rate * (1 - rate) / n)
    wrong = (pred - yt)[pred != yt] % k                 # shifts 1..k-1 equally often
    counts = np.bincount(wrong, minlength=k)[1:]
    assert counts.min() > 0.8 * counts.mean()


def test_damaged_nn_weight_one_is_the_nearest_neighbour():
    src = DietterichTaskSource("letter")
    X, y, Xc, yc = src.sample_with_calibration(3)
    full = DamagedNN(damaged=[0, 2]).fit(X, y).predict(Xc[:500])
    d = np.sum((Xc[:500, None, :] - X[None]) ** 2, axis=-1)
    np.testing.assert_array_equal(full, y[np.argmin(d, axis=1)])
    half = DamagedNN(damaged=[0, 2], curve=[(1, 0.25)]).fit(X, y).predict(Xc[:500])
    w = np.ones(16)
    w[[0, 2]] = 0.25
    d = np.sum(w * (Xc[:500, None, :] - X[None]) ** 2, axis=-1)
    np.testing.assert_array_equal(half, y[np.argmin(d, axis=1)])


def test_damaged_nns_predicting_together_equal_one_by_one():
    from calibsim.learners._damaged import predict_together
    src = DietterichTaskSource("letter")
    X, y, Xc, yc = src.sample_with_calibration(5)
    # integer attributes: many exact ties, so any change of summation order would show
    ests = [DamagedNN(damaged=[0, 2, 4, 6, 8, 10, 12, 14], curve=[(1, w)]).fit(
        X, y, classes=np.arange(src.n_classes)) for w in (0.0, 0.09, 0.36, 1.0)]
    together = predict_together(ests, Xc[:400])
    alone = [e.predict(Xc[:400]) for e in ests]
    for a, b in zip(together, alone):
        np.testing.assert_array_equal(a, b)
    assert len({tuple(a) for a in alone}) == 4            # the weights do differ
    assert predict_together([], Xc) == []
    other = DamagedNN(damaged=[0]).fit(X[1:], y[1:])
    with pytest.raises(ValueError, match="same training instances"):
        predict_together([ests[0], other], Xc[:5])


def test_engine_scores_damaged_nns_as_one_by_one():
    from calibsim.engine.learners import LearnerSpec, score_general
    from calibsim.schemes import StratifiedRepeatedCV
    src = DietterichTaskSource("letter")
    X, y, _, _ = src.sample_with_calibration(7)
    X, y = X[:300], y[:300]
    curves = {"a": [(1, 0.1)], "b": [(150, 0.3), (270, 0.9)], "c": [(1, 1.0)]}
    specs = (LearnerSpec("c45", "c45"),) + tuple(
        LearnerSpec(k, "damaged_nn", params=(("damaged", (0, 3)), ("curve", tuple(c))))
        for k, c in curves.items())
    masks = StratifiedRepeatedCV(n_folds=2, n_runs=2).test_masks(
        y, np.random.default_rng(0)).reshape(-1, len(y))
    res = score_general(X, y, masks, specs, n_values=src.n_values,
                        n_classes=src.n_classes, return_correctness=True)
    for s, te in enumerate(masks):
        for i, c in enumerate(curves.values(), start=1):
            pred = DamagedNN(damaged=(0, 3), curve=c).fit(
                X[~te], y[~te], classes=np.arange(src.n_classes)).predict(X[te])
            assert res["correct"][i, s] == np.sum(pred == y[te])
            np.testing.assert_array_equal(res["correctness"][i, s, te], pred == y[te])
    assert (res["predict_time"][1:] > 0).all()


def _fresh_errors(task, curve, seed, n_datasets, n_train, max_cal=None):
    """Mean error of the damaged learner on new data sets (another seed) at one size."""
    from calibsim.papers.dietterich1998 import DAMAGED_ATTRIBUTES
    src = DietterichTaskSource(task)
    errs = []
    for i in range(n_datasets):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))
        X, y, Xc, yc = src.sample_with_calibration(rng)
        if max_cal:
            Xc, yc = Xc[:max_cal], yc[:max_cal]
        take = rng.choice(len(y), n_train, replace=False)
        if task == "pima":
            clf = RandomErrors(curve=curve, random_state=rng.integers(2**32))
        else:
            clf = DamagedNN(damaged=DAMAGED_ATTRIBUTES[task], curve=curve)
        clf.fit(X[take], y[take], n_values=src.n_values, classes=np.arange(src.n_classes))
        errs.append(np.mean(clf.predict(Xc) != yc))
    return np.array(errs)


@pytest.mark.parametrize("task,n_cal,max_cal", [("pima", 40, None), ("letter", 25, 2000)])
def test_calibration_hits_its_target_on_new_data_sets(task, n_cal, max_cal):
    curves = learning_curves(task, seed=11, n_datasets=n_cal, sizes=(200,),
                             max_calibration=max_cal)
    cal = calibrate_damage(curves, task, lam=0.0)
    row = cal.iloc[0]
    assert row.achieved == pytest.approx(row.target, abs=1e-9)
    curve = [(200, float(row.damage))]
    fresh = _fresh_errors(task, curve, 12, n_cal, 200, max_cal)
    # Monte Carlo error: the calibration's mean and the fresh mean, both over data sets
    sd = np.std(curves["c45" if task == "letter" else "nn"], ddof=1)
    se = np.sqrt(sd ** 2 / n_cal + np.var(fresh, ddof=1) / len(fresh))
    assert abs(fresh.mean() - row.target) < 4 * se


def test_calibration_places_lambda_between_the_curves():
    curves = pd.DataFrame({"dataset": [0, 1], "n_train": [200, 200], "c45": [0.30, 0.34],
                           "nn": [0.25, 0.27], "w=0": [0.6, 0.6], "w=0.5": [0.30, 0.30],
                           "w=1": [0.25, 0.27]})
    cal = calibrate_damage(curves, "exp6", lam=0.0)
    assert cal["target"].item() == pytest.approx(0.32)
    # between w = 0 (mean error 0.60) and w = 0.5 (0.30), linearly
    assert cal["damage"].item() == pytest.approx(0.5 * (0.60 - 0.32) / (0.60 - 0.30))
    assert calibrate_damage(curves, "exp6", lam=1.0)["damage"].item() == 1.0
    with pytest.raises(ValueError, match="no random-error rate"):   # C4.5 is the worse here
        calibrate_damage(curves, "pima", lam=0.5)
    pima = calibrate_damage(curves.assign(nn=[0.40, 0.42]), "pima", lam=0.5)
    assert pima["target"].item() == pytest.approx(0.365)    # 0.41 + 0.5 (0.32 - 0.41)
    assert pima["achieved"].item() == pytest.approx(0.365)
    with pytest.raises(ValueError, match="`lam` must lie in"):
        calibrate_damage(curves, "exp6", lam=1.5)


def test_claim_rules_can_fail():
    t1 = pd.DataFrame({"test": ["mcnemar", "kfold_cv", "cv5x2_t"],
                       "type1_error": [0.12, 0.04, 0.05], "ci_low": [0.10, 0.03, 0.04],
                       "ci_high": [0.14, 0.05, 0.06], "n": 1000})
    pw = pd.DataFrame({"test": ["mcnemar", "kfold_cv", "cv5x2_t"], "lam": 1.0,
                       "rejection_rate": [0.9, 0.8, 0.3], "n": 1000})
    v = {c["claim"].split(" (")[0]: c["verdict"] for c in claims(t1, pw)}
    assert v["10-fold cv t exceeds α"] == "differs"
    assert v["McNemar's test acceptable"] == "differs"
    assert v["5x2cv t the most powerful of the acceptable tests"] == "differs"
    assert v["McNemar about as powerful as 5x2cv t"] == "differs"


def test_power_claims_are_two_sided():
    # issue 34: "more powerful" needs a difference beyond 2 SE; a tie is "as powerful";
    # tests that all stay near α leave the claim "not tested here"
    t1 = pd.DataFrame({"test": ["mcnemar", "cv5x2_t"], "type1_error": [0.04, 0.04],
                       "ci_low": [0.03, 0.03], "ci_high": [0.05, 0.05], "n": 1000})

    def verdicts(mcnemar, cv5x2):
        pw = pd.DataFrame({"test": ["mcnemar", "cv5x2_t"] * 2, "lam": [0.5, 0.5, 1.0, 1.0],
                           "rejection_rate": [mcnemar[0], cv5x2[0], mcnemar[1], cv5x2[1]],
                           "n": 1000})
        v = {c["claim"]: c["verdict"] for c in claims(t1, pw)}
        return (v["5x2cv t the most powerful of the acceptable tests"],
                v["McNemar about as powerful as 5x2cv t"])

    assert verdicts((0.05, 0.10), (0.07, 0.16)) == ("agrees", "agrees")        # EXP6-like
    assert verdicts((0.10, 0.35), (0.09, 0.35)) == ("as powerful", "agrees")   # letter-like
    assert verdicts((0.30, 0.60), (0.10, 0.30)) == ("differs", "differs")
    assert verdicts((0.05, 0.072), (0.06, 0.086)) == ("not tested here",) * 2  # Pima-like


def test_pima_study_runs_reduced_and_reproducibly(tmp_path):
    from calibsim.engine.pipeline import run_study_file
    study = REPO / "studies" / "dietterich1998_pima.toml"
    paths = run_study_file(study, n_datasets=10, out=tmp_path / "a", results=tmp_path / "r",
                           n_workers=0)
    power = pd.read_csv(paths["power.csv"])
    assert set(power["test"]) == {"mcnemar", "proportions", "resampling", "kfold_cv",
                                  "cv5x2_t"}
    assert (power["n"] == 10).all() and sorted(power["lam"].unique())[0] == 0.0
    # λ = 1 is the undamaged C4.5: farther from the nearest neighbour than λ = 0
    d = power.groupby("lam")["difference_pp"].first()
    assert d.iloc[-1] > d.iloc[0]
    report = pathlib.Path(paths["report"]).read_text()
    verdicts = ("**agrees**", "**differs**", "**partly**", "**as powerful**",
                "**not tested here**")
    assert "Reduced run" in report and sum(report.count(v) for v in verdicts) == 7
    # the damaged learners' random errors come from the data set's own stream: a cell
    # computed again gives the same arrays
    from calibsim.engine.cells import CellSpec, run_cell
    from calibsim.engine.spec import load_study
    st = load_study(study)
    cell = CellSpec(st.sources[0], st.learners, st.schemes[:1], 3, 5)
    a, b = run_cell(cell), run_cell(cell)
    np.testing.assert_array_equal(a["holdout"]["correct"], b["holdout"]["correct"])
    assert (a["holdout"]["correct"][:, 1] != a["holdout"]["correct"][:, -1]).any()
