"""Parsing the sections of a study file into specs (used by :func:`calibsim.engine.spec.load_study`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ._schema import StudyFileError, closest, expand_grid
from ._specs import (_NOT_GRID, _SCHEME_COMMON, _SCHEME_DEFAULTS, _SOURCE_COMMON, _ZIPPED,
                   ANALYSIS_KEYS, ANALYSIS_KINDS, NULL_KINDS, SCHEME_KINDS, SOURCE_KINDS,
                   AnalysisSpec,
                   SchemeSpec, SourceSpec, Study)


def _schemes(c, table) -> tuple:
    if not table:
        c.fail("schemes", "must declare at least one scheme ([schemes.<name>] with `kind`)", table)
    out = []
    for name, sec in table.items():
        key = f"schemes.{name}"
        sec = c.table(key, sec)
        if "kind" not in sec:
            c.fail(f"{key}.kind", "is required but missing", show_value=False)
        kind = c.value(f"{key}.kind", sec["kind"], str, choices=tuple(SCHEME_KINDS))
        allowed = SCHEME_KINDS[kind]
        c.keys(key, sec, set(allowed) | _SCHEME_COMMON)
        params = dict(_SCHEME_DEFAULTS[kind])
        for k, (want, rules) in allowed.items():
            if k in sec:
                params[k] = c.value(f"{key}.{k}", sec[k], want, **rules)
        correctness = c.value(f"{key}.correctness", sec.get("correctness", False), bool)
        if correctness and kind == "bootstrap_cv":
            c.fail(f"{key}.correctness", "must be false for a bootstrap_cv scheme (its "
                   "splits fit on resampled data sets, whose rows are not the instances)",
                   correctness)
        out.append(SchemeSpec(name, kind, tuple(sorted(params.items())), correctness))
    return tuple(out)


def _sources(c, table, root: Path, seed: int, schemes) -> tuple:
    if not table:
        c.fail("sources", "must declare at least one source ([sources.<name>] with `kind`)",
               table)
    scheme_names = [s.name for s in schemes]
    out = []
    for group, sec in table.items():
        key = f"sources.{group}"
        sec = c.table(key, sec)
        if "kind" not in sec:
            c.fail(f"{key}.kind", "is required but missing", show_value=False)
        kind = c.value(f"{key}.kind", sec["kind"], str, choices=tuple(SOURCE_KINDS))
        allowed = SOURCE_KINDS[kind]
        c.keys(key, sec, set(allowed) | _SOURCE_COMMON)
        default_n = 1 if kind == "dataset" else None
        if "n_datasets" not in sec and default_n is None:
            c.fail(f"{key}.n_datasets", "is required but missing", show_value=False)
        n = c.value(f"{key}.n_datasets", sec.get("n_datasets", default_n), int, min_value=1)
        src_seed = c.value(f"{key}.seed", sec.get("seed", seed), int, min_value=0)
        runs_on = tuple(c.values(f"{key}.schemes", sec.get("schemes", scheme_names), str,
                                 choices=tuple(scheme_names), nonempty=bool(scheme_names)))
        params = {}
        for k, (want, rules) in allowed.items():
            if k not in sec:
                continue
            v = sec[k]
            if k in _NOT_GRID:
                params[k] = tuple(c.values(f"{key}.{k}", v, str, allow_scalar=False))
            elif isinstance(v, list):
                params[k] = c.values(f"{key}.{k}", v, want, **rules)
            else:
                params[k] = c.value(f"{key}.{k}", v, want, **rules)
        if kind == "dataset" and sum(k in params for k in ("name", "path", "sklearn")) != 1:
            c.fail(key, "must give exactly one of `name` (a shipped UCI data set), `path` (an "
                   "ARFF file) or `sklearn` (a loader of sklearn.datasets)",
                   sorted(k for k in ("name", "path", "sklearn") if k in params))
        if kind == "ban" and "network" not in params:
            c.fail(f"{key}.network", "is required but missing", show_value=False)
        for k in ("network", "path"):             # paths relative to the study file
            if k in params:
                vals = params[k] if isinstance(params[k], list) else [params[k]]
                res = []
                for v in vals:
                    p = (root / v).resolve()
                    if not p.is_file():
                        raise FileNotFoundError(f"study file {c.path}: `{key}.{k}` names "
                                                f"{v!r}, which does not exist at {p}.")
                    res.append(str(p))
                params[k] = res if isinstance(params[k], list) else res[0]
        try:
            expanded = expand_grid(params, set(params) - _NOT_GRID, zip_keys=kind in _ZIPPED)
        except ValueError as exc:
            c.fail(key, str(exc), show_value=False)
        own = _source_learners(c, key, sec["learners"]) if "learners" in sec else ()
        for p, grid in expanded:
            label = group if not grid else group + "[" + ", ".join(
                f"{k}={Path(v).stem if k in ('network', 'path') else v}"
                for k, v in grid.items()) + "]"
            spec = SourceSpec(label, group, kind, tuple(sorted(p.items())), n, src_seed,
                              runs_on, tuple(grid.items()), own)
            try:
                built = spec.build()
            except (TypeError, ValueError) as exc:
                c.fail(key, f"does not describe a valid {kind} source: {exc}", show_value=False)
            if kind == "dataset":
                import numpy as np
                seen = np.unique(np.asarray(built.dataset.y)).size
                if seen < 2:
                    c.fail(key, f"holds instances of {seen} class only; comparing learners "
                           "needs at least two classes (check `class_attribute`)",
                           show_value=False)
            out.append(spec)
    labels = [s.label for s in out]
    if len(set(labels)) != len(labels):
        c.fail("sources", "expand to duplicate labels", labels)
    return tuple(out)


def _analyses(c, entries, root, sources, schemes, pairs) -> tuple:
    """The ``[[analysis]]`` entries as :class:`AnalysisSpec`, each checked in turn; then
    an analysis at the calibrated df must have a calibrate analysis or file to take it from."""
    if isinstance(entries, dict):
        entries = [entries]
    if not isinstance(entries, list):
        c.fail("analysis", "must be a list of tables ([[analysis]] entries)", entries)
    out, names = [], set()
    by_kind = {}
    for s in schemes:
        by_kind.setdefault(s.kind, []).append(s.name)
    for i, sec in enumerate(entries):
        out.append(_analysis(c, f"analysis[{i}]", sec, names, root, sources, schemes, pairs,
                             by_kind))
    for a in out:
        if a.kind != "plan" and a.df == "calibrated" and a.calibration is None and not any(
                b.kind == "calibrate" for b in out):
            c.fail(f"analysis.{a.name}.df", "is 'calibrated' but the study has no calibrate "
                   "analysis and the entry no `calibration` study file", a.df)
    return tuple(out)


@dataclass(frozen=True, eq=False)
class _Entry:
    """One ``[[analysis]]`` entry being parsed, and what its checks read beside it."""

    c: object               # the study file's Checker (fail, value, values, table, keys)
    key: str                # "analysis[i]", the start of every message's key
    sec: dict               # the entry's table
    kind: str               # one of ANALYSIS_KINDS
    only: list | None       # the entry's `schemes`, when given
    root: Path              # the study file's folder (paths are relative to it)
    sources: tuple          # the study's SourceSpec
    schemes: tuple          # the study's SchemeSpec
    pairs: tuple            # the study's learner pairs
    by_kind: dict           # scheme kind -> names of the study's schemes of that kind


def _analysis(c, key, sec, names, root, sources, schemes, pairs, by_kind) -> AnalysisSpec:
    """One ``[[analysis]]`` entry: its common keys (kind, a unique name, schemes), then a
    plan analysis's own keys, or the keys of the other kinds in a fixed order."""
    sec = c.table(key, sec)
    c.keys(key, sec, ANALYSIS_KEYS, required=("kind",))
    kind = c.value(f"{key}.kind", sec["kind"], str, choices=ANALYSIS_KINDS)
    name = c.value(f"{key}.name", sec.get("name", kind), str)
    if name in names:
        c.fail(f"{key}.name", "must be unique among the analyses (give `name`)", name)
    names.add(name)
    kw = {"kind": kind, "name": name}
    only = c.values(f"{key}.schemes", sec["schemes"], str,
                    choices=tuple(s.name for s in schemes)) if "schemes" in sec else None
    if kind == "plan":          # calibsim.plan on the sources' data
        return AnalysisSpec(**kw, **_plan_keys(c, key, sec, sources, pairs))
    e = _Entry(c, key, sec, kind, only, root, sources, schemes, pairs, by_kind)
    kw.update(_TESTS_OF_KIND.get(kind, _registered_tests)(e))
    kw["sources"] = _analysed_sources(e)
    kw["pairs"] = _pairs(c, f"{key}.pairs", sec["pairs"], pairs) if "pairs" in sec else pairs
    _check_coverage_only_keys(e, kw)
    if kind == "coverage":
        kw.update(_coverage_keys(c, key, sec, kw, sources, pairs))
    _set_runs(e, kw)
    _set_df(e, kw)
    _set_kind_only_keys(e, kw)
    _set_null(e, kw)
    _set_df_grid_and_calibration(e, kw)
    return AnalysisSpec(**kw)


