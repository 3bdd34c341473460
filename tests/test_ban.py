"""Tests of the Bayesian-network sources (calibsim.sources._ban)."""

import json
import warnings
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from calibsim.sources import BANSource, null_ban, random_ban, read_network, write_network
from calibsim.sources._ban import _pgmpy

NETWORKS = Path(__file__).resolve().parents[1] / "studies" / "networks"


def _exact(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        from pgmpy.inference import VariableElimination
    return VariableElimination(model)


def _slow_sample(model, names, u):
    """Reference forward sampler on pgmpy's CPDs: plain Python, one instance at a time."""
    index = {v: i for i, v in enumerate(names)}
    out = np.full(u.shape, -1, np.int64)
    order = list(nx.topological_sort(model))
    for i in range(u.shape[0]):
        for v in order:
            cpd = model.get_cpds(v)
            values = cpd.get_values()
            pars = cpd.variables[1:]
            col = (np.ravel_multi_index([out[i, index[p]] for p in pars], cpd.cardinality[1:])
                   if pars else 0)
            cum = np.cumsum(values[:, col])
            out[i, index[v]] = min(int(np.searchsorted(cum, u[i, index[v]], side="right")),
                                   len(cum) - 1)
    return out


def _three_state_model():
    """A non-binary network: class (3 states) -> a0 (3), class, a0 -> a1 (2), a1 -> a2 (3)."""
    DiscreteBayesianNetwork, TabularCPD, _, _ = _pgmpy()
    model = DiscreteBayesianNetwork([("class", "a0"), ("class", "a1"), ("a0", "a1"),
                                     ("a1", "a2")])
    st = {"class": ["x", "y", "z"], "a0": ["p", "q", "r"], "a1": ["n", "m"], "a2": ["s", "t", "u"]}
    g = np.random.default_rng(5)

    def table(card, n_cfg):
        return g.dirichlet(np.ones(card), n_cfg).T

    model.add_cpds(
        TabularCPD("class", 3, [[0.2], [0.5], [0.3]], state_names={"class": st["class"]}),
        TabularCPD("a0", 3, table(3, 3), evidence=["class"], evidence_card=[3],
                   state_names={k: st[k] for k in ("a0", "class")}),
        TabularCPD("a1", 2, table(2, 9), evidence=["class", "a0"], evidence_card=[3, 3],
                   state_names={k: st[k] for k in ("a1", "class", "a0")}),
        TabularCPD("a2", 3, table(3, 2), evidence=["a1"], evidence_card=[2],
                   state_names={k: st[k] for k in ("a2", "a1")}))
    return model


# ---------------------------------------------------------------------------- sampler


def test_kernel_equals_slow_reference_sampler():
    for model in (random_ban(3, n_attributes=6, n_arcs=6, max_parents=3, concentration=0.5),
                  _three_state_model()):
        src = BANSource(model, n_instances=300)
        u = np.random.default_rng(11).random((300, len(src.attributes) + 1))
        X, y = src.sample(np.random.default_rng(11))
        ref = _slow_sample(model, list(src.attributes) + ["class"], u)
        assert np.array_equal(X, ref[:, :-1]) and np.array_equal(y, ref[:, -1])


def test_sampler_matches_exact_marginals_within_monte_carlo_error():
    # 200,000 instances; every single-variable marginal and the joint of every arc's two
    # ends plus (class, a0) against pgmpy's exact VariableElimination, at 4 binomial SEs.
    model = random_ban(2024, n_attributes=10, n_arcs=10, max_parents=2, concentration=0.7)
    src = BANSource(model, n_instances=200_000)
    X, y = src.sample(np.random.SeedSequence(99))
    data = dict(zip(src.attributes, X.T)) | {"class": y}
    ve = _exact(model)
    n = y.size
    for v in data:
        p = ve.query([v], show_progress=False).values[1]
        assert abs(np.mean(data[v] == 1) - p) < 4 * np.sqrt(p * (1 - p) / n), v
    pairs = [(u, v) for u, v in model.edges() if u != "class"] + [("class", "a0")]
    assert len(pairs) == 11
    for u, v in pairs:
        f = ve.query([u, v], joint=True, show_progress=False)
        p = f.values[1, 1]          # state "1" of both (symmetric in the order)
        est = np.mean((data[u] == 1) & (data[v] == 1))
        assert abs(est - p) < 4 * np.sqrt(p * (1 - p) / n), (u, v)


def test_non_binary_marginals_within_monte_carlo_error():
    model = _three_state_model()
    src = BANSource(model, n_instances=100_000)
    X, y = src.sample(7)
    ve = _exact(model)
    assert src.n_classes == 3 and list(src.n_values) == [3, 2, 3]
    for v, col in zip(("a0", "a1", "a2", "class"), (X[:, 0], X[:, 1], X[:, 2], y)):
        p = ve.query([v], show_progress=False).values
        se = np.sqrt(p * (1 - p) / col.size)
        assert np.all(np.abs(np.bincount(col, minlength=p.size) / col.size - p) < 4 * se)


def test_sample_shapes_dtypes_and_determinism():
    src = BANSource(random_ban(0, n_attributes=4, n_arcs=2), n_instances=5)
    X, y = src.sample(np.random.SeedSequence(1))
    X2, y2 = src.sample(np.random.SeedSequence(1))
    assert X.shape == (5, 4) and y.shape == (5,) and X.dtype == y.dtype == np.int64
    assert X.flags.c_contiguous and np.array_equal(X, X2) and np.array_equal(y, y2)
    # regression pins: the generator's stream (network) and the sampler's stream (data)
    assert src.identity == "ban(network=9d34216c3c218537, class='class', n_instances=5)"
    X, y = src.sample(1)
    assert X.tolist() == [[0, 1, 0, 1], [0, 1, 0, 1], [0, 1, 0, 1], [0, 0, 0, 0], [0, 0, 0, 1]]
    assert y.tolist() == [0, 0, 0, 0, 1]


def test_identity_depends_on_cpts_and_size_not_on_object():
    a = random_ban(0, n_arcs=3)
    b = random_ban(1, n_arcs=3)
    assert BANSource(a).identity != BANSource(b).identity
    assert BANSource(a).identity == BANSource(random_ban(0, n_arcs=3)).identity
    assert BANSource(a) == BANSource(random_ban(0, n_arcs=3))
    assert BANSource(a).identity != BANSource(a, n_instances=100).identity
    # the model property rebuilds the same network
    assert BANSource(BANSource(a).model).identity == BANSource(a).identity


# ---------------------------------------------------------------------------- generator


@pytest.mark.parametrize("n_arcs, max_parents, conc", [(0, 2, 1.0), (5, 1, 0.3), (17, 2, 2.0),
                                                        (24, 3, 0.1)])
def test_random_ban_structure_and_cpds(n_arcs, max_parents, conc):
    model = random_ban(n_arcs, n_arcs=n_arcs, max_parents=max_parents, concentration=conc)
    assert nx.is_directed_acyclic_graph(model)
    attrs = [f"a{j}" for j in range(10)]
    assert set(model.nodes()) == set(attrs) | {"class"}
    assert all(model.has_edge("class", a) for a in attrs)
    assert model.in_degree("class") == 0
    inner = [(u, v) for u, v in model.edges() if u != "class"]
    assert len(inner) == n_arcs
    assert max((model.in_degree(a) - 1 for a in attrs)) <= max_parents
    np.testing.assert_array_equal(model.get_cpds("class").get_values().ravel(), [0.5, 0.5])
    for a in attrs:
        values = model.get_cpds(a).get_values()
        assert values.shape == (2, 2 ** model.in_degree(a))
        np.testing.assert_allclose(values.sum(axis=0), 1.0, rtol=0, atol=1e-12)
        k = values[1] * 1000
        assert np.allclose(k, np.round(k), rtol=0, atol=1e-9)
        assert values.min() >= 0.001 and values.max() <= 0.999


def test_random_ban_deterministic_and_max_arcs():
    a, b = random_ban(8, n_arcs=7), random_ban(np.random.default_rng(8), n_arcs=7)
    assert BANSource(a).identity == BANSource(b).identity
    full = random_ban(0, n_attributes=5, n_arcs=10, max_parents=4)   # complete DAG on 5
    assert sum(1 for u, _ in full.edges() if u != "class") == 10


def test_null_ban_attributes_independent_of_class_exactly():
    model = null_ban(4)
    assert list(model.edges()) == []
    ve = _exact(model)
    for j in range(10):
        p0 = ve.query([f"a{j}"], evidence={"class": "0"}, show_progress=False).values
        p1 = ve.query([f"a{j}"], evidence={"class": "1"}, show_progress=False).values
        np.testing.assert_allclose(p0, p1, rtol=0, atol=1e-15)
    np.testing.assert_allclose(ve.query(["class"], show_progress=False).values, [0.5, 0.5])


@pytest.mark.parametrize("kw, err, match", [
    ({"n_arcs": 18}, ValueError, r"`n_arcs` must be <= 17"),
    ({"n_arcs": -1}, ValueError, r"`n_arcs` must be an integer >= 0"),
    ({"n_arcs": 2.0}, TypeError, r"`n_arcs` must be an integer"),
    ({"n_attributes": 0}, ValueError, r"`n_attributes` must be an integer >= 1"),
    ({"concentration": 0}, ValueError, r"`concentration` must be a finite number > 0"),
    ({"concentration": float("inf")}, ValueError, r"`concentration` must be a finite"),
    ({"class_prior": 1.0}, ValueError, r"`class_prior` must lie in \(0, 1\)"),
    ({"decimals": 0}, ValueError, r"`decimals` must be an integer >= 1"),
    ({"max_parents": -1}, ValueError, r"`max_parents` must be an integer >= 0"),
    ({"class_arcs": 1}, TypeError, r"`class_arcs` must be a bool"),
])
def test_random_ban_bad_parameters(kw, err, match):
    with pytest.raises(err, match=match):
        random_ban(0, **kw)


# ---------------------------------------------------------------------------- files


def test_bif_round_trip(tmp_path):
    model = random_ban(5, n_arcs=9, max_parents=3, concentration=0.4)
    path = write_network(model, tmp_path / "sub" / "net.bif")
    back = read_network(path)
    assert set(back.edges()) == set(model.edges())
    for cpd in model.get_cpds():
        other = back.get_cpds(cpd.variable)
        assert list(other.variables) == list(cpd.variables)
        np.testing.assert_array_equal(other.get_values(), cpd.get_values())
    assert BANSource(path).identity == BANSource(model).identity
    a, b = BANSource(path).sample(3), BANSource(model).sample(3)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


_CYCLIC = """network unknown {
}
variable a0 {
    type discrete [ 2 ] { 0, 1 };
}
variable a1 {
    type discrete [ 2 ] { 0, 1 };
}
variable class {
    type discrete [ 2 ] { 0, 1 };
}
probability ( a0 | a1 ) {
    ( 0 ) 0.1, 0.9;
    ( 1 ) 0.7, 0.3;
}
probability ( a1 | a0 ) {
    ( 0 ) 0.1, 0.9;
    ( 1 ) 0.7, 0.3;
}
probability ( class ) {
    table 0.5, 0.5 ;
}
"""


@pytest.mark.parametrize("text, match", [
    ("this is not a network\n", r"not a valid BIF network"),
    ("network x {\n}\nvariable a {\n type discrete [ 2 ] { 0, 1 };\nprobability ( a ) "
     "{ table 0.5 ;\n", r"not a valid BIF network"),
    ("", r"not a valid BIF network"),
    (_CYCLIC, r"directed cycle"),
    (_CYCLIC.replace("( a0 | a1 ) {\n    ( 0 ) 0.1, 0.9;\n    ( 1 ) 0.7, 0.3;",
                     "( a0 ) {\n    table 0.5, 0.6;").replace("0.1, 0.9", "0.2, 0.9", 1),
     r"invalid network|sum"),
], ids=["garbage", "truncated", "empty", "cyclic", "cpt-not-summing-to-1"])
def test_malformed_or_cyclic_bif_rejected(tmp_path, text, match):
    path = tmp_path / "bad.bif"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=match):
        read_network(path)
    if "cycle" in match:               # the source reads files through read_network
        with pytest.raises(ValueError, match=r"bad.bif: its arcs form a directed cycle"):
            BANSource(path)


