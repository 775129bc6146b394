"""The Model menu: retrain from corrections, model versions (rollback), ensemble weights,
proposed rules, allow / deny lists, accuracy on the user's own documents (``accuracy.py``).

Training runs in a separate process (``python -m deid_desktop.learn_cli retrain``) started
with QProcess, so the window stays usable and a crash in training cannot take the review
session with it; the process reports JSON progress lines and stops when its stop file
appears. Weight fitting and harvesting run on a worker thread and only read the workspace;
their results are written on the GUI thread, like every other write of the window.
"""

from __future__ import annotations

import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..core.categories import Category, display_name
from ..core.errors import DeidError
from ..core.learn.uncertainty import compare
from . import file_dialogs
from .errors import show_error
from .fitting import ScrollBody
from .heldout import caveat_text, verdict_suffix
from .learning_charts import bar_chart, line_chart
from ..core.usecases.detection import failure_text
from .workers import Worker, start_in_thread

log = logging.getLogger(__name__)

STAGES = {
    "preparing": "Preparing the training data",
    "training": "Training",
    "saving": "Saving the new model",
    "evaluating": "Comparing old and new on held-out documents",
    "weights": "Re-fitting the ensemble weights",
    "done": "Done",
}


def _notify_model_change(window: Any) -> None:
    refresh = getattr(window, "refresh_after_model_change", None)
    if callable(refresh):
        refresh()


def _ensemble_config(window: Any) -> str | None:
    """The ensemble the window detects with, so a retrain compares and fits what the user runs."""
    provider = getattr(window, "provider", None)
    settings = getattr(provider, "settings", None)
    return getattr(settings, "ensemble_config", None)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "estimating…"
    s = int(round(seconds))
    if s < 60:
        return f"about {s} s left"
    return f"about {s // 60} min {s % 60:02d} s left"


def _table(headers: list[str]) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(True)
    return t


def _fill(table: QTableWidget, rows: list[list[Any]], ids: list[Any] | None = None) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem("" if value is None else str(value))
            if ids is not None and c == 0:
                item.setData(Qt.ItemDataRole.UserRole, ids[r])
            table.setItem(r, c, item)


def _selected_ids(table: QTableWidget) -> list[Any]:
    rows = sorted({i.row() for i in table.selectedItems()})
    return [table.item(r, 0).data(Qt.ItemDataRole.UserRole) for r in rows]