def _accuracy_schemes(e: _Entry) -> dict:
    """An accuracy analysis: no test, every scheme (or those of `schemes`) as it is."""
    use = e.only or [s.name for s in e.schemes]
    return {"schemes": tuple(("accuracy", s) for s in use)}


def _bayes_datasets_tests(e: _Entry) -> dict:
    """A bayes_datasets analysis: its tests over groups of data sets and their keys."""
    return _datasets_keys(e.c, e.key, e.sec, e.by_kind, e.only, e.schemes)


def _registered_tests(e: _Entry) -> dict:
    """``tests`` (registered tests: the Bayesian ones for calibrate_rho, those with an
    interval for coverage, per-instance tests too for rates and replicability), the
    scheme each runs on and ``alphas``."""
    from ..stats import BAYES_TESTS, INSTANCE_TESTS, TESTS
    c, key, sec, kind = e.c, e.key, e.sec, e.kind
    if "tests" not in sec:
        c.fail(f"{key}.tests", "is required but missing", show_value=False)
    # the tests on per-instance outcomes have no df: rates, not calibration
    from .analyses import interval_tests
    tests = tuple(c.values(f"{key}.tests", sec["tests"], str,
                           choices=tuple(BAYES_TESTS) if kind == "calibrate_rho"
                           else interval_tests() if kind == "coverage"
                           else tuple(TESTS) + tuple(BAYES_TESTS) + (
                               tuple(INSTANCE_TESTS) if kind in (
                                   "rejection_rate", "replicability") else ())))
    on = tuple((t, _scheme_for(c, key, t, e.by_kind, e.only)) for t in tests)
    for t, sname in on:
        if t in INSTANCE_TESTS and INSTANCE_TESTS[t].scheme != "bootstrap" and not {
                s.name: s for s in e.schemes}[sname].correctness:
            c.fail(f"schemes.{sname}.correctness", f"must be true for {t!r}, which "
                   "tests each instance's outcome (the cells then keep per-instance "
                   "correctness and test masks, bit-packed)", False)
    alphas = tuple(c.values(f"{key}.alphas", sec.get("alphas", [0.05]), float,
                            min_value=0, max_value=1, open_low=True, open_high=True))
    return {"tests": tests, "schemes": on, "alphas": alphas}


#: analysis kind -> its tests and schemes (other kinds: _registered_tests).
_TESTS_OF_KIND = {"accuracy": _accuracy_schemes, "bayes_datasets": _bayes_datasets_tests}


