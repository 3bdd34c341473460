"""The frozen specs a study file becomes, and the keys each section accepts.

:mod:`calibsim.engine.spec` reads and validates a file into these; the parsing of each
section (:mod:`calibsim.engine._parse`) checks values against the tables here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

__all__ = ["Study", "SourceSpec", "SchemeSpec", "AnalysisSpec", "SOURCE_KINDS", "SCHEME_KINDS",
           "ANALYSIS_KINDS", "ANALYSIS_KEYS", "NULL_KINDS"]

# parameter -> (type, rules); "grid" marks parameters a list expands into several sources
_F, _I, _S = float, int, str
SOURCE_KINDS = {
    "null": {"n_instances": (_I, {"min_value": 2}), "n_attributes": (_I, {"min_value": 1}),
             "class_prior": (_F, {"min_value": 0, "max_value": 1, "open_low": True,
                                  "open_high": True})},
    "ban": {"network": (_S, {}), "n_instances": (_I, {"min_value": 1}),
            "class_variable": (_S, {})},
    "epsilon_point": {"epsilon": (_F, {"min_value": 0, "max_value": 1}),
                      "e1": (_F, {"min_value": 0, "max_value": 1}),
                      "e2": (_F, {"min_value": 0, "max_value": 1}),
                      "gap": (_S, {"choices": ("widest", "balanced")}),
                      "n_points": (_I, {"min_value": 6}), "n_folds": (_I, {"min_value": 2}),
                      "beta": (_F, {"min_value": 0, "max_value": 1}),
                      "beta_schemes": (list, {})},
    "dietterich_task": {"task": (_S, {"choices": ("exp6", "letter", "pima")}),
                        "n_instances": (_I, {"min_value": 2})},
    # Bates, Hastie & Tibshirani (2023)'s low-dimensional logistic example (issue 43)
    "logistic": {"n_instances": (_I, {"min_value": 2}), "n_attributes": (_I, {"min_value": 1}),
                 "strength": (_F, {})},
    # Nadeau & Bengio (2003)'s simulation study (section 6): the sample mean against least
    # squares (equally good exactly at training size n_train, or a slope b), and two
    # Gaussian populations for a regression tree against a linear rule (calibsim.sources)
    "nadeau_bengio_regression": {
        "n_instances": (_I, {"min_value": 2}), "n_train": (_I, {"min_value": 4}),
        "b": (_F, {}), "x_mean": (_F, {}),
        "x_variance": (_F, {"min_value": 0, "open_low": True}), "intercept": (_F, {}),
        "noise_variance": (_F, {"min_value": 0, "open_low": True})},
    "nadeau_bengio_classification": {
        "n_instances": (_I, {"min_value": 2}), "mean1": (_F, {}),
        "variance1": (_F, {"min_value": 0, "open_low": True}),
        "class_prior": (_F, {"min_value": 0, "max_value": 1, "open_low": True,
                             "open_high": True})},
    "dataset": {"name": (_S, {}), "path": (_S, {}), "sklearn": (_S, {}),
                "class_attribute": (_S, {}), "permute_class": (bool, {}),
                "balance_class": (bool, {}),
                "format": (_S, {"choices": ("arff", "csv")}), "class_nominal": (bool, {}),
                "positive_class": (_S, {}),
                "subsample": (_F, {"min_value": 0, "max_value": 1, "open_low": True})},
}
#: ``learners``: this source's own definition of some of the study's learners (a table
#: ``[sources.<name>.learners.<label>]`` like ``[learners.<label>]``), e.g. a damage rate
#: calibrated for this data set (``studies/null_real_vs_balanced.toml``).
_SOURCE_COMMON = {"kind", "n_datasets", "seed", "schemes", "learners"}
_NOT_GRID = {"beta_schemes"}
#: Sources whose parameters given as equal-length lists go together (zip), not crossed.
_ZIPPED = {"epsilon_point"}

SCHEME_KINDS = {
    "repeated_kfold": {"n_folds": (_I, {"min_value": 2}), "n_runs": (_I, {"min_value": 1}),
                       "stratified": (bool, {})},     # default true (Weka's cv)
    "subsampling": {"n_runs": (_I, {"min_value": 1}),
                    "test_fraction": (_F, {"min_value": 0, "max_value": 1, "open_low": True,
                                           "open_high": True}),
                    "stratified": (bool, {})},
    "holdout": {"n_runs": (_I, {"min_value": 1}),
                "train_fraction": (_F, {"min_value": 0, "max_value": 1, "open_low": True,
                                        "open_high": True})},
    # R repetitions of nested stratified K-fold cv (Bates et al. 2023; calibsim.schemes.
    # NestedCV): K outer and K(K-1)/2 inner splits each, for the ncv test (issue 43)
    "nested": {"n_folds": (_I, {"min_value": 3}), "n_runs": (_I, {"min_value": 1})},
    "cv5x2": {"repeats": (_I, {"min_value": 1}), "stratified": (bool, {}),   # default true
              # a share of each data set set aside (stratified) before the folds are drawn,
              # never trained or tested on: Ulaş et al. (2012) §4.1's test third (issue 34)
              "hold_out": (_F, {"min_value": 0, "max_value": 1, "open_high": True})},
    "test_set": {"n_test": (_I, {"min_value": 1})},
    # Cai et al. (2023): B bootstrap samples x C splits at their adjusted training size,
    # and C splits of the data as they are (calibsim.schemes.BootstrapCV), for the
    # bootstrap_cv test (issue 43); `repeats` independent draws of the design, one after
    # the other (for replicability; default 1, the first is the draw without it)
    "bootstrap_cv": {"n_bootstrap": (_I, {"min_value": 2}), "n_splits": (_I, {"min_value": 2}),
                     "repeats": (_I, {"min_value": 1}),
                     "train_fraction": (_F, {"min_value": 0, "max_value": 1, "open_low": True,
                                             "open_high": True})},
}
_SCHEME_COMMON = {"kind", "correctness"}
_SCHEME_DEFAULTS = {"repeated_kfold": {"n_folds": 10, "n_runs": 10},
                    "subsampling": {"n_runs": 10, "test_fraction": 0.1},
                    "holdout": {"n_runs": 1}, "cv5x2": {"repeats": 1},
                    "test_set": {"n_test": 10_000}, "nested": {"n_folds": 10, "n_runs": 50},
                    "bootstrap_cv": {"n_bootstrap": 50, "n_splits": 10}}

ANALYSIS_KINDS = ("calibrate", "rejection_rate", "replicability", "accuracy", "calibrate_rho",
                  "bayes_datasets", "coverage", "plan")
ANALYSIS_KEYS = {"kind", "name", "tests", "schemes", "sources", "pairs", "runs", "repeats",
                 "alphas", "df", "calibration", "df_min", "df_max", "continuous", "null",
                 "fresh_check", "datasets", "ropes", "rhos", "thresholds",
                 "target", "learner", "truth", "truth_fits", "truth_test", "designs",
                 "differences", "n_instances"}
#: How an analysis treats the per-fold differences of its null data (``null`` key):
#: "as_is" (as the learners produce them, Bouckaert's calibration) or "centred" (minus
#: the pair's mean difference over all the source's data sets, so the learners are
#: equally good on average by construction; see :mod:`calibsim.engine.analyses`).
NULL_KINDS = ("as_is", "centred")
#: The tests of a ``bayes_datasets`` analysis (over groups of data sets, not one data set).
DATASETS_TESTS = ("hierarchical", "signed_rank")
_STUDY_KEYS = {"name", "title", "seed", "paper", "block_size", "costs", "description"}
_TOP = {"study", "sources", "learners", "schemes", "analysis", "outputs"}


@dataclass(frozen=True)
class SourceSpec:
    """One data source after grid expansion.

    Attributes
    ----------
    label : str
        Unique name: the ``[sources.<group>]`` name, followed by ``[key=value]`` for
        the grid values it was expanded with.
    group : str
        The ``[sources.<group>]`` name.
    kind : str
        One of :data:`SOURCE_KINDS`.
    params : tuple of (str, object)
        Sorted parameters (paths absolute).
    n_datasets : int
        Data sets N drawn from it (for ``dataset`` sources: independent repeats of
        every scheme on the same data).
    seed : int
        Root entropy; data set i draws from ``SeedSequence(seed, spawn_key=(key, i))``.
    schemes : tuple of str
        Names of the schemes run on it.
    grid : tuple of (str, object)
        The grid values of this source (empty when nothing was expanded).
    learners : tuple of calibsim.engine.learners.LearnerSpec
        This source's own definitions of some of the study's learners, by label (the
        ``[sources.<name>.learners.<label>]`` tables): on this source they replace the
        ``[learners]`` definitions of the same label (:meth:`Study.learners_of`).
    """

    label: str
    group: str
    kind: str
    params: tuple
    n_datasets: int
    seed: int
    schemes: tuple
    grid: tuple = ()
    learners: tuple = ()

    def build(self):
        """The source object (``NullSource``, ``BANSource``, ``EpsilonPointSource``,
        ``DietterichTaskSource``, ``LogisticSource``, ``DatasetSource``)."""
        return _build_source(self.kind, self.params)

    @property
    def simulated_scores(self) -> bool:
        """True for sources that simulate two learners' scores directly (ε-point)."""
        return self.kind == "epsilon_point"