def _f(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


class CallWorker(Worker):
    """Runs one read-only function off the GUI thread."""

    done = Signal(object)
    failed = Signal(str)

    def __init__(self, fn: Callable[[], Any], what: str) -> None:
        super().__init__()
        self._fn = fn
        self._what = what

    @Slot()
    def run(self) -> None:
        try:
            self.done.emit(self._fn())
        except Exception as e:
            log.error("%s failed (%s)", self._what, type(e).__name__)
            self.failed.emit(failure_text(e, self._what))
        finally:
            self.finished.emit()


class Background(QObject):
    """Keeps a worker and its thread alive until the work is done."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.running: list[tuple[Worker, QThread]] = []

    def run(self, fn: Callable[[], Any], what: str, on_done: Callable[[Any], None], on_failed: Callable[[str], None]) -> None:
        worker = CallWorker(fn, what)
        worker.done.connect(on_done, Qt.ConnectionType.QueuedConnection)
        worker.failed.connect(on_failed, Qt.ConnectionType.QueuedConnection)
        # _reap is a method of this QObject, so it runs on the GUI thread, after this append.
        self.running.append((worker, start_in_thread(self, worker, self._reap)))

    def _reap(self) -> None:
        self.running = [(w, t) for w, t in self.running if not t.isFinished()]

    @property
    def busy(self) -> bool:
        return bool(self.running)

    def wait(self, ms: int = 30_000) -> None:
        for _, thread in list(self.running):
            thread.wait(ms)


class WeightRefit(QObject):
    """Fits the soft-vote weights off the GUI thread and saves them on it."""

    finished = Signal(object)  # the weights, or None

    def __init__(self, workspace, config: str | None, parent: QObject) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.config = config
        self.background = Background(self)

    def start(self) -> None:
        from ..core.learn.loop import fit_weights

        ws, cfg = self.workspace, self.config
        self.background.run(lambda: fit_weights(ws, config=cfg), "re-fitting the ensemble weights", self._done, self._failed)

    def _done(self, fit) -> None:
        from ..core.learn.loop import save_weight_fit

        if fit is not None:
            save_weight_fit(self.workspace, fit)
        self.finished.emit(fit.weights if fit is not None else None)

    def _failed(self, message: str) -> None:
        log.warning("%s", message)
        self.finished.emit(None)


# -- Retrain from corrections -----------------------------------------------------------------


class RetrainDialog(QDialog):
    """What will be used, the settings, then training in a separate process with progress,
    ETA and cancel; then old vs new side by side and Activate / Discard."""

    activated = Signal(int)  # model version id
    result_ready = Signal(dict)

    def __init__(self, workspace, parent: QWidget | None = None, *, ensemble_config: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Retrain from corrections")
        self.setObjectName("retrainDialog")
        self.workspace = workspace
        self.window_ = parent
        self.ensemble_config = ensemble_config
        self.process: QProcess | None = None
        self.result: dict[str, Any] | None = None
        self.stop_file: Path | None = None
        self._buffer = b""
        self._stderr = b""
        self.refit: WeightRefit | None = None

        # Everything but the buttons scrolls: with a result shown the content is taller than a
        # laptop screen, and the Activate / Discard / Close buttons must stay on it.
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        layout.addWidget(self.summary_label)
        self.category_table = _table(["Category", "accepted", "rejected", "added", "relabelled", "resized"])
        self.category_table.setMaximumHeight(170)
        layout.addWidget(self.category_table)

        box = QGroupBox("Settings")
        form = QFormLayout(box)
        self.epochs = QSpinBox(minimum=0, maximum=20, value=0)
        self.epochs.setSpecialValueText("auto")
        self.epochs.setToolTip("auto: several passes over a few documents, one over many, so training time stays bounded")
        self.augment = QSpinBox(minimum=0, maximum=10, value=1)
        self.augment.setToolTip("Each reviewed document is also rewritten this many times with surrogate values (004)")
        self.synthetic = QSpinBox(minimum=0, maximum=5000, value=100, singleStep=50)
        self.synthetic.setToolTip("At most this many synthetic documents (one per reviewed document) mixed in, so the model keeps what it knew")
        self.heldout = QDoubleSpinBox(minimum=0.0, maximum=0.5, value=0.2, singleStep=0.05, decimals=2)
        self.heldout.setToolTip("Share of reviewed documents kept out of training to compare old and new")
        self.device = QComboBox()
        self.device.addItems(["auto", "cpu", "cuda", "mps"])
        self.device.setToolTip("auto: the GPU when there is one")
        self.auto_activate = QCheckBox("Activate automatically when it scores better")
        form.addRow("Epochs", self.epochs)
        form.addRow("Surrogate rewrites per document", self.augment)
        form.addRow("Synthetic documents (at most)", self.synthetic)
        form.addRow("Held-out share", self.heldout)
        form.addRow("Device", self.device)
        form.addRow(self.auto_activate)
        layout.addWidget(box)

        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status_label = QLabel("")
        layout.addWidget(self.progress)
        layout.addWidget(self.status_label)

        self.result_box = QGroupBox("Old and new model on the held-out reviewed documents")
        rl = QVBoxLayout(self.result_box)
        self.comparison = _table(["", "before P", "before R", "before F1", "after P", "after R", "after F1"])
        self.chart = QLabel()
        self.chart.setObjectName("comparisonChart")
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.caveat = QLabel()
        self.caveat.setObjectName("heldoutCaveat")
        self.caveat.setWordWrap(True)
        rl.addWidget(self.comparison)
        rl.addWidget(self.caveat)
        rl.addWidget(self.chart)
        rl.addWidget(self.verdict)
        self.result_box.setVisible(False)
        layout.addWidget(self.result_box)

        self.body = ScrollBody(body)
        outer = QVBoxLayout(self)
        outer.addWidget(self.body, 1)
        buttons = QHBoxLayout()
        self.start_button = QPushButton("Start training")
        self.cancel_button = QPushButton("Cancel training")
        self.activate_button = QPushButton("Activate new model")
        self.discard_button = QPushButton("Discard (keep the current model)")
        self.close_button = QPushButton("Close")
        for b in (self.start_button, self.cancel_button, self.activate_button, self.discard_button, self.close_button):
            buttons.addWidget(b)
        outer.addLayout(buttons)
        self.start_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.activate_button.clicked.connect(self.activate)
        self.discard_button.clicked.connect(self.discard)
        self.close_button.clicked.connect(self.close)
        self._set_running(False)
        self.activate_button.setVisible(False)
        self.discard_button.setVisible(False)
        self.refresh_summary()

    # -- before ----------------------------------------------------------------------------
    def refresh_summary(self) -> None:
        from ..core.learn.loop import retrain_summary

        s = retrain_summary(self.workspace)
        active = self.workspace.active_model_version()
        self.summary_label.setText(
            f"{s.reviewed_documents} reviewed document(s) will be used; {s.new_reviewed_documents} have decisions "
            f"made since the last model. Training continues from: {active.name if active else 'the shipped model'}."
        )
        order = ["accept", "reject", "add", "relabel", "resize"]
        rows = [[display_name(cat)] + [counts.get(a, 0) for a in order] for cat, counts in sorted(s.per_category.items())]
        _fill(self.category_table, rows)
        self.start_button.setEnabled(s.reviewed_documents > 0 and self.process is None)
        if s.reviewed_documents == 0:
            self.status_label.setText("Review and mark some documents as reviewed first.")

    def arguments(self) -> list[str]:
        args = [
            "-m", "deid_desktop.learn_cli", "retrain",
            "--workspace", str(self.workspace.path),
            "--augment", str(self.augment.value()),
            "--synthetic", str(self.synthetic.value()),
            "--heldout", f"{self.heldout.value():.2f}",
            "--device", self.device.currentText(),
            "--progress", "json",
            "--stop-file", str(self.stop_file),
        ]
        if self.epochs.value() > 0:
            args += ["--epochs", str(self.epochs.value())]
        if self.auto_activate.isChecked():
            args.append("--activate-if-better")
        if self.ensemble_config:
            args += ["--ensemble", str(self.ensemble_config)]
        return args

    # -- during ----------------------------------------------------------------------------
    def _set_running(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for w in (self.epochs, self.augment, self.synthetic, self.heldout, self.device, self.auto_activate):
            w.setEnabled(not running)

    def start(self) -> None:
        if self.process is not None:
            return
        self.result = None
        self.result_box.setVisible(False)
        self.activate_button.setVisible(False)
        self.discard_button.setVisible(False)
        self.stop_file = Path(tempfile.mkdtemp(prefix="deid-retrain-")) / "stop"
        proc = QProcess(self)
        env = QProcessEnvironment.systemEnvironment()
        env.insert("PYTHONUNBUFFERED", "1")
        env.insert("HF_HUB_OFFLINE", "1")
        env.insert("TRANSFORMERS_OFFLINE", "1")
        proc.setProcessEnvironment(env)
        proc.setProgram(sys.executable)
        proc.setArguments(self.arguments())
        proc.readyReadStandardOutput.connect(self._read_stdout)
        proc.readyReadStandardError.connect(self._read_stderr)
        proc.finished.connect(self._finished)
        proc.errorOccurred.connect(self._process_error)
        self.process = proc
        self._buffer = self._stderr = b""
        self.progress.setRange(0, 0)  # busy until the first step is known
        self.status_label.setText("Starting the training process…")
        self._set_running(True)
        proc.start()

    def cancel(self) -> None:
        if self.process is None or self.stop_file is None:
            return
        self.stop_file.write_text("", encoding="utf-8")
        self.status_label.setText("Cancelling…")
        self.cancel_button.setEnabled(False)
        proc = self.process
        # A run stuck outside the training loop (loading a model) is stopped the hard way.
        QTimer.singleShot(20_000, lambda: proc.kill() if self.process is proc else None)

    @property
    def running(self) -> bool:
        return self.process is not None

    def _read_stdout(self) -> None:
        if self.process is None:
            return
        self._buffer += bytes(self.process.readAllStandardOutput())
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            try:
                event = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
            if isinstance(event, dict):
                self._event(event)

    def _read_stderr(self) -> None:
        if self.process is not None:
            # The command's own messages name files and reasons only; kept for an error box.
            self._stderr = (self._stderr + bytes(self.process.readAllStandardError()))[-4000:]

    def _event(self, e: dict[str, Any]) -> None:
        kind = e.get("event")
        if kind == "progress":
            stage = e.get("stage", "")
            total, done = int(e.get("total") or 0), int(e.get("done") or 0)
            if stage == "training" and total:
                self.progress.setRange(0, total)
                self.progress.setValue(done)
                self.status_label.setText(f"Training: step {done} of {total}, {_duration(e.get('eta_s'))}")
            else:
                # stages other than training have no step count: a busy bar
                self.progress.setRange(0, 1 if stage == "done" else 0)
                self.status_label.setText(STAGES.get(stage, stage) + "…")
        elif kind == "result":
            self.result = e

    def _remove_stop_file(self) -> None:
        if self.stop_file is not None:
            self.stop_file.unlink(missing_ok=True)
            self.stop_file.parent.rmdir()
            self.stop_file = None

    def _process_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            self.process = None
            self._remove_stop_file()
            self._set_running(False)
            show_error(self, "Retrain", "The training process could not be started.")

    def _finished(self, code: int, _status: QProcess.ExitStatus) -> None:
        self._read_stdout()
        self.process = None
        self._remove_stop_file()
        self._set_running(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1 if code == 0 else 0)
        if self.result is not None and self.result.get("status") == "ok":
            self.show_result(self.result)
        elif code == 130 or (self.result is not None and self.result.get("status") == "cancelled"):
            self.status_label.setText("Training cancelled; the current model stays active.")
        else:
            reason = self._stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no details"]
            self.status_label.setText("Training failed.")
            show_error(self, "Retrain", "Training did not finish.", reason[0])
        self.refresh_summary()

    # -- after -----------------------------------------------------------------------------
    def show_result(self, result: dict[str, Any]) -> None:
        self.result = result
        new, old = result.get("metrics"), result.get("previous_metrics")
        self.result_box.setVisible(True)
        rows: list[list[Any]] = []
        groups: list[str] = []
        before: list[float] = []
        after: list[float] = []
        if new:
            for key, title in (("token", "PHI words (binary)"), ("typed_token", "PHI words, typed")):
                o = (old or {}).get(key) or {}
                n = new[key]
                rows.append([title, _f(o.get("precision")), _f(o.get("recall")), _f(o.get("f1")), _f(n["precision"]), _f(n["recall"]), _f(n["f1"])])
            groups.append("all PHI")
            before.append(((old or {}).get("token") or {}).get("f1", 0.0))
            after.append(new["token"]["f1"])
            for cat, m in new.get("per_category", {}).items():
                if not m.get("tokens"):
                    continue
                o = ((old or {}).get("per_category") or {}).get(cat) or {}
                rows.append([display_name(cat), _f(o.get("typed_precision")), _f(o.get("typed_recall")), _f(o.get("typed_f1")),
                             _f(m["typed_precision"]), _f(m["typed_recall"]), _f(m["typed_f1"])])
                groups.append(display_name(cat)[:8])
                before.append(o.get("typed_f1", 0.0))
                after.append(m["typed_f1"])
        _fill(self.comparison, rows)
        if groups:
            self.chart.setPixmap(bar_chart(groups, {"before": before, "after": after}, title="F1 on held-out reviewed documents"))
        better = result.get("better")
        name = result.get("version_name")
        cmp = compare(old, new) if new and old else None
        self.caveat.setText(caveat_text(cmp) if cmp else "")
        self.caveat.setVisible(cmp is not None)
        if cmp is not None:
            self.result_box.setTitle(f"Old and new model on {cmp.documents} held-out reviewed document{'s' if cmp.documents != 1 else ''}")
        caution = verdict_suffix(cmp) if cmp else ""
        if result.get("activated"):
            self.verdict.setText(f"{name} scored better and is now active.{caution}")
        elif better is None:
            self.verdict.setText(f"{name} was saved. There were no held-out documents to compare on.")
        else:
            self.verdict.setText(f"{name} scored {'better' if better else 'no better'} than the current model on the held-out documents.{caution}")
        self.status_label.setText(f"Trained in {result.get('seconds', 0):.0f} s on {result.get('counts', {}).get('total', 0)} documents.")
        can_activate = not result.get("activated") and result.get("model_version_id") is not None
        self.activate_button.setVisible(can_activate)
        self.discard_button.setVisible(can_activate)
        # Grow to show the result, as far as the screen allows; the rest scrolls.
        self.resize(self.size().expandedTo(self.sizeHint()))
        self.result_ready.emit(result)
        if result.get("activated"):
            self._after_activation(int(result["model_version_id"]))

    def activate(self) -> None:
        if not self.result or self.result.get("model_version_id") is None:
            return
        vid = int(self.result["model_version_id"])
        self.workspace.activate_model_version(vid)
        self.activate_button.setVisible(False)
        self.discard_button.setVisible(False)
        self.verdict.setText(f"{self.result.get('version_name')} is now active.")
        self._after_activation(vid)

    def _after_activation(self, vid: int) -> None:
        self.activated.emit(vid)
        _notify_model_change(self.window_)
        self.refit = WeightRefit(self.workspace, self.ensemble_config, self)
        self.refit.finished.connect(lambda _w: _notify_model_change(self.window_))
        self.refit.start()

    def discard(self) -> None:
        self.activate_button.setVisible(False)
        self.discard_button.setVisible(False)
        self.verdict.setText("Kept the current model. The new version stays listed under Model versions.")

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if self.process is not None:
            self.cancel()
            self.process.waitForFinished(30_000)
        if self.refit is not None:
            self.refit.background.wait()
        super().closeEvent(event)


# -- Model versions --------------------------------------------------------------------------


class ModelVersionsDialog(QDialog):
    """Every trained version with its held-out scores; Activate makes any of them (or the
    shipped model) the one detection uses."""

    SHIPPED = -1

    def __init__(self, workspace, parent: QWidget | None = None, *, ensemble_config: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Model versions")
        self.setObjectName("modelVersionsDialog")
        self.workspace = workspace
        self.window_ = parent
        self.ensemble_config = ensemble_config
        self.refit: WeightRefit | None = None
        layout = QVBoxLayout(self)
        self.table = _table(["Version", "Active", "Created", "Held-out F1", "Recall", "Precision", "Before F1", "Trained on"])
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        self.activate_button = QPushButton("Activate selected")
        self.activate_button.setToolTip("Make the selected version the one detection uses (an older one: rollback)")
        close = QPushButton("Close")
        row.addWidget(self.activate_button)
        row.addStretch(1)
        row.addWidget(close)
        layout.addLayout(row)
        self.activate_button.clicked.connect(self.activate_selected)
        close.clicked.connect(self.close)
        self.resize(760, 360)
        self.refresh()

    def refresh(self) -> None:
        versions = self.workspace.list_model_versions()
        rows: list[list[Any]] = [["shipped model", "yes" if not any(v.active for v in versions) else "", "", "", "", "", "", ""]]
        ids: list[int] = [self.SHIPPED]
        for v in versions:
            h = (v.metrics.get("heldout") or {}).get("token") or {}
            b = (v.metrics.get("previous") or {}).get("token") or {}
            docs = v.metrics.get("train_documents")
            rows.append([v.name, "yes" if v.active else "", f"{v.created_at:%Y-%m-%d %H:%M}", _f(h.get("f1")), _f(h.get("recall")),
                         _f(h.get("precision")), _f(b.get("f1")), f"{docs} reviewed" if docs is not None else ""])
            ids.append(v.id)
        _fill(self.table, rows, ids)

    def select(self, version_id: int) -> None:
        for r in range(self.table.rowCount()):
            if self.table.item(r, 0).data(Qt.ItemDataRole.UserRole) == version_id:
                self.table.selectRow(r)

    def activate_selected(self) -> None:
        ids = _selected_ids(self.table)
        if not ids:
            return
        if ids[0] == self.SHIPPED:
            self.workspace.deactivate_model_versions()
        else:
            self.workspace.activate_model_version(int(ids[0]))
        self.refresh()
        _notify_model_change(self.window_)
        self.refit = WeightRefit(self.workspace, self.ensemble_config, self)
        self.refit.finished.connect(lambda _w: _notify_model_change(self.window_))
        self.refit.start()

    def closeEvent(self, event) -> None:  # noqa: N802
        if self.refit is not None:
            self.refit.background.wait()
        super().closeEvent(event)


# -- Ensemble weights ------------------------------------------------------------------------


STRATEGY_WORDS = {"union": "union (any member's finding counts)", "majority": "majority vote", "soft_vote": "soft vote"}


def weights_label(strategy: str | None, n_documents: int, weights: dict[str, float]) -> str:
    """Say whether the fitted weights decide anything: only the soft vote uses them, so under
    a union or a majority vote they are fitted but not in use."""
    listed = ",  ".join(f"{k} {v:.3f}" for k, v in weights.items())
    fitted = f"fitted on {n_documents} reviewed documents: {listed}"
    if strategy == "soft_vote":
        return f"In use by the soft vote ({fitted})."
    how = STRATEGY_WORDS.get(strategy or "", "a strategy that could not be read")
    return (f"Not in use: the detector combines its members by {how}, which ignores weights. "
            f"Weights {fitted}; they take effect when the ensemble's strategy is soft_vote.")


class EnsembleWeightsDialog(QDialog):
    """The fitted soft-vote weights (and whether the active strategy uses them), their history
    as a chart, each member's weight per category (how far it is trusted on dates, on names,
    ...), and when they are re-fitted."""

    def __init__(self, workspace, parent: QWidget | None = None, *, ensemble_config: str | None = None) -> None:
        from ..core.learn.loop import SETTING_REFIT_EVERY

        super().__init__(parent)
        self.setWindowTitle("Ensemble weights")
        self.setObjectName("ensembleWeightsDialog")
        self.workspace = workspace
        self.window_ = parent
        self.ensemble_config = ensemble_config
        self.refit: WeightRefit | None = None
        body = QWidget()
        layout = QVBoxLayout(body)
        self.current = QLabel()
        self.current.setWordWrap(True)
        layout.addWidget(self.current)
        self.chart = QLabel()
        self.chart.setObjectName("weightsChart")
        layout.addWidget(self.chart)
        self.history = _table(["Fitted", "Documents", "Weights"])
        layout.addWidget(self.history)
        self.by_category_source = QLabel()
        self.by_category_source.setWordWrap(True)
        layout.addWidget(self.by_category_source)
        self.by_category = _table(["Member", *(display_name(c) for c in Category)])
        self.by_category.setObjectName("categoryWeightsTable")
        self.by_category.setToolTip("A member's soft-vote weight when it says a word is of that category; "
                                    "a dash: the member's overall weight is used")
        layout.addWidget(self.by_category)
        form = QFormLayout()
        self.every = QSpinBox(minimum=0, maximum=10_000, value=int(workspace.get_setting(SETTING_REFIT_EVERY, 0) or 0))
        self.every.setToolTip("0: only after a retrain or when you press Re-fit now")
        self.every.valueChanged.connect(lambda v: workspace.set_setting(SETTING_REFIT_EVERY, int(v)))
        form.addRow("Re-fit after every N newly reviewed documents", self.every)
        layout.addLayout(form)
        # the tables scroll on a small screen; the buttons stay in reach below them
        outer = QVBoxLayout(self)
        outer.addWidget(ScrollBody(body), 1)
        row = QHBoxLayout()
        self.refit_button = QPushButton("Re-fit now")
        close = QPushButton("Close")
        row.addWidget(self.refit_button)
        row.addStretch(1)
        row.addWidget(close)
        outer.addLayout(row)
        self.refit_button.clicked.connect(self.refit_now)
        close.clicked.connect(self.close)
        self.refresh()

    def refresh(self) -> None:
        history = self.workspace.ensemble_weight_history()
        if not history:
            self.current.setText("No weights fitted yet: the ensemble uses the weights in its configuration.")
            self.chart.clear()
        else:
            _, w, n = history[-1]
            self.current.setText(weights_label(self._strategy(), n, w))
            members = list(dict.fromkeys(k for _, ws_, _ in history for k in ws_))
            series = {m: [h[1].get(m, 0.0) for h in history] for m in members}
            self.chart.setPixmap(line_chart(series, title="Soft-vote weight of each member"))
        rows = [[f"{t:%Y-%m-%d %H:%M}", n, ",  ".join(f"{k} {v:.3f}" for k, v in w.items())] for t, w, n in reversed(history)]
        _fill(self.history, rows)
        self._show_category_weights()

    def _show_category_weights(self) -> None:
        """The latest fit's per-category weights, else the ones the configuration ships."""
        from ..core.learn.workspace_detector import SETTING_ENSEMBLE

        fitted = self.workspace.ensemble_category_weights()
        if fitted:
            source = "Weight of each member per category, fitted on reviewed documents:"
            table = fitted
        else:
            table, source = _configured_category_weights(self.ensemble_config or self.workspace.get_setting(SETTING_ENSEMBLE))
        self.by_category_source.setText(source)
        _fill(self.by_category, [[m, *(f"{row[c.value]:.3f}" if c.value in row else "–" for c in Category)] for m, row in table.items()])

    def _strategy(self) -> str | None:
        """How the detector combines its members; None when its configuration cannot be read."""
        from ..core.learn.loop import ensemble_config

        try:
            return ensemble_config(self.workspace, self.ensemble_config).strategy
        except (DeidError, OSError, ValueError):
            return None

    def refit_now(self) -> None:
        self.refit_button.setEnabled(False)
        self.current.setText("Re-fitting on the most recent reviewed documents…")
        self.refit = WeightRefit(self.workspace, self.ensemble_config, self)
        self.refit.finished.connect(self._refitted)
        self.refit.start()

    def _refitted(self, weights) -> None:
        self.refit_button.setEnabled(True)
        self.refresh()
        if weights is None:
            self.current.setText(self.current.text() + "  (Nothing re-fitted: review some documents first.)")
        else:
            _notify_model_change(self.window_)

    def closeEvent(self, event) -> None:  # noqa: N802
        if self.refit is not None:
            self.refit.background.wait()
        super().closeEvent(event)


