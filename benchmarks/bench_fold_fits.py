"""Benchmark: naive Bayes + C4.5 fold-fit pairs per second, calibsim vs Weka 3.6 vs scikit-learn.

All three run on the same 300 x 10 binary null data sets and the same 10 x 10 stratified
folds, in one run and in interleaved rounds: every round times calibsim, then scikit-learn,
then Weka 3.6 (NaiveBayes + J48 inside one JVM that stays up for the whole run, after a JIT
warm-up round, by benchmarks/java/WekaFoldTiming.java; only when Java and weka.jar are
installed). A "fold-fit pair" is: fit naive Bayes and C4.5 on the training folds and predict
the test fold with both. The table gives each one's pairs/s as the median over the rounds
with the minimum and maximum, and calibsim's speed-up as the ratio of the medians with the
range of the per-round ratios. Beside C4.5 alone, the counts-only floor: the counts every
split needs and nothing else, inside one njit loop (what no fit can beat). Times are
wall-clock times of one thread each; other
processes on the machine slow all three alike within a round.

    python benchmarks/bench_fold_fits.py                 # 7 rounds, about a minute
    python benchmarks/bench_fold_fits.py --rounds 9
    python benchmarks/bench_fold_fits.py --source ban    # 300 x 10 BAN data instead
    python benchmarks/bench_fold_fits.py --full-study    # also time the full Figure 2 study
    python benchmarks/bench_fold_fits.py --like credit-g # also numeric data, before/after

The floor is also what root counts by subtraction could save at most: a fold's root counts
(class and (attribute value, class) counts of its training set) are exactly the floor's
counts, so the line "root counts ... of a C4.5 fit" bounds that lever.

``--like DATA`` adds the workload of ``calibrate --like DATA`` (the data's attributes, a
balanced label vector permuted per null data set, 10 x 10 cv; numeric attributes): naive
Bayes + C4.5 per split through the estimators (``C45().fit`` / ``NaiveBayes().fit``,
the route the engine took before issue 46) against all splits in one
``score_splits`` call (C4.5 on one presort of the data set), interleaved in the same
rounds, with the ratio; the models are the same (checked here split for split).

The scikit-learn loop uses BernoulliNB and DecisionTreeClassifier(criterion="entropy"):
neither is Weka's learner (no pruning, different smoothing), so this compares speed only.
The JVM runs with -XX:+UseSerialGC so that Weka, too, uses one thread. The full-study
timing runs `calibsim run studies/bouckaert2003_figure2.toml` into a fresh temporary results
folder, after a tiny warm-up study that compiles (or loads) numba's cache.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from calibsim.evaluate import score_splits
from calibsim.schemes import StratifiedRepeatedCV
from calibsim.sources import BANSource, NullSource, random_ban

ROOT = Path(__file__).resolve().parents[1]
WEKA_JAR = Path("/usr/share/java/weka.jar")


def data(n_datasets, seed=0, source="null"):
    """``n_datasets`` data sets (300 x 10 binary: null, or from one random BAN) with their
    10 x 10 stratified test masks."""
    scheme = StratifiedRepeatedCV(n_folds=10, n_runs=10)
    src = (NullSource() if source == "null" else
           BANSource(random_ban(np.random.SeedSequence(seed), n_attributes=10, n_arcs=5)))
    out = []
    for ss in np.random.SeedSequence(seed).spawn(n_datasets):
        d, f = ss.spawn(2)
        X, y = src.sample(d)
        out.append((X, y, scheme.test_masks(y, f)))
    return out


def n_pairs(sets):
    return sum(m.shape[0] * m.shape[1] for _, _, m in sets)


class Calibsim:
    """calibsim's naive Bayes + C4.5 (or C4.5 alone) through the public ``score_splits``."""

    def __init__(self, sets, learners=("naive_bayes", "c45"), round_seconds=0.5):
        self.sets, self.learners = sets, learners
        X, y, m = sets[0]
        score_splits(X, y, m, learners=learners)          # compile or load numba's cache
        t0 = time.perf_counter()
        self._run(1)
        # Repeat the data sets so that a round lasts about round_seconds.
        self.repeats = max(1, math.ceil(round_seconds / (time.perf_counter() - t0)))

    def _run(self, repeats):
        for _ in range(repeats):
            for X, y, m in self.sets:
                score_splits(X, y, m, learners=self.learners)

    def round(self):
        t0 = time.perf_counter()
        self._run(self.repeats)
        return self.repeats * n_pairs(self.sets) / (time.perf_counter() - t0)


