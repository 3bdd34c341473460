"""Random Bayesian-network (BAN) data sources of Bouckaert (2003), Section 5.2.

Bouckaert measured power and replicability on data drawn from four randomly
generated Bayesian networks over a binary class and binary attributes: Set 1
with no arrows at all (the calibration data) and Sets 2-4 "starting with a naive
Bayes model and adding arrows while guaranteeing acyclicity" (Bouckaert & Frank
2004, §4.4). How many arrows he added and how he drew the conditional
probability tables (CPTs) is not published; :func:`random_ban` documents the
choices made here.

Networks are held as pgmpy ``DiscreteBayesianNetwork`` models and stored as BIF
files (:func:`read_network`, :func:`write_network`). Sampling does not use
pgmpy's samplers (they reseed numpy's global generator): :class:`BANSource`
compiles the CPTs once into flat arrays and a numba kernel draws instances by
forward sampling from uniforms drawn in Python from the caller's generator.
"""

from __future__ import annotations

import numbers
import re
import warnings
from pathlib import Path

import numpy as np

from .._validation import check_int, check_probability, check_random_state

__all__ = ["random_ban", "null_ban", "read_network", "write_network"]

#: Name of the class variable in the networks written here.
CLASS = "class"


def _pgmpy():
    """Import the pgmpy pieces used here, silencing pgmpy's own deprecation warnings.

    pgmpy 1.1 warns on import of some submodules (``FutureWarning`` about its
    own reorganisation); the test suite turns warnings into errors.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        from pgmpy.factors.discrete import TabularCPD
        from pgmpy.models import DiscreteBayesianNetwork
        from pgmpy.readwrite import BIFReader, BIFWriter
    return DiscreteBayesianNetwork, TabularCPD, BIFReader, BIFWriter


def _natural_key(name: str):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _attribute_names(n_attributes: int) -> list[str]:
    return [f"a{j}" for j in range(n_attributes)]


# ----------------------------------------------------------------------------------------
# random networks


#: Most attributes :func:`random_ban` draws: pgmpy builds and checks every CPT (3000
#: attributes take about 15 s on a loaded 2-core machine, 1000 about 2 s).
MAX_BAN_ATTRIBUTES = 1000


def _max_arcs(n_attributes: int, max_parents: int) -> int:
    """Most attribute -> attribute arcs a DAG can hold with <= max_parents per node."""
    return sum(min(j, max_parents) for j in range(n_attributes))


def random_ban(rng=None, *, n_attributes: int = 10, n_arcs: int = 0, max_parents: int = 2,
               concentration: float = 1.0, class_prior: float = 0.5, class_arcs: bool = True,
               decimals: int = 3):
    """Draw a random BAN over a binary class and binary attributes.

    Structure: the class is a root with an arc to every attribute (a naive Bayes
    model; no class arcs with ``class_arcs=False``), plus ``n_arcs`` arcs among
    the attributes. To keep the graph acyclic the attributes are put in a random
    order and an arc may only go from an earlier to a later attribute; the
    candidate arcs are visited in random order and each is kept unless its head
    already has ``max_parents`` attribute parents, until ``n_arcs`` are kept.

    CPTs: the class has ``P(class = 1) = class_prior``. For every attribute and
    every configuration of its parents, ``P(attribute = 1 | parents)`` is drawn
    from Beta(``concentration``, ``concentration``) and rounded to a multiple of
    ``10**-decimals`` in ``[10**-decimals, 1 - 10**-decimals]``.
    ``concentration = 1`` is Uniform(0, 1), the choice of Weka's
    ``BayesNetGenerator`` (written by Bouckaert), which cuts [0, 1000) at a
    uniform integer for a binary node; smaller values give sharper
    (near-deterministic) tables, larger values flatter ones.

    Parameters
    ----------
    rng : None, int, SeedSequence or Generator
        Source of randomness. Draws, in order: the attribute order (a
        permutation of ``n_attributes``), the visiting order of the candidate
        arcs (a permutation of ``n_attributes * (n_attributes - 1) / 2``), and
        the Beta variates of the attributes ``a0, a1, ...`` in turn, each
        attribute's parent configurations in pgmpy's order (parents: the class
        first, then attribute parents by index; the last parent varies fastest).
    n_attributes : int, default 10
        Number of binary attributes ``a0 .. a{n-1}``, 1 .. :data:`MAX_BAN_ATTRIBUTES`.
    n_arcs : int, default 0
        Arcs among attributes (0 .. the most that ``max_parents`` allows).
    max_parents : int, default 2
        Most attribute parents per attribute (besides the class; >= 0).
    concentration : float, default 1.0
        Beta parameter of the CPT entries (> 0); 1 is Uniform(0, 1).
    class_prior : float, default 0.5
        P(class = 1), in (0, 1).
    class_arcs : bool, default True
        Whether the class is a parent of every attribute. ``False`` with
        ``n_arcs = 0`` gives Bouckaert's Set 1 (see :func:`null_ban`).
    decimals : int, default 3
        CPT entries are multiples of ``10**-decimals`` (1 .. 12), so the BIF
        text holds them exactly.

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        Nodes ``"class"`` and ``"a0" ..``, states ``"0"``, ``"1"`` (code 0 and
        1), checked with ``check_model``.

    Raises
    ------
    ValueError
        If a parameter is out of range, e.g. ``n_arcs`` above what
        ``max_parents`` allows.
    TypeError
        If an integer parameter is not an integer.

    Examples
    --------
    >>> model = random_ban(0, n_attributes=4, n_arcs=2)
    >>> sorted(model.nodes(), key=str)
    ['a0', 'a1', 'a2', 'a3', 'class']
    >>> sum(1 for u, v in model.edges() if u != "class")
    2
    """
    n_attributes = check_int("n_attributes", n_attributes, min_value=1,
                             max_value=MAX_BAN_ATTRIBUTES)
    max_parents = check_int("max_parents", max_parents, min_value=0)
    limit = _max_arcs(n_attributes, max_parents)
    n_arcs = check_int("n_arcs", n_arcs, min_value=0)
    if n_arcs > limit:
        raise ValueError(f"`n_arcs` must be <= {limit} for {n_attributes} attributes with "
                         f"`max_parents` = {max_parents}; got {n_arcs}.")
    if (isinstance(concentration, bool) or not isinstance(concentration, numbers.Real)
            or not np.isfinite(concentration) or concentration <= 0):
        raise ValueError(f"`concentration` must be a finite number > 0; got {concentration!r}.")
    class_prior = check_probability("class_prior", class_prior)
    decimals = check_int("decimals", decimals, min_value=1, max_value=12)
    if not isinstance(class_arcs, (bool, np.bool_)):
        raise TypeError(f"`class_arcs` must be a bool; got {class_arcs!r}.")
    rng = np.random.default_rng(check_random_state("rng", rng, generator=True))

    names = _attribute_names(n_attributes)
    order = rng.permutation(n_attributes)
    pairs = [(order[i], order[j]) for i in range(n_attributes) for j in range(i + 1, n_attributes)]
    visit = rng.permutation(len(pairs)) if pairs else np.empty(0, np.int64)
    parents = [[] for _ in range(n_attributes)]
    kept = 0
    for idx in visit:
        if kept == n_arcs:
            break
        tail, head = pairs[idx]
        if len(parents[head]) < max_parents:
            parents[head].append(int(tail))
            kept += 1
    scale = 10 ** decimals
    tables = []
    for j in range(n_attributes):
        evidence = ([CLASS] if class_arcs else []) + [names[p] for p in sorted(parents[j])]
        k = np.rint(rng.beta(concentration, concentration, 2 ** len(evidence)) * scale)
        k = np.clip(k, 1, scale - 1)
        tables.append((names[j], evidence, np.vstack([(scale - k) / scale, k / scale])))
    prior = round(class_prior, 12)
    return _build_model([(CLASS, [], np.array([[1 - prior], [prior]]))] + tables)


def null_ban(rng=None, *, n_attributes: int = 10, class_prior: float = 0.5, decimals: int = 3):
    """Bouckaert's Set 1: attributes independent of each other and of the class.

    No arcs at all; ``P(attribute = 1)`` ~ Uniform(0, 1) per attribute
    (rounded as in :func:`random_ban`), the "various different probabilities"
    of Bouckaert (2003, §4) drawn as :class:`~calibsim.sources.NullSource` does.
    Equivalent to ``random_ban(rng, n_arcs=0, class_arcs=False, concentration=1)``.

    Examples
    --------
    >>> model = null_ban(0, n_attributes=3)
    >>> list(model.edges())
    []
    """
    return random_ban(rng, n_attributes=n_attributes, n_arcs=0, max_parents=0,
                      concentration=1.0, class_prior=class_prior, class_arcs=False,
                      decimals=decimals)


def _build_model(tables):
    """[(name, [parent names], values (card, n_configs))] of binary nodes -> checked model."""
    DiscreteBayesianNetwork, TabularCPD, _, _ = _pgmpy()
    model = DiscreteBayesianNetwork()
    model.add_nodes_from([name for name, _, _ in tables])
    model.add_edges_from([(p, name) for name, evidence, _ in tables for p in evidence])
    states = {name: ["0", "1"] for name, _, _ in tables}
    cpds = []
    for name, evidence, values in tables:
        cpds.append(TabularCPD(name, 2, values, evidence=evidence or None,
                               evidence_card=[2] * len(evidence) or None,
                               state_names={v: states[v] for v in [name, *evidence]}))
    model.add_cpds(*cpds)
    model.check_model()
    return model


# ----------------------------------------------------------------------------------------
# files


def read_network(path):
    """Read a Bayesian network from a BIF file and validate it.

    Parameters
    ----------
    path : str or path-like
        A BIF file (as written by :func:`write_network` or pgmpy's ``BIFWriter``).

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    ValueError
        If the file does not parse as BIF (pgmpy's parser errors are wrapped,
        and a file whose ``variable`` / ``probability`` blocks pgmpy silently
        skips is rejected too), if its arcs form a directed cycle, or if a CPT
        is invalid (see :class:`BANSource`).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "net.bif")
    ...     _ = write_network(random_ban(1, n_attributes=3, n_arcs=1), path)
    ...     sorted(read_network(path).nodes())
    ['a0', 'a1', 'a2', 'class']
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"network file {path} does not exist.")
    text = path.read_text(encoding="utf-8")
    _, _, BIFReader, _ = _pgmpy()
    try:
        model = BIFReader(string=text).get_model()
    except Exception as exc:       # pgmpy raises pyparsing, Key/Index and Value errors
        what = ("its arcs form a directed cycle" if "loop" in str(exc).lower()
                else "it is not a valid BIF network")
        raise ValueError(f"network file {path}: {what} ({type(exc).__name__}: {exc}).") from exc
    n_var = len(re.findall(r"^\s*variable\s", text, flags=re.M))
    n_prob = len(re.findall(r"^\s*probability\s*\(", text, flags=re.M))
    if n_var == 0 or n_var != model.number_of_nodes() or n_prob != len(model.get_cpds()):
        raise ValueError(f"network file {path}: it is not a valid BIF network: it declares "
                         f"{n_var} variable(s) and {n_prob} probability block(s) but "
                         f"{model.number_of_nodes()} variable(s) and {len(model.get_cpds())} "
                         f"CPT(s) could be parsed.")
    try:
        _check_network(model)
    except ValueError as exc:
        raise ValueError(f"network file {path}: {exc}") from exc
    return model


def write_network(model, path) -> Path:
    """Validate ``model`` and write it as a BIF file; returns the path."""
    _check_network(model)
    _, _, _, BIFWriter = _pgmpy()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(str(BIFWriter(model)), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------------------
# compiled form


def _check_network(model) -> None:
    DiscreteBayesianNetwork = _pgmpy()[0]
    import networkx as nx
    if not isinstance(model, DiscreteBayesianNetwork):
        raise TypeError(f"`network` must be a pgmpy DiscreteBayesianNetwork or a path to a "
                        f"BIF file; got {type(model).__name__}.")
    if not nx.is_directed_acyclic_graph(model):
        raise ValueError("its arcs form a directed cycle; a Bayesian network must be acyclic.")
    missing = [v for v in model.nodes() if model.get_cpds(v) is None]
    if missing:
        raise ValueError(f"node(s) {sorted(missing)} have no CPT.")
    try:
        model.check_model()
    except Exception as exc:
        raise ValueError(f"invalid network ({type(exc).__name__}: {exc})") from exc
