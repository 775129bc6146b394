"""Building the default detection models in a separate process while the window is open
(``deid-desktop gui --build-models``).

Training takes minutes of CPU; in a thread it would hold the interpreter lock the window
needs, so it runs as its own process, ``deid-desktop build-model --if-missing``, with this
process's environment (``DEID_MODELS`` included). The child and the processes it starts get a
session of their own (on Unix), so stopping it stops them all: no training is left running
after the window closes. ``build-model`` writes each model folder under a hidden name and
renames it when complete (``core/models/modelio.save_model``), so a stopped build leaves no
model that would be loaded, and ``--if-missing`` builds it again on the next start.

What the child prints is synthetic training data's progress only (no document is read), yet
only a percentage and, on failure, one short line of it are ever shown.
"""

from __future__ import annotations

import os
import re
import signal
import sys

from PySide6.QtCore import QElapsedTimer, QObject, QProcess, QProcessEnvironment, Signal

TAIL_CHARS = 4000  # of the child's output, kept for the reason of a failure
REASON_CHARS = 160
STOP_WAIT_MS = 3000

_BUILDING = re.compile(r"building (.+?) \(")
_BAR = re.compile(r"([A-Za-z0-9][\w.-]*):\s+(\d{1,3})%\|")
_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def build_command() -> list[str]:
    """The command line of the build (tests replace this function so no model is trained)."""
    if getattr(sys, "frozen", False):  # the bundled app: its executable is the CLI itself
        return [sys.executable, "build-model", "--if-missing"]
    return [sys.executable, "-m", "deid_desktop.cli", "build-model", "--if-missing"]


def last_line(output: str) -> str:
    """The last non-empty line of the child's output, without terminal escapes or progress
    bars, shortened for a status bar."""
    lines = [_ESCAPE.sub("", line).strip() for line in re.split(r"[\r\n]+", output)]
    lines = [line for line in lines if line and not _BAR.search(line)]
    if not lines:
        return ""
    line = lines[-1]
    return line if len(line) <= REASON_CHARS else line[: REASON_CHARS - 1] + "…"


class ModelBuild(QObject):
    """One run of the build command. ``finished(ok, reason)`` comes once: ok with an empty
    reason, or not ok with a PHI-free reason (exit status and the child's last line). It
    does not come for a build that :meth:`stop` ended."""

    progress = Signal(int)  # percent of the training steps done, once the child reports it
    finished = Signal(bool, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.process: QProcess | None = None
        self.elapsed = QElapsedTimer()
        self.percent: int | None = None
        self._tail = ""
        self._members = 0
        self._bars: dict[str, int] = {}
        self._done = False
        self._stopped = False
        self._own_session = False  # the child leads a session (and process group) of its own

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.state() != QProcess.ProcessState.NotRunning

    @property
    def pid(self) -> int | None:
        return int(self.process.processId()) or None if self.process is not None else None

    def start(self, command: list[str] | None = None) -> None:
        argv = list(command or build_command())
        p = QProcess(self)
        env = QProcessEnvironment()
        for key, value in os.environ.items():
            env.insert(key, value)
        env.insert("PYTHONUNBUFFERED", "1")
        p.setProcessEnvironment(env)
        p.setProcessChannelMode(QProcess.ProcessChannelMode.MergedChannels)
        p.setStandardInputFile(QProcess.nullDevice())
        if hasattr(p, "setUnixProcessParameters") and os.name == "posix":
            p.setUnixProcessParameters(QProcess.UnixProcessFlag.CreateNewSession)
            self._own_session = True
        p.readyReadStandardOutput.connect(self._read)
        p.finished.connect(self._on_finished)
        p.errorOccurred.connect(self._on_error)
        self.process = p
        self.elapsed.start()
        p.start(argv[0], argv[1:])

    def stop(self, wait_ms: int = STOP_WAIT_MS) -> None:
        """End the build and every process it started: terminate, wait briefly, kill."""
        p = self.process
        if p is None or self._stopped:
            return  # the window may ask twice as it closes; the signals are gone already
        self._stopped = True
        self._done = True  # a stopped build reports nothing
        for sig in (p.finished, p.errorOccurred, p.readyReadStandardOutput):
            try:
                sig.disconnect()
            except (RuntimeError, TypeError):
                pass
        pid = self.pid
        if p.state() != QProcess.ProcessState.NotRunning:
            self._signal(p, pid, terminate=True)
            if not p.waitForFinished(wait_ms):
                self._signal(p, pid, terminate=False)
                p.waitForFinished(wait_ms)
        if pid is not None and self._own_session:
            # Workers of the build (one per member) may outlive their parent by a moment.
            self._signal_group(pid, signal.SIGKILL)

    def _signal(self, p: QProcess, pid: int | None, *, terminate: bool) -> None:
        if pid is not None and self._own_session and self._signal_group(pid, signal.SIGTERM if terminate else signal.SIGKILL):
            return
        p.terminate() if terminate else p.kill()

    @staticmethod
    def _signal_group(pid: int, sig: int) -> bool:
        """Signal the child's session (its process group, the child's pid); False when no
        process of it is left."""
        try:
            os.killpg(pid, sig)
        except OSError:
            return False
        return True

    # -- the child's output and end ------------------------------------------------------
    def _read(self) -> None:
        if self.process is None:
            return
        text = bytes(self.process.readAllStandardOutput().data()).decode("utf-8", "replace")
        self._tail = (self._tail + text)[-TAIL_CHARS:]
        m = _BUILDING.search(text)
        if m:
            self._members = len([n for n in m.group(1).split(",") if n.strip()])
        found = _BAR.findall(text)
        if not found:
            return
        for name, pct in found:
            self._bars[name] = min(100, int(pct))
        percent = sum(self._bars.values()) // max(self._members, len(self._bars))
        if percent != self.percent:
            self.percent = percent
            self.progress.emit(percent)

    def _on_finished(self, code: int, status: QProcess.ExitStatus) -> None:
        self._read()
        if status == QProcess.ExitStatus.CrashExit:
            self._finish(False, "the build process stopped unexpectedly")
        elif code != 0:
            line = last_line(self._tail)
            self._finish(False, f"exit status {code}" + (f": {line}" if line else ""))
        else:
            self._finish(True, "")

    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self._finish(False, "the build process could not be started")
        # other errors (a crash, a failed read) end in finished(), reported there

    def _finish(self, ok: bool, reason: str) -> None:
        if self._done:
            return
        self._done = True
        self.finished.emit(ok, reason)