def _configured_category_weights(config: str | None) -> tuple[dict[str, dict[str, float]], str]:
    """({member: {category: weight}}, a line saying where they come from) for the ensemble
    configuration ``config`` (None: the shipped default), without loading any model."""
    from ..core.detect.ensemble import EnsembleConfig, category_weights_json, load_category_weights
    from ..core.errors import ConfigError

    try:
        cfg = EnsembleConfig.load(config)
        path = cfg.category_weights_path()
        if path is None:
            return {}, "The ensemble configuration has no per-category weights: each member counts with its overall weight."
        return category_weights_json(load_category_weights(path)), "Weight of each member per category, as shipped (fitted on synthetic documents):"
    except ConfigError as e:
        return {}, f"Per-category weights unavailable: {e}"


# -- Proposed rules --------------------------------------------------------------------------


class ProposedRulesDialog(QDialog):
    """Harvested template rules and inclusion sentences, each approved or rejected by a
    person before detection uses it."""

    def __init__(self, workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Proposed rules")
        self.setObjectName("proposedRulesDialog")
        self.workspace = workspace
        self.window_ = parent
        self.background = Background(self)
        layout = QVBoxLayout(self)
        self.info = QLabel("Templates and sentences seen in at least 3 reviewed documents. Nothing is used until you approve it.")
        self.info.setWordWrap(True)
        layout.addWidget(self.info)
        self.tabs = QTabWidget()
        self.rules = _table(["Template", "Seen in", "Status"])
        self.sentences = _table(["Sentence (confirmed free of PHI)", "Seen in", "Status"])
        self.tabs.addTab(self.rules, "Template rules")
        self.tabs.addTab(self.sentences, "Inclusion sentences")
        layout.addWidget(self.tabs)
        row = QHBoxLayout()
        self.harvest_button = QPushButton("Harvest now")
        self.approve_button = QPushButton("Approve")
        self.reject_button = QPushButton("Reject")
        close = QPushButton("Close")
        for b in (self.harvest_button, self.approve_button, self.reject_button):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(close)
        layout.addLayout(row)
        self.harvest_button.clicked.connect(self.harvest_now)
        self.approve_button.clicked.connect(lambda: self.decide(True))
        self.reject_button.clicked.connect(lambda: self.decide(False))
        close.clicked.connect(self.close)
        self.resize(760, 420)
        self.refresh()

    @property
    def reviewer(self) -> str:
        return getattr(getattr(self.window_, "settings", None), "reviewer", None) or "reviewer"

    def refresh(self) -> None:
        from ..core.learn.proposals import list_inclusion_proposals, list_rules

        rules = list_rules(self.workspace)
        _fill(self.rules, [[r.template, f"{r.support} documents", r.status] for r in rules], [r.id for r in rules])
        sents = list_inclusion_proposals(self.workspace)
        _fill(self.sentences, [[p.sentence, f"{p.support} documents", p.status] for p in sents], [p.id for p in sents])

    def harvest_now(self) -> None:
        from ..core.learn.proposals import harvest

        self.harvest_button.setEnabled(False)
        self.info.setText("Harvesting from the reviewed documents…")
        ws = self.workspace
        self.background.run(lambda: harvest(ws), "harvesting rules", self._harvested, self._failed)

    def _harvested(self, result) -> None:
        from ..core.learn.proposals import save_harvest

        new = save_harvest(self.workspace, result)
        self.harvest_button.setEnabled(True)
        self.info.setText(f"{len(new.rules)} new template rule(s) and {len(new.sentences)} new inclusion sentence(s) proposed.")
        self.refresh()

    def _failed(self, message: str) -> None:
        self.harvest_button.setEnabled(True)
        self.info.setText(message)

    def decide(self, approve: bool) -> None:
        from ..core.learn.proposals import decide_inclusion, decide_rule

        on_rules = self.tabs.currentWidget() is self.rules
        table = self.rules if on_rules else self.sentences
        ids = _selected_ids(table)
        for i in ids:
            if on_rules:
                decide_rule(self.workspace, int(i), approve=approve, reviewer=self.reviewer)
            else:
                decide_inclusion(self.workspace, int(i), approve=approve, reviewer=self.reviewer)
        self.refresh()
        if ids:
            _notify_model_change(self.window_)

    def closeEvent(self, event) -> None:  # noqa: N802
        self.background.wait()
        super().closeEvent(event)


# -- Allow / deny lists ----------------------------------------------------------------------


class ListsDialog(QDialog):
    """Terms never flagged (allow) and always flagged (deny), per scope; plain-file import
    and export."""

    def __init__(self, workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Allow / deny lists")
        self.setObjectName("listsDialog")
        self.workspace = workspace
        self.window_ = parent
        layout = QVBoxLayout(self)
        self.table = _table(["List", "Term", "Category", "Applies to"])
        layout.addWidget(self.table)

        form = QHBoxLayout()
        self.kind = QComboBox()
        self.kind.addItem("Never flag (allow)", "allow")
        self.kind.addItem("Always flag (deny)", "deny")
        self.term = QLineEdit()
        self.term.setPlaceholderText("term, or a regular expression")
        self.is_regex = QCheckBox("regex")
        self.category = QComboBox()
        for c in Category:
            self.category.addItem(display_name(c), c.value)
        self.scope = QComboBox()
        for s in ("workspace", "subject", "document"):
            self.scope.addItem(s, s)
        self.scope_id = QLineEdit()
        self.scope_id.setPlaceholderText("subject or document id")
        self.add_button = QPushButton("Add")
        for w in (self.kind, self.term, self.is_regex, self.category, self.scope, self.scope_id, self.add_button):
            form.addWidget(w)
        layout.addLayout(form)
        self.kind.currentIndexChanged.connect(lambda _i: self.category.setEnabled(self.kind.currentData() == "deny"))
        self.category.setEnabled(False)

        row = QHBoxLayout()
        self.remove_button = QPushButton("Remove selected")
        self.import_button = QPushButton("Import list…")
        self.export_button = QPushButton("Export list…")
        close = QPushButton("Close")
        for b in (self.remove_button, self.import_button, self.export_button):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(close)
        layout.addLayout(row)
        self.add_button.clicked.connect(self.add_from_form)
        self.remove_button.clicked.connect(self.remove_selected)
        self.import_button.clicked.connect(self._ask_import)
        self.export_button.clicked.connect(self._ask_export)
        close.clicked.connect(self.close)
        self.resize(820, 420)
        self.refresh()

    def refresh(self) -> None:
        from ..core.learn.term_lists import list_terms

        terms = list_terms(self.workspace)
        rows = [
            ["allow" if t.kind == "allow" else "deny", ("re: " if t.is_regex else "") + t.term, display_name(t.category) if t.category else "",
             t.scope if t.scope == "workspace" else f"{t.scope} {t.scope_id}"]
            for t in terms
        ]
        _fill(self.table, rows, [t.id for t in terms])

    def add_from_form(self) -> bool:
        from ..core.learn.term_lists import add_term

        kind = self.kind.currentData()
        scope = self.scope.currentData()
        try:
            add_term(self.workspace, kind, self.term.text(), category=self.category.currentData() if kind == "deny" else None,
                     is_regex=self.is_regex.isChecked(), scope=scope, scope_id=self.scope_id.text().strip() or None)
        except (ValueError, DeidError) as e:
            show_error(self, "Allow / deny lists", str(e))
            return False
        self.term.clear()
        self._changed()
        return True

    def remove_selected(self) -> None:
        from ..core.learn.term_lists import remove_term

        ids = _selected_ids(self.table)
        for i in ids:
            remove_term(self.workspace, int(i))
        if ids:
            self._changed()

    def import_file(self, path: str | Path, kind: str) -> int:
        from ..core.learn.term_lists import import_terms

        try:
            n = import_terms(self.workspace, path, kind)  # type: ignore[arg-type]
        except DeidError as e:
            show_error(self, "Import list", str(e))
            return 0
        self._changed()
        return n

    def export_file(self, path: str | Path, kind: str) -> int:
        from ..core.learn.term_lists import export_terms

        return export_terms(self.workspace, path, kind)  # type: ignore[arg-type]

    def _ask_import(self) -> None:
        path = file_dialogs.open_file_name(self, "Import list", "", "Text files (*.txt);;All files (*)")
        if path:
            self.import_file(path, self.kind.currentData())

    def _ask_export(self) -> None:
        path = file_dialogs.save_file_name(self, "Export list", f"{self.kind.currentData()}-list.txt", "Text files (*.txt)")
        if path:
            self.export_file(path, self.kind.currentData())

    def _changed(self) -> None:
        self.refresh()
        _notify_model_change(self.window_)


# -- the menu --------------------------------------------------------------------------------

DIALOGS = {
    "retrain": ("Retrain from corrections…", "Fine-tune the model on the documents you reviewed"),
    "versions": ("Model versions…", "Every trained version with its scores; activate one to roll back"),
    "weights": ("Ensemble weights…", "The fitted soft-vote weights, whether the active strategy uses them, and their history"),
    "rules": ("Proposed rules…", "Approve or reject harvested template rules and inclusion sentences"),
    "lists": ("Allow / deny lists…", "Terms never flagged, and terms always flagged"),
    "accuracy": ("Accuracy on your documents…", "Precision and recall per category on the documents you reviewed, per model version and over time"),
}


def open_learning_dialog(window: Any, workspace_getter: Callable[[], Any], kind: str) -> QDialog | None:
    """Open (or raise) one of the Model menu's dialogs; one of each kind per window."""
    ws = workspace_getter()
    if ws is None:
        QMessageBox.information(window, "Model", "Open a workspace first.")
        return None
    dialogs: dict[str, QDialog] = window.__dict__.setdefault("_learning_dialogs", {})
    dlg = dialogs.get(kind)
    if dlg is not None and dlg.isVisible() and getattr(dlg, "workspace", None) is ws:
        dlg.raise_()
        dlg.activateWindow()
        return dlg
    cfg = _ensemble_config(window)
    if kind == "retrain":
        dlg = RetrainDialog(ws, window, ensemble_config=cfg)
    elif kind == "versions":
        dlg = ModelVersionsDialog(ws, window, ensemble_config=cfg)
    elif kind == "weights":
        dlg = EnsembleWeightsDialog(ws, window, ensemble_config=cfg)
    elif kind == "rules":
        dlg = ProposedRulesDialog(ws, window)
    elif kind == "lists":
        dlg = ListsDialog(ws, window)
    elif kind == "accuracy":
        from .accuracy import AccuracyDialog  # imports this module: loaded on first use

        dlg = AccuracyDialog(ws, window)
    else:
        raise ValueError(f"unknown dialog {kind!r}")
    dlg.setWindowFlag(Qt.WindowType.Window, True)
    dialogs[kind] = dlg
    dlg.show()
    return dlg


def build_model_menu(window: Any, workspace_getter: Callable[[], Any]) -> QMenu:
    menu = QMenu("&Model", window)
    menu.setObjectName("modelMenu")
    menu.setToolTipsVisible(True)
    for kind, (title, tip) in DIALOGS.items():
        action = menu.addAction(title)
        action.setObjectName(f"model_{kind}")
        action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False, k=kind: open_learning_dialog(window, workspace_getter, k))
        if kind == "versions":
            menu.addSeparator()
    return menu