def _analysed_sources(e: _Entry) -> tuple:
    """The labels of the sources analysed: those (or the groups) `sources` names, or all."""
    c, key, sec, sources = e.c, e.key, e.sec, e.sources
    labels = [s.label for s in sources]
    if "sources" not in sec:
        return tuple(labels)
    want = c.values(f"{key}.sources", sec["sources"], str)
    chosen = []
    for w in want:
        hit = [s.label for s in sources if s.label == w or s.group == w]
        if not hit:
            c.fail(f"{key}.sources", f"must name declared sources or groups "
                   f"{sorted(set(labels) | {s.group for s in sources})}", w)
        chosen += hit
    return tuple(dict.fromkeys(chosen))


def _check_coverage_only_keys(e: _Entry, kw: dict) -> None:
    """The keys only a coverage analysis takes, and the two a coverage analysis refuses:
    `null`, and a `df` other than textbook for a test that takes no df."""
    c, key, sec, kind = e.c, e.key, e.sec, e.kind
    for k in ("target", "learner", "truth", "truth_fits", "truth_test"):
        if k in sec and kind != "coverage":
            c.fail(f"{key}.{k}", "applies only to a coverage analysis", sec[k])
    if "null" in sec and kind == "coverage":
        c.fail(f"{key}.null", "does not apply to a coverage analysis (it reads the "
               "tests' own intervals of the scores as they are)", sec["null"])
    if kind == "coverage" and sec.get("df", "textbook") != "textbook":
        from ..stats import takes_df
        no_df = [t for t in kw["tests"] if not takes_df(t)]
        if no_df:
            c.fail(f"{key}.df", f"is {sec['df']!r}, but {no_df} take(s) no df (a normal "
                   "or other reference without df); list them in another coverage "
                   "analysis", sec["df"])


def _set_runs(e: _Entry, kw: dict) -> None:
    """Add `runs` and `repeats` to ``kw``, checked against the schemes the tests run on
    (and, for rhos = "calibrated", against the shipped rho table)."""
    c, key, sec, kind, schemes = e.c, e.key, e.sec, e.kind, e.schemes
    if "runs" in sec:
        kw["runs"] = tuple(c.values(f"{key}.runs", sec["runs"], int, min_value=1))
    kw["repeats"] = c.value(f"{key}.repeats", sec.get("repeats", 1), int, min_value=1)
    if kind == "replicability" and kw["repeats"] < 2 and not any(
            {x.name: x for x in schemes}[s].kind == "cv5x2" for _, s in kw["schemes"]):
        c.fail(f"{key}.repeats", "must be >= 2 for a replicability analysis", kw["repeats"])
    _check_runs(c, key, kw, schemes)
    if kind == "bayes_datasets" and "calibrated" in kw["rhos"]:
        _check_table_rho(c, key, kw, schemes)


def _set_df(e: _Entry, kw: dict) -> None:
    """Add `df` to ``kw``: 'textbook' (default), 'calibrated' or a number; a calibrate or
    calibrate_rho analysis takes none (it finds the df, or does not use one)."""
    c, key, sec, kind = e.c, e.key, e.sec, e.kind
    df = sec.get("df", "textbook" if kind != "calibrate" else None)
    if kind == "calibrate_rho":
        df = None
    if kind not in ("calibrate", "calibrate_rho"):
        if isinstance(df, str):
            c.value(f"{key}.df", df, str, choices=("textbook", "calibrated"))
        else:
            df = c.value(f"{key}.df", df, float, min_value=0, open_low=True)
        kw["df"] = df
    elif "df" in sec:
        c.fail(f"{key}.df", "is not used by a calibrate analysis (it finds the df; use "
               "`df_min` and `df_max` for the grid)", sec["df"])


def _set_kind_only_keys(e: _Entry, kw: dict) -> None:
    """Add the keys only some kinds take, refusing them elsewhere: datasets, rhos and
    thresholds (bayes_datasets), continuous and fresh_check (calibrate), ropes
    (calibrate_rho; bayes_datasets reads its own)."""
    c, key, sec, kind = e.c, e.key, e.sec, e.kind
    for k in ("datasets", "rhos", "thresholds"):
        if k in sec and kind != "bayes_datasets":
            c.fail(f"{key}.{k}", "applies only to a bayes_datasets analysis", sec[k])
    if "continuous" in sec:
        if kind != "calibrate":
            c.fail(f"{key}.continuous", "applies only to a calibrate analysis",
                   sec["continuous"])
        kw["continuous"] = c.value(f"{key}.continuous", sec["continuous"], bool)
    if "ropes" in sec and kind not in ("calibrate_rho", "bayes_datasets"):
        c.fail(f"{key}.ropes", "applies only to a calibrate_rho or bayes_datasets "
               "analysis", sec["ropes"])
    if "ropes" in sec and kind == "calibrate_rho":
        kw["ropes"] = tuple(c.values(f"{key}.ropes", sec["ropes"], float, min_value=0,
                                     max_value=1, open_high=True))
    if "fresh_check" in sec:
        if kind != "calibrate":
            c.fail(f"{key}.fresh_check", "applies only to a calibrate analysis",
                   sec["fresh_check"])
        kw["fresh_check"] = c.value(f"{key}.fresh_check", sec["fresh_check"], bool)


def _set_null(e: _Entry, kw: dict) -> None:
    """Add `null` to ``kw``: the null construction, 'as_is' or 'centred' (not for an
    accuracy analysis, nor 'centred' with McNemar counts)."""
    c, key, sec, kind = e.c, e.key, e.sec, e.kind
    if "null" not in sec:
        return
    if kind == "accuracy":
        c.fail(f"{key}.null", "does not apply to an accuracy analysis (it reports "
               "the learners' accuracies as they are)", sec["null"])
    from ..stats import TESTS
    kw["null"] = c.value(f"{key}.null", sec["null"], str, choices=NULL_KINDS)
    counts = [t for t in kw["tests"] if t in TESTS and TESTS[t].scheme == "holdout"]
    if kw["null"] == "centred" and counts:
        c.fail(f"{key}.null", "'centred' shifts per-fold accuracy differences, but "
               f"{counts} test(s) take McNemar counts of one split; leave them out "
               "or use null = 'as_is'", kw["null"])


