"""The bundled app (packaging/, `make bundle`) on a machine set up like a user's: no Python
on PATH, a fresh home, XDG folders of its own. It de-identifies the samples from the command
line (two worker processes, as a frozen app must spawn them), opens them in the window
offscreen, detects, exports and shows the release certificate, and reads nothing outside its
own folder, the user's data folders, the documents it was given and the system's libraries.

Building the bundle takes longer than the rest of the suite on a 2-core machine
(packaging/README.md), so the test runs only when asked:
- ``DEID_BUNDLE_DIR=dist/deid-desktop``: use a bundle built already, or
- ``DEID_TEST_BUNDLE=1``: build one first (packaging/build-bundle.sh, with the models of
  ``DEID_MODELS`` or ``models/`` when there are any).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.bundle]

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ("clinic_note.txt", "phone_message.txt", "referral_letter.docx", "discharge_summary.pdf")
# Invented PHI of the samples (resources/samples/README.md) that no output may keep.
SAMPLE_PHI = {"clinic_note.txt": ("943 476 5919",)}

# Read by any program on Linux (the loader, libc's locale, time zone and name-service files,
# OpenSSL's configuration and CA list, which the ssl module loads at import though nothing
# connects), by Qt and ReportLab for fonts and MIME types, and by psutil's container check;
# none of them is Python, a checkout or a home folder.
SYSTEM_PREFIXES = (
    "/usr/lib/", "/lib/", "/lib64/", "/usr/lib64/", "/etc/ld.so.", "/etc/fonts/", "/usr/share/fonts/",
    "/usr/local/share/fonts", "/usr/share/fontconfig/", "/var/cache/fontconfig/", "/etc/localtime",
    "/usr/share/zoneinfo/", "/usr/share/locale/", "/usr/lib/locale/", "/etc/locale.alias", "/usr/share/X11/",
    "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/hosts", "/etc/resolv.conf",
    "/etc/gai.conf", "/etc/ssl/", "/etc/os-release", "/usr/lib/os-release", "/etc/mime.types",
    "/usr/share/mime/", "/etc/machine-id", "/var/lib/dbus/machine-id", "/.dockerenv", "/run/.containerenv",
    "/run/systemd/container", "/proc/", "/sys/", "/dev/", "/tmp/",
    # Tesseract, the system's OCR program (packaging/install-sysdeps.sh; the .deb recommends
    # it): the app runs it on pictures and scanned pages, and it reads its language data
    "/usr/bin/tesseract", "/usr/share/tesseract-ocr/",
)
# Folders only looked at (XDG_DATA_DIRS, the root), never read from.
SYSTEM_DIRS = {"/", "/usr/share", "/usr/local/share"}
# Anything that would mean the bundle is not self-contained, even inside an allowed prefix.
NOT_SELF_CONTAINED = re.compile(r"site-packages|dist-packages|/python3\.\d+/|\.pyenv|/\.venv/|\.local/lib/python")


def _built_bundle(tmp_path_factory) -> Path:
    given = os.environ.get("DEID_BUNDLE_DIR")
    if given:
        app = Path(given).resolve()
        if not (app / "deid-desktop").is_file():
            pytest.fail(f"DEID_BUNDLE_DIR={given} holds no deid-desktop executable")
        return app
    if os.environ.get("DEID_TEST_BUNDLE") != "1":
        pytest.skip("building the bundle takes minutes: set DEID_TEST_BUNDLE=1 (or DEID_BUNDLE_DIR to a built one)")
    out = tmp_path_factory.mktemp("bundle-build")
    models = Path(os.environ.get("DEID_MODELS") or ROOT / "models")
    env = {**os.environ, "PY": sys.executable, "DIST": str(out / "dist"), "WORK": str(out / "work"), "MODELS": str(models)}
    if not (models / "minilm-balanced" / "CURRENT").is_file():
        env["BUNDLE_NO_MODELS"] = "1"  # rules-only: still a bundle, still self-contained
    subprocess.run(["bash", str(ROOT / "packaging" / "build-bundle.sh")], env=env, check=True, timeout=3600)
    return out / "dist" / "deid-desktop"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    return _built_bundle(tmp_path_factory)


@pytest.fixture
def user(tmp_path):
    """A user's machine: a home, XDG folders, a runtime folder, a temp folder and a current
    folder of its own, and a PATH without any Python. The home folder holds decoys where the
    app's data would be without XDG, so a lookup there is seen."""
    dirs = {k: tmp_path / k for k in ("home", "data", "config", "cache", "runtime", "tmp", "cwd", "in", "out")}
    for d in dirs.values():
        d.mkdir(mode=0o700)
    for decoy in (".local/share/deid-desktop/models", ".config/deid-desktop", ".cache/deid-desktop"):
        (dirs["home"] / decoy).mkdir(parents=True)
    return dirs


def _env(user: dict[str, Path]) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(user["home"]),
        "XDG_DATA_HOME": str(user["data"]),
        "XDG_CONFIG_HOME": str(user["config"]),
        "XDG_CACHE_HOME": str(user["cache"]),
        "XDG_RUNTIME_DIR": str(user["runtime"]),
        "TMPDIR": str(user["tmp"]),
        "QT_QPA_PLATFORM": "offscreen",
        "LANG": "C.UTF-8",
    }


