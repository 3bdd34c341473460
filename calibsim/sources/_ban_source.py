"""BANSource: data sets drawn from a discrete Bayesian network by a numba forward sampler.

The network (a pgmpy model or a BIF file, see :mod:`calibsim.sources._ban`) is
compiled once into flat arrays; a numba kernel draws instances from uniforms drawn
in Python from the caller's generator (pgmpy's samplers reseed numpy's global one).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .._validation import check_int, check_random_state
from ._ban import CLASS, _check_network, _natural_key, _pgmpy, read_network
from ._kernels_ban import _forward_sample

__all__ = ["BANSource"]


class _Compiled(NamedTuple):
    names: tuple            # node names: attributes (natural order), then the class
    states: tuple           # state names per node
    parent_names: tuple     # parent names per node, in CPT order
    tables: tuple           # CPT values per node, (card, n_configs) float64
    order: np.ndarray       # (m,) topological order of node indices
    card: np.ndarray        # (m,)
    parent_ptr: np.ndarray  # (m+1,)
    parents: np.ndarray     # (P,)
    strides: np.ndarray     # (P,)
    cpt_ptr: np.ndarray     # (m+1,)
    cum: np.ndarray         # (T,) cumulative CPT rows
    digest: str             # sha256 of names, states, parents and CPT values


def _compile(model, class_variable: str) -> _Compiled:
    _check_network(model)
    nodes = [str(v) for v in model.nodes()]
    if class_variable not in nodes:
        raise ValueError(f"`class_variable` {class_variable!r} is not a node of the network; "
                         f"nodes are {sorted(nodes, key=_natural_key)}.")
    if len(nodes) < 2:
        raise ValueError("the network must have at least one attribute besides the class.")
    names = tuple(sorted((v for v in nodes if v != class_variable), key=_natural_key)
                  ) + (class_variable,)
    index = {v: i for i, v in enumerate(names)}
    cpds = {str(c.variable): c for c in model.get_cpds()}
    states = tuple(tuple(str(s) for s in cpds[v].state_names[v]) for v in names)
    card = np.array([len(s) for s in states], np.int64)
    parent_names, tables = [], []
    parent_ptr, parents, strides, cpt_ptr, cum = [0], [], [], [0], []
    h = hashlib.sha256()
    for v in names:
        cpd = cpds[v]
        pars = tuple(str(p) for p in cpd.variables[1:])
        for p in pars:
            if tuple(str(s) for s in cpd.state_names[p]) != states[index[p]]:
                raise ValueError(f"the CPT of {v!r} orders the states of parent {p!r} as "
                                 f"{cpd.state_names[p]}, its own CPT as {list(states[index[p]])}.")
        values = np.asarray(cpd.get_values(), dtype=np.float64)
        if not np.all(np.isfinite(values)) or values.min() < 0 or not np.allclose(
                values.sum(axis=0), 1.0, rtol=0, atol=1e-9):
            raise ValueError(f"the CPT of {v!r} must hold finite non-negative "
                             f"probabilities whose columns sum to 1.")
        pcard = [int(card[index[p]]) for p in pars]
        stride = np.cumprod([1] + pcard[::-1])[:-1][::-1] if pars else []
        parents += [index[p] for p in pars]
        strides += [int(s) for s in stride]
        parent_ptr.append(len(parents))
        c = np.cumsum(values.T, axis=1)         # one row per configuration
        c[:, -1] = 1.0
        cum.append(c.ravel())
        cpt_ptr.append(cpt_ptr[-1] + c.size)
        parent_names.append(pars)
        tables.append(values)
        h.update(repr((v, states[index[v]], pars, values.shape)).encode())
        h.update(np.ascontiguousarray(values, dtype="<f8").tobytes())
    import networkx as nx
    sub = nx.DiGraph()
    sub.add_nodes_from(range(len(names)))
    sub.add_edges_from((index[p], i) for i, pars in enumerate(parent_names) for p in pars)
    order = np.array(list(nx.lexicographical_topological_sort(sub)), np.int64)
    return _Compiled(names, states, tuple(parent_names), tuple(tables), order, card,
                     np.array(parent_ptr, np.int64), np.array(parents, np.int64),
                     np.array(strides, np.int64), np.array(cpt_ptr, np.int64),
                     np.concatenate(cum).astype(np.float64), h.hexdigest())


#: Compiled networks of BIF files read in this process, by (file content, class variable):
#: pgmpy's BIF parser takes about a second a network, and ``calibsim run studies/`` loads
#: the same four networks in eight studies. The arrays are never written to.
_FILES: dict = {}


def _compiled_file(path, class_variable: str) -> _Compiled:
    """:func:`read_network` and :func:`_compile` of a BIF file, once per content."""
    path = Path(path)
    if not path.is_file():
        return _compile(read_network(path), class_variable)     # its FileNotFoundError
    key = (hashlib.sha256(path.read_bytes()).hexdigest(), class_variable)
    if key not in _FILES:
        _FILES[key] = _compile(read_network(path), class_variable)
    return _FILES[key]


@dataclass(frozen=True)
class BANSource:
    """Data sets drawn from a discrete Bayesian network by forward sampling.

    Parameters
    ----------
    network : pgmpy DiscreteBayesianNetwork, str or path-like
        The network, or a BIF file read with :func:`read_network`. It is
        compiled once into flat arrays; later changes to a model object do not
        affect the source.
    n_instances : int, default 300
        Instances per data set (>= 1).
    class_variable : str, default "class"
        The node returned as ``y``; every other node is an attribute.

    Attributes
    ----------
    identity : str
        ``"ban(network=<16 hex>, class=..., n_instances=...)"``: the hex digits
        are a SHA-256 of the node names, states, parents and CPT values, so
        different networks never share seeds and the same network read from a
        file or held in memory always does.
    attributes : tuple of str
        Attribute names in column order (natural sort: ``a2`` before ``a10``).
    n_values : ndarray of shape (n_attributes,), int64
        Number of states of every attribute.
    n_classes : int
        Number of states of the class.

    Raises
    ------
    FileNotFoundError
        If ``network`` is a path that does not exist.
    ValueError
        If the network is cyclic, has a node without a CPT, a CPT with negative
        entries or columns not summing to 1, inconsistent state orders, or no
        node named ``class_variable``; if ``n_instances`` < 1.
    TypeError
        If ``network`` is neither a model nor a path.

    Notes
    -----
    State codes are positions in the node's state list (the BIF order); for
    the networks written by :func:`random_ban` state ``"0"`` is code 0.

    Examples
    --------
    >>> from calibsim.sources import random_ban
    >>> src = BANSource(random_ban(0, n_attributes=4, n_arcs=2), n_instances=5)
    >>> X, y = src.sample(rng=1)
    >>> X.shape, y.shape, X.dtype.name, src.n_classes
    ((5, 4), (5,), 'int64', 2)
    """

    network: object = field(compare=False)
    n_instances: int = 300
    class_variable: str = CLASS
    _net: _Compiled = field(init=False, repr=False, compare=False)
    _digest: str = field(init=False, repr=False)

    def __post_init__(self):
        check_int("n_instances", self.n_instances, min_value=1)
        if not isinstance(self.class_variable, str):
            raise TypeError(f"`class_variable` must be a str; got {self.class_variable!r}.")
        net = self.network
        net = (_compiled_file(net, self.class_variable) if isinstance(net, (str, Path))
               else _compile(net, self.class_variable))
        object.__setattr__(self, "_net", net)
        object.__setattr__(self, "_digest", net.digest)

    @property
    def identity(self) -> str:
        """Canonical description used to key the source's random streams."""
        return (f"ban(network={self._digest[:16]}, class={self.class_variable!r}, "
                f"n_instances={self.n_instances})")

    @property
    def attributes(self) -> tuple:
        return self._net.names[:-1]

    @property
    def n_values(self) -> np.ndarray:
        return self._net.card[:-1].copy()

    @property
    def n_classes(self) -> int:
        return int(self._net.card[-1])

    @property
    def model(self):
        """The network as a new pgmpy ``DiscreteBayesianNetwork`` (from the compiled CPTs)."""
        DiscreteBayesianNetwork, TabularCPD, _, _ = _pgmpy()
        net = self._net
        model = DiscreteBayesianNetwork()
        model.add_nodes_from(net.names)
        model.add_edges_from((p, v) for v, pars in zip(net.names, net.parent_names)
                             for p in pars)
        st = dict(zip(net.names, (list(s) for s in net.states)))
        index = {v: i for i, v in enumerate(net.names)}
        model.add_cpds(*[TabularCPD(v, int(net.card[i]), net.tables[i], evidence=list(pars) or None,
                                    evidence_card=[int(net.card[index[p]]) for p in pars] or None,
                                    state_names={u: st[u] for u in [v, *pars]})
                         for i, (v, pars) in enumerate(zip(net.names, net.parent_names))])
        return model

    def joint_probability(self, X) -> np.ndarray:
        """Exact ``P(x, class = c)`` of attribute rows under the network.

        The product of every node's CPT entry at the row's values, once for each class
        value; so ``P(class = c | x)`` is a row divided by its sum, and over every
        attribute configuration the rows sum to 1. The coverage analysis's drawn truth
        (:mod:`calibsim.engine._truth`) weighs each configuration's correctness by it.

        Parameters
        ----------
        X : array_like of shape (m, n_attributes), int
            Attribute state codes (as :meth:`sample` returns them).

        Returns
        -------
        ndarray of shape (m, n_classes), float64
            Probabilities in [0, 1].

        Raises
        ------
        ValueError
            If ``X`` is not 2-D with ``n_attributes`` columns of codes in
            ``0 .. n_values - 1``.

        Examples
        --------
        >>> from calibsim.sources import random_ban
        >>> src = BANSource(random_ban(0, n_attributes=3, n_arcs=1))
        >>> X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)])
        >>> p = src.joint_probability(X)
        >>> p.shape, round(float(p.sum()), 12)
        ((8, 2), 1.0)
        """
        net = self._net
        X = np.asarray(X)
        n_att = len(net.names) - 1
        if X.ndim != 2 or X.shape[1] != n_att or X.dtype.kind not in "iu" or (
                X.size and (X.min() < 0 or np.any(X.max(axis=0) >= net.card[:-1]))):
            raise ValueError(f"`X` must be a 2-D array of {n_att} columns of state codes in "
                             f"0 .. n_values - 1; got shape {X.shape}, dtype {X.dtype}.")
        m, C = X.shape[0], int(net.card[-1])
        values = np.empty((m, C, n_att + 1), np.int64)
        values[:, :, :n_att] = X[:, None, :]
        values[:, :, n_att] = np.arange(C)[None, :]
        out = np.ones((m, C))
        for v, table in enumerate(net.tables):
            cfg = np.zeros((m, C), np.int64)
            for q in range(net.parent_ptr[v], net.parent_ptr[v + 1]):
                cfg += values[:, :, net.parents[q]] * net.strides[q]
            out *= table[values[:, :, v], cfg]
        return out

    def _draw(self, rng, n_instances: int):
        rng = np.random.default_rng(check_random_state("rng", rng, generator=True))
        net = self._net
        u = rng.random((n_instances, len(net.names)))
        values = _forward_sample(net.order, net.card, net.parent_ptr, net.parents, net.strides,
                                 net.cpt_ptr, net.cum, u)
        return np.ascontiguousarray(values[:, :-1]), values[:, -1].copy()

    def sample(self, rng=None) -> tuple[np.ndarray, np.ndarray]:
        """Draw one data set of ``n_instances`` instances.

        Parameters
        ----------
        rng : None, int, SeedSequence or Generator
            Source of randomness, normalised with ``numpy.random.default_rng``.
            Draws one array of uniforms of shape (n_instances, n_attributes + 1):
            column j drives attribute j, the last column the class.

        Returns
        -------
        X : ndarray of shape (n_instances, n_attributes), int64
            Attribute state codes, C-contiguous.
        y : ndarray of shape (n_instances,), int64
            Class state codes.
        """
        return self._draw(rng, self.n_instances)
