"""``deid-desktop gui --screenshot`` end to end, in a separate process, offscreen."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import RULES_ONLY
from .samples import write_bad_files, write_pdf, write_txt

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]

# Runs the real CLI entry point; the gui sub-command is registered the way commands.py does.
RUN_CLI = (
    "import sys\n"
    "from deid_desktop import cli\n"
    "from deid_desktop.gui_cli import register\n"
    "cli._EXTRA_COMMANDS.append(register)\n"
    "sys.exit(cli.main(sys.argv[1:]))\n"
)


def run_gui(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"), HF_HUB_OFFLINE="1")
    return subprocess.run(
        [sys.executable, "-c", RUN_CLI, "gui", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )


def _distinct_colours(png: Path) -> tuple[int, int, int]:
    from PIL import Image

    with Image.open(png) as im:
        im = im.convert("RGB")
        colours = im.getcolors(maxcolors=1 << 20) or []
        return im.width, im.height, len(colours)


def test_gui_screenshot_imports_detects_and_saves_the_window(tmp_path):
    src = tmp_path / "cohort"
    write_txt(src / "p001" / "note.txt")
    write_pdf(src / "p002" / "clinic.pdf")
    write_bad_files(src / "p002")
    out = tmp_path / "shot.png"
    ws = tmp_path / "ws.sqlite"
    r = run_gui(tmp_path, "--workspace", str(ws), "--open", str(src), "--ensemble", RULES_ONLY, "--screenshot", str(out), "--size", "1100x720")
    assert r.returncode == 0, r.stderr[-2000:]
    w, h, n_colours = _distinct_colours(out)
    assert (w, h) == (1100, 720)
    assert n_colours > 50  # text, highlights in several colours, widgets: not a blank window

    from deid_desktop.core.store import DocStatus, Workspace

    with Workspace.open(ws, create=False) as workspace:
        rows = {d.name: d for d in workspace.list_documents()}
    assert rows["note.txt"].n_spans > 0 and rows["clinic.pdf"].n_spans > 0
    assert rows["empty.txt"].status == DocStatus.ERROR
    # the screenshot opened the first document of the queue (by name) that has findings
    assert rows["clinic.pdf"].status == DocStatus.IN_REVIEW
    assert rows["note.txt"].status == DocStatus.IN_REVIEW  # the first detected: opened when its detection ended


def test_gui_screenshot_of_pdf_pages_and_a_missing_path(tmp_path):
    pdf = write_pdf(tmp_path / "clinic.pdf")
    out = tmp_path / "pages.png"
    r = run_gui(
        tmp_path, "--workspace", str(tmp_path / "ws.sqlite"), "--open", str(pdf), str(tmp_path / "nowhere"),
        "--ensemble", RULES_ONLY, "--screenshot", str(out), "--view", "pdf",
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "nowhere: no such file or folder" in r.stderr
    assert _distinct_colours(out)[2] > 50


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="xvfb-run is not installed")
def test_gui_screenshot_under_xvfb(tmp_path):
    note = write_txt(tmp_path / "note.txt")
    out = tmp_path / "x11.png"
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"), HF_HUB_OFFLINE="1")
    r = subprocess.run(
        ["xvfb-run", "-a", sys.executable, "-c", RUN_CLI, "gui", "--workspace", str(tmp_path / "ws.sqlite"), "--open", str(note),
         "--ensemble", RULES_ONLY, "--screenshot", str(out), "--size", "1000x700"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert _distinct_colours(out)[:2] == (1000, 700) and _distinct_colours(out)[2] > 50


@pytest.mark.parametrize("view", ["risk", "across", "certificate", "accuracy"])
def test_screenshots_of_the_queue_by_risk_the_list_across_documents_and_a_certificate(qtbot, window, note_file, tmp_path, view):
    """`make screenshots` shows what issue 12 added; each view opens what it names and the
    certificate's export leaves nothing behind."""
    import tempfile

    from PIL import Image

    from deid_desktop.gui.app import take_screenshot

    from .conftest import wait_idle

    window.import_paths([note_file])
    wait_idle(qtbot, window)
    before = set(Path(tempfile.gettempdir()).glob("deid-screenshot-export-*"))
    out = tmp_path / f"{view}.png"
    take_screenshot(window, out, view)
    with Image.open(out) as im:
        assert im.width > 300 and im.height > 200
    if view == "risk":
        assert window.queue.riskiest_first.isChecked()
    elif view == "across":
        assert window.across_dialog is not None and window.across_dialog.isVisible()
        assert window.across_dialog.table.model().rowCount() > 0
    elif view == "accuracy":
        assert window._learning_dialogs["accuracy"].isVisible()
    else:
        assert set(Path(tempfile.gettempdir()).glob("deid-screenshot-export-*")) == before