_SOURCE_CACHE: dict = {}


def _build_source(kind, params):
    key = (kind, params)
    if key not in _SOURCE_CACHE:                 # a BIF file takes ~0.7 s to parse
        from .. import sources
        p = dict(params)
        if kind == "null":
            src = sources.NullSource(**p)
        elif kind == "ban":
            src = sources.BANSource(p.pop("network"), **p)
        elif kind == "epsilon_point":
            src = sources.EpsilonPointSource(**p)
        elif kind == "dietterich_task":
            src = sources.DietterichTaskSource(**p)
        elif kind == "logistic":
            src = sources.LogisticSource(**p)
        elif kind == "nadeau_bengio_regression":
            src = sources.NadeauBengioRegressionSource(**p)
        elif kind == "nadeau_bengio_classification":
            src = sources.NadeauBengioClassificationSource(**p)
        else:
            src = sources.DatasetSource(**p)
        _SOURCE_CACHE[key] = src
    return _SOURCE_CACHE[key]


@dataclass(frozen=True)
class SchemeSpec:
    """A resampling scheme: its kind, parameters and whether per-instance correctness is kept.

    ``split_shape`` is the shape of one data set's score arrays: (n_runs, n_folds)
    for ``repeated_kfold``, (n_runs,) for ``subsampling`` and ``holdout``,
    (repeats, 5, 2) for ``cv5x2``, (1,) for ``test_set``, (n_runs, K(K+1)/2) for
    ``nested`` (K outer splits, then one per pair of folds) and (1 + n_bootstrap,
    n_splits) for ``bootstrap_cv`` (row 0 the data as they are, then one row per
    bootstrap sample; with ``repeats`` R, R such blocks one after the other:
    (R (1 + n_bootstrap), n_splits)).
    """

    name: str
    kind: str
    params: tuple
    correctness: bool = False

    @property
    def p(self) -> dict:
        return dict(self.params)

    @property
    def split_shape(self) -> tuple:
        p = self.p
        return {"repeated_kfold": lambda: (p["n_runs"], p["n_folds"]),
                "subsampling": lambda: (p["n_runs"],), "holdout": lambda: (p["n_runs"],),
                "cv5x2": lambda: (p["repeats"], 5, 2), "test_set": lambda: (1,),
                "nested": lambda: (p["n_runs"], p["n_folds"] * (p["n_folds"] + 1) // 2),
                "bootstrap_cv": lambda: (p.get("repeats", 1) * (1 + p["n_bootstrap"]),
                                         p["n_splits"]),
                }[self.kind]()

    @property
    def identity(self) -> str:
        return f"{self.kind}({', '.join(f'{k}={v!r}' for k, v in self.params)})" + (
            "+correctness" if self.correctness else "")

    def splitter(self):
        """The :mod:`calibsim.schemes` object that draws this scheme's test masks."""
        from .. import schemes
        p = self.p
        if self.kind == "repeated_kfold":
            kind = (schemes.StratifiedRepeatedCV if p.get("stratified", True)
                    else schemes.RepeatedCV)
            return kind(n_folds=p["n_folds"], n_runs=p["n_runs"])
        if self.kind == "subsampling":
            return schemes.RandomSubsampling(n_runs=p["n_runs"], test_fraction=p["test_fraction"],
                                             stratified=p.get("stratified", False))
        if self.kind == "holdout":
            kw = {"train_fraction": p["train_fraction"]} if "train_fraction" in p else {}
            return schemes.Holdout(n_runs=p["n_runs"], **kw)
        if self.kind == "cv5x2":
            kind = (schemes.StratifiedRepeatedCV if p.get("stratified", True)
                    else schemes.RepeatedCV)
            return kind(n_folds=2, n_runs=5 * p["repeats"])
        if self.kind == "nested":
            return schemes.NestedCV(n_folds=p["n_folds"], n_runs=p["n_runs"])
        if self.kind == "bootstrap_cv":
            kw = {"train_fraction": p["train_fraction"]} if "train_fraction" in p else {}
            return schemes.BootstrapCV(n_bootstrap=p["n_bootstrap"], n_splits=p["n_splits"],
                                       **kw)
        return None

    @property
    def keeps_masks(self) -> bool:
        """Whether the cells also keep the test masks (``test_mask``, bit-packed): with
        ``correctness`` on the cv kinds, whose tests on per-instance outcomes need to tell
        a wrong test instance from a training one (issue 43). The holdout scheme keeps
        none, as before."""
        return self.correctness and self.kind in ("repeated_kfold", "nested")


@dataclass(frozen=True)
class AnalysisSpec:
    """One ``[[analysis]]`` entry; see :data:`ANALYSIS_KEYS` and :mod:`calibsim.engine.analyses`."""

    kind: str
    name: str
    tests: tuple = ()
    schemes: tuple = ()          # (test, scheme name) resolved at load
    sources: tuple = ()          # source labels
    pairs: tuple = ()
    runs: tuple = ()             # () = the scheme's full size
    repeats: int = 1
    alphas: tuple = (0.05,)
    df: object = "textbook"      # "textbook" | "calibrated" | number
    calibration: Path | None = None
    df_min: int = 2
    df_max: int = 100
    continuous: bool = False
    null: str = "as_is"          # one of NULL_KINDS
    fresh_check: bool = False    # calibrate: df of one half checked on the other
    datasets: tuple = ()          # bayes_datasets: data sets per comparison, q
    ropes: tuple = ()             # calibrate_rho, bayes_datasets: ROPE half-widths (accuracy
                                  # units; default: by test name, or 0 for bayes_datasets)
    rhos: tuple = ("1/k",)        # bayes_datasets: the hierarchical test's rho ("1/k",
                                  # "calibrated": the shipped rho table's, or a number)
    thresholds: tuple = (0.95,)   # bayes_datasets: posterior probability for a decision
    target: str = "difference"    # coverage: "difference" (of the pair) or "error" (of
                                  # `learner`, held as the pair (learner, ""))
    truth: tuple | str = ()       # coverage: ((source label or group, value), ...), or
                                  # "drawn": computed by calibsim.engine._truth
    truth_fits: int = 2000        # coverage, drawn truth: training sets per source and m
                                  # (a reduced run: at most 10 per data set, >= 20)
    truth_test: int = 20_000      # coverage, drawn truth: fresh test instances a fit
                                  # (where the attribute space is not enumerated)
    designs: tuple = ()           # plan: calibsim.plan's designs ("10x10", "holdout", ...)
    differences: tuple = ()       # plan: Δ > 0 in accuracy units, or ("own",): each
                                  # design's own difference of the undamaged learners
    n_instances: int | None = None   # plan: a random subsample of the source's data per
                                     # repeat (None: all of it)

    def scheme_of(self, test: str) -> str:
        return dict(self.schemes)[test]

    def truth_of(self, source) -> float:
        """The coverage analysis's truth for ``source`` (a SourceSpec): the value given
        for its label, else for its group."""
        if self.truth == "drawn":
            raise ValueError(f"analysis {self.name!r}: its truth is drawn per source and "
                             "training size (calibsim.engine._truth), not given.")
        given = dict(self.truth)
        return float(given[source.label] if source.label in given else given[source.group])


@dataclass(frozen=True)
class Study:
    """A validated study file (see the module docstring).

    Attributes
    ----------
    name, title, paper : str
    path : pathlib.Path
        The study file (paths in it are relative to its folder).
    seed : int
    sources : tuple of SourceSpec
    learners : tuple of calibsim.engine.learners.LearnerSpec
        Empty when every source simulates its learners (ε-point).
    pairs : tuple of (str, str)
        Learner label pairs (a, b); x = accuracy(a) - accuracy(b).
    schemes : tuple of SchemeSpec
    analyses : tuple of AnalysisSpec
    block_size : int
        Data sets per task (results do not depend on it).
    costs : bool
        Time every learner separately (fit and predict seconds); slower on the fast path.
    results, figures : pathlib.Path
        The store's folder and the folder of tables, figures and reports.
    declared_n_datasets : tuple of int
        The file's ``n_datasets`` per source, before any ``--n-datasets`` override.
    requested_n_datasets : int or None
        The ``--n-datasets`` of this run (None: the file's sizes). A run given one is a
        quick look: its outputs go under ``<results>/reduced/`` unless ``--out`` says
        where (:func:`calibsim.engine.pipeline.output_folder`).
    declared_sources : int
        Number of sources the file declares (a quick look keeps the first
        ``--n-datasets`` real data sets of each group).
    """

    name: str
    path: Path
    seed: int
    sources: tuple
    learners: tuple
    pairs: tuple
    schemes: tuple
    analyses: tuple
    title: str = ""
    paper: str = ""
    description: str = ""
    block_size: int = 20
    costs: bool = False
    results: Path = Path("results")
    figures: Path = Path("figures")
    declared_n_datasets: tuple = ()
    requested_n_datasets: int | None = None
    declared_sources: int = 0

    def scheme(self, name: str) -> SchemeSpec:
        for s in self.schemes:
            if s.name == name:
                return s
        raise KeyError(name)

    def source(self, label: str) -> SourceSpec:
        for s in self.sources:
            if s.label == label:
                return s
        raise KeyError(label)

    def learners_of(self, source) -> tuple:
        """The learners scored on ``source`` (a :class:`SourceSpec`): the study's, each
        replaced by the source's own definition of its label where it gives one."""
        own = {lrn.label: lrn for lrn in getattr(source, "learners", ())}
        return tuple(own.get(lrn.label, lrn) for lrn in self.learners)

    def analysis(self, name: str) -> AnalysisSpec:
        for a in self.analyses:
            if a.name == name:
                return a
        raise KeyError(name)

    # What the engine hands the paper layouts through the study they are given
    # (calibsim.papers sits below calibsim.engine and never imports it): each method is
    # the engine's own function (calibsim.engine._layout_inputs, below this module and
    # the analyses, which re-export it), not a copy.
    def test_callable(self, test: str, source: str, scheme: str):
        """The registry test ``test`` as the engine calls it on the source labelled
        ``source`` under the scheme ``scheme``
        (:func:`calibsim.engine.analyses.test_callable`)."""
        from ._layout_inputs import test_callable
        return test_callable(test, self, self.source(source), scheme)

    def test_data(self, scores, source: str, scheme: str, test: str, pair, runs=None,
                  group=0):
        """The data of ``test`` in ``scores`` (this study's), as the engine hands it to the
        test (:func:`calibsim.engine.analyses.test_data`)."""
        from ._layout_inputs import test_data
        return test_data(scores, source, scheme, test, pair, runs, group)

    def datasets_sampler_text(self) -> str:
        """How a ``bayes_datasets`` analysis samples the hierarchical test's posterior, in
        one sentence for a report (:func:`calibsim.engine.analyses.datasets_sampler_text`)."""
        from ._layout_inputs import datasets_sampler_text
        return datasets_sampler_text()

    @property
    def reduced(self) -> bool:
        """True when ``--n-datasets`` asked for fewer data sets than the file declares: fewer
        per simulated source, or fewer real data sets in a group."""
        if self.requested_n_datasets is None:
            return False
        if len(self.sources) < self.declared_sources:
            return True
        return any(s.n_datasets < n for s, n in zip(self.sources, self.declared_n_datasets))

    def with_n_datasets(self, n: int) -> Study:
        """The same study reduced to ``n`` data sets: ``n`` per simulated source, and the
        first ``n`` real data sets of each group of real data sets (a source per data set,
        as a ``name = [...]`` grid declares them), each with at most ``n`` repeats;
        analyses keep the sources that remain."""
        n = int(n)
        kept, seen = [], {}
        for s in self.sources:
            p = dict(s.params)
            if s.kind == "dataset" and not p.get("permute_class"):
                seen[s.group] = seen.get(s.group, 0) + 1
                if seen[s.group] <= n:       # repeats of a real data set: at most n too
                    kept.append(replace(s, n_datasets=min(s.n_datasets, n)))
            else:
                kept.append(replace(s, n_datasets=n))
        labels = {s.label for s in kept}
        # a drawn truth (coverage) is drawn from at most 10 training sets a data set kept
        analyses = tuple(replace(a, sources=tuple(x for x in a.sources if x in labels),
                                 truth_fits=min(a.truth_fits, max(20, 10 * n)))
                         for a in self.analyses)
        return replace(self, sources=tuple(kept), analyses=analyses, requested_n_datasets=n,
                       declared_n_datasets=tuple(s_n for s, s_n in zip(
                           self.sources, self.declared_n_datasets) if s.label in labels),
                       declared_sources=self.declared_sources or len(self.sources))
