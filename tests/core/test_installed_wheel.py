"""An installed wheel works without the checkout: it carries the shipped resources, keeps
models in the user's data folder, and de-identifies a document (rules only until a model is
built, which it says with the installed command's name)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from deid_desktop.core.paths import PROJECT_DIR

pytestmark = pytest.mark.skipif(not (PROJECT_DIR / "setup.py").is_file(), reason="needs the source tree")


# the checkout's own folders, left out at the top only: deid_desktop/core/models is code
_TOP_LEVEL_ONLY = {".venv", ".git", "models", "build", "dist", "tests", "docs", "benchmarks"}
_ANYWHERE = shutil.ignore_patterns("*.egg-info", "__pycache__")


def _not_shipped(folder: str, names: list[str]) -> set[str]:
    ignored = set(_ANYWHERE(folder, names))
    if Path(folder) == PROJECT_DIR:
        ignored |= _TOP_LEVEL_ONLY & set(names)
    return ignored


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The wheel built from this tree, unpacked as pip would put it in site-packages."""
    root = tmp_path_factory.mktemp("wheel")
    build = root / "build-src"
    # Build from a copy so the checkout gets no build/ or egg-info folders.
    shutil.copytree(PROJECT_DIR, build, ignore=_not_shipped)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(root / "dist"), str(build)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (root / "dist").glob("deid_desktop-*.whl")
    site = root / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    return site


def _run(site: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEID_")}
    env.update(PYTHONPATH=str(site), XDG_DATA_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "deid_desktop.cli", *args], cwd=home, env=env, capture_output=True, text=True, timeout=240)


def test_the_wheel_carries_the_shipped_resources(installed):
    res = installed / "deid_desktop" / "_resources"
    for part in ("ensembles/default.toml", "templates/splits.toml", "guards/clinical_terms.txt", "samples/clinic_note.txt"):
        assert (res / part).is_file(), part


def test_an_installed_app_deidentifies_a_note_without_the_checkout(installed, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    note = home / "note.txt"
    note.write_text(
        "Patient: Mr Daniel Ashworth-Reid  DOB: 17/02/1984\nNHS No: 943 476 5919\n"
        "Seen by Dr Fiona McAllister on 21/03/2024.\n",
        encoding="utf-8",
    )
    proc = _run(installed, home, "deidentify", str(note), "--out", str(home / "out"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    # no model in the user's data folder yet: rules only, and the message names the command
    assert "deid-desktop build-model" in proc.stderr and "make model" not in proc.stderr
    out = (home / "out" / "note.deid.txt").read_text(encoding="utf-8")
    for phi in ("Ashworth-Reid", "17/02/1984", "943 476 5919", "McAllister", "21/03/2024"):
        assert phi not in out
    assert out.startswith("Patient: Mr ")
    report = json.loads((home / "out" / "deid_report.json").read_text(encoding="utf-8"))
    assert [f["status"] for f in report["files"]] == ["ok"]
    assert (home / "deid-desktop" / "surrogate.key").is_file()  # the key lives in the user's data folder


def test_an_installed_app_writes_a_synthetic_corpus_from_its_own_templates(installed, tmp_path):
    # The corpus generator (which build-model trains on) found its templates beside the
    # checkout's package only, so synth and build-model failed from an installed wheel.
    home = tmp_path / "home"
    home.mkdir()
    proc = _run(installed, home, "synth", "--n", "3", "--out", str(home / "corpus.jsonl"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    docs = [json.loads(line) for line in (home / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(docs) == 3 and all(d["text"] and d["spans"] for d in docs)