def _set_df_grid_and_calibration(e: _Entry, kw: dict) -> None:
    """Add `df_min`, `df_max` (the calibration grid) and `calibration` (a study file to
    take calibrated df from, relative to the study file) to ``kw``."""
    c, key, sec = e.c, e.key, e.sec
    kw["df_min"] = c.value(f"{key}.df_min", sec.get("df_min", 2), int, min_value=1)
    kw["df_max"] = c.value(f"{key}.df_max", sec.get("df_max", 100), int,
                           min_value=kw["df_min"])
    if "calibration" in sec:
        cal = (e.root / c.value(f"{key}.calibration", sec["calibration"], str)).resolve()
        if not cal.is_file():
            raise FileNotFoundError(f"study file {c.path}: `{key}.calibration` names "
                                    f"{sec['calibration']!r}, which does not exist at {cal}.")
        kw["calibration"] = cal


_BUILTIN = ("naive_bayes", "c45", "ib1", "tan", "voted_perceptron",
            "damaged_nn", "random_errors")   # the last two: learners.DAMAGED_LEARNERS


def _frozen(v):
    """TOML arrays as tuples, so a learner's parameters stay hashable literals."""
    return tuple(_frozen(e) for e in v) if isinstance(v, list) else v


def _source_learners(c, key, table) -> tuple:
    """A source's own learner definitions (``[<key>.learners.<label>]``, each a table as
    ``[learners.<label>]`` takes, untuned); :func:`check_source_learners` later checks
    their labels against ``learners.names``."""
    from .learners import LearnerSpec
    table = c.table(f"{key}.learners", table)
    out = []
    for label, sec in table.items():
        lk = f"{key}.learners.{label}"
        sec = c.table(lk, sec)
        if ("kind" in sec) == ("estimator" in sec):
            c.fail(lk, "must give exactly one of `kind` (a built-in learner: "
                   f"{list(_BUILTIN)}) or `estimator` (an import path)", sorted(sec))
        if "grid" in sec:
            c.fail(f"{lk}.grid", "is not taken in a source's own learner (tune it in "
                   "[learners])", sec["grid"])
        params = tuple(sorted((k, _frozen(v)) for k, v in sec.items()
                              if k not in ("kind", "estimator", "pipeline")))
        steps = tuple(c.values(f"{lk}.pipeline", sec["pipeline"], str, allow_scalar=False)
                      ) if "pipeline" in sec else ()
        if "kind" in sec:
            spec = LearnerSpec(label, c.value(f"{lk}.kind", sec["kind"], str,
                                              choices=_BUILTIN), None, params, steps)
        else:
            spec = LearnerSpec(label, "estimator", c.value(f"{lk}.estimator", sec["estimator"],
                                                           str), params, steps)
        from ._safe_spec import check_estimator, check_params
        try:
            check_params(dict(spec.params), spec.identity())
            check_estimator(spec.make(), spec.identity(), classifier=spec.kind == "estimator")
        except (TypeError, ValueError, ImportError) as exc:
            c.fail(lk, f"cannot be made: {exc}", show_value=False)
        out.append(spec)
    return tuple(out)


def check_source_learners(c, sources, learners) -> None:
    """Every source's own learner is one of the study's (``learners.names``), untuned."""
    known = {lrn.label: lrn for lrn in learners}
    for src in sources:
        for lrn in src.learners:
            if lrn.label not in known:
                c.fail(f"sources.{src.group}.learners.{lrn.label}", "must name a learner of "
                       f"`learners.names` {sorted(known)}{closest(lrn.label, list(known))}",
                       lrn.label)
            if known[lrn.label].tuning:
                c.fail(f"sources.{src.group}.learners.{lrn.label}", "cannot replace a tuned "
                       "learner", lrn.label)


