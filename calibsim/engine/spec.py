"""One study schema and one loader: a study file becomes frozen specs.

A study file (TOML) declares named **sources**, **learners**, **schemes** and a
list of **analyses**::

    [study]
    name = "ban_tan_ib1"            # file names of outputs
    seed = 2024                     # root entropy of every data set's SeedSequence
    paper = "bouckaert2003.table7"  # optional: paper module and layout (values beside the paper's)

    [sources.set1]                  # kind: null | ban | epsilon_point | dataset
    kind = "ban"
    network = "networks/set1.bif"   # relative to this file; a list expands into several sources
    n_datasets = 1000

    [learners]
    names = ["tan", "ib1"]          # all pairs (a before b) unless `pairs` says otherwise

    [schemes.cv5x2]     # kind: repeated_kfold | subsampling | holdout | cv5x2 | test_set | nested
    kind = "cv5x2"

    [[analysis]]                    # kind: calibrate | rejection_rate | replicability | accuracy
    kind = "calibrate"
    tests = ["cv5x2_t"]
    alphas = [0.01]

:func:`load_study` validates it (every error names the key, the rule and the
value; unknown keys name the closest valid one), expands grids (a list given
for a source parameter such as ``class_prior``, ``network``, ``epsilon`` or a
data set ``name``), resolves paths against the study file and checks sizes
against memory before anything is allocated. The keys of every section are
listed in :data:`SOURCE_KINDS`, :data:`SCHEME_KINDS` and :data:`ANALYSIS_KEYS`
(``calibsim list`` prints them).

A study of published numbers or of an analytic model only (a paper's procedure on
the paper's own inputs) declares ``[study]`` with its ``paper`` layout and
``[outputs]``, and no sources, schemes, learners or analyses; the engine then
fits nothing and the layout writes every output. A study whose analyses are all of kind
``plan`` (:mod:`calibsim.engine._plan_analysis`: ``calibsim.plan`` draws its own designs)
declares no ``[schemes]``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ._schema import Checker, StudyFileError
from ._specs import (_STUDY_KEYS, _TOP, ANALYSIS_KEYS, ANALYSIS_KINDS, SCHEME_KINDS, SOURCE_KINDS,
                     AnalysisSpec, SchemeSpec, SourceSpec, Study)

__all__ = ["Study", "SourceSpec", "SchemeSpec", "AnalysisSpec", "load_study", "study_from_dict",
           "SOURCE_KINDS", "SCHEME_KINDS", "ANALYSIS_KINDS", "ANALYSIS_KEYS", "StudyFileError"]

# ---------------------------------------------------------------------------
# loading

def load_study(path, *, n_datasets: int | None = None) -> Study:
    """Read, validate and expand a study file.

    Parameters
    ----------
    path : str or path-like
        A TOML study file (see the module docstring).
    n_datasets : int, optional
        A quick look: ``n_datasets`` data sets per simulated source and the first
        ``n_datasets`` real data sets of each group (:meth:`Study.with_n_datasets`);
        the declared values stay in ``Study.declared_n_datasets``.

    Returns
    -------
    Study

    Raises
    ------
    FileNotFoundError
        If the file (or a network or ARFF file it names) does not exist.
    StudyFileError
        A ``ValueError`` naming the file, the key, the rule and the value: invalid
        TOML, an unknown section or key (with the closest valid name), a wrong type,
        a missing required key, an invalid value, an unknown test or learner, or a
        study whose arrays would not fit in memory (with the estimate and the limit).
    """
    path = Path(path)
    if path.is_dir():
        raise StudyFileError(f"study file {path} is a folder; give a .toml file (`calibsim run` "
                             "also takes a folder of them).")
    if not path.exists():
        raise FileNotFoundError(f"study file {path} does not exist.")
    if not path.is_file():
        raise StudyFileError(f"study file {path} is not a regular file (a device, FIFO or "
                             "socket).")
    if path.stat().st_size > MAX_STUDY_FILE_BYTES:
        raise StudyFileError(f"study file {path} is {path.stat().st_size:,} bytes; a study file "
                             f"must be at most {MAX_STUDY_FILE_BYTES:,} (is it a data file?).")
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise StudyFileError(f"study file {path} is not valid TOML: {exc}.") from exc
    except RecursionError:
        raise StudyFileError(f"study file {path} nests arrays or tables too deeply to be read "
                             "(a study file needs at most a few levels).") from None
    return study_from_dict(doc, path, n_datasets=n_datasets)


#: Largest study file read (a study file is a few kilobytes of TOML).
MAX_STUDY_FILE_BYTES = 1_000_000


def study_from_dict(doc: dict, path, *, n_datasets: int | None = None) -> Study:
    """Validate a parsed study file (``doc``) as if read from ``path`` (see :func:`load_study`)."""
    path = Path(path)
    c = Checker(path)
    published_only, plan_only = _check_sections(c, doc)
    st = c.table("study", doc["study"])
    head = _study_keys(c, st)
    root = path.parent
    if published_only:
        from ._parse import published_only_study
        study = published_only_study(c, doc, st, path, head.name, head.seed, head.paper)
        if n_datasets is not None:
            c.value("n_datasets", n_datasets, int, min_value=1)
            from dataclasses import replace
            study = replace(study, requested_n_datasets=int(n_datasets))
        return study
    from ._parse import _analyses, _outputs, _schemes, _sources
    schemes = (_schemes(c, c.table("schemes", doc["schemes"])) if "schemes" in doc or not
               plan_only else ())
    sources = _sources(c, c.table("sources", doc["sources"]), root, head.seed, schemes)
    learners, pairs = _study_learners(c, doc, sources)
    analyses = _analyses(c, doc.get("analysis", []), root, sources, schemes, pairs)
    _check_datasets_per_comparison(c, analyses, sources, head.block_size)
    results, figures = _outputs(c, doc, root)
    study = Study(name=head.name, path=path, seed=head.seed, sources=sources,
                  learners=learners, pairs=pairs, schemes=schemes, analyses=analyses,
                  title=c.value("study.title", st.get("title", head.name), str),
                  paper=head.paper,
                  description=c.value("study.description", st.get("description", ""), str),
                  block_size=head.block_size, costs=head.costs, results=results.resolve(),
                  figures=figures.resolve(),
                  declared_n_datasets=tuple(s.n_datasets for s in sources),
                  declared_sources=len(sources))
    if n_datasets is not None:
        c.value("n_datasets", n_datasets, int, min_value=1)
        study = study.with_n_datasets(n_datasets)
    from ._parse import check_memory
    check_memory(study, c)
    return study


def _plan_only(doc: dict) -> bool:
    """Whether every analysis is of kind ``plan`` (calibsim.plan draws its own designs)."""
    entries = doc.get("analysis", [])
    entries = [entries] if isinstance(entries, dict) else entries
    return bool(entries) and isinstance(entries, list) and all(
        isinstance(e, dict) and e.get("kind") == "plan" for e in entries)


def _check_sections(c, doc: dict) -> tuple[bool, bool]:
    """Check the top-level sections; ``(published_only, plan_only)``: a study of published
    numbers only (no sources, no schemes) needs only ``[study]``, one of plan analyses only
    needs no ``[schemes]``."""
    published_only = "sources" not in doc and "schemes" not in doc
    # a study of plan analyses only (calibsim.plan draws its own designs) needs no schemes
    plan_only = _plan_only(doc)
    c.keys("", doc, _TOP, required=("study",) if published_only else
           ("study", "sources") if plan_only else ("study", "sources", "schemes"))
    return published_only, plan_only


@dataclass(frozen=True)
class _StudyKeys:
    """The checked keys of the ``[study]`` section that the rest of the loading reads."""

    name: str
    seed: int
    block_size: int
    costs: bool
    paper: str


def _study_keys(c, st: dict) -> _StudyKeys:
    """The ``[study]`` section's name, seed, block size, costs and paper layout, checked."""
    c.keys("study", st, _STUDY_KEYS, required=("name", "seed"))
    name = c.value("study.name", st["name"], str)
    if not name or any(ch in name for ch in "/\\ ") or name.startswith("."):
        c.fail("study.name", "must be a non-empty name without spaces or slashes, not "
               "starting with '.' (its files would be hidden, '._*')", name)
    seed = c.value("study.seed", st["seed"], int, min_value=0)
    block_size = c.value("study.block_size", st.get("block_size", 20), int, min_value=1)
    costs = c.value("study.costs", st.get("costs", False), bool)
    paper = c.value("study.paper", st.get("paper", ""), str)
    if paper:
        from ..papers import PAPERS, layouts
        mod, _, layout = paper.partition(".")
        c.value("study.paper", mod, str, choices=PAPERS)
        c.value("study.paper", paper, str, choices=tuple(f"{mod}.{k}" for k in layouts(mod)))
    return _StudyKeys(name, seed, block_size, costs, paper)


