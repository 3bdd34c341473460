"""The package's layout: a public API at the top, and no import circle among the modules.

The walk reads every ``import`` statement of every module of calibsim (at any depth,
function-level imports included) and resolves it to the module it names; a circle is a
strongly connected component of more than one module.
"""

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import calibsim

ROOT = Path(calibsim.__file__).parent


def _modules() -> dict:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(modules: dict) -> dict:
    """Module -> the calibsim modules its import statements name."""
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in modules:
                        targets.add(sub)
                    elif target in modules:
                        targets.add(target)
        targets.discard(name)
        graph[name] = targets
    return graph


def _circles(graph: dict) -> list:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_no_import_circle():
    graph = _imports(_modules())
    assert len(graph) > 100                       # the walk found the package
    assert _circles(graph) == []


def test_the_walk_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_private_modules_never_import_their_own_package():
    """A package's ``__init__`` re-exports; its private modules import downward."""
    modules = _modules()
    graph = _imports(modules)
    for name, targets in graph.items():
        package = name.rpartition(".")[0]
        if modules[name].name != "__init__.py" and name.rpartition(".")[2].startswith("_"):
            assert package not in targets or package == "calibsim", (name, package)


@pytest.mark.parametrize("name", ["compare", "compare_all", "compare_datasets", "rank",
                                  "calibrate", "calibrate_like", "lookup_df"])
def test_the_everyday_calls_are_at_the_top(name):
    func = getattr(calibsim, name)
    assert callable(func) and inspect.getdoc(func)
    assert name in calibsim.__all__ and name in dir(calibsim)


def test_top_level_names_are_those_of_their_subpackages():
    assert calibsim.compare is importlib.import_module("calibsim.comparison").compare
    assert calibsim.lookup_df is importlib.import_module("calibsim.calibration").lookup_df
    assert calibsim.stats is importlib.import_module("calibsim.stats")
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        calibsim.nonsense


def test_top_level_compare_runs():
    from calibsim.datasets import load_uci
    res = calibsim.compare("naive_bayes", "c45", load_uci("labor"), design="2x5",
                           replicability=None)
    assert 0 <= res.pvalue <= 1 and res.scores.shape == (10, 5)


def test_top_level_has_no_satellite_modules():
    """Beside the packages, the top level holds only public modules and shared helpers."""
    top = sorted(p.stem for p in ROOT.glob("*.py"))
    assert top == ["__init__", "__main__", "_docstrings", "_lazy", "_rng", "_validation",
                   "_version", "measures", "preprocessing"]
