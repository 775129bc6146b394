"""An installed wheel works without the checkout: it carries the shipped resources, keeps
models in the user's data folder, and de-identifies a document (rules only until a model is
built, which it says with the installed command's name)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import pytest

from deid_desktop.core.paths import PROJECT_DIR

pytestmark = pytest.mark.skipif(not (PROJECT_DIR / "setup.py").is_file(), reason="needs the source tree")


# the checkout's own folders, left out at the top only: deid_desktop/core/models is code
_TOP_LEVEL_ONLY = {".venv", ".git", "models", "build", "dist", "tests", "docs", "benchmarks"}
_ANYWHERE = shutil.ignore_patterns("*.egg-info", "__pycache__", "*.pyc")


def _not_shipped(folder: str, names: list[str]) -> set[str]:
    ignored = set(_ANYWHERE(folder, names))
    if Path(folder) == PROJECT_DIR:
        ignored |= _TOP_LEVEL_ONLY & set(names)
    return ignored


@dataclass(frozen=True)
class Installed:
    venv: Path
    package: Path  # deid_desktop inside the venv's site-packages


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    """The wheel built from this tree, installed by pip into a fresh virtual environment.

    The environment borrows the project environment's site-packages for the dependencies
    through a .pth line, which adds the folder but not the .pth files in it, so the editable
    install of the checkout is not on its path: what runs is what the wheel carries."""
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
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], check=True, capture_output=True, text=True).stdout.strip())
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "project-deps.pth").write_text("".join(f"{d}\n" for d in sorted(deps)), encoding="utf-8")
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True)
    return Installed(venv, site / "deid_desktop")


def _run(inst: Installed, home: Path, *args: str, timeout: int = 240) -> subprocess.CompletedProcess:
    """The installed ``deid-desktop`` command, run outside the checkout with a fresh data folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEID_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["XDG_DATA_HOME"] = str(home)
    return subprocess.run([inst.venv / "bin" / "deid-desktop", *args], cwd=home, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_installed_command_runs_the_wheels_copy_not_the_checkout(installed, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [installed.venv / "bin" / "python", "-c", "import deid_desktop.core.paths as p; print(p.__file__); print(p.in_checkout())"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
    )
    where, in_checkout = proc.stdout.split()
    assert Path(where).is_relative_to(installed.package) and in_checkout == "False"


def test_the_wheel_carries_the_shipped_resources(installed):
    res = installed.package / "_resources"
    for part in ("ensembles/default.toml", "templates/splits.toml", "guards/clinical_terms.txt", "samples/clinic_note.txt"):
        assert (res / part).is_file(), part
    # every shipped file, not only these: ensembles, training configs, label maps, lists
    shipped = {p.relative_to(PROJECT_DIR / "resources") for p in (PROJECT_DIR / "resources").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    carried = {p.relative_to(res) for p in res.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert shipped - carried == set()


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


@pytest.mark.slow
def test_an_installed_app_builds_a_model_into_the_users_data_folder_and_then_uses_it(installed, tmp_path):
    # build-model reads its training config and templates through paths.resource, trains the
    # base encoder that comes from site-packages and saves into the user's data folder; the
    # smallest run it accepts (one training and one validation document, one epoch) proves
    # the plumbing, not the model.
    home = tmp_path / "home"
    home.mkdir()
    # The wheel carries the hand-written training notes the shipped configs name; the run
    # below trains on one small note instead of all of them, to stay quick.
    shipped = sorted((installed.package / "_resources" / "training" / "notes").glob("*.txt"))
    assert len(shipped) >= 100
    notes = home / "notes"
    notes.mkdir()
    (notes / "101_log.txt").write_text("{{NAME|kavitha}}: called back re meds\n", encoding="utf-8")
    proc = _run(installed, home, "build-model", "--members", "balanced", "--docs", "1", "--val-docs", "1", "--epochs", "1",
                "--threads", "2", "--notes", str(notes), timeout=280)
    assert proc.returncode == 0, proc.stderr[-2000:]
    version = home / "deid-desktop" / "models" / "minilm-balanced" / "v1"
    assert (version / "manifest.json").is_file()
    manifest = json.loads((version / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["config"]["selection"] == "balanced" and manifest["config"]["notes"] == str(notes)
    assert (home / "deid-desktop" / "models" / "minilm-balanced" / "CURRENT").read_text(encoding="utf-8").strip() == "v1"
    # a second run with --if-missing finds it where the detector looks for it
    again = _run(installed, home, "build-model", "--members", "balanced", "--if-missing")
    assert again.returncode == 0 and "nothing to build" in again.stderr