def _run(bundle: Path, user: dict[str, Path], args: list[str], trace: Path) -> subprocess.CompletedProcess:
    """Runs the bundled executable, under strace when the machine has it, else with the
    bundle's own audit hook (packaging/rthook_deid.py) recording what it opens."""
    env = _env(user)
    cmd = [str(bundle / "deid-desktop"), *args]
    if shutil.which("strace"):
        # -z: successful calls only (a lookup that found nothing read nothing)
        cmd = ["strace", "-f", "-qq", "-z", "-y", "-e", "trace=%file", "-o", str(trace), *cmd]
    else:
        env["DEID_AUDIT_OPENS"] = str(trace)
    return subprocess.run(cmd, env=env, cwd=user["cwd"], capture_output=True, text=True, timeout=1500)


_CALL = re.compile(r'^(?:\d+\s+)?(\w+)\((?:(AT_FDCWD|\d+)(?:<([^>]*)>)?,\s*)?"([^"]*)"')


def _paths(trace: Path, cwd: Path) -> set[str]:
    """Every existing path the program opened, looked at or ran (strace), or opened (audit
    log). A lookup that found nothing read nothing: the loader's search of the build
    machine's library path, ReportLab's font folders and settings file, the mime.types
    files of other systems. Calls on an open descriptor were counted when it was opened."""
    found = set()
    for line in trace.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("/"):  # the audit hook's log: each path the app tried to open
            if os.path.exists(line):
                found.add(os.path.normpath(line))
            continue
        m = _CALL.match(line)
        if not m or re.search(r"= -1 E[A-Z]+", line):
            continue
        _, _dirfd, dirpath, name = m.groups()
        if not name:
            continue
        base = Path(dirpath) if dirpath else cwd
        found.add(os.path.normpath(base / name))
    return found


def _outside(paths: set[str], bundle: Path, user: dict[str, Path]) -> list[str]:
    """The paths that are neither the bundle's, the user's (XDG folders, the current folder,
    the documents given) nor the system's."""
    sandbox = user["home"].parent
    own = [str(bundle.resolve())] + [str(user[k]) for k in ("data", "config", "cache", "runtime", "tmp", "cwd", "in", "out")]
    bad = []
    for p in sorted(paths):
        if any(p == o or p.startswith(o + "/") for o in own):
            continue
        if p == str(sandbox):  # the folder that holds the user's folders, met resolving their paths
            continue
        if p.startswith(str(sandbox) + "/"):
            bad.append(p)  # the home folder or anything else of the user's
        elif NOT_SELF_CONTAINED.search(p):
            bad.append(p)
        elif p not in SYSTEM_DIRS and not any(p.startswith(s) or p == s.rstrip("/") for s in SYSTEM_PREFIXES):
            bad.append(p)
    return bad


def _bundle_listing(bundle: Path) -> set[str]:
    return {str(p.relative_to(bundle)) for p in bundle.rglob("*")}


def test_the_bundle_deidentifies_the_samples_with_two_workers_reading_only_its_own_files(bundle, user):
    for name in SAMPLES:
        shutil.copy(bundle / "_internal" / "deid_desktop" / "_resources" / "samples" / name, user["in"] / name)
    before = _bundle_listing(bundle)
    trace = user["home"].parent / "cli.trace"

    done = _run(bundle, user, ["deidentify", str(user["in"]), "--out", str(user["out"]), "--workers", "2"], trace)

    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads((user["out"] / "deid_report.json").read_text(encoding="utf-8"))
    assert report, "no report"
    outputs = [p for p in user["out"].rglob("*") if p.is_file() and not p.name.startswith("deid_report")]
    assert len(outputs) >= len(SAMPLES), sorted(p.name for p in outputs)
    text_out = "".join(p.read_text(encoding="utf-8", errors="replace") for p in outputs if p.suffix == ".txt")
    for values in SAMPLE_PHI.values():
        for v in values:
            assert v not in text_out
    # the surrogate key is made in the user's data folder, owner-only
    key = user["data"] / "deid-desktop" / "surrogate.key"
    assert key.is_file() and (key.stat().st_mode & 0o077) == 0
    assert _bundle_listing(bundle) == before, "the bundle wrote into its own folder"
    assert _outside(_paths(trace, user["home"].parent), bundle, user) == []


def test_the_bundled_window_opens_detects_and_exports_offscreen(bundle, user):
    for name in SAMPLES:
        shutil.copy(bundle / "_internal" / "deid_desktop" / "_resources" / "samples" / name, user["in"] / name)
    shot = user["out"] / "certificate.png"
    trace = user["home"].parent / "gui.trace"

    done = _run(bundle, user, ["gui", "--open", str(user["in"]), "--view", "certificate",
                               "--size", "1100x700", "--screenshot", str(shot)], trace)

    assert done.returncode == 0, done.stderr[-3000:]
    assert shot.is_file() and shot.stat().st_size > 10_000
    # the window's workspace and settings went to the XDG folders, nowhere else
    assert (user["data"] / "deid-desktop" / "workspace.sqlite").is_file()
    assert list(user["config"].rglob("*.ini")), "no settings file under XDG_CONFIG_HOME"
    assert _outside(_paths(trace, user["home"].parent), bundle, user) == []