def _learners(c, table):
    """``names`` (built-ins or labels of ``[learners.<label>]`` tables) and ``pairs``."""
    from .learners import LearnerSpec
    subs = {k: v for k, v in table.items() if isinstance(v, dict)}
    c.keys("learners", {k: v for k, v in table.items() if k not in subs}, {"names", "pairs"},
           required=("names",))
    names = c.values("learners.names", table["names"], str, allow_scalar=False)
    if len(set(names)) != len(names):
        c.fail("learners.names", "must not repeat a learner", names)
    if len(names) < 2:
        c.fail("learners.names", "must name at least two learners (a study compares them)",
               names)
    specs, groups = [], {}
    for label in names:
        if label in subs:
            sec = subs[label]
            key = f"learners.{label}"
            if ("kind" in sec) == ("estimator" in sec):
                c.fail(key, "must give exactly one of `kind` (a built-in learner: "
                       f"{list(_BUILTIN)}) or `estimator` (an import path such as "
                       "'sklearn.linear_model.LogisticRegression')", sorted(sec))
            params = {k: v for k, v in sec.items() if k not in ("kind", "estimator", "pipeline")}
            steps = tuple(c.values(f"{key}.pipeline", sec["pipeline"], str, allow_scalar=False)
                          ) if "pipeline" in sec else ()
            if "grid" in sec:                     # a tuned learner (engine/_tuned_spec.py)
                from ._tuned_spec import expand_tuned
                kind = (c.value(f"{key}.kind", sec["kind"], str, choices=_BUILTIN)
                        if "kind" in sec else "estimator")
                est = None if "kind" in sec else c.value(f"{key}.estimator", sec["estimator"],
                                                         str)
                tuned = expand_tuned(c, key, label, params, lambda name, fixed, k=kind, e=est,
                                     p=steps, **tf: LearnerSpec(name, k, e, fixed, p, **tf))
                specs += tuned
                groups[label] = [t.label for t in tuned]
            elif "kind" in sec:
                kind = c.value(f"{key}.kind", sec["kind"], str, choices=_BUILTIN)
                specs.append(LearnerSpec(label, kind, None, tuple(sorted(
                    (k, _frozen(v)) for k, v in params.items())), steps))
            else:
                est = c.value(f"{key}.estimator", sec["estimator"], str)
                specs.append(LearnerSpec(label, "estimator", est, tuple(sorted(params.items())),
                                         steps))
        elif label in _BUILTIN:
            specs.append(LearnerSpec(label, label, None, ()))
        else:
            c.fail("learners.names", f"holds {label!r}, neither a built-in learner "
                   f"{list(_BUILTIN)} nor a [learners.{label}] table"
                   f"{closest(label, list(_BUILTIN) + list(subs))}", names)
    for label in subs:
        if label not in names:
            c.fail(f"learners.{label}", "is declared but not listed in `learners.names`",
                   names)
    from ._safe_spec import check_estimator, check_params
    for spec in specs:
        if spec.is_builtin and not spec.params and not spec.pipeline and not spec.tuning:
            continue    # calibsim's own class with its defaults: nothing to check, and
            # making it would import scikit-learn for a run that never needs it (issue 46)
        try:
            for one in spec.settings():             # (spec,) unless tuned
                check_params(dict(one.params), one.identity())   # before anything is built
                check_estimator(one.make(), one.identity(),
                                classifier=one.kind == "estimator")
        except (TypeError, ValueError, ImportError) as exc:  # a bad parameter or import path
            c.fail(f"learners.{spec.group or spec.label}", f"cannot be made: {exc}",
                   show_value=False)
    names = [s.label for s in specs]
    if len(specs) < 2 and "pairs" not in table:
        pairs = ()
    elif "pairs" in table:
        from ._tuned_spec import expand_pairs
        pairs = _pairs(c, "learners.pairs", expand_pairs(table["pairs"], groups),
                       [(n, n) for n in names])
    else:
        pairs = tuple((a, b) for i, a in enumerate(names) for b in names[i + 1:])
    for a, b in pairs:
        if a == b:
            c.fail("learners.pairs", "must pair two different learners", [a, b])
    return tuple(specs), pairs


# registry scheme kind -> scheme kinds of a study that can feed it
_FEEDS = {"cv": ("repeated_kfold",), "kfold": ("repeated_kfold",),
          "subsampling": ("subsampling", "holdout"), "cv5x2": ("cv5x2",),
          "holdout": ("holdout",), "instances": ("repeated_kfold",), "nested": ("nested",),
          "bootstrap": ("bootstrap_cv",)}


def _datasets_keys(c, key, sec, by_kind, only, schemes) -> dict:
    """The keys of a ``bayes_datasets`` analysis: tests over groups of q data sets."""
    from ._specs import DATASETS_TESTS
    tests = tuple(c.values(f"{key}.tests", sec.get("tests", list(DATASETS_TESTS)), str,
                           choices=DATASETS_TESTS))
    sname = _scheme_for(c, key, "bayes_correlated_t", by_kind, only)   # r x k cv
    if {s.name: s for s in schemes}[sname].kind != "repeated_kfold":
        c.fail(f"{key}.schemes", "must name a repeated_kfold scheme (the hierarchical test "
               "takes r x k cv differences)", sname)
    if "datasets" not in sec:
        c.fail(f"{key}.datasets", "is required: the numbers q of data sets per comparison",
               show_value=False)
    rhos = sec.get("rhos", ["1/k"])
    rhos = rhos if isinstance(rhos, list) else [rhos]
    for i, r in enumerate(rhos):
        if r not in ("1/k", "calibrated"):
            if isinstance(r, str):
                c.fail(f"{key}.rhos[{i}]", "must be '1/k', 'calibrated' (the shipped rho "
                       "table's, calibsim.lookup_rho, at the analysis's first threshold and "
                       "ROPE) or a number in [0, 1)", r)
            c.value(f"{key}.rhos[{i}]", r, float, min_value=0, max_value=1, open_high=True)
    if not rhos or rhos[0] != "1/k":
        c.fail(f"{key}.rhos", "must start with '1/k' (the default the others are compared "
               "with; replicability is measured at it)", rhos)
    return {"tests": tests, "schemes": tuple((t, sname) for t in tests),
            "datasets": tuple(c.values(f"{key}.datasets", sec["datasets"], int, min_value=2)),
            "ropes": tuple(c.values(f"{key}.ropes", sec.get("ropes", [0.0]), float,
                                    min_value=0)),
            "rhos": tuple(r if r in ("1/k", "calibrated") else float(r) for r in rhos),
            "thresholds": tuple(c.values(f"{key}.thresholds", sec.get("thresholds", [0.95]),
                                         float, min_value=0.5, max_value=1, open_low=True,
                                         open_high=True))}


