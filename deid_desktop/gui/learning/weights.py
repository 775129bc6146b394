"""Model → Ensemble weights: the fitted soft-vote weights (overall and per category), whether
the strategy uses them, and their history.
"""

from __future__ import annotations


from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...core.categories import Category, display_name
from ...core.errors import DeidError
from ..fitting import ScrollBody
from ..learning_charts import line_chart
from .common import notify_model_change, make_table, fill_table
from .background import WeightRefit


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
        from ...core.learn.loop import SETTING_REFIT_EVERY

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
        self.history = make_table(["Fitted", "Documents", "Weights"])
        layout.addWidget(self.history)
        self.by_category_source = QLabel()
        self.by_category_source.setWordWrap(True)
        layout.addWidget(self.by_category_source)
        self.by_category = make_table(["Member", *(display_name(c) for c in Category)])
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
        fill_table(self.history, rows)
        self._show_category_weights()

    def _show_category_weights(self) -> None:
        """The latest fit's per-category weights, else the ones the configuration ships."""
        from ...core.learn.workspace_detector import SETTING_ENSEMBLE

        fitted = self.workspace.ensemble_category_weights()
        if fitted:
            source = "Weight of each member per category, fitted on reviewed documents:"
            table = fitted
        else:
            table, source = _configured_category_weights(self.ensemble_config or self.workspace.get_setting(SETTING_ENSEMBLE))
        self.by_category_source.setText(source)
        fill_table(self.by_category, [[m, *(f"{row[c.value]:.3f}" if c.value in row else "–" for c in Category)] for m, row in table.items()])

    def _strategy(self) -> str | None:
        """How the detector combines its members; None when its configuration cannot be read."""
        from ...core.learn.loop import ensemble_config

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
            notify_model_change(self.window_)

    def closeEvent(self, event) -> None:  # noqa: N802
        if self.refit is not None:
            self.refit.background.wait()
        super().closeEvent(event)


def _configured_category_weights(config: str | None) -> tuple[dict[str, dict[str, float]], str]:
    """({member: {category: weight}}, a line saying where they come from) for the ensemble
    configuration ``config`` (None: the shipped default), without loading any model."""
    from ...core.detect.ensemble import EnsembleConfig, category_weights_json, load_category_weights
    from ...core.errors import ConfigError

    try:
        cfg = EnsembleConfig.load(config)
        path = cfg.category_weights_path()
        if path is None:
            return {}, "The ensemble configuration has no per-category weights: each member counts with its overall weight."
        return category_weights_json(load_category_weights(path)), "Weight of each member per category, as shipped (fitted on synthetic documents):"
    except ConfigError as e:
        return {}, f"Per-category weights unavailable: {e}"
