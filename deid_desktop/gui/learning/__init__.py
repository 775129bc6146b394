"""The Model menu: retrain from corrections, model versions (rollback), ensemble weights,
proposed rules, allow / deny lists, accuracy on the user's own documents (``accuracy.py``).

Training runs in a separate process (``python -m deid_desktop.learn_cli retrain``) started
with QProcess, so the window stays usable and a crash in training cannot take the review
session with it; the process reports JSON progress lines and stops when its stop file
appears. Weight fitting and harvesting run on a worker thread and only read the workspace;
their results are written on the GUI thread, like every other write of the window.

The menu and one module per dialog: ``retrain``, ``versions``, ``weights``, ``proposals``,
``lists`` (accuracy is ``gui/accuracy.py``); ``background`` runs workspace reads off the GUI
thread; ``menu`` builds the menu and opens the dialogs.
"""

from __future__ import annotations

from .lists import ListsDialog
from .menu import DIALOGS, build_model_menu, open_learning_dialog
from .proposals import ProposedRulesDialog
from .retrain import RetrainDialog
from .versions import ModelVersionsDialog
from .weights import EnsembleWeightsDialog, weights_label

__all__ = [
    "DIALOGS",
    "EnsembleWeightsDialog",
    "ListsDialog",
    "ModelVersionsDialog",
    "ProposedRulesDialog",
    "RetrainDialog",
    "build_model_menu",
    "open_learning_dialog",
    "weights_label",
]