def test_missing_file_and_bad_source_arguments(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"does not exist"):
        read_network(tmp_path / "nope.bif")
    with pytest.raises(FileNotFoundError, match=r"does not exist"):
        BANSource(tmp_path / "nope.bif")
    model = random_ban(0, n_attributes=3)
    with pytest.raises(TypeError, match=r"`network` must be a pgmpy DiscreteBayesianNetwork"):
        BANSource(42)
    with pytest.raises(ValueError, match=r"`class_variable` 'y' is not a node"):
        BANSource(model, class_variable="y")
    with pytest.raises(ValueError, match=r"`n_instances` must be an integer >= 1"):
        BANSource(model, n_instances=0)
    with pytest.raises(TypeError, match=r"`class_variable` must be a str"):
        BANSource(model, class_variable=1)
    with pytest.raises(TypeError, match=r"`network` must be a pgmpy"):
        write_network("not a model", tmp_path / "x.bif")


def test_cyclic_model_object_rejected():
    DiscreteBayesianNetwork, _, _, _ = _pgmpy()
    model = random_ban(0, n_attributes=3)
    cyclic = DiscreteBayesianNetwork()
    nx.DiGraph.add_edges_from(cyclic, [("a0", "a1"), ("a1", "a0")])   # bypass pgmpy's check
    with pytest.raises(ValueError, match=r"directed cycle"):
        BANSource(cyclic)
    assert BANSource(model).n_classes == 2


