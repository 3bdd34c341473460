"""The one study loader: valid files, grids, paths, and malformed files with clear errors."""

import textwrap
from pathlib import Path

import pytest

from calibsim.engine.spec import StudyFileError, load_study
from _studies import tiny_study

REPO = Path(__file__).resolve().parents[2]
STUDIES = sorted((REPO / "studies").glob("*.toml"))

BASE = tiny_study('s', seed=1, n_datasets=5) + """[[analysis]]
kind = "calibrate"
tests = ["use_all_data"]
runs = [2, 4]
alphas = [0.05]
"""


def _write(tmp_path, text, name="study.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.mark.parametrize("path", STUDIES, ids=[p.stem for p in STUDIES])
def test_every_committed_study_loads(path):
    study = load_study(path)
    if study.sources:       # schemes, unless calibsim.plan draws its own designs
        assert study.analyses and (study.schemes or all(a.kind == "plan"
                                                        for a in study.analyses))
    else:  # a study of published numbers only: its paper layout does the work
        assert study.paper and not study.schemes and not study.learners
    assert study.results.is_absolute() and study.figures.is_absolute()


def test_base_study_and_its_specs(tmp_path):
    study = load_study(_write(tmp_path, BASE))
    assert [s.label for s in study.sources] == ["null"]
    assert study.pairs == (("naive_bayes", "c45"),)
    assert study.scheme("cv").split_shape == (4, 5)
    a = study.analyses[0]
    assert a.kind == "calibrate" and a.scheme_of("use_all_data") == "cv"
    assert study.results == (tmp_path / "results").resolve()


def test_grid_expands_into_sources(tmp_path):
    text = BASE.replace('n_instances = 60', 'n_instances = 60\nclass_prior = [0.2, 0.5]')
    study = load_study(_write(tmp_path, text))
    assert [s.label for s in study.sources] == ["null[class_prior=0.2]", "null[class_prior=0.5]"]
    assert dict(study.sources[0].grid) == {"class_prior": 0.2}


def test_epsilon_point_grids_are_zipped(tmp_path):
    text = """
    [study]
    name = "e"
    seed = 3
    [sources.eps]
    kind = "epsilon_point"
    epsilon = [0.1, 0.2]
    e1 = [0.2, 0.4]
    e2 = [0.0, 0.0]
    n_datasets = 4
    [schemes.cv5x2]
    kind = "cv5x2"
    [[analysis]]
    kind = "rejection_rate"
    tests = ["cv5x2_t"]
    """
    study = load_study(_write(tmp_path, text))
    assert len(study.sources) == 2 and study.pairs == (("A", "B"),)


def test_n_datasets_override_marks_the_study_reduced(tmp_path):
    study = load_study(_write(tmp_path, BASE), n_datasets=2)
    assert study.sources[0].n_datasets == 2 and study.reduced
    assert not load_study(_write(tmp_path, BASE)).reduced


def test_paths_resolve_against_the_study_file(tmp_path):
    sub = tmp_path / "deep"
    sub.mkdir()
    net = REPO / "studies" / "networks" / "set1.bif"
    (sub / "net.bif").write_bytes(net.read_bytes())
    text = BASE.replace('kind = "null"\nn_instances = 60', 'kind = "ban"\nnetwork = "net.bif"')
    study = load_study(_write(sub, text))
    assert dict(study.sources[0].params)["network"] == str((sub / "net.bif").resolve())


# (name, change: old -> new or appended text, expected message fragment)
MALFORMED = [
    ("not toml", None, "not valid TOML"),
    ("unknown section", "\n[extra]\nx = 1\n", r"`extra` is not a known key"),
    ("unknown study key closest", ('seed = 1', 'seed = 1\nsed = 2'), r"did you mean 'seed'"),
    ("missing study name", ('name = "s"\n', ''), r"`study.name` is required"),
    ("missing seed", ('seed = 1\n', ''), r"`study.seed` is required"),
    ("negative seed", ('seed = 1', 'seed = -1'), r"`study.seed` must be >= 0; got -1"),
    ("seed a string", ('seed = 1', 'seed = "1"'), r"`study.seed` must be an integer; got '1'"),
    ("seed a bool", ('seed = 1', 'seed = true'), r"`study.seed` must be an integer"),
    ("name with slash", ('name = "s"', 'name = "a/b"'), r"`study.name` must be a non-empty"),
    ("section a number", [('[learners]\nnames = ["naive_bayes", "c45"]\n', ''),
                          ('[study]', 'learners = 3\n[study]')], r"`learners` must be a table"),
    ("study a number", ('[study]\nname = "s"\nseed = 1\n', 'study = 5\n'),
     r"`study` must be a table"),
    ("no sources", ('[sources.null]\nkind = "null"\nn_instances = 60\nn_datasets = 5\n', ''),
     r"`sources` is required"),
    ("source without kind", ('kind = "null"\nn_instances', 'n_instances'),
     r"`sources.null.kind` is required"),
    ("unknown source kind", ('kind = "null"', 'kind = "nul"'), r"did you mean 'null'"),
    ("unknown source key", ('n_instances = 60', 'n_instance = 60'),
     r"`sources.null.n_instance` is not a known key \(did you mean 'n_instances'\?\)"),
    ("class prior out of range", ('n_instances = 60', 'n_instances = 60\nclass_prior = 1.5'),
     r"`sources.null.class_prior` must be < 1; got 1.5"),
    ("n_datasets zero", ('n_datasets = 5', 'n_datasets = 0'),
     r"`sources.null.n_datasets` must be >= 1; got 0"),
    ("n_datasets missing", ('n_datasets = 5\n', ''), r"`sources.null.n_datasets` is required"),
    ("n_datasets huge", ('n_datasets = 5', 'n_datasets = 1000000000000'),
     r"`sources.null.n_datasets` = \d+ makes study s need an estimated .* TiB of memory .* "
     r"more than the limit .* lower it to at most about [\d,]+"),
    ("empty class prior grid", ('n_instances = 60', 'n_instances = 60\nclass_prior = []'),
     r"`sources.null.class_prior` must list at least one value"),
    ("ban without network", ('kind = "null"\nn_instances = 60', 'kind = "ban"'),
     r"`sources.null.network` is required"),
    ("ban network missing file", ('kind = "null"\nn_instances = 60',
                                  'kind = "ban"\nnetwork = "nope.bif"'), "FileNotFound"),
    ("dataset two of name/path", ('kind = "null"\nn_instances = 60\nn_datasets = 5',
                                  'kind = "dataset"\nname = "iris"\nsklearn = "load_iris"'),
     r"must give exactly one of `name`"),
    ("unknown learner", ('names = ["naive_bayes", "c45"]', 'names = ["naive_bayes", "c4.5"]'),
     r"neither a built-in learner .* \(did you mean 'c45'\?\)"),
    ("learner repeated", ('names = ["naive_bayes", "c45"]', 'names = ["c45", "c45"]'),
     r"`learners.names` must not repeat"),
    ("learners missing", ('[learners]\nnames = ["naive_bayes", "c45"]\n', ''),
     r"`learners` is required"),
    ("pair unknown learner", ('names = ["naive_bayes", "c45"]',
                              'names = ["naive_bayes", "c45"]\npairs = [["naive_bayes", "ib1"]]'),
     r"`learners.pairs\[0\]` names an unknown learner"),
    ("pair not a pair", ('names = ["naive_bayes", "c45"]',
                         'names = ["naive_bayes", "c45"]\npairs = [["naive_bayes"]]'),
     r"must be a pair \[a, b\]"),
    ("estimator not importable", ('names = ["naive_bayes", "c45"]',
                                  'names = ["naive_bayes", "lr"]\n[learners.lr]\n'
                                  'estimator = "sklearn.nope.Model"'),
     r"`learners.lr` cannot be made"),
    ("learner table unused", ('names = ["naive_bayes", "c45"]',
                              'names = ["naive_bayes", "c45"]\n[learners.x]\nkind = "c45"'),
     r"`learners.x` is declared but not listed"),
    ("no schemes", ('[schemes.cv]\nkind = "repeated_kfold"\nn_folds = 5\nn_runs = 4\n', ''),
     r"`schemes` is required"),
    ("unknown scheme kind", ('kind = "repeated_kfold"', 'kind = "kfold"'),
     r"`schemes.cv.kind` must be one of"),
    ("n_folds one", ('n_folds = 5', 'n_folds = 1'), r"`schemes.cv.n_folds` must be >= 2; got 1"),
    ("scheme unknown key", ('n_runs = 4', 'n_runs = 4\nrepeats = 2'),
     r"`schemes.cv.repeats` is not a known key"),
    ("analysis a number", [('[study]', 'analysis = 5\n[study]'),
                           ('[[analysis]]\nkind = "calibrate"\ntests = ["use_all_data"]\n'
                            'runs = [2, 4]\nalphas = [0.05]\n', '')],
     r"`analysis` must be a list of tables"),
    ("analysis without kind", ('kind = "calibrate"\n', ''), r"`analysis\[0\].kind` is required"),
    ("unknown analysis kind", ('kind = "calibrate"', 'kind = "calibration"'),
     r"did you mean 'calibrate'"),
    ("unknown test", ('tests = ["use_all_data"]', 'tests = ["use_all"]'),
     r"`analysis\[0\].tests\[0\]` must be one of .* \(did you mean 'use_all_data'\?\)"),
    ("test without scheme", ('tests = ["use_all_data"]', 'tests = ["resampling"]'),
     r"holds 'resampling', which needs a scheme of kind subsampling or holdout"),
    ("empty alphas", ('alphas = [0.05]', 'alphas = []'),
     r"`analysis\[0\].alphas` must list at least one value; got \[\]"),
    ("alpha out of range", ('alphas = [0.05]', 'alphas = [5]'),
     r"`analysis\[0\].alphas\[0\]` must be < 1"),
    ("runs beyond scheme", ('runs = [2, 4]', 'runs = [2, 8]'),
     r"`analysis\[0\].runs` times `repeats` = 1 must not exceed scheme 'cv''s n_runs = 4"),
    ("df given to calibrate", ('alphas = [0.05]', 'alphas = [0.05]\ndf = 3'),
     r"`analysis\[0\].df` is not used by a calibrate analysis"),
    ("calibrated df without calibration", ('kind = "calibrate"', 'kind = "rejection_rate"\n'
                                           'df = "calibrated"'),
     r"is 'calibrated' but the study has no calibrate analysis"),
    ("bad df word", ('kind = "calibrate"', 'kind = "rejection_rate"\ndf = "calbrated"'),
     r"did you mean 'calibrated'"),
    ("df_max below df_min", ('alphas = [0.05]', 'alphas = [0.05]\ndf_min = 10\ndf_max = 5'),
     r"`analysis\[0\].df_max` must be >= 10; got 5"),
    ("duplicate analysis names", (None, '\n[[analysis]]\nkind = "calibrate"\n'
                                        'tests = ["use_all_data"]\n'),
     r"`analysis\[1\].name` must be unique"),
    ("unknown analysis source", ('alphas = [0.05]', 'alphas = [0.05]\nsources = ["nul"]'),
     r"`analysis\[0\].sources` must name declared sources"),
    ("unknown paper", ('seed = 1', 'seed = 1\npaper = "bouckaert2004.table1"'),
     r"`study.paper` must be one of"),
    ("unknown outputs key", (None, '\n[outputs]\nfolder = "x"\n'),
     r"`outputs.folder` is not a known key"),
]


@pytest.mark.parametrize("name,change,match", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_study_files_fail_clearly(tmp_path, name, change, match):
    if change is None:
        text = BASE + "\n[study\n"
    elif isinstance(change, str):
        text = BASE + change
    elif isinstance(change, list):
        text = BASE
        for old, new in change:
            assert old in text, old
            text = text.replace(old, new, 1)
    else:
        old, new = change
        if old is None:
            text = BASE + new
        else:
            assert old in BASE, old
            text = BASE.replace(old, new, 1)
    path = _write(tmp_path, text)
    if match == "FileNotFound":
        with pytest.raises(FileNotFoundError, match="does not exist"):
            load_study(path)
        return
    with pytest.raises(StudyFileError) as info:
        load_study(path)
    msg = str(info.value)
    assert str(path) in msg
    if match is not None:
        import re
        assert re.search(match, msg), msg


PUBLISHED = """
[study]
name = "published"
seed = 0
paper = "bouckaert2003.table3"
"""


def test_a_study_of_published_numbers_needs_no_sources(tmp_path):
    study = load_study(_write(tmp_path, PUBLISHED))
    assert study.sources == () and study.schemes == () and study.analyses == ()
    assert study.paper == "bouckaert2003.table3"


@pytest.mark.parametrize("extra, match", [
    ("", None),
    ('[learners]\nnames = ["c45"]\n', "`learners` must be left out"),
    ('[[analysis]]\nkind = "accuracy"\n', "`analysis` must be left out"),
])
def test_a_study_without_sources_must_name_a_paper_and_nothing_else(tmp_path, extra, match):
    text = PUBLISHED.replace('paper = "bouckaert2003.table3"\n', "") if not extra else PUBLISHED
    path = _write(tmp_path, text + extra)
    with pytest.raises(StudyFileError, match=match or "`sources` is required"):
        load_study(path)


def test_missing_file():
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_study("no/such/study.toml")


REAL = """
[study]
name = "r"
seed = 1

[sources.flare]
kind = "dataset"
name = "flare"
subsample = [1.0, 0.5]
n_datasets = 30

[sources.flare.learners.c45]
kind = "random_errors"
base = "c45"
curve = [[140, 0.04], [290, 0.03]]

[sources.glass]
kind = "dataset"
name = "glass"
positive_class = "headlamps"
n_datasets = 30

[learners]
names = ["naive_bayes", "c45"]

[schemes.cv]
kind = "repeated_kfold"

[[analysis]]
kind = "calibrate"
tests = ["use_all_data"]
"""


def test_a_source_defines_its_own_learner_and_only_it_is_scored_so(tmp_path):
    """Per-source learner parameters (a damage rate calibrated per data set): the source's
    learners, its store key and its cells use them; the other sources keep the study's."""
    from calibsim.engine.run import _plan, store_key, store_of
    study = load_study(_write(tmp_path, REAL))
    flare, half, glass = study.sources
    assert [s.label for s in study.sources] == ["flare[subsample=1.0]", "flare[subsample=0.5]",
                                                "glass"]
    assert [lrn.label for lrn in study.learners_of(flare)] == ["naive_bayes", "c45"]
    assert study.learners_of(flare)[1].kind == "random_errors"
    assert study.learners_of(glass) == study.learners
    cv = study.scheme("cv")
    assert "random_errors" in str(store_key(study, flare, cv)[1]["learners"])
    assert "random_errors" not in str(store_key(study, glass, cv)[1]["learners"])
    cells = _plan(study, store_of(study))[0]
    assert {c.source.label: c.learners[1].kind for c in cells} == {
        "flare[subsample=1.0]": "random_errors", "flare[subsample=0.5]": "random_errors",
        "glass": "c45"}


def test_a_reduced_run_cuts_the_repeats_of_a_real_data_set(tmp_path):
    study = load_study(_write(tmp_path, REAL), n_datasets=4)
    assert [s.n_datasets for s in study.sources] == [4, 4, 4] and study.reduced


def test_bad_source_learners_and_options_are_refused_naming_the_key(tmp_path):
    for old, new, match in [
            ('[sources.flare.learners.c45]', '[sources.flare.learners.c4]',
             r"sources.flare.learners.c4.*must name a learner of `learners.names`"),
            ('base = "c45"\ncurve', 'base = "c45"\nwrong = 1\ncurve',
             r"sources.flare.learners.c45.*cannot be made"),
            ('positive_class = "headlamps"', 'positive_class = "headlamp"',
             r"`positive_class` must be one of the data set's classes.*'headlamps'"),
            ('subsample = [1.0, 0.5]', 'subsample = [1.0, 1.5]', r"sources.flare.subsample")]:
        assert old in REAL
        with pytest.raises(StudyFileError, match=match):
            load_study(_write(tmp_path, REAL.replace(old, new)))


def test_a_subsampled_nominal_data_set_is_scored_on_its_subsample_by_the_fast_path(tmp_path):
    from calibsim.engine.cells import CellSpec, run_cell
    text = REAL.replace('[sources.flare.learners.c45]\nkind = "random_errors"\nbase = "c45"\n'
                        'curve = [[140, 0.04], [290, 0.03]]\n', "")
    study = load_study(_write(tmp_path, text))
    half = study.sources[1]
    assert half.label == "flare[subsample=0.5]" and half.build().is_nominal_codes
    out = run_cell(CellSpec(half, study.learners_of(half), study.schemes, 0, 2))["cv"]
    assert (out["n_test"].sum(axis=-1) == 161).all()           # floor(323 / 2) per run
    assert ((out["correct"] > 0) & (out["correct"] <= out["n_test"][:, None])).all()
