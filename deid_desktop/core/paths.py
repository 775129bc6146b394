"""Where shipped resources, local models and per-user data live.

In a checkout (``make run``, an editable install) resources and models sit beside the
package: ``resources/`` and ``models/``. An installed wheel carries the resources inside the
package (``deid_desktop/_resources``, copied there by setup.py) and keeps models in the
user's data folder. ``DEID_RESOURCES`` and ``DEID_MODELS`` override both.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
PROJECT_DIR = PACKAGE_DIR.parent
INSTALLED_RESOURCES = PACKAGE_DIR / "_resources"


def in_checkout() -> bool:
    """True when running from the source tree rather than from an installed wheel."""
    return (PROJECT_DIR / "pyproject.toml").is_file() and (PROJECT_DIR / "resources").is_dir()


def user_data_dir() -> Path:
    """The per-user folder for the workspace, the surrogate key and (installed) models."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "deid-desktop"


def resources_dir() -> Path:
    env = os.environ.get("DEID_RESOURCES")
    if env:
        return Path(env)
    if INSTALLED_RESOURCES.is_dir():
        return INSTALLED_RESOURCES
    return PROJECT_DIR / "resources"


def models_dir() -> Path:
    env = os.environ.get("DEID_MODELS")
    if env:
        return Path(env)
    return PROJECT_DIR / "models" if in_checkout() else user_data_dir() / "models"


def build_model_command() -> str:
    """What to tell a user who has no model yet: the Makefile target in a checkout, the
    command itself in an installed app."""
    return "make model" if in_checkout() else "deid-desktop build-model"


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
