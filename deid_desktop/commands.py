"""Sub-commands beyond detect/deidentify, registered into the CLI parser."""

from .cli import _EXTRA_COMMANDS
from .model_cli import register as _models

_EXTRA_COMMANDS.append(_models)
from .learn_cli import register as _learning

_EXTRA_COMMANDS.append(_learning)
from .gui_cli import register as _gui

_EXTRA_COMMANDS.append(_gui)
from .review_cli import register as _reviewers

_EXTRA_COMMANDS.append(_reviewers)
from .table_cli import register as _tables

_EXTRA_COMMANDS.append(_tables)
