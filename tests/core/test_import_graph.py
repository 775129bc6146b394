"""The packages of ``core`` import one another in one direction only, and none imports Qt.

A cycle between packages (``detect`` importing ``learn`` for the model runtime while ``learn``
imports ``detect`` for its detectors) means no package can be read, tested or replaced on its
own. The graph is read from the source with ``ast``, so an import inside a function counts:
it is a dependency all the same, only a later one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import deid_desktop

PACKAGE_ROOT = Path(deid_desktop.__file__).resolve().parent
CORE = PACKAGE_ROOT / "core"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(path: Path) -> list[str]:
    """Every module named by an import statement in the file, made absolute."""
    name = _module_name(path)
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # "from . import names" imports the submodule ``names``; other names are attributes
            found += [base] + [f"{base}.{a.name}" for a in node.names if _is_module(f"{base}.{a.name}")]
    return found


def _is_module(module: str) -> bool:
    path = PACKAGE_ROOT.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _unit(module: str) -> str | None:
    """The part of ``core`` a module belongs to: ``detect`` for deid_desktop.core.detect.rules.x,
    ``spans`` for deid_desktop.core.spans; None outside core."""
    parts = module.split(".")
    if parts[:2] != ["deid_desktop", "core"] or len(parts) < 3:
        return None
    return parts[2]


def package_graph() -> dict[str, dict[str, list[str]]]:
    """unit -> unit it imports -> the "file imports module" lines that make the edge."""
    graph: dict[str, dict[str, list[str]]] = {}
    for path in sorted(CORE.rglob("*.py")):
        src = _unit(_module_name(path))
        if src is None:  # core/__init__.py
            continue
        graph.setdefault(src, {})
        for target in _imported(path):
            dst = _unit(target)
            if dst is not None and dst != src:
                graph[src].setdefault(dst, []).append(f"{path.relative_to(CORE)} imports {target}")
    return graph


def find_cycle(graph: dict[str, dict[str, list[str]]]) -> list[str] | None:
    """One cycle as a list of units (first == last), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def _describe(graph: dict[str, dict[str, list[str]]], cycle: list[str]) -> str:
    lines = [" -> ".join(cycle)]
    for a, b in zip(cycle, cycle[1:]):
        lines += [f"  {a} -> {b}: {why}" for why in graph[a][b][:3]]
    return "\n".join(lines)


def test_the_packages_of_core_import_one_another_without_a_cycle():
    graph = package_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle between core packages:\n" + _describe(graph, cycle)


def test_the_model_runtime_sits_below_detection_and_training():
    # detect runs models and learn trains them, both through core.models; the runtime itself
    # must know neither, or the cycle comes back one level down.
    graph = package_graph()
    assert "models" in graph
    assert not {"detect", "learn", "surrogates", "store", "pipeline"} & set(graph["models"]), graph["models"]
    assert "learn" not in graph["detect"], graph["detect"].get("learn")


def test_core_never_imports_qt():
    qt = []
    for path in sorted(CORE.rglob("*.py")):
        qt += [f"{path.relative_to(CORE)} imports {m}" for m in _imported(path) if m.split(".")[0] in {"PySide6", "shiboken6", "PyQt5", "PyQt6"}]
    assert qt == []


def test_the_cycle_finder_names_a_cycle():
    # the test above is only as good as this: a two-package loop is found and named
    graph = {"detect": {"learn": ["detect/x.py imports deid_desktop.core.learn.y"]}, "learn": {"detect": ["learn/y.py imports deid_desktop.core.detect.x"]}, "spans": {}}
    assert find_cycle(graph) == ["detect", "learn", "detect"]
    assert "detect/x.py imports deid_desktop.core.learn.y" in _describe(graph, ["detect", "learn", "detect"])
    assert find_cycle({"a": {"b": []}, "b": {}}) is None


def test_the_graph_resolves_relative_and_late_imports():
    # "from ..models.alignment import ..." at the top and "from ..models.hf import ..." inside
    # a function of detect/transformer.py both count
    why = package_graph()["detect"]["models"]
    assert "detect/transformer.py imports deid_desktop.core.models.alignment" in why
    assert "detect/transformer.py imports deid_desktop.core.models.hf" in why