def _coverage_keys(c, key, sec, kw, sources, pairs) -> dict:
    """The keys of a ``coverage`` analysis: ``target``, the learner or the one pair it is
    about, and ``truth``, a number for every source it covers (by label or group), or
    ``"drawn"`` (computed from the source, :mod:`calibsim.engine._truth`, with
    ``truth_fits`` training sets and ``truth_test`` fresh test instances a fit)."""
    from .analyses import COVERAGE_TARGETS
    target = c.value(f"{key}.target", sec.get("target", "difference"), str,
                     choices=COVERAGE_TARGETS)
    out = {"target": target}
    if target == "error":
        if "learner" not in sec:
            c.fail(f"{key}.learner", "is required for target = 'error' (whose error the "
                   "intervals are of)", show_value=False)
        if "pairs" in sec:
            c.fail(f"{key}.pairs", "does not apply to target = 'error' (name the "
                   "`learner`)", sec["pairs"])
        names = sorted({x for p in pairs for x in p})
        learner = c.value(f"{key}.learner", sec["learner"], str, choices=names)
        out["pairs"] = ((learner, ""),)
    else:
        if "learner" in sec:
            c.fail(f"{key}.learner", "applies only to target = 'error' (a difference is "
                   "of a pair: give `pairs`)", sec["learner"])
        if len(kw["pairs"]) != 1:
            c.fail(f"{key}.pairs", "must hold exactly one pair [a, b] for a coverage "
                   "analysis (its truth is that pair's accuracy difference a - b)",
                   [list(p) for p in kw["pairs"]])
    if "truth" not in sec:
        c.fail(f"{key}.truth", "is required: a table of the true value per source "
               "(label or group), e.g. truth = { lowd = 0.31 }", show_value=False)
    if isinstance(sec["truth"], str):             # drawn from the source (engine/_truth.py)
        c.value(f"{key}.truth", sec["truth"], str, choices=("drawn",))
        out["truth"] = "drawn"
        out["truth_fits"] = c.value(f"{key}.truth_fits", sec.get("truth_fits", 2000), int,
                                    min_value=2)
        out["truth_test"] = c.value(f"{key}.truth_test", sec.get("truth_test", 20_000), int,
                                    min_value=1, max_value=1_000_000)
        return out
    for k in ("truth_fits", "truth_test"):
        if k in sec:
            c.fail(f"{key}.{k}", "applies only to truth = \"drawn\"", sec[k])
    table = c.table(f"{key}.truth", sec["truth"])
    known = {s.label for s in sources} | {s.group for s in sources}
    truth = []
    for name, value in table.items():
        if name not in known:
            c.fail(f"{key}.truth.{name}", f"names no declared source or group"
                   f"{closest(name, known)}; known: {sorted(known)}", show_value=False)
        lo = -1.0 if target == "difference" else 0.0
        truth.append((name, c.value(f"{key}.truth.{name}", value, float, min_value=lo,
                                    max_value=1.0)))
    given = {n for n, _ in truth}
    for s in sources:
        if s.label in kw["sources"] and s.label not in given and s.group not in given:
            c.fail(f"{key}.truth", f"gives no value for source {s.label!r} (add its label "
                   f"or group {s.group!r}, or list the analysed `sources`)", dict(table))
    out["truth"] = tuple(truth)
    return out


def _scheme_for(c, key, test, by_kind, only):
    """The study scheme a test runs on: the first kind it prefers that the study has once."""
    from ..stats import get_test
    kinds = _FEEDS[get_test(test).scheme]
    for kind in kinds:
        cands = [n for n in by_kind.get(kind, []) if only is None or n in only]
        if len(cands) == 1:
            return cands[0]
        if len(cands) > 1:
            c.fail(f"{key}.tests", f"holds {test!r}, which could run on several schemes "
                   f"{cands}: list the one to use in `schemes`", test)
    c.fail(f"{key}.tests", f"holds {test!r}, which needs a scheme of kind "
           f"{' or '.join(kinds)}; the study has none", test)


#: The keys a ``plan`` analysis takes (besides ``kind`` and ``name``).
_PLAN_KEYS = {"sources", "pairs", "tests", "designs", "differences", "alphas", "df",
              "n_instances", "repeats"}


def _plan_keys(c, key, sec, sources, pairs) -> dict:
    """The keys of a ``plan`` analysis: :func:`calibsim.plan` on each source's data (the
    source's data set 0, or a ``dataset`` source's data as they are), ``repeats`` times
    with root seeds keyed by the analysis, the source and the repeat."""
    from ..stats import TESTS
    from ._plan_analysis import check_design
    for k in sec:
        if k not in _PLAN_KEYS | {"kind", "name"}:
            c.fail(f"{key}.{k}", f"does not apply to a plan analysis (its keys are "
                   f"{sorted(_PLAN_KEYS)})", sec[k])
    if "designs" not in sec:
        c.fail(f"{key}.designs", "is required but missing", show_value=False)
    designs = tuple(c.values(f"{key}.designs", sec["designs"], str))
    for i, d in enumerate(designs):
        try:
            check_design(d)
        except ValueError as exc:
            c.fail(f"{key}.designs[{i}]", f"must be a design of calibsim.plan ({exc})", d)
    if len(set(designs)) < len(designs):
        c.fail(f"{key}.designs", "must not name a design twice", list(designs))
    tests = (tuple(c.values(f"{key}.tests", sec["tests"], str, choices=tuple(TESTS)))
             if "tests" in sec else ())
    diffs = sec.get("differences", [])
    if diffs == "own":
        differences = ("own",)
    else:
        differences = tuple(c.values(f"{key}.differences", diffs, float, nonempty=False,
                                     min_value=0, max_value=1, open_low=True,
                                     open_high=True))
    alphas = tuple(c.values(f"{key}.alphas", sec.get("alphas", [0.05]), float, min_value=0,
                            max_value=1, open_low=True, open_high=True))
    if len(alphas) != 1:
        c.fail(f"{key}.alphas", "must hold one α for a plan analysis", list(alphas))
    df = c.value(f"{key}.df", sec.get("df", "calibrated"), str,
                 choices=("calibrated", "textbook"))
    n_inst = (c.value(f"{key}.n_instances", sec["n_instances"], int, min_value=10)
              if "n_instances" in sec else None)
    repeats = c.value(f"{key}.repeats", sec.get("repeats", 1), int, min_value=1)
    chosen = []
    for w in c.values(f"{key}.sources", sec.get("sources", [s.group for s in sources]), str):
        hit = [s for s in sources if w in (s.label, s.group)]
        if not hit:
            c.fail(f"{key}.sources", "must name declared sources or groups "
                   f"{sorted({s.label for s in sources} | {s.group for s in sources})}", w)
        chosen += hit
    for s in chosen:
        p = dict(s.params)
        if s.simulated_scores or p.get("permute_class") or p.get("subsample", 1.0) < 1.0:
            c.fail(f"{key}.sources", "must name sources with data of their own (not an "
                   "ε-point source, nor a data set with permuted labels or a subsample: "
                   "plan damages the better learner instead, and `n_instances` subsamples)",
                   s.label)
        if s.n_datasets < 2:
            c.fail(f"sources.{s.group}.n_datasets", "must be >= 2 for a plan analysis (its "
                   "repeats per design)", s.n_datasets)
        if n_inst is not None and s.kind in ("ban", "dietterich_task", "null", "logistic") \
                and n_inst > dict(s.params).get("n_instances", n_inst):
            c.fail(f"{key}.n_instances", f"must be at most source {s.label!r}'s n_instances",
                   n_inst)
    pair = _pairs(c, f"{key}.pairs", sec["pairs"], pairs) if "pairs" in sec else pairs[:1]
    if len(pair) != 1:
        c.fail(f"{key}.pairs", "must hold one pair [a, b] for a plan analysis", sec["pairs"])
    return {"sources": tuple(dict.fromkeys(s.label for s in chosen)), "pairs": pair,
            "tests": tests, "designs": designs, "differences": differences,
            "alphas": alphas, "df": df, "n_instances": n_inst, "repeats": repeats}


