"""Model → Proposed rules: approve or reject harvested template rules and inclusion sentences.
"""

from __future__ import annotations


from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from .common import notify_model_change, make_table, fill_table, selected_ids
from .background import Background


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
        self.rules = make_table(["Template", "Seen in", "Status"])
        self.sentences = make_table(["Sentence (confirmed free of PHI)", "Seen in", "Status"])
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
        from ...core.learn.proposals import list_inclusion_proposals, list_rules

        rules = list_rules(self.workspace)
        fill_table(self.rules, [[r.template, f"{r.support} documents", r.status] for r in rules], [r.id for r in rules])
        sents = list_inclusion_proposals(self.workspace)
        fill_table(self.sentences, [[p.sentence, f"{p.support} documents", p.status] for p in sents], [p.id for p in sents])

    def harvest_now(self) -> None:
        from ...core.learn.proposals import harvest

        self.harvest_button.setEnabled(False)
        self.info.setText("Harvesting from the reviewed documents…")
        ws = self.workspace
        self.background.run(lambda: harvest(ws), "harvesting rules", self._harvested, self._failed)

    def _harvested(self, result) -> None:
        from ...core.learn.proposals import save_harvest

        new = save_harvest(self.workspace, result)
        self.harvest_button.setEnabled(True)
        self.info.setText(f"{len(new.rules)} new template rule(s) and {len(new.sentences)} new inclusion sentence(s) proposed.")
        self.refresh()

    def _failed(self, message: str) -> None:
        self.harvest_button.setEnabled(True)
        self.info.setText(message)

    def decide(self, approve: bool) -> None:
        from ...core.learn.proposals import decide_inclusion, decide_rule

        on_rules = self.tabs.currentWidget() is self.rules
        table = self.rules if on_rules else self.sentences
        ids = selected_ids(table)
        for i in ids:
            if on_rules:
                decide_rule(self.workspace, int(i), approve=approve, reviewer=self.reviewer)
            else:
                decide_inclusion(self.workspace, int(i), approve=approve, reviewer=self.reviewer)
        self.refresh()
        if ids:
            notify_model_change(self.window_)

    def closeEvent(self, event) -> None:  # noqa: N802
        self.background.wait()
        super().closeEvent(event)