# ---------------------------------------------------------------------------- committed networks


@pytest.mark.skipif(not (NETWORKS / "search_log.json").is_file(),
                    reason="networks not searched yet")
def test_committed_networks_valid_and_match_search_log():
    log = json.loads((NETWORKS / "search_log.json").read_text(encoding="utf-8"))
    for label in ("set1", "set2", "set3", "set4"):
        model = read_network(NETWORKS / f"{label}.bif")
        src = BANSource(model)
        assert src.identity == log["sets"][label]["identity"]
        assert src.attributes == tuple(f"a{j}" for j in range(10)) and src.n_classes == 2
        np.testing.assert_array_equal(model.get_cpds("class").get_values().ravel(), [0.5, 0.5])
        if label == "set1":
            assert list(model.edges()) == []
        else:
            assert all(model.has_edge("class", a) for a in src.attributes)


def test_a_network_file_is_parsed_once_per_content(tmp_path, monkeypatch):
    from calibsim.sources import _ban_source
    calls = []
    real = _ban_source.read_network
    monkeypatch.setattr(_ban_source, "read_network", lambda p: calls.append(p) or real(p))
    monkeypatch.setattr(_ban_source, "_FILES", {})
    path = write_network(random_ban(3, n_attributes=4, n_arcs=2), tmp_path / "a.bif")
    first = BANSource(path, n_instances=20)
    second = BANSource(str(path), n_instances=50)
    assert len(calls) == 1 and first.identity.split(",")[0] == second.identity.split(",")[0]
    np.testing.assert_array_equal(first.sample(rng=1)[0], BANSource(random_ban(
        3, n_attributes=4, n_arcs=2), n_instances=20).sample(rng=1)[0])
    write_network(random_ban(4, n_attributes=4, n_arcs=2), path)      # new content: parsed
    third = BANSource(path, n_instances=20)
    assert len(calls) == 2 and third.identity != first.identity
    with pytest.raises(FileNotFoundError):
        BANSource(tmp_path / "missing.bif")


def test_joint_probability_equals_pgmpy_inference():
    """P(x, class) of every configuration, against pgmpy's exact joint (issue 43's drawn
    truth weighs each configuration's correctness by it)."""
    import itertools
    model = _three_state_model()
    src = BANSource(model, n_instances=5)
    names = list(src.attributes) + ["class"]
    joint = _exact(model).query(names, joint=True, show_progress=False)
    configs = np.array(list(itertools.product(*[range(k) for k in src.n_values])))
    got = src.joint_probability(configs)
    assert got.shape == (len(configs), 3) and np.isclose(got.sum(), 1.0)
    order = [joint.variables.index(v) for v in names]
    want = np.transpose(joint.values, order)
    for i, x in enumerate(configs):
        np.testing.assert_allclose(got[i], want[tuple(x)], rtol=1e-12, atol=1e-15)
    with pytest.raises(ValueError, match="`X` must be a 2-D array of 3 columns"):
        src.joint_probability(configs[:, :2])
    with pytest.raises(ValueError, match="state codes in 0 .. n_values - 1"):
        src.joint_probability(configs + 3)
