"""Model → Retrain from corrections: the training process (``learn_cli retrain`` in a QProcess,
JSON progress lines, a stop file), its stages and the old-versus-new comparison.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QProcess, QProcessEnvironment, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...core.categories import Category, display_name
from ...core.learn.metrics import Evaluation
from ...core.learn.uncertainty import compare
from ..errors import show_error
from ..fitting import ScrollBody
from ..heldout import caveat_text, verdict_suffix
from ..learning_charts import bar_chart
from .common import notify_model_change, duration_text, make_table, fill_table, score_text
from .background import WeightRefit


STAGES = {
    "preparing": "Preparing the training data",
    "training": "Training",
    "saving": "Saving the new model",
    "evaluating": "Comparing old and new on held-out documents",
    "weights": "Re-fitting the ensemble weights",
    "done": "Done",
}


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
        self.category_table = make_table(["Category", "accepted", "rejected", "added", "relabelled", "resized"])
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
        self.comparison = make_table(["", "before P", "before R", "before F1", "after P", "after R", "after F1"])
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
        from ...core.learn.loop import retrain_summary

        s = retrain_summary(self.workspace)
        active = self.workspace.active_model_version()
        self.summary_label.setText(
            f"{s.reviewed_documents} reviewed document(s) will be used; {s.new_reviewed_documents} have decisions "
            f"made since the last model. Training continues from: {active.name if active else 'the shipped model'}."
        )
        order = ["accept", "reject", "add", "relabel", "resize"]
        rows = [[display_name(cat)] + [counts.get(a, 0) for a in order] for cat, counts in sorted(s.per_category.items())]
        fill_table(self.category_table, rows)
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
                self.status_label.setText(f"Training: step {done} of {total}, {duration_text(e.get('eta_s'))}")
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
                rows.append([title, score_text(o.get("precision")), score_text(o.get("recall")), score_text(o.get("f1")), score_text(n["precision"]), score_text(n["recall"]), score_text(n["f1"])])
            groups.append("all PHI")
            before.append(((old or {}).get("token") or {}).get("f1", 0.0))
            after.append(new["token"]["f1"])
            for cat, m in new.get("per_category", {}).items():
                if not m.get("tokens"):
                    continue
                o = ((old or {}).get("per_category") or {}).get(cat) or {}
                rows.append([display_name(cat), score_text(o.get("typed_precision")), score_text(o.get("typed_recall")), score_text(o.get("typed_f1")),
                             score_text(m["typed_precision"]), score_text(m["typed_recall"]), score_text(m["typed_f1"])])
                groups.append(display_name(cat)[:8])
                before.append(o.get("typed_f1", 0.0))
                after.append(m["typed_f1"])
        fill_table(self.comparison, rows)
        if groups:
            self.chart.setPixmap(bar_chart(groups, {"before": before, "after": after}, title="F1 on held-out reviewed documents"))
        better = result.get("better")
        name = result.get("version_name")
        cmp = compare(Evaluation.from_dict(old), Evaluation.from_dict(new)) if new and old else None
        self.caveat.setText(caveat_text(cmp) if cmp else "")
        self.caveat.setVisible(cmp is not None)
        if cmp is not None:
            self.result_box.setTitle(f"Old and new model on {cmp.documents} held-out reviewed document{'s' if cmp.documents != 1 else ''}")
        caution = verdict_suffix(cmp) if cmp else ""
        if result.get("activated"):
            self.verdict.setText(f"{name} scored better and is now active.{caution}")
        elif better is None:
            # why there was nothing to compare on (too few reviewed documents to hold any out)
            why = " ".join(n for n in result.get("notes") or [] if "trained on" in n)
            self.verdict.setText(f"{name} was saved. " + (f"{why[:1].upper()}{why[1:]}." if why else "There were no held-out documents to compare on."))
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
        notify_model_change(self.window_)
        self.refit = WeightRefit(self.workspace, self.ensemble_config, self)
        self.refit.finished.connect(lambda _w: notify_model_change(self.window_))
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