def _pairs(c, key, value, declared):
    if not isinstance(value, list) or not value:
        c.fail(key, "must be a non-empty list of [a, b] learner pairs", value)
    names = {x for p in declared for x in p}
    out = []
    for i, p in enumerate(value):
        if not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)):
            c.fail(f"{key}[{i}]", "must be a pair [a, b] of learner names", p)
        for x in p:
            if x not in names:
                c.fail(f"{key}[{i}]", f"names an unknown learner{closest(x, names)}; known: "
                       f"{sorted(names)}", x)
        out.append(tuple(p))
    return tuple(out)


def _check_table_rho(c, key, kw, schemes):
    """rhos = "calibrated": the shipped rho table must cover the analysis's design, first
    threshold and first ROPE (calibsim.lookup_rho), checked before any score is computed."""
    from ..calibration import lookup_rho
    s = {x.name: x for x in schemes}[kw["schemes"][0][1]]
    runs = kw.get("runs") or (s.p["n_runs"] // kw["repeats"],)
    try:
        lookup_rho(threshold=kw["thresholds"][0], rope=kw["ropes"][0],
                   n_folds=s.p["n_folds"], n_runs=runs[0])
    except ValueError as e:
        c.fail(f"{key}.rhos", f"holds 'calibrated', but {e}", list(kw["rhos"]))


def _check_runs(c, key, kw, schemes):
    by_name = {s.name: s for s in schemes}
    for test, sname in kw["schemes"]:
        s = by_name[sname]
        if s.kind == "bootstrap_cv":          # one design: the estimate's row and B samples
            if kw.get("runs"):
                c.fail(f"{key}.runs", f"does not apply to scheme {sname!r} of kind "
                       "bootstrap_cv (its rows are the estimate's splits and the bootstrap "
                       "samples; set n_bootstrap)", list(kw["runs"]))
            if kw["repeats"] > s.p.get("repeats", 1):
                c.fail(f"{key}.repeats", f"must not exceed scheme {sname!r}'s repeats = "
                       f"{s.p.get('repeats', 1)} (independent draws of the bootstrap cv "
                       "design)", kw["repeats"])
            continue
        if s.kind in ("cv5x2", "test_set"):
            if kw.get("runs") and all(by_name[n].kind in ("cv5x2", "test_set")
                                      for _, n in kw["schemes"]):
                c.fail(f"{key}.runs", f"does not apply to scheme {sname!r} of kind {s.kind} "
                       "(its size is fixed)", list(kw["runs"]))
            continue
        size = s.p["n_runs"]
        for r in kw.get("runs") or (size // kw["repeats"],):
            if r * kw["repeats"] > size:
                c.fail(f"{key}.runs", f"times `repeats` = {kw['repeats']} must not exceed "
                       f"scheme {sname!r}'s n_runs = {size}", r)
            if test != "accuracy" and r < 2 and s.kind not in ("repeated_kfold", "nested"):
                c.fail(f"{key}.runs", f"must be >= 2 for {test!r} on {sname!r}", r)


def check_memory(study, c=None) -> int:
    """Estimate the bytes the study needs at once; fail clearly above the limit.

    One estimate covers every size a study file sets, before anything is allocated:

    - the score arrays of all data sets (per learner and split: 2 bytes of counts,
      4 of model size, 2 of test size; 16 bytes of times per learner and data set;
      1 bit per instance with ``correctness``, 1 more for the test masks a
      ``repeated_kfold`` or ``nested`` scheme then keeps), three times over for the
      analyses;
    - one data set per worker (one per core): its uniform draws, attributes and
      class (8 bytes per value, three copies: source, learners, the scheme's view)
      and its splits (8 bytes per instance and split), the test set of a
      ``test_set`` scheme alike (``n_test`` rows);
    - a calibrate analysis's grid: 24 bytes per df value and data set.

    The limit is :func:`calibsim._validation.memory_limit` (``CALIBSIM_MEMORY_LIMIT``
    bytes, or half this machine's memory); the message names the parameter that
    weighs most and the value to lower it to.
    """
    import os

    import numpy as np
    from .._validation import check_memory_estimate
    parts = []
    n_learners = max(len(study.learners), 2)
    workers = os.cpu_count() or 1
    for src in study.sources:
        p, key = dict(src.params), f"sources.{src.group}"
        if src.kind == "dataset":
            built = src.build()
            n_inst, n_attr, size_key = built.n_instances, len(built.n_values), None
        elif src.kind == "ban":
            n_inst, n_attr = p.get("n_instances", 300), len(src.build().n_values)
            size_key = f"{key}.n_instances"
        elif src.kind == "null":
            n_inst, n_attr = p.get("n_instances", 300), p.get("n_attributes", 10)
            size_key = (f"{key}.n_attributes" if n_attr > n_inst else f"{key}.n_instances")
        elif src.kind == "epsilon_point":
            n_inst, n_attr, size_key = p.get("n_points", 300), 1, f"{key}.n_points"
        else:                              # any other source: its own sizes
            built = src.build()
            n_inst = int(p.get("n_instances", getattr(built, "n_instances", 300)))
            n_attr = len(getattr(built, "n_values", range(16)))
            size_key = f"{key}.n_instances" if "n_instances" in p else None
        size_value = p.get(size_key.rsplit(".", 1)[-1]) if size_key else None
        per_cell = 24.0 * n_inst * (n_attr + 1)
        for sname in src.schemes:
            s = study.scheme(sname)
            if s.kind == "test_set" and src.kind != "ban":
                _fail(c, f"schemes.{sname}", f"is a test_set scheme, which draws an independent "
                      f"test set from a Bayesian network: source {src.group!r} is of kind "
                      f"{src.kind!r}; use it on ban sources only (list the others' schemes "
                      f"in `{key}.schemes`)")
            n_folds = s.p.get("n_folds", 2 if s.kind == "cv5x2" else 1)
            if n_folds > n_inst:
                _fail(c, f"schemes.{sname}.n_folds", f"must not exceed the {n_inst} instances "
                      f"of source {src.label!r} (each fold needs at least one); got {n_folds}")
            split = int(np.prod(s.split_shape))
            sk, sv = max(((f"schemes.{sname}.{k}", v) for k, v in s.params
                          if k in ("n_runs", "n_folds", "repeats")),
                         key=lambda kv: kv[1], default=(None, 1))
            per = split * (2 * n_learners + 2 + 4 * n_learners) + 16 * n_learners
            parts.append((3.0 * src.n_datasets * per, f"{key}.n_datasets", src.n_datasets, 1)
                         if sk is None or src.n_datasets >= sv else
                         (3.0 * src.n_datasets * per, sk, sv, 1))
            if s.correctness:              # grows with the data sets and with their size
                # (the cv kinds keep the test masks too, one more "learner" of bits)
                bits = (3.0 * src.n_datasets * split * (n_learners + s.keeps_masks)
                        * n_inst / 8)
                parts.append((bits, size_key, size_value, 1) if size_key and size_value
                             and size_value > src.n_datasets else
                             (bits, f"{key}.n_datasets", src.n_datasets, 1))
            if s.kind == "test_set":
                n_test = s.p["n_test"]
                parts.append((workers * 24.0 * n_test * (n_attr + 1),
                              f"schemes.{sname}.n_test", n_test, 1))
            elif sk is not None and sv > n_inst:
                parts.append((workers * 8.0 * n_inst * split, sk, sv, 1))
            else:
                per_cell += 8.0 * n_inst * split
        if size_key:
            parts.append((workers * per_cell, size_key, size_value, 1))
        else:
            parts.append((workers * per_cell, f"{key}.n_datasets", src.n_datasets, 1))
    for i, a in enumerate(study.analyses):
        if a.kind == "calibrate":
            srcs = [study.source(label) for label in a.sources]
            n = sum(s.n_datasets for s in srcs)
            grid = a.df_max - a.df_min + 1
            nbytes = 24.0 * grid * n * max(len(a.alphas), 1)
            big = max(srcs, key=lambda s: s.n_datasets)
            parts.append((nbytes, f"analysis[{i}].df_max", a.df_max, 1) if grid >= n else
                         (nbytes, f"sources.{big.group}.n_datasets", big.n_datasets, 1))
    try:
        return check_memory_estimate(parts, what=f"study {study.name}")
    except ValueError as exc:
        if c is None:
            raise StudyFileError(f"study {study.name}: {exc}") from None
        raise StudyFileError(f"study file {c.path}: {exc}") from None


def _fail(c, key, rule):
    if c is None:
        raise StudyFileError(f"`{key}` {rule}.")
    c.fail(key, rule, show_value=False)


def published_only_study(c, doc, st, path, name, seed, paper) -> Study:
    """A study of published numbers or of a model only: no sources, schemes or learners.

    Its paper layout computes everything (e.g. a paper's procedure on its own
    published inputs); the engine runs no learner and no analysis.
    """
    if not paper:
        c.fail("sources", "is required (with [schemes]) unless the study is one of published "
               "numbers only, which names its `study.paper` layout", show_value=False)
    for key in ("learners", "analysis"):
        if key in doc:
            c.fail(key, "must be left out of a study without sources (published numbers only)",
                   show_value=False)
    root = path.parent
    results, figures = _outputs(c, doc, root)
    return Study(name=name, path=path, seed=seed, sources=(), learners=(), pairs=(),
                 schemes=(), analyses=(),
                 title=c.value("study.title", st.get("title", name), str), paper=paper,
                 description=c.value("study.description", st.get("description", ""), str),
                 block_size=1, costs=False, results=results.resolve(),
                 figures=figures.resolve(), declared_n_datasets=())


def _outputs(c, doc, root: Path) -> tuple[Path, Path]:
    """The ``[outputs]`` folders (store parent, figures), resolved against the study file."""
    out = c.table("outputs", doc.get("outputs", {}))
    c.keys("outputs", out, {"results", "figures"})
    results = root / c.value("outputs.results", out.get("results", "results"), str)
    figures = root / c.value("outputs.figures", out.get("figures", "figures"), str)
    return results, figures