class CountsFloor:
    """The floor of a fold-fit pair: only the counts every split needs (the training words
    from the test mask, then class and (attribute value, class) popcounts over the data set's
    bitsets), inside one njit loop over all splits of a data set; no model, no tree."""

    def __init__(self, sets, round_seconds=0.5):
        import numba

        from calibsim.learners._c45 import _c45_bits_data
        from calibsim.learners._c45.bitops import _mask_word, _popcount

        @numba.njit(nogil=True)
        def counts(amask, cmask, masks, train):
            total = 0
            for s in range(masks.shape[0]):
                for w in range(train.shape[0]):
                    word, full = _mask_word(masks[s], w)
                    train[w] = full & ~word
                for c in range(cmask.shape[0]):
                    for v in range(amask.shape[0]):
                        for w in range(train.shape[0]):
                            total += _popcount(train[w] & cmask[c, w] & amask[v, w])
            return total

        self.counts, self.inputs = counts, []
        for X, y, m in sets:
            bt = _c45_bits_data(X, y, np.full(X.shape[1], 2, np.int64), np.int64(2), 0.25,
                                np.int64(2))
            flat = np.ascontiguousarray(m.reshape(-1, len(y)))
            self.inputs.append((bt.amask, bt.cmask, flat, np.zeros(bt.amask.shape[1], np.uint64)))
        self.n = n_pairs(sets)
        counts(*self.inputs[0])                             # compile
        t0 = time.perf_counter()
        self._run(1)
        self.repeats = max(1, math.ceil(round_seconds / (time.perf_counter() - t0)))

    def _run(self, repeats):
        for _ in range(repeats):
            for args in self.inputs:
                self.counts(*args)

    def round(self):
        t0 = time.perf_counter()
        self._run(self.repeats)
        return self.repeats * self.n / (time.perf_counter() - t0)


class Sklearn:
    """scikit-learn's BernoulliNB + DecisionTreeClassifier(criterion="entropy"), one fit per split."""

    def __init__(self, sets):
        from sklearn.naive_bayes import BernoulliNB
        from sklearn.tree import DecisionTreeClassifier
        self.sets, self.nb, self.tree = sets, BernoulliNB, DecisionTreeClassifier
        self._run(sets[:1])                                # imports and first calls

    def _run(self, sets):
        for X, y, masks in sets:
            for te in masks.reshape(-1, len(y)):
                tr = ~te
                self.nb().fit(X[tr], y[tr]).predict(X[te])
                self.tree(criterion="entropy", random_state=0).fit(X[tr], y[tr]).predict(X[te])

    def round(self):
        t0 = time.perf_counter()
        self._run(self.sets)
        return n_pairs(self.sets) / (time.perf_counter() - t0)


