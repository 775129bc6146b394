"""A module-level name defined twice in one module: the second silently replaces the first.
In the detectors a regex of the same name defined twice made an earlier rule use the later
pattern (twelfth pass, a clock-time range); in the tests a test function defined twice under
one name never ran its first body's 22 cases (thirteenth pass)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _twice_defined(path: Path) -> list[str]:
    names: Counter[str] = Counter()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] += 1
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] += 1
    return sorted(n for n, c in names.items() if c > 1 and n != "__all__")


def test_no_module_defines_a_name_twice():
    found = {
        str(p.relative_to(ROOT)): twice
        for folder in ("deid_desktop", "tests", "benchmarks")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if (twice := _twice_defined(p))
    }
    assert found == {}


def test_the_check_finds_a_name_defined_twice(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('import re\n_X = re.compile("a")\ndef test_a():\n    pass\n_X = re.compile("b")\ndef test_a():\n    pass\n')
    assert _twice_defined(module) == ["_X", "test_a"]
