"""The package's layout: a public API at the top, no import circle among the modules, and
no arrow that climbs a floor.

The walk reads every ``import`` statement of every module of calibsim (at any depth,
function-level imports included) and resolves it to the module it names; a string
constant that names a module of calibsim (``importlib.import_module("calibsim.x")``)
counts as importing it. A circle is a strongly connected component of more than one
module. The rooms (subpackages and top-level modules) stand on floors (:data:`FLOORS`):
a module may import from its own room or from a room on a lower floor, never from one on
a higher floor.
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
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.startswith("calibsim.") and node.value in modules:
                targets.add(node.value)               # a module named by string (importlib)
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
    circles = _circles(graph)
    print(f"{len(circles)} import circles")
    assert circles == []


def test_the_walk_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


#: The floors of the house, low to high: a module may import from its own room or from a
#: room on a lower floor (docs/overview.md). A room is a subpackage or a top-level module
#: of calibsim (``calibsim`` itself is the top-level ``__init__``, which lazily exposes
#: all).
FLOORS = {
    **dict.fromkeys(["_version", "_docstrings", "_validation", "_rng", "_lazy"], 0),
    **dict.fromkeys(["datasets", "learners", "preprocessing", "metrics"], 1),
    **dict.fromkeys(["evaluate", "sources", "stats", "measures"], 2),
    **dict.fromkeys(["schemes", "calibration", "plotting", "reports", "tuning"], 3),
    "ranking": 4,
    "papers": 5,
    "engine": 6,
    "comparison": 7,
    **dict.fromkeys(["cli", "__main__", "calibsim"], 8),
}

#: Arrows allowed to climb, each ``(module, target)``: none (the test below also fails on
#: an entry that no longer climbs, so the list cannot go stale).
KNOWN_CLIMBS: set = set()


def _room(module: str) -> str:
    """``calibsim.engine.spec`` -> ``engine``; ``calibsim`` -> ``calibsim``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _climbs(graph: dict, floors: dict) -> list:
    """Every arrow to a room on a higher floor, as ``(module, target, floor of the module,
    floor of the target)``, sorted; a room without a floor raises ``KeyError`` naming it."""
    out = []
    for name, targets in graph.items():
        for target in targets:
            a, b = _room(name), _room(target)
            if a == b:
                continue
            for room in (a, b):
                if room not in floors:
                    raise KeyError(f"room {room!r} (of {name} -> {target}) has no floor: "
                                   "give it one in FLOORS")
            if floors[b] > floors[a]:
                out.append((name, target, floors[a], floors[b]))
    return sorted(out)


def test_no_arrow_climbs_a_floor():
    graph = _imports(_modules())
    assert len(graph) > 100
    climbs = _climbs(graph, FLOORS)
    unknown = [f"{m} (floor {fa}) imports {t} (floor {ft})"
               for m, t, fa, ft in climbs if (m, t) not in KNOWN_CLIMBS]
    print(f"{len(climbs)} arrows climb a floor, {len(unknown)} not in KNOWN_CLIMBS")
    assert unknown == []
    stale = sorted(KNOWN_CLIMBS - {(m, t) for m, t, _, _ in climbs})
    assert stale == [], f"these arrows no longer climb: take them out of KNOWN_CLIMBS: {stale}"


def test_the_walk_finds_a_climbing_arrow():
    graph = {"calibsim.stats._a": {"calibsim.plotting._b", "calibsim._validation"},
             "calibsim.plotting._b": {"calibsim.stats"},
             "calibsim.stats": {"calibsim.stats._a"},
             "calibsim.engine.x": {"calibsim.papers", "calibsim.engine.y"}}
    floors = {"_validation": 0, "stats": 2, "plotting": 3, "papers": 5, "engine": 6}
    assert _climbs(graph, floors) == [("calibsim.stats._a", "calibsim.plotting._b", 2, 3)]
    with pytest.raises(KeyError, match="room 'nowhere'"):
        _climbs({"calibsim.nowhere": {"calibsim.stats"}}, floors)


def test_a_module_named_by_string_counts_as_imported(tmp_path):
    pkg = tmp_path / "calibsim"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low" / "__init__.py").write_text(
        "import importlib\n\ndef f():\n    return importlib.import_module('calibsim.high')\n")
    (pkg / "high.py").write_text("from .low import f\n")
    modules = {"calibsim": pkg / "__init__.py", "calibsim.low": pkg / "low" / "__init__.py",
               "calibsim.high": pkg / "high.py"}
    graph = _imports(modules)
    assert graph["calibsim.low"] == {"calibsim.high"}
    assert _circles(graph) == [["calibsim.high", "calibsim.low"]]


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