def _study_learners(c, doc: dict, sources) -> tuple:
    """``(learners, pairs)``: the ``[learners]`` section, or the two simulated learners
    A and B of ε-point sources (which must then be all the sources and have no
    ``[learners]``); the sources' own learners checked against them."""
    from ._parse import _learners
    simulated = all(s.simulated_scores for s in sources)
    if "learners" in doc:
        learners, pairs = _learners(c, c.table("learners", doc["learners"]))
    elif simulated:
        learners, pairs = (), (("A", "B"),)
    else:
        c.fail("learners", "is required (a [learners] section with `names`) unless every "
               "source is an ε-point source", show_value=False)
    if any(s.learners for s in sources):
        from ._parse import check_source_learners
        check_source_learners(c, sources, learners)
    if simulated and "learners" in doc:
        c.fail("learners", "must be left out when every source is an ε-point source (it "
               "simulates its two learners A and B)", show_value=False)
    if any(s.simulated_scores for s in sources) and not simulated:
        c.fail("sources", "must not mix ε-point sources with sources that need learners",
               show_value=False)
    return learners, pairs


def _check_datasets_per_comparison(c, analyses, sources, block_size: int) -> None:
    """bayes_datasets: comparisons of q data sets never straddle a block, nor a source's
    end (the block size and every source's n_datasets are multiples of q)."""
    for i, a in enumerate(analyses):
        for q in a.datasets:          # bayes_datasets: comparisons never straddle a block
            if block_size % q:
                c.fail("study.block_size", f"must be a multiple of every number of data sets "
                       f"per comparison of analysis {a.name!r} ({list(a.datasets)})",
                       block_size)
            for src in sources:
                if src.label in a.sources and src.n_datasets % q:
                    c.fail(f"sources.{src.group}.n_datasets", f"must be a multiple of every "
                           f"number of data sets per comparison of analysis {a.name!r} "
                           f"({list(a.datasets)})", src.n_datasets)