class Weka:
    """Weka 3.6 NaiveBayes + J48 in one JVM (benchmarks/java/WekaFoldTiming.java), one round
    per request; the harness is compiled here against the installed weka.jar."""

    def __init__(self, sets, tmp):
        tmp = Path(tmp)
        subprocess.run(["javac", "-nowarn", "-cp", str(WEKA_JAR), "-d", str(tmp),
                        str(ROOT / "benchmarks" / "java" / "WekaFoldTiming.java"),
                        str(ROOT / "scripts" / "java" / "WekaIO.java")],
                       check=True, capture_output=True)
        lines = []
        for d, (X, y, masks) in enumerate(sets):
            arff = tmp / f"d{d}.arff"
            rows = [",".join(map(str, row)) + f",c{c}" for row, c in zip(X, y)]
            head = [f"@relation null{d}"] + [f"@attribute a{j} {{0,1}}" for j in range(X.shape[1])]
            arff.write_text("\n".join(head + ["@attribute class {c0,c1}", "@data"] + rows) + "\n")
            folds = tmp / f"d{d}.folds"
            folds.write_text("\n".join(" ".join(map(str, np.flatnonzero(m)))
                                       for m in masks.reshape(-1, len(y))) + "\n")
            lines.append(f"{arff} {folds}")
        (tmp / "list.txt").write_text("\n".join(lines) + "\n")
        self.proc = subprocess.Popen(
            ["java", "-XX:+UseSerialGC", "-cp", f"{WEKA_JAR}:{tmp}", "WekaFoldTiming",
             str(tmp / "list.txt")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._ask("warmup")

    def _ask(self, cmd):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().split()

    def round(self):
        pairs, seconds, _ = self._ask("time")
        return int(pairs) / float(seconds)

    def close(self):
        self._ask("quit")
        self.proc.wait()

    @staticmethod
    def available():
        return WEKA_JAR.is_file() and shutil.which("javac") and shutil.which("java")


class LikeData:
    """Naive Bayes + C4.5 on null relabellings of a data set with numeric attributes, as
    ``calibrate --like`` scores them: per split through the estimators (``one_call=False``)
    or every split of a data set in one ``score_splits`` call."""

    def __init__(self, name, n_datasets, one_call, seed=0):
        from calibsim.datasets import load_uci
        ds = load_uci(name)
        self.X = np.ascontiguousarray(np.asarray(ds.X, np.float64))
        self.nv, self.C, self.one_call = np.asarray(ds.n_values), ds.n_classes, one_call
        base = np.arange(len(ds.y)) % ds.n_classes          # a balanced label vector
        scheme = StratifiedRepeatedCV(n_folds=10, n_runs=10)
        self.sets = []
        for ss in np.random.SeedSequence(seed).spawn(n_datasets):
            d, f = ss.spawn(2)
            y = np.random.default_rng(d).permutation(base)
            self.sets.append((y, scheme.test_masks(y, f)))
        self.round()                                        # compile or load numba's cache

    def _scores(self, y, masks):
        from calibsim.learners import C45, NaiveBayes
        if self.one_call:
            return score_splits(self.X, y, masks, n_values=self.nv, n_classes=self.C).correct
        out = np.empty((2,) + masks.shape[:-1], np.int64)
        for idx in np.ndindex(masks.shape[:-1]):
            te = masks[idx]
            for k, est in enumerate((NaiveBayes(), C45())):
                est.fit(self.X[~te], y[~te], n_values=self.nv, classes=np.arange(self.C))
                out[(k,) + idx] = int(np.sum(est.predict(self.X[te]) == y[te]))
        return out

    def check(self, other):
        y, masks = self.sets[0]
        return np.array_equal(self._scores(y, masks), other._scores(y, masks))

    def round(self):
        t0 = time.perf_counter()
        for y, masks in self.sets:
            self._scores(y, masks)
        return n_pairs([(None, None, m) for _, m in self.sets]) / (time.perf_counter() - t0)


def full_study(workers):
    study = ROOT / "studies" / "bouckaert2003_figure2.toml"
    with tempfile.TemporaryDirectory() as tmp:
        warm = [sys.executable, "-m", "calibsim.cli", "run", str(study), "--n-datasets", "4",
                "--results", f"{tmp}/warm", "--out", f"{tmp}/warm_out", "--no-progress"]
        if workers is not None:
            warm += ["--workers", str(workers)]
        subprocess.run(warm, check=True, cwd=ROOT, capture_output=True)
        cmd = [sys.executable, "-m", "calibsim.cli", "run", str(study), "--results",
               f"{tmp}/res", "--out", f"{tmp}/out", "--no-progress"]
        if workers is not None:
            cmd += ["--workers", str(workers)]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=ROOT, capture_output=True)
        return time.perf_counter() - t0


def summary(rates):
    r = np.asarray(rates)
    return f"{np.median(r):10,.0f} [{r.min():9,.0f}, {r.max():9,.0f}]  {1e6 / np.median(r):8.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds (>= 5)")
    ap.add_argument("--datasets", type=int, default=20,
                    help="data sets for calibsim and Weka (x100 folds)")
    ap.add_argument("--sklearn-datasets", type=int, default=3,
                    help="data sets for the scikit-learn loop (x100 folds)")
    ap.add_argument("--full-study", action="store_true", help="also time the full Figure 2 study")
    ap.add_argument("--workers", type=int, default=None, help="Dask workers for the full study")
    ap.add_argument("--source", choices=("null", "ban"), default="null",
                    help="300 x 10 binary data: null (Figure 2's) or from one random BAN")
    ap.add_argument("--like", metavar="DATA", default=None,
                    help="also naive Bayes + C4.5 on null relabellings of this shipped data set "
                         "(numeric attributes): per-split estimators vs one call")
    ap.add_argument("--like-datasets", type=int, default=2,
                    help="null data sets for --like (x100 folds)")
    args = ap.parse_args()
    if args.rounds < 5:
        ap.error(f"`--rounds` must be >= 5; got {args.rounds}.")

    sets = data(max(args.datasets, args.sklearn_datasets), source=args.source)
    runners = {"calibsim": Calibsim(sets[:args.datasets]),
               "calibsim C4.5 alone": Calibsim(sets[:args.datasets], learners=("c45",)),
               "floor": CountsFloor(sets[:args.datasets]),
               "sklearn": Sklearn(sets[:args.sklearn_datasets])}
    if args.like:
        runners["like: estimators per split"] = LikeData(args.like, args.like_datasets, False)
        runners["like: one call"] = LikeData(args.like, args.like_datasets, True)
        if not runners["like: one call"].check(runners["like: estimators per split"]):
            raise SystemExit("--like: the one call and the estimators scored differently")
    with tempfile.TemporaryDirectory() as tmp:
        if Weka.available():
            runners["weka"] = Weka(sets[:args.datasets], tmp)
        load = os.getloadavg()[0]
        rates = {name: [] for name in runners}
        for _ in range(args.rounds):
            for name, runner in runners.items():
                rates[name].append(runner.round())
        if "weka" in runners:
            runners["weka"].close()

    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} at the start; one thread "
          f"each; 300 x 10 binary {args.source} data, 10 x 10 stratified cv; {args.rounds} "
          "interleaved rounds")
    print(f"{'':46s}{'fold-fit pairs/s: median [min, max]':>38s}  us/pair")
    rows = [("calibsim", "calibsim  NaiveBayes + C4.5 (J48)"),
            ("weka", "weka 3.6  NaiveBayes + J48, in-process JVM"),
            ("sklearn", "sklearn   BernoulliNB + DecisionTree(entropy)"),
            ("calibsim C4.5 alone", "calibsim  C4.5 (J48) alone, fold fits/s"),
            ("floor", "floor     counts only (no model), splits/s")]
    for key, label in rows:
        if key in rates:
            print(f"{label:46s}{summary(rates[key])}")
        else:
            print(f"{label:46s}  not measured (needs java, javac and {WEKA_JAR})")
    ours = np.asarray(rates["calibsim"])
    c45, floor = np.median(rates["calibsim C4.5 alone"]), np.median(rates["floor"])
    print(f"C4.5 alone runs at {c45 / floor:.1%} of the counts-only floor; the pair at "
          f"{np.median(ours) / floor:.1%}")
    print(f"root counts (the floor's counts) are {c45 / floor:.1%} of a C4.5 fit's time: what "
          "counts by subtraction could save at most")
    for key, label, target in (("weka", "Weka 3.6", 30), ("sklearn", "scikit-learn", 100)):
        if key in rates:
            theirs = np.asarray(rates[key])
            per_round = ours / theirs
            print(f"ratio calibsim / {label:13s}: {np.median(ours) / np.median(theirs):7.1f} x  "
                  f"(rounds {per_round.min():.1f}-{per_round.max():.1f}; target >= {target} x)")
    if args.like:
        before = np.asarray(rates["like: estimators per split"])
        after = np.asarray(rates["like: one call"])
        print(f"{args.like} null relabellings, naive Bayes + C4.5 fold-fit pairs/s (same models):")
        print(f"{'  estimators per split (before)':46s}{summary(before)}")
        print(f"{'  one score_splits call (after)':46s}{summary(after)}")
        print(f"  ratio after / before: {np.median(after) / np.median(before):.2f} x "
              f"(rounds {(after / before).min():.2f}-{(after / before).max():.2f})")
    if args.full_study:
        wall = full_study(args.workers)
        print(f"full Figure 2 study (1000 data sets x 100 runs x 10 folds + 100 subsamples, "
              f"calibration, outputs), warm numba cache: {wall:.1f} s wall")


if __name__ == "__main__":
    main()
