"""``gui --build-models``: the window opens with the rules while the missing default models
build in a separate process, then switches to them and detects the unreviewed documents
again, keeping the reviewer's decisions. The build command is replaced by small Python
scripts here: no model is trained."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from deid_desktop.core.store import DocStatus
from deid_desktop.gui import model_build
from deid_desktop.gui.window_model_build import READY

from .conftest import RULES_ONLY, wait_idle
from .samples import CLINICAL_NOTE, LETTER, write_txt
from .test_app_cli import ROOT, RUN_CLI

pytestmark = pytest.mark.gui

# The rules plus a transformer member whose model is not built: the ensemble reports it
# missing, as the default ensemble does on a fresh machine.
MISSING_MEMBER_TOML = """
[ensemble]
strategy = "union"
propagate = false

[[member]]
name = "rules"
type = "rules"

[[member]]
name = "minilm-not-built"
type = "transformer"
model = "no-such-model-for-the-gui-tests"
optional = true
"""

# Prints a progress bar as tqdm does, waits for a file (argv[1]) to appear, then "builds the
# model": the ensemble file (argv[2]) loses its missing member, as if its model were now
# there, and exits 0.
WAIT_THEN_SUCCEED = (
    "import os, sys, time\n"
    "sys.stderr.write('deid-desktop: building minilm-a, minilm-b (side by side) from 1 synthetic documents\\n')\n"
    "sys.stderr.write('minilm-a:  50%|#####     | 5/10 [00:01<00:01]\\r')\n"
    "sys.stderr.flush()\n"
    "t = time.time()\n"
    "while not os.path.exists(sys.argv[1]) and time.time() - t < 60:\n"
    "    time.sleep(0.05)\n"
    "toml = open(sys.argv[2]).read()\n"
    "open(sys.argv[2], 'w').write(toml[: toml.index('[[member]]', toml.index('rules'))])\n"
    "sys.exit(0)\n"
)

FAIL = (
    "import sys, time\n"
    "time.sleep(0.2)\n"
    "sys.stderr.write('Traceback (most recent call last):\\n  ...\\nOSError: no space left on device\\n')\n"
    "sys.exit(3)\n"
)

# Starts a grandchild (as build-model starts one process per member), writes both ids, sleeps.
SLEEP_WITH_A_WORKER = (
    "import os, subprocess, sys, time\n"
    "worker = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
    "tmp = sys.argv[1] + '.tmp'\n"
    "open(tmp, 'w').write(f'{os.getpid()} {worker.pid}')\n"
    "os.replace(tmp, sys.argv[1])\n"
    "time.sleep(120)\n"
)


@pytest.fixture
def missing_toml(tmp_path) -> str:
    p = tmp_path / "missing_member.toml"
    p.write_text(MISSING_MEMBER_TOML, encoding="utf-8")
    return str(p)


@pytest.fixture
def fake_build(monkeypatch):
    """Replace the build command: ``fake_build.script = (code, *args)``; ``calls`` counts
    the builds the window started."""

    class Fake:
        script: tuple[str, ...] = ("pass",)
        calls = 0

        def command(self) -> list[str]:
            self.calls += 1
            return [sys.executable, "-c", *self.script]

    fake = Fake()
    monkeypatch.setattr(model_build, "build_command", fake.command)
    return fake


def _window(qtbot, workspace, settings, ensemble: str, build_models: bool):
    from deid_desktop.gui.main_window import MainWindow

    w = MainWindow(workspace, settings, ensemble_config=ensemble, build_models=build_models)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped (Linux)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def test_models_build_in_the_background_then_unreviewed_documents_are_detected_again(qtbot, workspace, settings, missing_toml, fake_build, tmp_path, monkeypatch):
    go = tmp_path / "go"
    fake_build.script = (WAIT_THEN_SUCCEED, str(go), missing_toml)
    window = _window(qtbot, workspace, settings, missing_toml, build_models=True)
    try:
        in_dir = tmp_path / "in"
        write_txt(in_dir / "a.txt", CLINICAL_NOTE)
        write_txt(in_dir / "b.txt", LETTER)
        write_txt(in_dir / "c.txt", CLINICAL_NOTE.replace("Okafor", "Okonjo"))
        window.import_paths([str(in_dir / n) for n in ("a.txt", "b.txt", "c.txt")])
        wait_idle(qtbot, window)

        # the window works with the rules while the build runs
        assert fake_build.calls == 1 and window.building_models
        label = window.model_build_label
        qtbot.waitUntil(lambda: window.model_build.percent == 25, timeout=20_000)  # 50 % of one of two members
        assert label.isVisible() and label.text().startswith("Building the detection models (first start, about 15 minutes on two CPU cores")
        assert "findings so far come from the rules only" in label.text()
        assert window.model_build_progress.isVisible() and window.model_build_progress.value() == 25
        assert window.detector_label.text() == "rules-only until the models are built"

        docs = {d.name: d.id for d in workspace.list_documents()}
        a, b, c = docs["a.txt"], docs["b.txt"], docs["c.txt"]
        window.open_document(a)
        qtbot.waitUntil(lambda: window.controller.document_id == a)
        decided = workspace.list_spans(a)[0]
        window.controller.select(decided.id)
        window.controller.reject()
        assert next(s for s in workspace.list_spans(a) if s.id == decided.id).state == "rejected"
        workspace.set_status(c, DocStatus.REVIEWED)
        decisions_before = [(d.id, d.span_id, d.action) for d in workspace.decisions(document_id=a)]
        runs_before = {d: {s.id: s.detection_run_id for s in workspace.list_spans(d)} for d in (a, b, c)}

        reloads, redetected = [], []
        real_refresh, real_detect = window.refresh_after_model_change, window.detect_documents
        monkeypatch.setattr(window, "refresh_after_model_change", lambda: (reloads.append(1), real_refresh())[1])
        monkeypatch.setattr(window, "detect_documents", lambda ids: (redetected.append(list(ids)), real_detect(ids))[1])

        go.write_text("")
        qtbot.waitUntil(lambda: label.text() == READY, timeout=60_000)
        assert not window.building_models and not window.model_build_progress.isVisible()
        assert window.statusBar().currentMessage() == READY
        assert reloads == [1]
        assert [sorted(ids) for ids in redetected] == [sorted([a, b])]  # c is reviewed: left alone

        # a's decision stands, the same span with the same state and the same log
        kept = next(s for s in workspace.list_spans(a) if s.id == decided.id)
        assert (kept.state, kept.start, kept.end) == ("rejected", decided.start, decided.end)
        assert [(d.id, d.span_id, d.action) for d in workspace.decisions(document_id=a)] == decisions_before
        # the undecided findings of a and b come from the new run; c's are as they were
        for doc in (a, b):
            undecided = [s for s in workspace.list_spans(doc) if s.state == "undecided"]
            assert undecided and all(s.detection_run_id not in runs_before[doc].values() for s in undecided)
        assert {s.id: s.detection_run_id for s in workspace.list_spans(c)} == runs_before[c]
        assert workspace.get_document(c).status == DocStatus.REVIEWED
    finally:
        window.close()


def test_a_build_that_leaves_a_member_missing_says_so(qtbot, workspace, settings, missing_toml, fake_build):
    fake_build.script = ("pass",)  # exits 0 at once and builds nothing
    window = _window(qtbot, workspace, settings, missing_toml, build_models=True)
    try:
        label = window.model_build_label
        qtbot.waitUntil(lambda: "still has no model" in label.text(), timeout=30_000)
        assert label.text() == "Models built, but this ensemble still has no model for: minilm-not-built; those members stay off"
        assert fake_build.calls == 1 and not window.building_models
    finally:
        window.close()


def test_a_failed_build_says_why_and_detection_stays_rules_only(qtbot, workspace, settings, missing_toml, fake_build):
    fake_build.script = (FAIL,)
    window = _window(qtbot, workspace, settings, missing_toml, build_models=True)
    try:
        label = window.model_build_label
        qtbot.waitUntil(lambda: "failed" in label.text(), timeout=30_000)
        text = label.text()
        assert text.startswith("Building the detection models failed (exit status 3: OSError: no space left on device)")
        assert "detection stays rules-only" in text and ("make model" in text or "deid-desktop build-model" in text)
        assert label.isVisible() and not window.model_build_progress.isVisible()
        assert window.statusBar().currentMessage() == text
        assert not window.building_models
        wait_idle(qtbot, window)
        assert window.detector_label.text().startswith("rules-only: no model built")
        assert window.provider.get().missing == ["minilm-not-built"]
        assert fake_build.calls == 1  # not tried again
    finally:
        window.close()


def test_a_build_command_that_cannot_start_is_reported(qtbot, workspace, settings, missing_toml, monkeypatch, tmp_path):
    monkeypatch.setattr(model_build, "build_command", lambda: [str(tmp_path / "no-such-program")])
    window = _window(qtbot, workspace, settings, missing_toml, build_models=True)
    try:
        qtbot.waitUntil(lambda: "failed" in window.model_build_label.text(), timeout=30_000)
        assert "the build process could not be started" in window.model_build_label.text()
        assert not window.building_models and not window.model_build_progress.isVisible()
    finally:
        window.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_closing_the_window_ends_the_build_and_its_workers(qtbot, workspace, settings, missing_toml, fake_build, tmp_path):
    pids_file = tmp_path / "pids"
    fake_build.script = (SLEEP_WITH_A_WORKER, str(pids_file))
    window = _window(qtbot, workspace, settings, missing_toml, build_models=True)
    qtbot.waitUntil(pids_file.exists, timeout=30_000)
    child, worker = (int(v) for v in pids_file.read_text().split())
    assert _alive(child) and _alive(worker) and window.building_models
    process = window.model_build.process

    window.close()  # asks nothing

    assert process.state() == process.ProcessState.NotRunning
    qtbot.waitUntil(lambda: not _alive(child) and not _alive(worker), timeout=5_000)
    assert "failed" not in window.model_build_label.text()  # a stopped build is no failure
    # the application quitting stops background work a second time: silently
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        window._stop_background_work()
    assert not [w for w in caught if "disconnect" in str(w.message)]


def test_no_build_without_the_option_or_when_nothing_is_missing(qtbot, workspace, settings, missing_toml, fake_build):
    without = _window(qtbot, workspace, settings, missing_toml, build_models=False)
    try:
        wait_idle(qtbot, without)
        assert without.detector_label.text().startswith("rules-only")  # the member is missing
        qtbot.wait(200)
        assert without.model_build is None and not without.model_build_label.isVisible()
    finally:
        without.close()
    complete = _window(qtbot, workspace, settings, RULES_ONLY, build_models=True)
    try:
        wait_idle(qtbot, complete)
        qtbot.wait(200)
        assert complete.model_build is None
    finally:
        complete.close()
    assert fake_build.calls == 0


def test_a_screenshot_never_starts_the_build(tmp_path, missing_toml):
    marker = tmp_path / "build-started"
    script = tmp_path / "run_cli.py"
    # The real entry point with the build command replaced by one that leaves a marker
    # the moment the window asks for it.
    script.write_text(
        "import sys\n"
        "from deid_desktop.gui import model_build\n"
        "def command():\n"
        f"    open({str(marker)!r}, 'w').close()\n"
        "    return [sys.executable, '-c', 'pass']\n"
        "model_build.build_command = command\n" + RUN_CLI,
        encoding="utf-8",
    )
    note = write_txt(tmp_path / "in" / "note.txt")
    out = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"), HF_HUB_OFFLINE="1")
    r = subprocess.run(
        [sys.executable, str(script), "gui", "--workspace", str(tmp_path / "ws.sqlite"), "--open", str(note),
         "--ensemble", missing_toml, "--build-models", "--screenshot", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert out.is_file() and out.stat().st_size > 0
    assert not marker.exists()
