"""User settings (QSettings) and the dialog that edits them."""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
    QGroupBox,
    QLabel,
)

from ..core.paths import user_data_dir
from ..core.surrogates.options import DEFAULT_OPTIONS
from . import file_dialogs

REVIEWER_ENV = "DEID_REVIEWER"
ORGANISATION = "deid-desktop"
APPLICATION = "deid-desktop"


def default_workspace_path() -> Path:
    return user_data_dir() / "workspace.sqlite"


def ask_reviewer_name(settings: "AppSettings", parent: QWidget | None = None) -> bool:
    """At first start: the name every decision will be recorded with (attribution, not a
    login: no password). Offers the account name; False when the user cancels."""
    from PySide6.QtWidgets import QInputDialog

    name, ok = QInputDialog.getText(
        parent, "Who is reviewing?",
        "Your name is recorded with every decision you make, so two reviewers' work can be told apart\n"
        "and compared. It is not a password; Settings changes it.",
        QLineEdit.EchoMode.Normal, _default_reviewer(),
    )
    if not ok or not name.strip():
        return False
    settings.reviewer = name
    return True


def _default_reviewer() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "reviewer"


class AppSettings:
    """Typed access to the QSettings store; tests pass their own QSettings file."""

    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store or QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANISATION, APPLICATION)

    def _str(self, key: str, default: str = "") -> str:
        v = self.store.value(key, default)
        return str(v) if v is not None else default

    def _int(self, key: str, default: int) -> int:
        try:
            return int(self.store.value(key, default))
        except (TypeError, ValueError):
            return default

    def _set(self, key: str, value) -> None:
        self.store.setValue(key, value)
        self.store.sync()

    # detection
    @property
    def ensemble_config(self) -> str:
        return self._str("detection/ensemble_config")

    @ensemble_config.setter
    def ensemble_config(self, v: str) -> None:
        self._set("detection/ensemble_config", v)

    @property
    def model_folder(self) -> str:
        return self._str("detection/model_folder")

    @model_folder.setter
    def model_folder(self, v: str) -> None:
        self._set("detection/model_folder", v)

    # surrogates
    @property
    def date_shift_min_days(self) -> int:
        return self._int("surrogates/date_shift_min_days", DEFAULT_OPTIONS.date_shift_min_days)

    @date_shift_min_days.setter
    def date_shift_min_days(self, v: int) -> None:
        self._set("surrogates/date_shift_min_days", int(v))

    @property
    def date_shift_max_days(self) -> int:
        return self._int("surrogates/date_shift_max_days", DEFAULT_OPTIONS.date_shift_max_days)

    @date_shift_max_days.setter
    def date_shift_max_days(self, v: int) -> None:
        self._set("surrogates/date_shift_max_days", int(v))

    @property
    def age_cap(self) -> int:
        return self._int("surrogates/age_cap", DEFAULT_OPTIONS.age_cap)

    @age_cap.setter
    def age_cap(self, v: int) -> None:
        self._set("surrogates/age_cap", int(v))

    # workspace and reviewer
    @property
    def workspace_path(self) -> str:
        return self._str("workspace/path") or str(default_workspace_path())

    @workspace_path.setter
    def workspace_path(self, v: str) -> None:
        self._set("workspace/path", v)

    @property
    def reviewer(self) -> str:
        return self._str("review/reviewer") or os.environ.get(REVIEWER_ENV, "").strip() or _default_reviewer()

    @property
    def reviewer_chosen(self) -> bool:
        """Whether a reviewer name was chosen (in Settings, at first start, or for this run by
        the DEID_REVIEWER environment variable); if not, the app asks at start."""
        return bool(self._str("review/reviewer").strip() or os.environ.get(REVIEWER_ENV, "").strip())

    @reviewer.setter
    def reviewer(self, v: str) -> None:
        self._set("review/reviewer", v.strip())

    # export dialog memory
    @property
    def export_folder(self) -> str:
        return self._str("export/folder")

    @export_folder.setter
    def export_folder(self, v: str) -> None:
        self._set("export/folder", v)

    @property
    def export_mode(self) -> str:
        return self._str("export/mode", "surrogate")

    @export_mode.setter
    def export_mode(self, v: str) -> None:
        self._set("export/mode", v)

    # queue order
    @property
    def queue_riskiest_first(self) -> bool:
        # An INI file hands booleans back as the strings "true" / "false".
        return self._str("queue/riskiest_first", "false").lower() == "true"

    @queue_riskiest_first.setter
    def queue_riskiest_first(self, v: bool) -> None:
        self._set("queue/riskiest_first", "true" if v else "false")

    # window layout
    def window_state(self) -> tuple[bytes | None, bytes | None]:
        return self.store.value("window/geometry"), self.store.value("window/state")

    def save_window_state(self, geometry: bytes, state: bytes) -> None:
        self.store.setValue("window/geometry", geometry)
        self.store.setValue("window/state", state)
        self.store.sync()


@dataclass(frozen=True)
class SettingsChange:
    detector: bool  # ensemble or model folder changed: rebuild the detector
    workspace: bool  # another workspace file: reopen
    reviewer: bool


class _PathField(QWidget):
    def __init__(self, value: str, *, folder: bool, caption: str, file_filter: str = "", save: bool = False) -> None:
        super().__init__()
        self.edit = QLineEdit(value)
        browse = QPushButton("Browse…")
        browse.setToolTip(caption)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.edit, 1)
        lay.addWidget(browse)

        def pick() -> None:
            start = self.edit.text() or str(Path.home())
            if folder:
                p = file_dialogs.existing_directory(self, caption, start)
            elif save:
                p = file_dialogs.save_file_name(self, caption, start, file_filter, confirm_overwrite=False)
            else:
                p = file_dialogs.open_file_name(self, caption, start, file_filter)
            if p:
                self.edit.setText(p)

        browse.clicked.connect(pick)

    def text(self) -> str:
        return self.edit.text().strip()


def _spin(lo: int, hi: int, value: int, suffix: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(lo, hi)
    box.setValue(value)
    box.setSuffix(suffix)
    return box


class SettingsDialog(QDialog):
    def __init__(self, settings: AppSettings, parent: QWidget | None = None, *, open_workspace: str | None = None) -> None:
        """``open_workspace``: the file the window has open, which is what the workspace field
        shows (the remembered path may name another, e.g. after ``--workspace``)."""
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(620)
        self.settings = settings
        self.ensemble = _PathField(settings.ensemble_config, folder=False, caption="Ensemble configuration", file_filter="Ensemble TOML (*.toml)")
        self.ensemble.edit.setPlaceholderText("shipped default (resources/ensembles/default.toml)")
        self.models = _PathField(settings.model_folder, folder=True, caption="Model folder")
        self.models.edit.setPlaceholderText("models/ in the installation")
        self.shift_min = _spin(0, 3650, settings.date_shift_min_days, " days")
        self.shift_max = _spin(1, 3650, settings.date_shift_max_days, " days")
        self.age_cap = _spin(0, 150, settings.age_cap)
        self.age_cap.setToolTip("Ages above this are written as a band (e.g. 90+), as HIPAA Safe Harbor requires.")
        self._open_workspace = open_workspace or settings.workspace_path
        self.workspace = _PathField(self._open_workspace, folder=False, caption="Workspace file", file_filter="Workspace (*.sqlite)", save=True)
        self.workspace.setToolTip("The workspace open now; choose another file to switch to it.")
        self.reviewer = QLineEdit(settings.reviewer)
        self.reviewer.setToolTip("Recorded with every decision in the audit log.")

        det = QGroupBox("Detection")
        f1 = QFormLayout(det)
        f1.addRow("Ensemble configuration", self.ensemble)
        f1.addRow("Model folder", self.models)
        sur = QGroupBox("Surrogates")
        f2 = QFormLayout(sur)
        shift = QHBoxLayout()
        shift.addWidget(self.shift_min)
        shift.addWidget(QLabel("to"))
        shift.addWidget(self.shift_max)
        f2.addRow("Date shift per subject", shift)
        f2.addRow("Age cap", self.age_cap)
        ws = QGroupBox("Workspace")
        f3 = QFormLayout(ws)
        f3.addRow("Workspace file", self.workspace)
        f3.addRow("Reviewer name", self.reviewer)
        self.error = QLabel()
        self.error.setStyleSheet("color: #B00020")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        for w in (det, sur, ws, self.error, buttons):
            lay.addWidget(w)
        self.change = SettingsChange(False, False, False)

    def validate(self) -> str | None:
        if self.shift_min.value() > self.shift_max.value():
            return "The smallest date shift must not be larger than the largest."
        e = self.ensemble.text()
        if e and not Path(e).expanduser().is_file():
            return "The ensemble configuration file does not exist."
        m = self.models.text()
        if m and not Path(m).expanduser().is_dir():
            return "The model folder does not exist."
        if not self.workspace.text():
            return "Choose a workspace file."
        if not self.reviewer.text().strip():
            return "Enter a reviewer name; it is recorded with every decision."
        return None

    def accept(self) -> None:
        problem = self.validate()
        if problem:
            self.error.setText(problem)
            return
        s = self.settings
        detector = (self.ensemble.text(), self.models.text()) != (s.ensemble_config, s.model_folder)
        workspace = not _same_file(self.workspace.text(), self._open_workspace)
        reviewer = self.reviewer.text().strip() != s.reviewer
        s.ensemble_config, s.model_folder = self.ensemble.text(), self.models.text()
        s.date_shift_min_days, s.date_shift_max_days = self.shift_min.value(), self.shift_max.value()
        s.age_cap = self.age_cap.value()
        if workspace:  # remembered only when chosen here, not because another one is open
            s.workspace_path = self.workspace.text()
        s.reviewer = self.reviewer.text()
        self.change = SettingsChange(detector, workspace, reviewer)
        super().accept()


def _same_file(a: str, b: str) -> bool:
    """Whether two spellings of a path name one file (``~``, relative parts, links)."""
    try:
        return Path(a).expanduser().resolve() == Path(b).expanduser().resolve()
    except OSError:
        return a == b
